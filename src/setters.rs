//! Chainable setters for the optional members of the contract records (crate-private support;
//! the convention is in `docs/decisions/api-growth.md`).

/// Declares `with_<member>` setters on a record: each takes the parameter type written (the
/// member's inner type, or `impl Into<String>` for text, as the convention has it) and returns
/// the record with the member set to `Some(value)`. Doc lines written above a setter are its
/// docs; without any, it says which member it sets.
///
/// ```ignore
/// optional_setters!(ActionRequest {
///     with_description => description: impl Into<String>,
///     /// The same request with `min_select` set: the fewest options the user may pick.
///     with_min_select => min_select: u32,
/// });
/// ```
///
/// A numeric member takes its own type, never `impl Into<..>`: an integer literal would not
/// infer through the bound.
#[allow(unused_macros)] // not every feature set declares a record with setters
macro_rules! optional_setters {
    ($record:ident { $($(#[$attr:meta])* $setter:ident => $member:ident: $param:ty),* $(,)? }) => {
        impl $record {
            $(optional_setters!(@setter [$(#[$attr])*] $setter $member $param);)*
        }
    };
    (@setter [] $setter:ident $member:ident $param:ty) => {
        optional_setters!(
            @setter [#[doc = concat!("The same record with `", stringify!($member), "` set.")]]
            $setter $member $param
        );
    };
    (@setter [$(#[$attr:meta])+] $setter:ident $member:ident $param:ty) => {
        $(#[$attr])+
        #[must_use]
        pub fn $setter(mut self, $member: $param) -> Self {
            self.$member = Some($member.into());
            self
        }
    };
}

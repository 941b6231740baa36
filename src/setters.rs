//! Chainable setters for the optional members of the contract records (crate-private support;
//! the convention is in `docs/decisions/api-growth.md`).

/// Declares `with_<member>` setters on a record: each takes the parameter type written (the
/// member's inner type, or `impl Into<String>` for text, as the convention has it) and returns
/// the record with the member set to `Some(value)`.
///
/// ```ignore
/// optional_setters!(ActionRequest {
///     with_description => description: impl Into<String>,
///     with_min_select => min_select: u32,
/// });
/// ```
///
/// A numeric member takes its own type, never `impl Into<..>`: an integer literal would not
/// infer through the bound.
#[allow(unused_macros)] // not every feature set declares a record with setters
macro_rules! optional_setters {
    ($record:ident { $($setter:ident => $member:ident: $param:ty),* $(,)? }) => {
        impl $record {
            $(
                #[doc = concat!("The same record with `", stringify!($member), "` set.")]
                #[must_use]
                pub fn $setter(mut self, $member: $param) -> Self {
                    self.$member = Some($member.into());
                    self
                }
            )*
        }
    };
}

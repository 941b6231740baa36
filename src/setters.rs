//! Chainable setters for the optional members of the contract records (crate-private support;
//! the convention is in `docs/decisions/api-growth.md`).

/// Declares `with_<member>` setters on a record: each takes the member's inner type (anything
/// that converts into it) and returns the record with the member set to `Some(value)`.
///
/// ```ignore
/// optional_setters!(ActionOption { with_description => description: String });
/// ```
#[allow(unused_macros)] // not every feature set declares a record with setters
macro_rules! optional_setters {
    ($record:ident { $($setter:ident => $member:ident: $inner:ty),* $(,)? }) => {
        impl $record {
            $(
                #[doc = concat!("The same record with `", stringify!($member), "` set.")]
                #[must_use]
                pub fn $setter(mut self, $member: impl Into<$inner>) -> Self {
                    self.$member = Some($member.into());
                    self
                }
            )*
        }
    };
}

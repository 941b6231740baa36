//! Crate-private serde helpers shared by the analytics records (no public items).

/// `skip_serializing_if` predicate: a count of zero is written by leaving the key out.
#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde hands the predicate a reference
pub(crate) fn is_zero(count: &u64) -> bool {
    *count == 0
}

/// `skip_serializing_if` predicate: a `true`-or-absent flag is written only when it is `true`.
#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde hands the predicate a reference
pub(crate) fn is_false(flag: &bool) -> bool {
    !*flag
}

/// `deserialize_with` for a flag whose only wire value is the literal `true` (absent means
/// `false`): an explicit `false` is not a value of the type and is refused.
#[cfg(feature = "serde")]
pub(crate) fn true_literal<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<bool, D::Error> {
    use serde::Deserialize as _;
    use serde::de::{Error, Unexpected};

    if bool::deserialize(deserializer)? {
        Ok(true)
    } else {
        Err(D::Error::invalid_value(
            Unexpected::Bool(false),
            &"the literal `true` (partial is either true or absent)",
        ))
    }
}

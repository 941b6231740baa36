//! Decoding support shared by the family's wire forms: noticing a key that must not be there,
//! and the message that refuses it (crate-private; only compiled with `serde`).

use serde::de::IgnoredAny;

/// Decodes an optional key as "was it written?", whatever its value (`null` included): an absent
/// key stays `None` (through `default`), a present one is `Some`.
pub(super) fn present<'de, D>(deserializer: D) -> Result<Option<IgnoredAny>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    <IgnoredAny as serde::Deserialize>::deserialize(deserializer).map(Some)
}

/// Why a record was refused: it carries a key its shape does not have.
#[derive(Debug, thiserror::Error)]
#[error("{record} cannot carry `{field}`: only {owner} have it")]
pub(super) struct ForeignField {
    /// The wire name of the refused key.
    pub(super) field: &'static str,
    /// The record it was found on, as a reader says it (`a scheduled request`).
    pub(super) record: &'static str,
    /// The records that do carry the key.
    pub(super) owner: &'static str,
}

impl ForeignField {
    /// Refuses `field` on `record` when `found` says it was written.
    pub(super) fn check(
        found: Option<&IgnoredAny>,
        field: &'static str,
        record: &'static str,
        owner: &'static str,
    ) -> Result<(), Self> {
        match found {
            Some(_) => Err(Self {
                field,
                record,
                owner,
            }),
            None => Ok(()),
        }
    }
}

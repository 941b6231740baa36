//! The schema-version literal shared by the versioned analytics records (the live trace batch,
//! the live content batch and the personal usage report).
//!
//! [`SchemaVersion`] has exactly one value, so a record holding it cannot claim another version;
//! decoding any other number fails, naming `schemaVersion`.

/// The literal `schemaVersion: 1` of the live trace batch, the live content batch and the
/// personal usage report.
///
/// It has exactly one value, so a record holding it cannot claim another version. On the wire it
/// is the number `1`; decoding any other number fails with an error that names `schemaVersion`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SchemaVersion;

impl SchemaVersion {
    /// The only schema version this crate reads and writes.
    pub const VALUE: u32 = 1;

    /// The version number this value stands for (always [`SchemaVersion::VALUE`]).
    #[must_use]
    pub const fn get(self) -> u32 {
        Self::VALUE
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for SchemaVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(Self::VALUE)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for SchemaVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{Error, Unexpected, Visitor};

        struct VersionVisitor;

        const EXPECTED: &str = "schemaVersion 1";

        impl Visitor<'_> for VersionVisitor {
            type Value = SchemaVersion;

            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(EXPECTED)
            }

            fn visit_u64<E: Error>(self, value: u64) -> Result<SchemaVersion, E> {
                if value == u64::from(SchemaVersion::VALUE) {
                    Ok(SchemaVersion)
                } else {
                    Err(E::invalid_value(Unexpected::Unsigned(value), &EXPECTED))
                }
            }

            fn visit_i64<E: Error>(self, value: i64) -> Result<SchemaVersion, E> {
                if value == i64::from(SchemaVersion::VALUE) {
                    Ok(SchemaVersion)
                } else {
                    Err(E::invalid_value(Unexpected::Signed(value), &EXPECTED))
                }
            }

            fn visit_f64<E: Error>(self, value: f64) -> Result<SchemaVersion, E> {
                // A JavaScript writer may print the whole number as `1.0`; it is still version 1.
                if value == f64::from(SchemaVersion::VALUE) {
                    Ok(SchemaVersion)
                } else {
                    Err(E::invalid_value(Unexpected::Float(value), &EXPECTED))
                }
            }
        }

        deserializer.deserialize_u64(VersionVisitor)
    }
}

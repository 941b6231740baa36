//! How a store whose seal does not digest recognises the bytes it last read or wrote without
//! keeping them: their length and 64-bit XXH3 hash.

/// The fingerprint of stored bytes: their length and their XXH3-64 hash, 16 bytes whatever
/// the record's size.
///
/// It only spares a commit the decode of bytes the store itself last read or wrote (see
/// `docs/decisions/record-store-path.md`): two different byte strings of one length collide
/// with a chance of about 2⁻⁶⁴, and a writer past the marker that crafts a collision gets its
/// bytes written over, which it could do as well by writing a valid record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fingerprint {
    len: usize,
    hash: u64,
}

impl Fingerprint {
    /// The fingerprint of `bytes`.
    pub(crate) fn of(bytes: &[u8]) -> Self {
        Self {
            len: bytes.len(),
            hash: twox_hash::XxHash3_64::oneshot(bytes),
        }
    }

    /// True when `bytes` have this fingerprint; bytes of another length are not hashed.
    pub(crate) fn matches(&self, bytes: &[u8]) -> bool {
        bytes.len() == self.len && Self::of(bytes) == *self
    }
}

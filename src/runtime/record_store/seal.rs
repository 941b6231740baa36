//! How a store turns a record's plaintext envelope into the bytes it keeps, and back: the
//! [`RecordSeal`] seam, and [`Unsealed`], the seal of a store that never seals.

use alloc::borrow::Cow;
use alloc::string::String;

use crate::session::records::{ContentProvenance, LockedReason, RecordDigest, RecordOwner};

/// What opening stored bytes gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opened<'a> {
    /// The plaintext envelope, and whose the record is: `None` from a seal that never
    /// attributes (a store that never seals), `Some` on every record a sealing seal opens.
    Plaintext {
        /// The envelope bytes the session codec decodes.
        bytes: Cow<'a, [u8]>,
        /// Whose the record is.
        owner: Option<RecordOwner>,
    },
    /// Sealed and intact as far as this seal can tell, and no key in this process opens it now.
    Locked(LockedReason),
    /// The bytes are not a sealed record this seal can verify (truncated, tampered, another
    /// format): the store reports the record corrupt, with this as the message.
    Broken(&'static str),
}

/// What sealing a record gave: the bytes to store, and whose the sealed content is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sealed<'a> {
    /// The bytes the store writes.
    pub bytes: Cow<'a, [u8]>,
    /// Whose the sealed content is, as [`RecordSeal::open`] would say of `bytes`: `None` from a
    /// seal that never attributes.
    pub owner: Option<RecordOwner>,
}

/// Why sealing a record failed (nothing was written).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// This process holds no unlocked key that may seal the record.
    #[error("no key may seal the record ({0})")]
    NoKey(LockedReason),
    /// The host's entropy source failed to give a nonce.
    #[error("the entropy source failed: {0}")]
    Entropy(String),
}

/// The seam between a store and its seal: a store that never seals uses [`Unsealed`]; a sealing
/// store uses the AEAD seal (feature `sealing`).
///
/// `id` is the id the record is stored under; a sealing seal binds the sealed bytes to it, so
/// bytes moved to another id do not open.
pub trait RecordSeal {
    /// Opens bytes stored under `id`.
    fn open<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a>;

    /// Seals a plaintext envelope to store under `id`; `provenance` is where the content came
    /// from (a sealing seal decides from it whose the sealed record is).
    ///
    /// # Errors
    /// When nothing may be sealed now; nothing is written then.
    fn seal<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<Cow<'a, [u8]>, SealError>;

    /// The digest of stored bytes, for a seal that tracks which exact bytes a store handed out
    /// (a sealing seal: SHA-256); `None` for a seal that never does. A store that holds a
    /// session compares it to tell a held file that changed.
    fn digest(&self, stored: &[u8]) -> Option<RecordDigest>;

    /// Seals like [`seal`](Self::seal) and also says whose the sealed content is: what a store
    /// keeps beside the bytes of a session it holds (only with a seal that gives a
    /// [`digest`](Self::digest)).
    ///
    /// A seal knows whom it sealed for and should override this to say so without opening
    /// anything (the AEAD seal and [`Unsealed`] do). The provided method is the fallback for a
    /// seal that does not: when the seal digests, it opens what it sealed and takes the owner
    /// from there (bytes it sealed and cannot open were sealed under a write grant without
    /// keys: the grantee's); otherwise `owner` is `None` and nothing is opened.
    ///
    /// # Errors
    /// As [`seal`](Self::seal).
    fn seal_attributed<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<Sealed<'a>, SealError> {
        let bytes = self.seal(id, plaintext, provenance)?;
        let owner = if self.digest(&bytes).is_some() {
            match self.open(id, &bytes) {
                Opened::Plaintext { owner, .. } => owner,
                Opened::Locked(_) | Opened::Broken(_) => Some(RecordOwner::Grantee),
            }
        } else {
            None
        };
        Ok(Sealed { bytes, owner })
    }
}

/// The seal of a store that never seals: stored bytes are the plaintext envelope, no owner is
/// attributed, and nothing is tracked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unsealed;

impl RecordSeal for Unsealed {
    fn open<'a>(&self, _id: &str, stored: &'a [u8]) -> Opened<'a> {
        Opened::Plaintext {
            bytes: Cow::Borrowed(stored),
            owner: None,
        }
    }

    fn seal<'a>(
        &self,
        _id: &str,
        plaintext: &'a [u8],
        _provenance: ContentProvenance,
    ) -> Result<Cow<'a, [u8]>, SealError> {
        Ok(Cow::Borrowed(plaintext))
    }

    fn digest(&self, _stored: &[u8]) -> Option<RecordDigest> {
        None
    }

    fn seal_attributed<'a>(
        &self,
        _id: &str,
        plaintext: &'a [u8],
        _provenance: ContentProvenance,
    ) -> Result<Sealed<'a>, SealError> {
        Ok(Sealed {
            bytes: Cow::Borrowed(plaintext),
            owner: None,
        })
    }
}

/// A shared seal seals as its owner does.
impl<S: RecordSeal> RecordSeal for &S {
    fn open<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a> {
        (**self).open(id, stored)
    }

    fn seal<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<Cow<'a, [u8]>, SealError> {
        (**self).seal(id, plaintext, provenance)
    }

    fn digest(&self, stored: &[u8]) -> Option<RecordDigest> {
        (**self).digest(stored)
    }

    fn seal_attributed<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<Sealed<'a>, SealError> {
        (**self).seal_attributed(id, plaintext, provenance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsealed_hands_back_the_same_bytes_unattributed() {
        let bytes = b"{\"schemaVersion\":1}";
        assert_eq!(
            Unsealed.open("s", bytes),
            Opened::Plaintext {
                bytes: Cow::Borrowed(&bytes[..]),
                owner: None
            }
        );
        let sealed = Unsealed.seal("s", bytes, ContentProvenance::Session);
        assert_eq!(sealed.as_deref(), Ok(&bytes[..]));
        assert_eq!(Unsealed.digest(bytes), None);
    }
}

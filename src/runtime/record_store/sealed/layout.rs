//! The sealed bytes, byte for byte: the header a process reads and checks without any key
//! (parsing never panics), and the constants of the layout (see the module docs of
//! [`sealed`](super) for the table).

use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use crate::session::records::{DigestAlgorithm, RecordDigest, RecordOwner, Sha256Digest};

#[cfg(doc)]
use super::AeadSeal;
use super::keys::KeyId;

/// Why bytes are not a sealed record this build can read (before any key is tried).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SealedFormatError {
    /// The bytes do not start with [`AeadSeal::MAGIC`].
    #[error("{}", self.message())]
    NotSealed,
    /// The format version is not [`AeadSeal::VERSION`].
    #[error("{message} ({0})", message = self.message())]
    UnknownVersion(u8),
    /// The role byte is neither `1` (owner) nor `2` (grantee).
    #[error("{message} ({0})", message = self.message())]
    UnknownRole(u8),
    /// The key id is empty, too long, not UTF-8, or not a valid [`KeyId`].
    #[error("{}", self.message())]
    BadKeyId,
    /// The bytes end inside the header or before a whole tag.
    #[error("{}", self.message())]
    Truncated,
    /// The header check does not match the header: the header is damaged.
    #[error("{}", self.message())]
    HeaderDamaged,
}

impl SealedFormatError {
    /// The message a store reports on the corrupt outcome.
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            Self::NotSealed => "not a sealed record (no AIRS magic)",
            Self::UnknownVersion(_) => "a sealed-record format version this build does not read",
            Self::UnknownRole(_) => "the sealed record's role byte is neither owner nor grantee",
            Self::BadKeyId => "the sealed record's key id is not a valid key id",
            Self::Truncated => "the sealed record is truncated",
            Self::HeaderDamaged => "the sealed record's header check does not match its header",
        }
    }
}

/// The header of a sealed record, read and checked without any key: which key the record is
/// sealed under, whose content it says it is, and where each region lies (see the module docs
/// for the layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SealedHeader<'a> {
    key_id: &'a str,
    role: RecordOwner,
    pub(super) nonce: [u8; NONCE_LEN],
    header_len: usize,
    total_len: usize,
}

impl<'a> SealedHeader<'a> {
    /// Reads the header of `stored` and checks it (magic, version, role, key id, header check,
    /// and room for the tag). Total: never panics.
    ///
    /// # Errors
    /// Why the bytes are not a sealed record this build reads.
    pub fn read(stored: &'a [u8]) -> Result<Self, SealedFormatError> {
        let magic = stored.get(..4).ok_or(SealedFormatError::NotSealed)?;
        if magic != MAGIC {
            return Err(SealedFormatError::NotSealed);
        }
        let [version, role, id_len] = match stored.get(4..7) {
            Some(&[version, role, id_len]) => [version, role, id_len],
            _ => return Err(SealedFormatError::Truncated),
        };
        if version != VERSION {
            return Err(SealedFormatError::UnknownVersion(version));
        }
        let role = match role {
            ROLE_OWNER => RecordOwner::Owner,
            ROLE_GRANTEE => RecordOwner::Grantee,
            other => return Err(SealedFormatError::UnknownRole(other)),
        };
        let id_len = usize::from(id_len);
        if id_len == 0 || id_len > KeyId::MAX_LEN {
            return Err(SealedFormatError::BadKeyId);
        }
        let id_end = 7 + id_len;
        let nonce_end = id_end + NONCE_LEN;
        let header_len = nonce_end + CHECK_LEN;
        let (Some(id_bytes), Some(nonce), Some(check)) = (
            stored.get(7..id_end),
            stored.get(id_end..nonce_end),
            stored.get(nonce_end..header_len),
        ) else {
            return Err(SealedFormatError::Truncated);
        };
        let computed = Sha256::digest(stored.get(..nonce_end).unwrap_or_default());
        if computed.get(..CHECK_LEN) != Some(check) {
            return Err(SealedFormatError::HeaderDamaged);
        }
        let key_id = core::str::from_utf8(id_bytes).map_err(|_| SealedFormatError::BadKeyId)?;
        if KeyId::new(key_id).is_err() {
            return Err(SealedFormatError::BadKeyId);
        }
        if stored.len() < header_len + TAG_LEN {
            return Err(SealedFormatError::Truncated);
        }
        let mut nonce_bytes = [0; NONCE_LEN];
        nonce_bytes.copy_from_slice(nonce);
        Ok(Self {
            key_id,
            role,
            nonce: nonce_bytes,
            header_len,
            total_len: stored.len(),
        })
    }

    /// The id of the key the record is sealed under.
    #[must_use]
    pub const fn key_id(&self) -> &'a str {
        self.key_id
    }

    /// Whose the header says the content is (believed only once the tag verifies, and never
    /// `owner` under a write-grant key).
    #[must_use]
    pub const fn role(&self) -> RecordOwner {
        self.role
    }

    /// The byte range of the key id.
    #[must_use]
    pub const fn key_id_range(&self) -> core::ops::Range<usize> {
        7..7 + self.key_id.len()
    }

    /// The byte range of the nonce.
    #[must_use]
    pub const fn nonce_range(&self) -> core::ops::Range<usize> {
        let start = 7 + self.key_id.len();
        start..start + NONCE_LEN
    }

    /// The byte range of the header check.
    #[must_use]
    pub const fn check_range(&self) -> core::ops::Range<usize> {
        self.header_len - CHECK_LEN..self.header_len
    }

    /// The byte range of the ciphertext.
    #[must_use]
    pub const fn ciphertext_range(&self) -> core::ops::Range<usize> {
        self.header_len..self.total_len - TAG_LEN
    }

    /// The byte range of the tag.
    #[must_use]
    pub const fn tag_range(&self) -> core::ops::Range<usize> {
        self.total_len - TAG_LEN..self.total_len
    }

    /// The length of the header (everything before the ciphertext).
    #[must_use]
    pub const fn len(&self) -> usize {
        self.header_len
    }

    /// Never true: a header holds at least the magic, version, role, id, nonce and check.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        false
    }
}

pub(super) const MAGIC: [u8; 4] = *b"AIRS";
pub(super) const VERSION: u8 = 1;
pub(super) const NONCE_LEN: usize = 24;
pub(super) const CHECK_LEN: usize = 4;
pub(super) const TAG_LEN: usize = 16;
const ROLE_OWNER: u8 = 1;
const ROLE_GRANTEE: u8 = 2;

pub(super) const fn role_byte(owner: RecordOwner) -> u8 {
    match owner {
        RecordOwner::Owner => ROLE_OWNER,
        RecordOwner::Grantee => ROLE_GRANTEE,
    }
}

/// The associated data of a record: its header, then the id it is stored under.
pub(super) fn associated_data(header: &[u8], id: &str) -> Vec<u8> {
    let mut aad = Vec::with_capacity(header.len() + id.len());
    aad.extend_from_slice(header);
    aad.extend_from_slice(id.as_bytes());
    aad
}

/// SHA-256 of `bytes` as a [`RecordDigest`].
#[must_use]
pub fn sha256_digest(bytes: &[u8]) -> RecordDigest {
    digest_of(Sha256Digest(Sha256::digest(bytes).into()))
}

pub(super) const fn digest_of(value: Sha256Digest) -> RecordDigest {
    RecordDigest {
        algorithm: DigestAlgorithm::Sha256,
        value,
    }
}

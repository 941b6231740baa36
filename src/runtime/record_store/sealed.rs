//! Records sealed at rest (feature `sealing`): [`AeadSeal`], XChaCha20-Poly1305 under the keys of
//! a host-supplied [`Keyring`], and the members only a sealing store has
//! ([`SealingSessionStore`]) on a [`RecordStore`] over it.
//!
//! # Keys
//!
//! The host hands the keys in; the crate reads no key file and no entropy of its own. A
//! [`Keyring`] holds keys by [`KeyId`], each with a [`KeyRole`]:
//!
//! - **the owner's key** seals the owner's records (and, in the owner's process, content that is
//!   not the owner's yet, attributed to the grantee until raised);
//! - **a write-grant key** is what a process that holds no keys has: it seals what that process
//!   writes (always attributed to the grantee) and opens what it sealed itself, never the owner's
//!   records. The owner's process holds the grant keys it issued, so it opens what grantees
//!   wrote and can raise it.
//!
//! A key is either unlocked (its 32 bytes of material are present) or locked (known to this
//! process, material absent); [`AeadSeal::lock_key`] and [`AeadSeal::unlock_key`] move it
//! between the two while a store uses the seal. Neither `Debug` nor `Display` of any type here
//! prints key material. [`KeyMaterial`] is zeroised when dropped (so when a key is locked too).
//!
//! # The sealed bytes, byte for byte
//!
//! | offset | length | field |
//! | --- | --- | --- |
//! | 0 | 4 | magic, ASCII `AIRS` ([`AeadSeal::MAGIC`]) |
//! | 4 | 1 | format version, `1` ([`AeadSeal::VERSION`]) |
//! | 5 | 1 | whose the sealed content is: `1` the owner's, `2` a grantee's |
//! | 6 | 1 | `n`, the length of the key id in bytes (1 to [`KeyId::MAX_LEN`]) |
//! | 7 | `n` | the key id, UTF-8 |
//! | 7 + `n` | 24 | the XChaCha20 nonce, fresh from the host's RNG for every seal |
//! | 31 + `n` | 4 | header check: the first 4 bytes of SHA-256 over bytes `0 .. 31 + n` |
//! | 35 + `n` | `m` | the ciphertext of the `m`-byte plaintext envelope |
//! | 35 + `n` + `m` | 16 | the Poly1305 tag |
//!
//! The associated data the tag covers is the whole header (bytes `0 .. 35 + n`) followed by the
//! UTF-8 bytes of the record id the bytes are stored under, so bytes moved or copied to another
//! id, or with any header byte changed, do not open. The header check is not authentication
//! (anyone can recompute it); it lets a process that cannot open a record still tell a damaged
//! header (a flipped bit in the key id, say) from a record sealed under a key it does not know.
//!
//! # Opening: what each kind of bytes reports
//!
//! - Not starting with the magic, another version, a role byte other than `1`/`2`, a key id of
//!   length 0, over [`KeyId::MAX_LEN`] or not a valid [`KeyId`], a wrong header check, or too
//!   short for the header and the tag: [`Opened::Broken`] (the store reports `corrupt`).
//! - The record's key is in the keyring and locked: `Locked(keys-locked)`.
//! - **A key that opens nothing.** The keyring holds no key under the record's key id (whether
//!   it holds no keys at all, like a process with nothing but someone else's grant, or holds
//!   other keys): `Locked(no-keys)`. No unlock in this process opens it, so a listing counts it
//!   apart from the merely locked.
//! - The key is unlocked and the tag does not verify (tampered or truncated ciphertext or tag,
//!   another record id, or other material under the same key id): [`Opened::Broken`]. Wrong
//!   material under the right id cannot be told from tampering; such a record reads `corrupt`,
//!   which a store never overwrites, so the right material reads it later.
//! - Content marked the owner's under a write-grant key (which only a grant holder could have
//!   sealed): [`Opened::Broken`]; a grantee can never make its content the owner's.
//! - Otherwise the plaintext, with `owner` [`RecordOwner::Owner`] or [`RecordOwner::Grantee`]
//!   from the role byte. Every record this seal opens is attributed.
//!
//! A seal can only verify a record whose key it holds unlocked: truncated or tampered bytes of a
//! record whose key is locked or unknown read as locked, and as corrupt once the key is there.
//!
//! # Sealing: whose the sealed record is
//!
//! The first unlocked owner key in the keyring seals when there is one, else the first unlocked
//! write-grant key. Under the owner's key, content with provenance `session` (the owner's
//! process runs it) or `recovery` (rebuilt by the owner's process after a `missing` load) is
//! the owner's; `fork`, `token` and `external` content is never stronger than its source, which
//! the seal cannot see, so it is the grantee's until raised ([`SealingSessionStore::raise_to_owner`]
//! by the digest of its exact bytes). Under a write-grant key everything is the grantee's.
//! With no unlocked key: [`SealError::NoKey`] with `no-keys` when the keyring is empty and
//! `keys-locked` when an unlock would allow a seal. An RNG failure is [`SealError::Entropy`]
//! (and so is the one other failure XChaCha20-Poly1305 has, a plaintext of 256 GiB or more,
//! with a message saying so). Nothing is written after a seal error.
//!
//! # The members only a sealing store has
//!
//! [`RecordStore`] over an [`AeadSeal`] (or a shared reference to one) implements
//! [`SealingSessionStore`]:
//!
//! - `raise_to_owner(id, digest)` reads the stored bytes once, and re-seals their plaintext as
//!   the owner's if and only if their SHA-256 is `digest`: `digest-mismatch` otherwise,
//!   `already-owner` when they are the owner's already, `not-openable` when nothing is stored or
//!   the bytes are locked, broken, or not a valid session record. It needs an unlocked owner
//!   key; without one the re-seal fails and the store's error says why
//!   ([`RecordStoreError::Seal`]). The raise never races a writer: while another writer holds
//!   the id (a lend of this store, or another writer's marker) it is refused with
//!   [`RecordStoreError::HasWriter`] and nothing is read or written; otherwise it marks this
//!   store as the writer first, then reads, compares and writes, and removes the marker again
//!   if it was not there before (a session this store holds keeps its claim, and its held bytes
//!   follow the raise).
//! - `issue_token(id)` reads the stored bytes once and hands out their plaintext record, the
//!   SHA-256 of those exact sealed bytes, and whose this store held them as; anything but a
//!   valid record is `unreadable` with its load outcome. Issuing claims nothing and lends
//!   nothing: moving the writer is the store's lend.
//! - `accept_token(token, purpose)` saves the token's record with provenance `token` (so the
//!   grantee's, until raised) through the store's ordinary save, with its refusals.
//! - `written_since(id, since)`: **the log lives in the seal.** Accepting a token naming
//!   `since` for `id` starts a fresh log for `id` (replacing any earlier one); from then on
//!   every seal this seal makes for `id` appends the SHA-256 of the bytes it produced, the
//!   accepted record's first. A refused accept leaves the earlier log as it was. The answer is
//!   the log when it was started by `since`, oldest first, and empty otherwise. A seal whose
//!   write then failed leaves a digest of bytes never stored; it vouches for nothing, since a
//!   raise compares against the bytes actually stored. The log is the seal's, so stores that
//!   share one seal (by reference) share it. The log grows by 32 bytes per write of a
//!   token-continued record until another token for the id replaces it
//!   ([`AeadSeal::forget_written`] drops it).

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt;

use chacha20poly1305::aead::array::Array;
use chacha20poly1305::aead::inout::InOutBuf;
use chacha20poly1305::{AeadInOut, KeyInit, Tag, XChaCha20Poly1305, XNonce};
use rand_core::TryCryptoRng;
use sha2::{Digest, Sha256};

use crate::session::{
    ContentProvenance, CrossStoreToken, DigestAlgorithm, LockedReason, RaiseOutcome, RecordDigest,
    RecordOwner, SaveOutcome, SavePurpose, SealingSessionStore, SessionLoadOutcome,
    SessionRecordDecodeOutcome, Sha256Digest, TokenIssue, decode_session_record,
};

use super::{
    Opened, OtherWriter, RecordId, RecordMedium, RecordSeal, RecordStore, RecordStoreError,
    SealError, WriterMark,
};

/// The `rand_core` crate whose [`TryCryptoRng`] the seal takes its nonces from, re-exported so a
/// host names the very version this crate implements against.
pub use rand_core;

// ---------------------------------------------------------------- keys

/// The name of a key: in a [`Keyring`], and in the header of every record sealed under it.
///
/// Never empty, at most [`KeyId::MAX_LEN`] bytes, no control character. It is not secret (it is
/// written in clear into every sealed record).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KeyId(String);

/// Why a key id was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum KeyIdError {
    /// The id is empty.
    #[error("a key id is never empty")]
    Empty,
    /// The id is longer than [`KeyId::MAX_LEN`] bytes.
    #[error("a key id is at most 64 bytes")]
    TooLong,
    /// The id holds a control character.
    #[error("a key id holds no control character")]
    ControlCharacter,
}

impl KeyId {
    /// The longest key id, in bytes (it fits the one length byte of the sealed header).
    pub const MAX_LEN: usize = 64;

    /// A key id, checked.
    ///
    /// # Errors
    /// When `id` is empty, longer than [`KeyId::MAX_LEN`] bytes, or holds a control character.
    pub fn new(id: impl Into<String>) -> Result<Self, KeyIdError> {
        let id = id.into();
        if id.is_empty() {
            Err(KeyIdError::Empty)
        } else if id.len() > Self::MAX_LEN {
            Err(KeyIdError::TooLong)
        } else if id.chars().any(char::is_control) {
            Err(KeyIdError::ControlCharacter)
        } else {
            Ok(Self(id))
        }
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The 32 bytes of an XChaCha20-Poly1305 key, as the host supplies them.
///
/// Its `Debug` prints no byte of it. It is zeroised when dropped (`zeroize`), as is every clone
/// (a [`Keyring`]'s included); the transient copy the cipher works with while it seals or opens
/// one record is not.
#[derive(Clone, PartialEq, Eq, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
pub struct KeyMaterial([u8; 32]);

impl KeyMaterial {
    /// Key material from its 32 bytes.
    #[must_use]
    pub const fn new(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }
}

impl From<[u8; 32]> for KeyMaterial {
    fn from(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }
}

impl fmt::Debug for KeyMaterial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("KeyMaterial(<redacted>)")
    }
}

string_enum! {
    /// What a key in a [`Keyring`] may do.
    pub enum KeyRole {
        /// The owner's key: seals the owner's records, and opens every record sealed under it.
        Owner = "owner",
        /// A write grant: seals what a process without the owner's keys writes (always the
        /// grantee's), and opens only what was sealed under it.
        WriteGrant = "write-grant",
    }
}

/// Why a keyring refused a change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyringError {
    /// A key with this id is in the keyring already (ids name one key each).
    #[error("the keyring already holds a key named {0}")]
    DuplicateKey(KeyId),
    /// No key with this id is in the keyring.
    #[error("the keyring holds no key named {0}")]
    UnknownKey(KeyId),
}

/// One key of a keyring.
#[derive(Clone)]
struct KeyEntry {
    id: KeyId,
    role: KeyRole,
    /// `None` when the key is locked.
    material: Option<KeyMaterial>,
}

/// The keys a seal works with, each with an id, a role and, when unlocked, its material.
///
/// Keys keep the order they were added in; when several could seal, the first wins (so a host
/// rotating keys adds the new owner key first and keeps the old one to open old records).
/// `Debug` lists ids, roles and locked or unlocked, never material.
#[derive(Clone, Default)]
pub struct Keyring {
    keys: Vec<KeyEntry>,
}

impl Keyring {
    /// A keyring with no keys (a seal over it opens nothing and seals nothing).
    #[must_use]
    pub const fn new() -> Self {
        Self { keys: Vec::new() }
    }

    /// Adds an unlocked key.
    ///
    /// # Errors
    /// [`KeyringError::DuplicateKey`] when a key with this id is there already; nothing changes.
    pub fn add_key(
        &mut self,
        id: KeyId,
        role: KeyRole,
        material: KeyMaterial,
    ) -> Result<(), KeyringError> {
        self.add(id, role, Some(material))
    }

    /// Adds a key this process knows of but holds no material for (locked until
    /// [`unlock`](Self::unlock)ed).
    ///
    /// # Errors
    /// [`KeyringError::DuplicateKey`] when a key with this id is there already; nothing changes.
    pub fn add_locked_key(&mut self, id: KeyId, role: KeyRole) -> Result<(), KeyringError> {
        self.add(id, role, None)
    }

    fn add(
        &mut self,
        id: KeyId,
        role: KeyRole,
        material: Option<KeyMaterial>,
    ) -> Result<(), KeyringError> {
        if self.entry(id.as_str()).is_some() {
            return Err(KeyringError::DuplicateKey(id));
        }
        self.keys.push(KeyEntry { id, role, material });
        Ok(())
    }

    /// The same keys, every one locked: what this process knows with no material in hand.
    #[must_use]
    pub fn locked(&self) -> Self {
        Self {
            keys: self
                .keys
                .iter()
                .map(|key| KeyEntry {
                    id: key.id.clone(),
                    role: key.role,
                    material: None,
                })
                .collect(),
        }
    }

    /// Locks the key `id` (drops its material); true when it was unlocked.
    ///
    /// # Errors
    /// [`KeyringError::UnknownKey`] when no key has this id.
    pub fn lock(&mut self, id: &KeyId) -> Result<bool, KeyringError> {
        let key = self
            .entry_mut(id)
            .ok_or_else(|| KeyringError::UnknownKey(id.clone()))?;
        Ok(key.material.take().is_some())
    }

    /// Locks every key.
    pub fn lock_all(&mut self) {
        self.keys.iter_mut().for_each(|key| key.material = None);
    }

    /// Unlocks the key `id` with `material` (replacing any material it had).
    ///
    /// # Errors
    /// [`KeyringError::UnknownKey`] when no key has this id; add it first.
    pub fn unlock(&mut self, id: &KeyId, material: KeyMaterial) -> Result<(), KeyringError> {
        let key = self
            .entry_mut(id)
            .ok_or_else(|| KeyringError::UnknownKey(id.clone()))?;
        key.material = Some(material);
        Ok(())
    }

    /// The role of the key `id`, if the keyring holds it.
    #[must_use]
    pub fn role(&self, id: &str) -> Option<KeyRole> {
        self.entry(id).map(|key| key.role)
    }

    /// True when the key `id` is in the keyring and unlocked.
    #[must_use]
    pub fn is_unlocked(&self, id: &str) -> bool {
        self.entry(id).is_some_and(|key| key.material.is_some())
    }

    /// How many keys the keyring holds, locked or not.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when the keyring holds no key.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn entry(&self, id: &str) -> Option<&KeyEntry> {
        self.keys.iter().find(|key| key.id.as_str() == id)
    }

    fn entry_mut(&mut self, id: &KeyId) -> Option<&mut KeyEntry> {
        self.keys.iter_mut().find(|key| &key.id == id)
    }

    /// The key that seals content of `provenance` now, and whose the sealed content is.
    fn sealer(&self, provenance: ContentProvenance) -> Result<(&KeyEntry, RecordOwner), SealError> {
        let unlocked = |role: KeyRole| {
            self.keys
                .iter()
                .find(|key| key.role == role && key.material.is_some())
        };
        if let Some(key) = unlocked(KeyRole::Owner) {
            let owner = match provenance {
                ContentProvenance::Session | ContentProvenance::Recovery => RecordOwner::Owner,
                ContentProvenance::Fork
                | ContentProvenance::Token
                | ContentProvenance::External => RecordOwner::Grantee,
            };
            Ok((key, owner))
        } else if let Some(key) = unlocked(KeyRole::WriteGrant) {
            Ok((key, RecordOwner::Grantee))
        } else if self.keys.is_empty() {
            Err(SealError::NoKey(LockedReason::NoKeys))
        } else {
            Err(SealError::NoKey(LockedReason::KeysLocked))
        }
    }
}

impl fmt::Debug for Keyring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Key<'a>(&'a KeyEntry);
        impl fmt::Debug for Key<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let state = if self.0.material.is_some() {
                    "unlocked"
                } else {
                    "locked"
                };
                write!(f, "{:?} ({}, {state})", self.0.id.as_str(), self.0.role)
            }
        }
        f.debug_list().entries(self.keys.iter().map(Key)).finish()
    }
}

// ---------------------------------------------------------------- the sealed layout

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
    nonce: [u8; NONCE_LEN],
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

const MAGIC: [u8; 4] = *b"AIRS";
const VERSION: u8 = 1;
const NONCE_LEN: usize = 24;
const CHECK_LEN: usize = 4;
const TAG_LEN: usize = 16;
const ROLE_OWNER: u8 = 1;
const ROLE_GRANTEE: u8 = 2;

const fn role_byte(owner: RecordOwner) -> u8 {
    match owner {
        RecordOwner::Owner => ROLE_OWNER,
        RecordOwner::Grantee => ROLE_GRANTEE,
    }
}

/// The associated data of a record: its header, then the id it is stored under.
fn associated_data(header: &[u8], id: &str) -> Vec<u8> {
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

const fn digest_of(value: Sha256Digest) -> RecordDigest {
    RecordDigest {
        algorithm: DigestAlgorithm::Sha256,
        value,
    }
}

// ---------------------------------------------------------------- the seal

/// The token log of one id: which token started it, and the SHA-256 of every byte string sealed
/// for the id since, oldest first.
#[derive(Clone, Debug, PartialEq, Eq)]
struct WriteLog {
    since: RecordDigest,
    written: Vec<Sha256Digest>,
}

/// The AEAD seal: XChaCha20-Poly1305 under the keys of a [`Keyring`], with 24-byte nonces drawn
/// from the host's cryptographic RNG `R` (see the module docs for the layout and every rule).
///
/// Single-threaded interior mutability: the keyring, the RNG and the token log sit in
/// `RefCell`s, so a store that owns the seal can still have its keys locked and unlocked.
/// `Debug` shows the keyring (never material) and no RNG state.
pub struct AeadSeal<R> {
    keyring: RefCell<Keyring>,
    rng: RefCell<R>,
    logs: RefCell<BTreeMap<String, WriteLog>>,
}

impl<R> AeadSeal<R> {
    /// The magic the sealed bytes start with.
    pub const MAGIC: [u8; 4] = MAGIC;
    /// The format version this build writes and reads.
    pub const VERSION: u8 = VERSION;
    /// The nonce length, in bytes.
    pub const NONCE_LEN: usize = NONCE_LEN;
    /// The header check length, in bytes.
    pub const CHECK_LEN: usize = CHECK_LEN;
    /// The tag length, in bytes.
    pub const TAG_LEN: usize = TAG_LEN;

    /// A seal over `keyring`, drawing nonces from `rng`.
    #[must_use]
    pub fn new(keyring: Keyring, rng: R) -> Self {
        Self {
            keyring: RefCell::new(keyring),
            rng: RefCell::new(rng),
            logs: RefCell::new(BTreeMap::new()),
        }
    }

    /// Locks the key `id`; true when it was unlocked.
    ///
    /// # Errors
    /// [`KeyringError::UnknownKey`] when the keyring holds no such key.
    pub fn lock_key(&self, id: &KeyId) -> Result<bool, KeyringError> {
        self.keyring.borrow_mut().lock(id)
    }

    /// Locks every key.
    pub fn lock_all(&self) {
        self.keyring.borrow_mut().lock_all();
    }

    /// Unlocks the key `id` with `material`.
    ///
    /// # Errors
    /// [`KeyringError::UnknownKey`] when the keyring holds no such key.
    pub fn unlock_key(&self, id: &KeyId, material: KeyMaterial) -> Result<(), KeyringError> {
        self.keyring.borrow_mut().unlock(id, material)
    }

    /// A copy of the keyring as it is now (material included: keep it where the keys are).
    #[must_use]
    pub fn keyring(&self) -> Keyring {
        self.keyring.borrow().clone()
    }

    /// Drops the token log of `id` (see [`SealingSessionStore::written_since`]); true when there
    /// was one.
    pub fn forget_written(&self, id: &str) -> bool {
        self.logs.borrow_mut().remove(id).is_some()
    }

    /// Opens `stored` (stored under `id`) and tells whose the content is.
    fn open_inner<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a> {
        let header = match SealedHeader::read(stored) {
            Ok(header) => header,
            Err(error) => return Opened::Broken(error.message()),
        };
        let keyring = self.keyring.borrow();
        let Some(key) = keyring.entry(header.key_id()) else {
            return Opened::Locked(LockedReason::NoKeys);
        };
        let Some(material) = &key.material else {
            return Opened::Locked(LockedReason::KeysLocked);
        };
        if key.role == KeyRole::WriteGrant && header.role() == RecordOwner::Owner {
            // Checked before the tag: the answer is the same either way, and a grant key never
            // vouches for owner content.
            return Opened::Broken("an owner's record sealed under a write-grant key");
        }
        let (Some(head), Some(ciphertext), Some(tag)) = (
            stored.get(..header.len()),
            stored.get(header.ciphertext_range()),
            stored.get(header.tag_range()),
        ) else {
            return Opened::Broken(SealedFormatError::Truncated.message());
        };
        let Ok(tag) = Tag::try_from(tag) else {
            return Opened::Broken(SealedFormatError::Truncated.message());
        };
        let cipher = XChaCha20Poly1305::new(&Array::from(material.0));
        let nonce = XNonce::from(header.nonce);
        let mut plaintext = Vec::from(ciphertext);
        let aad = associated_data(head, id);
        match cipher.decrypt_inout_detached(
            &nonce,
            &aad,
            InOutBuf::from(plaintext.as_mut_slice()),
            &tag,
        ) {
            Ok(()) => Opened::Plaintext {
                bytes: Cow::Owned(plaintext),
                owner: Some(header.role()),
            },
            Err(_) => Opened::Broken(
                "the sealed record does not authenticate (tampered, truncated, stored under \
                 another id, or other material under its key id)",
            ),
        }
    }
}

impl<R: TryCryptoRng> AeadSeal<R> {
    /// Seals `plaintext` for `id` under `key` as `owner`'s content, and logs the result when a
    /// token log is open for `id`.
    fn seal_with(
        &self,
        id: &str,
        plaintext: &[u8],
        key: &KeyEntry,
        owner: RecordOwner,
    ) -> Result<Vec<u8>, SealError> {
        let Some(material) = &key.material else {
            return Err(SealError::NoKey(LockedReason::KeysLocked));
        };
        let mut nonce = [0u8; NONCE_LEN];
        {
            let mut rng = self.rng.try_borrow_mut().map_err(|_| {
                SealError::Entropy(String::from("the entropy source is already in use"))
            })?;
            rng.try_fill_bytes(&mut nonce)
                .map_err(|error| SealError::Entropy(format!("{error}")))?;
        }
        let id_bytes = key.id.as_str().as_bytes();
        let header_len = 7 + id_bytes.len() + NONCE_LEN + CHECK_LEN;
        let mut out = Vec::with_capacity(header_len + plaintext.len() + TAG_LEN);
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        out.push(role_byte(owner));
        // A KeyId is at most 64 bytes, so its length fits the byte.
        out.push(u8::try_from(id_bytes.len()).unwrap_or(u8::MAX));
        out.extend_from_slice(id_bytes);
        out.extend_from_slice(&nonce);
        let check = Sha256::digest(&out);
        out.extend_from_slice(check.get(..CHECK_LEN).unwrap_or_default());
        let aad = associated_data(&out, id);
        out.extend_from_slice(plaintext);
        let cipher = XChaCha20Poly1305::new(&Array::from(material.0));
        let tag = {
            let body = out.get_mut(header_len..).unwrap_or_default();
            cipher
                .encrypt_inout_detached(&XNonce::from(nonce), &aad, InOutBuf::from(body))
                .map_err(|_| {
                    SealError::Entropy(String::from(
                        "the record is too long for XChaCha20-Poly1305 (256 GiB or more)",
                    ))
                })?
        };
        out.extend_from_slice(&tag);
        if let Some(log) = self.logs.borrow_mut().get_mut(id) {
            log.written.push(Sha256Digest(Sha256::digest(&out).into()));
        }
        Ok(out)
    }

    /// Seals `plaintext` for `id` as the owner's, under the first unlocked owner key.
    fn seal_as_owner(&self, id: &str, plaintext: &[u8]) -> Result<Vec<u8>, SealError> {
        let keyring = self.keyring.borrow();
        let key = keyring
            .keys
            .iter()
            .find(|key| key.role == KeyRole::Owner && key.material.is_some());
        match key {
            Some(key) => self.seal_with(id, plaintext, key, RecordOwner::Owner),
            None => Err(SealError::NoKey(
                if keyring.keys.iter().any(|key| key.role == KeyRole::Owner) {
                    LockedReason::KeysLocked
                } else {
                    LockedReason::NoKeys
                },
            )),
        }
    }
}

impl<R: TryCryptoRng> RecordSeal for AeadSeal<R> {
    fn open<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a> {
        self.open_inner(id, stored)
    }

    fn seal<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<Cow<'a, [u8]>, SealError> {
        let keyring = self.keyring.borrow();
        let (key, owner) = keyring.sealer(provenance)?;
        self.seal_with(id, plaintext, key, owner).map(Cow::Owned)
    }

    fn digest(&self, stored: &[u8]) -> Option<RecordDigest> {
        Some(sha256_digest(stored))
    }
}

impl<R> fmt::Debug for AeadSeal<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("AeadSeal");
        match self.keyring.try_borrow() {
            Ok(keyring) => out.field("keyring", &*keyring),
            Err(_) => out.field("keyring", &"<in use>"),
        };
        out.finish_non_exhaustive()
    }
}

// ---------------------------------------------------------------- the sealing store

/// The seals a [`RecordStore`] has the sealing members over: an [`AeadSeal`], or a shared
/// reference to one (so the host keeps the seal, and with it the keys to lock and unlock, while
/// stores use it).
pub trait AeadSealed: RecordSeal {
    /// The seal's entropy source.
    type Rng: TryCryptoRng;

    /// The AEAD seal itself.
    fn aead(&self) -> &AeadSeal<Self::Rng>;
}

impl<R: TryCryptoRng> AeadSealed for AeadSeal<R> {
    type Rng = R;

    fn aead(&self) -> &AeadSeal<R> {
        self
    }
}

impl<R: TryCryptoRng> AeadSealed for &AeadSeal<R> {
    type Rng = R;

    fn aead(&self) -> &AeadSeal<R> {
        self
    }
}

type StoreResult<T, M> = Result<T, RecordStoreError<<M as RecordMedium>::Error>>;

impl<M: RecordMedium, S: AeadSealed> RecordStore<M, S>
where
    M::Error: 'static,
{
    /// The raise once this store is the id's writer: read, compare, open, re-seal, write.
    async fn raise_marked(&self, id: &str, digest: &RecordDigest) -> StoreResult<RaiseOutcome, M> {
        let Some(stored) = self
            .medium()
            .read(id)
            .await
            .map_err(RecordStoreError::Medium)?
        else {
            return Ok(RaiseOutcome::NotOpenable);
        };
        if sha256_digest(&stored) != *digest {
            return Ok(RaiseOutcome::DigestMismatch);
        }
        let seal = self.seal().aead();
        let Opened::Plaintext { bytes, owner } = seal.open_inner(id, &stored) else {
            return Ok(RaiseOutcome::NotOpenable);
        };
        let SessionRecordDecodeOutcome::Valid { record } = decode_session_record(&bytes, id) else {
            return Ok(RaiseOutcome::NotOpenable);
        };
        if owner == Some(RecordOwner::Owner) {
            return Ok(RaiseOutcome::AlreadyOwner);
        }
        let sealed = seal
            .seal_as_owner(id, &bytes)
            .map_err(RecordStoreError::Seal)?;
        self.medium()
            .write(id, &sealed)
            .await
            .map_err(RecordStoreError::Medium)?;
        self.note_rewritten(id, &sealed, &record, Some(RecordOwner::Owner));
        Ok(RaiseOutcome::Raised)
    }
}

impl<M: RecordMedium, S: AeadSealed> SealingSessionStore for RecordStore<M, S>
where
    M::Error: 'static,
{
    async fn raise_to_owner(
        &self,
        id: &str,
        digest: &RecordDigest,
    ) -> Result<RaiseOutcome, Self::Error> {
        RecordId::check(id).map_err(RecordStoreError::InvalidId)?;
        if let Some(other) = self.other_writer(id).await? {
            return Err(RecordStoreError::HasWriter(other));
        }
        let writer = self.writer_id();
        let was_marked = self
            .medium()
            .writer(id)
            .await
            .map_err(RecordStoreError::Medium)?
            .as_ref()
            == Some(writer);
        // Mark first, then read: no other writer can change the bytes between the comparison
        // and the write.
        let mark = self
            .medium()
            .mark_writer(id, writer)
            .await
            .map_err(RecordStoreError::Medium)?;
        if let WriterMark::HeldBy(other) = mark {
            return Err(RecordStoreError::HasWriter(OtherWriter::Marked(other)));
        }
        let raised = self.raise_marked(id, digest).await;
        if !was_marked {
            let unmarked = self
                .medium()
                .unmark_writer(id, writer)
                .await
                .map_err(RecordStoreError::Medium);
            if let (Ok(_), Err(error)) = (&raised, unmarked) {
                return Err(error);
            }
        }
        raised
    }

    async fn issue_token(&self, id: &str) -> Result<TokenIssue, Self::Error> {
        RecordId::check(id).map_err(RecordStoreError::InvalidId)?;
        let Some(stored) = self
            .medium()
            .read(id)
            .await
            .map_err(RecordStoreError::Medium)?
        else {
            return Ok(TokenIssue::Unreadable {
                outcome: SessionLoadOutcome::Missing,
            });
        };
        match self.classify(id, &stored) {
            SessionLoadOutcome::Valid {
                record,
                owner: Some(owner),
            } => Ok(TokenIssue::Issued {
                token: alloc::boxed::Box::new(CrossStoreToken {
                    record: *record,
                    sealed_digest: sha256_digest(&stored),
                    owner,
                }),
            }),
            // The AEAD seal attributes every record it opens; an unattributed valid outcome
            // cannot happen, and is never handed out as a token.
            SessionLoadOutcome::Valid { owner: None, .. } => Ok(TokenIssue::Unreadable {
                outcome: SessionLoadOutcome::Corrupt {
                    issues: alloc::vec![crate::session::SessionRecordDecodeIssue::new(
                        "",
                        "the seal did not say whose the record is",
                    )],
                    cwd: None,
                },
            }),
            outcome => Ok(TokenIssue::Unreadable { outcome }),
        }
    }

    async fn accept_token(
        &self,
        token: &CrossStoreToken,
        purpose: SavePurpose,
    ) -> Result<SaveOutcome, Self::Error> {
        let (outcome, written) = self
            .save_digested(&token.record, purpose, ContentProvenance::Token)
            .await?;
        if let (SaveOutcome::Saved, Some(written)) = (outcome, written) {
            self.seal().aead().logs.borrow_mut().insert(
                token.record.id.clone(),
                WriteLog {
                    since: token.sealed_digest.clone(),
                    written: alloc::vec![written.value],
                },
            );
        }
        Ok(outcome)
    }

    async fn written_since(
        &self,
        id: &str,
        since: &RecordDigest,
    ) -> Result<Vec<RecordDigest>, Self::Error> {
        RecordId::check(id).map_err(RecordStoreError::InvalidId)?;
        Ok(match self.seal().aead().logs.borrow().get(id) {
            Some(log) if log.since == *since => {
                log.written.iter().copied().map(digest_of).collect()
            }
            _ => Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::KeyMaterial;

    #[test]
    fn key_material_is_zeroised_on_drop() {
        fn zeroised_on_drop<T: zeroize::ZeroizeOnDrop>() {}
        zeroised_on_drop::<KeyMaterial>();
    }
}

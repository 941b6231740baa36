//! Key material, key ids and the keyring a seal works with (see the module docs of
//! [`sealed`](super) for the roles).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::session::records::{ContentProvenance, LockedReason, RecordOwner};

use crate::runtime::record_store::SealError;

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
pub struct KeyMaterial(pub(super) [u8; 32]);

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
    pub closed enum KeyRole {
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
pub(super) struct KeyEntry {
    pub(super) id: KeyId,
    pub(super) role: KeyRole,
    /// `None` when the key is locked.
    pub(super) material: Option<KeyMaterial>,
}

/// The keys a seal works with, each with an id, a role and, when unlocked, its material.
///
/// Keys keep the order they were added in; when several could seal, the first wins (so a host
/// rotating keys adds the new owner key first and keeps the old one to open old records).
/// `Debug` lists ids, roles and locked or unlocked, never material.
#[derive(Clone, Default)]
pub struct Keyring {
    pub(super) keys: Vec<KeyEntry>,
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

    pub(super) fn entry(&self, id: &str) -> Option<&KeyEntry> {
        self.keys.iter().find(|key| key.id.as_str() == id)
    }

    fn entry_mut(&mut self, id: &KeyId) -> Option<&mut KeyEntry> {
        self.keys.iter_mut().find(|key| &key.id == id)
    }

    /// The key that seals content of `provenance` now, and whose the sealed content is.
    pub(super) fn sealer(
        &self,
        provenance: ContentProvenance,
    ) -> Result<(&KeyEntry, RecordOwner), SealError> {
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

#[cfg(test)]
mod tests {
    use super::KeyMaterial;

    #[test]
    fn key_material_is_zeroised_on_drop() {
        fn zeroised_on_drop<T: zeroize::ZeroizeOnDrop>() {}
        zeroised_on_drop::<KeyMaterial>();
    }
}

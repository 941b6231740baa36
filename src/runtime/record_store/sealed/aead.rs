//! The seal itself: XChaCha20-Poly1305 encryption and decryption of one record under the keys
//! of a [`Keyring`], and the token log the seal keeps.

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

use crate::session::records::{
    ContentProvenance, LockedReason, RecordDigest, RecordOwner, Sha256Digest,
};

use super::keys::{KeyEntry, KeyId, KeyMaterial, KeyRole, Keyring, KeyringError};
use super::layout::{
    CHECK_LEN, MAGIC, NONCE_LEN, SealedFormatError, SealedHeader, TAG_LEN, VERSION,
    associated_data, role_byte, sha256_digest,
};
use crate::runtime::record_store::{Opened, RecordSeal, SealError, Sealed};
#[cfg(doc)]
use crate::session::records::SealingSessionStore;

/// The token log of one id: which token started it, and the SHA-256 of every byte string sealed
/// for the id since, oldest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct WriteLog {
    pub(super) since: RecordDigest,
    pub(super) written: Vec<Sha256Digest>,
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
    pub(super) logs: RefCell<BTreeMap<String, WriteLog>>,
    /// How many times the seal tried to open bytes (tests count decryptions with it).
    #[cfg(test)]
    pub(super) opened: core::cell::Cell<usize>,
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
            #[cfg(test)]
            opened: core::cell::Cell::new(0),
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
    pub(super) fn open_inner<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a> {
        #[cfg(test)]
        self.opened.set(self.opened.get() + 1);
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
    pub(super) fn seal_as_owner(&self, id: &str, plaintext: &[u8]) -> Result<Vec<u8>, SealError> {
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
        self.seal_attributed(id, plaintext, provenance)
            .map(|sealed| sealed.bytes)
    }

    fn digest(&self, stored: &[u8]) -> Option<RecordDigest> {
        Some(sha256_digest(stored))
    }

    /// The owner is the one the keyring sealed for: nothing is opened.
    fn seal_attributed<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<Sealed<'a>, SealError> {
        let keyring = self.keyring.borrow();
        let (key, owner) = keyring.sealer(provenance)?;
        let bytes = self.seal_with(id, plaintext, key, owner)?;
        Ok(Sealed {
            bytes: Cow::Owned(bytes),
            owner: Some(owner),
        })
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

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

#[cfg(doc)]
use crate::runtime::record_store::{Opened, RecordStore, RecordStoreError, SealError};
#[cfg(doc)]
use crate::session::records::{RecordOwner, SealingSessionStore};

mod aead;
mod keys;
mod layout;
mod sealing_store;

pub use aead::AeadSeal;
pub use keys::{KeyId, KeyIdError, KeyMaterial, KeyRole, Keyring, KeyringError};
pub use layout::{SealedFormatError, SealedHeader, sha256_digest};
pub use sealing_store::AeadSealed;

/// The `rand_core` crate whose [`TryCryptoRng`](rand_core::TryCryptoRng) the seal takes its
/// nonces from, re-exported so a host names the very version this crate implements against.
pub use rand_core;

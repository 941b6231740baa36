//! The members only a sealing store has ([`SealingSessionStore`] on a [`RecordStore`] over an
//! [`AeadSeal`]): raise by digest, cross-store tokens, and what a store wrote since a token.

use alloc::vec::Vec;

use embassy_sync::blocking_mutex::raw::RawMutex;
use rand_core::TryCryptoRng;

use crate::runtime::record_codec::decode_session_record;
use crate::session::records::{
    ContentProvenance, CrossStoreToken, RaiseOutcome, RecordDigest, RecordOwner, SaveOutcome,
    SavePurpose, SealingSessionStore, SessionLoadOutcome, SessionRecordDecodeOutcome, TokenIssue,
};

use super::aead::{AeadSeal, WriteLog};
use super::layout::{digest_of, sha256_digest};
use crate::runtime::record_store::{
    Opened, OtherWriter, RecordId, RecordMedium, RecordSeal, RecordStore, RecordStoreError,
    RecordWriter, WriterMark,
};

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

impl<M: RecordMedium, S: AeadSealed, L: RawMutex> RecordStore<M, S, L>
where
    M::Error: 'static,
{
    /// The raise once this store is the id's writer: read, compare, open, re-seal, write.
    async fn raise_marked(
        &self,
        id: &RecordId,
        digest: &RecordDigest,
    ) -> StoreResult<RaiseOutcome, M> {
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
        let Opened::Plaintext { bytes, owner } = seal.open_inner(id.as_str(), &stored) else {
            return Ok(RaiseOutcome::NotOpenable);
        };
        let SessionRecordDecodeOutcome::Valid { record } =
            decode_session_record(&bytes, id.as_str())
        else {
            return Ok(RaiseOutcome::NotOpenable);
        };
        if owner == Some(RecordOwner::Owner) {
            return Ok(RaiseOutcome::AlreadyOwner);
        }
        let sealed = seal
            .seal_as_owner(id.as_str(), &bytes)
            .map_err(RecordStoreError::Seal)?;
        self.medium()
            .write(id, &sealed)
            .await
            .map_err(RecordStoreError::Medium)?;
        self.note_rewritten(id, &sealed, &record, Some(RecordOwner::Owner));
        Ok(RaiseOutcome::Raised)
    }
}

impl<M: RecordMedium, S: AeadSealed, L: RawMutex> SealingSessionStore for RecordStore<M, S, L>
where
    M::Error: 'static,
{
    async fn raise_to_owner(
        &self,
        id: &str,
        digest: &RecordDigest,
    ) -> Result<RaiseOutcome, Self::Error> {
        let id = &RecordId::new(id).map_err(RecordStoreError::InvalidId)?;
        if let Some(other) = self.other_writer(id).await? {
            return Err(RecordStoreError::HasWriter(other));
        }
        let was_marked = matches!(self.writer_of(id).await?, RecordWriter::ThisStore);
        // Mark first, then read: no other writer can change the bytes between the comparison
        // and the write.
        if let WriterMark::HeldBy(other) = self.mark(id).await? {
            return Err(RecordStoreError::HasWriter(OtherWriter::Marked(other)));
        }
        let raised = self.raise_marked(id, digest).await;
        if !was_marked {
            let unmarked = self.unmark(id).await;
            if let (Ok(_), Err(error)) = (&raised, unmarked) {
                return Err(error);
            }
        }
        raised
    }

    async fn issue_token(&self, id: &str) -> Result<TokenIssue, Self::Error> {
        let id = &RecordId::new(id).map_err(RecordStoreError::InvalidId)?;
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
                    issues: alloc::vec![crate::session::records::SessionRecordDecodeIssue::new(
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
        let id = RecordId::new(id).map_err(RecordStoreError::InvalidId)?;
        Ok(match self.seal().aead().logs.borrow().get(id.as_str()) {
            Some(log) if log.since == *since => {
                log.written.iter().copied().map(digest_of).collect()
            }
            _ => Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use alloc::boxed::Box;
    use core::convert::Infallible;

    use rand_core::{TryCryptoRng, TryRng};

    use crate::runtime::record_store::{
        AeadSeal, KeyId, KeyMaterial, KeyRole, Keyring, MemoryMedium, RecordStore, WriterId,
    };
    use crate::session::records::{
        ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose,
        RecordOwner, SaveOutcome, SavePurpose, SessionLoadOutcome,
    };

    /// A deterministic nonce source (a counter): enough for a test, never for a host.
    struct CounterRng(u64);

    impl TryRng for CounterRng {
        type Error = Infallible;

        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            self.try_next_u64().map(|word| word as u32)
        }

        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            self.0 += 1;
            Ok(self.0)
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
            for chunk in dst.chunks_mut(8) {
                let word = self.try_next_u64()?.to_le_bytes();
                chunk.copy_from_slice(word.get(..chunk.len()).unwrap_or_default());
            }
            Ok(())
        }
    }

    impl TryCryptoRng for CounterRng {}

    /// Runs a store call over the memory medium (it never waits).
    fn ready<F: core::future::Future>(future: F) -> F::Output {
        let mut future = core::pin::pin!(future);
        let mut cx = core::task::Context::from_waker(core::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            core::task::Poll::Ready(output) => output,
            core::task::Poll::Pending => panic!("a memory store call waited"),
        }
    }

    fn owner_seal() -> AeadSeal<CounterRng> {
        let mut keys = Keyring::new();
        keys.add_key(
            KeyId::new("owner-1").expect("a key id"),
            KeyRole::Owner,
            KeyMaterial::new([7; 32]),
        )
        .expect("one key");
        AeadSeal::new(keys, CounterRng(0))
    }

    fn record(updated: &str) -> InteractiveSessionRecord {
        InteractiveSessionRecord::new("s1", "/work", "2025-01-01T00:00:00.000Z", updated)
    }

    #[test]
    fn a_sealing_save_learns_the_owner_without_opening_what_it_sealed() {
        for (provenance, owner) in [
            (ContentProvenance::Session, RecordOwner::Owner),
            (ContentProvenance::Fork, RecordOwner::Grantee),
        ] {
            let medium = MemoryMedium::new();
            let seal = owner_seal();
            let store = RecordStore::new(&medium, &seal, WriterId::new("w1").expect("an id"));
            let first = record("2025-01-01T00:00:01.000Z");
            let second = record("2025-01-01T00:00:02.000Z");
            for saved in [&first, &second] {
                assert_eq!(
                    ready(store.save(saved, SavePurpose::Run, provenance)),
                    Ok(SaveOutcome::Saved)
                );
            }
            assert_eq!(
                seal.opened.get(),
                0,
                "{provenance:?}: a save decrypted what it (or the save before it) sealed"
            );
            // The held owner is the one the seal sealed for: with the keys locked, the held
            // record comes back with it.
            seal.lock_all();
            assert_eq!(
                ready(store.load("s1", LoadPurpose::Probe)),
                Ok(SessionLoadOutcome::Valid {
                    record: Box::new(second),
                    owner: Some(owner),
                }),
                "{provenance:?}"
            );
        }
    }
}

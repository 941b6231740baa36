//! Cases of the record store (`runtime::record_store`): the memory store passes the conformance
//! suite (and a store with a toy sealing seal passes its locked and held cases), a medium with
//! one defect each fails the suite at the right case, and every bad input is a typed outcome.
//! Uses only `core`, `alloc`, serde_json and the crate, so it also runs on the firmware and
//! wasm.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::convert::Infallible;

use agent_interface::agent_core::ErrorValue;
use agent_interface::conformance::{EveryCase, StopAtFirst, SuiteCase};
use agent_interface::runtime::record_codec::encode_session_record;
use agent_interface::runtime::record_store::testing::{
    MemoryRecordStoreFixture, RecordStoreCase, RecordStoreConformanceFailure, RecordStoreFixture,
    RecordStoreProblem, run_record_store_case, run_record_store_conformance,
};
use agent_interface::runtime::record_store::*;
use agent_interface::session::records::{
    ContentProvenance, DigestAlgorithm, InteractiveSessionRecord, InteractiveSessionStore,
    LoadPurpose, LockedReason, RecordDigest, RecordOwner, SaveOutcome, SavePurpose, SaveRefusal,
    SessionLoadOutcome, SessionLoadStatus, Sha256Digest,
};

use crate::support::{block_on, s};

fn rid(id: &str) -> RecordId {
    RecordId::new(id).expect("a valid record id")
}

fn writer(name: &str) -> WriterId {
    WriterId::new(name).expect("a valid writer id")
}

fn record(id: &str, n: u32) -> InteractiveSessionRecord {
    let mut record = InteractiveSessionRecord::new(
        id,
        "/work/host",
        "2025-02-01T00:00:00.000Z",
        format!("2025-02-01T00:00:{n:02}.000Z"),
    );
    record.name = Some(format!("record {n}"));
    record
}

fn encoded(record: &InteractiveSessionRecord) -> Vec<u8> {
    encode_session_record(record).expect("encodable")
}

fn store<'m>(medium: &'m MemoryMedium, name: &str) -> MemoryRecordStore<'m> {
    RecordStore::new(medium, Unsealed, writer(name))
}

fn plant(medium: &MemoryMedium, id: &str, bytes: &[u8]) {
    block_on(medium.write(&rid(id), bytes)).expect("the memory medium cannot fail");
}

fn stored(medium: &MemoryMedium, id: &str) -> Option<Vec<u8>> {
    block_on(medium.read(&rid(id))).expect("the memory medium cannot fail")
}

/// What a failed assertion prints of a load outcome: its status, issues and `cwd`, never its
/// record. A record's `Debug` adds about 34 KB to a firmware image, and is what kept the
/// `bad_input` and `writers` parts off the LM3S6965.
fn brief(outcome: &SessionLoadOutcome) -> String {
    format!(
        "{:?} {:?} {:?}",
        outcome.status(),
        outcome.issues(),
        outcome.cwd()
    )
}

fn load(store: &MemoryRecordStore<'_>, id: &str, purpose: LoadPurpose) -> SessionLoadOutcome {
    block_on(store.load(id, purpose)).expect("a load that reaches the medium")
}

// ---- a medium with one defect at a time -----------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defect {
    /// Marking always succeeds and no marker is kept.
    IgnoresMarkers,
    /// Marking always succeeds and replaces another writer's marker.
    StealsMarkers,
    /// Unmarking never removes a marker.
    NeverUnmarks,
    /// A read of bytes that are not a JSON object says nothing is stored (damaged as absent).
    HidesDamage,
    /// A write stores only the first half of the bytes.
    TornWrites,
    /// A write over an existing record is dropped.
    DropsRewrites,
    /// The id listing leaves the last id out.
    ListsAllButLast,
    /// A transfer says it moved the marker and leaves it where it was.
    FakeTransfer,
    /// The fixture cannot make a medium.
    Unreachable,
    /// No defect: the memory medium as it is.
    None,
}

struct Faulty {
    inner: MemoryMedium,
    defect: Defect,
}

impl RecordMedium for Faulty {
    type Error = Infallible;

    async fn read(&self, id: &RecordId) -> Result<Option<Vec<u8>>, Infallible> {
        let bytes = self.inner.read(id).await?;
        if self.defect == Defect::HidesDamage
            && bytes.as_ref().is_some_and(|b| {
                serde_json::from_slice::<serde_json::Value>(b).map_or(true, |v| !v.is_object())
            })
        {
            return Ok(None);
        }
        Ok(bytes)
    }

    async fn write(&self, id: &RecordId, bytes: &[u8]) -> Result<(), Infallible> {
        match self.defect {
            Defect::TornWrites => self.inner.write(id, &bytes[..bytes.len() / 2]).await,
            Defect::DropsRewrites if self.inner.read(id).await?.is_some() => Ok(()),
            _ => self.inner.write(id, bytes).await,
        }
    }

    async fn remove(&self, id: &RecordId) -> Result<(), Infallible> {
        self.inner.remove(id).await
    }

    async fn ids(&self) -> Result<Vec<RecordId>, Infallible> {
        let mut ids = self.inner.ids().await?;
        if self.defect == Defect::ListsAllButLast {
            ids.pop();
        }
        Ok(ids)
    }

    async fn mark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<WriterMark, Infallible> {
        match self.defect {
            Defect::IgnoresMarkers => Ok(WriterMark::Marked),
            Defect::StealsMarkers => {
                if let Some(held) = self.inner.writer(id).await? {
                    self.inner.unmark_writer(id, &held).await?;
                }
                self.inner.mark_writer(id, writer).await
            }
            _ => self.inner.mark_writer(id, writer).await,
        }
    }

    async fn writer(&self, id: &RecordId) -> Result<Option<WriterId>, Infallible> {
        if self.defect == Defect::IgnoresMarkers {
            return Ok(None);
        }
        self.inner.writer(id).await
    }

    async fn unmark_writer(&self, id: &RecordId, writer: &WriterId) -> Result<bool, Infallible> {
        if self.defect == Defect::NeverUnmarks {
            return Ok(self.inner.writer(id).await?.as_ref() == Some(writer));
        }
        self.inner.unmark_writer(id, writer).await
    }

    async fn transfer_writer(
        &self,
        id: &RecordId,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, Infallible> {
        if self.defect == Defect::FakeTransfer {
            return Ok(self.inner.writer(id).await?.as_ref() == Some(from));
        }
        self.inner.transfer_writer(id, from, to).await
    }
}

struct FaultyFixture {
    defect: Defect,
    /// Declares owner attribution (which an unsealed medium never gives).
    attributes: bool,
}

impl FaultyFixture {
    const fn new(defect: Defect) -> Self {
        Self {
            defect,
            attributes: false,
        }
    }
}

impl RecordStoreFixture for FaultyFixture {
    type Medium = Faulty;
    type Seal = Unsealed;

    async fn medium(&mut self) -> Result<Faulty, ErrorValue> {
        if self.defect == Defect::Unreachable {
            return Err(ErrorValue::new("Error", "no medium"));
        }
        Ok(Faulty {
            inner: MemoryMedium::new(),
            defect: self.defect,
        })
    }

    fn seal(&mut self) -> Unsealed {
        Unsealed
    }

    fn locked_seal(&mut self) -> Option<Unsealed> {
        None
    }

    fn attributes_owner(&self) -> bool {
        self.attributes
    }
}

/// Fails with the failure's message (its `Display`, so a firmware image does not link the
/// `Debug` code of every record type).
fn passes(outcome: Result<(), RecordStoreConformanceFailure>) {
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}

fn conformance_of(defect: Defect) -> Result<(), RecordStoreConformanceFailure> {
    block_on(run_record_store_conformance(
        &mut FaultyFixture::new(defect),
        &mut StopAtFirst,
    ))
}

// ---- a toy sealing seal, to run the locked and held cases on the memory medium ----------------

/// Not cryptography: a tagged envelope (`TOY1`, key byte, owner byte, the id, NUL, the
/// plaintext) and an FNV-1a "digest". Enough for the store's locked and held paths.
#[derive(Clone, Copy, Debug)]
struct ToySeal {
    key: u8,
    unlocked: bool,
}

const TOY: &[u8] = b"TOY1";

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl RecordSeal for ToySeal {
    fn open<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a> {
        let Some(rest) = stored.strip_prefix(TOY) else {
            return Opened::Broken("not a toy-sealed record");
        };
        let [key, owner, rest @ ..] = rest else {
            return Opened::Broken("a truncated toy-sealed record");
        };
        let Some(rest) = rest
            .strip_prefix(id.as_bytes())
            .and_then(|r| r.strip_prefix(b"\0"))
        else {
            return Opened::Broken("sealed under another id");
        };
        if *key != self.key || !self.unlocked {
            return Opened::Locked(LockedReason::KeysLocked);
        }
        Opened::Plaintext {
            bytes: Cow::Borrowed(rest),
            owner: Some(if *owner == 1 {
                RecordOwner::Owner
            } else {
                RecordOwner::Grantee
            }),
        }
    }

    fn seal<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<Cow<'a, [u8]>, SealError> {
        if !self.unlocked {
            return Err(SealError::NoKey(LockedReason::KeysLocked));
        }
        let owner = u8::from(provenance == ContentProvenance::Session);
        let mut bytes = Vec::from(TOY);
        bytes.extend_from_slice(&[self.key, owner]);
        bytes.extend_from_slice(id.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(plaintext);
        Ok(Cow::Owned(bytes))
    }

    fn digest(&self, stored: &[u8]) -> Option<RecordDigest> {
        let mut value = [0; 32];
        value[..8].copy_from_slice(&fnv(stored).to_be_bytes());
        Some(RecordDigest {
            algorithm: DigestAlgorithm::Sha256,
            value: Sha256Digest(value),
        })
    }
}

struct ToyFixture;

impl RecordStoreFixture for ToyFixture {
    type Medium = MemoryMedium;
    type Seal = ToySeal;

    async fn medium(&mut self) -> Result<MemoryMedium, ErrorValue> {
        Ok(MemoryMedium::new())
    }

    fn seal(&mut self) -> ToySeal {
        ToySeal {
            key: 7,
            unlocked: true,
        }
    }

    fn locked_seal(&mut self) -> Option<ToySeal> {
        Some(ToySeal {
            key: 7,
            unlocked: false,
        })
    }

    fn attributes_owner(&self) -> bool {
        true
    }
}

cases! {
    mod conformance {
        fn the_memory_store_passes_every_case() {
            let outcome = block_on(run_record_store_conformance(
                &mut MemoryRecordStoreFixture,
                &mut StopAtFirst,
            ));
            passes(outcome);
        }

        fn each_case_runs_alone_on_a_fresh_medium() {
            for case in RecordStoreCase::ALL {
                let outcome = block_on(run_record_store_case(&mut MemoryRecordStoreFixture, case));
                passes(outcome);
            }
            assert_eq!(<RecordStoreCase as SuiteCase>::ALL, &RecordStoreCase::ALL[..]);
        }

        fn every_case_harness_reports_each_case() {
            let mut every = EveryCase::new();
            let outcome =
                block_on(run_record_store_conformance(&mut MemoryRecordStoreFixture, &mut every));
            passes(outcome);
            let ran: Vec<RecordStoreCase> = every.results.iter().map(|(case, _)| *case).collect();
            assert_eq!(ran, RecordStoreCase::ALL);
            assert!(every.all_passed());
        }
    }

    mod sealed_toy {
        fn a_toy_sealing_store_passes_every_case_including_locked_and_held() {
            let outcome = block_on(run_record_store_conformance(&mut ToyFixture, &mut StopAtFirst));
            passes(outcome);
        }
    }

    mod defects {
        fn every_case_harness_goes_on_after_a_failed_case() {
            let mut every = EveryCase::new();
            let outcome = block_on(run_record_store_conformance(
                &mut FaultyFixture::new(Defect::FakeTransfer),
                &mut every,
            ));
            assert_eq!(outcome, Ok(()), "EveryCase records failures and goes on");
            assert_eq!(every.results.len(), RecordStoreCase::ALL.len());
            let failed: Vec<RecordStoreCase> = every.failures().map(|(case, _)| *case).collect();
            assert_eq!(failed, [RecordStoreCase::HandOffAndLend]);
            assert!(
                every
                    .result_of(RecordStoreCase::LoadValid)
                    .is_some_and(Result::is_ok)
            );
        }

        fn each_defective_medium_fails_its_case() {
            let expected = [
                (Defect::IgnoresMarkers, RecordStoreCase::ClaimingLoads),
                (Defect::StealsMarkers, RecordStoreCase::ClaimBeforeRead),
                (Defect::NeverUnmarks, RecordStoreCase::ClaimBeforeRead),
                (Defect::HidesDamage, RecordStoreCase::LoadCorrupt),
                (Defect::TornWrites, RecordStoreCase::LoadValid),
                (Defect::DropsRewrites, RecordStoreCase::RunSaves),
                (Defect::ListsAllButLast, RecordStoreCase::Listing),
                (Defect::FakeTransfer, RecordStoreCase::HandOffAndLend),
                (Defect::Unreachable, RecordStoreCase::LoadValid),
            ];
            for (defect, case) in expected {
                let failure = conformance_of(defect).expect_err("a defective medium fails");
                assert_eq!(failure.case, case, "{defect:?}: {failure}");
                let text = format!("{failure}");
                assert!(
                    text.contains(&format!("{case:?}")) && text.contains(failure.check),
                    "{text}"
                );
            }
        }

        fn an_unreachable_fixture_is_a_fixture_problem() {
            let failure = conformance_of(Defect::Unreachable).expect_err("no medium");
            assert!(
                matches!(&*failure.problem, RecordStoreProblem::Fixture(e) if e.message == "no medium"),
                "{failure}"
            );
        }

        fn markers_ignored_break_the_interleaving_too() {
            // Run the interleaving case alone: a medium without markers lets both writers in.
            let failure = block_on(run_record_store_case(
                &mut FaultyFixture::new(Defect::IgnoresMarkers),
                RecordStoreCase::InterleavedWriters,
            ))
            .expect_err("two writers of one record");
            match &*failure.problem {
                RecordStoreProblem::Interleaving { seed, detail, .. } => {
                    assert!(
                        format!("{failure}").contains(&format!("{seed:#x}")),
                        "the seed is printed: {failure}"
                    );
                    assert!(!detail.is_empty());
                }
                other => panic!("expected an interleaving failure, got {other}"),
            }
        }

        fn a_store_that_never_attributes_fails_a_fixture_that_declares_owners() {
            let mut fixture = FaultyFixture { defect: Defect::None, attributes: true };
            let failure = block_on(run_record_store_conformance(&mut fixture, &mut StopAtFirst))
                .expect_err("valid outcomes without an owner");
            assert_eq!(failure.case, RecordStoreCase::LoadValid, "{failure}");
            assert_eq!(conformance_of(Defect::None), Ok(()), "without the claim it passes");
        }
    }

    mod bad_input {
        fn truncated_garbage_wrong_id_and_non_objects_are_corrupt() {
            let medium = MemoryMedium::new();
            let a = store(&medium, "host-a");
            let full = encoded(&record("t", 1));
            plant(&medium, "t", &full[..full.len() - 5]);
            plant(&medium, "g", &[0xde, 0xad, 0xbe, 0xef]);
            plant(&medium, "w", &encoded(&record("not-w", 1)));
            plant(&medium, "n", b"\"a string\"");
            plant(&medium, "e", b"");
            for (id, cwd) in [("t", Some("/work/host")), ("g", None), ("w", Some("/work/host")), ("n", None), ("e", None)] {
                let before = stored(&medium, id);
                let outcome = load(&a, id, LoadPurpose::Resume);
                assert_eq!(outcome.status(), SessionLoadStatus::Corrupt, "{id}: {}", brief(&outcome));
                assert!(!outcome.issues().is_empty(), "{id}");
                assert_eq!(outcome.cwd(), cwd, "{id}");
                assert!(!outcome.permits_overwrite());
                assert_eq!(block_on(medium.writer(&rid(id))), Ok(None), "{id}: the claim is dropped");
                let saved = block_on(a.save(&record(id, 2), SavePurpose::Run, ContentProvenance::Session));
                assert_eq!(saved, Ok(SaveOutcome::Refused { reason: SaveRefusal::Unreadable }), "{id}");
                assert_eq!(stored(&medium, id), before, "{id}: never overwritten");
            }
        }

        fn a_future_version_is_unsupported_with_version_and_cwd() {
            let medium = MemoryMedium::new();
            let a = store(&medium, "host-a");
            plant(&medium, "f", br#"{"schemaVersion":3,"record":{"id":"f","cwd":"/w/next"}}"#);
            plant(&medium, "v", br#"{"schemaVersion":"two","record":{"id":"v","cwd":"/w/odd"}}"#);
            let future = load(&a, "f", LoadPurpose::Probe);
            assert!(
                future == SessionLoadOutcome::Unsupported { schema_version: Some(3), cwd: Some(s("/w/next")) },
                "{}",
                brief(&future)
            );
            let odd = load(&a, "v", LoadPurpose::Probe);
            assert!(
                matches!(odd.status(), SessionLoadStatus::Unsupported | SessionLoadStatus::Corrupt),
                "{}",
                brief(&odd)
            );
            assert_eq!(odd.cwd(), Some("/w/odd"));
        }

        fn invalid_ids_are_typed_errors_and_never_reach_the_medium() {
            let medium = MemoryMedium::new();
            let a = store(&medium, "host-a");
            let cases = [
                ("", RecordIdError::Empty),
                (".", RecordIdError::LeadingDot),
                ("../etc", RecordIdError::LeadingDot),
                ("a\\b", RecordIdError::ForbiddenByte { index: 1, byte: b'\\' }),
                ("a\nb", RecordIdError::ForbiddenByte { index: 1, byte: b'\n' }),
                ("x:y", RecordIdError::ForbiddenByte { index: 1, byte: b':' }),
            ];
            for (id, error) in cases {
                assert_eq!(RecordId::new(id), Err(error), "{id:?}");
                assert_eq!(block_on(a.load(id, LoadPurpose::Resume)).err(), Some(RecordStoreError::InvalidId(error)));
                assert_eq!(
                    block_on(a.save(&record(id, 1), SavePurpose::Run, ContentProvenance::Session)),
                    Err(RecordStoreError::InvalidId(error))
                );
                assert_eq!(block_on(a.delete(id)), Err(RecordStoreError::InvalidId(error)));
                assert!(!format!("{}", RecordStoreError::<Infallible>::InvalidId(error)).is_empty());
            }
            let long = "a".repeat(129);
            assert_eq!(RecordId::new(long), Err(RecordIdError::TooLong { len: 129 }));
            assert_eq!(RecordId::new("a".repeat(128)).map(|id| id.as_str().len()), Ok(128));
            assert_eq!(block_on(medium.ids()), Ok(Vec::new()), "nothing reached the medium");
        }

        fn an_id_compares_with_its_text_and_keys_a_map_looked_up_by_it() {
            // The port takes `&str`, the store's own members `&RecordId`: the two meet without
            // a conversion at every comparison.
            let medium = MemoryMedium::new();
            let a = store(&medium, "host-a");
            block_on(a.save(&record("sess-1", 1), SavePurpose::Run, ContentProvenance::Session)).expect("saved");
            let ids = block_on(medium.ids()).expect("listed");
            assert!(ids.iter().any(|id| id == "sess-1"));
            assert!(ids.iter().all(|id| *id != "sess-2"));
            assert!(ids.iter().any(|id| "sess-1" == *id));
            let parsed: RecordId = "sess-1".parse().expect("a valid id");
            assert_eq!(parsed, ids[0]);
            assert_eq!("../x".parse::<RecordId>(), Err(RecordIdError::LeadingDot));
            let held: alloc::collections::BTreeSet<RecordId> = ids.into_iter().collect();
            assert!(held.contains("sess-1") && !held.contains("sess-2"));
            assert_eq!(AsRef::<str>::as_ref(&parsed), "sess-1");
        }

        fn blank_long_or_multi_line_writer_ids_are_refused() {
            assert_eq!(WriterId::new(""), Err(WriterIdError::Empty));
            let longest = "w".repeat(WriterId::MAX_LEN);
            assert_eq!(WriterId::new(longest.clone()).map(|id| id.as_str().len()), Ok(WriterId::MAX_LEN));
            assert_eq!(WriterId::new(longest + "w"), Err(WriterIdError::TooLong));
            for id in ["a\nb", "a\rb", "\0", "tab\there"] {
                assert_eq!(WriterId::new(id), Err(WriterIdError::ControlCharacter), "{id:?}");
            }
            assert_eq!(WriterId::new("host-1:4242").map(|id| format!("{id}")), Ok(s("host-1:4242")));
            assert!(!format!("{}", WriterIdError::TooLong).is_empty());
        }

        fn a_record_that_is_not_json_writable_is_an_encode_error() {
            use agent_interface::agent_core::{Value, ValueMap};
            let medium = MemoryMedium::new();
            let a = store(&medium, "host-a");
            let mut r = record("nan", 1);
            let mut extra = ValueMap::new();
            extra.insert(s("score"), Value::from(f64::NAN));
            r.extra = extra;
            match block_on(a.save(&r, SavePurpose::Run, ContentProvenance::Session)) {
                Err(RecordStoreError::Encode(message)) => assert!(!message.is_empty()),
                // serde_json writes a non-finite float as null: then the record is writable.
                Ok(SaveOutcome::Saved) => {
                    assert_eq!(load(&a, "nan", LoadPurpose::Probe).status(), SessionLoadStatus::Valid);
                }
                other => panic!("unexpected {other:?}"),
            }
            assert_eq!(block_on(medium.writer(&rid("nan"))).map(|w| w.is_some()), Ok(stored(&medium, "nan").is_some()));
        }
    }

    mod writers {
        fn a_lend_hands_the_record_to_a_fork_job_and_back() {
            let medium = MemoryMedium::new();
            let host = store(&medium, "host");
            let job = store(&medium, "fork-job");
            let fork = record("fork-1", 1);
            assert_eq!(
                block_on(host.save(&fork, SavePurpose::HandOff, ContentProvenance::Fork)),
                Ok(SaveOutcome::Saved)
            );
            // Compared without a record in what a failure prints (see `brief`).
            assert_eq!(
                block_on(host.load("fork-1", LoadPurpose::Resume)).err(),
                Some(RecordStoreError::HasWriter(OtherWriter::Lent { to: None }))
            );
            assert_eq!(block_on(host.lend(&rid("fork-1"), job.writer_id())), Ok(()));
            assert_eq!(block_on(host.lend(&rid("fork-1"), job.writer_id())), Ok(()), "idempotent");
            assert_eq!(
                block_on(host.lend(&rid("fork-1"), &writer("third"))),
                Err(RecordStoreError::HasWriter(OtherWriter::Lent { to: Some(writer("fork-job")) }))
            );
            assert!(
                load(&job, "fork-1", LoadPurpose::Resume).into_record() == Some(fork.clone()),
                "the job loads the lent record"
            );
            assert_eq!(block_on(job.writer_of(&rid("fork-1"))), Ok(RecordWriter::ThisStore));
            assert_eq!(
                block_on(host.reclaim(&rid("fork-1"))),
                Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer("fork-job"))))
            );
            assert_eq!(
                block_on(host.delete("fork-1")),
                Err(RecordStoreError::HasWriter(OtherWriter::Lent { to: Some(writer("fork-job")) })),
                "a lent id is not deleted"
            );
            assert_eq!(block_on(job.release(&rid("fork-1"))), Ok(()));
            assert_eq!(block_on(host.reclaim(&rid("fork-1"))), Ok(true));
            assert_eq!(block_on(host.reclaim(&rid("fork-1"))), Ok(false), "no lend left");
            assert_eq!(block_on(medium.writer(&rid("fork-1"))), Ok(Some(writer("host"))));
            assert_eq!(block_on(host.release(&rid("fork-1"))), Ok(()));
            assert_eq!(block_on(medium.writer(&rid("fork-1"))), Ok(None));
        }

        fn a_claimed_session_may_be_lent_and_errors_display() {
            let medium = MemoryMedium::new();
            let a = store(&medium, "a");
            assert_eq!(block_on(a.lend(&rid("s1"), &writer("b"))), Err(RecordStoreError::NotHeld));
            let claimed = load(&a, "s1", LoadPurpose::Write);
            assert!(claimed == SessionLoadOutcome::Missing, "{}", brief(&claimed));
            assert_eq!(block_on(a.lend(&rid("s1"), &writer("b"))), Ok(()));
            assert_eq!(block_on(medium.writer(&rid("s1"))), Ok(Some(writer("b"))));
            for error in [
                RecordStoreError::<Infallible>::NotHeld,
                RecordStoreError::HasWriter(OtherWriter::Marked(writer("b"))),
                RecordStoreError::HasWriter(OtherWriter::Lent { to: None }),
                RecordStoreError::Encode(s("bad")),
                RecordStoreError::Seal(SealError::Entropy(s("dry"))),
            ] {
                assert!(!format!("{error}").is_empty(), "{error:?}");
            }
        }

        fn held_bytes_hand_back_after_a_lock_on_a_toy_sealing_store() {
            let medium = MemoryMedium::new();
            let a = RecordStore::new(&medium, ToySeal { key: 1, unlocked: true }, writer("a"));
            let r = record("h", 1);
            assert_eq!(block_on(a.save(&r, SavePurpose::Run, ContentProvenance::Session)), Ok(SaveOutcome::Saved));
            let locked = RecordStore::new(&medium, ToySeal { key: 1, unlocked: false }, writer("b"));
            let held = block_on(locked.load("h", LoadPurpose::Probe)).expect("a load");
            assert!(
                held == SessionLoadOutcome::Locked { reason: LockedReason::KeysLocked },
                "{}",
                brief(&held)
            );
            let listing = block_on(locked.list()).expect("listing");
            assert_eq!((listing.entries.len(), listing.locked_count, listing.unopenable_count), (0, 1, 0));
            let owner = block_on(a.load("h", LoadPurpose::Probe)).expect("load").owner();
            assert_eq!(owner, Some(RecordOwner::Owner));
        }
    }
}

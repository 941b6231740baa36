//! The file medium and the file store (feature `record-store-fs`, host only): the record store
//! conformance suite over a fresh directory per case, two store instances over one directory
//! (two processes), dead and unreadable writer markers, corrupt files left byte for byte,
//! stray temporary files, ids that would leave the directory, persistence across instances,
//! I/O failures as typed errors, and a seeded property test of interleaved writers.
//!
//! Every test works in its own directory under `std::env::temp_dir()` (named with the process
//! id and a counter) and removes it when it ends, passed or failed.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/temp_dir.rs"]
mod temp_dir;

#[path = "suites/seeded.rs"]
mod seeded;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use agent_interface::agent_core::ErrorValue;
use agent_interface::conformance::{EveryCase, StopAtFirst};
use agent_interface::runtime::record_codec::encode_session_record;
use agent_interface::runtime::record_store::testing::{
    RecordStoreCase, UnsealedFixture, run_record_store_conformance,
};
use agent_interface::runtime::record_store::{
    FileMedium, FileMediumError, FileOperation, FileRecordStore, OtherWriter, RecordId,
    RecordMedium, RecordStoreError, RecordWriter, Unsealed, WriterId, WriterMark,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SaveRefusal, SessionLoadOutcome, SessionLoadStatus,
};

use seeded::Seeded;
use support::{block_on, s};
use temp_dir::TempDir;

// ---- directories -------------------------------------------------------------------------

fn names_in(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .expect("the directory lists")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

fn temporaries(dir: &Path) -> Vec<String> {
    names_in(dir)
        .into_iter()
        .filter(|name| name.ends_with(".tmp"))
        .collect()
}

// ---- fixtures ----------------------------------------------------------------------------

/// The conformance fixture: every medium is a fresh, empty directory (all removed when the
/// fixture drops).
#[derive(Default)]
struct FsFixture {
    dirs: Vec<TempDir>,
}

impl UnsealedFixture for FsFixture {
    type UnsealedMedium = FileMedium;

    async fn unsealed_medium(&mut self) -> Result<FileMedium, ErrorValue> {
        let dir = TempDir::new("suite");
        let medium = FileMedium::open(dir.path())
            .map_err(|error| ErrorValue::new("FileMediumError", error.to_string()))?;
        self.dirs.push(dir);
        Ok(medium)
    }
}

fn rid(id: &str) -> RecordId {
    RecordId::new(id).expect("a valid record id")
}

fn writer(id: &str) -> WriterId {
    WriterId::new(id).expect("a valid writer id")
}

fn unreadable() -> WriterId {
    writer(FileMedium::UNREADABLE_MARKER)
}

fn store(dir: &TempDir, id: &str) -> FileRecordStore {
    let medium = FileMedium::open(dir.path()).expect("the directory opens");
    FileRecordStore::new(medium, Unsealed, writer(id))
}

const CWD: &str = "/work/fs";

fn record(id: &str) -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        id,
        CWD,
        "2026-01-02T03:04:05.000Z",
        "2026-01-02T03:04:05.000Z",
    )
    .with_name("a file-backed session")
}

fn renamed(id: &str, name: &str) -> InteractiveSessionRecord {
    record(id).with_name(name)
}

fn save(store: &FileRecordStore, record: &InteractiveSessionRecord) -> SaveOutcome {
    block_on(store.save(record, SavePurpose::Run, ContentProvenance::Session)).expect("saves")
}

fn load(store: &FileRecordStore, id: &str, purpose: LoadPurpose) -> SessionLoadOutcome {
    block_on(store.load(id, purpose)).expect("loads")
}

const HAS_WRITER: SaveOutcome = SaveOutcome::Refused {
    reason: SaveRefusal::HasWriter,
};
const UNREADABLE: SaveOutcome = SaveOutcome::Refused {
    reason: SaveRefusal::Unreadable,
};

fn held_by(error: Result<SessionLoadOutcome, RecordStoreError<FileMediumError>>) -> WriterId {
    match error {
        Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer))) => writer,
        other => panic!("expected a has-writer refusal, got {other:?}"),
    }
}

// ---- the conformance suite ---------------------------------------------------------------

#[test]
fn the_file_store_passes_the_record_store_conformance_suite() {
    let mut fixture = FsFixture::default();
    let outcome = block_on(run_record_store_conformance(&mut fixture, &mut StopAtFirst));
    assert_eq!(outcome, Ok(()));
}

#[test]
fn every_case_passes_on_its_own_directory() {
    let mut fixture = FsFixture::default();
    let mut harness = EveryCase::new();
    let outcome = block_on(run_record_store_conformance(&mut fixture, &mut harness));
    assert_eq!(outcome, Ok(()));
    assert!(!harness.results.is_empty());
    let failures: Vec<_> = harness.failures().collect();
    assert!(failures.is_empty(), "{failures:?}");
    // One fresh directory per case, at least.
    assert!(fixture.dirs.len() >= harness.results.len());
}

/// One planted defect of a file medium at a time, each an obligation the suite checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defect {
    /// Marks by overwriting the marker (no `create_new`): two writers both get `Marked`.
    OverwritesMarkers,
    /// Removes a marker whoever it names.
    UnmarksAnyone,
    /// Reports a missing record file as an I/O error instead of `None`.
    MissingIsError,
}

/// A file medium with one defect.
struct Faulty {
    inner: FileMedium,
    defect: Defect,
}

impl RecordMedium for Faulty {
    type Error = FileMediumError;

    async fn read(&self, id: &RecordId) -> Result<Option<Vec<u8>>, FileMediumError> {
        match self.inner.read(id).await? {
            None if self.defect == Defect::MissingIsError => Err(FileMediumError::Io {
                operation: FileOperation::ReadRecord,
                path: self.inner.directory().join(id.as_str()),
                kind: std::io::ErrorKind::NotFound,
                code: None,
                message: s("not found"),
            }),
            found => Ok(found),
        }
    }

    async fn write(&self, id: &RecordId, bytes: &[u8]) -> Result<(), FileMediumError> {
        self.inner.write(id, bytes).await
    }

    async fn remove(&self, id: &RecordId) -> Result<(), FileMediumError> {
        self.inner.remove(id).await
    }

    async fn ids(&self) -> Result<Vec<RecordId>, FileMediumError> {
        self.inner.ids().await
    }

    async fn mark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<WriterMark, FileMediumError> {
        if self.defect == Defect::OverwritesMarkers {
            let text = format!("{writer}\n");
            fs::write(self.inner.directory().join(format!("{id}.writer")), text)
                .expect("overwrites");
            return Ok(WriterMark::Marked);
        }
        self.inner.mark_writer(id, writer).await
    }

    async fn writer(&self, id: &RecordId) -> Result<Option<WriterId>, FileMediumError> {
        self.inner.writer(id).await
    }

    async fn unmark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<bool, FileMediumError> {
        if self.defect == Defect::UnmarksAnyone {
            return Ok(
                fs::remove_file(self.inner.directory().join(format!("{id}.writer"))).is_ok(),
            );
        }
        self.inner.unmark_writer(id, writer).await
    }

    async fn transfer_writer(
        &self,
        id: &RecordId,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, FileMediumError> {
        self.inner.transfer_writer(id, from, to).await
    }
}

struct FaultyFixture {
    dirs: FsFixture,
    defect: Defect,
}

impl UnsealedFixture for FaultyFixture {
    type UnsealedMedium = Faulty;

    async fn unsealed_medium(&mut self) -> Result<Faulty, ErrorValue> {
        let inner = self.dirs.unsealed_medium().await?;
        Ok(Faulty {
            inner,
            defect: self.defect,
        })
    }
}

#[test]
fn each_planted_file_medium_defect_fails_the_case_that_checks_it() {
    let expected = [
        (
            Defect::OverwritesMarkers,
            RecordStoreCase::SecondWriterRefused,
        ),
        (Defect::UnmarksAnyone, RecordStoreCase::RecoverDeadWriter),
        (Defect::MissingIsError, RecordStoreCase::LoadMissing),
    ];
    for (defect, case) in expected {
        let mut fixture = FaultyFixture {
            dirs: FsFixture::default(),
            defect,
        };
        let mut harness = EveryCase::new();
        let outcome = block_on(run_record_store_conformance(&mut fixture, &mut harness));
        assert_eq!(outcome, Ok(()), "the every-case harness runs them all");
        let failed: Vec<RecordStoreCase> = harness.failures().map(|(case, _)| *case).collect();
        assert!(
            failed.contains(&case),
            "{defect:?} should fail {case:?}; failed: {failed:?}"
        );
    }
}

// ---- two processes over one directory ----------------------------------------------------

#[test]
fn two_stores_over_one_directory_never_both_write_one_record() {
    let dir = TempDir::new("two");
    let a = store(&dir, "host-a:1");
    let b = store(&dir, "host-b:2");

    assert_eq!(
        load(&a, "s1", LoadPurpose::Write),
        SessionLoadOutcome::Missing
    );
    assert_eq!(
        fs::read(dir.join("s1.writer")).expect("a marker"),
        b"host-a:1\n"
    );

    for purpose in [LoadPurpose::Resume, LoadPurpose::Write] {
        assert_eq!(held_by(block_on(b.load("s1", purpose))), writer("host-a:1"));
    }
    assert_eq!(save(&b, &record("s1")), HAS_WRITER);
    let handed = block_on(b.save(&record("s1"), SavePurpose::HandOff, ContentProvenance::Fork));
    assert_eq!(handed.expect("answers"), HAS_WRITER);
    assert!(matches!(
        block_on(b.delete("s1")),
        Err(RecordStoreError::HasWriter(OtherWriter::Marked(_)))
    ));
    assert!(
        !dir.join("s1.json").exists(),
        "nothing was written by the refused writer"
    );

    assert_eq!(save(&a, &record("s1")), SaveOutcome::Saved);
    // A probe claims nothing and reads what the writer wrote.
    assert_eq!(
        load(&b, "s1", LoadPurpose::Probe),
        SessionLoadOutcome::valid(record("s1"))
    );
    assert_eq!(
        block_on(b.writer_of(&rid("s1"))).expect("answers"),
        RecordWriter::Other(OtherWriter::Marked(writer("host-a:1")))
    );
    assert_eq!(
        block_on(a.writer_of(&rid("s1"))).expect("answers"),
        RecordWriter::ThisStore
    );

    // Released, the record is the other store's to claim, and then the first is refused.
    block_on(a.release(&rid("s1"))).expect("releases");
    assert!(!dir.join("s1.writer").exists());
    assert_eq!(
        load(&b, "s1", LoadPurpose::Write),
        SessionLoadOutcome::valid(record("s1"))
    );
    assert_eq!(save(&a, &renamed("s1", "stale")), HAS_WRITER);
    assert_eq!(save(&b, &renamed("s1", "b's")), SaveOutcome::Saved);
    assert_eq!(
        load(&a, "s1", LoadPurpose::Probe),
        SessionLoadOutcome::valid(renamed("s1", "b's"))
    );
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn a_lend_moves_the_marker_to_the_other_process() {
    let dir = TempDir::new("lend");
    let a = store(&dir, "a");
    let b = store(&dir, "b");
    assert_eq!(save(&a, &record("s1")), SaveOutcome::Saved);
    block_on(a.lend(&rid("s1"), &writer("b"))).expect("lends");
    assert_eq!(fs::read(dir.join("s1.writer")).expect("a marker"), b"b\n");
    assert!(
        temporaries(dir.path()).is_empty(),
        "the transfer left no temporary file"
    );
    assert_eq!(
        load(&b, "s1", LoadPurpose::Resume),
        SessionLoadOutcome::valid(record("s1"))
    );
    assert_eq!(save(&a, &record("s1")), HAS_WRITER);
    block_on(b.release(&rid("s1"))).expect("releases");
    assert_eq!(block_on(a.reclaim(&rid("s1"))), Ok(true));
    assert_eq!(fs::read(dir.join("s1.writer")).expect("a marker"), b"a\n");
}

#[test]
fn a_dead_writers_marker_blocks_until_it_is_recovered() {
    let dir = TempDir::new("dead");
    let a = store(&dir, "pid-41");
    assert_eq!(save(&a, &record("s1")), SaveOutcome::Saved);
    std::mem::forget(a); // The process dies: no destructor runs, nothing is released.

    let b = store(&dir, "pid-42");
    assert_eq!(
        held_by(block_on(b.load("s1", LoadPurpose::Resume))),
        writer("pid-41")
    );
    assert_eq!(save(&b, &renamed("s1", "b")), HAS_WRITER);

    // Only the dead writer's own id removes its marker.
    assert_eq!(
        block_on(b.recover_writer(&rid("s1"), &writer("pid-40"))),
        Ok(false)
    );
    assert_eq!(
        held_by(block_on(b.load("s1", LoadPurpose::Write))),
        writer("pid-41")
    );
    assert_eq!(
        block_on(b.recover_writer(&rid("s1"), &writer("pid-41"))),
        Ok(true)
    );
    assert_eq!(
        load(&b, "s1", LoadPurpose::Resume),
        SessionLoadOutcome::valid(record("s1"))
    );
    assert_eq!(
        fs::read(dir.join("s1.writer")).expect("a marker"),
        b"pid-42\n"
    );
    assert_eq!(
        block_on(b.recover_writer(&rid("s1"), &writer("pid-41"))),
        Ok(false)
    );
}

#[test]
fn a_marker_cut_short_is_held_by_no_one_until_recovered_by_the_reserved_id() {
    let dir = TempDir::new("cut");
    let b = store(&dir, "b");
    // A writer died between creating its marker and writing it.
    fs::write(dir.join("s1.writer"), b"").expect("plants");
    assert_eq!(
        held_by(block_on(b.load("s1", LoadPurpose::Write))),
        unreadable()
    );
    assert_eq!(save(&b, &record("s1")), HAS_WRITER);
    assert_eq!(
        block_on(b.writer_of(&rid("s1"))).expect("answers"),
        RecordWriter::Other(OtherWriter::Marked(unreadable()))
    );
    assert_eq!(
        block_on(b.recover_writer(&rid("s1"), &writer("b"))),
        Ok(false)
    );
    assert!(dir.join("s1.writer").exists());
    assert_eq!(
        block_on(b.recover_writer(&rid("s1"), &unreadable())),
        Ok(true)
    );
    assert_eq!(save(&b, &record("s1")), SaveOutcome::Saved);
}

// ---- the medium's own obligations --------------------------------------------------------

#[test]
fn markers_are_created_once_and_removed_or_moved_only_by_their_writer() {
    let dir = TempDir::new("markers");
    let medium = FileMedium::open(dir.path()).expect("opens");
    let (a, b, c) = (writer("a"), writer("b"), writer("c"));
    block_on(async {
        assert_eq!(medium.writer(&rid("s1")).await.expect("reads"), None);
        assert_eq!(
            medium.mark_writer(&rid("s1"), &a).await.expect("marks"),
            WriterMark::Marked
        );
        assert_eq!(
            medium.mark_writer(&rid("s1"), &a).await.expect("marks"),
            WriterMark::Marked
        );
        assert_eq!(
            medium.mark_writer(&rid("s1"), &b).await.expect("marks"),
            WriterMark::HeldBy(a.clone())
        );
        assert_eq!(
            medium.writer(&rid("s1")).await.expect("reads"),
            Some(a.clone())
        );
        assert!(!medium.unmark_writer(&rid("s1"), &b).await.expect("answers"));
        assert!(
            !medium
                .transfer_writer(&rid("s1"), &b, &c)
                .await
                .expect("answers")
        );
        assert_eq!(fs::read(dir.join("s1.writer")).expect("a marker"), b"a\n");

        assert!(
            medium
                .transfer_writer(&rid("s1"), &a, &b)
                .await
                .expect("moves")
        );
        assert_eq!(fs::read(dir.join("s1.writer")).expect("a marker"), b"b\n");
        assert!(!medium.unmark_writer(&rid("s1"), &a).await.expect("answers"));
        assert!(medium.unmark_writer(&rid("s1"), &b).await.expect("removes"));
        assert_eq!(medium.writer(&rid("s1")).await.expect("reads"), None);
        assert!(!medium.unmark_writer(&rid("s1"), &b).await.expect("answers"));
        assert!(
            !medium
                .transfer_writer(&rid("s1"), &b, &c)
                .await
                .expect("answers")
        );
        assert!(
            !dir.join("s1.writer").exists(),
            "a failed transfer creates nothing"
        );
        // A marker is not a record.
        assert_eq!(
            medium.mark_writer(&rid("s2"), &a).await.expect("marks"),
            WriterMark::Marked
        );
        assert_eq!(medium.ids().await.expect("lists"), Vec::<RecordId>::new());
        assert_eq!(medium.read(&rid("s2")).await.expect("reads"), None);
    });
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn every_unreadable_marker_is_held_by_the_reserved_id() {
    let dir = TempDir::new("unreadable");
    let medium = FileMedium::open(dir.path()).expect("opens");
    let a = writer("a");
    let long = format!("{}\n", "x".repeat(WriterId::MAX_LEN + 1));
    let cases: [(&str, &[u8]); 7] = [
        ("empty", b""),
        ("no newline", b"a"),
        ("only a newline", b"\n"),
        ("not UTF-8", b"\xff\xfe\n"),
        ("a control character", b"a\x01b\n"),
        ("two lines", b"a\nb\n"),
        ("too long", long.as_bytes()),
    ];
    for (what, bytes) in cases {
        fs::write(dir.join("s1.writer"), bytes).expect("plants");
        block_on(async {
            assert_eq!(
                medium.writer(&rid("s1")).await.expect("reads"),
                Some(unreadable()),
                "{what}"
            );
            assert_eq!(
                medium.mark_writer(&rid("s1"), &a).await.expect("answers"),
                WriterMark::HeldBy(unreadable()),
                "{what}"
            );
            assert!(
                !medium.unmark_writer(&rid("s1"), &a).await.expect("answers"),
                "{what}"
            );
            assert!(
                !medium
                    .transfer_writer(&rid("s1"), &a, &writer("b"))
                    .await
                    .expect("answers")
            );
            assert_eq!(
                fs::read(dir.join("s1.writer")).expect("kept"),
                bytes,
                "{what}"
            );
            assert!(
                medium
                    .unmark_writer(&rid("s1"), &unreadable())
                    .await
                    .expect("removes"),
                "{what}"
            );
        });
        assert!(!dir.join("s1.writer").exists(), "{what}");
    }
}

#[test]
fn the_reserved_id_never_marks() {
    let dir = TempDir::new("reserved");
    let medium = FileMedium::open(dir.path()).expect("opens");
    block_on(async {
        let marked = medium.mark_writer(&rid("s1"), &unreadable()).await;
        assert!(
            matches!(marked, Err(FileMediumError::ReservedWriter)),
            "{marked:?}"
        );
        medium
            .mark_writer(&rid("s1"), &writer("a"))
            .await
            .expect("marks");
        let moved = medium
            .transfer_writer(&rid("s1"), &writer("a"), &unreadable())
            .await;
        assert!(
            matches!(moved, Err(FileMediumError::ReservedWriter)),
            "{moved:?}"
        );
    });
    assert_eq!(fs::read(dir.join("s1.writer")).expect("kept"), b"a\n");
    let message = FileMediumError::ReservedWriter.to_string();
    assert!(message.contains(FileMedium::UNREADABLE_MARKER), "{message}");
}

#[test]
fn writes_are_whole_and_leave_no_temporary_file() {
    let dir = TempDir::new("writes");
    let medium = FileMedium::open(dir.path()).expect("opens");
    block_on(async {
        assert_eq!(medium.read(&rid("s1")).await.expect("reads"), None);
        medium.write(&rid("s1"), b"one").await.expect("writes");
        medium
            .write(&rid("s1"), b"two, longer")
            .await
            .expect("writes");
        assert_eq!(
            medium.read(&rid("s1")).await.expect("reads"),
            Some(b"two, longer".to_vec())
        );
        medium.write(&rid("s1"), b"3").await.expect("writes");
        assert_eq!(
            medium.read(&rid("s1")).await.expect("reads"),
            Some(b"3".to_vec())
        );
        medium.remove(&rid("s1")).await.expect("removes");
        medium
            .remove(&rid("s1"))
            .await
            .expect("removing nothing is no error");
        assert_eq!(medium.read(&rid("s1")).await.expect("reads"), None);
        for id in ["b", "B", "a", "_x", "0", "a.b", "a-c"] {
            medium.write(&rid(id), id.as_bytes()).await.expect("writes");
        }
        assert_eq!(
            medium.ids().await.expect("lists"),
            ["0", "B", "_x", "a", "a-c", "a.b", "b"].map(rid)
        );
    });
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn strays_markers_and_foreign_files_are_never_listed_and_only_temporaries_are_swept() {
    let dir = TempDir::new("strays");
    let a = store(&dir, "a");
    assert_eq!(save(&a, &record("s1")), SaveOutcome::Saved);
    block_on(a.release(&rid("s1"))).expect("releases");
    // What a crash mid-write, a crash mid-transfer, a marker without record and a host leave.
    fs::write(dir.join(".s1.9.record.tmp"), b"{\"schemaVersion\":1,\"rec").expect("plants");
    fs::write(dir.join(".s2.3.writer.tmp"), b"b\n").expect("plants");
    fs::write(dir.join("s3.writer"), b"b\n").expect("plants");
    fs::write(dir.join("notes.txt"), b"the host's").expect("plants");
    fs::write(dir.join(".hidden.json"), b"{}").expect("plants");
    fs::write(dir.join("bad id.json"), b"{}").expect("plants");
    fs::write(dir.join("a..b.json"), b"{}").expect("plants");
    // A name no record id can be (one byte too long): skipped, not listed, no panic.
    let long = "l".repeat(RecordId::MAX_LEN + 1);
    fs::write(dir.path().join(format!("{long}.json")), b"{}").expect("plants");
    fs::create_dir(dir.join("d.json")).expect("plants");
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"\xff.json");
        fs::write(dir.path().join(name), b"{}").expect("plants");
    }

    let medium = FileMedium::open(dir.path()).expect("opens");
    assert_eq!(block_on(medium.ids()).expect("lists"), vec![rid("s1")]);
    let listing = block_on(a.list()).expect("lists");
    assert_eq!(listing.entries.len(), 1, "{listing:?}");
    assert_eq!(listing.entries[0].id, "s1");
    assert_eq!(
        listing.entries[0].outcome,
        SessionLoadOutcome::valid(record("s1"))
    );
    assert_eq!(listing.left_out(), 0);

    let before = names_in(dir.path());
    assert_eq!(medium.sweep_temporaries().expect("sweeps"), 2);
    let after = names_in(dir.path());
    let swept: BTreeSet<_> = before.difference(&after).cloned().collect();
    assert_eq!(
        swept,
        [".s1.9.record.tmp", ".s2.3.writer.tmp"]
            .map(String::from)
            .into()
    );
    assert_eq!(medium.sweep_temporaries().expect("sweeps"), 0);
    assert_eq!(
        load(&a, "s1", LoadPurpose::Probe),
        SessionLoadOutcome::valid(record("s1"))
    );
    assert_eq!(fs::read(dir.join("s3.writer")).expect("kept"), b"b\n");
}

#[test]
fn an_id_that_could_leave_the_directory_never_becomes_a_path() {
    let parent = TempDir::new("escape");
    let inside = parent.join("store");
    let medium = FileMedium::open(&inside).expect("opens and creates the directory");
    let store = FileRecordStore::new(medium, Unsealed, writer("a"));
    let ids = [
        "../escape",
        "..",
        ".",
        "",
        "a/b",
        "/abs",
        "a\\b",
        "..\\x",
        "a..b",
        "c:x",
        "a\0b",
        ".hidden",
        "sp ace",
        "\u{e9}",
    ];
    for id in ids {
        // The medium takes only a `RecordId`, and no such text becomes one; the store's port
        // refuses it with the same typed error, before the medium is asked.
        let error = RecordId::new(id).expect_err(id);
        let invalid = RecordStoreError::InvalidId(error);
        for purpose in [LoadPurpose::Probe, LoadPurpose::Resume] {
            let loaded = block_on(store.load(id, purpose));
            assert_eq!(loaded, Err(invalid.clone()), "{id:?}");
        }
        assert_eq!(block_on(store.delete(id)), Err(invalid.clone()), "{id:?}");
        let saved = block_on(store.save(&record(id), SavePurpose::Run, ContentProvenance::Session));
        assert_eq!(saved, Err(invalid), "{id:?}");
    }
    assert_eq!(names_in(parent.path()), [s("store")].into());
    assert!(names_in(&inside).is_empty());
}

// ---- corrupt and unsupported files -------------------------------------------------------

fn envelope(id: &str) -> Vec<u8> {
    encode_session_record(&record(id)).expect("encodes")
}

#[test]
fn corrupt_and_unsupported_files_are_reported_and_left_byte_for_byte() {
    let dir = TempDir::new("corrupt");
    let full = envelope("s1");
    let cut = full.len() - 8;
    let future = String::from_utf8(envelope("s4"))
        .expect("JSON is UTF-8")
        .replace("\"schemaVersion\":1", "\"schemaVersion\":99");
    assert!(future.contains("99"), "{future}");
    let cases: [(&str, Vec<u8>, SessionLoadStatus, Option<&str>); 4] = [
        (
            "s1",
            full[..cut].to_vec(),
            SessionLoadStatus::Corrupt,
            Some(CWD),
        ),
        (
            "s2",
            b"\x00\xffnot json at all".to_vec(),
            SessionLoadStatus::Corrupt,
            None,
        ),
        (
            "s3",
            envelope("other"),
            SessionLoadStatus::Corrupt,
            Some(CWD),
        ),
        (
            "s4",
            future.into_bytes(),
            SessionLoadStatus::Unsupported,
            Some(CWD),
        ),
    ];
    for (id, bytes, _, _) in &cases {
        fs::write(dir.join(&format!("{id}.json")), bytes).expect("plants");
    }
    let a = store(&dir, "a");
    let b = store(&dir, "b");
    for (id, bytes, status, cwd) in &cases {
        let path = dir.join(&format!("{id}.json"));
        for purpose in [LoadPurpose::Probe, LoadPurpose::Resume, LoadPurpose::Write] {
            let outcome = load(&a, id, purpose);
            assert_eq!(outcome.status(), *status, "{id} {purpose}: {outcome:?}");
            assert_eq!(outcome.cwd(), *cwd, "{id} {purpose}: {outcome:?}");
            if *status == SessionLoadStatus::Unsupported {
                assert!(
                    matches!(
                        outcome,
                        SessionLoadOutcome::Unsupported {
                            schema_version: Some(99),
                            ..
                        }
                    ),
                    "{outcome:?}"
                );
            } else {
                assert!(!outcome.issues().is_empty(), "{id}: {outcome:?}");
            }
            // Nothing runs from it, so no claim (no marker) is left behind.
            assert!(
                !dir.join(&format!("{id}.writer")).exists(),
                "{id} {purpose}"
            );
        }
        // Another writer's run save is refused, and so is a hand-off; the bytes stay.
        assert_eq!(save(&b, &renamed(id, "over it")), UNREADABLE, "{id}");
        let handed = block_on(b.save(&record(id), SavePurpose::HandOff, ContentProvenance::Fork));
        assert_eq!(handed.expect("answers"), UNREADABLE, "{id}");
        assert_eq!(&fs::read(&path).expect("kept"), bytes, "{id}");
        assert!(
            !dir.join(&format!("{id}.writer")).exists(),
            "{id}: no marker left"
        );
    }
    // The listing keeps them, with their outcome.
    let listing = block_on(b.list()).expect("lists");
    let statuses: Vec<_> = listing
        .entries
        .iter()
        .map(|e| (e.id.as_str(), e.outcome.status()))
        .collect();
    assert_eq!(
        statuses,
        cases
            .iter()
            .map(|(id, _, status, _)| (*id, *status))
            .collect::<Vec<_>>()
    );
    for (id, bytes, _, _) in &cases {
        assert_eq!(
            &fs::read(dir.join(&format!("{id}.json"))).expect("kept"),
            bytes,
            "{id}"
        );
    }
    // Only an explicit delete removes one.
    block_on(b.delete("s2")).expect("deletes");
    assert!(!dir.join("s2.json").exists());
    assert!(temporaries(dir.path()).is_empty());
}

// ---- persistence and failures ------------------------------------------------------------

#[test]
fn a_record_outlives_its_store_and_its_medium() {
    let dir = TempDir::new("persist");
    {
        let a = store(&dir, "first");
        assert_eq!(
            load(&a, "s1", LoadPurpose::Resume),
            SessionLoadOutcome::Missing
        );
        assert_eq!(save(&a, &record("s1")), SaveOutcome::Saved);
        assert_eq!(save(&a, &renamed("s1", "second save")), SaveOutcome::Saved);
        block_on(a.release(&rid("s1"))).expect("releases");
    }
    let b = store(&dir, "second");
    assert_eq!(
        load(&b, "s1", LoadPurpose::Resume),
        SessionLoadOutcome::valid(renamed("s1", "second save"))
    );
    let listing = block_on(b.list()).expect("lists");
    assert_eq!(listing.entries.len(), 1);
    assert_eq!(
        fs::read(dir.join("s1.json")).expect("stored"),
        envelope_of(&renamed("s1", "second save"))
    );
}

fn envelope_of(record: &InteractiveSessionRecord) -> Vec<u8> {
    encode_session_record(record).expect("encodes")
}

#[test]
fn open_creates_a_missing_directory_and_refuses_a_file() {
    let parent = TempDir::new("open");
    let nested = parent.join("a").join("b");
    let medium = FileMedium::open(&nested).expect("creates it");
    assert!(nested.is_dir());
    assert_eq!(medium.directory(), nested.as_path());

    let file = parent.join("plain");
    fs::write(&file, b"x").expect("plants");
    match FileMedium::open(&file) {
        Err(FileMediumError::NotADirectory { path }) => assert_eq!(path, file),
        other => panic!("expected not-a-directory, got {other:?}"),
    }
    let below = file.join("below");
    let error = FileMedium::open(&below).expect_err("a file is in the way");
    assert!(
        matches!(
            error,
            FileMediumError::NotADirectory { .. }
                | FileMediumError::Io {
                    operation: FileOperation::OpenDirectory,
                    ..
                }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("plain"), "{error}");
}

#[test]
fn io_failures_are_typed_errors_and_leave_no_temporary_file() {
    let dir = TempDir::new("io");
    let medium = FileMedium::open(dir.path()).expect("opens");
    fs::create_dir(dir.join("x.json")).expect("a directory where a record would be");
    fs::create_dir(dir.join("y.writer")).expect("a directory where a marker would be");
    block_on(async {
        let read = medium
            .read(&rid("x"))
            .await
            .expect_err("a directory is no record");
        assert_eq!(read.operation(), Some(FileOperation::ReadRecord), "{read}");
        assert!(read.kind().is_some());
        assert!(read.to_string().contains("read the record"), "{read}");
        assert!(read.to_string().contains("x.json"), "{read}");
        assert!(read.code().is_some(), "{read:?}");

        let write = medium
            .write(&rid("x"), b"{}")
            .await
            .expect_err("cannot replace a directory");
        assert_eq!(
            write.operation(),
            Some(FileOperation::ReplaceRecord),
            "{write}"
        );
        let remove = medium
            .remove(&rid("x"))
            .await
            .expect_err("cannot remove a directory as a file");
        assert_eq!(
            remove.operation(),
            Some(FileOperation::RemoveRecord),
            "{remove}"
        );

        let marker = medium
            .writer(&rid("y"))
            .await
            .expect_err("a directory is no marker");
        assert_eq!(
            marker.operation(),
            Some(FileOperation::ReadMarker),
            "{marker}"
        );
        let mark = medium
            .mark_writer(&rid("y"), &writer("a"))
            .await
            .expect_err("no marker");
        assert_eq!(mark.operation(), Some(FileOperation::ReadMarker), "{mark}");
    });
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        names_in(dir.path())
    );
    // The store passes them on as medium failures, never as a load outcome.
    let store = FileRecordStore::new(medium, Unsealed, writer("a"));
    assert!(matches!(
        block_on(store.load("x", LoadPurpose::Probe)),
        Err(RecordStoreError::Medium(FileMediumError::Io { .. }))
    ));
    assert!(matches!(
        block_on(store.load("y", LoadPurpose::Write)),
        Err(RecordStoreError::Medium(FileMediumError::Io { .. }))
    ));
    assert_eq!(FileMediumError::ReservedWriter.kind(), None);
}

// ---- interleaved writers (seeded) --------------------------------------------------------

/// Three stores over one directory take random turns (claiming loads, probes, run and hand-off
/// saves, releases, deletes, a crash that leaves markers behind and the recovery of the dead
/// writer). After every step: no two stores hold one id, every store sees one content per id,
/// and that content is the last save that was not refused (nothing lost, nothing torn).
#[test]
fn interleaved_writers_never_share_a_record_and_never_lose_a_save() {
    const IDS: [&str; 3] = ["s1", "s2", "s3"];
    for seed in 0..24_u64 {
        let dir = TempDir::new("seeded");
        let mut rng = Seeded::new(0x5eed_f11e ^ seed);
        let mut generation = [0_u32; 3];
        let mut stores: Vec<FileRecordStore> =
            (0..3).map(|i| store(&dir, &format!("w{i}-0"))).collect();
        let mut dead: Vec<WriterId> = Vec::new();
        let mut expected: [Option<InteractiveSessionRecord>; 3] = [None, None, None];
        for step in 0..80_u32 {
            let who = rng.below(3) as usize;
            let slot = rng.below(3) as usize;
            let id = IDS[slot];
            let this = &stores[who];
            let context = format!("seed {seed} step {step} store {who} id {id}");
            match rng.below(8) {
                0 | 1 => {
                    let purpose = *rng.pick(&[LoadPurpose::Resume, LoadPurpose::Write]);
                    match block_on(this.load(id, purpose)) {
                        Ok(outcome) => {
                            assert_eq!(outcome.record(), expected[slot].as_ref(), "{context}")
                        }
                        Err(RecordStoreError::HasWriter(_)) => {}
                        Err(error) => panic!("{context}: {error}"),
                    }
                }
                2 | 3 => {
                    let before = block_on(this.writer_of(&rid(id))).expect(&context);
                    let next = renamed(id, &format!("{who}@{step}"));
                    let purpose =
                        *rng.pick(&[SavePurpose::Run, SavePurpose::Run, SavePurpose::HandOff]);
                    let saved = block_on(this.save(&next, purpose, ContentProvenance::Session))
                        .expect(&context);
                    match saved {
                        SaveOutcome::Saved => {
                            assert!(
                                matches!(before, RecordWriter::Nobody | RecordWriter::ThisStore)
                                    || (before
                                        == RecordWriter::Other(OtherWriter::Lent { to: None })
                                        && purpose == SavePurpose::HandOff),
                                "{context}: saved over {before:?}"
                            );
                            expected[slot] = Some(next);
                        }
                        SaveOutcome::Refused { reason } => assert_eq!(
                            reason,
                            SaveRefusal::HasWriter,
                            "{context}: only valid records are stored"
                        ),
                    }
                }
                4 => block_on(this.release(&rid(id))).expect(&context),
                5 => match block_on(this.delete(id)) {
                    Ok(()) => expected[slot] = None,
                    Err(RecordStoreError::HasWriter(_)) => {}
                    Err(error) => panic!("{context}: {error}"),
                },
                6 => {
                    // The process dies; its markers stay; a new process takes its place.
                    dead.push(stores[who].writer_id().clone());
                    generation[who] += 1;
                    stores[who] = store(&dir, &format!("w{who}-{}", generation[who]));
                }
                _ => {
                    if let Some(gone) = dead.last() {
                        block_on(this.recover_writer(&rid(id), gone)).expect(&context);
                    }
                }
            }
            for (slot, id) in IDS.iter().enumerate() {
                let holders = stores
                    .iter()
                    .filter(|store| {
                        block_on(store.writer_of(&rid(id))).expect("answers")
                            == RecordWriter::ThisStore
                    })
                    .count();
                assert!(
                    holders <= 1,
                    "seed {seed} step {step}: {holders} stores hold {id}"
                );
                for store in &stores {
                    let outcome = load(store, id, LoadPurpose::Probe);
                    assert_eq!(
                        outcome.record(),
                        expected[slot].as_ref(),
                        "seed {seed} step {step}: {id} reads {outcome:?}"
                    );
                }
            }
            assert!(
                temporaries(dir.path()).is_empty(),
                "seed {seed} step {step}"
            );
        }
    }
}

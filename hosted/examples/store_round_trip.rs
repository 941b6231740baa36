//! A std host keeps its sessions in a directory: save, a second process refused while the first
//! writes, release, resume, and a damaged record reported `corrupt` and never written over.
//!
//! Run, in `hosted/`: `cargo run --example store_round_trip --features record-store-fs`.
//!
//! The store's methods are `async fn`s over blocking `std::fs` calls: each future is ready on its
//! first poll, so any `block_on` drives them (here `futures_executor`'s); on tokio, call them from
//! `spawn_blocking` or a `block_in_place` section, as any blocking file I/O.

use std::path::Path;

// A store host's imports name one module: the store, its medium and the session port's vocabulary.
use agent_interface::runtime::record_store::{
    ContentProvenance, FileMedium, FileRecordStore, InteractiveSessionRecord,
    InteractiveSessionStore, LoadPurpose, RecordId, SaveOutcome, SavePurpose, SaveRefusal,
    SessionLoadOutcome, Unsealed, WriterId,
};
use futures_executor::block_on;

fn main() {
    let dir = std::env::temp_dir().join(format!("agent-interface-store-{}", std::process::id()));
    round_trip(&dir);
    std::fs::remove_dir_all(&dir).expect("removes the example's directory");
}

fn round_trip(dir: &Path) {
    // A writer id names something the host can check after a crash (here: this process), so a
    // later run can tell a dead writer's marker and recover it (`recover_writer`).
    let writer = |name: &str| {
        WriterId::new(format!("{name}:{}", std::process::id())).expect("short, no control chars")
    };
    let open = || FileMedium::open(dir).expect("the directory opens (created when missing)");
    let first = FileRecordStore::new(open(), Unsealed, writer("first"));
    // The store's own members take a `RecordId`, checked once where it is made: an id that could
    // leave the directory never becomes one.
    let id = RecordId::new("demo-1").expect("a valid record id");
    assert!(RecordId::new("../demo-1").is_err());
    let record = InteractiveSessionRecord::new(
        "demo-1",
        "/work/demo",
        "2026-01-01T00:00:00.000Z",
        "2026-01-01T00:00:00.000Z",
    );

    // The resume read claims the id (a marker beside the record), then the session saves.
    let fresh = block_on(first.load("demo-1", LoadPurpose::Resume)).expect("the disk answers");
    assert_eq!(fresh, SessionLoadOutcome::Missing);
    let saved = block_on(first.save(&record, SavePurpose::Run, ContentProvenance::Session));
    assert_eq!(saved.expect("the disk answers"), SaveOutcome::Saved);
    println!("saved {} in {}", record.id, dir.display());

    // Another process over the same directory never opens a second writer...
    let second = FileRecordStore::new(open(), Unsealed, writer("second"));
    let refused = block_on(second.load("demo-1", LoadPurpose::Resume));
    println!(
        "while the first store holds it: {}",
        refused.expect_err("has a writer")
    );
    // ...until the first lets go; then it resumes what the first wrote.
    block_on(first.release(&id)).expect("the disk answers");
    let resumed = block_on(second.load("demo-1", LoadPurpose::Resume)).expect("the disk answers");
    assert_eq!(resumed.record(), Some(&record));
    println!("resumed {} in {}", record.id, resumed.cwd().unwrap_or("?"));

    // A record cut short (a copy that broke, a disk that filled): reported corrupt, with the
    // workspace read best-effort, and never written over by a writer.
    let damaged = dir.join("demo-2.json");
    let bytes = br#"{"schemaVersion":1,"record":{"id":"demo-2","cwd":"/work/other","crea"#;
    std::fs::write(&damaged, bytes).expect("plants a damaged record");
    let outcome = block_on(second.load("demo-2", LoadPurpose::Probe)).expect("the disk answers");
    println!(
        "demo-2 is {} (workspace {:?}): {:?}",
        outcome.status(),
        outcome.cwd(),
        outcome.issues()
    );
    assert!(!outcome.permits_overwrite() && !outcome.permits_recovery());
    let mut over = record.clone();
    over.id = "demo-2".into();
    let refused = block_on(second.save(&over, SavePurpose::Run, ContentProvenance::Session));
    let unreadable = SaveOutcome::Refused {
        reason: SaveRefusal::Unreadable,
    };
    assert_eq!(refused.expect("the disk answers"), unreadable);
    assert_eq!(std::fs::read(&damaged).expect("still there"), bytes);
    println!("demo-2's bytes are unchanged");
    block_on(second.release(&id)).expect("the disk answers");
}

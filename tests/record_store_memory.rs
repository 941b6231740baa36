//! What a record store keeps in memory for a session it holds: a counting global allocator
//! measures the heap a claiming load and a run save leave allocated. A store whose seal does
//! not digest keeps the SHA-256 of the bytes it last read or wrote (32 bytes), never the bytes:
//! the session's holder has the record already, so the store adds no second copy of it.
//!
//! Host only: the counting allocator is a host global allocator.
#![cfg(not(any(target_family = "wasm", target_os = "none")))]

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use agent_interface::agent_core::UniversalMessage;
use agent_interface::runtime::record_codec::encode_session_record;
use agent_interface::runtime::record_store::{
    MemoryMedium, RecordId, RecordMedium, RecordStore, Unsealed, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SessionLoadOutcome,
};

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use counting_allocator::kept_by;

/// The heap a store may keep for its first held session, whatever the record's size: the
/// first node of its claim table and of the medium's marker table (room for eleven entries
/// each), the id and the fingerprint.
const FIRST_SESSION: isize = 4_096;

/// The record sizes measured: what a store keeps must not grow with them.
const SIZES: [usize; 2] = [1_024, 64 * 1_024];

/// A record of about `bytes` bytes of JSON: one user message that long.
fn record(id: &str, bytes: usize) -> InteractiveSessionRecord {
    let mut record = InteractiveSessionRecord::new(
        id,
        "/work/host",
        "2025-02-01T00:00:00.000Z",
        "2025-02-01T00:00:01.000Z",
    );
    record.messages.push(UniversalMessage::user(
        "m1",
        "2025-02-01T00:00:00.500Z",
        "x".repeat(bytes),
    ));
    record
}

/// Runs a memory store call (it never waits).
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("a memory store call waited"),
    }
}

fn writer(name: &str) -> WriterId {
    WriterId::new(name).expect("a valid writer id")
}

/// What a claiming load of a record of about `bytes` bytes leaves held.
fn kept_by_a_load(bytes: usize) -> isize {
    let medium = MemoryMedium::new();
    let id = RecordId::new("s1").expect("a valid id");
    let stored = encode_session_record(&record("s1", bytes)).expect("encodes");
    ready(medium.write(&id, &stored)).expect("the memory medium cannot fail");
    let store = RecordStore::new(&medium, Unsealed, writer("a"));
    let kept = kept_by(|| {
        let outcome = ready(store.load("s1", LoadPurpose::Resume)).expect("loads");
        assert!(matches!(outcome, SessionLoadOutcome::Valid { .. }));
    });
    // The claim is held: a save recognises the bytes it read.
    let saved = ready(store.save(
        &record("s1", bytes),
        SavePurpose::Run,
        ContentProvenance::Session,
    ));
    assert_eq!(saved, Ok(SaveOutcome::Saved));
    kept
}

/// What a first and a second run save of a record of about `bytes` bytes leave held, beyond the
/// memory medium's own copy of the bytes written (it is the store's disk).
fn kept_by_saves(bytes: usize) -> (isize, isize) {
    let medium = MemoryMedium::new();
    let store = RecordStore::new(&medium, Unsealed, writer("a"));
    let session = record("s1", bytes);
    let written = encode_session_record(&session).expect("encodes").len();
    let save = || {
        let saved = ready(store.save(&session, SavePurpose::Run, ContentProvenance::Session));
        assert_eq!(saved, Ok(SaveOutcome::Saved));
    };
    let first = kept_by(save) - written.cast_signed();
    (first, kept_by(save))
}

#[test]
fn a_claiming_load_keeps_no_copy_of_the_record_it_read() {
    let kept = SIZES.map(kept_by_a_load);
    assert!(
        (0..=FIRST_SESSION).contains(&kept[0]),
        "a load left {} bytes held (at most {FIRST_SESSION})",
        kept[0]
    );
    assert_eq!(
        kept[0], kept[1],
        "what a load leaves held grows with the record ({SIZES:?} bytes: {kept:?})"
    );
}

#[test]
fn a_run_save_keeps_no_copy_of_the_bytes_it_wrote() {
    let kept = SIZES.map(kept_by_saves);
    assert!(
        (0..=FIRST_SESSION).contains(&kept[0].0),
        "a first save left {} bytes held beyond the medium's copy (at most {FIRST_SESSION})",
        kept[0].0
    );
    assert_eq!(
        kept[0], kept[1],
        "what a save leaves held grows with the record ({SIZES:?} bytes: {kept:?})"
    );
    // Saved again over the same claim, nothing more is held.
    assert_eq!(kept[0].1, 0, "a second save changed the heap");
}

//! The record store's claims, lends and writer markers (`runtime::record_store`): two store
//! instances (two processes) over one in-memory medium, driven by arbitrary operation sequences
//! and checked against a model of what the medium holds.
//!
//! Operations: saves (run and hand-off), loads (probe, resume, write), deletes, lends to a third
//! writer, reclaims, releases, recovering the third writer's marker (the host's call that it is
//! dead: never a live store's), and planting raw bytes (garbage or another record).
//!
//! Properties:
//! - nothing panics; an invalid id is refused before anything else;
//! - at most one writer: never both stores at once, and a store that says it writes an id has
//!   its marker beside it;
//! - an id another writer holds (its marker, or this store's own lend) refuses this store's run
//!   saves, claiming loads and deletes;
//! - a saved record loads back equal (from either store), refused saves and deletes change no
//!   byte, a successful delete leaves the id missing, and every probe answers what the codec
//!   answers for the bytes the model says are stored.
#![no_main]

use std::collections::BTreeMap;

use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::runtime::record_store::{
    MemoryMedium, MemoryRecordStore, RecordMedium, RecordStore, RecordStoreError, RecordWriter,
    Unsealed, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SaveRefusal, SessionLoadOutcome,
};
use agent_interface_fuzz::{SmallId, block_on, record};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Which {
    A,
    B,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Save {
        store: Which,
        id: SmallId,
        hand_off: bool,
        messages: u8,
        salt: u8,
    },
    Load {
        store: Which,
        id: SmallId,
        purpose: u8,
    },
    Delete {
        store: Which,
        id: SmallId,
    },
    Lend {
        store: Which,
        id: SmallId,
    },
    Reclaim {
        store: Which,
        id: SmallId,
    },
    Release {
        store: Which,
        id: SmallId,
    },
    /// The host decides writer C (the lend target) is dead.
    RecoverC {
        store: Which,
        id: SmallId,
    },
    /// Writer C takes a free id and later gives it up (a fork job running).
    CMarks {
        id: SmallId,
        unmark: bool,
    },
    Plant {
        id: SmallId,
        garbage: Vec<u8>,
        as_record: Option<u8>,
    },
}

#[derive(Clone, Debug)]
enum Content {
    Record(Box<InteractiveSessionRecord>),
    Bytes(Vec<u8>),
}

fuzz_target!(|ops: Vec<Op>| {
    block_on(run(ops));
});

async fn run(ops: Vec<Op>) {
    let medium = MemoryMedium::new();
    let writer = |name: &str| WriterId::new(name).unwrap();
    let a: MemoryRecordStore<'_> = RecordStore::new(&medium, Unsealed, writer("writer-a"));
    let b: MemoryRecordStore<'_> = RecordStore::new(&medium, Unsealed, writer("writer-b"));
    let c = writer("writer-c");
    let mut stored: BTreeMap<&'static str, Content> = BTreeMap::new();

    for op in ops.into_iter().take(96) {
        let pick = |which: Which| match which {
            Which::A => &a,
            Which::B => &b,
        };
        match op {
            Op::Save {
                store,
                id,
                hand_off,
                messages,
                salt,
            } => {
                let store = pick(store);
                let saved = record(id.as_str(), messages % 4, salt);
                let purpose = if hand_off {
                    SavePurpose::HandOff
                } else {
                    SavePurpose::Run
                };
                let before = writer_of(store, id).await;
                let result = store
                    .save(&saved, purpose, ContentProvenance::Session)
                    .await;
                if !id.is_valid() {
                    assert!(matches!(result, Err(RecordStoreError::InvalidId(_))));
                    continue;
                }
                let outcome = result.expect("the memory medium cannot fail");
                if matches!(before, Some(RecordWriter::Other(_))) && purpose == SavePurpose::Run {
                    assert_eq!(
                        outcome,
                        SaveOutcome::Refused {
                            reason: SaveRefusal::HasWriter
                        },
                        "a run save went through another writer ({before:?})"
                    );
                }
                if outcome == SaveOutcome::Saved {
                    let unreadable = match stored.get(id.as_str()) {
                        Some(Content::Bytes(bytes)) => {
                            !SessionLoadOutcome::from(decode_session_record(bytes, id.as_str()))
                                .permits_overwrite()
                        }
                        _ => false,
                    };
                    assert!(!unreadable, "a save overwrote unreadable bytes");
                    stored.insert(id.as_str(), Content::Record(Box::new(saved)));
                    let after = writer_of(store, id).await;
                    match purpose {
                        SavePurpose::Run => assert_eq!(after, Some(RecordWriter::ThisStore)),
                        SavePurpose::HandOff => {
                            assert!(matches!(after, Some(RecordWriter::Other(_))))
                        }
                        other => panic!("a save purpose the model predates: {other}"),
                    }
                }
            }
            Op::Load { store, id, purpose } => {
                let store = pick(store);
                let purpose = LoadPurpose::ALL[usize::from(purpose) % LoadPurpose::ALL.len()];
                let before = writer_of(store, id).await;
                let result = store.load(id.as_str(), purpose).await;
                if !id.is_valid() {
                    assert!(matches!(result, Err(RecordStoreError::InvalidId(_))));
                    continue;
                }
                if purpose.claims() && matches!(before, Some(RecordWriter::Other(_))) {
                    assert!(
                        matches!(result, Err(RecordStoreError::HasWriter(_))),
                        "a claiming load went through another writer ({before:?}): {result:?}"
                    );
                    continue;
                }
                let outcome = result.expect("nobody else writes it");
                assert_eq!(
                    outcome,
                    expected(&stored, id),
                    "a load answers other than the model"
                );
                if purpose.claims() {
                    let after = writer_of(store, id).await;
                    if outcome.permits_overwrite() {
                        assert_eq!(
                            after,
                            Some(RecordWriter::ThisStore),
                            "a claiming load kept no claim"
                        );
                    }
                }
            }
            Op::Delete { store, id } => {
                let store = pick(store);
                let before = writer_of(store, id).await;
                let result = store.delete(id.as_str()).await;
                if !id.is_valid() {
                    assert!(matches!(result, Err(RecordStoreError::InvalidId(_))));
                    continue;
                }
                if matches!(before, Some(RecordWriter::Other(_))) {
                    assert!(
                        matches!(result, Err(RecordStoreError::HasWriter(_))),
                        "deleted under another writer"
                    );
                } else {
                    result.expect("a delete nobody else holds");
                    stored.remove(id.as_str());
                    assert_eq!(writer_of(store, id).await, Some(RecordWriter::Nobody));
                }
            }
            Op::Lend { store, id } => {
                if let Some(id) = id.record_id() {
                    let _ = pick(store).lend(&id, &c).await;
                }
            }
            Op::Reclaim { store, id } => {
                if let Some(id) = id.record_id() {
                    let _ = pick(store).reclaim(&id).await;
                }
            }
            Op::Release { store, id } => {
                if let Some(id) = id.record_id() {
                    let _ = pick(store).release(&id).await;
                }
            }
            Op::RecoverC { store, id } => {
                if let Some(id) = id.record_id() {
                    let _ = pick(store).recover_writer(&id, &c).await;
                }
            }
            Op::CMarks { id, unmark } => {
                let Some(id) = id.record_id() else {
                    continue;
                };
                if unmark {
                    medium.unmark_writer(&id, &c).await.unwrap();
                } else {
                    medium.mark_writer(&id, &c).await.unwrap();
                }
            }
            Op::Plant {
                id,
                garbage,
                as_record,
            } => {
                let Some(record_id) = id.record_id() else {
                    continue;
                };
                let bytes = match as_record {
                    Some(n) => {
                        let other =
                            [SmallId::A, SmallId::B, SmallId::C, SmallId::D][usize::from(n % 4)];
                        encode_session_record(&record(other.as_str(), n % 3, n)).unwrap()
                    }
                    None => garbage,
                };
                medium.write(&record_id, &bytes).await.unwrap();
                stored.insert(id.as_str(), Content::Bytes(bytes));
            }
        }
        check(&medium, &a, &b, &stored).await;
    }
}

async fn writer_of(store: &MemoryRecordStore<'_>, id: SmallId) -> Option<RecordWriter> {
    store.writer_of(&id.record_id()?).await.ok()
}

fn expected(stored: &BTreeMap<&'static str, Content>, id: SmallId) -> SessionLoadOutcome {
    match stored.get(id.as_str()) {
        None => SessionLoadOutcome::Missing,
        Some(Content::Record(record)) => SessionLoadOutcome::Valid {
            record: record.clone(),
            owner: None,
        },
        Some(Content::Bytes(bytes)) => {
            SessionLoadOutcome::from(decode_session_record(bytes, id.as_str()))
        }
    }
}

async fn check(
    medium: &MemoryMedium,
    a: &MemoryRecordStore<'_>,
    b: &MemoryRecordStore<'_>,
    stored: &BTreeMap<&'static str, Content>,
) {
    for id in [SmallId::A, SmallId::B, SmallId::C, SmallId::D] {
        let wa = writer_of(a, id).await.unwrap();
        let wb = writer_of(b, id).await.unwrap();
        assert!(
            !(wa == RecordWriter::ThisStore && wb == RecordWriter::ThisStore),
            "two writers of {}",
            id.as_str()
        );
        let marker = medium.writer(&id.record_id().unwrap()).await.unwrap();
        let marker = marker.as_ref().map(WriterId::as_str);
        if wa == RecordWriter::ThisStore {
            assert_eq!(
                marker,
                Some("writer-a"),
                "store a writes {} without its marker",
                id.as_str()
            );
        }
        if wb == RecordWriter::ThisStore {
            assert_eq!(
                marker,
                Some("writer-b"),
                "store b writes {} without its marker",
                id.as_str()
            );
        }
        for store in [a, b] {
            let probed = store.load(id.as_str(), LoadPurpose::Probe).await.unwrap();
            assert_eq!(
                probed,
                expected(stored, id),
                "a probe of {} answers other than the model",
                id.as_str()
            );
        }
    }
}

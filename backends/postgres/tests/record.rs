//! The record store over the PostgreSQL medium on a real server: the library's record store
//! conformance suite (every case), a row corrupted by hand, the medium's own contract (whole
//! writes, byte-ordered ids, markers), and a marker row no writer could have written.

mod support;

use agent_interface::conformance::EveryCase;
use agent_interface::runtime::record_store::testing::{
    RecordStoreCase, run_record_store_conformance,
};
use agent_interface::runtime::record_store::{
    OtherWriter, RecordId, RecordMedium, RecordStore, RecordStoreError, Unsealed, WriterMark,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SaveRefusal, SessionLoadOutcome, SessionLoadStatus,
};
use agent_interface_postgres::{Operation, PostgresError, PostgresMedium, RowProblem, SchemaName};
use support::{
    MediumFixture, SealedMediumFixture, admin, block_on, config, fresh_schema, rid, writer,
};

type PgStore = RecordStore<PostgresMedium, Unsealed>;

fn medium(schema: &SchemaName) -> PostgresMedium {
    PostgresMedium::connect(config(), schema.clone()).expect("the medium connects")
}

fn store(schema: &SchemaName, id: &str) -> PgStore {
    RecordStore::new(medium(schema), Unsealed, writer(id))
}

fn record(id: &str, name: &str) -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        id,
        "/work/pg",
        "2026-01-02T03:04:05.000Z",
        "2026-01-02T03:04:05.000Z",
    )
    .with_name(name)
}

fn save(store: &PgStore, record: &InteractiveSessionRecord) -> SaveOutcome {
    block_on(store.save(record, SavePurpose::Run, ContentProvenance::Session)).expect("saves")
}

fn load(store: &PgStore, id: &str, purpose: LoadPurpose) -> SessionLoadOutcome {
    block_on(store.load(id, purpose)).expect("loads")
}

/// The bytes of a record row, read past the store.
fn raw_bytes(schema: &SchemaName, id: &str) -> Option<Vec<u8>> {
    admin()
        .query_opt(
            &format!("SELECT bytes FROM \"{schema}\".session_records WHERE id = $1"),
            &[&id],
        )
        .expect("reads")
        .map(|row| row.get(0))
}

#[test]
fn every_case_of_the_record_store_suite_passes_against_postgres() {
    let mut every = EveryCase::new();
    let outcome = block_on(run_record_store_conformance(&mut MediumFixture, &mut every));
    assert_eq!(outcome, Ok(()));
    let ran: Vec<RecordStoreCase> = every.results.iter().map(|(case, _)| *case).collect();
    assert_eq!(ran, RecordStoreCase::ALL, "every case ran, in order");
    let failures: Vec<String> = every
        .failures()
        .map(|(_, failure)| failure.to_string())
        .collect();
    assert!(failures.is_empty(), "failed cases: {failures:#?}");
}

#[test]
fn every_case_of_the_record_store_suite_passes_sealed_against_postgres() {
    let mut every = EveryCase::new();
    let outcome = block_on(run_record_store_conformance(
        &mut SealedMediumFixture::default(),
        &mut every,
    ));
    assert_eq!(outcome, Ok(()));
    let ran: Vec<RecordStoreCase> = every.results.iter().map(|(case, _)| *case).collect();
    assert_eq!(ran, RecordStoreCase::ALL, "every case ran, in order");
    let failures: Vec<String> = every
        .failures()
        .map(|(_, failure)| failure.to_string())
        .collect();
    assert!(failures.is_empty(), "failed cases: {failures:#?}");
}

#[test]
fn a_row_corrupted_by_hand_loads_corrupt_never_missing_and_is_never_overwritten() {
    let schema = fresh_schema("corrupt");
    let replica = store(&schema, "replica-a");
    assert_eq!(save(&replica, &record("s1", "first")), SaveOutcome::Saved);
    block_on(replica.release(&rid("s1"))).expect("releases");

    let changed = admin()
        .execute(
            &format!(
                "UPDATE \"{schema}\".session_records \
                 SET bytes = '\\x00'::bytea || 'garbage'::bytea WHERE id = 's1'"
            ),
            &[],
        )
        .expect("the hand edit runs");
    assert_eq!(changed, 1);
    let garbage = b"\x00garbage".to_vec();
    assert_eq!(raw_bytes(&schema, "s1"), Some(garbage.clone()));

    for purpose in [LoadPurpose::Probe, LoadPurpose::Resume, LoadPurpose::Write] {
        let outcome = load(&replica, "s1", purpose);
        assert_eq!(
            outcome.status(),
            SessionLoadStatus::Corrupt,
            "{purpose:?}: {outcome:?}"
        );
        assert!(!outcome.permits_recovery(), "{purpose:?}");
    }
    // A fresh replica, which never saw the record, concludes the same.
    let other = store(&schema, "replica-b");
    assert_eq!(
        load(&other, "s1", LoadPurpose::Resume).status(),
        SessionLoadStatus::Corrupt
    );
    block_on(other.release(&rid("s1"))).expect("releases");

    for replica in [&replica, &other] {
        assert_eq!(
            save(replica, &record("s1", "over the garbage")),
            SaveOutcome::Refused {
                reason: SaveRefusal::Unreadable
            }
        );
    }
    assert_eq!(
        raw_bytes(&schema, "s1"),
        Some(garbage),
        "the corrupt row is left byte for byte"
    );
    let listing = block_on(replica.list()).expect("lists");
    let statuses: Vec<(&str, SessionLoadStatus)> = listing
        .entries
        .iter()
        .map(|entry| (entry.id.as_str(), entry.outcome.status()))
        .collect();
    assert_eq!(statuses, [("s1", SessionLoadStatus::Corrupt)]);
}

#[test]
fn the_medium_writes_whole_byte_strings_and_lists_ids_in_byte_order() {
    let schema = fresh_schema("medium");
    let medium = medium(&schema);
    let ids = ["b", "a", "Z", "_x", "a-1", "0", "a.b", "aa", "ab"];
    for (i, id) in ids.iter().enumerate() {
        let bytes: Vec<u8> = (0..=255u8).cycle().skip(i).take(300).collect();
        block_on(medium.write(&rid(id), &bytes)).expect("writes");
        assert_eq!(block_on(medium.read(&rid(id))).expect("reads"), Some(bytes));
    }
    // Rows a store never writes (hand edits): ids that are no record id are left out of the
    // listing, and the listing neither fails nor panics.
    for id in ["é", "a b", "\u{1F600}", "../x", ".hidden", ""] {
        admin()
            .execute(
                &format!("INSERT INTO \"{schema}\".session_records (id, bytes) VALUES ($1, '')"),
                &[&id],
            )
            .expect("the hand edit runs");
    }
    let mut expected: Vec<RecordId> = ids.iter().map(|id| rid(id)).collect();
    expected.sort();
    assert_eq!(block_on(medium.ids()).expect("lists"), expected);
    let listing = block_on(store(&schema, "lister").list()).expect("lists");
    assert_eq!(listing.entries.len(), ids.len(), "{listing:?}");

    block_on(medium.write(&rid("a"), b"")).expect("an empty record is a record");
    assert_eq!(
        block_on(medium.read(&rid("a"))).expect("reads"),
        Some(Vec::new())
    );
    block_on(medium.remove(&rid("a"))).expect("removes");
    block_on(medium.remove(&rid("a"))).expect("removing nothing is fine");
    assert_eq!(block_on(medium.read(&rid("a"))).expect("reads"), None);
    assert!(!block_on(medium.ids()).expect("lists").contains(&rid("a")));
}

#[test]
fn markers_are_exclusive_compare_and_swap_and_unmarked_only_by_their_writer() {
    let schema = fresh_schema("markers");
    let (one, two) = (medium(&schema), medium(&schema));
    let (a, b, c) = (writer("a"), writer("b"), writer("c"));
    assert_eq!(
        block_on(one.mark_writer(&rid("s1"), &a)).expect("marks"),
        WriterMark::Marked
    );
    assert_eq!(
        block_on(one.mark_writer(&rid("s1"), &a)).expect("marks"),
        WriterMark::Marked,
        "marking again as the holder is fine"
    );
    assert_eq!(
        block_on(two.mark_writer(&rid("s1"), &b)).expect("marks"),
        WriterMark::HeldBy(a.clone())
    );
    assert!(!block_on(two.unmark_writer(&rid("s1"), &b)).expect("unmarks"));
    assert!(!block_on(two.transfer_writer(&rid("s1"), &b, &c)).expect("transfers"));
    assert_eq!(
        block_on(one.writer(&rid("s1"))).expect("reads"),
        Some(a.clone())
    );
    assert!(block_on(one.transfer_writer(&rid("s1"), &a, &b)).expect("transfers"));
    assert_eq!(
        block_on(two.writer(&rid("s1"))).expect("reads"),
        Some(b.clone())
    );
    assert!(!block_on(one.unmark_writer(&rid("s1"), &a)).expect("unmarks"));
    assert!(block_on(two.unmark_writer(&rid("s1"), &b)).expect("unmarks"));
    assert_eq!(block_on(one.writer(&rid("s1"))).expect("reads"), None);
    assert!(!block_on(one.transfer_writer(&rid("s1"), &a, &b)).expect("nothing to hand over"));
    assert_eq!(
        block_on(one.mark_writer(&rid("s1"), &c)).expect("marks"),
        WriterMark::Marked
    );
}

#[test]
fn a_marker_no_writer_could_have_written_is_a_corrupt_row_and_blocks_claims() {
    let schema = fresh_schema("badmarker");
    let replica = store(&schema, "replica-a");
    admin()
        .execute(
            &format!(
                "INSERT INTO \"{schema}\".session_writers (id, writer) VALUES ('s1', E'x\\ny')"
            ),
            &[],
        )
        .expect("plants the marker");
    let error =
        block_on(replica.load("s1", LoadPurpose::Resume)).expect_err("the claim cannot be decided");
    assert!(
        matches!(
            &error,
            RecordStoreError::Medium(PostgresError::CorruptRow {
                operation: Operation::MarkWriter,
                problem: RowProblem::WriterId(_),
                ..
            })
        ),
        "{error:?}"
    );
    let saved = block_on(replica.save(
        &record("s1", "over a bad marker"),
        SavePurpose::Run,
        ContentProvenance::Session,
    ));
    assert!(saved.is_err(), "{saved:?}");
    assert_eq!(raw_bytes(&schema, "s1"), None, "nothing was written");
}

#[test]
fn a_second_replica_is_refused_the_record_the_first_claimed() {
    let schema = fresh_schema("replicas");
    let (first, second) = (store(&schema, "replica-a"), store(&schema, "replica-b"));
    assert_eq!(save(&first, &record("s1", "a's")), SaveOutcome::Saved);
    assert_eq!(
        save(&second, &record("s1", "b's")),
        SaveOutcome::Refused {
            reason: SaveRefusal::HasWriter
        }
    );
    match block_on(second.load("s1", LoadPurpose::Resume)) {
        Err(RecordStoreError::HasWriter(OtherWriter::Marked(holder))) => {
            assert_eq!(holder, writer("replica-a"));
        }
        other => panic!("expected has-writer, got {other:?}"),
    }
    assert_eq!(
        load(&second, "s1", LoadPurpose::Probe),
        SessionLoadOutcome::valid(record("s1", "a's"))
    );
    block_on(first.release(&rid("s1"))).expect("releases");
    assert_eq!(
        load(&second, "s1", LoadPurpose::Resume),
        SessionLoadOutcome::valid(record("s1", "a's"))
    );
    assert_eq!(save(&second, &record("s1", "b's")), SaveOutcome::Saved);
    assert_eq!(
        load(&first, "s1", LoadPurpose::Probe),
        SessionLoadOutcome::valid(record("s1", "b's"))
    );
}

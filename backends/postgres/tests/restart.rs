//! Faults of the server: restarted between two operations (of every kind, each the first
//! statement on a dead connection) and stopped outright. Nothing is lost or corrupted, the next
//! operations work, and a stopped server is a typed error, not a panic.
//!
//! One test in its own binary: restarting the server would disturb tests running beside it.

mod support;

use agent_interface::runtime::policy::{
    PutRulesOptions, SessionPermissionRules, SessionPolicyStore, StoredSessionRules,
};
use agent_interface::runtime::record_store::{
    OtherWriter, RecordMedium, RecordStore, RecordStoreError, RecordWriter, Unsealed,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SaveRefusal, SessionLoadOutcome,
};
use agent_interface_postgres::{PostgresError, PostgresMedium, PostgresPolicyStore};
use support::{block_on, config, fresh_schema, pg_ctl, rid, writer};

fn record(name: &str) -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        "s1",
        "/work/restart",
        "2026-01-02T03:04:05.000Z",
        "2026-01-02T03:04:05.000Z",
    )
    .with_name(name)
}

fn rules(denies: &[&str]) -> SessionPermissionRules {
    SessionPermissionRules {
        tool_deny: Some(denies.iter().map(|name| (*name).to_owned()).collect()),
        ..SessionPermissionRules::unrestricted()
    }
}

fn at(rev: u64, rules: SessionPermissionRules) -> Option<StoredSessionRules> {
    Some(StoredSessionRules {
        rev: core::num::NonZeroU64::new(rev)?,
        rules,
    })
}

#[test]
fn a_restarted_server_loses_nothing_and_the_next_operations_work() {
    let schema = fresh_schema("restart");
    let policy = PostgresPolicyStore::connect(config(), schema.clone()).expect("connects");
    let a = RecordStore::new(
        PostgresMedium::connect(config(), schema.clone()).expect("connects"),
        Unsealed,
        writer("replica-a"),
    );
    let b = RecordStore::new(
        PostgresMedium::connect(config(), schema.clone()).expect("connects"),
        Unsealed,
        writer("replica-b"),
    );
    let raw = PostgresMedium::connect(config(), schema).expect("connects");

    block_on(policy.put_rules("s1", None, rules(&["bash"]), PutRulesOptions::expecting(0)))
        .expect("writes");
    let save = |store: &RecordStore<PostgresMedium, Unsealed>, name: &str| {
        block_on(store.save(&record(name), SavePurpose::Run, ContentProvenance::Session))
            .expect("answers")
    };
    assert_eq!(save(&a, "before"), SaveOutcome::Saved);

    // A read first after the restart.
    pg_ctl("restart");
    assert_eq!(
        block_on(policy.get_rules("s1", None)).expect("reconnects and reads"),
        at(1, rules(&["bash"]))
    );
    assert_eq!(
        block_on(b.load("s1", LoadPurpose::Probe)).expect("reconnects and reads"),
        SessionLoadOutcome::valid(record("before"))
    );

    // A compare-and-set write first after the restart: the server refused it while shutting
    // down, so it runs again, once.
    pg_ctl("restart");
    let stored = block_on(policy.put_rules(
        "s1",
        None,
        rules(&["bash", "curl"]),
        PutRulesOptions::expecting(1),
    ))
    .expect("reconnects and writes");
    assert_eq!(stored.rev(), 2);
    let refused = block_on(policy.put_rules(
        "s1",
        None,
        rules(&["bash", "curl", "rm"]),
        PutRulesOptions::expecting(1),
    ))
    .expect_err("still compare-and-set");
    assert_eq!(
        refused.refusal().map(|refusal| refusal.code().as_str()),
        Some("conflict")
    );

    // The marker survived the restart: B is refused, A saves (marking is the first statement).
    pg_ctl("restart");
    assert_eq!(save(&a, "after a restart"), SaveOutcome::Saved);
    assert_eq!(
        save(&b, "b's"),
        SaveOutcome::Refused {
            reason: SaveRefusal::HasWriter
        }
    );
    match block_on(b.load("s1", LoadPurpose::Resume)) {
        Err(RecordStoreError::HasWriter(OtherWriter::Marked(holder))) => {
            assert_eq!(holder, writer("replica-a"));
        }
        other => panic!("expected has-writer, got {other:?}"),
    }

    // Unmarking (a compare-and-set) first after the restart.
    pg_ctl("restart");
    block_on(a.release(&rid("s1"))).expect("reconnects and releases");
    assert_eq!(
        block_on(raw.writer(&rid("s1"))).expect("reads"),
        None,
        "the marker is gone"
    );
    assert_eq!(
        block_on(b.load("s1", LoadPurpose::Resume)).expect("claims"),
        SessionLoadOutcome::valid(record("after a restart"))
    );

    // Handing over (a compare-and-swap) first after the restart.
    pg_ctl("restart");
    assert!(
        block_on(raw.transfer_writer(&rid("s1"), &writer("replica-b"), &writer("replica-a")))
            .expect("reconnects and hands over")
    );
    assert_eq!(
        block_on(a.writer_of(&rid("s1"))).expect("reads"),
        RecordWriter::ThisStore
    );

    // A stopped server is a typed error; once it is back, everything is as it was.
    pg_ctl("stop");
    let down = block_on(policy.get_rules("s1", None)).expect_err("the server is down");
    assert!(matches!(down, PostgresError::Connect(_)), "{down:?}");
    let down = block_on(a.load("s1", LoadPurpose::Probe)).expect_err("the server is down");
    assert!(
        matches!(down, RecordStoreError::Medium(PostgresError::Connect(_))),
        "{down:?}"
    );
    pg_ctl("start");
    assert_eq!(
        block_on(policy.get_rules("s1", None)).expect("reads"),
        at(2, rules(&["bash", "curl"]))
    );
    assert_eq!(
        block_on(a.load("s1", LoadPurpose::Probe)).expect("reads"),
        SessionLoadOutcome::valid(record("after a restart"))
    );
    assert_eq!(
        block_on(raw.ids()).expect("lists"),
        [rid("s1")],
        "nothing else appeared"
    );
}

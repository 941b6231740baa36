//! The stores a multi-threaded tokio server shares (issue 21, point 1): guarded by
//! `CriticalSectionRawMutex`, the file record store and the in-memory policy store are
//! `Send + Sync`, their futures are `Send` (so `tokio::spawn` takes them), and tasks on several
//! worker threads use one instance at once: sessions claimed, saved and reloaded through one
//! record store, and concurrent rule writes on one key where exactly one wins each revision.
#![cfg(not(target_family = "wasm"))]

use std::sync::Arc;

use agent_interface::runtime::policy::{
    InMemorySessionPolicyStore, PutRulesOptions, SessionPermissionRules, SessionPolicyError,
    SessionPolicyStore,
};
use agent_interface::runtime::record_store::{
    FileMedium, RecordId, RecordStore, Unsealed, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SessionLoadOutcome,
};
use embassy_sync::blocking_mutex::raw::CriticalSectionRawMutex;

type SharedStore = RecordStore<FileMedium, Unsealed, CriticalSectionRawMutex>;

fn send_sync<T: Send + Sync>() {}

type SharedRules = InMemorySessionPolicyStore<CriticalSectionRawMutex>;

#[test]
fn stores_behind_a_critical_section_mutex_are_send_and_sync() {
    send_sync::<SharedStore>();
    send_sync::<Arc<SharedStore>>();
    send_sync::<SharedRules>();
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .build()
        .expect("a runtime")
}

#[test]
fn concurrent_rule_writes_on_one_key_win_one_revision_each() {
    let store = Arc::new(SharedRules::with_lock());
    let writers = 16_u64;
    let outcomes = runtime().block_on(async {
        let tasks: Vec<_> = (0..writers)
            .map(|n| {
                let store = Arc::clone(&store);
                tokio::spawn(async move {
                    // Every writer keeps trying at the revision it last saw, as a client would.
                    let mut conflicts = 0;
                    loop {
                        let seen = store
                            .get("session-1", None)
                            .map_or(0, |stored| stored.rev());
                        let rules = SessionPermissionRules {
                            tool_deny: Some(vec![format!("tool-{n}")]),
                            ..SessionPermissionRules::default()
                        };
                        let options = PutRulesOptions::expecting(seen).as_operator();
                        match store.put_rules("session-1", None, rules, options).await {
                            Ok(stored) => return (stored.rev(), conflicts),
                            Err(error) => {
                                let conflict = matches!(
                                    error.refusal(),
                                    Some(SessionPolicyError::Conflict { .. })
                                );
                                assert!(conflict, "only a stale revision is refused: {error}");
                                conflicts += 1;
                                tokio::task::yield_now().await;
                            }
                        }
                    }
                })
            })
            .collect();
        let mut outcomes = Vec::new();
        for task in tasks {
            outcomes.push(task.await.expect("the task ran to its end"));
        }
        outcomes
    });
    let mut revisions: Vec<u64> = outcomes.iter().map(|(rev, _)| *rev).collect();
    revisions.sort_unstable();
    assert_eq!(
        revisions,
        (1..=writers).collect::<Vec<_>>(),
        "each revision won exactly once"
    );
    assert_eq!(
        store.get("session-1", None).map(|stored| stored.rev()),
        Some(writers)
    );
}

fn record(id: &str) -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        id,
        "/work/app",
        "2026-12-03T10:00:00Z",
        "2026-12-03T10:00:00Z",
    )
}

#[test]
fn tasks_on_several_threads_share_one_store() {
    let dir = std::env::temp_dir().join(format!("record-store-threads-{}", std::process::id()));
    let medium = FileMedium::open(&dir).expect("the directory opens");
    let writer = WriterId::new("server-1").expect("a writer id");
    let store: Arc<SharedStore> = Arc::new(RecordStore::with_lock(medium, Unsealed, writer));
    let runtime = runtime();
    let ids: Vec<String> = (0..16).map(|n| format!("sess-{n}")).collect();
    let outcomes = runtime.block_on(async {
        let tasks: Vec<_> = ids
            .iter()
            .cloned()
            .map(|id| {
                let store = Arc::clone(&store);
                tokio::spawn(async move {
                    let fresh = store
                        .load(&id, LoadPurpose::Resume)
                        .await
                        .expect("the disk answers");
                    assert_eq!(fresh, SessionLoadOutcome::Missing, "{id}");
                    let mut session = record(&id);
                    for turn in 0..3 {
                        session.updated_at = format!("2026-12-03T10:0{turn}:00Z");
                        let saved = store
                            .save(&session, SavePurpose::Run, ContentProvenance::Session)
                            .await
                            .expect("the disk answers");
                        assert_eq!(saved, SaveOutcome::Saved, "{id} turn {turn}");
                        tokio::task::yield_now().await;
                    }
                    let reread = store
                        .load(&id, LoadPurpose::Probe)
                        .await
                        .expect("the disk answers");
                    (id, reread.record().cloned(), session)
                })
            })
            .collect();
        let mut outcomes = Vec::new();
        for task in tasks {
            outcomes.push(task.await.expect("the task ran to its end"));
        }
        outcomes
    });
    assert_eq!(outcomes.len(), 16);
    for (id, reread, saved) in outcomes {
        assert_eq!(
            reread.as_ref(),
            Some(&saved),
            "{id} reads back its last save"
        );
        let id = RecordId::new(id).expect("a record id");
        assert_eq!(runtime.block_on(store.release(&id)), Ok(()));
    }
    std::fs::remove_dir_all(&dir).expect("removes the test directory");
}

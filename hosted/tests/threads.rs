//! The stores and the session cache a multi-threaded tokio server shares (issue 21, point 1):
//! guarded by `CriticalSectionRawMutex`, the file record store, the in-memory policy store and
//! the session cache are `Send + Sync`, their futures are `Send` (so `tokio::spawn` takes
//! them), and tasks on several worker threads use one instance at once: sessions claimed, saved
//! and reloaded through one record store, concurrent rule writes on one key where exactly one
//! wins each revision, and concurrent acquires of a few ids through one cache where every id
//! gets one live session and every task's turns land in it exactly once.
#![cfg(not(target_family = "wasm"))]

use std::sync::Arc;

use agent_interface::agent_core::{UniversalMessage, UserMessage};
use agent_interface::runtime::policy::{
    InMemorySessionPolicyStore, PutRulesOptions, SessionPermissionRules, SessionPolicyError,
    SessionPolicyStore,
};
use agent_interface::runtime::record_store::{
    FileMedium, RecordId, RecordStore, Unsealed, WriterId,
};
use agent_interface::runtime::session_cache::{
    AcquireOptions, Acquired, Acquisition, IdKind, SessionCache, SessionCacheConfig,
    SessionCachePort, SessionHandle,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SessionLoadOutcome,
};
use embassy_sync::blocking_mutex::raw::CriticalSectionRawMutex;

type SharedStore = RecordStore<FileMedium, Unsealed, CriticalSectionRawMutex>;

fn send_sync<T: Send + Sync>() {}

type SharedRules = InMemorySessionPolicyStore<CriticalSectionRawMutex>;

/// The host's id source: a counter, `Send` as a server's must be.
type Ids = Box<dyn FnMut(IdKind) -> String + Send>;

type SharedCache = SessionCache<SharedStore, Ids, CriticalSectionRawMutex>;

#[test]
fn stores_behind_a_critical_section_mutex_are_send_and_sync() {
    send_sync::<SharedStore>();
    send_sync::<Arc<SharedStore>>();
    send_sync::<SharedRules>();
    send_sync::<SharedCache>();
    send_sync::<Arc<SharedCache>>();
    send_sync::<SessionHandle<CriticalSectionRawMutex>>();
    send_sync::<Acquired<CriticalSectionRawMutex>>();
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

fn turn(task: usize, turn: usize) -> UniversalMessage {
    UniversalMessage::User(UserMessage::new(
        format!("task-{task}-turn-{turn}"),
        "2026-12-03T10:00:00.000Z",
        format!("turn {turn} of task {task}"),
    ))
}

/// What one task of the cache test saw.
struct TaskRun {
    session_id: String,
    how: Acquisition,
    session: SessionHandle<CriticalSectionRawMutex>,
}

#[test]
fn tasks_on_several_threads_share_one_session_cache() {
    const NAMED: usize = 12;
    const MINTED: usize = 4;
    const IDS: usize = 3;
    const TURNS: usize = 5;
    const NOW: u64 = 1_796_292_000_000;
    let dir = std::env::temp_dir().join(format!("session-cache-threads-{}", std::process::id()));
    let medium = FileMedium::open(&dir).expect("the directory opens");
    let writer = WriterId::new("server-1").expect("a writer id");
    let store: SharedStore = RecordStore::with_lock(medium, Unsealed, writer);
    let mut minted = 0_u32;
    let ids: Ids = Box::new(move |kind| {
        minted += 1;
        format!("{kind:?}-{minted}")
    });
    let config = SessionCacheConfig::for_process_local_store("/work/app");
    let cache: Arc<SharedCache> = Arc::new(SessionCache::with_lock(store, ids, config));
    let runtime = runtime();
    let runs = runtime.block_on(async {
        // Twelve tasks on three ids (four acquires race on each) and four on minted ids.
        let tasks: Vec<_> = (0..NAMED + MINTED)
            .map(|task| {
                let cache = Arc::clone(&cache);
                tokio::spawn(async move {
                    let id = (task < NAMED).then(|| format!("sess-{}", task % IDS));
                    let acquired = cache
                        .acquire(id.as_deref(), AcquireOptions::new(), NOW)
                        .await
                        .expect("the cache answers");
                    for n in 0..TURNS {
                        acquired
                            .session
                            .with_mut(|record| record.messages.push(turn(task, n)));
                        assert!(cache.touch(&acquired.session_id, NOW + 1));
                        tokio::task::yield_now().await;
                    }
                    cache
                        .commit(&acquired.session_id, NOW + 2)
                        .await
                        .expect("the commit lands");
                    TaskRun {
                        session_id: acquired.session_id,
                        how: acquired.how,
                        session: acquired.session,
                    }
                })
            })
            .collect();
        let mut runs = Vec::new();
        for task in tasks {
            runs.push(task.await.expect("the task ran to its end"));
        }
        runs
    });

    // One live session per id: created once, every other acquire shared it.
    for n in 0..IDS {
        let id = format!("sess-{n}");
        let on_id: Vec<&TaskRun> = runs.iter().filter(|run| run.session_id == id).collect();
        assert_eq!(on_id.len(), NAMED / IDS, "{id}");
        let created = on_id
            .iter()
            .filter(|run| run.how == Acquisition::Created)
            .count();
        assert_eq!(created, 1, "{id} was created exactly once");
        assert!(
            on_id
                .iter()
                .all(|run| run.session.same_session(&on_id[0].session)),
            "{id} has one live session"
        );
    }
    let minted: Vec<&TaskRun> = runs[NAMED..].iter().collect();
    assert!(minted.iter().all(|run| run.how == Acquisition::Created));
    let mut minted_ids: Vec<&str> = minted.iter().map(|run| run.session_id.as_str()).collect();
    minted_ids.sort_unstable();
    minted_ids.dedup();
    assert_eq!(minted_ids.len(), MINTED, "every minted session is its own");

    // Every task's turns landed exactly once, in its own order, in the session it acquired;
    // the last commit of each session stored what the live record holds.
    for run in &runs {
        let messages = run.session.with(|record| record.messages.clone());
        let tasks_here: Vec<usize> = (0..NAMED + MINTED)
            .filter(|task| runs[*task].session.same_session(&run.session))
            .collect();
        assert_eq!(
            messages.len(),
            tasks_here.len() * TURNS,
            "{}",
            run.session_id
        );
        for task in &tasks_here {
            let mine: Vec<String> = messages
                .iter()
                .map(|message| message.base().id.clone())
                .filter(|id| id.starts_with(&format!("task-{task}-")))
                .collect();
            let expected: Vec<String> = (0..TURNS)
                .map(|n| format!("task-{task}-turn-{n}"))
                .collect();
            assert_eq!(mine, expected, "{} task {task}", run.session_id);
        }
        let stored = runtime
            .block_on(cache.store().load(&run.session_id, LoadPurpose::Probe))
            .expect("the disk answers");
        assert_eq!(
            stored.record().map(|record| &record.messages),
            Some(&messages),
            "{} stored its last commit",
            run.session_id
        );
    }

    // The accounting: every session cached once, with its timer bumped, then released.
    assert_eq!(cache.len(), IDS + MINTED);
    let listed = cache.list();
    assert_eq!(listed.len(), IDS + MINTED);
    assert!(
        listed
            .iter()
            .all(|summary| summary.last_active_at == NOW + 2)
    );
    let released = runtime.block_on(async {
        let tasks: Vec<_> = listed
            .into_iter()
            .map(|summary| {
                let cache = Arc::clone(&cache);
                tokio::spawn(async move { cache.release(&summary.session_id).await })
            })
            .collect();
        let mut released = Vec::new();
        for task in tasks {
            released.push(task.await.expect("the task ran to its end"));
        }
        released
    });
    for outcome in released {
        let outcome = outcome.expect("the delete lands");
        assert!(outcome.was_cached && outcome.history_deleted);
    }
    assert!(cache.is_empty());
    for run in &runs {
        let gone = runtime
            .block_on(cache.store().load(&run.session_id, LoadPurpose::Probe))
            .expect("the disk answers");
        assert_eq!(gone, SessionLoadOutcome::Missing, "{}", run.session_id);
    }
    std::fs::remove_dir_all(&dir).expect("removes the test directory");
}

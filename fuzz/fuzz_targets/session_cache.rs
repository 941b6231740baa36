//! The TTL session cache (`runtime::session_cache`) over a memory record store, driven by
//! arbitrary operation sequences: acquires (by id or minted), edits of live sessions (messages,
//! tool calls with and without results), commits, forgets, releases, sweeps at moving times,
//! pins, forks with owners, registrations, another process claiming an id, and garbage planted
//! in the medium.
//!
//! Properties (module docs of `runtime::session_cache`):
//! - nothing panics;
//! - an acquired session is cached and a second acquire shares it; a resumed session holds no
//!   call-orphan, its reconciliation was saved back, and waking it again recovers nothing;
//! - a sweep evicts exactly the unpinned sessions idle longer than the TTL, oldest first, and
//!   never a pinned one; listings are newest first;
//! - `forget` never deletes history; `release` under policy `delete` removes history and row;
//! - `commit` makes the live record the stored one; a fork copies the committed record under a
//!   new id with the row `fork_ownership` gives, and answers `None` for a missing source;
//! - `register` is first-write-wins and returns the row in force.
#![no_main]

use std::collections::BTreeSet;

use agent_interface::runtime::reconcile::{OrphanToolCall, find_orphan_tool_calls};
use agent_interface::runtime::record_store::{
    MemoryMedium, RecordId, RecordMedium, RecordStore, Unsealed, WriterId,
};
use agent_interface::runtime::session_cache::{
    AcquireOptions, Acquisition, ForkOwner, IdKind, OwnerRow, Principal, Registration,
    SessionCache, SessionCacheConfig, SessionCachePort, fork_ownership,
};
use agent_interface::session::records::{
    InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SessionLoadOutcome,
};
use agent_interface_fuzz::{SmallId, assistant_message, block_on, tool_message, user_message};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

/// 2026-05-01T00:00:00.000Z.
const T0: u64 = 1_777_593_600_000;
const TTL_MS: u64 = 60_000;

#[derive(Arbitrary, Debug)]
enum Edit {
    User,
    Call { call: u8 },
    Result { call: u8 },
}

#[derive(Arbitrary, Debug)]
enum Op {
    Acquire {
        id: Option<SmallId>,
        require_existing: bool,
    },
    Edit {
        id: SmallId,
        edit: Edit,
    },
    Commit(SmallId),
    Forget(SmallId),
    Release(SmallId),
    Sweep,
    Touch(SmallId),
    Pin(SmallId),
    Unpin(SmallId),
    Fork {
        source: SmallId,
        owner: u8,
    },
    Register {
        id: SmallId,
        owner: u8,
    },
    /// Time passes (seconds), or goes back a little.
    Wait(i16),
    /// Another process claims the id in the store.
    OtherClaims(SmallId),
    Plant {
        id: SmallId,
        bytes: Vec<u8>,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    delete_policy: bool,
    ops: Vec<Op>,
}

fn principal(n: u8) -> Principal {
    Principal::new(format!("user-{}", n % 3)).unwrap()
}

fuzz_target!(|input: Input| {
    let medium = MemoryMedium::new();
    let store = RecordStore::new(&medium, Unsealed, WriterId::new("cache").unwrap());
    let other = RecordStore::new(&medium, Unsealed, WriterId::new("other-process").unwrap());
    let mut minted = 0_u32;
    let ids = move |kind: IdKind| {
        minted += 1;
        match kind {
            IdKind::Session => format!("minted-{minted}"),
            IdKind::Entry => format!("entry-{minted}"),
        }
    };
    let config = if input.delete_policy {
        SessionCacheConfig::for_process_local_store("/work/app")
    } else {
        SessionCacheConfig::for_custom_store("/work/app", None)
    }
    .with_ttl_ms(TTL_MS);
    let cache = SessionCache::new(store, ids, config);
    let mut now = T0;
    let mut pinned: BTreeSet<String> = BTreeSet::new();
    let mut known: Vec<String> = Vec::new();

    block_on(async {
        for op in input.ops.into_iter().take(64) {
            let name = |id: SmallId, known: &Vec<String>| -> String {
                // Minted ids join the small alphabet once seen: D stands for the latest one.
                match (id, known.last()) {
                    (SmallId::D, Some(latest)) => latest.clone(),
                    _ => id.as_str().to_owned(),
                }
            };
            match op {
                Op::Acquire {
                    id,
                    require_existing,
                } => {
                    let id = id.map(|id| name(id, &known));
                    let committed = match &id {
                        Some(id) => probe(&cache, id).await,
                        None => None,
                    };
                    let Ok(acquired) = cache
                        .acquire(
                            id.as_deref(),
                            AcquireOptions::new().require_existing(require_existing),
                            now,
                        )
                        .await
                    else {
                        continue;
                    };
                    if id.is_none() {
                        known.push(acquired.session_id.clone());
                    }
                    let live = cache
                        .get(&acquired.session_id)
                        .expect("an acquired session is cached");
                    assert!(live.same_session(&acquired.session));
                    let again = cache
                        .acquire(
                            Some(&acquired.session_id),
                            AcquireOptions::new().require_existing(true),
                            now,
                        )
                        .await
                        .expect("cached");
                    assert_eq!(again.how, Acquisition::Cached);
                    assert!(
                        again.session.same_session(&acquired.session),
                        "two sessions for one id"
                    );
                    if let Acquisition::Resumed { recovered, .. } = &acquired.how {
                        let record = acquired.session.with(InteractiveSessionRecord::clone);
                        let orphans = find_orphan_tool_calls(&record.messages, None)
                            .expect("a resumed transcript is unambiguous");
                        assert!(
                            orphans
                                .iter()
                                .all(|o| !matches!(o, OrphanToolCall::Call(_))),
                            "a resumed session still holds call-orphans"
                        );
                        let stored = probe(&cache, &acquired.session_id).await;
                        assert_eq!(
                            stored.as_ref(),
                            Some(&record),
                            "the reconciliation was not saved back"
                        );
                        if !recovered.recovered.is_empty() {
                            let before = committed.expect("resumed from a stored record");
                            assert_eq!(
                                before.messages.len() + recovered.recovered.len(),
                                record.messages.len()
                            );
                            assert_eq!(
                                &record.messages[..before.messages.len()],
                                &before.messages[..],
                                "reconcile changed history"
                            );
                        }
                        // Waking again changes nothing.
                        assert!(cache.forget(&acquired.session_id));
                        let woken = cache
                            .acquire(
                                Some(&acquired.session_id),
                                AcquireOptions::new().require_existing(true),
                                now,
                            )
                            .await
                            .expect("wakes again");
                        match woken.how {
                            Acquisition::Resumed { recovered, .. } => assert!(
                                recovered.recovered.is_empty(),
                                "a second wake recovered more"
                            ),
                            other => panic!("a second wake answered {other:?}"),
                        }
                        woken.session.with(|live| assert_eq!(*live, record));
                    }
                }
                Op::Edit { id, edit } => {
                    let Some(handle) = cache.get(&name(id, &known)) else {
                        continue;
                    };
                    let n = handle.with(|record| record.messages.len());
                    let message = match edit {
                        Edit::User => user_message(&format!("u{n}"), "hi"),
                        Edit::Call { call } => assistant_message(
                            &format!("a{n}"),
                            &[(format!("call-{}", call % 6), "write_file".to_owned())],
                        ),
                        Edit::Result { call } => tool_message(
                            &format!("t{n}"),
                            &format!("call-{}", call % 6),
                            Some("write_file"),
                        ),
                    };
                    handle.with_mut(|record| record.messages.push(message));
                }
                Op::Commit(id) => {
                    let id = name(id, &known);
                    if cache.commit(&id, now).await.is_ok() {
                        let live = cache
                            .get(&id)
                            .expect("committed, so cached")
                            .with(InteractiveSessionRecord::clone);
                        assert_eq!(
                            probe(&cache, &id).await,
                            Some(live),
                            "commit did not store the live record"
                        );
                    }
                }
                Op::Forget(id) => {
                    let id = name(id, &known);
                    let before = stored_bytes(&medium, &id).await;
                    cache.forget(&id);
                    assert!(cache.get(&id).is_none());
                    assert_eq!(
                        stored_bytes(&medium, &id).await,
                        before,
                        "forget changed history"
                    );
                }
                Op::Release(id) => {
                    let id = name(id, &known);
                    let result = cache.release(&id).await;
                    assert!(cache.get(&id).is_none(), "released yet cached");
                    if let Ok(released) = result {
                        assert_eq!(released.history_deleted, input.delete_policy);
                        if released.history_deleted {
                            assert_eq!(
                                stored_bytes(&medium, &id).await,
                                None,
                                "released history remains"
                            );
                            assert_eq!(cache.owner_of(&id).await, OwnerRow::NoRow);
                        }
                    }
                }
                Op::Sweep => {
                    let before = cache.list();
                    let report = cache.sweep(now).await;
                    let mut due: Vec<(u64, String)> = before
                        .iter()
                        .filter(|s| {
                            now.saturating_sub(s.last_active_at) > TTL_MS
                                && !pinned.contains(&s.session_id)
                        })
                        .map(|s| (s.last_active_at, s.session_id.clone()))
                        .collect();
                    due.sort();
                    let due: Vec<String> = due.into_iter().map(|(_, id)| id).collect();
                    assert_eq!(
                        report.evicted, due,
                        "a sweep evicted other than the idle unpinned sessions"
                    );
                    for id in &report.evicted {
                        assert!(cache.get(id).is_none());
                    }
                }
                Op::Touch(id) => {
                    let id = name(id, &known);
                    assert_eq!(cache.touch(&id, now), cache.get(&id).is_some());
                }
                Op::Pin(id) => {
                    let id = name(id, &known);
                    cache.pin(&id);
                    pinned.insert(id);
                }
                Op::Unpin(id) => {
                    let id = name(id, &known);
                    cache.unpin(&id);
                    pinned.remove(&id);
                }
                Op::Fork { source, owner } => {
                    let source = name(source, &known);
                    let owner = match owner % 3 {
                        0 => ForkOwner::Inherit,
                        1 => ForkOwner::Anonymous,
                        _ => ForkOwner::Principal(principal(owner)),
                    };
                    let committed = probe_outcome(&cache, &source).await;
                    let row = cache.owner_of(&source).await;
                    match cache.fork(&source, owner.clone(), now).await {
                        Ok(None) => assert_eq!(
                            committed,
                            Some(SessionLoadOutcome::Missing),
                            "a fork of a stored source answered None"
                        ),
                        Ok(Some(fork)) => {
                            known.push(fork.clone());
                            let Some(SessionLoadOutcome::Valid {
                                record: source_record,
                                ..
                            }) = committed
                            else {
                                panic!("forked a source that was not valid: {committed:?}");
                            };
                            let copy = cache
                                .get(&fork)
                                .expect("a fork is cached")
                                .with(InteractiveSessionRecord::clone);
                            assert_eq!(copy.id, fork);
                            assert_eq!(
                                copy.messages, source_record.messages,
                                "a fork copied other than the committed history"
                            );
                            assert_eq!(
                                probe(&cache, &fork).await,
                                Some(copy),
                                "a fork is not stored"
                            );
                            let expected = fork_ownership(&row, &owner)
                                .as_ref()
                                .map_or(OwnerRow::NoRow, OwnerRow::of);
                            assert_eq!(cache.owner_of(&fork).await, expected, "a fork's row");
                        }
                        Err(_) => {}
                    }
                }
                Op::Register { id, owner } => {
                    let id = name(id, &known);
                    let registration = if owner % 4 == 0 {
                        Registration::Anonymous
                    } else {
                        Registration::Principal(principal(owner))
                    };
                    let before = cache.owner_of(&id).await;
                    let row = cache.register(&id, registration.clone()).await;
                    if before.exists() {
                        assert_eq!(row, before, "register overwrote a row");
                    } else {
                        assert_eq!(row, OwnerRow::of(&registration));
                    }
                    assert_eq!(cache.owner_of(&id).await, row);
                }
                Op::Wait(seconds) => {
                    now = now
                        .saturating_add_signed(i64::from(seconds) * 1000)
                        .max(T0 - 1_000_000);
                }
                Op::OtherClaims(id) => {
                    let _ = other.load(&name(id, &known), LoadPurpose::Write).await;
                }
                Op::Plant { id, bytes } => {
                    let id = name(id, &known);
                    if cache.get(&id).is_none()
                        && let Ok(id) = RecordId::new(id)
                    {
                        medium.write(&id, &bytes).await.unwrap();
                    }
                }
            }
            for id in known
                .iter()
                .map(String::as_str)
                .chain(["sess-a", "sess-b", "sess-c"])
            {
                assert_eq!(cache.is_pinned(id), pinned.contains(id));
            }
            let list = cache.list();
            assert!(
                list.windows(2)
                    .all(|w| (w[0].last_active_at, &w[1].session_id)
                        >= (w[1].last_active_at, &w[0].session_id)),
                "the listing is not newest first"
            );
            assert_eq!(list.len(), cache.len());
        }
    });
});

async fn probe_outcome<
    R: InteractiveSessionStore,
    I: agent_interface::runtime::session_cache::IdSource,
>(
    cache: &SessionCache<R, I>,
    id: &str,
) -> Option<SessionLoadOutcome> {
    cache.store().load(id, LoadPurpose::Probe).await.ok()
}

async fn probe<R: InteractiveSessionStore, I: agent_interface::runtime::session_cache::IdSource>(
    cache: &SessionCache<R, I>,
    id: &str,
) -> Option<InteractiveSessionRecord> {
    match probe_outcome(cache, id).await {
        Some(SessionLoadOutcome::Valid { record, .. }) => Some(*record),
        _ => None,
    }
}

async fn stored_bytes(medium: &MemoryMedium, id: &str) -> Option<Vec<u8>> {
    medium.read(&RecordId::new(id).ok()?).await.unwrap()
}

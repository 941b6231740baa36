//! The TTL session cache itself ([`SessionCache`]), the handle it shares ([`SessionHandle`]) and
//! what its operations answer.

use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet};
#[cfg(not(target_has_atomic = "ptr"))]
use alloc::rc::Rc as Shared;
use alloc::string::String;
#[cfg(target_has_atomic = "ptr")]
use alloc::sync::Arc as Shared;
use alloc::vec::Vec;
use core::cell::{BorrowError, BorrowMutError, RefCell};
use core::fmt;
use core::future::poll_fn;
use core::task::Poll;

use embassy_sync::blocking_mutex::Mutex;
use embassy_sync::blocking_mutex::raw::{NoopRawMutex, RawMutex};
use embassy_sync::mutex::Mutex as AsyncMutex;
use embassy_sync::waitqueue::MultiWakerRegistration;

use crate::agent_core::UniversalMessage;
use crate::instant::format_instant;
use crate::runtime::reconcile::{
    ReconcileInputs, ReconcileReport, ResultOrphan, reconcile_interrupted_session,
};
use crate::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SessionLoadOutcome,
};

use super::config::{
    EvictPolicy, IdKind, IdSource, Retention, SESSION_CACHE_RETENTION, SessionCacheConfig,
    SessionStoreSummary, StoreDurability,
};
use super::error::SessionCacheError;
use super::ownership::{ForkOwner, OwnerRow, Registration, fork_ownership};
use super::port::SessionCachePort;

/// The live value of a cached session: the session record, shared.
///
/// Every acquire of one id while it is cached hands out a clone of the same handle, so two
/// callers see one session ([`same_session`](Self::same_session)). The host reads and mutates
/// the record through closures ([`with`](Self::with), [`with_mut`](Self::with_mut)), appending
/// the turn in flight, say, and makes the changes the committed history with
/// [`SessionCache::commit`]; until then they exist only in memory, and a fork never copies
/// them.
///
/// The record sits behind the raw mutex `L` of its cache: with [`NoopRawMutex`] (the default)
/// the handle stays on one thread or one executor; with a thread-safe mutex
/// ([`CriticalSectionRawMutex`](crate::agent_core::CriticalSectionRawMutex))
/// it is `Send + Sync` and tasks on several threads share it (on targets with pointer-sized
/// compare-and-swap; without it, thumbv6m say, the handle is reference-counted with `Rc` and
/// stays on one thread: `docs/decisions/session-cache.md`). A closure runs under that lock, so
/// it should be short: another thread reaching the record waits for it. Calling `with_mut` on
/// a handle from inside a closure on the same session is a re-entrant borrow: the plain forms
/// panic, the `try_` forms return an error and never panic.
pub struct SessionHandle<L: RawMutex = NoopRawMutex>(Shared<Live<L>>);

/// What every handle of one live session shares.
struct Live<L: RawMutex> {
    record: Mutex<L, RefCell<InteractiveSessionRecord>>,
    /// Held by a commit from the copy it takes of the record until its save ends, so the
    /// commits of one session reach the store in the order they read the record: a slow save
    /// of an older copy never lands over a newer one.
    committing: AsyncMutex<L, ()>,
}

impl<L: RawMutex> SessionHandle<L> {
    /// A live session over `record`, shared by every clone of the handle: what a
    /// [`SessionCachePort`](super::SessionCachePort) of the host's own (over a database, say)
    /// hands out from `acquire`. Two handles made by separate calls are separate sessions
    /// ([`same_session`](Self::same_session) is false), whatever their records hold.
    #[must_use]
    pub fn new(record: InteractiveSessionRecord) -> Self {
        Self(Shared::new(Live {
            record: Mutex::new(RefCell::new(record)),
            committing: AsyncMutex::new(()),
        }))
    }

    /// Runs `f` on the record and returns what it returns. Panics if `f` runs inside a
    /// [`with_mut`](Self::with_mut) on the same session (use [`try_with`](Self::try_with) to
    /// get an error instead).
    pub fn with<T>(&self, f: impl FnOnce(&InteractiveSessionRecord) -> T) -> T {
        self.0.record.lock(|record| f(&record.borrow()))
    }

    /// Runs `f` on the record, or answers an error while the record is borrowed mutably (a
    /// re-entrant call from inside [`with_mut`](Self::with_mut)).
    ///
    /// # Errors
    /// The record is borrowed mutably.
    pub fn try_with<T>(
        &self,
        f: impl FnOnce(&InteractiveSessionRecord) -> T,
    ) -> Result<T, BorrowError> {
        self.0
            .record
            .lock(|record| record.try_borrow().map(|record| f(&record)))
    }

    /// Changes the record in memory through `f` (not committed until
    /// [`SessionCache::commit`]). Panics if `f` runs inside another closure on the same session
    /// (use [`try_with_mut`](Self::try_with_mut) to get an error instead).
    pub fn with_mut<T>(&self, f: impl FnOnce(&mut InteractiveSessionRecord) -> T) -> T {
        self.0.record.lock(|record| f(&mut record.borrow_mut()))
    }

    /// Changes the record in memory through `f`, or answers an error while it is borrowed (a
    /// re-entrant call from inside another closure on the same session).
    ///
    /// # Errors
    /// The record is borrowed.
    pub fn try_with_mut<T>(
        &self,
        f: impl FnOnce(&mut InteractiveSessionRecord) -> T,
    ) -> Result<T, BorrowMutError> {
        self.0
            .record
            .lock(|record| record.try_borrow_mut().map(|mut record| f(&mut record)))
    }

    /// True when both handles are the same live session (not merely equal records).
    #[must_use]
    pub fn same_session(&self, other: &Self) -> bool {
        Shared::ptr_eq(&self.0, &other.0)
    }
}

impl<L: RawMutex> Clone for SessionHandle<L> {
    fn clone(&self) -> Self {
        Self(Shared::clone(&self.0))
    }
}

impl<L: RawMutex> fmt::Debug for SessionHandle<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The id is copied out so no formatting runs under the lock.
        match self.try_with(|record| record.id.clone()) {
            Ok(id) => f.debug_tuple("SessionHandle").field(&id).finish(),
            Err(_) => f.write_str("SessionHandle(<borrowed>)"),
        }
    }
}

/// How an acquire got its session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acquisition {
    /// It was cached (or another acquire of the same id was loading it and this one waited):
    /// the same live session.
    Cached,
    /// The store held no record under the id (or the id was minted): a fresh record was created
    /// and saved.
    Created,
    /// The store held a valid record: the session resumed from it, and the tool calls a crash
    /// had left without results were closed.
    Resumed {
        /// The call-orphans closed with synthetic interrupted results (appended to the record's
        /// messages and saved before the session was handed out); empty when there were none.
        recovered: ReconcileReport,
        /// Results without a call, reported and left alone.
        result_orphans: Vec<ResultOrphan>,
    },
}

/// A session handed out by [`SessionCache::acquire`] (`AcquiredSession`), its handle behind
/// the cache's raw mutex `L`.
pub struct Acquired<L: RawMutex = NoopRawMutex> {
    /// The session's id (minted when none was passed).
    pub session_id: String,
    /// The live session.
    pub session: SessionHandle<L>,
    /// How it was obtained.
    pub how: Acquisition,
}

// By hand: a derive would ask `L: Clone` and `L: Debug`, which no raw mutex needs to be.
impl<L: RawMutex> Clone for Acquired<L> {
    fn clone(&self) -> Self {
        Self {
            session_id: self.session_id.clone(),
            session: self.session.clone(),
            how: self.how.clone(),
        }
    }
}

impl<L: RawMutex> fmt::Debug for Acquired<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Acquired")
            .field("session_id", &self.session_id)
            .field("session", &self.session)
            .field("how", &self.how)
            .finish()
    }
}

/// The options of an [`acquire`](SessionCachePort::acquire): whether a missing id is an error,
/// and what the host knows about the interrupted run of a resumed session. Built with
/// [`new`](Self::new) and the setters; read with the getters (a host's own port reads them).
#[derive(Clone, Copy, Debug, Default)]
pub struct AcquireOptions<'a> {
    require_existing: bool,
    reconcile: ReconcileInputs<'a>,
}

impl<'a> AcquireOptions<'a> {
    /// Create on miss, reconcile knowing nothing (every tool a write, nothing suspended).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            require_existing: false,
            reconcile: ReconcileInputs::new(),
        }
    }

    /// The same options, failing with `not_found` on a missing id when `require` is true
    /// (creating a session there when it is false, as [`new`](Self::new) does).
    #[must_use]
    pub const fn require_existing(mut self, require: bool) -> Self {
        self.require_existing = require;
        self
    }

    /// The same options with what the host knows about the interrupted run.
    #[must_use]
    pub const fn with_reconcile(mut self, reconcile: ReconcileInputs<'a>) -> Self {
        self.reconcile = reconcile;
        self
    }

    /// True when a missing id fails with `not_found` instead of creating a session.
    #[must_use]
    pub const fn requires_existing(&self) -> bool {
        self.require_existing
    }

    /// What the host knows about the interrupted run of a resumed session: tool effects, a
    /// suspended batch (never closed), the calls that had started.
    #[must_use]
    pub const fn reconcile(&self) -> &ReconcileInputs<'a> {
        &self.reconcile
    }
}

/// What [`SessionCache::release`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Released {
    /// The session was cached and is dropped from the live set.
    pub was_cached: bool,
    /// The store's history was deleted (evict policy `delete`), and the ownership row with it.
    pub history_deleted: bool,
}

/// What a sweep evicted.
#[derive(Debug)]
pub struct SweepReport<E> {
    /// The sessions dropped from the cache, oldest activity first.
    pub evicted: Vec<String>,
    /// Under evict policy `delete`: the evicted sessions whose store delete failed. Their
    /// history and ownership rows are kept (a row never dies before its history).
    pub delete_failures: Vec<(String, E)>,
}

impl<E> SweepReport<E> {
    const fn empty() -> Self {
        Self {
            evicted: Vec::new(),
            delete_failures: Vec::new(),
        }
    }
}

struct Entry<L: RawMutex> {
    handle: SessionHandle<L>,
    created_at: String,
    last_active_ms: u64,
    last_task_id: Option<String>,
    forked_from: Option<String>,
}

/// Everything the cache keeps beside its store, under one lock so that a check and the change
/// it decides (an id not cached and not loading, so this acquire loads it) are one step on
/// every thread.
struct State<L: RawMutex> {
    entries: BTreeMap<String, Entry<L>>,
    owners: BTreeMap<String, Registration>,
    pinned: BTreeSet<String>,
    /// The ids with a store operation in flight, each with the acquires waiting on it. Past
    /// `WAITERS` tasks on one id, registering wakes them all early; each checks again when
    /// polled.
    pending: BTreeMap<String, MultiWakerRegistration<WAITERS>>,
}

impl<L: RawMutex> State<L> {
    const fn new() -> Self {
        Self {
            entries: BTreeMap::new(),
            owners: BTreeMap::new(),
            pinned: BTreeSet::new(),
            pending: BTreeMap::new(),
        }
    }

    /// Marks `id` as having a store operation in flight.
    fn mark_pending(&mut self, id: &str) {
        self.pending
            .entry(id.to_owned())
            .or_insert_with(MultiWakerRegistration::new);
    }
}

type Locked<L, T> = Mutex<L, RefCell<T>>;

const WAITERS: usize = 4;

/// Holds the pending mark of an id; dropping it (on completion or when the future is dropped)
/// clears the mark and wakes every acquire that waited.
struct PendingGuard<'a, L: RawMutex> {
    state: &'a Locked<L, State<L>>,
    id: String,
}

impl<L: RawMutex> Drop for PendingGuard<'_, L> {
    fn drop(&mut self) {
        let wakers = self.state.lock(|state| match state.try_borrow_mut() {
            Ok(mut state) => state.pending.remove(&self.id),
            Err(_) => None,
        });
        // Woken outside the lock: a waker is the executor's code.
        if let Some(mut wakers) = wakers {
            wakers.wake();
        }
    }
}

/// What an acquire does next, decided in one step under the lock.
enum Next<L: RawMutex> {
    Hit(SessionHandle<L>),
    Wait,
    Load,
}

type Outcome<T, E> = Result<T, SessionCacheError<E>>;

/// A TTL cache of live sessions over any session record store (`TtlSessionStore`).
///
/// See the [module documentation](super) for the rules; in short: sessions are cached in
/// memory and evicted after an idle TTL by [`sweep`](Self::sweep) (also run opportunistically
/// by every acquire), pinned sessions are never evicted, a session not cached is resumed from
/// the store through a claiming read and reconciled, concurrent acquires of one id share one
/// load and one session, and ownership rows are kept beside the cache and outlive it.
///
/// The cache reads no clock (every operation that needs time takes `now_ms`), no entropy (new
/// ids come from the host's [`IdSource`]), and forces no `Send` bound.
///
/// `L` is the embassy-sync raw mutex guarding the cache's state and its sessions' records:
/// [`NoopRawMutex`] (the default, from [`new`](SessionCache::new)) for one thread or one
/// executor, as on wasm and firmware;
/// [`CriticalSectionRawMutex`](crate::agent_core::CriticalSectionRawMutex)
/// (from [`with_lock`](Self::with_lock)) to share one cache across threads, e.g. in a
/// multi-threaded tokio server's state: the cache is then `Send + Sync` when the store is
/// `Sync` and the id source `Send`, and its futures are `Send` when the store's are. The lock
/// is held only for short sections that never span an `await` and run no caller code, except
/// [`IdSource::mint`], which runs under a lock of its own and must not call the cache.
pub struct SessionCache<R, I, L: RawMutex = NoopRawMutex> {
    store: R,
    ids: Locked<L, I>,
    config: SessionCacheConfig,
    state: Locked<L, State<L>>,
}

impl<R, I, L: RawMutex> fmt::Debug for SessionCache<R, I, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cached = self
            .state
            .lock(|state| state.try_borrow().map(|state| state.entries.len()).ok());
        f.debug_struct("SessionCache")
            .field("config", &self.config)
            .field("cached", &cached)
            .finish_non_exhaustive()
    }
}

impl<R: InteractiveSessionStore, I: IdSource> SessionCache<R, I> {
    /// A cache over `store`, minting ids from `ids`, behaving as `config` declares.
    /// Single-threaded ([`NoopRawMutex`]); see [`with_lock`](SessionCache::with_lock) to share
    /// it.
    #[must_use]
    pub const fn new(store: R, ids: I, config: SessionCacheConfig) -> Self {
        Self::with_lock(store, ids, config)
    }
}

impl<R: InteractiveSessionStore, I: IdSource, L: RawMutex> SessionCache<R, I, L> {
    /// A cache as [`new`](SessionCache::new) makes it, guarded by the raw mutex `L` (name it:
    /// `SessionCache::<_, _, CriticalSectionRawMutex>::with_lock(..)`).
    #[must_use]
    pub const fn with_lock(store: R, ids: I, config: SessionCacheConfig) -> Self {
        Self {
            store,
            ids: Mutex::new(RefCell::new(ids)),
            config,
            state: Mutex::new(RefCell::new(State::new())),
        }
    }

    /// Runs `f` on the state under the lock (never across an `await`, never caller code).
    fn with_state<T>(&self, f: impl FnOnce(&mut State<L>) -> T) -> T {
        self.state.lock(|state| f(&mut state.borrow_mut()))
    }

    /// A fresh id from the host's source, under the id lock.
    fn mint(&self, kind: IdKind) -> String {
        self.ids.lock(|ids| ids.borrow_mut().mint(kind))
    }

    /// The guard of an id this call has just marked pending.
    fn pending_guard(&self, id: String) -> PendingGuard<'_, L> {
        PendingGuard {
            state: &self.state,
            id,
        }
    }

    /// The store underneath.
    #[must_use]
    pub const fn store(&self) -> &R {
        &self.store
    }

    /// The configuration.
    #[must_use]
    pub const fn config(&self) -> &SessionCacheConfig {
        &self.config
    }

    /// The cached session `id`, if it is cached (no timer is bumped).
    #[must_use]
    pub fn get(&self, id: &str) -> Option<SessionHandle<L>> {
        self.with_state(|state| state.entries.get(id).map(|entry| entry.handle.clone()))
    }

    async fn resume(
        &self,
        mut record: InteractiveSessionRecord,
        options: AcquireOptions<'_>,
        stamp: &str,
        now_ms: u64,
    ) -> Outcome<(InteractiveSessionRecord, Acquisition), R::Error> {
        let reconciliation =
            reconcile_interrupted_session(&record.messages, options.reconcile(), now_ms, |_| {
                self.mint(IdKind::Entry)
            })
            .map_err(|error| SessionCacheError::Reconcile {
                id: record.id.clone(),
                error,
            })?;
        let changed = !reconciliation.is_noop();
        let (append, recovered, result_orphans) = reconciliation.into_parts();
        if changed {
            record
                .messages
                .extend(append.into_iter().map(UniversalMessage::Tool));
            stamp.clone_into(&mut record.updated_at);
            self.save(&record, ContentProvenance::Session).await?;
        }
        Ok((
            record,
            Acquisition::Resumed {
                recovered,
                result_orphans,
            },
        ))
    }

    async fn create_minted(&self, stamp: String, now_ms: u64) -> Outcome<Acquired<L>, R::Error> {
        let guard = self.mint_session_id()?;
        self.probe_unused(&guard.id).await?;
        let record = self.fresh_record(&guard.id, &stamp);
        self.save(&record, ContentProvenance::Session).await?;
        let session = self.insert(record, now_ms, None);
        Ok(Acquired {
            session_id: guard.id.clone(),
            session,
            how: Acquisition::Created,
        })
    }

    fn fresh_record(&self, id: &str, stamp: &str) -> InteractiveSessionRecord {
        InteractiveSessionRecord::new(id, self.config.cwd.clone(), stamp, stamp)
    }

    /// Saves `record` for this process to run.
    async fn save(
        &self,
        record: &InteractiveSessionRecord,
        provenance: ContentProvenance,
    ) -> Outcome<(), R::Error> {
        match self
            .store
            .save(record, SavePurpose::Run, provenance)
            .await
            .map_err(SessionCacheError::Store)?
        {
            SaveOutcome::Saved => Ok(()),
            SaveOutcome::Refused { reason } => Err(SessionCacheError::SaveRefused {
                id: record.id.clone(),
                reason,
            }),
        }
    }

    /// A minted session id that is non-empty and that the cache knows nothing about, marked
    /// pending in the same step (so no other task takes it meanwhile).
    fn mint_session_id(&self) -> Outcome<PendingGuard<'_, L>, R::Error> {
        let id = self.mint(IdKind::Session);
        if id.is_empty() {
            return Err(SessionCacheError::EmptyId);
        }
        let known = self.with_state(|state| {
            let known = state.entries.contains_key(&id)
                || state.owners.contains_key(&id)
                || state.pending.contains_key(&id);
            if !known {
                state.mark_pending(&id);
            }
            known
        });
        if known {
            return Err(SessionCacheError::MintedIdTaken { id });
        }
        Ok(self.pending_guard(id))
    }

    /// Fails unless the store holds nothing under the minted `id` (a probe claims nothing).
    async fn probe_unused(&self, id: &str) -> Outcome<(), R::Error> {
        match self
            .store
            .load(id, LoadPurpose::Probe)
            .await
            .map_err(SessionCacheError::Store)?
        {
            SessionLoadOutcome::Missing => Ok(()),
            _ => Err(SessionCacheError::MintedIdTaken { id: id.to_owned() }),
        }
    }

    fn insert(
        &self,
        record: InteractiveSessionRecord,
        now_ms: u64,
        forked_from: Option<String>,
    ) -> SessionHandle<L> {
        let id = record.id.clone();
        let created_at = record.created_at.clone();
        let handle = SessionHandle::new(record);
        let entry = Entry {
            handle: handle.clone(),
            created_at,
            last_active_ms: now_ms,
            last_task_id: None,
            forked_from,
        };
        self.with_state(|state| state.entries.insert(id, entry));
        handle
    }

    /// The cached session `id` with its timer bumped.
    fn hit(&self, id: &str, now_ms: u64) -> Option<SessionHandle<L>> {
        self.with_state(|state| bump(state, id, now_ms))
    }

    /// The ownership row of `id`, read without waiting (the port's `owner_of`).
    fn owner_row(&self, id: &str) -> OwnerRow {
        self.with_state(|state| state.owners.get(id).map_or(OwnerRow::NoRow, OwnerRow::of))
    }

    /// Waits until no store operation on `id` is in flight. No executor is assumed: the waker
    /// of each waiting poll is kept and woken when the operation's guard drops.
    async fn wait_not_pending(&self, id: &str) {
        poll_fn(|cx| {
            self.with_state(|state| match state.pending.get_mut(id) {
                Some(wakers) => {
                    wakers.register(cx.waker());
                    Poll::Pending
                }
                None => Poll::Ready(()),
            })
        })
        .await;
    }

    /// True when `id` is pinned.
    #[must_use]
    pub fn is_pinned(&self, id: &str) -> bool {
        self.with_state(|state| state.pinned.contains(id))
    }

    async fn sweep_sparing(&self, now_ms: u64, spare: Option<&str>) -> SweepReport<R::Error> {
        let delete = self.config.evict == EvictPolicy::Delete;
        // Chosen, dropped and (under `delete`) marked pending in one step, so an acquire that
        // comes in meanwhile waits for the delete instead of resuming a record about to go.
        let evicted = self.with_state(|state| {
            let mut expired: Vec<(u64, String)> = state
                .entries
                .iter()
                .filter(|(id, entry)| {
                    now_ms.saturating_sub(entry.last_active_ms) > self.config.ttl_ms
                        && !state.pinned.contains(id.as_str())
                        && !state.pending.contains_key(id.as_str())
                        && spare != Some(id.as_str())
                })
                .map(|(id, entry)| (entry.last_active_ms, id.clone()))
                .collect();
            expired.sort();
            for (_, id) in &expired {
                state.entries.remove(id);
                if delete {
                    state.mark_pending(id);
                }
            }
            expired
        });
        if evicted.is_empty() {
            return SweepReport::empty();
        }
        let mut report = SweepReport::empty();
        report.evicted = evicted.into_iter().map(|(_, id)| id).collect();
        if delete {
            let guards: Vec<PendingGuard<'_, L>> = report
                .evicted
                .iter()
                .map(|id| self.pending_guard(id.clone()))
                .collect();
            for guard in guards {
                match self.store.delete(&guard.id).await {
                    Ok(()) => {
                        self.with_state(|state| state.owners.remove(&guard.id));
                    }
                    Err(error) => report.delete_failures.push((guard.id.clone(), error)),
                }
            }
        }
        report
    }
}

/// The cached session `id` with its timer bumped (never backwards).
fn bump<L: RawMutex>(state: &mut State<L>, id: &str, now_ms: u64) -> Option<SessionHandle<L>> {
    let entry = state.entries.get_mut(id)?;
    entry.last_active_ms = entry.last_active_ms.max(now_ms);
    Some(entry.handle.clone())
}

impl<R: InteractiveSessionStore, I: IdSource, L: RawMutex> SessionCachePort
    for SessionCache<R, I, L>
{
    type StoreError = R::Error;
    type Lock = L;

    async fn acquire(
        &self,
        id: Option<&str>,
        options: AcquireOptions<'_>,
        now_ms: u64,
    ) -> Outcome<Acquired<L>, R::Error> {
        let stamp =
            format_instant(now_ms).ok_or(SessionCacheError::InstantOutOfRange { now_ms })?;
        if id.is_some_and(str::is_empty) {
            return Err(SessionCacheError::EmptyId);
        }
        let _ = self.sweep_sparing(now_ms, id).await;
        let Some(id) = id else {
            return self.create_minted(stamp, now_ms).await;
        };
        loop {
            // Hit, wait for the load in flight, or become the one load: one step.
            let next = self.with_state(|state| {
                if let Some(session) = bump(state, id, now_ms) {
                    Next::Hit(session)
                } else if state.pending.contains_key(id) {
                    Next::Wait
                } else {
                    state.mark_pending(id);
                    Next::Load
                }
            });
            match next {
                Next::Hit(session) => {
                    return Ok(Acquired {
                        session_id: id.to_owned(),
                        session,
                        how: Acquisition::Cached,
                    });
                }
                Next::Wait => self.wait_not_pending(id).await,
                Next::Load => break,
            }
        }
        let _guard = self.pending_guard(id.to_owned());
        let outcome = self
            .store
            .load(id, LoadPurpose::Resume)
            .await
            .map_err(SessionCacheError::Store)?;
        let (record, how) = match outcome {
            SessionLoadOutcome::Valid { record, .. } => {
                self.resume(*record, options, &stamp, now_ms).await?
            }
            SessionLoadOutcome::Missing if options.requires_existing() => {
                return Err(SessionCacheError::NotFound { id: id.to_owned() });
            }
            SessionLoadOutcome::Missing => {
                let record = self.fresh_record(id, &stamp);
                self.save(&record, ContentProvenance::Session).await?;
                (record, Acquisition::Created)
            }
            unreadable => {
                return Err(SessionCacheError::Unreadable {
                    id: id.to_owned(),
                    outcome: Box::new(unreadable),
                });
            }
        };
        let session = self.insert(record, now_ms, None);
        Ok(Acquired {
            session_id: id.to_owned(),
            session,
            how,
        })
    }

    fn touch(&self, id: &str, now_ms: u64) -> bool {
        self.hit(id, now_ms).is_some()
    }

    async fn release(&self, id: &str) -> Outcome<Released, R::Error> {
        if self.config.evict == EvictPolicy::Forget {
            return Ok(Released {
                was_cached: self.forget(id),
                history_deleted: false,
            });
        }
        // Wait out the operation in flight, then drop and mark pending in one step.
        let was_cached = loop {
            let forgotten = self.with_state(|state| {
                if state.pending.contains_key(id) {
                    return None;
                }
                let was_cached = state.entries.remove(id).is_some();
                state.mark_pending(id);
                Some(was_cached)
            });
            match forgotten {
                Some(was_cached) => break was_cached,
                None => self.wait_not_pending(id).await,
            }
        };
        let _guard = self.pending_guard(id.to_owned());
        self.store
            .delete(id)
            .await
            .map_err(SessionCacheError::Store)?;
        self.with_state(|state| state.owners.remove(id));
        Ok(Released {
            was_cached,
            history_deleted: true,
        })
    }

    fn forget(&self, id: &str) -> bool {
        self.with_state(|state| state.entries.remove(id).is_some())
    }

    fn pin(&self, id: &str) {
        self.with_state(|state| state.pinned.insert(id.to_owned()));
    }

    fn unpin(&self, id: &str) {
        self.with_state(|state| state.pinned.remove(id));
    }

    async fn sweep(&self, now_ms: u64) -> SweepReport<R::Error> {
        self.sweep_sparing(now_ms, None).await
    }

    fn note_task_run(&self, id: &str, task_id: &str, now_ms: u64) -> bool {
        self.with_state(|state| {
            let Some(entry) = state.entries.get_mut(id) else {
                return false;
            };
            entry.last_active_ms = entry.last_active_ms.max(now_ms);
            entry.last_task_id = Some(task_id.to_owned());
            true
        })
    }

    fn list(&self) -> Vec<SessionStoreSummary> {
        let mut summaries: Vec<SessionStoreSummary> = self.with_state(|state| {
            state
                .entries
                .iter()
                .map(|(id, entry)| SessionStoreSummary {
                    session_id: id.clone(),
                    created_at: Some(entry.created_at.clone()),
                    last_active_at: entry.last_active_ms,
                    last_task_id: entry.last_task_id.clone(),
                    forked_from: entry.forked_from.clone(),
                })
                .collect()
        });
        summaries.sort_by(|a, b| {
            b.last_active_at
                .cmp(&a.last_active_at)
                .then_with(|| a.session_id.cmp(&b.session_id))
        });
        summaries
    }

    fn len(&self) -> usize {
        self.with_state(|state| state.entries.len())
    }

    fn is_empty(&self) -> bool {
        self.with_state(|state| state.entries.is_empty())
    }

    async fn commit(&self, id: &str, now_ms: u64) -> Outcome<(), R::Error> {
        let handle = self
            .get(id)
            .ok_or_else(|| SessionCacheError::NotCached { id: id.to_owned() })?;
        // Until the save ends: a later commit of this session copies the record after it.
        let _turn = handle.0.committing.lock().await;
        let record = handle
            .try_with(InteractiveSessionRecord::clone)
            .map_err(|_| SessionCacheError::Busy { id: id.to_owned() })?;
        if record.id != id {
            return Err(SessionCacheError::IdChanged {
                id: id.to_owned(),
                record_id: record.id,
            });
        }
        self.save(&record, ContentProvenance::Session).await?;
        self.touch(id, now_ms);
        Ok(())
    }

    async fn fork(
        &self,
        source_id: &str,
        owner: ForkOwner,
        now_ms: u64,
    ) -> Outcome<Option<String>, R::Error> {
        let stamp =
            format_instant(now_ms).ok_or(SessionCacheError::InstantOutOfRange { now_ms })?;
        let mut record = match self
            .store
            .load(source_id, LoadPurpose::Probe)
            .await
            .map_err(SessionCacheError::Store)?
        {
            SessionLoadOutcome::Valid { record, .. } => *record,
            SessionLoadOutcome::Missing => return Ok(None),
            unreadable => {
                return Err(SessionCacheError::Unreadable {
                    id: source_id.to_owned(),
                    outcome: Box::new(unreadable),
                });
            }
        };
        let guard = self.mint_session_id()?;
        let id = guard.id.clone();
        self.probe_unused(&id).await?;
        id.clone_into(&mut record.id);
        stamp.clone_into(&mut record.created_at);
        record.updated_at = stamp;
        let row = fork_ownership(&self.owner_row(source_id), &owner);
        let wrote_row = match row {
            Some(registration) => self.with_state(|state| {
                if state.owners.contains_key(&id) {
                    false
                } else {
                    state.owners.insert(id.clone(), registration);
                    true
                }
            }),
            None => false,
        };
        match self.save(&record, ContentProvenance::Fork).await {
            Ok(()) => {}
            Err(refused @ SessionCacheError::SaveRefused { .. }) => {
                if wrote_row {
                    self.with_state(|state| state.owners.remove(&id));
                }
                return Err(refused);
            }
            Err(error) => return Err(error),
        }
        self.insert(record, now_ms, Some(source_id.to_owned()));
        Ok(Some(id))
    }

    async fn owner_of(&self, id: &str) -> OwnerRow {
        self.owner_row(id)
    }

    async fn register(&self, id: &str, registration: Registration) -> OwnerRow {
        self.with_state(|state| {
            let row = state.owners.entry(id.to_owned()).or_insert(registration);
            OwnerRow::of(row)
        })
    }

    fn evict_policy(&self) -> EvictPolicy {
        self.config.evict
    }

    fn durability(&self) -> Option<StoreDurability> {
        self.config.durability
    }

    fn retention(&self) -> Retention {
        SESSION_CACHE_RETENTION
    }
}

//! The TTL session cache itself ([`SessionCache`]), the handle it shares ([`SessionHandle`]) and
//! what its operations answer.

use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::{BorrowError, BorrowMutError, Ref, RefCell, RefMut};
use core::fmt;
use core::future::poll_fn;
use core::task::Poll;

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
/// callers see one session ([`same_session`](Self::same_session)). The host mutates the record
/// through it (appending the turn in flight, say) and makes the changes the committed history
/// with [`SessionCache::commit`]; until then they exist only in memory, and a fork never copies
/// them.
///
/// Single-threaded by design (`Rc<RefCell<…>>`): a multi-threaded host keeps the cache on one
/// task. The borrows follow `RefCell`'s rules; the `try_` forms never panic.
#[derive(Clone)]
pub struct SessionHandle(Rc<RefCell<InteractiveSessionRecord>>);

impl SessionHandle {
    fn new(record: InteractiveSessionRecord) -> Self {
        Self(Rc::new(RefCell::new(record)))
    }

    /// Reads the record. Panics if the host holds a mutable borrow (use
    /// [`try_record`](Self::try_record) to get an error instead).
    #[must_use]
    pub fn record(&self) -> Ref<'_, InteractiveSessionRecord> {
        self.0.borrow()
    }

    /// Reads the record, or an error while the host holds a mutable borrow.
    ///
    /// # Errors
    /// The record is borrowed mutably.
    pub fn try_record(&self) -> Result<Ref<'_, InteractiveSessionRecord>, BorrowError> {
        self.0.try_borrow()
    }

    /// Changes the record in memory (not committed until [`SessionCache::commit`]). Panics if
    /// the record is borrowed (use [`try_record_mut`](Self::try_record_mut) to get an error).
    #[must_use]
    pub fn record_mut(&self) -> RefMut<'_, InteractiveSessionRecord> {
        self.0.borrow_mut()
    }

    /// Changes the record in memory, or an error while it is borrowed.
    ///
    /// # Errors
    /// The record is borrowed.
    pub fn try_record_mut(&self) -> Result<RefMut<'_, InteractiveSessionRecord>, BorrowMutError> {
        self.0.try_borrow_mut()
    }

    /// True when both handles are the same live session (not merely equal records).
    #[must_use]
    pub fn same_session(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for SessionHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.try_borrow() {
            Ok(record) => f.debug_tuple("SessionHandle").field(&record.id).finish(),
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

/// A session handed out by [`SessionCache::acquire`] (`AcquiredSession`).
#[derive(Clone, Debug)]
pub struct Acquired {
    /// The session's id (minted when none was passed).
    pub session_id: String,
    /// The live session.
    pub session: SessionHandle,
    /// How it was obtained.
    pub how: Acquisition,
}

/// The options of [`SessionCache::acquire_with`].
#[derive(Clone, Copy, Debug, Default)]
pub struct AcquireOptions<'a> {
    /// Fail with `not_found` instead of creating a session the store does not hold.
    pub require_existing: bool,
    /// What the host knows about the interrupted run of a resumed session: tool effects, a
    /// suspended batch (never closed), the calls that had started.
    pub reconcile: ReconcileInputs<'a>,
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

    /// The same options, failing with `not_found` on a missing id.
    #[must_use]
    pub const fn require_existing(mut self) -> Self {
        self.require_existing = true;
        self
    }

    /// The same options with what the host knows about the interrupted run.
    #[must_use]
    pub const fn with_reconcile(mut self, reconcile: ReconcileInputs<'a>) -> Self {
        self.reconcile = reconcile;
        self
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

struct Entry {
    handle: SessionHandle,
    created_at: String,
    last_active_ms: u64,
    last_task_id: Option<String>,
    forked_from: Option<String>,
}

/// The ids with a store operation in flight, each with the acquires waiting on it. Past
/// `WAITERS` tasks on one id, registering wakes them all early; each checks again when polled.
type Pending = RefCell<BTreeMap<String, MultiWakerRegistration<WAITERS>>>;

const WAITERS: usize = 4;

/// Marks an id as having a store operation in flight; dropping it (on completion or when the
/// future is dropped) clears the mark and wakes every acquire that waited.
struct PendingGuard<'a> {
    pending: &'a Pending,
    id: String,
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        let wakers = match self.pending.try_borrow_mut() {
            Ok(mut pending) => pending.remove(&self.id),
            Err(_) => None,
        };
        if let Some(mut wakers) = wakers {
            wakers.wake();
        }
    }
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
pub struct SessionCache<R, I> {
    store: R,
    ids: RefCell<I>,
    config: SessionCacheConfig,
    entries: RefCell<BTreeMap<String, Entry>>,
    owners: RefCell<BTreeMap<String, Registration>>,
    pinned: RefCell<BTreeSet<String>>,
    pending: Pending,
}

impl<R, I> fmt::Debug for SessionCache<R, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionCache")
            .field("config", &self.config)
            .field(
                "cached",
                &self.entries.try_borrow().map(|entries| entries.len()).ok(),
            )
            .finish_non_exhaustive()
    }
}

impl<R: InteractiveSessionStore, I: IdSource> SessionCache<R, I> {
    /// A cache over `store`, minting ids from `ids`, behaving as `config` declares.
    #[must_use]
    pub fn new(store: R, ids: I, config: SessionCacheConfig) -> Self {
        Self {
            store,
            ids: RefCell::new(ids),
            config,
            entries: RefCell::new(BTreeMap::new()),
            owners: RefCell::new(BTreeMap::new()),
            pinned: RefCell::new(BTreeSet::new()),
            pending: RefCell::new(BTreeMap::new()),
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
    pub fn get(&self, id: &str) -> Option<SessionHandle> {
        self.entries
            .borrow()
            .get(id)
            .map(|entry| entry.handle.clone())
    }

    /// Acquires a session: [`acquire_with`](Self::acquire_with) with `require_existing` and no
    /// knowledge about an interrupted run (every tool counts as a write and no batch is
    /// suspended). A host with a suspended checkpoint batch must use `acquire_with` and name it,
    /// or its calls would be closed as interrupted.
    ///
    /// # Errors
    /// As [`acquire_with`](Self::acquire_with).
    pub async fn acquire(
        &self,
        id: Option<&str>,
        require_existing: bool,
        now_ms: u64,
    ) -> Outcome<Acquired, R::Error> {
        let options = AcquireOptions {
            require_existing,
            reconcile: ReconcileInputs::new(),
        };
        self.acquire_with(id, &options, now_ms).await
    }

    async fn resume(
        &self,
        mut record: InteractiveSessionRecord,
        options: &AcquireOptions<'_>,
        stamp: &str,
        now_ms: u64,
    ) -> Outcome<(InteractiveSessionRecord, Acquisition), R::Error> {
        let reconciliation =
            reconcile_interrupted_session(&record.messages, &options.reconcile, now_ms, |_| {
                self.ids.borrow_mut().mint(IdKind::Entry)
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

    async fn create_minted(&self, stamp: String, now_ms: u64) -> Outcome<Acquired, R::Error> {
        let id = self.mint_session_id()?;
        let _guard = self.begin_pending(&id);
        self.probe_unused(&id).await?;
        let record = self.fresh_record(&id, &stamp);
        self.save(&record, ContentProvenance::Session).await?;
        let session = self.insert(record, now_ms, None);
        Ok(Acquired {
            session_id: id,
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

    /// A minted session id that is non-empty and that the cache knows nothing about.
    fn mint_session_id(&self) -> Outcome<String, R::Error> {
        let id = self.ids.borrow_mut().mint(IdKind::Session);
        if id.is_empty() {
            return Err(SessionCacheError::EmptyId);
        }
        let known = self.entries.borrow().contains_key(&id)
            || self.owners.borrow().contains_key(&id)
            || self.is_pending(&id);
        if known {
            return Err(SessionCacheError::MintedIdTaken { id });
        }
        Ok(id)
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
    ) -> SessionHandle {
        let id = record.id.clone();
        let created_at = record.created_at.clone();
        let handle = SessionHandle::new(record);
        self.entries.borrow_mut().insert(
            id,
            Entry {
                handle: handle.clone(),
                created_at,
                last_active_ms: now_ms,
                last_task_id: None,
                forked_from,
            },
        );
        handle
    }

    /// The cached session `id` with its timer bumped.
    fn hit(&self, id: &str, now_ms: u64) -> Option<SessionHandle> {
        let mut entries = self.entries.borrow_mut();
        let entry = entries.get_mut(id)?;
        entry.last_active_ms = entry.last_active_ms.max(now_ms);
        Some(entry.handle.clone())
    }

    /// The ownership row of `id`, read without waiting (the port's `owner_of`).
    fn owner_row(&self, id: &str) -> OwnerRow {
        self.owners
            .borrow()
            .get(id)
            .map_or(OwnerRow::NoRow, OwnerRow::of)
    }

    fn is_pending(&self, id: &str) -> bool {
        self.pending.borrow().contains_key(id)
    }

    fn begin_pending(&self, id: &str) -> PendingGuard<'_> {
        self.pending
            .borrow_mut()
            .entry(id.to_owned())
            .or_insert_with(MultiWakerRegistration::new);
        PendingGuard {
            pending: &self.pending,
            id: id.to_owned(),
        }
    }

    /// Waits until no store operation on `id` is in flight. No executor is assumed: the waker
    /// of each waiting poll is kept and woken when the operation's guard drops.
    async fn wait_not_pending(&self, id: &str) {
        poll_fn(|cx| {
            let mut pending = self.pending.borrow_mut();
            match pending.get_mut(id) {
                Some(wakers) => {
                    wakers.register(cx.waker());
                    Poll::Pending
                }
                None => Poll::Ready(()),
            }
        })
        .await;
    }

    /// True when `id` is pinned.
    #[must_use]
    pub fn is_pinned(&self, id: &str) -> bool {
        self.pinned.borrow().contains(id)
    }

    async fn sweep_sparing(&self, now_ms: u64, spare: Option<&str>) -> SweepReport<R::Error> {
        let mut expired: Vec<(u64, String)> = {
            let pinned = self.pinned.borrow();
            self.entries
                .borrow()
                .iter()
                .filter(|(id, entry)| {
                    now_ms.saturating_sub(entry.last_active_ms) > self.config.ttl_ms
                        && !pinned.contains(id.as_str())
                        && spare != Some(id.as_str())
                })
                .map(|(id, entry)| (entry.last_active_ms, id.clone()))
                .collect()
        };
        if expired.is_empty() {
            return SweepReport::empty();
        }
        expired.sort();
        {
            let mut entries = self.entries.borrow_mut();
            for (_, id) in &expired {
                entries.remove(id);
            }
        }
        let mut report = SweepReport::empty();
        report.evicted = expired.into_iter().map(|(_, id)| id).collect();
        if self.config.evict == EvictPolicy::Delete {
            // Every evicted id is marked before the first await, so an acquire that comes in
            // meanwhile waits for the delete instead of resuming a record about to go.
            let guards: Vec<PendingGuard<'_>> = report
                .evicted
                .iter()
                .map(|id| self.begin_pending(id))
                .collect();
            for guard in guards {
                match self.store.delete(&guard.id).await {
                    Ok(()) => {
                        self.owners.borrow_mut().remove(&guard.id);
                    }
                    Err(error) => report.delete_failures.push((guard.id.clone(), error)),
                }
            }
        }
        report
    }
}

impl<R: InteractiveSessionStore, I: IdSource> SessionCachePort for SessionCache<R, I> {
    type StoreError = R::Error;

    async fn acquire_with(
        &self,
        id: Option<&str>,
        options: &AcquireOptions<'_>,
        now_ms: u64,
    ) -> Outcome<Acquired, R::Error> {
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
            if let Some(session) = self.hit(id, now_ms) {
                return Ok(Acquired {
                    session_id: id.to_owned(),
                    session,
                    how: Acquisition::Cached,
                });
            }
            if !self.is_pending(id) {
                break;
            }
            self.wait_not_pending(id).await;
        }
        let _guard = self.begin_pending(id);
        let outcome = self
            .store
            .load(id, LoadPurpose::Resume)
            .await
            .map_err(SessionCacheError::Store)?;
        let (record, how) = match outcome {
            SessionLoadOutcome::Valid { record, .. } => {
                self.resume(*record, options, &stamp, now_ms).await?
            }
            SessionLoadOutcome::Missing if options.require_existing => {
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
        while self.is_pending(id) {
            self.wait_not_pending(id).await;
        }
        let was_cached = self.forget(id);
        let _guard = self.begin_pending(id);
        self.store
            .delete(id)
            .await
            .map_err(SessionCacheError::Store)?;
        self.owners.borrow_mut().remove(id);
        Ok(Released {
            was_cached,
            history_deleted: true,
        })
    }

    fn forget(&self, id: &str) -> bool {
        self.entries.borrow_mut().remove(id).is_some()
    }

    fn pin(&self, id: &str) {
        self.pinned.borrow_mut().insert(id.to_owned());
    }

    fn unpin(&self, id: &str) {
        self.pinned.borrow_mut().remove(id);
    }

    async fn sweep(&self, now_ms: u64) -> SweepReport<R::Error> {
        self.sweep_sparing(now_ms, None).await
    }

    fn note_task_run(&self, id: &str, task_id: &str, now_ms: u64) -> bool {
        let mut entries = self.entries.borrow_mut();
        let Some(entry) = entries.get_mut(id) else {
            return false;
        };
        entry.last_active_ms = entry.last_active_ms.max(now_ms);
        entry.last_task_id = Some(task_id.to_owned());
        true
    }

    fn list(&self) -> Vec<SessionStoreSummary> {
        let mut summaries: Vec<SessionStoreSummary> = self
            .entries
            .borrow()
            .iter()
            .map(|(id, entry)| SessionStoreSummary {
                session_id: id.clone(),
                created_at: Some(entry.created_at.clone()),
                last_active_at: entry.last_active_ms,
                last_task_id: entry.last_task_id.clone(),
                forked_from: entry.forked_from.clone(),
            })
            .collect();
        summaries.sort_by(|a, b| {
            b.last_active_at
                .cmp(&a.last_active_at)
                .then_with(|| a.session_id.cmp(&b.session_id))
        });
        summaries
    }

    fn len(&self) -> usize {
        self.entries.borrow().len()
    }

    fn is_empty(&self) -> bool {
        self.entries.borrow().is_empty()
    }

    async fn commit(&self, id: &str, now_ms: u64) -> Outcome<(), R::Error> {
        let record = {
            let entries = self.entries.borrow();
            let entry = entries
                .get(id)
                .ok_or_else(|| SessionCacheError::NotCached { id: id.to_owned() })?;
            let record = entry
                .handle
                .try_record()
                .map_err(|_| SessionCacheError::Busy { id: id.to_owned() })?;
            record.clone()
        };
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
        let id = self.mint_session_id()?;
        let _guard = self.begin_pending(&id);
        self.probe_unused(&id).await?;
        id.clone_into(&mut record.id);
        stamp.clone_into(&mut record.created_at);
        record.updated_at = stamp;
        let row = fork_ownership(&self.owner_row(source_id), &owner);
        let wrote_row = match row {
            Some(registration) => {
                let mut owners = self.owners.borrow_mut();
                if owners.contains_key(&id) {
                    false
                } else {
                    owners.insert(id.clone(), registration);
                    true
                }
            }
            None => false,
        };
        match self.save(&record, ContentProvenance::Fork).await {
            Ok(()) => {}
            Err(refused @ SessionCacheError::SaveRefused { .. }) => {
                if wrote_row {
                    self.owners.borrow_mut().remove(&id);
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
        let mut owners = self.owners.borrow_mut();
        let row = owners.entry(id.to_owned()).or_insert(registration);
        OwnerRow::of(row)
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

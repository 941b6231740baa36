//! The session lifecycle port ([`SessionCachePort`]): what a runner depends on, implemented by
//! [`SessionCache`] and by any other backend that passes the conformance suite.

use alloc::string::String;
use alloc::vec::Vec;

use embassy_sync::blocking_mutex::raw::RawMutex;

use super::cache::{AcquireOptions, Acquired, Released, SweepReport};
#[cfg(doc)]
use super::cache::{Acquisition, SessionCache};
#[cfg(doc)]
use super::config::IdSource;
use super::config::{EvictPolicy, Retention, SessionStoreSummary, StoreDurability};
use super::error::SessionCacheError;
#[cfg(doc)]
use super::ownership::fork_ownership;
use super::ownership::{ForkOwner, OwnerRow, Registration};
#[cfg(doc)]
use crate::runtime::reconcile::reconcile_interrupted_session;

/// The session lifecycle and caching layer a runner depends on (`SessionStore`): acquire,
/// touch, release, forget, pin, sweep, task notes, listing, commit, fork, and the ownership
/// rows, with the durability, evict and retention declarations.
///
/// [`SessionCache`] is the implementation of this crate; the conformance suite
/// (`testing::run_session_cache_conformance`, feature `testing`) runs against any implementor,
/// so a host that writes its own (a database-backed session centre, say) checks it against the
/// same contract. It is the one API of the cache: [`SessionCache`] has no inherent method of
/// the same name, so bring the trait into scope to call them. No `Send` bound is forced.
#[allow(async_fn_in_trait)]
pub trait SessionCachePort {
    /// The error of the store underneath.
    type StoreError;
    /// The raw mutex behind the handles it hands out
    /// ([`SessionHandle`](super::SessionHandle)): embassy-sync's `NoopRawMutex` for one thread,
    /// a thread-safe one (`CriticalSectionRawMutex`) to share them across threads.
    type Lock: RawMutex;

    /// Gets the session `id` (or a new one under a minted id when `id` is `None`), resuming it
    /// from the store when it is not cached, or creating it.
    ///
    /// In order: an opportunistic [`sweep`](Self::sweep) at `now_ms` that spares `id` (acquiring
    /// it is activity; its delete failures are not reported here and leave history and rows in
    /// place); a cached `id` is returned (its idle timer bumped); an `id` another acquire is
    /// loading is waited for and then shared (one store load for both); otherwise the store is
    /// read with purpose `resume` (the claim-through-read):
    ///
    /// - `valid`: the transcript is reconciled ([`reconcile_interrupted_session`] with
    ///   [`options.reconcile()`](AcquireOptions::reconcile), entry ids from the [`IdSource`]);
    ///   when results were appended the record (`updatedAt` = now) is **saved back** before the
    ///   session is handed out, so the committed history never again holds those orphans and a
    ///   second wake changes nothing. [`Acquisition::Resumed`] reports what was recovered.
    /// - `missing`: when the options [require an existing
    ///   session](AcquireOptions::require_existing), [`SessionCacheError::NotFound`]; otherwise
    ///   a fresh record (`cwd` from the configuration, both timestamps now) is saved and cached.
    /// - `corrupt`, `unsupported`, `locked`: [`SessionCacheError::Unreadable`] with the outcome;
    ///   never a fresh session over it.
    ///
    /// A minted id is first probed (a read that leaves nothing behind) and must be missing.
    /// Acquire does not register an ownership row.
    ///
    /// # Errors
    /// See above; also [`SessionCacheError::Store`], [`SessionCacheError::SaveRefused`],
    /// [`SessionCacheError::Reconcile`], [`SessionCacheError::EmptyId`],
    /// [`SessionCacheError::MintedIdTaken`] and [`SessionCacheError::InstantOutOfRange`]. On an
    /// error nothing is cached.
    async fn acquire(
        &self,
        id: Option<&str>,
        options: AcquireOptions<'_>,
        now_ms: u64,
    ) -> Result<Acquired<Self::Lock>, SessionCacheError<Self::StoreError>>;
    /// Refreshes the idle timer of a cached session (`touch`); false when `id` is not cached.
    /// The timer never moves backwards.
    fn touch(&self, id: &str, now_ms: u64) -> bool;
    /// Drops `id` from the live set (`release`); under evict policy `delete` also deletes its
    /// history from the store, whether or not it was cached, and then its ownership row (only
    /// after the delete succeeded). A pin is left as it is; a pin does not protect against an
    /// explicit release.
    ///
    /// # Errors
    /// [`SessionCacheError::Store`] when the delete failed: the session is no longer cached, and
    /// the history and the row are kept.
    async fn release(&self, id: &str) -> Result<Released, SessionCacheError<Self::StoreError>>;
    /// Drops only the cached view of `id` (`forget`); true when it was cached.
    ///
    /// It **never** deletes history, whatever the evict policy: a later acquire re-opens the
    /// same history from the store. The ownership row and a pin stay. (On a process-local store
    /// under policy `delete` the store keeps one record per forgotten id until it is released or
    /// the process ends: the accepted price of never losing history by accident.)
    fn forget(&self, id: &str) -> bool;
    /// Pins `id` so no sweep evicts it while a checkpoint waits on it. A pin is kept by id,
    /// whether or not the session is cached now, and survives [`forget`](Self::forget).
    fn pin(&self, id: &str);
    /// Releases a pin; the session is evicted by idle sweeps again.
    fn unpin(&self, id: &str);
    /// Evicts every unpinned cached session idle for longer than the TTL at `now_ms`
    /// (`now_ms - last activity > ttl_ms`); under evict policy `delete` also deletes each from
    /// the store, and its ownership row after the delete succeeded. Returns what it evicted.
    async fn sweep(&self, now_ms: u64) -> SweepReport<Self::StoreError>;
    /// Notes that task `task_id` started on session `id` (`noteTaskRun`): it becomes the
    /// summary's `lastTaskId` and the idle timer is bumped. Best-effort: false and nothing else
    /// when `id` is not cached; it never fails.
    fn note_task_run(&self, id: &str, task_id: &str, now_ms: u64) -> bool;
    /// The cached sessions as summaries, newest-first by last activity (ties by id). Only the
    /// live cache is listed, never evicted or stored-only sessions.
    fn list(&self) -> Vec<SessionStoreSummary>;
    /// How many sessions are cached (`size`).
    fn len(&self) -> usize;
    /// True when no session is cached.
    fn is_empty(&self) -> bool;
    /// Saves the live record of `id` to the store: what the session holds now becomes its
    /// committed history (the version a fork copies and a resume restores). The idle timer is
    /// bumped. Commits of one session are ordered: a commit copies the record only after the
    /// session's previous commit has finished saving, so the store ends with the newest copy
    /// even when an earlier save is slower.
    ///
    /// # Errors
    /// [`SessionCacheError::NotCached`], [`SessionCacheError::Busy`] (polled from inside a
    /// mutable borrow of the record), [`SessionCacheError::IdChanged`] (the record's id was
    /// changed), [`SessionCacheError::SaveRefused`], [`SessionCacheError::Store`].
    async fn commit(
        &self,
        id: &str,
        now_ms: u64,
    ) -> Result<(), SessionCacheError<Self::StoreError>>;
    /// Forks `source_id` (`fork`): copies its **committed** history (the record the store
    /// holds, read with a probe, which claims nothing) into a new session under a minted id,
    /// saves it (purpose `run`, provenance `fork`), caches it (so acquiring the fork is a hit)
    /// and returns its id; `None` when the store holds no `source_id`.
    ///
    /// What the live source holds beyond its last [`commit`](Self::commit) (the turn in flight)
    /// is never copied. The copy's `createdAt` and `updatedAt` are now; every other member is
    /// the source's. The fork's ownership row follows [`fork_ownership`] and is written before
    /// the record, so the fork is never readable without it; it is taken back only when the
    /// store refused the save (nothing was written), and kept when the store failed (the save
    /// may have landed).
    ///
    /// # Errors
    /// [`SessionCacheError::Unreadable`] for a corrupt, unsupported or locked source (never
    /// "missing"), [`SessionCacheError::MintedIdTaken`] / [`SessionCacheError::EmptyId`] for a
    /// bad minted id, [`SessionCacheError::SaveRefused`], [`SessionCacheError::Store`],
    /// [`SessionCacheError::InstantOutOfRange`].
    async fn fork(
        &self,
        source_id: &str,
        owner: ForkOwner,
        now_ms: u64,
    ) -> Result<Option<String>, SessionCacheError<Self::StoreError>>;
    /// The ownership lookup (`ownerOf`), three states never collapsed. Rows are kept beside
    /// the cache: a forgotten or evicted-but-kept session keeps its row.
    async fn owner_of(&self, id: &str) -> OwnerRow;
    /// Registers the owner of `id` (`register`): first write wins, atomically (one synchronous
    /// map write). A later call neither overwrites nor fails. Returns the row in force after
    /// the call, so a losing caller sees the winner without a second read. Makes no
    /// authorization decision.
    async fn register(&self, id: &str, registration: Registration) -> OwnerRow;
    /// The evict policy in force.
    fn evict_policy(&self) -> EvictPolicy;
    /// The declared durability (`None`: nothing declared, read as process-local with
    /// [`StoreDurability::read`]).
    fn durability(&self) -> Option<StoreDurability>;
    /// The retention declaration: always `none`.
    fn retention(&self) -> Retention;
}

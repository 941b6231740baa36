//! The session lifecycle port ([`SessionCachePort`]): what a runner depends on, implemented by
//! [`SessionCache`] and by any other backend that passes the conformance suite.

use alloc::string::String;
use alloc::vec::Vec;

use crate::session::InteractiveSessionStore;

use super::cache::{AcquireOptions, Acquired, Released, SessionCache, SweepReport};
use super::config::{EvictPolicy, IdSource, Retention, SessionStoreSummary, StoreDurability};
use super::error::SessionCacheError;
use super::ownership::{ForkOwner, OwnerRow, Registration};

/// The session lifecycle and caching layer a runner depends on (`SessionStore`): acquire,
/// touch, release, forget, pin, sweep, task notes, listing, commit, fork, and the ownership
/// rows, with the durability, evict and retention declarations.
///
/// [`SessionCache`] is the implementation of this crate; the conformance suite
/// (`testing::run_session_cache_conformance`, feature `testing`) runs against any implementor,
/// so a host that writes its own (a database-backed session centre, say) checks it against the
/// same contract. Each member has the meaning of the `SessionCache` method of the same name.
/// No `Send` bound is forced.
#[allow(async_fn_in_trait)]
pub trait SessionCachePort {
    /// The error of the store underneath.
    type StoreError;

    /// See [`SessionCache::acquire_with`].
    async fn acquire_with(
        &self,
        id: Option<&str>,
        options: &AcquireOptions<'_>,
        now_ms: u64,
    ) -> Result<Acquired, SessionCacheError<Self::StoreError>>;
    /// See [`SessionCache::touch`].
    fn touch(&self, id: &str, now_ms: u64) -> bool;
    /// See [`SessionCache::release`].
    async fn release(&self, id: &str) -> Result<Released, SessionCacheError<Self::StoreError>>;
    /// See [`SessionCache::forget`]: never deletes history.
    fn forget(&self, id: &str) -> bool;
    /// See [`SessionCache::pin`].
    fn pin(&self, id: &str);
    /// See [`SessionCache::unpin`].
    fn unpin(&self, id: &str);
    /// See [`SessionCache::sweep`].
    async fn sweep(&self, now_ms: u64) -> SweepReport<Self::StoreError>;
    /// See [`SessionCache::note_task_run`].
    fn note_task_run(&self, id: &str, task_id: &str, now_ms: u64) -> bool;
    /// See [`SessionCache::list`].
    fn list(&self) -> Vec<SessionStoreSummary>;
    /// See [`SessionCache::len`].
    fn len(&self) -> usize;
    /// See [`SessionCache::is_empty`].
    fn is_empty(&self) -> bool;
    /// See [`SessionCache::commit`].
    async fn commit(
        &self,
        id: &str,
        now_ms: u64,
    ) -> Result<(), SessionCacheError<Self::StoreError>>;
    /// See [`SessionCache::fork`].
    async fn fork(
        &self,
        source_id: &str,
        owner: ForkOwner,
        now_ms: u64,
    ) -> Result<Option<String>, SessionCacheError<Self::StoreError>>;
    /// See [`SessionCache::owner_of`] (async: a durable backend reads its rows).
    async fn owner_of(&self, id: &str) -> OwnerRow;
    /// See [`SessionCache::register`] (async: a durable backend needs a real uniqueness write).
    async fn register(&self, id: &str, registration: Registration) -> OwnerRow;
    /// See [`SessionCache::evict_policy`].
    fn evict_policy(&self) -> EvictPolicy;
    /// See [`SessionCache::durability`].
    fn durability(&self) -> Option<StoreDurability>;
    /// See [`SessionCache::retention`].
    fn retention(&self) -> Retention;
}

impl<R: InteractiveSessionStore, I: IdSource> SessionCachePort for SessionCache<R, I> {
    type StoreError = R::Error;

    async fn acquire_with(
        &self,
        id: Option<&str>,
        options: &AcquireOptions<'_>,
        now_ms: u64,
    ) -> Result<Acquired, SessionCacheError<R::Error>> {
        Self::acquire_with(self, id, options, now_ms).await
    }

    fn touch(&self, id: &str, now_ms: u64) -> bool {
        Self::touch(self, id, now_ms)
    }

    async fn release(&self, id: &str) -> Result<Released, SessionCacheError<R::Error>> {
        Self::release(self, id).await
    }

    fn forget(&self, id: &str) -> bool {
        Self::forget(self, id)
    }

    fn pin(&self, id: &str) {
        Self::pin(self, id);
    }

    fn unpin(&self, id: &str) {
        Self::unpin(self, id);
    }

    async fn sweep(&self, now_ms: u64) -> SweepReport<R::Error> {
        Self::sweep(self, now_ms).await
    }

    fn note_task_run(&self, id: &str, task_id: &str, now_ms: u64) -> bool {
        Self::note_task_run(self, id, task_id, now_ms)
    }

    fn list(&self) -> Vec<SessionStoreSummary> {
        Self::list(self)
    }

    fn len(&self) -> usize {
        Self::len(self)
    }

    fn is_empty(&self) -> bool {
        Self::is_empty(self)
    }

    async fn commit(&self, id: &str, now_ms: u64) -> Result<(), SessionCacheError<R::Error>> {
        Self::commit(self, id, now_ms).await
    }

    async fn fork(
        &self,
        source_id: &str,
        owner: ForkOwner,
        now_ms: u64,
    ) -> Result<Option<String>, SessionCacheError<R::Error>> {
        Self::fork(self, source_id, owner, now_ms).await
    }

    async fn owner_of(&self, id: &str) -> OwnerRow {
        Self::owner_of(self, id)
    }

    async fn register(&self, id: &str, registration: Registration) -> OwnerRow {
        Self::register(self, id, registration)
    }

    fn evict_policy(&self) -> EvictPolicy {
        Self::evict_policy(self)
    }

    fn durability(&self) -> Option<StoreDurability> {
        Self::durability(self)
    }

    fn retention(&self) -> Retention {
        Self::retention(self)
    }
}

//! The TTL session cache (feature `session-cache`): live sessions cached over any session record
//! store, with fork, ownership rows and reconcile on wake; and the bounded-tail wake.
//!
//! [`SessionCache`] sits over the session family's store port
//! ([`InteractiveSessionStore`](crate::session::InteractiveSessionStore)), so the memory, file
//! and sealed record stores, or a host's own, all work under it. It is sans-IO: time comes in as
//! `now_ms` on every call that needs it, new ids from the host's [`IdSource`], and there is no
//! timer (a host that wants a background sweep calls [`SessionCache::sweep`] on its own clock).
//!
//! # The rules, and where each one lives
//!
//! - **Idle TTL** (default [`SESSION_DEFAULT_TTL_DAYS`] = 7 days): a sweep evicts every cached
//!   session idle for longer than the TTL; every acquire sweeps opportunistically. A
//!   **pinned** session (a checkpoint waits on it) is never evicted until unpinned.
//! - **Evict policy** ([`EvictPolicy`]): `delete` also removes the session from the store (the
//!   default for a process-local store) and `forget` drops only the cached view (the default
//!   for a custom store). It is declared in [`SessionCacheConfig`], never guessed from the
//!   store. [`SessionCache::forget`] never deletes history, whatever the policy.
//! - **Declarations**: durability ([`StoreDurability`]: `durable` / `process-local`; `None`
//!   declares nothing and reads as process-local) and retention ([`Retention`]: always
//!   `none`).
//! - **Acquire** ([`SessionCache::acquire`]): concurrent acquires of one id share one session
//!   and one store load (the second waits for the first through a pending set and wakers, with
//!   no executor assumed); an id not cached is read with purpose `resume` (the
//!   claim-through-read); `valid` resumes and **reconciles** interrupted tool calls
//!   ([`reconcile_interrupted_session`](crate::runtime::reconcile::reconcile_interrupted_session)),
//!   `missing` creates (or fails loudly with `not_found` under `require_existing`), and
//!   `corrupt`, `unsupported`, `locked` are typed errors carrying the outcome, never a fresh
//!   session over the damage.
//! - **Fork** ([`SessionCache::fork`]) copies the committed history into a new session under a
//!   minted id, or answers `None` for a missing source; the fork's ownership row is never
//!   weaker than the source's ([`fork_ownership`]).
//! - **Ownership rows** are three-state ([`OwnerRow`]: no row, anonymous, owned) and never
//!   collapsed; [`SessionCache::register`] is first-write-wins and atomic; a row outlives its
//!   cache entry and is removed only after the store's delete succeeded.
//! - **Listing** ([`SessionCache::list`]): summaries newest-first by last activity, with the
//!   last noted task run.
//! - **Bounded tail** ([`bounded_tail`]): the tail of a branch from the latest compaction's
//!   first kept entry, pure, one scan, no allocation.
//!
//! # Decisions where the seed is silent
//!
//! - **The live value is the record.** A cached session is an [`SessionHandle`], a shared
//!   `Rc<RefCell<InteractiveSessionRecord>>`: every acquire of the id hands out the same one.
//! - **"Committed" is "saved".** The committed history of a session is the record its store
//!   holds: what the last save through the cache ([`SessionCache::commit`], the creation, or
//!   the reconcile on wake) wrote. A fork reads the source from the store with purpose `probe`
//!   (which claims nothing), so whatever the live handle holds beyond its last commit, the turn
//!   in flight, is never copied. A source that is not cached can be forked too.
//! - **Created sessions are saved at once** (purpose `run`, provenance `session`), so the store
//!   knows every session the cache hands out and a fork or a later resume finds it. Its `cwd`
//!   comes from the configuration, both timestamps are `now`.
//! - **The reconcile on wake is saved back** before the session is handed out, when it appended
//!   anything: the committed history then never again holds those orphans, a second wake
//!   changes nothing, and a fork right after a wake copies closed calls. If the save is refused
//!   or fails, the acquire fails and nothing is cached (the next acquire reconciles again, with
//!   the same outcome). The reconcile inputs (tool effects, a suspended batch that must never
//!   be closed, the calls that had started) come with [`AcquireOptions`]; plain
//!   [`SessionCache::acquire`] knows none of them.
//! - **Minted ids are checked.** An id the host's source mints for a new session must be
//!   non-empty, unknown to the cache (cached, loading or with an ownership row) and missing from
//!   the store (a probe), or the operation fails with a typed error and creates nothing: a
//!   repeated id never resumes or overwrites another session.
//! - **An acquire spares its own id from its opportunistic sweep**: acquiring is activity. The
//!   sweep's store-delete failures are not reported by the acquire (the history and row stay).
//! - **Idle means strictly longer than the TTL**: a session last active at `t` is evicted by a
//!   sweep at `now > t + ttl`. A timer never moves backwards (an older `now` does not make a
//!   session look idle).
//! - **`release`** under policy `delete` deletes the stored history whether or not the session
//!   is cached (so a forgotten session on a process-local store can still be reclaimed), and a
//!   pin does not stop an explicit release. Under `forget` it is the same as `forget`.
//! - **Ownership rows in fork.** The row is written before the record and taken back only when
//!   the store refused the save; on a store failure it is kept (the save may have landed, and a
//!   row must never die before its session). Acquire and create write no row: claiming is the
//!   authorizer's act, through [`SessionCache::register`].
//! - **`register` returns the row in force** after the call: the read-back the contract asks a
//!   caller to make, in the same atomic step.
//! - **`forkedFrom`** is kept in the cache entry only (the record has no lineage member), so it
//!   is listed while the fork stays cached and not after a resume from the store.
//! - **The port.** [`SessionCachePort`] is the trait a runner depends on and the conformance
//!   suite ([`testing`], feature `testing`) runs against; `SessionCache` implements it.

mod cache;
mod config;
mod error;
mod ownership;
mod port;
mod tail;

#[cfg(feature = "testing")]
pub mod testing;

pub use cache::{
    AcquireOptions, Acquired, Acquisition, Released, SessionCache, SessionHandle, SweepReport,
};
pub use config::{
    EvictPolicy, IdKind, IdSource, Retention, SESSION_CACHE_RETENTION, SESSION_DEFAULT_TTL_DAYS,
    SESSION_DEFAULT_TTL_MS, SessionCacheConfig, SessionStoreSummary, StoreDurability,
};
pub use error::SessionCacheError;
pub use ownership::{BlankPrincipal, ForkOwner, OwnerRow, Principal, Registration, fork_ownership};
pub use port::SessionCachePort;
pub use tail::{BoundedTail, TreeEntry, bounded_tail};

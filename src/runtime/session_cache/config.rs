//! The cache's declarations and settings: evict policy, durability, retention, TTL, the id
//! source, and the summary a listing returns.

use alloc::string::String;

/// The default idle TTL, in days (`SESSION_DEFAULT_TTL_DAYS`).
pub const SESSION_DEFAULT_TTL_DAYS: u64 = 7;

/// The default idle TTL in milliseconds (7 days).
pub const SESSION_DEFAULT_TTL_MS: u64 = SESSION_DEFAULT_TTL_DAYS * 86_400_000;

string_enum! {
    /// What idle eviction and `release` do to the store underneath (`EvictPolicy`).
    pub enum EvictPolicy {
        /// Also remove the session from the store: right for a throwaway, process-local store.
        Delete = "delete",
        /// Only drop the cached view; the store keeps the history so it can be resumed later
        /// (a durable backend runs its own retention).
        Forget = "forget",
    }
}

string_enum! {
    /// Whether the sessions a store accepts survive a process restart (`StoreDurability`).
    ///
    /// That is the whole claim: coordination between replicas is a separate property this does
    /// not license. The value is declared by whoever wired the store, never sniffed; a missing
    /// declaration (`None`) is read fail-closed as [`ProcessLocal`](Self::ProcessLocal).
    pub enum StoreDurability {
        /// Sessions survive a restart.
        Durable = "durable",
        /// Sessions live only as long as this process.
        ProcessLocal = "process-local",
    }
}

impl StoreDurability {
    /// How a reader takes a declaration: a missing one is process-local (under-promise, never
    /// over-promise).
    #[must_use]
    pub const fn read(declared: Option<Self>) -> Self {
        match declared {
            Some(durability) => durability,
            None => Self::ProcessLocal,
        }
    }
}

string_enum! {
    /// The managed-retention declaration of the cache: there is no scheduled-deletion contract
    /// on any arm (idle eviction is cache management, not retention), so it is honestly `none`,
    /// and a deployment that requires managed retention refuses to start over this cache.
    pub enum Retention {
        /// No managed retention.
        None = "none",
    }
}

/// The retention every [`SessionCache`](super::SessionCache) declares.
pub const SESSION_CACHE_RETENTION: Retention = Retention::None;

/// What an id is minted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum IdKind {
    /// A new session (`acquire` without an id, or a fork).
    Session,
    /// The entry (message) id of a synthetic tool result appended when a resumed session is
    /// reconciled.
    Entry,
}

/// Where the cache gets new ids: the host's, since the crate reads no entropy.
///
/// Any `FnMut(IdKind) -> String` closure is one. A minted id must be non-empty and unused; the
/// cache refuses (with a typed error, nothing changed) a session id it already knows or the
/// store already holds, and the reconcile step refuses an entry id the transcript already has.
pub trait IdSource {
    /// A fresh id for `kind`.
    fn mint(&mut self, kind: IdKind) -> String;
}

impl<F: FnMut(IdKind) -> String> IdSource for F {
    fn mint(&mut self, kind: IdKind) -> String {
        self(kind)
    }
}

/// How a [`SessionCache`](super::SessionCache) behaves: idle TTL, evict policy, durability
/// declaration, and the working directory of sessions it creates.
///
/// There is no default evict policy without a declaration of the store: build it with
/// [`for_process_local_store`](Self::for_process_local_store) (evict `delete`, declares
/// `process-local`) or [`for_custom_store`](Self::for_custom_store) (evict `forget`, declares
/// what the caller passes), then adjust. The cache never inspects the store to decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionCacheConfig {
    /// Idle time after which an unpinned session is evicted by a sweep (strictly longer idle
    /// than this), in milliseconds.
    pub ttl_ms: u64,
    /// What eviction and `release` do to the store.
    pub evict: EvictPolicy,
    /// The store's declared durability; `None` declares nothing (read as process-local).
    pub durability: Option<StoreDurability>,
    /// The `cwd` of the records of sessions the cache creates.
    pub cwd: String,
}

impl SessionCacheConfig {
    /// For a store the cache's builder knows to be process-local (the in-memory store): evict
    /// policy `delete`, durability declared `process-local`, TTL 7 days.
    #[must_use]
    pub fn for_process_local_store(cwd: impl Into<String>) -> Self {
        Self {
            ttl_ms: SESSION_DEFAULT_TTL_MS,
            evict: EvictPolicy::Delete,
            durability: Some(StoreDurability::ProcessLocal),
            cwd: cwd.into(),
        }
    }

    /// For any other store: evict policy `forget` (a durable store never loses history on an
    /// idle timer), durability as the deployment declares it (`None` = nothing declared), TTL
    /// 7 days.
    #[must_use]
    pub fn for_custom_store(cwd: impl Into<String>, durability: Option<StoreDurability>) -> Self {
        Self {
            ttl_ms: SESSION_DEFAULT_TTL_MS,
            evict: EvictPolicy::Forget,
            durability,
            cwd: cwd.into(),
        }
    }

    /// The same configuration with another idle TTL.
    #[must_use]
    pub fn with_ttl_ms(mut self, ttl_ms: u64) -> Self {
        self.ttl_ms = ttl_ms;
        self
    }

    /// The same configuration with another evict policy.
    #[must_use]
    pub fn with_evict(mut self, evict: EvictPolicy) -> Self {
        self.evict = evict;
        self
    }
}

/// A read-only projection of one cached session for a "recent sessions" list
/// (`SessionStoreSummary`); [`SessionCache::list`](super::SessionCachePort::list) returns them
/// newest-first by `lastActiveAt`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SessionStoreSummary {
    /// The session id.
    pub session_id: String,
    /// When the session was created (the record's `createdAt` as the cache got it).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub created_at: Option<String>,
    /// Epoch milliseconds of the last acquire, touch, commit or noted task run: the sort key.
    pub last_active_at: u64,
    /// The most recent task run noted on the session.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub last_task_id: Option<String>,
    /// The session this one was forked from, when this cache forked it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub forked_from: Option<String>,
}

impl SessionStoreSummary {
    /// The summary of `session_id`, last active at `last_active_at` (epoch milliseconds), with
    /// no creation time, task run or fork source known.
    #[must_use]
    pub fn new(session_id: impl Into<String>, last_active_at: u64) -> Self {
        Self {
            session_id: session_id.into(),
            created_at: None,
            last_active_at,
            last_task_id: None,
            forked_from: None,
        }
    }
}

optional_setters!(SessionStoreSummary {
    with_created_at => created_at: impl Into<String>,
    with_last_task_id => last_task_id: impl Into<String>,
    with_forked_from => forked_from: impl Into<String>,
});

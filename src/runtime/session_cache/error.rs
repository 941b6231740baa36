//! Why a cache operation failed ([`SessionCacheError`]).

use alloc::boxed::Box;
use alloc::string::String;

use crate::runtime::reconcile::ReconcileError;
use crate::session::records::{SaveRefusal, SessionLoadOutcome};

/// Why a cache operation failed. `E` is the store's error (a failure to reach the storage).
///
/// Every refusal leaves the cache, the ownership rows and the store as they were, except where a
/// variant says otherwise.
#[derive(Debug, thiserror::Error)]
pub enum SessionCacheError<E> {
    /// The store's call returned an error: it could not be reached, or it refused the call
    /// (a record store refuses an id it cannot hold with its `InvalidId`). The store's own
    /// error says which.
    #[error("the session store refused the call or failed: {0}")]
    Store(#[source] E),
    /// `acquire` with `require_existing` met an id the store does not hold (`not_found`): no
    /// session was created.
    #[error("session `{id}` not found (not_found)")]
    NotFound {
        /// The id asked for.
        id: String,
    },
    /// The store holds something under the id that is not a readable session (corrupt,
    /// unsupported or locked). It is never treated as absent: no fresh session is made over it.
    #[error("session `{id}` is stored but unreadable ({})", outcome.status())]
    Unreadable {
        /// The id asked for.
        id: String,
        /// What the store's load concluded (boxed: outcomes are large).
        outcome: Box<SessionLoadOutcome>,
    },
    /// The store refused to save the record (another writer, or an unreadable record in the
    /// way); nothing was cached.
    #[error("the store refused to save session `{id}` ({reason})")]
    SaveRefused {
        /// The id of the record.
        id: String,
        /// Why the store refused.
        reason: SaveRefusal,
    },
    /// An id passed in, or minted by the host's id source, is empty.
    #[error("a session id is empty")]
    EmptyId,
    /// The host's id source minted a session id the cache or the store already knows; nothing
    /// was created under it.
    #[error("the minted session id `{id}` is already in use")]
    MintedIdTaken {
        /// The minted id.
        id: String,
    },
    /// Reconciling the resumed session's transcript was refused (an ambiguous transcript, or a
    /// bad minted entry id); the session was not cached and nothing was saved.
    #[error("session `{id}` could not be reconciled on wake: {error}")]
    Reconcile {
        /// The session id.
        id: String,
        /// Why reconciling refused.
        #[source]
        error: ReconcileError,
    },
    /// `now_ms` lies after year 9999, beyond what a record's ISO-8601 timestamps can say.
    #[error("now ({now_ms} ms since the epoch) is after the year 9999")]
    InstantOutOfRange {
        /// The instant passed.
        now_ms: u64,
    },
    /// The session is not in the cache (for an operation that needs the live record).
    #[error("session `{id}` is not cached")]
    NotCached {
        /// The id.
        id: String,
    },
    /// The live record is borrowed mutably by the host right now (the commit runs inside a
    /// `with_mut` closure on the same session), so the cache cannot read it.
    #[error("session `{id}` is borrowed mutably")]
    Busy {
        /// The id.
        id: String,
    },
    /// The live record's `id` was changed by the host; the cache will not save it under
    /// another id.
    #[error("session `{id}` now carries the id `{record_id}`; it is not saved")]
    IdChanged {
        /// The id the session is cached under.
        id: String,
        /// The id the record now carries.
        record_id: String,
    },
}

impl<E> SessionCacheError<E> {
    /// The contract's `not_found`: true only for [`NotFound`](Self::NotFound).
    #[must_use]
    pub const fn is_not_found(&self) -> bool {
        matches!(self, Self::NotFound { .. })
    }

    /// The load outcome of an [`Unreadable`](Self::Unreadable) error.
    #[must_use]
    pub fn unreadable_outcome(&self) -> Option<&SessionLoadOutcome> {
        match self {
            Self::Unreadable { outcome, .. } => Some(outcome),
            _ => None,
        }
    }
}

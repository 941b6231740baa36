//! Why a cache operation failed ([`SessionCacheError`]).

use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;

use crate::runtime::reconcile::ReconcileError;
use crate::session::{SaveRefusal, SessionLoadOutcome};

/// Why a cache operation failed. `E` is the store's error (a failure to reach the storage).
///
/// Every refusal leaves the cache, the ownership rows and the store as they were, except where a
/// variant says otherwise.
#[derive(Debug)]
pub enum SessionCacheError<E> {
    /// The store could not be reached.
    Store(E),
    /// `acquire` with `require_existing` met an id the store does not hold (`not_found`): no
    /// session was created.
    NotFound {
        /// The id asked for.
        id: String,
    },
    /// The store holds something under the id that is not a readable session (corrupt,
    /// unsupported or locked). It is never treated as absent: no fresh session is made over it.
    Unreadable {
        /// The id asked for.
        id: String,
        /// What the store's load concluded (boxed: outcomes are large).
        outcome: Box<SessionLoadOutcome>,
    },
    /// The store refused to save the record (another writer, or an unreadable record in the
    /// way); nothing was cached.
    SaveRefused {
        /// The id of the record.
        id: String,
        /// Why the store refused.
        reason: SaveRefusal,
    },
    /// An id passed in, or minted by the host's id source, is empty.
    EmptyId,
    /// The host's id source minted a session id the cache or the store already knows; nothing
    /// was created under it.
    MintedIdTaken {
        /// The minted id.
        id: String,
    },
    /// Reconciling the resumed session's transcript was refused (an ambiguous transcript, or a
    /// bad minted entry id); the session was not cached and nothing was saved.
    Reconcile {
        /// The session id.
        id: String,
        /// Why reconciling refused.
        error: ReconcileError,
    },
    /// `now_ms` lies after year 9999, beyond what a record's ISO-8601 timestamps can say.
    InstantOutOfRange {
        /// The instant passed.
        now_ms: u64,
    },
    /// The session is not in the cache (for an operation that needs the live record).
    NotCached {
        /// The id.
        id: String,
    },
    /// The live record is borrowed mutably by the host right now, so the cache cannot read it.
    Busy {
        /// The id.
        id: String,
    },
    /// The live record's `id` was changed by the host; the cache will not save it under
    /// another id.
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

impl<E: fmt::Display> fmt::Display for SessionCacheError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Store(error) => write!(f, "the session store failed: {error}"),
            Self::NotFound { id } => write!(f, "session `{id}` not found (not_found)"),
            Self::Unreadable { id, outcome } => write!(
                f,
                "session `{id}` is stored but unreadable ({})",
                outcome.status()
            ),
            Self::SaveRefused { id, reason } => {
                write!(f, "the store refused to save session `{id}` ({reason})")
            }
            Self::EmptyId => f.write_str("a session id is empty"),
            Self::MintedIdTaken { id } => {
                write!(f, "the minted session id `{id}` is already in use")
            }
            Self::Reconcile { id, error } => {
                write!(f, "session `{id}` could not be reconciled on wake: {error}")
            }
            Self::InstantOutOfRange { now_ms } => write!(
                f,
                "now ({now_ms} ms since the epoch) is after the year 9999"
            ),
            Self::NotCached { id } => write!(f, "session `{id}` is not cached"),
            Self::Busy { id } => write!(f, "session `{id}` is borrowed mutably"),
            Self::IdChanged { id, record_id } => write!(
                f,
                "session `{id}` now carries the id `{record_id}`; it is not saved"
            ),
        }
    }
}

impl<E: core::error::Error + 'static> core::error::Error for SessionCacheError<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Store(error) => Some(error),
            Self::Reconcile { error, .. } => Some(error),
            _ => None,
        }
    }
}

//! The store port, its typed refusals, the pure write decision every backend shares, and the
//! in-memory store.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::convert::Infallible;
use core::fmt;
use core::num::NonZeroU64;

use embassy_sync::blocking_mutex::Mutex;
use embassy_sync::blocking_mutex::raw::{NoopRawMutex, RawMutex};

use super::loosen::{LoosenReason, loosen_reasons};
use super::rules::{
    SessionPermissionRules, SessionRulesRecord, StoredSessionRules, normalize_rules,
};

/// Options of one write (`PutRulesOptions`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
#[non_exhaustive]
pub struct PutRulesOptions {
    /// Compare-and-set: refuse the write with [`SessionPolicyError::Conflict`] unless the
    /// stored revision is this one. `Some(0)` expects no stored rules (create only); `None`
    /// skips the check.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub expected_rev: Option<u64>,
    /// When true the write may loosen the rules. The crate has no roles and never decides who
    /// is an operator: the caller sets this only from a verified, role-checked principal. A
    /// write without it is tighten-only.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "core::ops::Not::not")
    )]
    pub operator: bool,
}

impl PutRulesOptions {
    /// A tighten-only write that expects revision `rev` (`0`: no stored rules).
    #[must_use]
    pub const fn expecting(rev: u64) -> Self {
        Self {
            expected_rev: Some(rev),
            operator: false,
        }
    }

    /// The same options, marked as an operator's write (may loosen).
    #[must_use]
    pub const fn as_operator(self) -> Self {
        Self {
            operator: true,
            ..self
        }
    }
}

string_enum! {
    /// The code of a [`SessionPolicyError`].
    pub enum SessionPolicyErrorCode {
        /// A stale `expectedRev`.
        Conflict = "conflict",
        /// A non-operator write tried to loosen the rules.
        LoosenForbidden = "loosen_forbidden",
    }
}

/// A refused write (`SessionPolicyError`): nothing was stored. The wire form is tagged on
/// `code`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "code",
        rename_all = "snake_case",
        rename_all_fields = "camelCase",
        deny_unknown_fields
    )
)]
#[non_exhaustive]
pub enum SessionPolicyError {
    /// The stored revision is not the expected one (another writer got there first, or the
    /// record does not exist, or does). Re-read, re-decide, retry.
    #[error("conflict: the write expected rev {expected_rev}, the stored rev is {current_rev}")]
    Conflict {
        /// The revision the write expected (`0`: none stored).
        expected_rev: u64,
        /// The revision stored when the write was refused (`0`: none stored).
        current_rev: u64,
    },
    /// A non-operator write loosens the rules in force.
    #[error(
        "loosen_forbidden: a non-operator write may only tighten the rules{}",
        Reasons(reasons)
    )]
    LoosenForbidden {
        /// Every way it loosens ([`loosen_reasons`]); never empty when the crate refuses.
        reasons: Vec<LoosenReason>,
    },
}

impl SessionPolicyError {
    /// The error's code.
    #[must_use]
    pub const fn code(&self) -> SessionPolicyErrorCode {
        match self {
            Self::Conflict { .. } => SessionPolicyErrorCode::Conflict,
            Self::LoosenForbidden { .. } => SessionPolicyErrorCode::LoosenForbidden,
        }
    }
}

/// The reasons of a [`LoosenForbidden`](SessionPolicyError::LoosenForbidden), as it prints
/// them: nothing, or `: ` and the reasons separated by `; `.
struct Reasons<'a>(&'a [LoosenReason]);

impl fmt::Display for Reasons<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, reason) in self.0.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            write!(f, "{reason}")?;
        }
        Ok(())
    }
}

/// Why [`SessionPolicyStore::put_rules`] failed: refused by the rules of the port, or the
/// backend could not be reached.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PutRulesError<E> {
    /// The write was refused ([`SessionPolicyError`]); nothing was stored.
    #[error("{0}")]
    Refused(#[from] SessionPolicyError),
    /// The backend failed; whether the write landed is the backend's to say.
    #[error("policy store backend failed: {0}")]
    Backend(#[source] E),
}

impl<E> PutRulesError<E> {
    /// The refusal, if the write was refused.
    #[must_use]
    pub const fn refusal(&self) -> Option<&SessionPolicyError> {
        match self {
            Self::Refused(refusal) => Some(refusal),
            Self::Backend(_) => None,
        }
    }
}

/// The write decision (`putRules` without the storage): what a write of `rules` with
/// `options` stores over `current`, or why it is refused.
///
/// In order: the rules are normalised ([`normalize_rules`]); a stale `expectedRev` is a
/// [`Conflict`](SessionPolicyError::Conflict) (checked first, since the writer decided
/// against rules it did not see); a non-operator write that loosens `current` (no stored
/// rules impose nothing, so a first write never loosens) is
/// [`LoosenForbidden`](SessionPolicyError::LoosenForbidden); otherwise the result carries the
/// next revision, `current + 1` or 1. A record at revision `u64::MAX` can take no further write
/// and answers `Conflict`.
///
/// Every backend runs its writes through this function, so all share the in-memory store's
/// semantics exactly: a durable backend reads the current row, calls `decide_put`, and
/// stores the result only if the row is still at the revision it read (a compare-and-set in
/// its `WHERE` clause), answering `Conflict` when it is not.
///
/// # Errors
/// The refusal; nothing may be stored.
pub fn decide_put(
    current: Option<&StoredSessionRules>,
    rules: SessionPermissionRules,
    options: PutRulesOptions,
) -> Result<StoredSessionRules, SessionPolicyError> {
    let rules = normalize_rules(rules);
    let current_rev = current.map_or(0, StoredSessionRules::rev);
    if let Some(expected_rev) = options.expected_rev
        && expected_rev != current_rev
    {
        return Err(SessionPolicyError::Conflict {
            expected_rev,
            current_rev,
        });
    }
    if !options.operator
        && let Some(current) = current
    {
        let reasons = loosen_reasons(&current.rules, &rules);
        if !reasons.is_empty() {
            return Err(SessionPolicyError::LoosenForbidden { reasons });
        }
    }
    let rev = current_rev.checked_add(1).and_then(NonZeroU64::new).ok_or(
        SessionPolicyError::Conflict {
            expected_rev: options.expected_rev.unwrap_or(current_rev),
            current_rev,
        },
    )?;
    Ok(StoredSessionRules { rev, rules })
}

/// The port a deployment implements for durable per-session rules (`SessionPolicyStore`),
/// keyed on (session id, principal), where principal `None` is the session-wide default.
///
/// It is async because a durable, cross-replica backend (a database) needs it; the in-memory
/// store answers at once. No `Send` bound is forced: wasm and embedded hosts are
/// single-threaded, and a multi-threaded host adds the bound on its own wrapper.
///
/// Contract (the conformance suite, `runtime::policy::testing`, checks every point):
/// - `get_rules` returns the rules stored under exactly that key (no fallback from a principal
///   to the session default), or `None`.
/// - `put_rules` behaves as [`decide_put`] over the stored record, atomically: two writers
///   with the same `expected_rev` never both succeed. Revisions start at 1 and grow by one.
/// - `list_by_session` returns every (principal, rules) record of the session, in no promised
///   order, and nothing of other sessions.
/// - `delete_by_session` removes every record of the session and nothing else; deleting a
///   session with no records succeeds. A key written after a delete starts again at revision 1.
/// - Only a failure to reach the storage is `Self::Error`; a refused write is a
///   [`PutRulesError::Refused`].
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design (see above).
pub trait SessionPolicyStore {
    /// A failure to reach the storage; `Infallible` for the in-memory store.
    type Error: core::error::Error;

    /// The rules stored for (`session_id`, `principal`), if any (`getRules`).
    async fn get_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
    ) -> Result<Option<StoredSessionRules>, Self::Error>;

    /// Writes the rules for (`session_id`, `principal`) (`putRules`); see [`decide_put`].
    /// Returns what was stored, with its new revision.
    async fn put_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
        rules: SessionPermissionRules,
        options: PutRulesOptions,
    ) -> Result<StoredSessionRules, PutRulesError<Self::Error>>;

    /// Every (principal, rules) record of `session_id` (`listBySession`), for exporting a whole
    /// session's policy; an importer replays each with an operator write.
    async fn list_by_session(
        &self,
        session_id: &str,
    ) -> Result<Vec<SessionRulesRecord>, Self::Error>;

    /// Removes every record of `session_id` (`deleteBySession`), so an overwritten session
    /// keeps none of the abandoned branch's rules. Idempotent.
    async fn delete_by_session(&self, session_id: &str) -> Result<(), Self::Error>;
}

/// The records of one session.
#[derive(Debug, Default)]
struct SessionRecords {
    default: Option<StoredSessionRules>,
    principals: BTreeMap<String, StoredSessionRules>,
}

impl SessionRecords {
    fn slot(&self, principal: Option<&str>) -> Option<&StoredSessionRules> {
        match principal {
            None => self.default.as_ref(),
            Some(principal) => self.principals.get(principal),
        }
    }
}

/// The in-process store (`InMemorySessionPolicyStore`): single replica, nothing survives the
/// process. The reference semantics every durable backend must match.
///
/// Each call is one section under the raw mutex `L` that holds no `await` and runs no caller
/// code, so a read-check-write is atomic. With [`NoopRawMutex`] (the default, from
/// [`new`](InMemorySessionPolicyStore::new)) the store is for one thread or one executor;
/// with [`CriticalSectionRawMutex`](crate::agent_core::CriticalSectionRawMutex)
/// (from [`with_lock`](Self::with_lock)) it is `Send + Sync` and its futures are `Send`, for a
/// multi-threaded server. `list_by_session` returns the session default first, then principals
/// in byte order.
pub struct InMemorySessionPolicyStore<L: RawMutex = NoopRawMutex> {
    sessions: Mutex<L, RefCell<BTreeMap<String, SessionRecords>>>,
}

impl InMemorySessionPolicyStore {
    /// An empty single-threaded store ([`NoopRawMutex`]); see [`with_lock`](Self::with_lock).
    #[must_use]
    pub const fn new() -> Self {
        Self::with_lock()
    }
}

impl Default for InMemorySessionPolicyStore {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: RawMutex> fmt::Debug for InMemorySessionPolicyStore<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sessions = self.with_sessions(|sessions| sessions.len());
        f.debug_struct("InMemorySessionPolicyStore")
            .field("sessions", &sessions)
            .finish()
    }
}

impl<L: RawMutex> InMemorySessionPolicyStore<L> {
    /// An empty store guarded by the raw mutex `L` (name it:
    /// `InMemorySessionPolicyStore::<CriticalSectionRawMutex>::with_lock()`).
    #[must_use]
    pub const fn with_lock() -> Self {
        Self {
            sessions: Mutex::new(RefCell::new(BTreeMap::new())),
        }
    }

    /// Runs `f` on the sessions under the lock (never across an `await`).
    fn with_sessions<T>(&self, f: impl FnOnce(&mut BTreeMap<String, SessionRecords>) -> T) -> T {
        self.sessions.lock(|sessions| f(&mut sessions.borrow_mut()))
    }

    /// The rules stored for a key, without a future (the same answer as `get_rules`).
    #[must_use]
    pub fn get(&self, session_id: &str, principal: Option<&str>) -> Option<StoredSessionRules> {
        self.with_sessions(|sessions| {
            sessions
                .get(session_id)
                .and_then(|records| records.slot(principal))
                .cloned()
        })
    }

    /// Writes a key, without a future (the same answer as `put_rules`).
    ///
    /// # Errors
    /// The refusal of [`decide_put`]; nothing was stored.
    pub fn put(
        &self,
        session_id: &str,
        principal: Option<&str>,
        rules: SessionPermissionRules,
        options: PutRulesOptions,
    ) -> Result<StoredSessionRules, SessionPolicyError> {
        self.with_sessions(|sessions| {
            let current = sessions
                .get(session_id)
                .and_then(|records| records.slot(principal));
            let stored = decide_put(current, rules, options)?;
            let records = sessions.entry(String::from(session_id)).or_default();
            match principal {
                None => records.default = Some(stored.clone()),
                Some(principal) => {
                    records
                        .principals
                        .insert(String::from(principal), stored.clone());
                }
            }
            Ok(stored)
        })
    }

    /// Every record of a session, without a future (the same answer as `list_by_session`).
    #[must_use]
    pub fn list(&self, session_id: &str) -> Vec<SessionRulesRecord> {
        self.with_sessions(|sessions| {
            let Some(records) = sessions.get(session_id) else {
                return Vec::new();
            };
            let default = records.default.iter().map(|rules| SessionRulesRecord {
                principal: None,
                rules: rules.clone(),
            });
            let principals =
                records
                    .principals
                    .iter()
                    .map(|(principal, rules)| SessionRulesRecord {
                        principal: Some(principal.clone()),
                        rules: rules.clone(),
                    });
            default.chain(principals).collect()
        })
    }

    /// Removes every record of a session, without a future (the same as
    /// `delete_by_session`).
    pub fn delete(&self, session_id: &str) {
        self.with_sessions(|sessions| sessions.remove(session_id));
    }
}

impl<L: RawMutex> SessionPolicyStore for InMemorySessionPolicyStore<L> {
    type Error = Infallible;

    async fn get_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
    ) -> Result<Option<StoredSessionRules>, Infallible> {
        Ok(self.get(session_id, principal))
    }

    async fn put_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
        rules: SessionPermissionRules,
        options: PutRulesOptions,
    ) -> Result<StoredSessionRules, PutRulesError<Infallible>> {
        Ok(self.put(session_id, principal, rules, options)?)
    }

    async fn list_by_session(
        &self,
        session_id: &str,
    ) -> Result<Vec<SessionRulesRecord>, Infallible> {
        Ok(self.list(session_id))
    }

    async fn delete_by_session(&self, session_id: &str) -> Result<(), Infallible> {
        self.delete(session_id);
        Ok(())
    }
}

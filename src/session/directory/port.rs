//! The session directory port (`ISessionDirectory`): list, switch, start, rename and delete the
//! sessions of a host that holds several, and the event a switched client hears.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;

#[cfg(doc)]
use super::refusal::SessionChangeRefusalCode;
use super::refusal::{SessionChangeRefusal, SessionDeleteRefusal};
use super::summary::SessionListing;

/// One client's view of a host that holds one session among several and can change which
/// (`ISessionDirectory`). A switch made through this view moves only this client's binding.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionDirectory {
    /// The sessions this client can switch to (`listSessions()`); its `current_session_id` is
    /// the session this client's binding is on.
    fn list_sessions(&self) -> SessionListing;

    /// Makes the stored session `session_id` the current one for this client
    /// (`switchSession`). Refused, for example, with
    /// [`PromptPending`](SessionChangeRefusalCode::PromptPending) when leaving would strand a
    /// waiting prompt (see [`switch_away_refusal`](super::switch_away_refusal)), or
    /// [`UnknownSession`](SessionChangeRefusalCode::UnknownSession).
    async fn switch_session(&self, session_id: &str) -> Result<(), SessionChangeRefusal>;

    /// Starts a fresh session and makes it current (`newSession`); it is saved at once, so it
    /// is listed. An existing session of this workspace with no messages and no other client on
    /// it is reused instead, so empty sessions do not pile up.
    async fn new_session(&self) -> Result<(), SessionChangeRefusal>;

    /// Writes a new name onto a stored session that is not live (`renameSession`). Refused for a
    /// live session, current or not, because its next save would overwrite a rename made only on
    /// disk (the live session renames itself through its own command instead).
    async fn rename_session(
        &self,
        session_id: &str,
        name: &str,
    ) -> Result<(), SessionChangeRefusal>;

    /// Removes a stored session's record for good (`deleteSession`). Refused with
    /// `live_elsewhere` when another client is on it and with `running` while it runs a turn.
    /// Deleting the current session first moves this binding to another session (an existing
    /// one, or a fresh or reused empty one), so the binding never points at nothing.
    async fn delete_session(&self, session_id: &str) -> Result<(), SessionDeleteRefusal>;
}

/// The current session of one client changed (`ISessionSwitchedEvent`, the `session_switched`
/// event payload): only the switched client hears it, and it re-reads what it shows.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SessionSwitchedEvent {
    /// The session the client is on now.
    pub session_id: String,
}

impl SessionSwitchedEvent {
    /// A [`SessionSwitchedEvent`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(session_id: impl Into<String>) -> Self {
        Self {
            session_id: session_id.into(),
        }
    }
}

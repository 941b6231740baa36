//! One client's hold on a host that keeps several sessions live (`session-binding-contracts`):
//! the role a binding has, the binding (session handle, own directory view, release), the binder
//! that hands bindings out, and the switch-away rule as a pure function.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use super::port::SessionDirectory;
use super::refusal::SessionChangeRefusalCode;

string_enum! {
    /// What a binding may do (`TSessionBindingRole`). The difference matters when a binding
    /// leaves: a prompt waiting on the session needs a driver left to answer it.
    pub enum SessionBindingRole {
        /// Submits turns and answers prompts.
        Drive = "drive",
        /// Only watches.
        Observe = "observe",
    }
}

/// One client's hold on a session (`ISessionBinding<S>`).
pub trait SessionBinding<S> {
    /// This client's own view of the directory.
    type Directory: SessionDirectory;

    /// The session this client is on: a handle that stays the same across this client's
    /// switches, its calls reaching whichever session is current.
    fn session(&self) -> &S;

    /// This client's directory: its listing's `current_session_id` is the session this binding
    /// is on, and a switch through it moves this binding alone.
    fn directory(&self) -> &Self::Directory;

    /// The client has gone (`release()`). A session nobody is bound to may then be shut down
    /// once it is idle. Consumes the binding.
    fn release(self)
    where
        Self: Sized;
}

/// Hands each client connection a binding of its own (`ISessionBinder<S>`), so one client's
/// switch never moves another client.
pub trait SessionBinder<S> {
    /// The binding this binder hands out.
    type Binding: SessionBinding<S>;

    /// A new binding with this role (`bind(role)`).
    fn bind(&self, role: SessionBindingRole) -> Self::Binding;
}

/// What the switch-away rule looks at when a binding asks to leave its current session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SwitchAwayState {
    /// The leaving binding's role.
    pub role: SessionBindingRole,
    /// How many other `drive` bindings are on the same session (this one not counted).
    pub other_drivers: u32,
    /// True when a permission or ask prompt on the session waits for an answer.
    pub prompt_pending: bool,
    /// True when the session is running a turn. Never a reason to refuse on its own: leaving a
    /// busy session is allowed. Carried so a caller passes what it knows and the rule visibly
    /// ignores it.
    pub turn_running: bool,
}

impl SwitchAwayState {
    /// True when the leaving binding drives and no other driver stays on the session.
    #[must_use]
    pub const fn is_last_driver(&self) -> bool {
        matches!(self.role, SessionBindingRole::Drive) && self.other_drivers == 0
    }
}

/// The switch-away rule: `Some(PromptPending)` when this binding is the last driver of its
/// session and a prompt there waits for an answer (leaving would strand it), `None` (the switch
/// may go ahead) otherwise. A running turn alone never refuses.
///
/// Applies to every way of leaving the current session: a switch, a new session, and a delete
/// of the current session (which switches away first).
#[must_use]
pub const fn switch_away_refusal(state: &SwitchAwayState) -> Option<SessionChangeRefusalCode> {
    if state.is_last_driver() && state.prompt_pending {
        Some(SessionChangeRefusalCode::PromptPending)
    } else {
        None
    }
}

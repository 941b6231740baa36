//! Several sessions behind one host: listings, the directory port, per-client bindings, and the
//! session change and delete refusals with their exact code lists.
//!
//! # Guarantees
//!
//! - A refusal is an outcome to report to the client that asked, told apart from a failure by
//!   [`is_session_change_refusal`] and [`is_session_delete_refusal`]; its code is one of
//!   [`SESSION_CHANGE_REFUSAL_CODES`] or [`SESSION_DELETE_REFUSAL_CODES`].
//! - The last driver may not leave while a prompt waits; a busy session alone is no reason
//!   ([`switch_away_refusal`]).
//!
//! # Example
//!
//! ```
//! use agent_interface::session::directory::{
//!     SessionBindingRole, SessionChangeRefusalCode, SwitchAwayState, switch_away_refusal,
//! };
//!
//! let leaving = SwitchAwayState {
//!     role: SessionBindingRole::Drive,
//!     other_drivers: 0,
//!     prompt_pending: true,
//!     turn_running: true,
//! };
//! assert_eq!(switch_away_refusal(&leaving), Some(SessionChangeRefusalCode::PromptPending));
//! ```

mod binding;
mod port;
mod refusal;
mod summary;

pub use binding::{
    SessionBinder, SessionBinding, SessionBindingRole, SwitchAwayState, switch_away_refusal,
};
pub use port::{SessionDirectory, SessionSwitchedEvent};
pub use refusal::{
    SESSION_CHANGE_REFUSAL_CODES, SESSION_DELETE_REFUSAL_CODES, SessionChangeRefusal,
    SessionChangeRefusalCode, SessionDeleteRefusal, SessionDeleteRefusalCode,
    as_session_change_refusal, as_session_delete_refusal, is_session_change_refusal,
    is_session_delete_refusal,
};
pub use summary::{ResumableSessionSummary, SessionListing, SessionListingEntry};

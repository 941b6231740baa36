//! Turn identity and what a turn ends in: the id minted at acceptance, the submit options and
//! refusals, the handle a caller awaits, and the three ways a turn completes.
//!
//! # Guarantees
//!
//! - A turn id is minted when the turn is accepted and kept while it is queued.
//! - A completion is an [`ExecutionResult`], an interrupted [`PartialExecutionResult`] (local
//!   history only: it cannot become an answer), or a turn-not-run outcome ([`TurnNotRun`]) with
//!   exactly three reasons (`coalesced`, `dropped`, `cancelled`), told apart from a failure inside
//!   the turn by [`TurnError::is_turn_not_run`].
//! - A turn's [`TurnSource`] is attribution, not proof of admission; a peer turn without a driver
//!   id is refused ([`default_driver_id`] names none for it: the admitting host does).
//!
//! # Example
//!
//! ```
//! use agent_interface::session::turns::{
//!     AGENT_DRIVER_ID, OWNER_DRIVER_ID, TurnNotRunReason, TurnSource, default_driver_id,
//! };
//!
//! assert_eq!(default_driver_id(Some(TurnSource::User)), Some(OWNER_DRIVER_ID));
//! assert_eq!(default_driver_id(Some(TurnSource::AgentWakeup)), Some(AGENT_DRIVER_ID));
//! assert_eq!(default_driver_id(Some(TurnSource::Peer)), None); // the admitting host names it
//! assert_eq!(TurnNotRunReason::Coalesced.as_str(), "coalesced");
//! ```

mod execution_result;
mod turn;

pub use execution_result::{ExecutionResult, PartialExecutionResult, TurnOutcome};
pub use turn::{
    AGENT_DRIVER_ID, DriverId, OWNER_DRIVER_ID, PeerTurnContext, SessionRenamedEvent,
    SubmitOptions, SubmitRefusal, ToolSummary, TurnCompletion, TurnError, TurnHandle, TurnNotRun,
    TurnNotRunReason, TurnSource, UiIntentEvent, default_driver_id, is_turn_not_run,
};

//! Self-paced loops: a loop's state as the session record keeps it, the pure machine that moves
//! it ([`next_loop_state`]), and the rule that stops "the" waiting loop ([`stop_waiting_loop`]).
//!
//! # Guarantees
//!
//! - A loop is one enum of phases ([`SessionLoopStatus`]) moved by a pure transition function.
//! - A stale wake after a resume is refused, and a refused transition changes nothing.
//! - A delay lies in 60..=3600 seconds; [`LoopDelay`] cannot hold another.
//!
//! # Example
//!
//! ```
//! use agent_interface::session::loops::{LoopDelay, SessionLoopPhase};
//!
//! assert_eq!(LoopDelay::new(90).map(LoopDelay::seconds), Ok(90));
//! assert!(LoopDelay::new(30).is_err());
//! assert!(SessionLoopPhase::Expired.is_terminal());
//! ```

mod state;

pub use state::{
    LoopDelay, LoopDelayOutOfRange, LoopInput, LoopInputKind, LoopRefusal, SessionLoopPhase,
    SessionLoopState, SessionLoopStatus, WaitingLoopStopOutcome, next_loop_state,
    stop_waiting_loop,
};

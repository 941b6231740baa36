//! The co-drive turn queue (feature `turn-queue`): several drivers submit, one turn runs at a
//! time, and every submission's ticket settles exactly once.
//!
//! It implements the reference co-drive queue behind the session family's turn contracts. A
//! [`TurnQueue`] is generic over embassy-sync's `RawMutex` `M`, the input `T`, the result `R`,
//! the driver `D` and the depth `N` ([`REFERENCE_DEPTH`] = 32), and is sans-IO: no clock, no
//! spawning, no executor.
//!
//! # When to call what
//!
//! - Submitters: [`TurnQueue::submit`] mints the [`TurnId`] and returns a [`TurnTicket`] to
//!   await. A new input from the driver of the newest pending one replaces it (that one settles
//!   `coalesced`); with `N` pending it settles `dropped` and
//!   [`TurnTicket::take_dropped_input`] hands the input back. A host that holds more than `N`
//!   settled tickets unread uses up the slots their outcomes wait in: then `submit` refuses with
//!   [`NotAccepted::UnreadTickets`] (read or drop tickets to free them).
//! - The host's runner: [`next_turn`](TurnQueue::next_turn) awaits the next turn (no spinning;
//!   `None` once shut down), or [`start`](TurnQueue::start) takes the oldest pending submission
//!   at once; then
//!   [`finish`](TurnQueue::finish) ([`Settled::Complete`]) or [`abort`](TurnQueue::abort)
//!   ([`Settled::Interrupted`], partial result for local history only) names its id.
//! - [`clear`](TurnQueue::clear) settles every pending submission `cancelled` and reports the
//!   drivers ([`Cleared`]); [`shutdown`](TurnQueue::shutdown) clears, then refuses every
//!   submission with [`NotAccepted::ShutDown`].
//! - Into the session family: [`NotRun`] → `session::turns::TurnNotRun`, a `Settled` →
//!   `session::turns::TurnCompletion`, [`TurnTicket::into_turn_handle`] → `session::turns::TurnHandle`.
//!
//! # Guarantees
//!
//! - **Every ticket settles exactly once** (complete, interrupted, coalesced, dropped or
//!   cancelled) and then answers [`AlreadyRead`] at once, never a second outcome; the
//!   operation that settles a pending ticket wakes it, after releasing the lock. A running turn is never cancelled, coalesced or dropped.
//! - **No allocation**: storage is inline (`N` pending entries, `2N + 1` slots); only the
//!   conversions into the session family allocate (the id text).
//! - **O(1)** submit, start, finish, abort, poll and drop; `clear` and `shutdown` are O(N).
//! - **Short locks**: one critical section per operation; inside it the state is borrowed only
//!   by code that runs no user code. `D`'s `PartialEq` (comparing with the newest pending
//!   driver, lent out of the state) and `Waker::clone` run between two borrows; drops and wakes
//!   happen after the lock.
//! - **Re-entry is refused, never a panic**: a user callback that calls back into the queue (a
//!   driver's `PartialEq`, a waker's `clone`, `wake` or `drop`, an input's or result's `Drop`)
//!   finds it usable. Only what would touch the entry whose driver is being compared is refused,
//!   typed: [`NotAccepted::Reentered`], [`NotStarted::Reentered`], [`Reentered`] from `clear`
//!   and `shutdown`; a runner's `next_turn` is woken to poll again.
//! - **No panics on misuse, no unsafe code, no `Send` bound**: typed refusals [`NotAccepted`],
//!   [`NotStarted`], [`NotRunning`], [`Reentered`].
//!
//! # Which mutex
//!
//! `NoopRawMutex` for one executor on one thread, `CriticalSectionRawMutex` to share the queue
//! across threads or with interrupts: both are re-exported here and from
//! [`agent_core`](crate::agent_core#which-mutex-threads-interrupts-and-critical-section), which
//! says what each needs.
//!
//! # Example
//!
//! ```
//! use agent_interface::runtime::turn_queue::{NoopRawMutex, Settled, TurnQueue};
//! use agent_interface::session::turns::TurnNotRunReason::{Cancelled, Coalesced};
//!
//! // Inputs are texts, results lengths, drivers names; two may wait.
//! let queue: TurnQueue<NoopRawMutex, &str, usize, &str, 2> = TurnQueue::new();
//! let mut first = queue.submit("fix the bug", "owner").unwrap();
//! let mut typo = queue.submit("also run tsets", "phone").unwrap();
//! let mut fixed = queue.submit("also run tests", "phone").unwrap(); // replaces `typo`
//! let reason = |s: Option<Settled<usize>>| s.and_then(|s| s.not_run()).map(|n| n.reason);
//! assert_eq!(reason(typo.try_settled().unwrap()), Some(Coalesced));
//!
//! let turn = queue.start().unwrap(); // the runner: one turn at a time
//! queue.finish(turn.id, turn.input.len()).unwrap();
//! assert_eq!(first.try_settled(), Ok(Some(Settled::Complete(11))));
//! assert!(first.try_settled().is_err()); // read once: `AlreadyRead` from now on
//! queue.shutdown().unwrap();
//! assert_eq!(reason(fixed.try_settled().unwrap()), Some(Cancelled));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/turn-queue.md`.

mod cleared;
mod outcome;
mod pending;
mod queue;
mod refusal;
mod session_types;
mod slot;
mod state;
mod ticket;
mod turn_id;

// The locks this piece is generic over (embassy-sync's, from `agent_core`): a host's imports
// name this one module.
#[doc(no_inline)]
pub use crate::agent_core::{CriticalSectionRawMutex, NoopRawMutex, RawMutex};
pub use cleared::Cleared;
pub use outcome::{NotRun, Settled, Started};
pub use queue::{REFERENCE_DEPTH, TurnQueue};
pub use refusal::{AlreadyRead, NotAccepted, NotRunning, NotStarted, Reentered};
pub use ticket::{TicketCompletion, TurnTicket};
pub use turn_id::TurnId;

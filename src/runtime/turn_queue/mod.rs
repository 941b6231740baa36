//! The co-drive turn queue (`turn-queue`): several drivers submit, one turn runs at a time, and
//! every submission's ticket settles exactly once.
//!
//! A [`TurnQueue`] is generic over embassy-sync's `RawMutex` `M`, the input `T`, the result `R`,
//! the driver `D` and the depth `N` ([`REFERENCE_DEPTH`] = 32). It is sans-IO: it reads no clock,
//! spawns nothing and needs no executor. Submitters call [`TurnQueue::submit`] and await the
//! [`TurnTicket`]; the host's runner drives the turns with [`TurnQueue::start`],
//! [`TurnQueue::finish`], [`TurnQueue::abort`], [`TurnQueue::clear`] and
//! [`TurnQueue::shutdown`].
//!
//! # The rules (the reference co-drive queue)
//!
//! - **Identity.** `submit` mints the [`TurnId`] when it accepts the submission (every
//!   submission except one after shutdown), and the id stays with it while it waits, runs and
//!   settles.
//! - **Coalescing.** If the newest pending submission is from the same driver (`D: PartialEq`),
//!   the new input replaces it in place (keeping its position) and the replaced submission
//!   settles `coalesced`. Only the newest pending entry coalesces; the running turn never does.
//!   This is the rule of catalog behaviour 15 (same driver is enough); the newest TypeScript
//!   revision also requires the same `wakeTaskId`, which a host gets by making `D` the pair
//!   (driver, wake task).
//! - **Capacity.** Otherwise, with `N` submissions pending, the new one settles `dropped` at once
//!   (the coalesce check runs first). Its ticket hands the input back
//!   ([`TurnTicket::take_dropped_input`]).
//! - **Clearing.** [`clear`](TurnQueue::clear) settles every pending submission `cancelled`,
//!   oldest first, and reports the distinct drivers it cleared ([`Cleared`]).
//!   [`shutdown`](TurnQueue::shutdown) clears through the same path (so it reports `cancelled`;
//!   there is no shutdown reason) and then refuses every submission with [`ShutDown`], handing the
//!   input back.
//! - **Running.** [`start`](TurnQueue::start) takes the oldest pending submission when nothing
//!   runs; [`finish`](TurnQueue::finish) settles it [`Settled::Complete`] and
//!   [`abort`](TurnQueue::abort) settles it [`Settled::Interrupted`] with its partial result (for
//!   local history only). Both name the turn's id and refuse, handing the result back, when it is
//!   not the running turn. A running turn is never cancelled, coalesced or dropped.
//!
//! # Guarantees
//!
//! - **Every ticket settles, exactly once**, with exactly one of: `Complete`/`Interrupted` (when
//!   the runner finishes or aborts it), `NotRun` `coalesced` (at the submit that replaced it),
//!   `dropped` (at its own submit), `cancelled` (at the clear or shutdown that removed it). After
//!   its outcome a ticket is terminated and never yields another. The seeded operation-sequence
//!   test of `tests/suites/turn_queue.rs` checks this against a reference model.
//! - **Waking.** A pending ticket registers its task's waker; the operation that settles it wakes
//!   it, after releasing the lock.
//! - **No allocation.** The queue holds its storage inline: a ring of `N` pending entries and
//!   `2N + 1` slots where tickets wait and outcomes are parked. `submit`, `start`, `finish`,
//!   `abort`, `clear`, `shutdown`, polling and dropping tickets never allocate, on a full queue
//!   too (`tests/turn_queue_alloc.rs` counts). Only the conversions into the session family
//!   (`TurnNotRun`, `TurnHandle`, `TurnCompletion`) allocate, because those hold a `String` id.
//! - **Cost.** `submit`, `start`, `finish`, `abort`, a ticket's poll and drop are O(1) (plus one
//!   `D` comparison). `clear` and `shutdown` are O(N) under the lock and O(N·k) after it to find
//!   the k distinct drivers.
//! - **Slots.** `N` pending chains and one running turn use `N + 1` slots; the other `N` park
//!   outcomes that live tickets have not read yet. A coalesced ticket needs no slot (it learns its
//!   outcome from its chain's slot having moved on). Only when every slot is in use, which takes
//!   more than `N` settled outcomes sitting unread in live tickets, is a submission dropped with
//!   fewer than `N` pending. A dropped ticket (`drop(ticket)`) never blocks anything and gives its
//!   slot back as soon as its submission settles.
//! - **Locking.** Each operation is one short critical section of `M`. Inside it runs no user code
//!   but `D`'s `PartialEq` (and `Waker::clone`/`will_wake`), which must not call back into the
//!   queue. Inputs, results, drivers and wakers are dropped or woken after the lock is released.
//! - **No panics on misuse, no unsafe code, no `Send` bound.** Misuse returns typed refusals:
//!   [`ShutDown`], [`NotStarted`], [`NotRunning`].
//!
//! # Session family
//!
//! [`NotRun`] converts into `session::TurnNotRun`; a `Settled<ExecutionResult>` or
//! `Settled<Result<ExecutionResult, E>>` into `session::TurnCompletion<E>`; and
//! [`TurnTicket::into_turn_handle`] gives a `session::TurnHandle` whose completion resolves with
//! a `TurnCompletion<E>`. These allocate the id text.
//!
//! # Example
//!
//! ```
//! use agent_interface::runtime::turn_queue::{Settled, TurnQueue};
//! use agent_interface::session::TurnNotRunReason::{Cancelled, Coalesced, Dropped};
//! use embassy_sync::blocking_mutex::raw::NoopRawMutex;
//!
//! // Inputs are texts, results lengths, drivers names; two may wait.
//! let queue: TurnQueue<NoopRawMutex, &str, usize, &str, 2> = TurnQueue::new();
//! let mut first = queue.submit("fix the bug", "owner").unwrap();
//! let mut typo = queue.submit("also run tsets", "phone").unwrap();
//! let mut fixed = queue.submit("also run tests", "phone").unwrap(); // replaces `typo`
//! let mut late = queue.submit("lint", "owner").unwrap(); // two are waiting already
//!
//! let reason = |s: Option<Settled<usize>>| s.and_then(|s| s.not_run()).map(|n| n.reason);
//! assert_eq!(reason(typo.try_settled()), Some(Coalesced));
//! assert_eq!(reason(late.try_settled()), Some(Dropped));
//! assert_eq!(late.take_dropped_input(), Some("lint"));
//!
//! // The runner: one turn at a time.
//! let turn = queue.start().unwrap();
//! assert_eq!((turn.id, turn.input, turn.driver), (first.id(), "fix the bug", "owner"));
//! queue.finish(turn.id, turn.input.len()).unwrap();
//! assert_eq!(first.try_settled(), Some(Settled::Complete(11)));
//!
//! let cleared = queue.shutdown();
//! assert_eq!(cleared.drivers().copied().collect::<Vec<_>>(), ["phone"]);
//! assert_eq!(reason(fixed.try_settled()), Some(Cancelled));
//! assert!(queue.submit("hello?", "owner").is_err());
//! ```

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

pub use cleared::Cleared;
pub use outcome::{NotRun, Settled, Started};
pub use queue::{REFERENCE_DEPTH, TurnQueue};
pub use refusal::{NotRunning, NotStarted, ShutDown};
pub use ticket::{TicketCompletion, TurnTicket};
pub use turn_id::TurnId;

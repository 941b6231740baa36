//! The queue itself: the public operations, each one short critical section over [`State`].

use core::cell::RefCell;
use core::fmt;
use core::task::Waker;

use embassy_sync::blocking_mutex::Mutex;
use embassy_sync::blocking_mutex::raw::RawMutex;
use heapless::Vec;

use super::cleared::Cleared;
use super::outcome::Started;
use super::refusal::{NotAccepted, NotRunning, NotStarted};
use super::state::{Admission, Claim, Settle, State};
use super::ticket::TurnTicket;
use super::turn_id::TurnId;

/// The reference co-drive queue depth (`MAX_PENDING_QUEUE_DEPTH`): 32 pending submissions.
pub const REFERENCE_DEPTH: usize = 32;

/// A co-drive turn queue: several drivers submit, one turn runs at a time.
///
/// - `M`: the embassy-sync raw mutex guarding the state (`CriticalSectionRawMutex` to share it
///   with interrupts or threads, `NoopRawMutex` on one executor).
/// - `T`: a submission's input; `R`: a turn's result; `D`: the driver a submission is
///   attributed to (compared with `PartialEq` for coalescing; a small `Copy` value such as an
///   index or a `&'static str` keeps the queue allocation-free).
/// - `N`: how many submissions may be pending ([`REFERENCE_DEPTH`] is the reference).
///
/// The submitting side calls [`submit`](Self::submit) and awaits the [`TurnTicket`]. The running
/// side is sans-IO: [`start`](Self::start) takes the next pending submission when nothing runs,
/// [`finish`](Self::finish) or [`abort`](Self::abort) settles it, [`clear`](Self::clear) cancels
/// everything pending and [`shutdown`](Self::shutdown) clears and closes. The queue needs no
/// executor and spawns nothing. See the [module documentation](super) for the rules and the
/// guarantees.
pub struct TurnQueue<M: RawMutex, T, R, D, const N: usize> {
    state: Mutex<M, RefCell<State<T, R, D, N>>>,
}

impl<M: RawMutex, T, R, D, const N: usize> TurnQueue<M, T, R, D, N> {
    /// An empty, open queue whose first turn id is 1. `const`, so it can live in a `static`.
    #[must_use]
    pub const fn new() -> Self {
        Self::with_first_id(1)
    }

    /// An empty, open queue whose first turn id is `first` (for a host that runs several queues
    /// and wants their ids apart). Ids then count up from `first` and never wrap: once `u64::MAX`
    /// has been minted, [`submit`](Self::submit) refuses with
    /// [`NotAccepted::IdsExhausted`].
    #[must_use]
    pub const fn with_first_id(first: u64) -> Self {
        Self {
            state: Mutex::new(RefCell::new(State::new(first))),
        }
    }

    /// How many submissions may be pending: `N`.
    #[must_use]
    pub const fn depth(&self) -> usize {
        N
    }

    /// Runs `f` on the state under the lock. No user code runs inside but `D: PartialEq` and
    /// `Waker::clone`/`will_wake`; they must not call back into this queue.
    fn with<U>(&self, f: impl FnOnce(&mut State<T, R, D, N>) -> U) -> U {
        self.state.lock(|state| f(&mut state.borrow_mut()))
    }

    /// How many submissions are pending (not counting the running turn).
    #[must_use]
    pub fn pending(&self) -> usize {
        self.with(|state| state.pending_len())
    }

    /// The running turn, if any.
    #[must_use]
    pub fn running(&self) -> Option<TurnId> {
        self.with(|state| state.running())
    }

    /// True after [`shutdown`](Self::shutdown).
    #[must_use]
    pub fn is_shut_down(&self) -> bool {
        self.with(|state| !state.is_open())
    }

    /// Submits `input` from `driver`. O(1); allocates nothing.
    ///
    /// The submission is accepted (its id minted, the ticket returned) unless the queue is shut
    /// down. Then, in this order:
    /// 1. if the newest pending submission is `driver`'s (`PartialEq`), this input replaces it in
    ///    place and the replaced submission's ticket settles
    ///    [`coalesced`](crate::session::turns::TurnNotRunReason::Coalesced);
    /// 2. otherwise, if `N` submissions are pending, this submission's ticket is settled
    ///    [`dropped`](crate::session::turns::TurnNotRunReason::Dropped) already and holds the input
    ///    ([`TurnTicket::take_dropped_input`]);
    /// 3. otherwise it is appended.
    ///
    /// # Errors
    ///
    /// [`NotAccepted`] with the input, no id minted: [`ShutDown`](NotAccepted::ShutDown) after
    /// [`shutdown`](Self::shutdown); [`IdsExhausted`](NotAccepted::IdsExhausted) once the id
    /// `u64::MAX` has been minted (ids never wrap); [`UnreadTickets`](NotAccepted::UnreadTickets)
    /// when fewer than `N` are pending but every slot parks an outcome its live ticket has not
    /// read (the host holds more than `N` settled tickets unread; read or drop them).
    pub fn submit(
        &self,
        input: T,
        driver: D,
    ) -> Result<TurnTicket<'_, M, T, R, D, N>, NotAccepted<T>>
    where
        D: PartialEq,
    {
        let (admission, runner) = self.with(|state| {
            let admission = state.admit(input, driver);
            let queued = matches!(admission, Admission::Queued { .. });
            (admission, queued.then(|| state.take_runner()).flatten())
        });
        wake(runner);
        match admission {
            Admission::Refused { refusal, driver } => {
                drop(driver);
                Err(refusal)
            }
            Admission::Queued { id, slot } => Ok(TurnTicket::waiting(self, id, slot)),
            Admission::Coalesced {
                id,
                slot,
                replaced,
                driver,
                wake,
            } => {
                if let Some(waker) = wake {
                    waker.wake();
                }
                drop((replaced, driver));
                Ok(TurnTicket::waiting(self, id, slot))
            }
            Admission::Dropped { id, input, driver } => {
                drop(driver);
                Ok(TurnTicket::dropped(self, id, input))
            }
        }
    }

    /// Takes the oldest pending submission to run, when no turn is running. O(1).
    ///
    /// The turn runs until [`finish`](Self::finish) or [`abort`](Self::abort) names its id; while
    /// it runs, nothing else starts and later inputs queue (or coalesce) behind it.
    ///
    /// # Errors
    ///
    /// [`NotStarted::Running`] while a turn runs, [`NotStarted::Empty`] when nothing is pending,
    /// [`NotStarted::ShutDown`] once the queue is shut down and nothing runs.
    pub fn start(&self) -> Result<Started<T, D>, NotStarted> {
        self.with(State::start)
    }

    /// Waits for the next turn to run, for a runner task: resolves with it as soon as one is
    /// pending and nothing runs (as [`start`](Self::start) would take it), or with `None` once
    /// the queue is shut down and nothing runs, so a runner loop ends. No spinning: while a turn
    /// runs or nothing is pending, the runner's waker is registered and woken by the
    /// [`submit`](Self::submit) that queues, the [`finish`](Self::finish) or
    /// [`abort`](Self::abort) that ends the running turn, or [`shutdown`](Self::shutdown).
    ///
    /// One runner per queue: a second task awaiting it replaces (and wakes) the first one's
    /// registration, so two runners would take turns polling. Cancel-safe: dropping the future
    /// before it resolves takes nothing.
    pub async fn next_turn(&self) -> Option<Started<T, D>> {
        core::future::poll_fn(|cx| {
            let (poll, replaced) = self.with(|state| state.poll_start(cx.waker()));
            wake(replaced);
            poll
        })
        .await
    }

    /// The running turn `id` ran to the end: its ticket settles
    /// [`Settled::Complete`](super::Settled::Complete) with `result`. O(1); allocates nothing.
    ///
    /// # Errors
    ///
    /// [`NotRunning`] with the result when `id` is not the running turn; nothing settles.
    pub fn finish(&self, id: TurnId, result: R) -> Result<(), NotRunning<R>> {
        let (settle, runner) = self.with(|state| {
            let settle = state.end(id, result, false)?;
            Ok::<_, NotRunning<R>>((settle, state.take_runner()))
        })?;
        Self::carry_out(settle);
        wake(runner);
        Ok(())
    }

    /// The running turn `id` was aborted: its ticket settles
    /// [`Settled::Interrupted`](super::Settled::Interrupted) with the partial result, for local
    /// history only. O(1); allocates nothing. Pending submissions are untouched: a host whose
    /// abort also drops the queue calls [`clear`](Self::clear) as well.
    ///
    /// # Errors
    ///
    /// [`NotRunning`] with the partial result when `id` is not the running turn; nothing settles.
    pub fn abort(&self, id: TurnId, partial: R) -> Result<(), NotRunning<R>> {
        let (settle, runner) = self.with(|state| {
            let settle = state.end(id, partial, true)?;
            Ok::<_, NotRunning<R>>((settle, state.take_runner()))
        })?;
        Self::carry_out(settle);
        wake(runner);
        Ok(())
    }

    /// Wakes a settled ticket and drops an outcome nobody will read, outside the lock.
    fn carry_out(settle: Settle<R>) {
        if let Some(waker) = settle.wake {
            waker.wake();
        }
        drop(settle.unclaimed);
    }

    /// Cancels every pending submission: each ticket settles
    /// [`cancelled`](crate::session::turns::TurnNotRunReason::Cancelled), oldest first. The running turn
    /// is not touched (it is settled only by `finish` or `abort`). O(N); allocates nothing.
    ///
    /// Returns how many were cancelled and the distinct drivers they came from, for attributed
    /// notices.
    pub fn clear(&self) -> Cleared<D, N>
    where
        D: PartialEq,
    {
        self.drain(false)
    }

    /// Shuts the queue down: clears it through the same path as [`clear`](Self::clear) (so every
    /// pending ticket settles `cancelled`; there is no shutdown reason) and refuses every later
    /// submission with [`NotAccepted::ShutDown`]. A running turn still settles through `finish` or `abort`.
    /// Idempotent; O(N); allocates nothing.
    pub fn shutdown(&self) -> Cleared<D, N>
    where
        D: PartialEq,
    {
        self.drain(true)
    }

    fn drain(&self, close: bool) -> Cleared<D, N>
    where
        D: PartialEq,
    {
        // Taken out under one lock, so no submission slips in between; woken, compared and
        // dropped after it.
        let mut taken = Vec::<(T, D, Option<Waker>), N>::new();
        let runner = self.with(|state| {
            if close {
                state.close();
            }
            // At most `N` are pending, so every push fits.
            while let Some(entry) = state.cancel_oldest() {
                let _ = taken.push(entry);
            }
            // A shut-down queue ends the runner's wait once nothing runs.
            close.then(|| state.take_runner()).flatten()
        });
        wake(runner);
        let mut cleared = Cleared::new();
        for (input, driver, wake) in taken {
            if let Some(waker) = wake {
                waker.wake();
            }
            drop(input);
            cleared.note(driver);
        }
        cleared
    }

    /// Polls slot `slot` for ticket `id` (see [`TurnTicket`]).
    pub(super) fn claim(&self, slot: usize, id: TurnId, waker: Option<&Waker>) -> Claim<R> {
        self.with(|state| state.claim(slot, id, waker))
    }

    /// Ticket `id` of slot `slot` is gone.
    pub(super) fn forget(&self, slot: usize, id: TurnId) {
        let settle = self.with(|state| state.forget(slot, id));
        // The waker belonged to the dropped ticket: dropped, not woken.
        drop(settle);
    }
}

/// Wakes `waker`, if any: called after the lock is released.
fn wake(waker: Option<Waker>) {
    if let Some(waker) = waker {
        waker.wake();
    }
}

impl<M: RawMutex, T, R, D, const N: usize> Default for TurnQueue<M, T, R, D, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: RawMutex, T, R, D, const N: usize> fmt::Debug for TurnQueue<M, T, R, D, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (pending, running, open) =
            self.with(|state| (state.pending_len(), state.running(), state.is_open()));
        f.debug_struct("TurnQueue")
            .field("depth", &N)
            .field("pending", &pending)
            .field("running", &running)
            .field("shut_down", &!open)
            .finish()
    }
}

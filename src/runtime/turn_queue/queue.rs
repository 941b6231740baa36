//! The queue itself: the public operations, each one short critical section over [`State`].

use core::cell::RefCell;
use core::fmt;
use core::task::{Poll, Waker};

use embassy_sync::blocking_mutex::Mutex;
use embassy_sync::blocking_mutex::raw::RawMutex;
use heapless::Vec;

use super::cleared::Cleared;
use super::outcome::Started;
use super::refusal::{NotAccepted, NotRunning, NotStarted, Reentered};
use super::state::{Admission, Claim, Registering, Settle, State, Submission};
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

    /// Runs `f` on the state under the lock. The borrow never fails: no transition of [`State`]
    /// runs user code, so nothing can call back into the queue while the state is borrowed (the
    /// callbacks that need it, `D: PartialEq` and `Waker::clone`, run between two borrows).
    #[inline(always)]
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
    /// The driver comparison runs with the queue's state not borrowed (the newest pending entry's
    /// driver is lent out for it), so a `PartialEq` that calls back into this queue gets answers:
    /// reads, `finish`, `abort`, tickets and starting an older entry work; a submission, a clear,
    /// a shutdown and starting the entry being compared are refused, typed.
    ///
    /// # Errors
    ///
    /// [`NotAccepted::Reentered`] when called from a driver's `PartialEq` during another
    /// submission. Otherwise [`NotAccepted`] with the input, no id minted:
    /// [`ShutDown`](NotAccepted::ShutDown) after [`shutdown`](Self::shutdown);
    /// [`IdsExhausted`](NotAccepted::IdsExhausted) once the id `u64::MAX` has been minted (ids
    /// never wrap); [`UnreadTickets`](NotAccepted::UnreadTickets) when fewer than `N` are pending
    /// but every slot parks an outcome its live ticket has not read (the host holds more than `N`
    /// settled tickets unread; read or drop them).
    pub fn submit(
        &self,
        input: T,
        driver: D,
    ) -> Result<TurnTicket<'_, M, T, R, D, N>, NotAccepted<T>>
    where
        D: PartialEq,
    {
        let (admission, leftover) = self.state.lock(|cell| {
            let begun = cell.borrow_mut().begin(input, driver);
            match begun {
                Submission::Decided(admission) => (admission, None),
                // The newest pending entry's driver was lent out, to be compared with the state
                // not borrowed: a `PartialEq` that calls back into the queue finds it usable (and
                // gets typed refusals for what would touch the lent entry).
                Submission::Compare {
                    input,
                    driver,
                    tail,
                } => {
                    let lent = Lent {
                        cell,
                        driver: Some(tail),
                    };
                    let same = lent.driver.as_ref().is_some_and(|tail| *tail == driver);
                    // Given back now, or by `Lent::drop` if the comparison panicked.
                    let leftover = lent.give_back();
                    (cell.borrow_mut().admit(input, driver, same), leftover)
                }
            }
        });
        drop(leftover);
        match admission {
            Admission::Refused { refusal, driver } => {
                drop(driver);
                Err(refusal)
            }
            Admission::Queued {
                id,
                slot,
                runner_waits,
            } => {
                self.wake_runner(runner_waits);
                Ok(TurnTicket::waiting(self, id, slot))
            }
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
    /// [`NotStarted::ShutDown`] once the queue is shut down and nothing runs,
    /// [`NotStarted::Reentered`] when called from a driver's `PartialEq` while the oldest pending
    /// entry is the one being compared.
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
    /// before it resolves takes nothing. Polled from a driver's `PartialEq` while the entry it
    /// would take is being compared, it wakes its own task and stays pending, so it is polled
    /// again.
    pub async fn next_turn(&self) -> Option<Started<T, D>> {
        core::future::poll_fn(|cx| {
            let polled = self.state.lock(|cell| {
                match cell
                    .borrow_mut()
                    .poll_start(Registering::Borrowed(cx.waker()))
                {
                    Err(None) => {}
                    done => return done,
                }
                // The waker is cloned with the state not borrowed; then the start is tried again.
                let waker = cx.waker().clone();
                cell.borrow_mut().poll_start(Registering::Cloned(waker))
            });
            match polled {
                Ok((poll, displaced)) => {
                    // A replaced runner (another task) learns it was replaced.
                    wake(displaced.replaced);
                    drop(displaced.unneeded);
                    poll
                }
                // Called back from a driver's comparison: nothing could start; poll again.
                Err(clone) => {
                    drop(clone);
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
            }
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
        let (settle, runner_waits) = self.with(|state| {
            let settle = state.end(id, result, false)?;
            Ok::<_, NotRunning<R>>((settle, state.runner_waits()))
        })?;
        Self::carry_out(settle);
        self.wake_runner(runner_waits);
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
        let (settle, runner_waits) = self.with(|state| {
            let settle = state.end(id, partial, true)?;
            Ok::<_, NotRunning<R>>((settle, state.runner_waits()))
        })?;
        Self::carry_out(settle);
        self.wake_runner(runner_waits);
        Ok(())
    }

    /// Wakes the runner, if `runner_waits` said one was registered: the waker is taken in a second
    /// short critical section, so an operation that finds no runner waiting (a host without
    /// `next_turn`, or a runner busy running) carries no waker out of its critical section and
    /// wakes nothing. A runner that took a turn in between is woken for nothing and waits again.
    #[inline(always)]
    fn wake_runner(&self, runner_waits: bool) {
        if runner_waits {
            wake(self.with(State::take_runner));
        }
    }

    /// Wakes a settled ticket and drops an outcome nobody will read, outside the lock.
    #[inline(always)]
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
    ///
    /// # Errors
    ///
    /// [`Reentered`] when called from a driver's `PartialEq` while a submission compares drivers
    /// (see [`submit`](Self::submit)); nothing is cancelled.
    pub fn clear(&self) -> Result<Cleared<D, N>, Reentered>
    where
        D: PartialEq,
    {
        self.drain(false)
    }

    /// Shuts the queue down: clears it through the same path as [`clear`](Self::clear) (so every
    /// pending ticket settles `cancelled`; there is no shutdown reason) and refuses every later
    /// submission with [`NotAccepted::ShutDown`]. A running turn still settles through `finish`
    /// or `abort`.
    /// Idempotent; O(N); allocates nothing.
    ///
    /// # Errors
    ///
    /// [`Reentered`] when called from a driver's `PartialEq` while a submission compares drivers
    /// (see [`submit`](Self::submit)); nothing is cancelled and the queue stays open.
    pub fn shutdown(&self) -> Result<Cleared<D, N>, Reentered>
    where
        D: PartialEq,
    {
        self.drain(true)
    }

    fn drain(&self, close: bool) -> Result<Cleared<D, N>, Reentered>
    where
        D: PartialEq,
    {
        // Taken out under one lock, so no submission slips in between; woken, compared and
        // dropped after it.
        let mut taken = Vec::<(T, Option<D>, Option<Waker>), N>::new();
        let runner = self.with(|state| {
            if state.is_lent() {
                return Err(Reentered);
            }
            if close {
                state.close();
            }
            // At most `N` are pending, so every push fits.
            while let Some(entry) = state.cancel_oldest() {
                let _ = taken.push(entry);
            }
            // A shut-down queue ends the runner's wait once nothing runs.
            Ok(close.then(|| state.take_runner()).flatten())
        })?;
        wake(runner);
        let mut cleared = Cleared::new();
        for (input, driver, wake) in taken {
            if let Some(waker) = wake {
                waker.wake();
            }
            drop(input);
            cleared.note(driver);
        }
        Ok(cleared)
    }

    /// Polls slot `slot` for ticket `id` (see [`TurnTicket`]), registering `waker`. A waker that
    /// has to be kept is cloned with the state not borrowed, then the slot is claimed again.
    #[inline(always)]
    pub(super) fn claim(&self, slot: usize, id: TurnId, waker: Option<&Waker>) -> Claim<R> {
        self.state.lock(|cell| {
            let borrowed = waker.map(Registering::Borrowed);
            match cell.borrow_mut().claim(slot, id, borrowed) {
                Claim::NeedsWaker => {}
                claim => return claim,
            }
            let cloned = waker.map(|waker| Registering::Cloned(waker.clone()));
            cell.borrow_mut().claim(slot, id, cloned)
        })
    }

    /// Ticket `id` of slot `slot` is gone.
    pub(super) fn forget(&self, slot: usize, id: TurnId) {
        let settle = self.with(|state| state.forget(slot, id));
        // The waker belonged to the dropped ticket: dropped, not woken.
        drop(settle);
    }
}

/// A driver lent out of the newest pending entry for a comparison; it goes back when this is
/// given back or dropped (so a panicking `PartialEq` leaves the queue as it was).
struct Lent<'c, T, R, D, const N: usize> {
    cell: &'c RefCell<State<T, R, D, N>>,
    driver: Option<D>,
}

impl<T, R, D, const N: usize> Lent<'_, T, R, D, N> {
    /// Puts the driver back; hands it back if its entry is gone (to be dropped after the lock).
    #[inline(always)]
    fn give_back(mut self) -> Option<D> {
        let driver = self.driver.take()?;
        self.cell.borrow_mut().give_back(driver)
    }
}

impl<T, R, D, const N: usize> Drop for Lent<'_, T, R, D, N> {
    fn drop(&mut self) {
        if let Some(driver) = self.driver.take() {
            let leftover = self.cell.borrow_mut().give_back(driver);
            drop(leftover);
        }
    }
}

/// Wakes `waker`, if any: called after the lock is released.
#[inline(always)]
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

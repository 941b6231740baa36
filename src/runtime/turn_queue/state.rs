//! The queue's state and its transitions. Every transition is O(1) except draining (O(N)), runs
//! no user code at all (no `D: PartialEq`, no `Waker::clone`, no drop of an input, result, driver
//! or waker: `Waker::will_wake` only compares pointers), and hands every value it displaces back
//! to the caller, which drops or wakes it after the lock is released. So no user callback ever
//! runs while the state is borrowed, and one that calls back into the queue finds it unborrowed.
//!
//! The two comparisons that need user code run between two borrows, inside the lock: a
//! submission compares its driver with the newest pending one's after [`State::begin`] lent
//! that driver out, and a registration clones its waker after [`State::claim`] or
//! [`State::poll_start`] asked for it.

use core::task::{Poll, Waker};

use crate::session::turns::TurnNotRunReason;

use super::outcome::{NotRun, Settled, Started};
use super::pending::{Entry, Pending};
use super::refusal::{NotAccepted, NotRunning, NotStarted, Refusal};
use super::slot::{SlotState, Slots};
use super::turn_id::TurnId;

/// The turn being run: its id and the slot its ticket waits in.
#[derive(Clone, Copy)]
struct Running {
    id: TurnId,
    slot: usize,
}

/// Everything the lock guards.
pub(super) struct State<T, R, D, const N: usize> {
    /// The id the next accepted submission gets; `None` once `u64::MAX` has been minted (ids
    /// never wrap, so never repeat).
    next_id: Option<u64>,
    open: bool,
    pending: Pending<T, D, N>,
    running: Option<Running>,
    slots: Slots<R, N>,
    /// The task awaiting [`next_turn`](super::TurnQueue::next_turn), woken when a turn may start.
    runner: Option<Waker>,
    /// The newest pending entry's driver is lent out to a submission comparing it with its own
    /// driver; until it is back, submissions, clears and starting that entry are refused.
    lent: bool,
}

/// What became of a submission.
pub(super) enum Admission<T, D> {
    /// Not accepted (why: `refusal`, holding the input); the driver is handed back to be
    /// dropped. No id was minted.
    Refused { refusal: NotAccepted<T>, driver: D },
    /// Appended to the pending ring.
    /// `runner_waits`: a runner's waker is registered, to be taken and woken after the lock (a
    /// turn may start now).
    Queued {
        id: TurnId,
        slot: usize,
        runner_waits: bool,
    },
    /// Replaced the newest pending input of the same driver, whose ticket `wake` now settles
    /// `coalesced`; `replaced` and `driver` are to be dropped.
    Coalesced {
        id: TurnId,
        slot: usize,
        replaced: T,
        driver: D,
        wake: Option<Waker>,
    },
    /// The queue was at capacity: the submission settles `dropped` at once.
    Dropped { id: TurnId, input: T, driver: D },
}

impl<T, D> Admission<T, D> {
    #[inline(always)]
    fn refused(refusal: Refusal, input: T, driver: D) -> Self {
        Self::Refused {
            refusal: refusal.with(input),
            driver,
        }
    }
}

/// What the runner's poll gives: the poll, and the wakers its registration displaced.
pub(super) type RunnerPoll<T, D> = (Poll<Option<Started<T, D>>>, Displaced);

/// How a submission goes on after [`State::begin`].
pub(super) enum Submission<T, D> {
    /// Decided without comparing drivers.
    Decided(Admission<T, D>),
    /// Compare `driver` with `tail`, the newest pending entry's driver lent out, then give `tail`
    /// back and admit.
    Compare { input: T, driver: D, tail: D },
}

/// The side effects of settling one slot, carried out after the lock is released.
pub(super) struct Settle<R> {
    /// The ticket's waker, to wake.
    pub(super) wake: Option<Waker>,
    /// An outcome nobody will read (its ticket is gone), to drop.
    pub(super) unclaimed: Option<Settled<R>>,
}

/// What a ticket finds in its slot.
pub(super) enum Claim<R> {
    /// The slot moved on to a later member of the chain: this ticket was coalesced.
    Coalesced,
    /// Still pending or running; the waker the registration displaced (the replaced one, or an
    /// unneeded clone), to drop.
    Waiting { displaced: Option<Waker> },
    /// Still pending or running, and the registered waker is not the caller's: clone it (outside
    /// the borrow) and claim again with the clone.
    NeedsWaker,
    /// The outcome, taken (the slot is free again).
    Settled(Settled<R>),
}

/// A waker a caller polls with: borrowed (to compare), or a clone made outside the borrow (to
/// keep).
pub(super) enum Registering<'w> {
    /// Compare only; [`Claim::NeedsWaker`] (or a pending start) asks for a clone.
    Borrowed(&'w Waker),
    /// Keep this clone.
    Cloned(Waker),
}

/// The wakers a registration displaced, for the caller to handle after the lock.
#[derive(Default)]
pub(super) struct Displaced {
    /// The waker the registration replaced (another task's, or an older one of the same task).
    pub(super) replaced: Option<Waker>,
    /// A clone that was not needed after all (the registered waker wakes the same task): drop.
    pub(super) unneeded: Option<Waker>,
}

/// Registers the caller's waker in `registered` unless that already wakes the same task
/// (`will_wake` compares pointers and runs no user code). `Ok` with what it displaced; `Err` when
/// a borrowed waker must be cloned first.
#[inline(always)]
fn register(registered: &mut Option<Waker>, waker: Registering<'_>) -> Result<Displaced, ()> {
    match waker {
        Registering::Borrowed(waker) => match registered {
            Some(current) if current.will_wake(waker) => Ok(Displaced::default()),
            _ => Err(()),
        },
        Registering::Cloned(waker) => match registered {
            Some(current) if current.will_wake(&waker) => Ok(Displaced {
                replaced: None,
                unneeded: Some(waker),
            }),
            _ => Ok(Displaced {
                replaced: registered.replace(waker),
                unneeded: None,
            }),
        },
    }
}

impl<T, R, D, const N: usize> State<T, R, D, N> {
    /// An open queue with nothing pending and the first id `first_id`.
    pub(super) const fn new(first_id: u64) -> Self {
        Self {
            next_id: Some(first_id),
            open: true,
            pending: Pending::new(),
            running: None,
            slots: Slots::new(),
            runner: None,
            lent: false,
        }
    }

    pub(super) const fn pending_len(&self) -> usize {
        self.pending.len()
    }

    pub(super) fn running(&self) -> Option<TurnId> {
        self.running.map(|running| running.id)
    }

    pub(super) const fn is_open(&self) -> bool {
        self.open
    }

    /// The id the next accepted submission gets, if one is left; after `u64::MAX` none is (ids
    /// never wrap, so never repeat). Taken for good by [`mint`](Self::mint).
    #[inline(always)]
    const fn next_id(&self) -> Option<TurnId> {
        match self.next_id {
            Some(id) => Some(TurnId(id)),
            None => None,
        }
    }

    /// `id` (the [`next_id`](Self::next_id)) is given to an accepted submission.
    #[inline(always)]
    const fn mint(&mut self, id: TurnId) {
        self.next_id = id.0.checked_add(1);
    }

    /// First half of a submission: refused after shutdown, once the ids are used up, or while
    /// another submission compares drivers (a driver's `PartialEq` calling back); decided at once
    /// when nothing is pending; else the newest pending entry's driver is lent out (taken) for the
    /// caller to compare with its own outside the borrow, and must come back through
    /// [`give_back`](Self::give_back) before [`admit`](Self::admit) decides.
    #[inline(always)]
    pub(super) fn begin(&mut self, input: T, driver: D) -> Submission<T, D> {
        let refusal = if self.lent {
            Refusal::Reentered
        } else if !self.open {
            Refusal::ShutDown
        } else if self.next_id.is_none() {
            Refusal::IdsExhausted
        } else {
            return match self.pending.tail_mut().and_then(|tail| tail.driver.take()) {
                Some(tail) => {
                    self.lent = true;
                    Submission::Compare {
                        input,
                        driver,
                        tail,
                    }
                }
                None => Submission::Decided(self.admit(input, driver, false)),
            };
        };
        Submission::Decided(Admission::refused(refusal, input, driver))
    }

    /// The lent driver comes back to the newest pending entry. While it was out nothing could
    /// add, take or cancel pending entries, so the entry is still the newest; if it were not, the
    /// driver is handed back (to be dropped after the lock).
    #[inline(always)]
    pub(super) fn give_back(&mut self, driver: D) -> Option<D> {
        self.lent = false;
        match self.pending.tail_mut() {
            Some(tail) if tail.driver.is_none() => {
                tail.driver = Some(driver);
                None
            }
            _ => Some(driver),
        }
    }

    /// Deciding a submission (after [`begin`](Self::begin) and, if it lent a driver out,
    /// [`give_back`](Self::give_back)): `same` says the newest pending entry's driver equals
    /// `driver`. It coalesces into that entry when `same`; else it is dropped when `N` are pending;
    /// else it is refused when every slot parks an outcome that live tickets have not read; else
    /// it is appended. The coalesce check runs before the capacity check. An id is minted only for
    /// an accepted submission.
    #[inline(always)]
    pub(super) fn admit(&mut self, input: T, driver: D, same: bool) -> Admission<T, D> {
        if self.lent {
            return Admission::refused(Refusal::Reentered, input, driver);
        }
        if !self.open {
            return Admission::refused(Refusal::ShutDown, input, driver);
        }
        let Some(id) = self.next_id() else {
            return Admission::refused(Refusal::IdsExhausted, input, driver);
        };
        if same && let Some(tail) = self.pending.tail_mut() {
            let replaced = core::mem::replace(&mut tail.input, input);
            tail.id = id;
            let slot = tail.slot;
            self.mint(id);
            let wake = match self.slots.get_mut(slot) {
                Some(chain) => {
                    chain.turn = id;
                    match &mut chain.state {
                        SlotState::Live { waker, ticket } => {
                            *ticket = true;
                            waker.take()
                        }
                        SlotState::Free { .. } | SlotState::Settled(_) => None,
                    }
                }
                None => None,
            };
            return Admission::Coalesced {
                id,
                slot,
                replaced,
                driver,
                wake,
            };
        }
        if self.pending.is_full() {
            self.mint(id);
            return Admission::Dropped { id, input, driver };
        }
        let Some(slot) = self.slots.take(id) else {
            return Admission::refused(Refusal::UnreadTickets, input, driver);
        };
        self.mint(id);
        match self.pending.push_back(Entry {
            id,
            slot,
            input,
            driver: Some(driver),
        }) {
            Ok(()) => Admission::Queued {
                id,
                slot,
                runner_waits: self.runner.is_some(),
            },
            // Not full (checked above), so this cannot happen; dropped at capacity if it did.
            Err(entry) => {
                self.slots.release(slot);
                match entry.driver {
                    Some(driver) => Admission::Dropped {
                        id,
                        input: entry.input,
                        driver,
                    },
                    None => Admission::Queued {
                        id,
                        slot,
                        runner_waits: false,
                    },
                }
            }
        }
    }

    /// Takes the oldest pending entry to run, when nothing runs.
    #[inline(always)]
    pub(super) fn start(&mut self) -> Result<Started<T, D>, NotStarted> {
        if let Some(running) = self.running {
            return Err(NotStarted::Running(running.id));
        }
        // The oldest entry's driver is lent out to a submission comparing drivers.
        if self
            .pending
            .front()
            .is_some_and(|entry| entry.driver.is_none())
        {
            return Err(NotStarted::Reentered);
        }
        match self.pending.pop_front() {
            Some(Entry {
                id,
                slot,
                input,
                driver: Some(driver),
            }) => {
                self.running = Some(Running { id, slot });
                Ok(Started { id, input, driver })
            }
            // A lent driver (checked above, so this cannot happen): the entry runs unattributed
            // no more than it is lost; refuse, and keep nothing half-started.
            Some(_) => Err(NotStarted::Reentered),
            None if self.open => Err(NotStarted::Empty),
            None => Err(NotStarted::ShutDown),
        }
    }

    /// The runner's poll: [`start`](Self::start), except that while nothing can start (a turn
    /// runs, or nothing is pending) `waker` is registered as the runner's; what it displaced is
    /// handed back (the replaced runner's waker, to wake; an unneeded clone, to drop).
    /// `Ready(None)` once shut down with nothing running. `Err` when a borrowed waker must be cloned first, or (with the clone
    /// handed back) when the start was refused because a driver's `PartialEq` called back: the
    /// caller wakes its task to poll again.
    pub(super) fn poll_start(
        &mut self,
        waker: Registering<'_>,
    ) -> Result<RunnerPoll<T, D>, Option<Waker>> {
        let unneeded = |waker| Displaced {
            replaced: None,
            unneeded: match waker {
                Registering::Cloned(waker) => Some(waker),
                Registering::Borrowed(_) => None,
            },
        };
        match self.start() {
            Ok(started) => Ok((Poll::Ready(Some(started)), unneeded(waker))),
            Err(NotStarted::ShutDown) => Ok((Poll::Ready(None), unneeded(waker))),
            Err(NotStarted::Reentered) => Err(match waker {
                Registering::Cloned(waker) => Some(waker),
                Registering::Borrowed(_) => None,
            }),
            Err(NotStarted::Empty | NotStarted::Running(_)) => {
                match register(&mut self.runner, waker) {
                    Ok(drop) => Ok((Poll::Pending, drop)),
                    Err(()) => Err(None),
                }
            }
        }
    }

    /// True while a runner's waker is registered (cheap to hand out of the lock; the waker itself
    /// is taken only then, by [`take_runner`](Self::take_runner)).
    #[inline(always)]
    pub(super) const fn runner_waits(&self) -> bool {
        self.runner.is_some()
    }

    /// The waiting runner's waker, taken: a turn may be able to start now.
    #[inline(always)]
    pub(super) const fn take_runner(&mut self) -> Option<Waker> {
        self.runner.take()
    }

    /// The running turn `id` ends with `result` (`interrupted` for an abort).
    #[inline(always)]
    pub(super) fn end(
        &mut self,
        id: TurnId,
        result: R,
        interrupted: bool,
    ) -> Result<Settle<R>, NotRunning<R>> {
        match self.running {
            Some(running) if running.id == id => {
                self.running = None;
                let outcome = if interrupted {
                    Settled::Interrupted(result)
                } else {
                    Settled::Complete(result)
                };
                Ok(self.settle(running.slot, outcome))
            }
            other => Err(NotRunning {
                requested: id,
                running: other.map(|running| running.id),
                result,
            }),
        }
    }

    /// Settles the live chain in slot `index` with `outcome`.
    #[inline(always)]
    fn settle(&mut self, index: usize, outcome: Settled<R>) -> Settle<R> {
        let previous = match self.slots.get_mut(index) {
            Some(slot) => core::mem::replace(&mut slot.state, SlotState::Settled(outcome)),
            None => {
                return Settle {
                    wake: None,
                    unclaimed: Some(outcome),
                };
            }
        };
        match previous {
            // The ticket reads it later.
            SlotState::Live {
                waker,
                ticket: true,
            } => Settle {
                wake: waker,
                unclaimed: None,
            },
            // Nobody will read it: the slot is free at once.
            SlotState::Live {
                waker,
                ticket: false,
            } => Settle {
                wake: waker,
                unclaimed: match self.slots.release(index) {
                    Some(SlotState::Settled(outcome)) => Some(outcome),
                    _ => None,
                },
            },
            // Not a live chain (cannot happen): leave the slot as it was.
            previous @ (SlotState::Free { .. } | SlotState::Settled(_)) => {
                let unclaimed = match self.slots.get_mut(index) {
                    Some(slot) => match core::mem::replace(&mut slot.state, previous) {
                        SlotState::Settled(outcome) => Some(outcome),
                        SlotState::Free { .. } | SlotState::Live { .. } => None,
                    },
                    None => None,
                };
                Settle {
                    wake: None,
                    unclaimed,
                }
            }
        }
    }

    /// True while a submission has the newest pending entry's driver lent out: clearing waits.
    pub(super) const fn is_lent(&self) -> bool {
        self.lent
    }

    /// Cancels the oldest pending entry, if any: its ticket settles `cancelled`. Returns its input
    /// and driver (`None` only if it were lent, which the caller rules out with
    /// [`is_lent`](Self::is_lent)) and the waker to wake.
    pub(super) fn cancel_oldest(&mut self) -> Option<(T, Option<D>, Option<Waker>)> {
        let entry = self.pending.pop_front()?;
        let settle = self.settle(
            entry.slot,
            Settled::NotRun(NotRun {
                turn_id: entry.id,
                reason: TurnNotRunReason::Cancelled,
            }),
        );
        // An unclaimed not-run outcome holds no `R`: dropping it here runs no user code.
        drop(settle.unclaimed);
        Some((entry.input, entry.driver, settle.wake))
    }

    /// Refuses every later submission.
    pub(super) fn close(&mut self) {
        self.open = false;
    }

    /// A ticket (`id`, waiting in slot `index`) looks for its outcome, registering `waker`.
    #[inline(always)]
    pub(super) fn claim(
        &mut self,
        index: usize,
        id: TurnId,
        waker: Option<Registering<'_>>,
    ) -> Claim<R> {
        let Some(slot) = self.slots.get_mut(index) else {
            return Claim::Coalesced;
        };
        if slot.turn != id {
            return Claim::Coalesced;
        }
        match &mut slot.state {
            SlotState::Live {
                waker: registered, ..
            } => match waker.map(|waker| register(registered, waker)) {
                None => Claim::Waiting { displaced: None },
                Some(Ok(Displaced { replaced, unneeded })) => Claim::Waiting {
                    displaced: replaced.or(unneeded),
                },
                Some(Err(())) => Claim::NeedsWaker,
            },
            SlotState::Settled(_) => match self.slots.release(index) {
                Some(SlotState::Settled(outcome)) => Claim::Settled(outcome),
                _ => Claim::Coalesced,
            },
            // A live ticket's chain is never free (cannot happen).
            SlotState::Free { .. } => Claim::Coalesced,
        }
    }

    /// A ticket (`id`, slot `index`) is dropped before it read its outcome: a live chain runs on
    /// unobserved; a parked outcome is released. Returns what is to be dropped after the lock.
    pub(super) fn forget(&mut self, index: usize, id: TurnId) -> Settle<R> {
        let mut settle = Settle {
            wake: None,
            unclaimed: None,
        };
        let Some(slot) = self.slots.get_mut(index) else {
            return settle;
        };
        if slot.turn != id {
            // Coalesced: the slot belongs to a later ticket.
            return settle;
        }
        match &mut slot.state {
            SlotState::Live { waker, ticket } => {
                *ticket = false;
                settle.wake = waker.take();
            }
            SlotState::Settled(_) => {
                if let Some(SlotState::Settled(outcome)) = self.slots.release(index) {
                    settle.unclaimed = Some(outcome);
                }
            }
            SlotState::Free { .. } => {}
        }
        settle
    }
}

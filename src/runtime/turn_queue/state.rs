//! The queue's state and its transitions. Every transition is O(1) except draining (O(N)), runs
//! no user code except `D: PartialEq` when a submission arrives (and `Waker::clone`/`will_wake`
//! when a ticket registers), and hands every value it displaces (inputs, results, drivers,
//! wakers) back to the caller, which drops or wakes it after the lock is released.

use core::task::{Poll, Waker};

use crate::session::turns::TurnNotRunReason;

use super::outcome::{NotRun, Settled, Started};
use super::pending::{Entry, Pending};
use super::refusal::{NotAccepted, NotRunning, NotStarted};
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
    /// The id the next accepted submission gets; `None` once `u64::MAX` has been minted.
    next_id: Option<u64>,
    open: bool,
    pending: Pending<T, D, N>,
    running: Option<Running>,
    slots: Slots<R, N>,
    /// The task awaiting [`next_turn`](super::TurnQueue::next_turn), woken when a turn may start.
    runner: Option<Waker>,
}

/// What became of a submission.
pub(super) enum Admission<T, D> {
    /// Not accepted (why: `refusal`, holding the input); the driver is handed back to be
    /// dropped. No id was minted.
    Refused {
        refusal: NotAccepted<T>,
        driver: D,
    },
    /// Appended to the pending ring.
    Queued { id: TurnId, slot: usize },
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
    /// Still pending or running; the waker that the new registration replaced, to drop.
    Waiting { replaced: Option<Waker> },
    /// The outcome, taken (the slot is free again).
    Settled(Settled<R>),
}

/// Registers `waker` in `registered` unless it wakes the same task; returns the replaced waker.
fn register(registered: &mut Option<Waker>, waker: &Waker) -> Option<Waker> {
    match registered {
        Some(current) if current.will_wake(waker) => None,
        _ => registered.replace(waker.clone()),
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
    const fn next_id(&self) -> Option<TurnId> {
        match self.next_id {
            Some(id) => Some(TurnId(id)),
            None => None,
        }
    }

    /// `id` (the [`next_id`](Self::next_id)) is given to an accepted submission.
    const fn mint(&mut self, id: TurnId) {
        self.next_id = id.0.checked_add(1);
    }

    /// A submission arrives: refused after shutdown or once the ids are used up; else it
    /// coalesces into the newest pending entry when that entry's driver equals `driver`; else it
    /// is dropped when `N` are pending; else it is refused when every slot parks an outcome that
    /// live tickets have not read; else it is appended. The coalesce check runs before the
    /// capacity check. An id is minted only for an accepted submission.
    pub(super) fn admit(&mut self, input: T, driver: D) -> Admission<T, D>
    where
        D: PartialEq,
    {
        if !self.open {
            return Admission::Refused {
                refusal: NotAccepted::ShutDown(input),
                driver,
            };
        }
        let Some(id) = self.next_id() else {
            return Admission::Refused {
                refusal: NotAccepted::IdsExhausted(input),
                driver,
            };
        };
        if let Some(tail) = self.pending.tail_mut()
            && tail.driver == driver
        {
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
            return Admission::Refused {
                refusal: NotAccepted::UnreadTickets(input),
                driver,
            };
        };
        self.mint(id);
        match self.pending.push_back(Entry {
            id,
            slot,
            input,
            driver,
        }) {
            Ok(()) => Admission::Queued { id, slot },
            // Not full (checked above), so this cannot happen; dropped at capacity if it did.
            Err(entry) => {
                self.slots.release(slot);
                Admission::Dropped {
                    id,
                    input: entry.input,
                    driver: entry.driver,
                }
            }
        }
    }

    /// Takes the oldest pending entry to run, when nothing runs.
    pub(super) fn start(&mut self) -> Result<Started<T, D>, NotStarted> {
        if let Some(running) = self.running {
            return Err(NotStarted::Running(running.id));
        }
        match self.pending.pop_front() {
            Some(entry) => {
                self.running = Some(Running {
                    id: entry.id,
                    slot: entry.slot,
                });
                Ok(Started {
                    id: entry.id,
                    input: entry.input,
                    driver: entry.driver,
                })
            }
            None if self.open => Err(NotStarted::Empty),
            None => Err(NotStarted::ShutDown),
        }
    }

    /// The runner's poll: [`start`](Self::start), except that while nothing can start (a turn
    /// runs, or nothing is pending) `waker` is registered as the runner's and the waker it
    /// replaced is handed back. `Ready(None)` once shut down with nothing running.
    pub(super) fn poll_start(
        &mut self,
        waker: &Waker,
    ) -> (Poll<Option<Started<T, D>>>, Option<Waker>) {
        match self.start() {
            Ok(started) => (Poll::Ready(Some(started)), None),
            Err(NotStarted::ShutDown) => (Poll::Ready(None), None),
            Err(NotStarted::Empty | NotStarted::Running(_)) => {
                (Poll::Pending, register(&mut self.runner, waker))
            }
        }
    }

    /// The waiting runner's waker, taken: a turn may be able to start now.
    pub(super) const fn take_runner(&mut self) -> Option<Waker> {
        self.runner.take()
    }

    /// The running turn `id` ends with `result` (`interrupted` for an abort).
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

    /// Cancels the oldest pending entry, if any: its ticket settles `cancelled`. Returns its input
    /// and driver and the waker to wake.
    pub(super) fn cancel_oldest(&mut self) -> Option<(T, D, Option<Waker>)> {
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
    pub(super) fn claim(&mut self, index: usize, id: TurnId, waker: Option<&Waker>) -> Claim<R> {
        let Some(slot) = self.slots.get_mut(index) else {
            return Claim::Coalesced;
        };
        if slot.turn != id {
            return Claim::Coalesced;
        }
        match &mut slot.state {
            SlotState::Live {
                waker: registered, ..
            } => Claim::Waiting {
                replaced: waker.and_then(|waker| register(registered, waker)),
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

//! Where tickets wait and outcomes are parked: a fixed pool of `2N + 1` slots (`heapless::Vec`s)
//! with an O(1) free list.
//!
//! A slot belongs to one *chain* of submissions: a pending submission and every later input of
//! the same driver that coalesced into it. The slot always holds the id of the chain's newest
//! member; a ticket whose id is no longer the slot's was coalesced, which is why coalescing needs
//! no slot of its own. A slot is taken when a submission is queued and given back when the
//! chain's last ticket has read its outcome, or when the outcome settles after that ticket was
//! dropped, or when the ticket is dropped after it settled.
//!
//! `N` chains can be pending and one running, so `N + 1` slots would do if every ticket read its
//! outcome at once; the other `N` park outcomes that live tickets have not read yet (a clear
//! followed by a refill, before the cancelled tickets are polled, needs exactly that). With
//! every slot in use, `submit` refuses with `NotAccepted::UnreadTickets`.

use core::task::Waker;

use heapless::Vec;

use super::outcome::Settled;
use super::turn_id::TurnId;

/// What a slot holds.
pub(super) enum SlotState<R> {
    /// Unused; the next free slot, if any.
    Free { next: Option<usize> },
    /// A chain that is pending or running: its ticket's waker, and whether the ticket still exists.
    Live { waker: Option<Waker>, ticket: bool },
    /// The chain settled; the outcome waits for its ticket.
    Settled(Settled<R>),
}

/// One slot: the id of its chain's newest member and its state.
pub(super) struct Slot<R> {
    pub(super) turn: TurnId,
    pub(super) state: SlotState<R>,
}

/// `2N + 1` slots in three parts: two `heapless::Vec`s for slots `0..N` and `N..2N`, and slot `2N`
/// (stable Rust cannot write a capacity of `2 * N + 1` for a generic `N`). A slot is pushed when
/// it is first taken, so the parts fill in index order; released slots are reused through the
/// free list threaded through their [`SlotState::Free`] states, most recently released first.
pub(super) struct Slots<R, const N: usize> {
    low: Vec<Slot<R>, N>,
    high: Vec<Slot<R>, N>,
    last: Option<Slot<R>>,
    /// The most recently released slot.
    free: Option<usize>,
}

impl<R, const N: usize> Slots<R, N> {
    /// All slots unused.
    pub(super) const fn new() -> Self {
        Self {
            low: Vec::new(),
            high: Vec::new(),
            last: None,
            free: None,
        }
    }

    /// Slot `index`, once it has been taken.
    #[inline(always)]
    pub(super) fn get_mut(&mut self, index: usize) -> Option<&mut Slot<R>> {
        if index < N {
            self.low.get_mut(index)
        } else if index < 2 * N {
            self.high.get_mut(index - N)
        } else if index == 2 * N {
            self.last.as_mut()
        } else {
            None
        }
    }

    /// Takes a free slot for the chain starting with `turn`, with a live ticket; O(1).
    #[inline(always)]
    pub(super) fn take(&mut self, turn: TurnId) -> Option<usize> {
        let live = SlotState::Live {
            waker: None,
            ticket: true,
        };
        let Some(index) = self.free else {
            return self.push(Slot { turn, state: live });
        };
        let slot = self.get_mut(index)?;
        let next = match slot.state {
            SlotState::Free { next } => next,
            SlotState::Live { .. } | SlotState::Settled(_) => None,
        };
        slot.turn = turn;
        slot.state = live;
        self.free = next;
        Some(index)
    }

    /// Appends `slot` as the next never-used slot; `None` when all `2N + 1` are in use.
    #[inline(always)]
    fn push(&mut self, slot: Slot<R>) -> Option<usize> {
        let index = self.low.len() + self.high.len();
        let Err(slot) = self.low.push(slot) else {
            return Some(index);
        };
        let Err(slot) = self.high.push(slot) else {
            return Some(index);
        };
        if self.last.is_some() {
            return None;
        }
        self.last = Some(slot);
        Some(index)
    }

    /// Gives slot `index` back; returns what it held (to be dropped outside the lock); O(1).
    /// A free slot stays as it is (so the free list never holds a slot twice).
    #[inline(always)]
    pub(super) fn release(&mut self, index: usize) -> Option<SlotState<R>> {
        let next = self.free;
        let slot = self.get_mut(index)?;
        if matches!(slot.state, SlotState::Free { .. }) {
            return None;
        }
        let previous = core::mem::replace(&mut slot.state, SlotState::Free { next });
        self.free = Some(index);
        Some(previous)
    }
}

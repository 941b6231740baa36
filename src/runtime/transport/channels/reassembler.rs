//! Restores sequence order whatever the delivery order, holding at most `N` items.

use alloc::vec::Vec;
use core::fmt;

use heapless::Deque;

/// Why a [`ChannelReassembler`] refused an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SequenceRefusal {
    /// The seq was already handed out (a repeat of a delivered item, or older still).
    #[error("seq {seq} was already delivered")]
    Stale {
        /// The refused seq.
        seq: u32,
    },
    /// An item with this seq is already waiting.
    #[error("seq {seq} is already waiting for reassembly")]
    Duplicate {
        /// The refused seq.
        seq: u32,
    },
    /// The seq is `capacity` or more ahead of the next one expected: holding it could need more
    /// than `capacity` items.
    #[error(
        "seq {seq} is beyond the reassembly window (expecting {expected}, holding at most {capacity} frames)"
    )]
    BeyondWindow {
        /// The refused seq.
        seq: u32,
        /// The seq the reassembler hands out next.
        expected: u32,
        /// How many items it holds at most.
        capacity: usize,
    },
}

/// A refused [`ChannelReassembler::push`]: the reason and the item, handed back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{refusal}")]
pub struct ReassemblyRefused<T> {
    /// Why the item was refused.
    pub refusal: SequenceRefusal,
    /// The item, untouched.
    pub item: T,
}

/// Puts items numbered by a `u32` seq back in order: [`push`](Self::push) takes them in any
/// order, [`pop`](Self::pop) hands them out strictly by seq, without gaps.
///
/// Memory is bounded by the const capacity `N`: it holds only items whose seq lies in the
/// window `expected .. expected + N`, in `N` slots held inline. Anything else is refused and
/// handed back: a seq below the window (stale), one already held (duplicate), one beyond it. `N`
/// must be at least 1 (checked at compile time).
///
/// Sequence numbers never wrap: once seq `u32::MAX` has been handed out, every seq is stale and
/// [`expected`](Self::expected) is `None`.
pub struct ChannelReassembler<T, const N: usize> {
    /// The next seq to hand out; `2^32` once `u32::MAX` was handed out.
    next: u64,
    /// Seq `next + k` waits in `window[k]`; the window reaches as far as the furthest item held.
    window: Deque<Option<T>, N>,
    held: usize,
}

impl<T, const N: usize> Default for ChannelReassembler<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> fmt::Debug for ChannelReassembler<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChannelReassembler")
            .field("expected", &self.expected())
            .field("held", &self.held)
            .field("capacity", &N)
            .finish()
    }
}

impl<T, const N: usize> ChannelReassembler<T, N> {
    /// How many items it holds at most.
    pub const CAPACITY: usize = N;

    /// An empty reassembler that expects seq 0 first.
    #[must_use]
    pub const fn new() -> Self {
        Self::starting_at(0)
    }

    /// An empty reassembler that expects `seq` first (to resume a sequence space).
    #[must_use]
    pub const fn starting_at(seq: u32) -> Self {
        const { assert!(N > 0, "a reassembler holds at least one item") };
        Self {
            next: seq as u64,
            window: Deque::new(),
            held: 0,
        }
    }

    /// The seq [`pop`](Self::pop) hands out next, or `None` once `u32::MAX` was handed out.
    #[must_use]
    pub fn expected(&self) -> Option<u32> {
        u32::try_from(self.next).ok()
    }

    /// How many items are held (waiting for an earlier seq, or ready to pop).
    #[must_use]
    pub const fn len(&self) -> usize {
        self.held
    }

    /// True when nothing is held.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.held == 0
    }

    /// Holds `item` under `seq` until every earlier seq has been popped.
    ///
    /// # Errors
    /// [`ReassemblyRefused`] with the item: `Stale` below the window, `Duplicate` when that seq
    /// is already held, `BeyondWindow` at `expected + N` or later. Nothing changes.
    pub fn push(&mut self, seq: u32, item: T) -> Result<(), ReassemblyRefused<T>> {
        let refuse = |refusal, item| Err(ReassemblyRefused { refusal, item });
        let Some(offset) = u64::from(seq).checked_sub(self.next) else {
            return refuse(SequenceRefusal::Stale { seq }, item);
        };
        let Some(index) = usize::try_from(offset).ok().filter(|offset| *offset < N) else {
            // `seq >= next`, so `next` is a seq too.
            let expected = u32::try_from(self.next).unwrap_or(u32::MAX);
            let refusal = SequenceRefusal::BeyondWindow {
                seq,
                expected,
                capacity: N,
            };
            return refuse(refusal, item);
        };
        while self.window.len() <= index {
            // `index < N`, so the window has room.
            let _ = self.window.push_back(None);
        }
        match self.window.get_mut(index) {
            Some(slot @ None) => {
                *slot = Some(item);
                self.held += 1;
                Ok(())
            }
            _ => refuse(SequenceRefusal::Duplicate { seq }, item),
        }
    }

    /// The item with the expected seq, if it has arrived; the expected seq then moves on.
    pub fn pop(&mut self) -> Option<T> {
        let item = self.window.front_mut()?.take()?;
        self.window.pop_front();
        self.next += 1;
        self.held -= 1;
        Some(item)
    }

    /// Every held item, in seq order (the gaps before them were never filled).
    #[must_use]
    pub fn into_held(self) -> Vec<T> {
        self.window.into_iter().flatten().collect()
    }
}

//! The pending submissions: a `heapless::Deque` of capacity `N`, oldest first.
//!
//! `heapless::Deque::<_, 0>::new()` fails to compile (`const { assert!(N > 0) }`), and a depth-0
//! queue is public API, so depth 0 has no deque at all: `Pending::EMPTY` picks `None` for it in
//! a constant, where the `Deque::new` of the branch not taken is never evaluated (written in a
//! function body instead, the call would still be instantiated for `N = 0` and fail the build).

use heapless::Deque;

use super::turn_id::TurnId;

/// One pending submission.
pub(super) struct Entry<T, D> {
    /// Its id (the newest one, after coalescing).
    pub(super) id: TurnId,
    /// The slot its ticket settles through.
    pub(super) slot: usize,
    /// Its input.
    pub(super) input: T,
    /// The driver it is attributed to; `None` only while a submission lends it out to compare
    /// it with its own driver (see `State::begin`).
    pub(super) driver: Option<D>,
}

/// At most `N` pending submissions in arrival order; every operation is O(1).
pub(super) struct Pending<T, D, const N: usize> {
    /// The entries; `None` exactly when `N = 0` (a queue that holds nothing).
    ring: Option<Deque<Entry<T, D>, N>>,
}

impl<T, D, const N: usize> Pending<T, D, N> {
    /// No deque for depth 0 (see the module docs), an empty one otherwise.
    const EMPTY: Option<Deque<Entry<T, D>, N>> = if N == 0 { None } else { Some(Deque::new()) };

    /// Nothing pending.
    pub(super) const fn new() -> Self {
        Self { ring: Self::EMPTY }
    }

    /// How many submissions are pending.
    pub(super) const fn len(&self) -> usize {
        match &self.ring {
            Some(ring) => ring.len(),
            None => 0,
        }
    }

    /// True when `N` submissions are pending (always, for depth 0).
    #[inline(always)]
    pub(super) fn is_full(&self) -> bool {
        self.ring.as_ref().is_none_or(Deque::is_full)
    }

    /// The newest pending submission.
    #[inline(always)]
    pub(super) fn tail_mut(&mut self) -> Option<&mut Entry<T, D>> {
        self.ring.as_mut()?.back_mut()
    }

    /// Appends `entry`, or hands it back when `N` are pending.
    #[inline(always)]
    pub(super) fn push_back(&mut self, entry: Entry<T, D>) -> Result<(), Entry<T, D>> {
        match &mut self.ring {
            Some(ring) => ring.push_back(entry),
            None => Err(entry),
        }
    }

    /// The oldest pending submission.
    #[inline(always)]
    pub(super) fn front(&self) -> Option<&Entry<T, D>> {
        self.ring.as_ref()?.front()
    }

    /// Takes the oldest pending submission.
    #[inline(always)]
    pub(super) fn pop_front(&mut self) -> Option<Entry<T, D>> {
        self.ring.as_mut()?.pop_front()
    }
}

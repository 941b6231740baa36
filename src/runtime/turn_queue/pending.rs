//! The pending submissions: a fixed-capacity ring, oldest first.

use super::turn_id::TurnId;

/// One pending submission.
pub(super) struct Entry<T, D> {
    /// Its id (the newest one, after coalescing).
    pub(super) id: TurnId,
    /// The slot its ticket settles through.
    pub(super) slot: usize,
    /// Its input.
    pub(super) input: T,
    /// The driver it is attributed to.
    pub(super) driver: D,
}

/// At most `N` pending submissions in arrival order; every operation is O(1).
pub(super) struct Pending<T, D, const N: usize> {
    entries: [Option<Entry<T, D>>; N],
    head: usize,
    len: usize,
}

impl<T, D, const N: usize> Pending<T, D, N> {
    /// An empty ring.
    pub(super) const fn new() -> Self {
        Self {
            entries: [const { None }; N],
            head: 0,
            len: 0,
        }
    }

    /// How many submissions are pending.
    pub(super) const fn len(&self) -> usize {
        self.len
    }

    /// True when `N` submissions are pending.
    pub(super) const fn is_full(&self) -> bool {
        self.len >= N
    }

    /// The newest pending submission.
    pub(super) fn tail_mut(&mut self) -> Option<&mut Entry<T, D>> {
        if self.len == 0 {
            return None;
        }
        // `len > 0` implies `N > 0`.
        let index = (self.head + self.len - 1) % N;
        self.entries.get_mut(index)?.as_mut()
    }

    /// Appends `entry`, or hands it back when `N` are pending.
    pub(super) fn push_back(&mut self, entry: Entry<T, D>) -> Result<(), Entry<T, D>> {
        if self.is_full() {
            return Err(entry);
        }
        // `len < N` implies `N > 0`.
        let index = (self.head + self.len) % N;
        match self.entries.get_mut(index) {
            Some(free) => {
                *free = Some(entry);
                self.len += 1;
                Ok(())
            }
            None => Err(entry),
        }
    }

    /// Takes the oldest pending submission.
    pub(super) fn pop_front(&mut self) -> Option<Entry<T, D>> {
        if self.len == 0 {
            return None;
        }
        let entry = self.entries.get_mut(self.head)?.take();
        // `len > 0` implies `N > 0`.
        self.head = (self.head + 1) % N;
        self.len -= 1;
        entry
    }
}

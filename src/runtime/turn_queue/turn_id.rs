//! The queue's own turn id: a `Copy` number minted at acceptance.

use core::fmt;

/// The id of one submission, minted by [`TurnQueue::submit`](super::TurnQueue::submit) when it
/// accepts the submission and kept while the submission waits, runs and settles: one submission,
/// one identity.
///
/// It is a number from the queue's own counter (1, 2, 3, … by default; see
/// [`TurnQueue::with_first_id`](super::TurnQueue::with_first_id)), so it is `Copy` and minting it
/// allocates nothing. It prints as the decimal number, which is the id text the session family's
/// `TurnHandle::turn_id` and `TurnNotRun::turn_id` receive when a caller converts (that
/// conversion allocates the `String`). Ids are unique within one queue for 2^64 submissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TurnId(pub(super) u64);

impl TurnId {
    /// The number behind the id.
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl From<TurnId> for u64 {
    fn from(id: TurnId) -> Self {
        id.0
    }
}

impl fmt::Display for TurnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

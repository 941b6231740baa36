//! What a ticket settles with, what never ran, and what `start` hands the runner.

use crate::session::turns::TurnNotRunReason;

use super::turn_id::TurnId;

/// How one submission settled: the output of its [`TurnTicket`](super::TurnTicket).
///
/// Exactly one of these reaches each ticket, once. `R` is the queue's result type: the runner
/// hands it to [`finish`](super::TurnQueue::finish) (a turn that ran to the end) or to
/// [`abort`](super::TurnQueue::abort) (the partial result of an aborted turn, for local history
/// only).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Settled<R> {
    /// The turn ran and the runner finished it with this result.
    Complete(R),
    /// The turn ran and was aborted; this is its partial result, marked interrupted.
    Interrupted(R),
    /// The submission was accepted but never ran.
    NotRun(NotRun),
}

impl<R> Settled<R> {
    /// The not-run outcome, when the submission never ran.
    #[must_use]
    pub const fn not_run(&self) -> Option<NotRun> {
        match self {
            Self::NotRun(not_run) => Some(*not_run),
            Self::Complete(_) | Self::Interrupted(_) => None,
        }
    }

    /// True for [`Interrupted`](Self::Interrupted).
    #[must_use]
    pub const fn is_interrupted(&self) -> bool {
        matches!(self, Self::Interrupted(_))
    }

    /// The result of a turn that ran (complete or interrupted), or why it never ran.
    ///
    /// # Errors
    ///
    /// The [`NotRun`] outcome of a submission that never ran.
    pub fn into_result(self) -> Result<R, NotRun> {
        match self {
            Self::Complete(result) | Self::Interrupted(result) => Ok(result),
            Self::NotRun(not_run) => Err(not_run),
        }
    }
}

/// The outcome of an accepted submission that never ran: its id and why. `Copy`, so settling it
/// allocates nothing; `From<NotRun> for session::turns::TurnNotRun` gives the session family's form
/// (which allocates the id text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("turn {turn_id} never ran: {reason}")]
pub struct NotRun {
    /// The id the submission was given at acceptance.
    pub turn_id: TurnId,
    /// Why it never ran: coalesced, dropped or cancelled.
    pub reason: TurnNotRunReason,
}

/// The pending submission [`start`](super::TurnQueue::start) took to run: its id, its input and
/// the driver it is attributed to.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Started<T, D> {
    /// The id minted when the submission was accepted; pass it to `finish` or `abort`.
    pub id: TurnId,
    /// The submitted input (the newest one, if later inputs coalesced into this entry).
    pub input: T,
    /// The driver the turn is attributed to.
    pub driver: D,
}

//! Typed refusals of the queue's operations: nothing panics on misuse.

use core::fmt;

use super::turn_id::TurnId;

/// [`submit`](super::TurnQueue::submit) after [`shutdown`](super::TurnQueue::shutdown): the queue
/// accepts nothing more and hands the input back. No id is minted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ShutDown<T>(pub T);

impl<T> ShutDown<T> {
    /// The input that was refused.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> fmt::Display for ShutDown<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the turn queue is shut down and accepts no more submissions")
    }
}

impl<T: fmt::Debug> core::error::Error for ShutDown<T> {}

/// Why [`start`](super::TurnQueue::start) took nothing to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum NotStarted {
    /// A turn is running already (its id): finish or abort it first.
    Running(TurnId),
    /// Nothing is pending.
    Empty,
    /// The queue is shut down and nothing runs any more.
    ShutDown,
}

impl fmt::Display for NotStarted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Running(id) => write!(f, "turn {id} is still running"),
            Self::Empty => f.write_str("no submission is pending"),
            Self::ShutDown => f.write_str("the turn queue is shut down"),
        }
    }
}

impl core::error::Error for NotStarted {}

/// [`finish`](super::TurnQueue::finish) or [`abort`](super::TurnQueue::abort) named a turn that
/// is not the running one (or nothing runs): the result is handed back and nothing settles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct NotRunning<R> {
    /// The turn the caller named.
    pub requested: TurnId,
    /// The turn that is running, if any.
    pub running: Option<TurnId>,
    /// The result, handed back.
    pub result: R,
}

impl<R> NotRunning<R> {
    /// The result that was handed back.
    pub fn into_inner(self) -> R {
        self.result
    }
}

impl<R> fmt::Display for NotRunning<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.running {
            Some(running) => write!(
                f,
                "turn {} is not running (turn {running} is)",
                self.requested
            ),
            None => write!(f, "turn {} is not running (nothing is)", self.requested),
        }
    }
}

impl<R: fmt::Debug> core::error::Error for NotRunning<R> {}

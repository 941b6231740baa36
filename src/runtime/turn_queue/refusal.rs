//! Typed refusals of the queue's operations: nothing panics on misuse.

use core::fmt;

use super::turn_id::TurnId;

/// Why [`submit`](super::TurnQueue::submit) accepted nothing. Each variant hands the input back;
/// no id is minted and no ticket exists. Match on it: every reason asks the host for something
/// different.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum NotAccepted<T> {
    /// After [`shutdown`](super::TurnQueue::shutdown): the queue accepts nothing more.
    #[error("the turn queue is shut down and accepts no more submissions")]
    ShutDown(T),
    /// Every id up to `u64::MAX` has been minted: one more would repeat an id (a queue made with
    /// [`with_first_id`](super::TurnQueue::with_first_id) near the end of the range). The queue
    /// still runs and settles what it holds; a host needs a new queue for new submissions.
    #[error("the turn queue has minted its last turn id")]
    IdsExhausted(T),
    /// Fewer than `N` submissions are pending, but every one of the queue's `2N + 1` slots is
    /// in use: more than `N` outcomes sit settled in live tickets that have not read them.
    /// Reading (awaiting, `try_settled`) or dropping those tickets frees their slots. The host
    /// holds tickets it does not read; this is not the queue being full (that settles the
    /// ticket [`dropped`](crate::session::turns::TurnNotRunReason::Dropped)).
    #[error("every slot of the turn queue parks an outcome its ticket has not read")]
    UnreadTickets(T),
    /// Called from inside another submission to this queue: a driver's `PartialEq`, comparing
    /// that submission's driver with the newest pending one's, called back into the queue. The
    /// queue was not changed; submit again once the comparison has returned.
    #[error("the turn queue was called back from a driver's comparison and accepts nothing then")]
    Reentered(T),
}

/// Why a submission is refused, before the input is attached ([`NotAccepted`]).
#[derive(Clone, Copy)]
pub(super) enum Refusal {
    ShutDown,
    IdsExhausted,
    UnreadTickets,
    Reentered,
}

impl Refusal {
    /// The public refusal, holding `input`.
    pub(super) const fn with<T>(self, input: T) -> NotAccepted<T> {
        match self {
            Self::ShutDown => NotAccepted::ShutDown(input),
            Self::IdsExhausted => NotAccepted::IdsExhausted(input),
            Self::UnreadTickets => NotAccepted::UnreadTickets(input),
            Self::Reentered => NotAccepted::Reentered(input),
        }
    }
}

/// [`clear`](super::TurnQueue::clear) or [`shutdown`](super::TurnQueue::shutdown) called from
/// inside a submission to the same queue (a driver's `PartialEq` calling back, while it compares
/// that submission's driver with the newest pending one's). Nothing was cancelled and the queue
/// is as open as it was; call it again once the comparison has returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("the turn queue was called back from a driver's comparison and clears nothing then")]
pub struct Reentered;

impl<T> NotAccepted<T> {
    /// The input that was refused.
    pub fn into_inner(self) -> T {
        match self {
            Self::ShutDown(input)
            | Self::IdsExhausted(input)
            | Self::UnreadTickets(input)
            | Self::Reentered(input) => input,
        }
    }
}

/// Why [`start`](super::TurnQueue::start) took nothing to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum NotStarted {
    /// A turn is running already (its id): finish or abort it first.
    #[error("turn {0} is still running")]
    Running(TurnId),
    /// Nothing is pending.
    #[error("no submission is pending")]
    Empty,
    /// The queue is shut down and nothing runs any more.
    #[error("the turn queue is shut down")]
    ShutDown,
    /// Called from inside a submission to the same queue (a driver's `PartialEq` calling back)
    /// while the oldest pending entry is the one whose driver that submission is comparing:
    /// nothing started; start again once the comparison has returned.
    #[error("the turn queue was called back from a driver's comparison and starts nothing then")]
    Reentered,
}

/// [`finish`](super::TurnQueue::finish) or [`abort`](super::TurnQueue::abort) named a turn that
/// is not the running one (or nothing runs): the result is handed back and nothing settles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("turn {requested} is not running ({} is)", Runner(*running))]
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

/// The running turn as [`NotRunning`] names it: `turn 7`, or `nothing`.
struct Runner(Option<TurnId>);

impl fmt::Display for Runner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(running) => write!(f, "turn {running}"),
            None => f.write_str("nothing"),
        }
    }
}

/// A ticket polled (or asked with `try_settled`) after it returned its outcome: the outcome was
/// moved out then and is not returned twice. Answered at once, so a host that polls a settled
/// ticket again learns it instead of waiting for ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("turn {turn_id}'s ticket already returned its outcome")]
pub struct AlreadyRead {
    /// The ticket's turn.
    pub turn_id: TurnId,
}

//! The submitter's side: a ticket that settles exactly once, and its session-family form.

use alloc::string::ToString;
use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};

use embassy_sync::blocking_mutex::raw::RawMutex;

use crate::session::turns::{TurnCompletion, TurnHandle, TurnNotRunReason};

use super::outcome::{NotRun, Settled};
use super::queue::TurnQueue;
use super::refusal::AlreadyRead;
use super::state::Claim;
use super::turn_id::TurnId;

/// Where a ticket stands.
enum Stage<T> {
    /// Waiting in slot `slot` (pending or running, or settled and not read yet).
    Waiting { slot: usize },
    /// Dropped at capacity when submitted: settled at once; the input is kept until taken.
    Dropped { input: Option<T>, reported: bool },
    /// The outcome was returned.
    Done,
}

/// The ticket of one accepted submission: its [`TurnId`] and a future of how it settled.
///
/// Awaiting it (it is a [`Future`] with output `Result<Settled<R>, AlreadyRead>`) resolves with
/// `Ok` of the turn's result, complete or interrupted, or of the [`NotRun`] outcome: coalesced,
/// dropped or cancelled. It always settles, exactly once: after it has returned its outcome, a
/// ticket is terminated ([`is_terminated`](Self::is_terminated)), and polling it again (or
/// [`try_settled`](Self::try_settled)) answers at once with the typed refusal
/// [`AlreadyRead`], never a second outcome and never `Pending` for ever. (A ticket awaited by
/// value cannot be polled again; only a ticket polled through `&mut` can.)
///
/// A pending poll registers the task's waker in the ticket's slot; the queue wakes it when the
/// ticket settles. [`try_settled`](Self::try_settled) asks without a waker, for hosts with no
/// executor. Dropping a ticket never blocks anything: the submission still runs (or is coalesced,
/// cancelled, …) unobserved and its slot is given back as soon as it settles. (Leaking a ticket
/// with `mem::forget` instead keeps its slot in use for good.)
///
/// Convert it into the session family's handle with [`into_turn_handle`](Self::into_turn_handle).
#[must_use = "a ticket is how the submitter learns how its turn settled"]
pub struct TurnTicket<'q, M: RawMutex, T, R, D, const N: usize> {
    queue: &'q TurnQueue<M, T, R, D, N>,
    id: TurnId,
    stage: Stage<T>,
}

// The ticket never pins anything: the input it may hold is never polled or projected.
impl<M: RawMutex, T, R, D, const N: usize> Unpin for TurnTicket<'_, M, T, R, D, N> {}

impl<'q, M: RawMutex, T, R, D, const N: usize> TurnTicket<'q, M, T, R, D, N> {
    pub(super) fn waiting(queue: &'q TurnQueue<M, T, R, D, N>, id: TurnId, slot: usize) -> Self {
        Self {
            queue,
            id,
            stage: Stage::Waiting { slot },
        }
    }

    pub(super) fn dropped(queue: &'q TurnQueue<M, T, R, D, N>, id: TurnId, input: T) -> Self {
        Self {
            queue,
            id,
            stage: Stage::Dropped {
                input: Some(input),
                reported: false,
            },
        }
    }

    /// The id minted when the submission was accepted.
    pub const fn id(&self) -> TurnId {
        self.id
    }

    /// True once the ticket has returned its outcome.
    pub const fn is_terminated(&self) -> bool {
        matches!(
            self.stage,
            Stage::Done | Stage::Dropped { reported: true, .. }
        )
    }

    /// The input of a submission that was dropped at capacity, handed back (once); `None` for
    /// any other submission.
    pub fn take_dropped_input(&mut self) -> Option<T> {
        match &mut self.stage {
            Stage::Dropped { input, .. } => input.take(),
            Stage::Waiting { .. } | Stage::Done => None,
        }
    }

    /// The outcome if the submission has settled (`Ok(Some)`, once), `Ok(None)` while it has not.
    /// Registers no waker. O(1); allocates nothing.
    ///
    /// # Errors
    ///
    /// [`AlreadyRead`] once the ticket has returned its outcome (here or as a future): the
    /// outcome was moved out then, and is not returned twice.
    pub fn try_settled(&mut self) -> Result<Option<Settled<R>>, AlreadyRead> {
        match self.poll_with(None) {
            Poll::Ready(read) => read.map(Some),
            Poll::Pending => Ok(None),
        }
    }

    fn not_run(&self, reason: TurnNotRunReason) -> Settled<R> {
        Settled::NotRun(NotRun {
            turn_id: self.id,
            reason,
        })
    }

    #[inline(always)]
    fn poll_with(&mut self, waker: Option<&Waker>) -> Poll<Result<Settled<R>, AlreadyRead>> {
        let outcome = match &mut self.stage {
            Stage::Done | Stage::Dropped { reported: true, .. } => {
                return Poll::Ready(Err(AlreadyRead { turn_id: self.id }));
            }
            Stage::Dropped { reported, .. } => {
                *reported = true;
                return Poll::Ready(Ok(self.not_run(TurnNotRunReason::Dropped)));
            }
            Stage::Waiting { slot } => match self.queue.claim(*slot, self.id, waker) {
                Claim::Coalesced => self.not_run(TurnNotRunReason::Coalesced),
                Claim::Settled(outcome) => outcome,
                Claim::Waiting { displaced } => {
                    drop(displaced);
                    return Poll::Pending;
                }
                // Only asked of a borrowed waker; `claim` always answers a clone otherwise.
                Claim::NeedsWaker => return Poll::Pending,
            },
        };
        self.stage = Stage::Done;
        Poll::Ready(Ok(outcome))
    }

    /// The session family's handle for this ticket: the id as text and a completion future whose
    /// output is a [`TurnCompletion<E>`]. Allocates the id text (the caller's choice); the
    /// completion itself allocates only what the conversion of `Settled<R>` does.
    pub fn into_turn_handle<E>(self) -> TurnHandle<TicketCompletion<'q, M, T, R, D, E, N>>
    where
        Settled<R>: Into<TurnCompletion<E>>,
    {
        TurnHandle::new(
            self.id.to_string(),
            TicketCompletion {
                ticket: self,
                answered: None,
            },
        )
    }
}

impl<M: RawMutex, T, R, D, const N: usize> Future for TurnTicket<'_, M, T, R, D, N> {
    type Output = Result<Settled<R>, AlreadyRead>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.get_mut().poll_with(Some(cx.waker()))
    }
}

impl<M: RawMutex, T, R, D, const N: usize> Drop for TurnTicket<'_, M, T, R, D, N> {
    fn drop(&mut self) {
        if let Stage::Waiting { slot } = self.stage {
            self.queue.forget(slot, self.id);
        }
    }
}

impl<M: RawMutex, T, R, D, const N: usize> fmt::Debug for TurnTicket<'_, M, T, R, D, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stage = match self.stage {
            Stage::Waiting { .. } => "waiting",
            Stage::Dropped {
                reported: false, ..
            } => "dropped",
            Stage::Dropped { reported: true, .. } | Stage::Done => "terminated",
        };
        f.debug_struct("TurnTicket")
            .field("id", &self.id)
            .field("stage", &stage)
            .finish()
    }
}

/// The completion future of a ticket converted into the session family's
/// [`TurnHandle`] ([`TurnTicket::into_turn_handle`]): the ticket's outcome as a
/// [`TurnCompletion<E>`]. Settles exactly when the ticket does. It keeps a copy of the
/// completion it resolved with, and polled again after that (only possible through `&mut`;
/// `TurnHandle` is awaited by value) it answers the same completion again, never `Pending`.
/// The ticket inside is reached only for its id and a dropped input, so nothing else reads its
/// outcome first.
#[must_use = "futures do nothing unless polled"]
pub struct TicketCompletion<'q, M: RawMutex, T, R, D, E, const N: usize> {
    ticket: TurnTicket<'q, M, T, R, D, N>,
    /// The completion it resolved with, answered again to a later poll.
    answered: Option<TurnCompletion<E>>,
}

impl<M: RawMutex, T, R, D, E, const N: usize> TicketCompletion<'_, M, T, R, D, E, N> {
    /// The id minted when the submission was accepted.
    pub const fn id(&self) -> TurnId {
        self.ticket.id()
    }

    /// The input of a submission that was dropped at capacity, handed back (once); `None` for
    /// any other submission ([`TurnTicket::take_dropped_input`]).
    pub fn take_dropped_input(&mut self) -> Option<T> {
        self.ticket.take_dropped_input()
    }
}

// Nothing in it is pinned: the kept completion is only cloned, never polled.
impl<M: RawMutex, T, R, D, E, const N: usize> Unpin for TicketCompletion<'_, M, T, R, D, E, N> {}

impl<M: RawMutex, T, R, D, E, const N: usize> Future for TicketCompletion<'_, M, T, R, D, E, N>
where
    Settled<R>: Into<TurnCompletion<E>>,
    E: Clone,
{
    type Output = TurnCompletion<E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<TurnCompletion<E>> {
        let this = self.get_mut();
        if let Some(answered) = &this.answered {
            return Poll::Ready(answered.clone());
        }
        match this.ticket.poll_with(Some(cx.waker())) {
            Poll::Ready(Ok(outcome)) => {
                let completion: TurnCompletion<E> = outcome.into();
                this.answered = Some(completion.clone());
                Poll::Ready(completion)
            }
            // Never: only this future reads the ticket's outcome, and it answers from
            // `answered` once it has.
            Poll::Ready(Err(AlreadyRead { .. })) | Poll::Pending => Poll::Pending,
        }
    }
}

impl<M: RawMutex, T, R, D, E, const N: usize> fmt::Debug
    for TicketCompletion<'_, M, T, R, D, E, N>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TicketCompletion")
            .field("ticket", &self.ticket)
            .finish()
    }
}

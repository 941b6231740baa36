//! Conversions into the session family's turn types. These allocate (the id text, a boxed
//! result): the queue itself never does, and converting is the caller's choice.

use alloc::boxed::Box;
use alloc::string::ToString;

use crate::session::turns::{ExecutionResult, TurnCompletion, TurnError, TurnNotRun, TurnOutcome};

use super::outcome::{NotRun, Settled};

/// The session family's not-run outcome: the same id (as text) and reason.
impl From<NotRun> for TurnNotRun {
    fn from(not_run: NotRun) -> Self {
        Self::new(not_run.turn_id.to_string(), not_run.reason)
    }
}

/// A queue whose runner settles with an [`ExecutionResult`]: a finished turn completes, an
/// aborted one is interrupted (its result marked partial), a submission that never ran is
/// [`TurnError::NotRun`].
impl<E> From<Settled<ExecutionResult>> for TurnCompletion<E> {
    fn from(settled: Settled<ExecutionResult>) -> Self {
        match settled {
            Settled::Complete(result) => Ok(TurnOutcome::Complete(Box::new(result))),
            Settled::Interrupted(partial) => {
                Ok(TurnOutcome::Interrupted(partial.into_interrupted()))
            }
            Settled::NotRun(not_run) => Err(TurnError::NotRun(not_run.into())),
        }
    }
}

/// A queue whose runner settles with `Result<ExecutionResult, E>`: as above, and a turn that ran
/// and failed (finished or aborted with `Err`) is [`TurnError::Failed`].
impl<E> From<Settled<Result<ExecutionResult, E>>> for TurnCompletion<E> {
    fn from(settled: Settled<Result<ExecutionResult, E>>) -> Self {
        match settled {
            Settled::Complete(Ok(result)) => Ok(TurnOutcome::Complete(Box::new(result))),
            Settled::Interrupted(Ok(partial)) => {
                Ok(TurnOutcome::Interrupted(partial.into_interrupted()))
            }
            Settled::Complete(Err(error)) | Settled::Interrupted(Err(error)) => {
                Err(TurnError::Failed(error))
            }
            Settled::NotRun(not_run) => Err(TurnError::NotRun(not_run.into())),
        }
    }
}

//! The lifecycle conformance suite (`runTransportLifecycleConformance`): cases any adapter runs
//! against itself, with no test harness assumed. Each case takes a fresh adapter from the
//! fixture, every case is mandatory, and each lifecycle step races the host's deadline, so a
//! start, stop or completion that never settles fails instead of hanging (the crate reads no
//! clock: the fixture's [`deadline`](LifecycleFixture::deadline) is the host's timer).
//!
//! The suite has the crate's common shape ([`crate::conformance`]): [`LifecycleCase`] is its
//! case enum, and it has two declared profiles, services ([`LifecycleCase::SERVICE`]) and
//! runners ([`LifecycleCase::RUNNER`], every case). [`run_service_lifecycle_case`] and
//! [`run_runner_lifecycle_case`] run one case on a fresh adapter;
//! [`run_service_lifecycle_conformance`] and [`run_runner_lifecycle_conformance`] run a
//! profile's whole table through a [`CaseHarness`] (pass `&mut StopAtFirst` for the default).
//!
//! [`CaseHarness`]: crate::conformance::CaseHarness

use core::future::{Future, poll_fn};
use core::pin::pin;
use core::task::Poll;

use crate::agent_core::ErrorValue;
use crate::conformance::{self, CaseHarness, SuiteCase};

use super::adapters::{
    TransportAdapter, TransportLifecycleErrorCode, TransportLifecycleKind, TransportRunnerAdapter,
    TransportStartFailure,
};

/// The host's harness for one adapter type: fresh adapters and sessions, its own readiness
/// checks, and its timer.
#[allow(async_fn_in_trait)]
pub trait LifecycleFixture<S> {
    /// The adapter under test.
    type Adapter: TransportAdapter<S>;

    /// A fresh, never attached adapter; called once per case.
    fn create(&mut self) -> Self::Adapter;

    /// A session to attach.
    fn session(&mut self) -> S;

    /// Checks that a started adapter is ready (serving, or launched).
    ///
    /// # Errors
    /// What is not ready.
    async fn assert_ready(&mut self, adapter: &Self::Adapter) -> Result<(), ErrorValue>;

    /// Checks that a stopped adapter released what it held.
    ///
    /// # Errors
    /// What is still held.
    async fn assert_stopped(&mut self, adapter: &Self::Adapter) -> Result<(), ErrorValue>;

    /// Completes when the bound for one lifecycle step has passed (the host's timer). The
    /// suite polls it only while a step is pending.
    async fn deadline(&self);
}

/// A fixture for runner adapters: it can end the run the adapter launched.
pub trait RunnerLifecycleFixture<S>:
    LifecycleFixture<S, Adapter: TransportRunnerAdapter<S>>
{
    /// Makes the adapter's current run finish (`completeRunner`).
    fn complete_runner(&mut self, adapter: &Self::Adapter);
}

/// One case of the suite. Services run [`SERVICE`](Self::SERVICE), runners
/// [`RUNNER`](Self::RUNNER).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LifecycleCase {
    /// The adapter's `KIND` is the kind the suite was run for.
    KindMatches,
    /// A start before any attach is refused with `not-attached`.
    StartBeforeAttach,
    /// A second start while active is refused with `already-started`, and so is an attach.
    SecondStartWhileActive,
    /// A runner's completion stays pending until its run finishes, then resolves in bound.
    CompletionHeldPending,
    /// A started adapter is ready, and a repeated stop succeeds, each in bound.
    StopIsIdempotent,
    /// A stop detaches: a start without a fresh attach is `not-attached`; with one it works.
    RestartAfterFreshAttach,
    /// A stopped adapter released what it held.
    StoppedReleases,
}

impl LifecycleCase {
    /// Every case a service must pass.
    pub const SERVICE: [Self; 6] = [
        Self::KindMatches,
        Self::StartBeforeAttach,
        Self::SecondStartWhileActive,
        Self::StopIsIdempotent,
        Self::RestartAfterFreshAttach,
        Self::StoppedReleases,
    ];

    /// Every case a runner must pass: every case of the suite.
    pub const RUNNER: [Self; 7] = [
        Self::KindMatches,
        Self::StartBeforeAttach,
        Self::SecondStartWhileActive,
        Self::CompletionHeldPending,
        Self::StopIsIdempotent,
        Self::RestartAfterFreshAttach,
        Self::StoppedReleases,
    ];
}

/// Every case, in run order (the runner profile's table; services run
/// [`SERVICE`](LifecycleCase::SERVICE)).
impl SuiteCase for LifecycleCase {
    const ALL: &'static [Self] = &Self::RUNNER;
}

/// The lifecycle call a failure happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LifecycleStep {
    /// `attach`.
    Attach,
    /// `start`.
    Start,
    /// `stop`.
    Stop,
    /// `waitForCompletion`.
    Completion,
}

/// What went wrong in a case.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LifecycleProblem {
    /// The adapter's kind is not the kind the suite was run for.
    #[error("expected {expected} lifecycle, received {received}")]
    KindMismatch {
        /// The kind the suite checks.
        expected: TransportLifecycleKind,
        /// The adapter's `KIND`.
        received: TransportLifecycleKind,
    },
    /// A call that must be refused with `expected` succeeded.
    #[error("expected {expected} from {step:?}, but it succeeded")]
    NotRefused {
        /// The call.
        step: LifecycleStep,
        /// The refusal the contract requires.
        expected: TransportLifecycleErrorCode,
    },
    /// A call that must be refused with `expected` failed otherwise.
    #[error("expected {expected} from {step:?}, received {received}")]
    WrongRefusal {
        /// The call.
        step: LifecycleStep,
        /// The refusal the contract requires.
        expected: TransportLifecycleErrorCode,
        /// What the adapter answered.
        received: TransportStartFailure,
    },
    /// A call that must succeed failed.
    #[error("{step:?} failed: {error}")]
    Failed {
        /// The call.
        step: LifecycleStep,
        /// The adapter's error.
        error: TransportStartFailure,
    },
    /// A call did not settle before the fixture's deadline.
    #[error("{step:?} exceeded the deadline")]
    Timeout {
        /// The call.
        step: LifecycleStep,
    },
    /// A runner's completion resolved before its run was finished.
    #[error("runner completion was not held pending")]
    CompletionNotHeldPending,
    /// The fixture's readiness check failed.
    #[error("not ready: {0}")]
    NotReady(ErrorValue),
    /// The fixture's stopped check failed.
    #[error("not stopped: {0}")]
    NotStopped(ErrorValue),
}

/// A failed case: which, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("lifecycle conformance {case:?}: {problem}")]
pub struct LifecycleConformanceFailure {
    /// The case that failed.
    pub case: LifecycleCase,
    /// Why.
    pub problem: LifecycleProblem,
}

/// Runs every service case ([`LifecycleCase::SERVICE`]), each on a fresh adapter, through
/// `harness`.
///
/// # Errors
/// The failure the harness ended the run with (with
/// [`StopAtFirst`](crate::conformance::StopAtFirst), the first case that failed).
pub async fn run_service_lifecycle_conformance<S, F: LifecycleFixture<S>>(
    fixture: &mut F,
    harness: &mut impl CaseHarness<LifecycleCase, LifecycleConformanceFailure>,
) -> Result<(), LifecycleConformanceFailure> {
    conformance::run_cases(harness, &LifecycleCase::SERVICE, async |case| {
        run_service_lifecycle_case(fixture, case).await
    })
    .await
}

/// Runs every runner case ([`LifecycleCase::RUNNER`], all of them), each on a fresh adapter,
/// through `harness`.
///
/// # Errors
/// The failure the harness ended the run with (with
/// [`StopAtFirst`](crate::conformance::StopAtFirst), the first case that failed).
pub async fn run_runner_lifecycle_conformance<S, F: RunnerLifecycleFixture<S>>(
    fixture: &mut F,
    harness: &mut impl CaseHarness<LifecycleCase, LifecycleConformanceFailure>,
) -> Result<(), LifecycleConformanceFailure> {
    conformance::run_suite(harness, async |case| {
        run_runner_lifecycle_case(fixture, case).await
    })
    .await
}

/// Runs one case against a fresh service adapter. [`LifecycleCase::CompletionHeldPending`] is
/// not a service case: run here, it only starts and stops the service.
///
/// # Errors
/// Why the case failed.
pub async fn run_service_lifecycle_case<S, F: LifecycleFixture<S>>(
    fixture: &mut F,
    case: LifecycleCase,
) -> Result<(), LifecycleConformanceFailure> {
    run_case(fixture, case, TransportLifecycleKind::Service, None).await
}

/// Runs one case against a fresh runner adapter.
///
/// # Errors
/// Why the case failed.
pub async fn run_runner_lifecycle_case<S, F: RunnerLifecycleFixture<S>>(
    fixture: &mut F,
    case: LifecycleCase,
) -> Result<(), LifecycleConformanceFailure> {
    run_case(
        fixture,
        case,
        TransportLifecycleKind::Runner,
        Some(complete_and_wait::<S, F>),
    )
    .await
}

/// How the suite drives a runner's completion; `None` for services.
type Completion<S, F> =
    for<'f> fn(&'f mut F, &'f <F as LifecycleFixture<S>>::Adapter) -> CompletionFuture<'f>;
type CompletionFuture<'f> =
    core::pin::Pin<alloc::boxed::Box<dyn Future<Output = Result<(), LifecycleProblem>> + 'f>>;

/// Checks that the completion is pending, finishes the run, and waits for it in bound.
fn complete_and_wait<'f, S, F: RunnerLifecycleFixture<S>>(
    fixture: &'f mut F,
    adapter: &'f F::Adapter,
) -> CompletionFuture<'f> {
    alloc::boxed::Box::pin(async move {
        let mut wait = pin!(adapter.wait_for_completion());
        let early = poll_fn(|cx| Poll::Ready(wait.as_mut().poll(cx).is_ready())).await;
        if early {
            return Err(LifecycleProblem::CompletionNotHeldPending);
        }
        fixture.complete_runner(adapter);
        match race(wait, fixture.deadline()).await {
            Some(_) => Ok(()),
            None => Err(LifecycleProblem::Timeout {
                step: LifecycleStep::Completion,
            }),
        }
    })
}

/// `Some(output)` when `step` settles first, `None` when the deadline passes first.
async fn race<T>(step: impl Future<Output = T>, deadline: impl Future<Output = ()>) -> Option<T> {
    let mut step = pin!(step);
    let mut deadline = pin!(deadline);
    poll_fn(|cx| {
        if let Poll::Ready(output) = step.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        deadline.as_mut().poll(cx).map(|()| None)
    })
    .await
}

async fn start<S, F: LifecycleFixture<S>>(
    fixture: &F,
    adapter: &F::Adapter,
) -> Result<Result<(), TransportStartFailure>, LifecycleProblem> {
    race(adapter.start(), fixture.deadline())
        .await
        .ok_or(LifecycleProblem::Timeout {
            step: LifecycleStep::Start,
        })
}

async fn started<S, F: LifecycleFixture<S>>(
    fixture: &mut F,
    adapter: &F::Adapter,
) -> Result<(), LifecycleProblem> {
    let session = fixture.session();
    adapter
        .attach(session)
        .map_err(|error| LifecycleProblem::Failed {
            step: LifecycleStep::Attach,
            error: TransportStartFailure::Lifecycle(error),
        })?;
    start(fixture, adapter)
        .await?
        .map_err(|error| LifecycleProblem::Failed {
            step: LifecycleStep::Start,
            error,
        })
}

async fn stop<S, F: LifecycleFixture<S>>(
    fixture: &F,
    adapter: &F::Adapter,
) -> Result<(), LifecycleProblem> {
    race(adapter.stop(), fixture.deadline())
        .await
        .ok_or(LifecycleProblem::Timeout {
            step: LifecycleStep::Stop,
        })?
        .map_err(|error| LifecycleProblem::Failed {
            step: LifecycleStep::Stop,
            error: TransportStartFailure::Failed(error),
        })
}

fn refused(
    step: LifecycleStep,
    expected: TransportLifecycleErrorCode,
    answer: Result<(), TransportStartFailure>,
) -> Result<(), LifecycleProblem> {
    match answer {
        Ok(()) => Err(LifecycleProblem::NotRefused { step, expected }),
        Err(received) if received.lifecycle_code() == Some(expected) => Ok(()),
        Err(received) => Err(LifecycleProblem::WrongRefusal {
            step,
            expected,
            received,
        }),
    }
}

async fn run_case<S, F: LifecycleFixture<S>>(
    fixture: &mut F,
    case: LifecycleCase,
    kind: TransportLifecycleKind,
    completion: Option<Completion<S, F>>,
) -> Result<(), LifecycleConformanceFailure> {
    let adapter = fixture.create();
    let outcome = case_body(fixture, &adapter, case, kind, completion).await;
    // Whatever happened, leave nothing running; a failing clean-up stop is the case's failure
    // only when the case itself passed.
    let cleanup = stop(fixture, &adapter).await;
    outcome
        .and(cleanup)
        .map_err(|problem| LifecycleConformanceFailure { case, problem })
}

async fn case_body<S, F: LifecycleFixture<S>>(
    fixture: &mut F,
    adapter: &F::Adapter,
    case: LifecycleCase,
    kind: TransportLifecycleKind,
    completion: Option<Completion<S, F>>,
) -> Result<(), LifecycleProblem> {
    use LifecycleStep::{Attach, Start};
    use TransportLifecycleErrorCode::{AlreadyStarted, NotAttached};
    match case {
        LifecycleCase::KindMatches => {
            let received = <F::Adapter as TransportAdapter<S>>::KIND;
            if received != kind || adapter.lifecycle().kind() != kind {
                return Err(LifecycleProblem::KindMismatch {
                    expected: kind,
                    received,
                });
            }
            Ok(())
        }
        LifecycleCase::StartBeforeAttach => {
            refused(Start, NotAttached, start(fixture, adapter).await?)
        }
        LifecycleCase::SecondStartWhileActive => {
            started(fixture, adapter).await?;
            refused(Start, AlreadyStarted, start(fixture, adapter).await?)?;
            let session = fixture.session();
            let attach = adapter
                .attach(session)
                .map_err(TransportStartFailure::Lifecycle);
            refused(Attach, AlreadyStarted, attach)
        }
        LifecycleCase::CompletionHeldPending => {
            started(fixture, adapter).await?;
            match completion {
                Some(complete) => complete(fixture, adapter).await,
                None => Ok(()),
            }
        }
        LifecycleCase::StopIsIdempotent => {
            started(fixture, adapter).await?;
            fixture
                .assert_ready(adapter)
                .await
                .map_err(LifecycleProblem::NotReady)?;
            stop(fixture, adapter).await?;
            stop(fixture, adapter).await
        }
        LifecycleCase::RestartAfterFreshAttach => {
            started(fixture, adapter).await?;
            stop(fixture, adapter).await?;
            refused(Start, NotAttached, start(fixture, adapter).await?)?;
            started(fixture, adapter).await?;
            fixture
                .assert_ready(adapter)
                .await
                .map_err(LifecycleProblem::NotReady)
        }
        LifecycleCase::StoppedReleases => {
            started(fixture, adapter).await?;
            stop(fixture, adapter).await?;
            fixture
                .assert_stopped(adapter)
                .await
                .map_err(LifecycleProblem::NotStopped)
        }
    }
}

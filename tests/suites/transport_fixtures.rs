//! Lifecycle conformance fixtures shared by the transport registry suite and the interop check:
//! the reference adapters' fixtures, and an adapter carrying one defect at a time with the
//! fixture that runs the suite against it (its deadline counts polls: no clock).

use alloc::string::String;
use core::future::poll_fn;
use core::task::Poll;

use agent_interface::agent_core::ErrorValue;
use agent_interface::conformance::StopAtFirst;
use agent_interface::runtime::transport::{InMemoryRunner, InMemoryService, LifecyclePhase};
use agent_interface::transport::testing::{
    LifecycleCase, LifecycleFixture, LifecycleProblem, RunnerLifecycleFixture,
    run_runner_lifecycle_conformance, run_service_lifecycle_conformance,
};
use agent_interface::transport::{adapters::*, outcomes::*};
use embassy_futures::yield_now;

use crate::support::{block_on, s};

/// One defect an adapter can carry, each caught by one case of the suite.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Defect {
    None,
    StartWithoutAttachResolves,
    StartWithoutAttachWrongError,
    SecondStartResolves,
    StartHangs,
    StopHangs,
    CompletionSettlesEarly,
    CompletionNeverSettles,
    KeepsSessionAfterStop,
    StopDoesNotDetach,
}

/// An adapter of the given kind around the reference runner, carrying one defect.
pub struct Defective<const RUNNER: bool> {
    inner: InMemoryRunner<String>,
    defect: Defect,
}

impl<const RUNNER: bool> TransportAdapter<String> for Defective<RUNNER> {
    const KIND: TransportLifecycleKind = if RUNNER {
        TransportLifecycleKind::Runner
    } else {
        TransportLifecycleKind::Service
    };

    fn name(&self) -> &str {
        self.inner.name()
    }

    fn attach(&self, session: String) -> Result<(), TransportLifecycleError> {
        self.inner.attach(session)
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        let detached = self.inner.guard().phase() == LifecyclePhase::Detached;
        let active = self.inner.guard().phase() == LifecyclePhase::Active;
        match self.defect {
            Defect::StartWithoutAttachResolves if detached => return Ok(()),
            Defect::StartWithoutAttachWrongError if detached => {
                return Err(TransportStartFailure::Failed(ErrorValue::new(
                    "Error", "boom",
                )));
            }
            Defect::SecondStartResolves if active => return Ok(()),
            Defect::StartHangs => poll_fn(|_| Poll::<()>::Pending).await,
            _ => {}
        }
        self.inner.start().await
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        match self.defect {
            Defect::StopHangs => poll_fn(|_| Poll::<()>::Pending).await,
            Defect::StopDoesNotDetach => return Ok(()),
            _ => {}
        }
        self.inner.stop().await
    }
}

impl TransportServiceAdapter<String> for Defective<false> {}

impl TransportRunnerAdapter<String> for Defective<true> {
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault> {
        match self.defect {
            Defect::CompletionSettlesEarly => Ok(TransportRunOutcome::Succeeded),
            Defect::CompletionNeverSettles => poll_fn(|_| Poll::Pending).await,
            _ => self.inner.wait_for_completion().await,
        }
    }
}

/// The fixture: a fresh defective adapter per case, and a deadline of a few polls (the host's
/// timer, here counted in polls: no clock).
pub struct Fixture<const RUNNER: bool> {
    defect: Defect,
    pub created: u32,
}

pub fn fixture<const RUNNER: bool>(defect: Defect) -> Fixture<RUNNER> {
    Fixture { defect, created: 0 }
}

impl<const RUNNER: bool> LifecycleFixture<String> for Fixture<RUNNER> {
    type Adapter = Defective<RUNNER>;

    fn create(&mut self) -> Defective<RUNNER> {
        self.created += 1;
        Defective {
            inner: InMemoryRunner::new("memory"),
            defect: self.defect,
        }
    }

    fn session(&mut self) -> String {
        s("session")
    }

    async fn assert_ready(&mut self, adapter: &Defective<RUNNER>) -> Result<(), ErrorValue> {
        match adapter.inner.guard().phase() {
            LifecyclePhase::Active => Ok(()),
            _ => Err(ErrorValue::new("Error", "not serving")),
        }
    }

    async fn assert_stopped(&mut self, adapter: &Defective<RUNNER>) -> Result<(), ErrorValue> {
        let held = adapter.inner.with_session(|session| session.is_some());
        if held || self.defect == Defect::KeepsSessionAfterStop {
            Err(ErrorValue::new("Error", "still running"))
        } else {
            Ok(())
        }
    }

    async fn deadline(&self) {
        for _ in 0..3 {
            yield_now().await;
        }
    }
}

impl RunnerLifecycleFixture<String> for Fixture<true> {
    fn complete_runner(&mut self, adapter: &Defective<true>) {
        adapter.inner.complete(Ok(TransportRunOutcome::Succeeded));
    }
}

pub fn service_problem(defect: Defect) -> Option<(LifecycleCase, LifecycleProblem)> {
    let mut fixture = fixture::<false>(defect);
    block_on(run_service_lifecycle_conformance(
        &mut fixture,
        &mut StopAtFirst,
    ))
    .err()
    .map(|failure| (failure.case, failure.problem))
}

pub fn runner_problem(defect: Defect) -> Option<(LifecycleCase, LifecycleProblem)> {
    let mut fixture = fixture::<true>(defect);
    block_on(run_runner_lifecycle_conformance(
        &mut fixture,
        &mut StopAtFirst,
    ))
    .err()
    .map(|failure| (failure.case, failure.problem))
}

/// The reference service under the suite.
pub struct ServiceFixture;

impl LifecycleFixture<String> for ServiceFixture {
    type Adapter = InMemoryService<String>;

    fn create(&mut self) -> InMemoryService<String> {
        InMemoryService::new("memory")
    }

    fn session(&mut self) -> String {
        s("session")
    }

    async fn assert_ready(&mut self, adapter: &InMemoryService<String>) -> Result<(), ErrorValue> {
        adapter
            .with_session(|session| session.map(|_| ()))
            .ok_or_else(|| ErrorValue::new("Error", "not serving"))
    }

    async fn assert_stopped(
        &mut self,
        adapter: &InMemoryService<String>,
    ) -> Result<(), ErrorValue> {
        match adapter.with_session(|session| session.is_some()) {
            false => Ok(()),
            true => Err(ErrorValue::new("Error", "still serving")),
        }
    }

    async fn deadline(&self) {
        yield_now().await;
    }
}

/// The reference runner under the suite.
pub struct RunnerFixture;

impl LifecycleFixture<String> for RunnerFixture {
    type Adapter = InMemoryRunner<String>;

    fn create(&mut self) -> InMemoryRunner<String> {
        InMemoryRunner::new("memory")
    }

    fn session(&mut self) -> String {
        s("session")
    }

    async fn assert_ready(&mut self, adapter: &InMemoryRunner<String>) -> Result<(), ErrorValue> {
        match adapter.guard().phase() {
            LifecyclePhase::Active => Ok(()),
            _ => Err(ErrorValue::new("Error", "not launched")),
        }
    }

    async fn assert_stopped(&mut self, adapter: &InMemoryRunner<String>) -> Result<(), ErrorValue> {
        match adapter.guard().phase() {
            LifecyclePhase::Detached => Ok(()),
            _ => Err(ErrorValue::new("Error", "still running")),
        }
    }

    async fn deadline(&self) {
        yield_now().await;
    }
}

impl RunnerLifecycleFixture<String> for RunnerFixture {
    fn complete_runner(&mut self, adapter: &InMemoryRunner<String>) {
        adapter.complete(Ok(TransportRunOutcome::Succeeded));
    }
}

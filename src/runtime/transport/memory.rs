//! The reference in-memory adapters: a service and a runner that do nothing but follow the
//! lifecycle rules, so they pass `transport::testing` and serve as doubles for registries.

use alloc::string::String;
use core::cell::RefCell;
use core::future::poll_fn;
use core::task::Poll;

use embassy_sync::waitqueue::MultiWakerRegistration;

use crate::agent_core::ErrorValue;
use crate::transport::{
    adapters::{
        TransportAdapter, TransportLifecycleError, TransportLifecycleKind, TransportRunnerAdapter,
        TransportServiceAdapter, TransportStartFailure,
    },
    outcomes::{TransportRunOutcome, TransportRunnerFault},
};

use super::lifecycle::LifecycleGuard;

/// The part both in-memory adapters share: the guard and the session being served.
struct Served<S> {
    guard: LifecycleGuard<S>,
    session: RefCell<Option<S>>,
}

impl<S> Served<S> {
    fn new(name: String) -> Self {
        Self {
            guard: LifecycleGuard::new(name),
            session: RefCell::new(None),
        }
    }

    fn start(&self) -> Result<(), TransportStartFailure> {
        let (permit, session) = self
            .guard
            .begin_start()
            .map_err(TransportStartFailure::Lifecycle)?;
        *self.session.borrow_mut() = Some(session);
        // Nothing to await in memory, so no stop can arrive before the start settles.
        let _ = permit.started();
        Ok(())
    }

    fn stop(&self) {
        let _ = self.guard.stop();
        self.session.borrow_mut().take();
    }
}

/// A service adapter held in memory: after a start it serves the attached session until a
/// stop. It passes the lifecycle conformance suite of `transport::testing`.
pub struct InMemoryService<S> {
    served: Served<S>,
}

impl<S> InMemoryService<S> {
    /// A detached service named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            served: Served::new(name.into()),
        }
    }

    /// The guard, for reading the phase.
    #[must_use]
    pub fn guard(&self) -> &LifecycleGuard<S> {
        &self.served.guard
    }

    /// Calls `read` with the session being served (`None` unless started and not stopped).
    pub fn with_session<R>(&self, read: impl FnOnce(Option<&S>) -> R) -> R {
        read(self.served.session.borrow().as_ref())
    }
}

impl<S> TransportAdapter<S> for InMemoryService<S> {
    const KIND: TransportLifecycleKind = TransportLifecycleKind::Service;

    fn name(&self) -> &str {
        self.served.guard.name()
    }

    fn attach(&self, session: S) -> Result<(), TransportLifecycleError> {
        self.served.guard.attach(session)
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        self.served.start()
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        self.served.stop();
        Ok(())
    }
}

impl<S> TransportServiceAdapter<S> for InMemoryService<S> {}

/// A runner adapter held in memory: a start launches a run that stays pending until the host
/// ends it with [`complete`](Self::complete); every wait of that run resolves with what was
/// given. Each start begins a new run. It passes the lifecycle conformance suite.
pub struct InMemoryRunner<S> {
    served: Served<S>,
    completion: RefCell<Option<Result<TransportRunOutcome, TransportRunnerFault>>>,
    /// The waits of the current run (past 4 tasks, registering wakes them all to poll again).
    waiting: RefCell<MultiWakerRegistration<4>>,
}

impl<S> InMemoryRunner<S> {
    /// A detached runner named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            served: Served::new(name.into()),
            completion: RefCell::new(None),
            waiting: RefCell::new(MultiWakerRegistration::new()),
        }
    }

    /// The guard, for reading the phase.
    #[must_use]
    pub fn guard(&self) -> &LifecycleGuard<S> {
        &self.served.guard
    }

    /// Calls `read` with the session being served (`None` unless started and not stopped).
    pub fn with_session<R>(&self, read: impl FnOnce(Option<&S>) -> R) -> R {
        read(self.served.session.borrow().as_ref())
    }

    /// Ends the current run with `result` and wakes every wait. The first result of a run
    /// wins; a later one is ignored and reported as `false`.
    pub fn complete(&self, result: Result<TransportRunOutcome, TransportRunnerFault>) -> bool {
        let mut completion = self.completion.borrow_mut();
        if completion.is_some() {
            return false;
        }
        *completion = Some(result);
        drop(completion);
        self.waiting.replace(MultiWakerRegistration::new()).wake();
        true
    }
}

impl<S> TransportAdapter<S> for InMemoryRunner<S> {
    const KIND: TransportLifecycleKind = TransportLifecycleKind::Runner;

    fn name(&self) -> &str {
        self.served.guard.name()
    }

    fn attach(&self, session: S) -> Result<(), TransportLifecycleError> {
        self.served.guard.attach(session)
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        self.served.start()?;
        self.completion.borrow_mut().take();
        Ok(())
    }

    /// Stops serving. A wait of the stopped run stays pending until [`complete`](Self::complete)
    /// (a registry marks it abandoned on its own).
    async fn stop(&self) -> Result<(), ErrorValue> {
        self.served.stop();
        Ok(())
    }
}

impl<S> TransportRunnerAdapter<S> for InMemoryRunner<S> {
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault> {
        poll_fn(|cx| match self.completion.borrow().as_ref() {
            Some(result) => Poll::Ready(result.clone()),
            None => {
                self.waiting.borrow_mut().register(cx.waker());
                Poll::Pending
            }
        })
        .await
    }
}

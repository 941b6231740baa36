//! The lifecycle guard every adapter can embed, and the binding that turns a raw adapter into
//! the bound form a registry holds.

use alloc::string::String;
use core::cell::RefCell;

use crate::agent_core::ErrorValue;
use crate::transport::{
    adapters::{
        BoundTransportAdapter, BoundTransportRunnerAdapter, BoundTransportServiceAdapter,
        TransportAdapter, TransportLifecycleError, TransportLifecycleErrorCode,
        TransportLifecycleKind, TransportRunnerAdapter, TransportServiceAdapter,
        TransportStartFailure,
    },
    outcomes::{TransportRunOutcome, TransportRunnerFault},
};

/// Where an adapter is in its lifecycle, as its [`LifecycleGuard`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LifecyclePhase {
    /// No session attached: a start is refused with `not-attached`.
    Detached,
    /// A session is attached and waits for the next start.
    Attached,
    /// A start is in progress.
    Starting,
    /// Started and not stopped since.
    Active,
}

/// What a [`LifecycleGuard::stop`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[must_use]
pub enum StopTransition {
    /// The adapter was starting or active: release what the start acquired.
    Stopped,
    /// Nothing was running (a repeated stop, or a stop before any start): nothing to release.
    AlreadyStopped,
}

/// How a start ended, as [`StartPermit::started`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[must_use]
pub enum StartSettled {
    /// The adapter is active.
    Active,
    /// A stop arrived while the start was in progress: the adapter is detached again and must
    /// release what the start acquired.
    StoppedMeanwhile,
}

enum GuardState<S> {
    Detached,
    Attached(S),
    Starting,
    Active,
}

/// The attach/start/stop rules of catalog §6.5 as a small state machine: a start before an
/// attach is refused with `not-attached`, a start or an attach while starting or active with
/// `already-started` (never a silent no-op), a stop is idempotent and synchronous (so bounded),
/// and a stop detaches, so a stopped adapter starts again only after a fresh attach.
///
/// Single-threaded (`RefCell`), no clock, no I/O; the adapter does the actual work between
/// [`begin_start`](Self::begin_start) and [`StartPermit::started`].
pub struct LifecycleGuard<S> {
    name: String,
    state: RefCell<GuardState<S>>,
}

impl<S> LifecycleGuard<S> {
    /// A detached guard for the adapter named `name` (the name its lifecycle errors carry).
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            state: RefCell::new(GuardState::Detached),
        }
    }

    /// The adapter's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The current phase.
    #[must_use]
    pub fn phase(&self) -> LifecyclePhase {
        match *self.state.borrow() {
            GuardState::Detached => LifecyclePhase::Detached,
            GuardState::Attached(_) => LifecyclePhase::Attached,
            GuardState::Starting => LifecyclePhase::Starting,
            GuardState::Active => LifecyclePhase::Active,
        }
    }

    fn error(&self, code: TransportLifecycleErrorCode) -> TransportLifecycleError {
        TransportLifecycleError::new(code, self.name.clone())
    }

    /// Attaches the session the next start serves, replacing one attached before.
    ///
    /// # Errors
    /// `already-started` while a start is in progress or the adapter is active; the session
    /// attached before, if any, stays.
    pub fn attach(&self, session: S) -> Result<(), TransportLifecycleError> {
        let mut state = self.state.borrow_mut();
        match *state {
            GuardState::Starting | GuardState::Active => {
                Err(self.error(TransportLifecycleErrorCode::AlreadyStarted))
            }
            GuardState::Detached | GuardState::Attached(_) => {
                *state = GuardState::Attached(session);
                Ok(())
            }
        }
    }

    /// Begins a start: hands over the attached session and a permit that settles the start.
    /// Dropping the permit without [`StartPermit::started`] counts as a failed start and
    /// detaches (the session was handed over).
    ///
    /// # Errors
    /// `not-attached` with no session attached; `already-started` while starting or active.
    pub fn begin_start(&self) -> Result<(StartPermit<'_, S>, S), TransportLifecycleError> {
        let mut state = self.state.borrow_mut();
        match core::mem::replace(&mut *state, GuardState::Starting) {
            GuardState::Attached(session) => Ok((StartPermit { guard: self }, session)),
            GuardState::Detached => {
                *state = GuardState::Detached;
                Err(self.error(TransportLifecycleErrorCode::NotAttached))
            }
            busy @ (GuardState::Starting | GuardState::Active) => {
                *state = busy;
                Err(self.error(TransportLifecycleErrorCode::AlreadyStarted))
            }
        }
    }

    /// Stops: whatever the phase, the guard is detached afterwards. Idempotent.
    pub fn stop(&self) -> StopTransition {
        match core::mem::replace(&mut *self.state.borrow_mut(), GuardState::Detached) {
            GuardState::Starting | GuardState::Active => StopTransition::Stopped,
            GuardState::Detached | GuardState::Attached(_) => StopTransition::AlreadyStopped,
        }
    }
}

/// The right to finish one start of a [`LifecycleGuard`]; see [`LifecycleGuard::begin_start`].
#[must_use = "dropping the permit fails the start"]
pub struct StartPermit<'g, S> {
    guard: &'g LifecycleGuard<S>,
}

impl<S> StartPermit<'_, S> {
    /// Settles the start as successful: the adapter becomes active, unless a stop arrived
    /// meanwhile.
    pub fn started(self) -> StartSettled {
        let mut state = self.guard.state.borrow_mut();
        let settled = match *state {
            GuardState::Starting => {
                *state = GuardState::Active;
                StartSettled::Active
            }
            _ => StartSettled::StoppedMeanwhile,
        };
        drop(state);
        core::mem::forget(self);
        settled
    }
}

impl<S> Drop for StartPermit<'_, S> {
    fn drop(&mut self) {
        let mut state = self.guard.state.borrow_mut();
        if matches!(*state, GuardState::Starting) {
            *state = GuardState::Detached;
        }
    }
}

/// A raw adapter bound to a captured session (`IBoundTransportAdapter`): each start attaches a
/// clone of the session and then starts the raw adapter, so the bound form has no `attach` and a
/// registry never sees a session.
pub struct BoundTransport<A, S> {
    adapter: A,
    session: S,
}

impl<A, S> BoundTransport<A, S> {
    /// Binds `adapter` to `session`.
    pub const fn new(adapter: A, session: S) -> Self {
        Self { adapter, session }
    }

    /// The raw adapter.
    pub const fn adapter(&self) -> &A {
        &self.adapter
    }
}

impl<A: TransportAdapter<S>, S: Clone> BoundTransportAdapter for BoundTransport<A, S> {
    const KIND: TransportLifecycleKind = A::KIND;

    fn name(&self) -> &str {
        self.adapter.name()
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        self.adapter
            .attach(self.session.clone())
            .map_err(TransportStartFailure::Lifecycle)?;
        self.adapter.start().await
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        self.adapter.stop().await
    }
}

impl<A: TransportRunnerAdapter<S>, S: Clone> BoundTransportRunnerAdapter for BoundTransport<A, S> {
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault> {
        self.adapter.wait_for_completion().await
    }
}

impl<A: TransportServiceAdapter<S>, S: Clone> BoundTransportServiceAdapter
    for BoundTransport<A, S>
{
}

//! The adapter lifecycle port (`ITransportAdapter`), its bound form (`IBoundTransportAdapter`),
//! and the lifecycle error shapes.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::ErrorValue;

use super::outcomes::{TransportRunOutcome, TransportRunnerFault};

string_enum! {
    /// The lifecycle discriminant of an adapter (`TTransportLifecycleKind`).
    pub enum TransportLifecycleKind {
        /// `'service'`: runs until stopped; has no completion to wait for.
        Service = "service",
        /// `'runner'`: `start` launches and returns; its end is awaited separately.
        Runner = "runner",
    }
}

/// An adapter's lifecycle descriptor (`ITransportLifecycle`): its kind, required and fixed.
///
/// The field is private and there is no setter, so once built the kind cannot change (the Rust
/// form of the TypeScript "frozen" descriptor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TransportLifecycle {
    kind: TransportLifecycleKind,
}

impl TransportLifecycle {
    /// A service's descriptor.
    pub const SERVICE: Self = Self::new(TransportLifecycleKind::Service);
    /// A runner's descriptor.
    pub const RUNNER: Self = Self::new(TransportLifecycleKind::Runner);

    /// The descriptor of `kind`.
    #[must_use]
    pub const fn new(kind: TransportLifecycleKind) -> Self {
        Self { kind }
    }

    /// The kind, fixed at construction.
    #[must_use]
    pub const fn kind(self) -> TransportLifecycleKind {
        self.kind
    }
}

string_enum! {
    /// The code of a lifecycle error (`TTransportLifecycleErrorCode`).
    pub enum TransportLifecycleErrorCode {
        /// `'not-attached'`: `start` before `attach`.
        NotAttached = "not-attached",
        /// `'already-started'`: `start` on an adapter (or registry) that is already active.
        AlreadyStarted = "already-started",
        /// `'runner-rejected'`: a runner's completion was malformed or failed to arrive.
        RunnerRejected = "runner-rejected",
    }
}

/// A lifecycle failure (`ITransportLifecycleError`): which transport and which code.
///
/// Wire form: `{"name": "TransportLifecycleError", "code": …, "transportName": …}`; a different
/// `name` or an unknown code fails to decode. Displays as
/// `TransportLifecycleError (<code>): <transportName>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{} ({code}): {transport_name}", Self::NAME)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "wire::LifecycleErrorWire",
        into = "wire::LifecycleErrorWire"
    )
)]
pub struct TransportLifecycleError {
    /// What went wrong.
    pub code: TransportLifecycleErrorCode,
    /// The transport it concerns.
    pub transport_name: String,
}

impl TransportLifecycleError {
    /// The error name, written on the wire as `name`.
    pub const NAME: &'static str = "TransportLifecycleError";

    /// The error `code` for transport `transport_name`.
    #[must_use]
    pub fn new(code: TransportLifecycleErrorCode, transport_name: impl Into<String>) -> Self {
        Self {
            code,
            transport_name: transport_name.into(),
        }
    }
}

/// A stop failure met while rolling back a failed start-all (`ITransportRollbackError`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TransportRollbackError {
    /// The transport whose stop failed.
    pub transport_name: String,
    /// What its stop reported.
    pub message: String,
}

/// A failed start-all (`ITransportStartupError`): the transport whose start failed and every
/// stop failure of the rollback that followed.
///
/// Wire form: `{"name": "TransportStartupError", "transportName": …, "rollbackErrors": […]}`.
/// The TypeScript `cause` and `rollbackCauses` are local diagnostics and are not carried.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error(
    "{}: transport {transport_name} failed to start ({} rollback error(s))",
    Self::NAME,
    .rollback_errors.len()
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::StartupErrorWire", into = "wire::StartupErrorWire")
)]
pub struct TransportStartupError {
    /// The transport whose start failed.
    pub transport_name: String,
    /// The stop failures of the rollback, in the (reverse) order met.
    pub rollback_errors: Vec<TransportRollbackError>,
}

impl TransportStartupError {
    /// The error name, written on the wire as `name`.
    pub const NAME: &'static str = "TransportStartupError";
}

/// Why an adapter's `start` failed: a lifecycle rule, or the adapter's own failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportStartFailure {
    /// A lifecycle rule refused the start (`not-attached`, `already-started`).
    #[error(transparent)]
    Lifecycle(TransportLifecycleError),
    /// The adapter could not reach its readiness boundary.
    #[error(transparent)]
    Failed(ErrorValue),
}

impl TransportStartFailure {
    /// The lifecycle code, when a lifecycle rule refused the start.
    #[must_use]
    pub fn lifecycle_code(&self) -> Option<TransportLifecycleErrorCode> {
        match self {
            Self::Lifecycle(error) => Some(error.code),
            Self::Failed(_) => None,
        }
    }
}

/// A raw transport adapter (`ITransportAdapter<S>`), attached to a session of type `S`.
///
/// Methods take `&self` so that a `stop` can be requested while a `start` or a completion wait
/// is pending; implementations keep their state in cells. `start` before `attach` fails with
/// `not-attached`; `start` while active fails with `already-started`; `stop` is bounded and may
/// be repeated; a stopped adapter may be attached and started again.
#[allow(async_fn_in_trait)]
pub trait TransportAdapter<S> {
    /// The lifecycle kind, fixed for the type.
    const KIND: TransportLifecycleKind;

    /// The unique runtime name (`'ws'`, `'headless'`, …).
    fn name(&self) -> &str;

    /// The lifecycle descriptor, derived from [`KIND`](Self::KIND).
    fn lifecycle(&self) -> TransportLifecycle {
        TransportLifecycle::new(Self::KIND)
    }

    /// Attaches the session the next `start` serves. Attaching an active adapter is refused
    /// with `already-started` (never a silent replacement).
    ///
    /// # Errors
    /// [`TransportLifecycleErrorCode::AlreadyStarted`] while the adapter is starting or active.
    fn attach(&self, session: S) -> Result<(), TransportLifecycleError>;

    /// Starts; resolves at the adapter's documented readiness boundary (a runner: once launched).
    async fn start(&self) -> Result<(), TransportStartFailure>;

    /// Stops; safe and bounded when repeated.
    async fn stop(&self) -> Result<(), ErrorValue>;
}

/// A runner adapter (`ITransportRunnerAdapter<S>`): `KIND` is `Runner`, and its end is awaited
/// with [`wait_for_completion`](Self::wait_for_completion).
#[allow(async_fn_in_trait)]
pub trait TransportRunnerAdapter<S>: TransportAdapter<S> {
    /// Resolves with how the run ended: succeeded/0 or failed/non-zero, no raw cause. May be
    /// called more than once and concurrently; every call of one run resolves alike.
    ///
    /// # Errors
    /// A [`TransportRunnerFault`] when the runner could not produce a run outcome.
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault>;
}

/// A service adapter (`ITransportServiceAdapter<S>`): `KIND` is `Service`, with no completion.
pub trait TransportServiceAdapter<S>: TransportAdapter<S> {}

/// The bound form a registry holds (`IBoundTransportAdapter`): the session is captured by its
/// owner, so there is **no `attach`**; `start` attaches the captured session, then starts.
#[allow(async_fn_in_trait)]
pub trait BoundTransportAdapter {
    /// The lifecycle kind, fixed for the type.
    const KIND: TransportLifecycleKind;

    /// The unique runtime name.
    fn name(&self) -> &str;

    /// The lifecycle descriptor, derived from [`KIND`](Self::KIND).
    fn lifecycle(&self) -> TransportLifecycle {
        TransportLifecycle::new(Self::KIND)
    }

    /// Attaches the captured session, then starts the raw adapter.
    async fn start(&self) -> Result<(), TransportStartFailure>;

    /// Stops the raw adapter; safe and bounded when repeated.
    async fn stop(&self) -> Result<(), ErrorValue>;
}

/// A bound runner (`IBoundTransportRunnerAdapter`).
#[allow(async_fn_in_trait)]
pub trait BoundTransportRunnerAdapter: BoundTransportAdapter {
    /// Resolves with how the run ended; as [`TransportRunnerAdapter::wait_for_completion`].
    ///
    /// # Errors
    /// A [`TransportRunnerFault`] when the runner could not produce a run outcome.
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault>;
}

/// A bound service (`IBoundTransportServiceAdapter`), with no completion.
pub trait BoundTransportServiceAdapter: BoundTransportAdapter {}

// A shared reference to a bound adapter is one too, so a host can register an adapter it keeps
// driving (a registry borrows it for its lifetime).
impl<A: BoundTransportAdapter + ?Sized> BoundTransportAdapter for &A {
    const KIND: TransportLifecycleKind = A::KIND;

    fn name(&self) -> &str {
        (**self).name()
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        (**self).start().await
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        (**self).stop().await
    }
}

impl<A: BoundTransportRunnerAdapter + ?Sized> BoundTransportRunnerAdapter for &A {
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault> {
        (**self).wait_for_completion().await
    }
}

impl<A: BoundTransportServiceAdapter + ?Sized> BoundTransportServiceAdapter for &A {}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::{
        TransportLifecycleError, TransportLifecycleErrorCode, TransportRollbackError,
        TransportStartupError,
    };

    fn check_name(name: &str, expected: &str) -> Result<(), String> {
        if name == expected {
            Ok(())
        } else {
            Err(alloc::format!(
                "expected error name `{expected}`, got `{name}`"
            ))
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct LifecycleErrorWire {
        name: String,
        code: TransportLifecycleErrorCode,
        transport_name: String,
    }

    impl From<TransportLifecycleError> for LifecycleErrorWire {
        fn from(error: TransportLifecycleError) -> Self {
            Self {
                name: String::from(TransportLifecycleError::NAME),
                code: error.code,
                transport_name: error.transport_name,
            }
        }
    }

    impl TryFrom<LifecycleErrorWire> for TransportLifecycleError {
        type Error = String;
        fn try_from(wire: LifecycleErrorWire) -> Result<Self, String> {
            check_name(&wire.name, Self::NAME)?;
            Ok(Self::new(wire.code, wire.transport_name))
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct StartupErrorWire {
        name: String,
        transport_name: String,
        rollback_errors: Vec<TransportRollbackError>,
    }

    impl From<TransportStartupError> for StartupErrorWire {
        fn from(error: TransportStartupError) -> Self {
            Self {
                name: String::from(TransportStartupError::NAME),
                transport_name: error.transport_name,
                rollback_errors: error.rollback_errors,
            }
        }
    }

    impl TryFrom<StartupErrorWire> for TransportStartupError {
        type Error = String;
        fn try_from(wire: StartupErrorWire) -> Result<Self, String> {
            check_name(&wire.name, Self::NAME)?;
            Ok(Self {
                transport_name: wire.transport_name,
                rollback_errors: wire.rollback_errors,
            })
        }
    }
}

//! How a runner ends (`TTransportRunOutcome`), the completion outcomes a registry records, and
//! the pure constructor and validator over them.

use alloc::string::String;
use core::num::NonZeroU8;

use crate::agent_core::{ErrorValue, Value};

string_enum! {
    /// Why a runner was abandoned before it produced an outcome (`TTransportAbandonmentReason`).
    pub enum TransportAbandonmentReason {
        /// `'stopped'`: the registry was stopped while the runner was pending.
        Stopped = "stopped",
        /// `'startup-rollback'`: another transport failed to start and the run was rolled back.
        StartupRollback = "startup-rollback",
    }
}

/// How a runner ended (`TTransportRunOutcome`): succeeded with exit code 0, or failed with an
/// exit code in 1..=255. No other code is representable.
///
/// Wire form: `{"status": "succeeded", "exitCode": 0}` or `{"status": "failed", "exitCode": n}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::OutcomeWire", into = "wire::OutcomeWire")
)]
pub enum TransportRunOutcome {
    /// `status: 'succeeded'`, always with exit code 0.
    Succeeded,
    /// `status: 'failed'` with a non-zero exit code.
    Failed {
        /// The exit code, 1..=255.
        exit_code: NonZeroU8,
    },
}

impl TransportRunOutcome {
    /// The exit code on the wire: 0 for success, the failure code otherwise.
    #[must_use]
    pub const fn exit_code(self) -> u8 {
        match self {
            Self::Succeeded => 0,
            Self::Failed { exit_code } => exit_code.get(),
        }
    }

    /// The wire `status` literal: `"succeeded"` or `"failed"`.
    #[must_use]
    pub const fn status(self) -> &'static str {
        match self {
            Self::Succeeded => "succeeded",
            Self::Failed { .. } => "failed",
        }
    }

    /// The outcome for a process exit code: 0 succeeds, anything else fails with that code.
    #[must_use]
    pub const fn from_exit_code(code: u8) -> Self {
        match NonZeroU8::new(code) {
            None => Self::Succeeded,
            Some(exit_code) => Self::Failed { exit_code },
        }
    }
}

/// Why a runner produced no run outcome: a malformed one, or a failed completion. A registry
/// turns either into a `runner-rejected` lifecycle error on both of its waits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportRunnerFault {
    /// The runner reported an exit status that is no run outcome (outside 0..=255).
    #[error("the runner reported exit status {exit_code}, which is no run outcome")]
    Malformed {
        /// The status that was reported.
        exit_code: i64,
    },
    /// The runner's completion failed with this error.
    #[error("the runner's completion failed: {0}")]
    Rejected(ErrorValue),
}

impl TransportRunOutcome {
    /// The outcome for a raw process exit status: 0 succeeds, 1..=255 fails with that code, and
    /// anything else is [`TransportRunnerFault::Malformed`].
    ///
    /// # Errors
    /// [`TransportRunnerFault::Malformed`] for a status outside 0..=255.
    pub fn from_exit_status(status: i64) -> Result<Self, TransportRunnerFault> {
        u8::try_from(status)
            .map(Self::from_exit_code)
            .map_err(|_| TransportRunnerFault::Malformed { exit_code: status })
    }
}

/// The refusal of [`create_transport_failed_outcome`]: the code given is not an integer from 1
/// through 255. It keeps the refused number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("Transport failure exit code must be an integer from 1 through 255; received {received}.")]
pub struct InvalidExitCode {
    /// The integer that was refused.
    pub received: i64,
}

/// A failed outcome for `exit_code` (`createTransportFailedOutcome`): accepts only the integers
/// 1..=255 and refuses every other integer with [`InvalidExitCode`]. Never panics.
pub fn create_transport_failed_outcome(
    exit_code: i64,
) -> Result<TransportRunOutcome, InvalidExitCode> {
    u8::try_from(exit_code)
        .ok()
        .and_then(NonZeroU8::new)
        .map(|exit_code| TransportRunOutcome::Failed { exit_code })
        .ok_or(InvalidExitCode {
            received: exit_code,
        })
}

/// True when `value` is a run outcome (`isTransportRunOutcome`): an object whose `status` is
/// `"succeeded"` with `exitCode` exactly 0, or `"failed"` with an integer `exitCode` in 1..=255.
/// Other keys are ignored. A number serde_json reads as a float (`1.5`, `0.0`, and `-0` too) is
/// not an integer here; the reference accepts `-0` for succeeded (a stated departure).
#[must_use]
pub fn is_transport_run_outcome(value: &Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    let code = object.get("exitCode").and_then(Value::as_u64);
    match (object.get("status").and_then(Value::as_str), code) {
        (Some("succeeded"), Some(0)) => true,
        (Some("failed"), Some(code)) => (1..=255).contains(&code),
        _ => false,
    }
}

/// One outcome a registry records for a runner (`TTransportCompletionOutcome`): its run outcome,
/// or that it was abandoned.
///
/// Wire form: the run outcome's, or `{"status": "abandoned", "reason": …}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::CompletionWire", into = "wire::CompletionWire")
)]
pub enum TransportCompletionOutcome {
    /// The runner produced this outcome.
    Ran(TransportRunOutcome),
    /// `status: 'abandoned'`: the runner was given up before it produced an outcome.
    Abandoned {
        /// Why it was abandoned.
        reason: TransportAbandonmentReason,
    },
}

/// One runner's record in a completed run (`ITransportCompletionRecord`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TransportCompletionRecord {
    /// The runner's unique transport name.
    pub name: String,
    /// How it ended.
    pub outcome: TransportCompletionOutcome,
}

impl TransportCompletionRecord {
    /// The record of the runner `name` that ended with `outcome`.
    #[must_use]
    pub fn new(name: impl Into<String>, outcome: TransportCompletionOutcome) -> Self {
        Self {
            name: name.into(),
            outcome,
        }
    }
}

/// The first runner that failed (`ITransportFailureRecord`): the outcome is the `failed` member
/// only, so it holds just the non-zero exit code.
///
/// Wire form: `{"name": …, "outcome": {"status": "failed", "exitCode": n}}`.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::FailureWire", into = "wire::FailureWire")
)]
#[non_exhaustive]
pub struct TransportFailureRecord {
    /// The failed runner's unique transport name.
    pub name: String,
    /// Its exit code, 1..=255.
    pub exit_code: NonZeroU8,
}

impl TransportFailureRecord {
    /// The record of the runner `name` that failed with `exit_code`.
    #[must_use]
    pub fn new(name: impl Into<String>, exit_code: NonZeroU8) -> Self {
        Self {
            name: name.into(),
            exit_code,
        }
    }

    /// The record's outcome as a [`TransportRunOutcome`] (always `Failed`).
    #[must_use]
    pub const fn outcome(&self) -> TransportRunOutcome {
        TransportRunOutcome::Failed {
            exit_code: self.exit_code,
        }
    }
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;
    use core::num::NonZeroU8;

    use super::{
        TransportAbandonmentReason, TransportCompletionOutcome, TransportFailureRecord,
        TransportRunOutcome,
    };

    /// The status literals, as a closed set (its helpers the wire does not call are allowed).
    #[allow(dead_code)]
    mod status {
        string_enum! {
            /// Every `status` of a completion outcome: its literal only (a derived unit enum
            /// would also read `{"succeeded": null}`).
            pub closed enum Status {
                /// `succeeded`.
                Succeeded = "succeeded",
                /// `failed`.
                Failed = "failed",
                /// `abandoned`.
                Abandoned = "abandoned",
            }
        }
    }

    use status::Status;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct OutcomeWire {
        status: Status,
        exit_code: u8,
    }

    impl From<TransportRunOutcome> for OutcomeWire {
        fn from(outcome: TransportRunOutcome) -> Self {
            let status = match outcome {
                TransportRunOutcome::Succeeded => Status::Succeeded,
                TransportRunOutcome::Failed { .. } => Status::Failed,
            };
            Self {
                status,
                exit_code: outcome.exit_code(),
            }
        }
    }

    fn run_outcome(status: Status, code: Option<u8>) -> Result<TransportRunOutcome, String> {
        match (status, code) {
            (Status::Succeeded, Some(0)) => Ok(TransportRunOutcome::Succeeded),
            (Status::Failed, Some(code)) => NonZeroU8::new(code)
                .map(|exit_code| TransportRunOutcome::Failed { exit_code })
                .ok_or_else(|| {
                    String::from("a failed outcome needs an exit code from 1 through 255")
                }),
            (Status::Succeeded, Some(_)) => {
                Err(String::from("a succeeded outcome has exit code 0"))
            }
            (Status::Abandoned, _) => Err(String::from("status `abandoned` is not a run outcome")),
            (_, None) => Err(String::from("missing field `exitCode`")),
        }
    }

    impl TryFrom<OutcomeWire> for TransportRunOutcome {
        type Error = String;
        fn try_from(wire: OutcomeWire) -> Result<Self, String> {
            run_outcome(wire.status, Some(wire.exit_code))
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct CompletionWire {
        status: Status,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<TransportAbandonmentReason>,
    }

    impl From<TransportCompletionOutcome> for CompletionWire {
        fn from(outcome: TransportCompletionOutcome) -> Self {
            match outcome {
                TransportCompletionOutcome::Ran(run) => {
                    let OutcomeWire { status, exit_code } = run.into();
                    Self {
                        status,
                        exit_code: Some(exit_code),
                        reason: None,
                    }
                }
                TransportCompletionOutcome::Abandoned { reason } => Self {
                    status: Status::Abandoned,
                    exit_code: None,
                    reason: Some(reason),
                },
            }
        }
    }

    impl TryFrom<CompletionWire> for TransportCompletionOutcome {
        type Error = String;
        fn try_from(wire: CompletionWire) -> Result<Self, String> {
            match (wire.status, wire.reason) {
                (Status::Abandoned, Some(reason)) if wire.exit_code.is_none() => {
                    Ok(Self::Abandoned { reason })
                }
                (Status::Abandoned, _) => Err(String::from(
                    "an abandoned outcome has a `reason` and no `exitCode`",
                )),
                (status, None) => run_outcome(status, wire.exit_code).map(Self::Ran),
                (_, Some(_)) => Err(String::from("only an abandoned outcome has a `reason`")),
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct FailureWire {
        name: String,
        outcome: OutcomeWire,
    }

    impl From<TransportFailureRecord> for FailureWire {
        fn from(record: TransportFailureRecord) -> Self {
            Self {
                outcome: record.outcome().into(),
                name: record.name,
            }
        }
    }

    impl TryFrom<FailureWire> for TransportFailureRecord {
        type Error = String;
        fn try_from(wire: FailureWire) -> Result<Self, String> {
            match TransportRunOutcome::try_from(wire.outcome)? {
                TransportRunOutcome::Failed { exit_code } => Ok(Self {
                    name: wire.name,
                    exit_code,
                }),
                TransportRunOutcome::Succeeded => {
                    Err(String::from("a failure record holds a failed outcome only"))
                }
            }
        }
    }
}

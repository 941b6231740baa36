//! The offer policy (`handoff-offer`): whether a session is settled enough to offer, and what
//! its inventory says travels, stays, or never crosses.
//!
//! # Rules (catalog §10 items 4-5)
//!
//! - [`assess_handoff_readiness`] refuses with `in-flight-work` exactly when a model call is in
//!   flight or at least one tool call is; running subprocesses and uncommitted changes never
//!   block an offer (they are inventoried as `source-local` instead).
//! - [`prepare_handoff_offer`] assesses readiness first, so a refused offer never produces a
//!   manifest. The manifest carries the caller's ids, integrity and offer time unchanged, and an
//!   inventory ([`handoff_inventory`]) that always lists `conversation` and `session-metadata`
//!   (transferred), `provider-credentials` (never transferred, with a note) and
//!   `working-directory` (rehydrated, the note quoting the source's path), then, only when
//!   present: `goal-and-plan`, `background-work`, `sandbox-snapshot` (rehydrated),
//!   `uncommitted-changes` and `subprocesses` (source-local, the note giving the count).
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::session::records::InteractiveSessionRecord;

use super::composition::HandoffManifestRequest;
use super::contracts::{
    HandoffIntegrity, HandoffManifest, HandoffRefusal, HandoffStateItem, HandoffStateKind,
};

/// What the source is doing right now (`ISourceRuntimeState`), as far as an offer cares.
///
/// Wire form: `{"modelCallInFlight"?, "toolCallsInFlight"?, "subprocesses"?,
/// "uncommittedChanges"?}`; an absent member is `false` or 0, and only what is set is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SourceRuntimeState {
    /// A model call is running.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "core::ops::Not::not")
    )]
    pub model_call_in_flight: bool,
    /// How many tool calls are running.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub tool_calls_in_flight: u32,
    /// How many subprocesses the session runs (they stay on the source).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub subprocesses: u32,
    /// The workspace has uncommitted changes (they stay on the source).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "core::ops::Not::not")
    )]
    pub uncommitted_changes: bool,
}

impl SourceRuntimeState {
    /// A settled source: nothing in flight, no subprocesses, no uncommitted changes (the same
    /// as [`Default`]).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            model_call_in_flight: false,
            tool_calls_in_flight: 0,
            subprocesses: 0,
            uncommitted_changes: false,
        }
    }

    /// The same state with a model call running (or not).
    #[must_use]
    pub const fn with_model_call_in_flight(mut self, model_call_in_flight: bool) -> Self {
        self.model_call_in_flight = model_call_in_flight;
        self
    }

    /// The same state with `tool_calls_in_flight` tool calls running.
    #[must_use]
    pub const fn with_tool_calls_in_flight(mut self, tool_calls_in_flight: u32) -> Self {
        self.tool_calls_in_flight = tool_calls_in_flight;
        self
    }

    /// The same state with `subprocesses` subprocesses.
    #[must_use]
    pub const fn with_subprocesses(mut self, subprocesses: u32) -> Self {
        self.subprocesses = subprocesses;
        self
    }

    /// The same state with uncommitted changes in the workspace (or not).
    #[must_use]
    pub const fn with_uncommitted_changes(mut self, uncommitted_changes: bool) -> Self {
        self.uncommitted_changes = uncommitted_changes;
        self
    }
}

/// The orchestration's name for the same state (`IHandoffRuntimeState`).
pub type HandoffRuntimeState = SourceRuntimeState;

#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(count: &u32) -> bool {
    *count == 0
}

/// The detail of an `in-flight-work` refusal (the reference's text).
pub const IN_FLIGHT_WORK_DETAIL: &str = "A turn is still running, and its outcome belongs in the \
history being transferred. Snapshotting now would produce a manifest whose digest is correct for \
a session state that never settled. Wait for it, or cancel it.";

/// The note of the `provider-credentials` inventory item.
pub const PROVIDER_CREDENTIALS_NOTE: &str = "The destination resolves its own credential. A \
hand-off to a machine without one fails at commit, loudly, rather than silently later.";

/// The note of the `sandbox-snapshot` inventory item.
pub const SANDBOX_SNAPSHOT_NOTE: &str =
    "Carried as a reference. Its validity on the destination is checked, not assumed.";

/// The note of the `uncommitted-changes` inventory item.
pub const UNCOMMITTED_CHANGES_NOTE: &str = "Moving these would make the hand-off a file-sync \
product. Their existence is reported at both ends so the choice is yours.";

/// Whether a session may be offered now (`THandoffReadiness`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::ReadinessWire", into = "wire::ReadinessWire")
)]
pub enum HandoffReadiness {
    /// `{ready: true}`: nothing in flight.
    Ready,
    /// `{ready: false, refusal, detail}`.
    NotReady {
        /// Why (`in-flight-work` from [`assess_handoff_readiness`]).
        refusal: HandoffRefusal,
        /// The explanation.
        detail: String,
    },
}

impl HandoffReadiness {
    /// True for [`Ready`](Self::Ready).
    #[must_use]
    pub const fn is_ready(&self) -> bool {
        matches!(self, Self::Ready)
    }
}

/// Whether `runtime` allows an offer (`assessHandoffReadiness`): ready unless a model call is
/// in flight or a tool call is; subprocesses and uncommitted changes never block.
#[must_use]
pub fn assess_handoff_readiness(runtime: &SourceRuntimeState) -> HandoffReadiness {
    if runtime.model_call_in_flight || runtime.tool_calls_in_flight > 0 {
        HandoffReadiness::NotReady {
            refusal: HandoffRefusal::InFlightWork,
            detail: String::from(IN_FLIGHT_WORK_DETAIL),
        }
    } else {
        HandoffReadiness::Ready
    }
}

/// Everything an offer is built from (`IPrepareHandoffOfferInput`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PrepareHandoffOfferInput {
    /// The transfer (a retry reuses it).
    pub handoff_id: String,
    /// The session.
    pub session_id: String,
    /// The machine that holds the session.
    pub source_device_id: String,
    /// The machine it goes to.
    pub destination_device_id: String,
    /// The record being moved (read for the inventory only).
    pub record: InteractiveSessionRecord,
    /// What the source is doing.
    pub runtime: SourceRuntimeState,
    /// The sealed record's integrity, carried into the manifest unchanged.
    pub integrity: HandoffIntegrity,
    /// When the offer is made (ms since the Unix epoch).
    pub offered_at: u64,
}

impl PrepareHandoffOfferInput {
    /// The input of an offer: the members of `request`, with the sealed record's `integrity`
    /// (what a [`HandoffSource`](super::source::HandoffSource) builds before it prepares one).
    #[must_use]
    pub fn new(request: HandoffManifestRequest, integrity: HandoffIntegrity) -> Self {
        Self {
            handoff_id: request.handoff_id,
            session_id: request.session_id,
            source_device_id: request.source_device_id,
            destination_device_id: request.destination_device_id,
            record: request.record,
            runtime: request.runtime,
            integrity,
            offered_at: request.offered_at,
        }
    }
}

/// The answer of [`prepare_handoff_offer`] (`THandoffOfferResult`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::OfferResultWire", into = "wire::OfferResultWire")
)]
pub enum HandoffOfferResult {
    /// `{built: true, manifest}`.
    Built {
        /// The offer.
        manifest: HandoffManifest,
    },
    /// `{built: false, refusal, detail}`: no manifest exists.
    Refused {
        /// Why.
        refusal: HandoffRefusal,
        /// The explanation.
        detail: String,
    },
}

/// The inventory of `record` given `runtime` (see the module docs for the order and the rules).
#[must_use]
pub fn handoff_inventory(
    record: &InteractiveSessionRecord,
    runtime: &SourceRuntimeState,
) -> Vec<HandoffStateItem> {
    let mut inventory = alloc::vec![
        HandoffStateItem::new(HandoffStateKind::Conversation),
        HandoffStateItem::new(HandoffStateKind::SessionMetadata),
        HandoffStateItem::with_note(
            HandoffStateKind::ProviderCredentials,
            PROVIDER_CREDENTIALS_NOTE
        ),
        HandoffStateItem::with_note(
            HandoffStateKind::WorkingDirectory,
            format!(
                "The path '{}' is meaningless on the destination; it is carried so the \
                 destination can locate or ask for the corresponding checkout. A mismatch is \
                 surfaced, not guessed.",
                record.cwd
            )
        ),
    ];
    if record.goal.is_some() || record.plan.is_some() {
        inventory.push(HandoffStateItem::new(HandoffStateKind::GoalAndPlan));
    }
    let has_tasks = record
        .background_tasks
        .as_ref()
        .is_some_and(|tasks| !tasks.is_empty());
    let has_groups = record
        .background_job_groups
        .as_ref()
        .is_some_and(|groups| !groups.is_empty());
    if has_tasks || has_groups {
        inventory.push(HandoffStateItem::new(HandoffStateKind::BackgroundWork));
    }
    if record.sandbox_snapshot_id.is_some() {
        inventory.push(HandoffStateItem::with_note(
            HandoffStateKind::SandboxSnapshot,
            SANDBOX_SNAPSHOT_NOTE,
        ));
    }
    if runtime.uncommitted_changes {
        inventory.push(HandoffStateItem::with_note(
            HandoffStateKind::UncommittedChanges,
            UNCOMMITTED_CHANGES_NOTE,
        ));
    }
    if runtime.subprocesses > 0 {
        inventory.push(HandoffStateItem::with_note(
            HandoffStateKind::Subprocesses,
            format!(
                "{} running process(es) stay here. A process cannot migrate, and pretending \
                 otherwise would resume a session whose tools point at dead pids.",
                runtime.subprocesses
            ),
        ));
    }
    inventory
}

/// Builds the offer (`prepareHandoffOffer`): readiness first (a refusal builds nothing), then
/// the manifest with the given ids, integrity and offer time and the inventory of
/// [`handoff_inventory`]. The record is read, never carried in the manifest.
#[must_use]
pub fn prepare_handoff_offer(input: PrepareHandoffOfferInput) -> HandoffOfferResult {
    if let HandoffReadiness::NotReady { refusal, detail } = assess_handoff_readiness(&input.runtime)
    {
        return HandoffOfferResult::Refused { refusal, detail };
    }
    let inventory = handoff_inventory(&input.record, &input.runtime);
    HandoffOfferResult::Built {
        manifest: HandoffManifest {
            handoff_id: input.handoff_id,
            session_id: input.session_id,
            source_device_id: input.source_device_id,
            destination_device_id: input.destination_device_id,
            inventory,
            integrity: input.integrity,
            offered_at: input.offered_at,
        },
    }
}

/// The refusal of a boolean-tagged answer whose members do not match its tag.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{tag}: {value}` needs exactly {expected}")]
pub(super) struct TagShapeMismatch {
    pub(super) tag: &'static str,
    pub(super) value: bool,
    pub(super) expected: &'static str,
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{
        HandoffManifest, HandoffOfferResult, HandoffReadiness, HandoffRefusal, TagShapeMismatch,
    };

    #[derive(serde::Serialize, serde::Deserialize)]
    pub(super) struct ReadinessWire {
        ready: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refusal: Option<HandoffRefusal>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    }

    impl TryFrom<ReadinessWire> for HandoffReadiness {
        type Error = TagShapeMismatch;

        fn try_from(wire: ReadinessWire) -> Result<Self, Self::Error> {
            match (wire.ready, wire.refusal, wire.detail) {
                (true, None, None) => Ok(Self::Ready),
                (false, Some(refusal), Some(detail)) => Ok(Self::NotReady { refusal, detail }),
                (ready, _, _) => Err(TagShapeMismatch {
                    tag: "ready",
                    value: ready,
                    expected: if ready {
                        "no refusal and no detail"
                    } else {
                        "a refusal and a detail"
                    },
                }),
            }
        }
    }

    impl From<HandoffReadiness> for ReadinessWire {
        fn from(readiness: HandoffReadiness) -> Self {
            match readiness {
                HandoffReadiness::Ready => Self {
                    ready: true,
                    refusal: None,
                    detail: None,
                },
                HandoffReadiness::NotReady { refusal, detail } => Self {
                    ready: false,
                    refusal: Some(refusal),
                    detail: Some(detail),
                },
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    pub(super) struct OfferResultWire {
        built: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        manifest: Option<HandoffManifest>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refusal: Option<HandoffRefusal>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    }

    impl TryFrom<OfferResultWire> for HandoffOfferResult {
        type Error = TagShapeMismatch;

        fn try_from(wire: OfferResultWire) -> Result<Self, Self::Error> {
            match (wire.built, wire.manifest, wire.refusal, wire.detail) {
                (true, Some(manifest), None, None) => Ok(Self::Built { manifest }),
                (false, None, Some(refusal), Some(detail)) => Ok(Self::Refused { refusal, detail }),
                (built, ..) => Err(TagShapeMismatch {
                    tag: "built",
                    value: built,
                    expected: if built {
                        "a manifest and no refusal"
                    } else {
                        "a refusal and a detail and no manifest"
                    },
                }),
            }
        }
    }

    impl From<HandoffOfferResult> for OfferResultWire {
        fn from(result: HandoffOfferResult) -> Self {
            match result {
                HandoffOfferResult::Built { manifest } => Self {
                    built: true,
                    manifest: Some(manifest),
                    refusal: None,
                    detail: None,
                },
                HandoffOfferResult::Refused { refusal, detail } => Self {
                    built: false,
                    manifest: None,
                    refusal: Some(refusal),
                    detail: Some(detail),
                },
            }
        }
    }
}

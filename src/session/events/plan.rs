//! A session's plan: the steps it proposes, their approval and their execution
//! (`IPlanArtifact`, `IPlanApprovalEvent`).
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;

string_enum! {
    /// Where one step of a plan stands (`TPlanStepStatus`).
    pub enum PlanStepStatus {
        /// Not started.
        Pending = "pending",
        /// Being worked on.
        InProgress = "in-progress",
        /// Finished.
        Done = "done",
    }
}

/// One step of a plan (`IPlanStep`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PlanStep {
    /// The step's id.
    pub id: String,
    /// What the step does.
    pub description: String,
    /// Where it stands.
    pub status: PlanStepStatus,
}

impl PlanStep {
    /// A [`PlanStep`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        description: impl Into<String>,
        status: PlanStepStatus,
    ) -> Self {
        Self {
            id: id.into(),
            description: description.into(),
            status,
        }
    }
}

string_enum! {
    /// Where a plan stands (`TPlanPhase`).
    pub enum PlanPhase {
        /// Being drafted.
        Planning = "planning",
        /// Drafted, waiting for the user's approval.
        AwaitingApproval = "awaiting-approval",
        /// Approved and being carried out.
        Executing = "executing",
        /// Carried out.
        Completed = "completed",
    }
}

/// A plan (`IPlanArtifact`), kept in the session record.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PlanArtifact {
    /// The plan's id.
    pub id: String,
    /// What the plan is for.
    pub objective: String,
    /// Its steps, in order.
    pub steps: Vec<PlanStep>,
    /// Where it stands.
    pub phase: PlanPhase,
    /// When it was made (ISO-8601, not validated).
    pub created_at: String,
    /// When the user approved it (ISO-8601, not validated).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub approved_at: Option<String>,
}

impl PlanArtifact {
    /// A [`PlanArtifact`] from the members the contract requires, in its order; the optional ones
    /// start absent.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        objective: impl Into<String>,
        steps: Vec<PlanStep>,
        phase: PlanPhase,
        created_at: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            objective: objective.into(),
            steps,
            phase,
            created_at: created_at.into(),
            approved_at: None,
        }
    }
}

optional_setters!(PlanArtifact {
    /// The same value with `approved_at` set: when the user approved it (ISO-8601, not validated).
    with_approved_at => approved_at: impl Into<String>,
});

string_enum! {
    /// What happened to a plan (the `type` of `IPlanApprovalEvent`).
    pub enum PlanEventType {
        /// A plan was drafted.
        Created = "plan_created",
        /// The user approved it.
        Approved = "plan_approved",
        /// It was reverted to planning.
        Reverted = "plan_reverted",
    }
}

/// The `plan_event` event (`IPlanApprovalEvent`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PlanApprovalEvent {
    /// What happened (wire `type`).
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub event_type: PlanEventType,
    /// The plan after it happened.
    pub plan: PlanArtifact,
}

impl PlanApprovalEvent {
    /// A [`PlanApprovalEvent`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(event_type: PlanEventType, plan: PlanArtifact) -> Self {
        Self { event_type, plan }
    }
}

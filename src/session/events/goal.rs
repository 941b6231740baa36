//! A session's goal: an objective pursued over several iterations, its progress and its events
//! (`IGoalState`, `IGoalEvent`).
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;

string_enum! {
    /// Where a goal stands (`TGoalStatus`).
    pub enum GoalStatus {
        /// Being pursued.
        Active = "active",
        /// Reached.
        Satisfied = "satisfied",
        /// Given up; `stopReason` says why.
        Stopped = "stopped",
    }
}

string_enum! {
    /// Why a goal stopped being pursued (`TGoalStopReason`).
    pub enum GoalStopReason {
        /// It was reached.
        Satisfied = "satisfied",
        /// It ran out of iterations.
        MaxIterations = "max-iterations",
        /// Somebody cancelled it.
        Cancelled = "cancelled",
        /// Iterations stopped making progress.
        NoProgress = "no-progress",
    }
}

string_enum! {
    /// What one iteration concluded (`signal` of `IGoalProgressEntry`).
    pub enum GoalProgressSignal {
        /// Keep going.
        Continue = "continue",
        /// The goal is reached.
        Satisfied = "satisfied",
    }
}

/// One iteration's verdict on a goal (`IGoalProgressEntry`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct GoalProgressEntry {
    /// Which iteration (counting from 1 by convention; not checked).
    pub iteration: u32,
    /// What it concluded.
    pub signal: GoalProgressSignal,
    /// Why.
    pub reason: String,
}

impl GoalProgressEntry {
    /// A [`GoalProgressEntry`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(iteration: u32, signal: GoalProgressSignal, reason: impl Into<String>) -> Self {
        Self {
            iteration,
            signal,
            reason: reason.into(),
        }
    }
}

/// A session's goal and its progress (`IGoalState`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct GoalState {
    /// The goal's id.
    pub id: String,
    /// What it is meant to achieve.
    pub objective: String,
    /// Where it stands.
    pub status: GoalStatus,
    /// Why it stopped, once it has.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub stop_reason: Option<GoalStopReason>,
    /// Iterations run so far.
    pub iterations: u32,
    /// The most iterations it may run.
    pub max_iterations: u32,
    /// When it started (ISO-8601, not validated).
    pub started_at: String,
    /// Every iteration's verdict, in order.
    pub progress: Vec<GoalProgressEntry>,
}

impl GoalState {
    /// A [`GoalState`] from the members the contract requires, in its order; the optional ones
    /// start absent.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        objective: impl Into<String>,
        status: GoalStatus,
        iterations: u32,
        max_iterations: u32,
        started_at: impl Into<String>,
        progress: Vec<GoalProgressEntry>,
    ) -> Self {
        Self {
            id: id.into(),
            objective: objective.into(),
            status,
            iterations,
            max_iterations,
            started_at: started_at.into(),
            progress,
            stop_reason: None,
        }
    }
}

optional_setters!(GoalState {
    /// The same value with `stop_reason` set: why it stopped, once it has.
    with_stop_reason => stop_reason: GoalStopReason,
});

string_enum! {
    /// What happened to a goal (the `type` of `IGoalEvent`).
    pub enum GoalEventType {
        /// A goal was set.
        Started = "goal_started",
        /// An iteration reported progress.
        Progress = "goal_progress",
        /// The goal stopped (reached, exhausted, cancelled or stuck).
        Stopped = "goal_stopped",
    }
}

/// The `goal_event` event (`IGoalEvent`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct GoalEvent {
    /// What happened (wire `type`).
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub event_type: GoalEventType,
    /// The goal after it happened.
    pub goal: GoalState,
}

impl GoalEvent {
    /// A [`GoalEvent`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(event_type: GoalEventType, goal: GoalState) -> Self {
        Self { event_type, goal }
    }
}

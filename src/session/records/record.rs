//! The complete, resumable record of one interactive session (`IInteractiveSessionRecord`) and
//! the version of the envelope it is persisted in.
//!
//! The record is the source of truth a resume restores from: the conversation, the history
//! timeline, the tools, the background work, the self-paced loops, the memory and context
//! inventories, the goal, the plan and the active branch. A store only keeps it (see
//! [`InteractiveSessionStore`](super::InteractiveSessionStore)); it never reads a field for its
//! meaning.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{HistoryEntry, ToolSchema, UniversalMessage, ValueMap};
use crate::execution::{
    groups::{BackgroundJobGroupEvent, BackgroundJobGroupState},
    task_event::BackgroundTaskEvent,
    task_state::BackgroundTaskState,
};

use crate::session::events::{
    ActiveBranchPointer, ContextReferenceItem, GoalState, MemoryEvent, MemoryReference,
    PlanArtifact, SkillActivationEvent,
};
use crate::session::loops::SessionLoopState;

/// The version of the persisted envelope `{"schemaVersion", "record"}` this build reads and
/// writes.
///
/// A decoder that meets any other version reports the record as
/// [`Unsupported`](super::SessionLoadOutcome::Unsupported) with the version it saw and decodes
/// nothing of it: field defects measured against another version's shape describe the reader,
/// not the data.
pub const SESSION_RECORD_SCHEMA_VERSION: u64 = 1;

/// Everything needed to resume one interactive session (`IInteractiveSessionRecord`).
///
/// Only `id`, `cwd`, the two timestamps and `messages` are required; every other member is
/// optional and absent when the session never had it. Keys this build does not know are kept in
/// [`extra`](Self::extra).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new), then
/// [`with_name`](Self::with_name) or set members in place.
#[derive(Clone, Debug, Default, PartialEq)]
// `Deserialize` is written by hand next to the stored-record decoder (decode.rs), so both apply
// the same member rules and a small target links the member decoders once.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct InteractiveSessionRecord {
    /// The session's id. A store keeps the record under exactly this id; a record whose id
    /// differs from the id it is stored under never loads as valid.
    pub id: String,
    /// The name the user gave the session, when it has one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub name: Option<String>,
    /// The workspace directory the session works in.
    pub cwd: String,
    /// When the session was created (ISO-8601, carried as written).
    pub created_at: String,
    /// When the session last changed (ISO-8601, carried as written).
    pub updated_at: String,
    /// The conversation a provider sees, oldest first.
    pub messages: Vec<UniversalMessage>,
    /// The full timeline (chat and events) a surface re-renders on resume.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub history: Option<Vec<HistoryEntry>>,
    /// The exact system prompt the session was created with.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub system_prompt: Option<String>,
    /// The tool schemas registered for the session.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tool_schemas: Option<Vec<ToolSchema>>,
    /// The latest snapshot of each background task.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub background_tasks: Option<Vec<BackgroundTaskState>>,
    /// The durable (non-streaming) background task events, in order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub background_task_events: Option<Vec<BackgroundTaskEvent>>,
    /// The latest snapshot of each background job group.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub background_job_groups: Option<Vec<BackgroundJobGroupState>>,
    /// The durable background job group events, in order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub background_job_group_events: Option<Vec<BackgroundJobGroupEvent>>,
    /// The self-paced loops with their stable identity, terminal ones included.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub session_loops: Option<Vec<SessionLoopState>>,
    /// The durable skill activation events, in order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub skill_activation_events: Option<Vec<SkillActivationEvent>>,
    /// The durable automatic-memory events, in order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub memory_events: Option<Vec<MemoryEvent>>,
    /// The memories the latest prompt turn used.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub used_memory_references: Option<Vec<MemoryReference>>,
    /// The context reference inventory (files held in, or once seen by, the context).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub context_references: Option<Vec<ContextReferenceItem>>,
    /// The provider sandbox snapshot a resume hydrates the workspace from.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub sandbox_snapshot_id: Option<String>,
    /// The goal in flight, so it survives a resume.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub goal: Option<GoalState>,
    /// The plan in flight, so it survives a resume.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub plan: Option<PlanArtifact>,
    /// The active checkpoint branch, so a branch survives a resume (an unknown one degrades to
    /// linear history; that is the session's behaviour, not the record's).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub active_branch: Option<ActiveBranchPointer>,
    /// Every top-level member this build does not know, kept as written so a writer that does
    /// not own them writes them back unchanged. Keys of the declared members never land here.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub extra: ValueMap,
}

impl InteractiveSessionRecord {
    /// A record with the required members and an empty conversation; every optional member is
    /// absent and [`extra`](Self::extra) is empty.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        cwd: impl Into<String>,
        created_at: impl Into<String>,
        updated_at: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            cwd: cwd.into(),
            created_at: created_at.into(),
            updated_at: updated_at.into(),
            ..Self::default()
        }
    }
}

optional_setters!(InteractiveSessionRecord {
    /// The same record with a display name for the session.
    with_name => name: impl Into<String>,
});

//! The execution workspace: one list that shows the main thread, background tasks and task
//! groups side by side (`IExecutionWorkspaceSnapshot` and its entries, events and detail pages).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::task_vocabulary::{BackgroundTaskKind, BackgroundTaskStatus};

string_enum! {
    /// What a workspace entry shows (`TExecutionEntryKind`).
    pub enum ExecutionEntryKind {
        /// The session's own conversation.
        MainThread = "main_thread",
        /// One background task.
        BackgroundTask = "background_task",
        /// One group of background tasks.
        BackgroundGroup = "background_group",
    }
}

/// The detailed status of a workspace entry (`TExecutionWorkspaceStatus`): `active` or `idle`
/// (the main thread), or any [`BackgroundTaskStatus`].
///
/// The task statuses are not declared a second time: [`Task`](Self::Task) holds one. The wire
/// form is the bare literal (`"active"`, `"waiting_permission"`, …); any other string fails to
/// decode with serde's "unknown variant" error listing every accepted literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ExecutionWorkspaceStatus {
    /// `'active'`: the main thread is running a turn.
    Active,
    /// `'idle'`: the main thread is not running a turn.
    Idle,
    /// A task's (or a group's) status, with the task status's literal.
    Task(BackgroundTaskStatus),
}

impl ExecutionWorkspaceStatus {
    /// Every value: `Active`, `Idle`, then each task status in [`BackgroundTaskStatus::ALL`]
    /// order.
    pub const ALL: &'static [Self] = &[
        Self::Active,
        Self::Idle,
        Self::Task(BackgroundTaskStatus::Queued),
        Self::Task(BackgroundTaskStatus::Running),
        Self::Task(BackgroundTaskStatus::WaitingPermission),
        Self::Task(BackgroundTaskStatus::Sleeping),
        Self::Task(BackgroundTaskStatus::Paused),
        Self::Task(BackgroundTaskStatus::Completed),
        Self::Task(BackgroundTaskStatus::Failed),
        Self::Task(BackgroundTaskStatus::Cancelled),
    ];

    /// Every wire literal, in [`ALL`](Self::ALL) order.
    pub const LITERALS: &'static [&'static str] = &[
        "active",
        "idle",
        "queued",
        "running",
        "waiting_permission",
        "sleeping",
        "paused",
        "completed",
        "failed",
        "cancelled",
    ];

    /// The exact wire literal of this value.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Idle => "idle",
            Self::Task(status) => status.as_str(),
        }
    }

    /// Reads an exact wire literal (case-sensitive); `None` for any other text.
    #[must_use]
    pub fn from_literal(text: &str) -> Option<Self> {
        match text {
            "active" => Some(Self::Active),
            "idle" => Some(Self::Idle),
            other => BackgroundTaskStatus::from_literal(other).map(Self::Task),
        }
    }

    /// The task status, when this is one.
    #[must_use]
    pub const fn task_status(self) -> Option<BackgroundTaskStatus> {
        match self {
            Self::Task(status) => Some(status),
            Self::Active | Self::Idle => None,
        }
    }
}

impl From<BackgroundTaskStatus> for ExecutionWorkspaceStatus {
    fn from(status: BackgroundTaskStatus) -> Self {
        Self::Task(status)
    }
}

impl fmt::Display for ExecutionWorkspaceStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ExecutionWorkspaceStatus {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ExecutionWorkspaceStatus {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::literal::deserialize(deserializer, Self::LITERALS, Self::from_literal)
    }
}

string_enum! {
    /// What an entry wants from the user (`TExecutionAttention`).
    pub enum ExecutionAttention {
        /// Nothing.
        None = "none",
        /// It has output the user has not seen.
        Unread = "unread",
        /// It failed.
        Failed = "failed",
        /// It waits for a permission decision.
        Permission = "permission",
        /// It completed.
        Completed = "completed",
    }
}

string_enum! {
    /// How an entry is shown in the list (`TExecutionWorkspaceVisibility`).
    pub enum ExecutionWorkspaceVisibility {
        /// Shown in full.
        Default = "default",
        /// Folded away.
        Collapsed = "collapsed",
    }
}

string_enum! {
    /// An action a surface may offer on an entry (`TExecutionControl`).
    pub enum ExecutionControl {
        /// Focus the entry.
        Select = "select",
        /// Stop what the entry runs (see [`ExecutionWorkspaceEntry::cancel_route`]).
        Cancel = "cancel",
        /// Dismiss the entry from the list.
        Close = "close",
        /// Send input to it.
        Send = "send",
        /// Read its log.
        ReadLog = "read_log",
        /// Wait for it to finish.
        Wait = "wait",
        /// Switch the view onto the forked session record it runs (never a merge); offered only
        /// where [`attach_offered`] holds.
        Attach = "attach",
    }
}

string_enum! {
    /// What started a piece of execution (`TExecutionOriginKind`).
    pub enum ExecutionOriginKind {
        /// A prompt the user typed.
        UserPrompt = "user_prompt",
        /// A slash command the user ran.
        SlashCommand = "slash_command",
        /// A command the model ran.
        ModelCommand = "model_command",
        /// A tool call.
        ToolCall = "tool_call",
        /// A skill.
        Skill = "skill",
        /// A transport (a remote surface).
        Transport = "transport",
        /// The system itself.
        System = "system",
    }
}

string_enum! {
    /// What a detail record shows (`TExecutionDetailRecordKind`).
    pub enum ExecutionDetailRecordKind {
        /// A conversation message.
        Message = "message",
        /// A tool call and what came of it.
        ToolActivity = "tool_activity",
        /// Output of a process.
        ProcessOutput = "process_output",
        /// A progress note.
        Progress = "progress",
        /// A final result.
        Result = "result",
        /// An error.
        Error = "error",
        /// A group's summary.
        GroupSummary = "group_summary",
    }
}

string_enum! {
    /// Which part of the workspace changed (`TExecutionWorkspaceUpdateCause`).
    pub enum ExecutionWorkspaceUpdateCause {
        /// The main thread.
        MainThread = "main_thread",
        /// A background task.
        BackgroundTask = "background_task",
        /// A group of tasks.
        BackgroundGroup = "background_group",
    }
}

string_enum! {
    /// The one-word state every surface shows beside the detailed status
    /// (`TExecutionNormalizedState`). See [`ExecutionWorkspaceStatus::normalized_state`] for
    /// the mapping.
    pub enum ExecutionNormalizedState {
        /// Queued, running, sleeping, or an active main thread.
        Working = "working",
        /// Blocked on a person: a permission question or a parked prompt.
        NeedsInput = "needs-input",
        /// Finished successfully (and an idle main thread).
        Completed = "completed",
        /// Finished with an error.
        Failed = "failed",
        /// Cancelled or paused; never shown as completed.
        Stopped = "stopped",
    }
}

string_enum! {
    /// What an entry's one-line headline says (`TExecutionHeadlineKind`).
    pub enum ExecutionHeadlineKind {
        /// What it is doing.
        Activity = "activity",
        /// The question it asks.
        Question = "question",
        /// What it ended with.
        Result = "result",
    }
}

string_enum! {
    /// What the main thread is parked on (`IExecutionPendingRequest.kind`).
    pub enum ExecutionPendingRequestKind {
        /// A permission decision.
        Permission = "permission",
        /// A question for the user.
        Ask = "ask",
    }
}

/// An entry's one line of text (`IExecutionHeadline`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionHeadline {
    /// What the line says.
    pub kind: ExecutionHeadlineKind,
    /// The line itself.
    pub text: String,
}

impl ExecutionHeadline {
    /// The line `text`, saying `kind`.
    #[must_use]
    pub fn new(kind: ExecutionHeadlineKind, text: impl Into<String>) -> Self {
        Self {
            kind,
            text: text.into(),
        }
    }
}

/// The prompt the main thread is parked on (`IExecutionPendingRequest`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionPendingRequest {
    /// Permission decision or question.
    pub kind: ExecutionPendingRequestKind,
    /// What is asked.
    pub text: String,
}

impl ExecutionPendingRequest {
    /// The prompt `text`, of `kind`.
    #[must_use]
    pub fn new(kind: ExecutionPendingRequestKind, text: impl Into<String>) -> Self {
        Self {
            kind,
            text: text.into(),
        }
    }
}

/// What started an entry (`IExecutionOrigin`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionOrigin {
    /// The kind of starter.
    pub kind: ExecutionOriginKind,
    /// The session it happened in.
    pub session_id: String,
    /// The turn it happened in.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub turn_id: Option<String>,
    /// The command, for a slash or model command.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub command_name: Option<String>,
    /// The tool call, for a tool call.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_call_id: Option<String>,
    /// The skill, for a skill.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub skill_id: Option<String>,
    /// A display name for the starter.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub label: Option<String>,
}

impl ExecutionOrigin {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(kind: ExecutionOriginKind, session_id: impl Into<String>) -> Self {
        Self {
            kind,
            session_id: session_id.into(),
            turn_id: None,
            command_name: None,
            tool_call_id: None,
            skill_id: None,
            label: None,
        }
    }
}

optional_setters!(ExecutionOrigin {
    with_turn_id => turn_id: impl Into<String>,
    with_command_name => command_name: impl Into<String>,
    with_tool_call_id => tool_call_id: impl Into<String>,
    with_skill_id => skill_id: impl Into<String>,
    with_label => label: impl Into<String>,
});

/// Where a `cancel` on a workspace entry goes ([`ExecutionWorkspaceEntry::cancel_route`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CancelRoute<'a> {
    /// Stop the `/loop` with this id. The task behind the entry, if any, is only the loop's wake
    /// timer; cancelling it would leave the loop running.
    StopLoop {
        /// The entry's `loopId`.
        loop_id: &'a str,
    },
    /// Cancel the background task with this id (the entry's `sourceId`).
    CancelTask {
        /// The task to cancel.
        task_id: &'a str,
    },
    /// Nothing to cancel: the entry offers no `cancel` control, or it is a main-thread or group
    /// entry with no loop id, for which the contract names no cancel target.
    NotCancellable,
}

/// True when a workspace entry of `kind` offers [`ExecutionControl::Attach`]: exactly a
/// background-task entry whose request carried a `resumeSessionId`.
#[must_use]
pub const fn attach_offered(kind: ExecutionEntryKind, resume_session_id: Option<&str>) -> bool {
    matches!(kind, ExecutionEntryKind::BackgroundTask) && resume_session_id.is_some()
}

/// One row of the workspace (`IExecutionWorkspaceEntry`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionWorkspaceEntry {
    /// The entry's id in the workspace.
    pub id: String,
    /// The id of what it shows: the session, task or group id.
    pub source_id: String,
    /// What it shows.
    pub kind: ExecutionEntryKind,
    /// The entry it sits under, when nested.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub parent_id: Option<String>,
    /// The group it belongs to, when grouped.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub group_id: Option<String>,
    /// What started it. Every entry has one.
    pub origin: ExecutionOrigin,
    /// For a task entry: the task's kind.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub task_kind: Option<BackgroundTaskKind>,
    /// The detailed status.
    pub status: ExecutionWorkspaceStatus,
    /// The row's title.
    pub title: String,
    /// A fixed description under the title.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub subtitle: Option<String>,
    /// The latest raw output.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub preview: Option<String>,
    /// What it is doing right now.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub current_action: Option<String>,
    /// True while it has output the user has not looked at.
    pub unread: bool,
    /// What it wants from the user.
    pub attention: ExecutionAttention,
    /// Shown in full or folded.
    pub visibility: ExecutionWorkspaceVisibility,
    /// When it last changed (ISO-8601).
    pub updated_at: String,
    /// The actions a surface may offer on it.
    pub controls: Vec<ExecutionControl>,
    /// The forked session record an `attach` switches the view onto.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub resume_session_id: Option<String>,
    /// The one-word state, derived once by the projection (see
    /// [`ExecutionNormalizedState::derive`]); surfaces show it as given.
    pub state: ExecutionNormalizedState,
    /// The row's one line of text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub headline: Option<ExecutionHeadline>,
    /// When a sleeping schedule fires next (ISO-8601), for a countdown.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub next_fire_at: Option<String>,
    /// The stable id of the `/loop` that manages this entry. When present, `cancel` means
    /// "stop this loop" ([`cancel_route`](Self::cancel_route)); loop-ness is never inferred
    /// from `task_kind` or the title.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub loop_id: Option<String>,
    /// How many tool calls the task's result reports as refused, when it reports any.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub denied_tool_calls: Option<u32>,
}

impl ExecutionWorkspaceEntry {
    /// The entry with its required members, in the contract's order: not unread, attention
    /// `none`, visibility `default`, no controls, the state `status` reads as without a parked
    /// prompt ([`ExecutionWorkspaceStatus::normalized_state`]), every optional member absent.
    /// Set the others in place.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        source_id: impl Into<String>,
        kind: ExecutionEntryKind,
        origin: ExecutionOrigin,
        status: ExecutionWorkspaceStatus,
        title: impl Into<String>,
        updated_at: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            source_id: source_id.into(),
            kind,
            parent_id: None,
            group_id: None,
            origin,
            task_kind: None,
            status,
            title: title.into(),
            subtitle: None,
            preview: None,
            current_action: None,
            unread: false,
            attention: ExecutionAttention::None,
            visibility: ExecutionWorkspaceVisibility::Default,
            updated_at: updated_at.into(),
            controls: Vec::new(),
            resume_session_id: None,
            state: status.normalized_state(),
            headline: None,
            next_fire_at: None,
            loop_id: None,
            denied_tool_calls: None,
        }
    }

    /// The same record with `controls`.
    #[must_use]
    pub fn with_controls(mut self, controls: Vec<ExecutionControl>) -> Self {
        self.controls = controls;
        self
    }
}

optional_setters!(ExecutionWorkspaceEntry {
    with_parent_id => parent_id: impl Into<String>,
    with_group_id => group_id: impl Into<String>,
    with_task_kind => task_kind: BackgroundTaskKind,
    with_subtitle => subtitle: impl Into<String>,
    with_preview => preview: impl Into<String>,
    with_current_action => current_action: impl Into<String>,
    with_resume_session_id => resume_session_id: impl Into<String>,
    with_headline => headline: ExecutionHeadline,
    with_next_fire_at => next_fire_at: impl Into<String>,
    with_loop_id => loop_id: impl Into<String>,
    with_denied_tool_calls => denied_tool_calls: u32,
});

impl ExecutionWorkspaceEntry {
    /// Where a `cancel` on this entry goes, from the entry's own fields only:
    ///
    /// 1. no [`ExecutionControl::Cancel`] among `controls`: [`CancelRoute::NotCancellable`];
    /// 2. a `loop_id`: [`CancelRoute::StopLoop`], whatever the entry's kind, task kind or title;
    /// 3. a background-task entry: [`CancelRoute::CancelTask`] with its `source_id`;
    /// 4. otherwise (main thread or group without a loop id): [`CancelRoute::NotCancellable`].
    #[must_use]
    pub fn cancel_route(&self) -> CancelRoute<'_> {
        if !self.controls.contains(&ExecutionControl::Cancel) {
            return CancelRoute::NotCancellable;
        }
        if let Some(loop_id) = &self.loop_id {
            return CancelRoute::StopLoop { loop_id };
        }
        match self.kind {
            ExecutionEntryKind::BackgroundTask => CancelRoute::CancelTask {
                task_id: &self.source_id,
            },
            ExecutionEntryKind::MainThread | ExecutionEntryKind::BackgroundGroup => {
                CancelRoute::NotCancellable
            }
        }
    }

    /// True when this entry qualifies for [`ExecutionControl::Attach`] ([`attach_offered`] of
    /// its kind and `resume_session_id`).
    #[must_use]
    pub fn offers_attach(&self) -> bool {
        attach_offered(self.kind, self.resume_session_id.as_deref())
    }

    /// The session record `attach` opens: `Some` exactly when
    /// [`offers_attach`](Self::offers_attach) holds.
    #[must_use]
    pub fn attach_session_id(&self) -> Option<&str> {
        match self.kind {
            ExecutionEntryKind::BackgroundTask => self.resume_session_id.as_deref(),
            ExecutionEntryKind::MainThread | ExecutionEntryKind::BackgroundGroup => None,
        }
    }
}

/// Which entries a listing shows (`IExecutionWorkspaceFilter`); absent fields match all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionWorkspaceFilter {
    /// Whether to list the main thread.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub include_main_thread: Option<bool>,
    /// Only entries of these kinds.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub kinds: Option<Vec<ExecutionEntryKind>>,
    /// Only entries with one of these visibilities.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub visibility: Option<Vec<ExecutionWorkspaceVisibility>>,
}

optional_setters!(ExecutionWorkspaceFilter {
    with_include_main_thread => include_main_thread: bool,
    with_kinds => kinds: Vec<ExecutionEntryKind>,
    with_visibility => visibility: Vec<ExecutionWorkspaceVisibility>,
});

/// The whole workspace at one moment (`IExecutionWorkspaceSnapshot`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionWorkspaceSnapshot {
    /// The session the workspace belongs to.
    pub session_id: String,
    /// The focused entry.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub selected_entry_id: Option<String>,
    /// When the snapshot was taken (ISO-8601).
    pub updated_at: String,
    /// The rows, in display order.
    pub entries: Vec<ExecutionWorkspaceEntry>,
}

impl ExecutionWorkspaceSnapshot {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        session_id: impl Into<String>,
        updated_at: impl Into<String>,
        entries: Vec<ExecutionWorkspaceEntry>,
    ) -> Self {
        Self {
            session_id: session_id.into(),
            selected_entry_id: None,
            updated_at: updated_at.into(),
            entries,
        }
    }
}

optional_setters!(ExecutionWorkspaceSnapshot {
    with_selected_entry_id => selected_entry_id: impl Into<String>,
});

/// How to take a snapshot (`IExecutionWorkspaceSnapshotOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionWorkspaceSnapshotOptions {
    /// The entry to focus.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub selected_entry_id: Option<String>,
    /// Which entries to list.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub filter: Option<ExecutionWorkspaceFilter>,
}

optional_setters!(ExecutionWorkspaceSnapshotOptions {
    with_selected_entry_id => selected_entry_id: impl Into<String>,
    with_filter => filter: ExecutionWorkspaceFilter,
});

string_enum! {
    /// The `type` of an [`ExecutionWorkspaceEvent`]: one fixed literal.
    pub enum ExecutionWorkspaceEventType {
        /// The workspace changed.
        ExecutionWorkspaceUpdated = "execution_workspace_updated",
    }
}

/// The workspace changed (`IExecutionWorkspaceEvent`).
///
/// The wire form also has `"type": "execution_workspace_updated"`, a fixed literal: written on
/// encoding, required on decoding (any other value is refused), read by
/// [`event_type`](Self::event_type).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(from = "WorkspaceEventWire", into = "WorkspaceEventWire")
)]
#[non_exhaustive]
pub struct ExecutionWorkspaceEvent {
    /// Which part changed.
    pub cause: ExecutionWorkspaceUpdateCause,
    /// The entry that changed, when one did.
    pub entry_id: Option<String>,
    /// The workspace after the change.
    pub snapshot: ExecutionWorkspaceSnapshot,
}

impl ExecutionWorkspaceEvent {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(cause: ExecutionWorkspaceUpdateCause, snapshot: ExecutionWorkspaceSnapshot) -> Self {
        Self {
            cause,
            entry_id: None,
            snapshot,
        }
    }
}

optional_setters!(ExecutionWorkspaceEvent {
    with_entry_id => entry_id: impl Into<String>,
});

impl ExecutionWorkspaceEvent {
    /// The event's type, always [`ExecutionWorkspaceEventType::ExecutionWorkspaceUpdated`].
    #[must_use]
    pub const fn event_type(&self) -> ExecutionWorkspaceEventType {
        ExecutionWorkspaceEventType::ExecutionWorkspaceUpdated
    }
}

/// The wire form of [`ExecutionWorkspaceEvent`] with its fixed `type`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct WorkspaceEventWire {
    #[serde(rename = "type")]
    event_type: ExecutionWorkspaceEventType,
    cause: ExecutionWorkspaceUpdateCause,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    entry_id: Option<String>,
    snapshot: ExecutionWorkspaceSnapshot,
}

#[cfg(feature = "serde")]
impl From<WorkspaceEventWire> for ExecutionWorkspaceEvent {
    fn from(wire: WorkspaceEventWire) -> Self {
        // One value only: decoding the literal was the whole check.
        let ExecutionWorkspaceEventType::ExecutionWorkspaceUpdated = wire.event_type;
        Self {
            cause: wire.cause,
            entry_id: wire.entry_id,
            snapshot: wire.snapshot,
        }
    }
}

#[cfg(feature = "serde")]
impl From<ExecutionWorkspaceEvent> for WorkspaceEventWire {
    fn from(event: ExecutionWorkspaceEvent) -> Self {
        Self {
            event_type: ExecutionWorkspaceEventType::ExecutionWorkspaceUpdated,
            cause: event.cause,
            entry_id: event.entry_id,
            snapshot: event.snapshot,
        }
    }
}

/// A position in an entry's detail (`IExecutionDetailCursor`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionDetailCursor {
    /// How far into the detail. A negative or fractional offset fails to decode.
    pub offset: u64,
}

impl ExecutionDetailCursor {
    /// The position `offset`.
    #[must_use]
    pub const fn new(offset: u64) -> Self {
        Self { offset }
    }
}

/// One record of an entry's detail view (`IExecutionDetailRecord`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionDetailRecord {
    /// The record's id.
    pub id: String,
    /// What it shows.
    pub kind: ExecutionDetailRecordKind,
    /// Its text.
    pub text: String,
    /// When it happened (ISO-8601).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub timestamp: Option<String>,
    /// The id of what it came from (a history entry, a log line, a task).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source_id: Option<String>,
}

impl ExecutionDetailRecord {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        kind: ExecutionDetailRecordKind,
        text: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            kind,
            text: text.into(),
            timestamp: None,
            source_id: None,
        }
    }
}

optional_setters!(ExecutionDetailRecord {
    with_timestamp => timestamp: impl Into<String>,
    with_source_id => source_id: impl Into<String>,
});

/// One page of an entry's detail (`IExecutionDetailPage`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionDetailPage {
    /// The entry the page belongs to.
    pub entry_id: String,
    /// Where this page starts.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub cursor: Option<ExecutionDetailCursor>,
    /// Where the next page starts; absent at the end.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub next_cursor: Option<ExecutionDetailCursor>,
    /// The records, in order.
    pub records: Vec<ExecutionDetailRecord>,
}

impl ExecutionDetailPage {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(entry_id: impl Into<String>, records: Vec<ExecutionDetailRecord>) -> Self {
        Self {
            entry_id: entry_id.into(),
            cursor: None,
            next_cursor: None,
            records,
        }
    }
}

optional_setters!(ExecutionDetailPage {
    with_cursor => cursor: ExecutionDetailCursor,
    with_next_cursor => next_cursor: ExecutionDetailCursor,
});

/// Names one entry by what it shows (`IExecutionWorkspaceEntryRef`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionWorkspaceEntryRef {
    /// What the entry shows.
    pub kind: ExecutionEntryKind,
    /// The session, task or group id.
    pub source_id: String,
}

impl ExecutionWorkspaceEntryRef {
    /// The entry showing `kind` `source_id`.
    #[must_use]
    pub fn new(kind: ExecutionEntryKind, source_id: impl Into<String>) -> Self {
        Self {
            kind,
            source_id: source_id.into(),
        }
    }
}

//! What a background task looks like while and after it runs (`IBackgroundTaskState`), the
//! fields it shares with a subagent job, and the input, log and listing records around it.

use alloc::string::String;
use alloc::vec::Vec;

use super::task_result::BackgroundTaskResult;
use super::task_schedule::BackgroundTaskSchedule;
use super::task_vocabulary::{
    BackgroundPrimitiveMap, BackgroundTaskError, BackgroundTaskIsolation, BackgroundTaskKind,
    BackgroundTaskMode, BackgroundTaskStatus, BackgroundTaskTimeoutReason,
};

/// The fields a background task's state and a subagent job's state have in common, declared
/// once and flattened into both ([`BackgroundTaskState::job`],
/// [`SubagentJobState::job`](super::subagents::SubagentJobState::job)), so the two cannot drift apart.
///
/// Timestamps are ISO-8601 strings, carried as written and not validated here.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct JobStateFields {
    /// The task's unique id.
    pub id: String,
    /// The task's short name.
    pub label: String,
    /// The session that started the task.
    pub parent_session_id: String,
    /// Whether the parent waits for the task.
    pub mode: BackgroundTaskMode,
    /// How deep the task is nested (0 for a task the session started itself).
    pub depth: u32,
    /// The operating-system process id, when the task runs in a process of its own.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pid: Option<u32>,
    /// The working directory the task runs in.
    pub cwd: String,
    /// Where the task works on files.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub isolation: Option<BackgroundTaskIsolation>,
    /// The forked session record the task restored, carried over from its request; a surface
    /// may offer to attach to it (a view of that record, never a merge into the parent).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub resume_session_id: Option<String>,
    /// The worktree the task works in, when isolated.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub worktree_path: Option<String>,
    /// The branch of that worktree.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub branch_name: Option<String>,
    /// The worktree's state, as the runner describes it (open text).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub worktree_status: Option<String>,
    /// What the user should do next with the worktree, as the runner suggests it (open text).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub worktree_next_action: Option<String>,
    /// The revision the worktree started from.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub worktree_base_revision: Option<String>,
    /// The state of the parent's own working tree, as the runner saw it (open text).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub parent_worktree_status: Option<String>,
    /// Where the task's log is written.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub log_path: Option<String>,
    /// Where the agent's transcript is written.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub transcript_path: Option<String>,
    /// When the task started running.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub started_at: Option<String>,
    /// When this state last changed.
    pub updated_at: String,
    /// When the task reached a terminal status.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub completed_at: Option<String>,
    /// Which limit stopped the task, when one did.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub timeout_reason: Option<BackgroundTaskTimeoutReason>,
    /// Free-form primitive annotations (the request's, plus whatever the runner adds).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub metadata: Option<BackgroundPrimitiveMap>,
}

impl JobStateFields {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        label: impl Into<String>,
        parent_session_id: impl Into<String>,
        mode: BackgroundTaskMode,
        depth: u32,
        cwd: impl Into<String>,
        updated_at: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            label: label.into(),
            parent_session_id: parent_session_id.into(),
            mode,
            depth,
            pid: None,
            cwd: cwd.into(),
            isolation: None,
            resume_session_id: None,
            worktree_path: None,
            branch_name: None,
            worktree_status: None,
            worktree_next_action: None,
            worktree_base_revision: None,
            parent_worktree_status: None,
            log_path: None,
            transcript_path: None,
            started_at: None,
            updated_at: updated_at.into(),
            completed_at: None,
            timeout_reason: None,
            metadata: None,
        }
    }

    /// The same record with `worktree_base_revision`.
    #[must_use]
    pub fn with_worktree_base_revision(
        mut self,
        worktree_base_revision: impl Into<String>,
    ) -> Self {
        self.worktree_base_revision = Some(worktree_base_revision.into());
        self
    }

    /// The same record with `parent_worktree_status`.
    #[must_use]
    pub fn with_parent_worktree_status(
        mut self,
        parent_worktree_status: impl Into<String>,
    ) -> Self {
        self.parent_worktree_status = Some(parent_worktree_status.into());
        self
    }
}

optional_setters!(JobStateFields {
    with_pid => pid: u32,
    with_isolation => isolation: BackgroundTaskIsolation,
    with_resume_session_id => resume_session_id: impl Into<String>,
    with_worktree_path => worktree_path: impl Into<String>,
    with_branch_name => branch_name: impl Into<String>,
    with_worktree_status => worktree_status: impl Into<String>,
    with_worktree_next_action => worktree_next_action: impl Into<String>,
    with_log_path => log_path: impl Into<String>,
    with_transcript_path => transcript_path: impl Into<String>,
    with_started_at => started_at: impl Into<String>,
    with_completed_at => completed_at: impl Into<String>,
    with_timeout_reason => timeout_reason: BackgroundTaskTimeoutReason,
    with_metadata => metadata: BackgroundPrimitiveMap,
});

/// The state of one background task (`IBackgroundTaskState`).
///
/// One record for every kind, as in the recovered contract. Where a newer revision ties the
/// result to the task's kind, this crate checks it when decoding: a state whose `result` has a
/// `kind` other than the state's own fails to decode (the error names both kinds).
// `Deserialize` is written out below: through `BackgroundTaskStateWire`, read from an object
// only.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundTaskState {
    /// Id, label, parent, mode, depth, process, paths, worktree, times, timeout reason and
    /// metadata: the fields a subagent job shares (flattened on the wire).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub job: JobStateFields,
    /// What runs behind the task.
    pub kind: BackgroundTaskKind,
    /// The agent definition, for an agent task.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub agent_type: Option<String>,
    /// Where the task is in its lifecycle.
    pub status: BackgroundTaskStatus,
    /// The task that started this one, when a task spawned it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub parent_task_id: Option<String>,
    /// When the task last did something visible.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub last_activity_at: Option<String>,
    /// The start of the agent's prompt, for lists.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt_preview: Option<String>,
    /// The start of the command line, for lists.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub command_preview: Option<String>,
    /// What the task is doing right now, in a few words (open text).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub current_action: Option<String>,
    /// True while the task has output the user has not looked at.
    pub unread: bool,
    /// What the task produced, once it has finished. Its kind is the task's kind.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub result: Option<BackgroundTaskResult>,
    /// Why the task failed, when it did.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub error: Option<BackgroundTaskError>,
    /// When a sleeping schedule fires next (ISO-8601).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub next_fire_at: Option<String>,
    /// For a scheduled task: its definition, kept so that a resumed session can arm it again.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub schedule: Option<BackgroundTaskSchedule>,
}

impl BackgroundTaskState {
    /// The state with its required members, in the contract's order; `unread` starts false (set it in place) and every optional member starts absent.
    #[must_use]
    pub fn new(
        job: JobStateFields,
        kind: BackgroundTaskKind,
        status: BackgroundTaskStatus,
    ) -> Self {
        Self {
            job,
            kind,
            agent_type: None,
            status,
            parent_task_id: None,
            last_activity_at: None,
            prompt_preview: None,
            command_preview: None,
            current_action: None,
            unread: false,
            result: None,
            error: None,
            next_fire_at: None,
            schedule: None,
        }
    }
}

optional_setters!(BackgroundTaskState {
    with_agent_type => agent_type: impl Into<String>,
    with_parent_task_id => parent_task_id: impl Into<String>,
    with_last_activity_at => last_activity_at: impl Into<String>,
    with_prompt_preview => prompt_preview: impl Into<String>,
    with_command_preview => command_preview: impl Into<String>,
    with_current_action => current_action: impl Into<String>,
    with_result => result: BackgroundTaskResult,
    with_error => error: BackgroundTaskError,
    with_next_fire_at => next_fire_at: impl Into<String>,
    with_schedule => schedule: BackgroundTaskSchedule,
});

impl BackgroundTaskState {
    /// The task's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.job.id
    }

    /// True once the task can no longer change status (see
    /// [`BackgroundTaskStatus::is_terminal`]).
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        self.status.is_terminal()
    }

    /// The forked session record a surface may attach to: the state's `resume_session_id`.
    #[must_use]
    pub fn attach_session_id(&self) -> Option<&str> {
        self.job.resume_session_id.as_deref()
    }
}

/// The decoded form of [`BackgroundTaskState`], checked for a result of the task's own kind.
///
/// The job's members are listed here rather than flattened: serde's derived decoder of a
/// flattened struct buffers the object and decodes the job from the buffer, a second instance
/// of every member's decoder. The state's own members come first, so a missing one is named
/// before a missing job member, as the flattened form named them.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct BackgroundTaskStateWire {
    kind: BackgroundTaskKind,
    #[serde(default)]
    agent_type: Option<String>,
    status: BackgroundTaskStatus,
    #[serde(default)]
    parent_task_id: Option<String>,
    #[serde(default)]
    last_activity_at: Option<String>,
    #[serde(default)]
    prompt_preview: Option<String>,
    #[serde(default)]
    command_preview: Option<String>,
    #[serde(default)]
    current_action: Option<String>,
    unread: bool,
    #[serde(default)]
    result: Option<BackgroundTaskResult>,
    #[serde(default)]
    error: Option<BackgroundTaskError>,
    #[serde(default)]
    next_fire_at: Option<String>,
    #[serde(default)]
    schedule: Option<BackgroundTaskSchedule>,
    // The members of `JobStateFields`, in its order.
    id: String,
    label: String,
    parent_session_id: String,
    mode: BackgroundTaskMode,
    depth: u32,
    #[serde(default)]
    pid: Option<u32>,
    cwd: String,
    #[serde(default)]
    isolation: Option<BackgroundTaskIsolation>,
    #[serde(default)]
    resume_session_id: Option<String>,
    #[serde(default)]
    worktree_path: Option<String>,
    #[serde(default)]
    branch_name: Option<String>,
    #[serde(default)]
    worktree_status: Option<String>,
    #[serde(default)]
    worktree_next_action: Option<String>,
    #[serde(default)]
    worktree_base_revision: Option<String>,
    #[serde(default)]
    parent_worktree_status: Option<String>,
    #[serde(default)]
    log_path: Option<String>,
    #[serde(default)]
    transcript_path: Option<String>,
    #[serde(default)]
    started_at: Option<String>,
    updated_at: String,
    #[serde(default)]
    completed_at: Option<String>,
    #[serde(default)]
    timeout_reason: Option<BackgroundTaskTimeoutReason>,
    #[serde(default)]
    metadata: Option<BackgroundPrimitiveMap>,
}

/// Reads the wire form from an object only (an array of members is refused, as it was when the
/// job's members were flattened), then checks the result's kind.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for BackgroundTaskState {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire =
            BackgroundTaskStateWire::deserialize(crate::agent_core::ObjectOnly(deserializer))?;
        Self::try_from(wire).map_err(serde::de::Error::custom)
    }
}

/// A task state whose result belongs to another kind of task.
#[cfg(feature = "serde")]
#[derive(Debug)]
struct ResultKindMismatch {
    task: BackgroundTaskKind,
    result: BackgroundTaskKind,
}

#[cfg(feature = "serde")]
impl core::fmt::Display for ResultKindMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "a `{}` task cannot hold a `result` of kind `{}`",
            self.task, self.result
        )
    }
}

#[cfg(feature = "serde")]
impl TryFrom<BackgroundTaskStateWire> for BackgroundTaskState {
    type Error = ResultKindMismatch;

    fn try_from(wire: BackgroundTaskStateWire) -> Result<Self, Self::Error> {
        if let Some(result) = &wire.result
            && result.kind() != wire.kind
        {
            return Err(ResultKindMismatch {
                task: wire.kind,
                result: result.kind(),
            });
        }
        let job = JobStateFields {
            id: wire.id,
            label: wire.label,
            parent_session_id: wire.parent_session_id,
            mode: wire.mode,
            depth: wire.depth,
            pid: wire.pid,
            cwd: wire.cwd,
            isolation: wire.isolation,
            resume_session_id: wire.resume_session_id,
            worktree_path: wire.worktree_path,
            branch_name: wire.branch_name,
            worktree_status: wire.worktree_status,
            worktree_next_action: wire.worktree_next_action,
            worktree_base_revision: wire.worktree_base_revision,
            parent_worktree_status: wire.parent_worktree_status,
            log_path: wire.log_path,
            transcript_path: wire.transcript_path,
            started_at: wire.started_at,
            updated_at: wire.updated_at,
            completed_at: wire.completed_at,
            timeout_reason: wire.timeout_reason,
            metadata: wire.metadata,
        };
        Ok(Self {
            job,
            kind: wire.kind,
            agent_type: wire.agent_type,
            status: wire.status,
            parent_task_id: wire.parent_task_id,
            last_activity_at: wire.last_activity_at,
            prompt_preview: wire.prompt_preview,
            command_preview: wire.command_preview,
            current_action: wire.current_action,
            unread: wire.unread,
            result: wire.result,
            error: wire.error,
            next_fire_at: wire.next_fire_at,
            schedule: wire.schedule,
        })
    }
}

/// Input sent to a running task (`IBackgroundTaskInput`): a follow-up prompt for an agent, text
/// for a process's standard input, or both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundTaskInput {
    /// A prompt for an agent task.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt: Option<String>,
    /// Text for a process task's standard input.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub stdin: Option<String>,
}

optional_setters!(BackgroundTaskInput {
    with_prompt => prompt: impl Into<String>,
    with_stdin => stdin: impl Into<String>,
});

/// A position in a task's log (`IBackgroundTaskLogCursor`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundTaskLogCursor {
    /// How far into the log, as the producer counts it. A negative or fractional offset fails
    /// to decode.
    pub offset: u64,
}

impl BackgroundTaskLogCursor {
    /// The position `offset`.
    #[must_use]
    pub const fn new(offset: u64) -> Self {
        Self { offset }
    }
}

/// One page of a task's log (`IBackgroundTaskLogPage`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundTaskLogPage {
    /// The task whose log this is.
    pub task_id: String,
    /// Where this page starts, when the reader asked for a position.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub cursor: Option<BackgroundTaskLogCursor>,
    /// Where the next page starts; absent at the end of the log so far.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub next_cursor: Option<BackgroundTaskLogCursor>,
    /// The log lines of the page, in order.
    pub lines: Vec<String>,
}

impl BackgroundTaskLogPage {
    /// The page of task `task_id`'s log with no lines and no cursors.
    #[must_use]
    pub fn new(task_id: impl Into<String>) -> Self {
        Self {
            task_id: task_id.into(),
            cursor: None,
            next_cursor: None,
            lines: Vec::new(),
        }
    }
}

impl BackgroundTaskLogPage {
    /// The same record with `lines`.
    #[must_use]
    pub fn with_lines(mut self, lines: Vec<String>) -> Self {
        self.lines = lines;
        self
    }
}

optional_setters!(BackgroundTaskLogPage {
    with_cursor => cursor: BackgroundTaskLogCursor,
    with_next_cursor => next_cursor: BackgroundTaskLogCursor,
});

/// Which tasks a listing returns (`IBackgroundTaskListFilter`); every absent field matches all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundTaskListFilter {
    /// Only tasks of this kind.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub kind: Option<BackgroundTaskKind>,
    /// Only tasks in this status.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub status: Option<BackgroundTaskStatus>,
    /// Only tasks of this mode.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub mode: Option<BackgroundTaskMode>,
    /// Also list tasks the user has closed (hidden otherwise).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub include_closed: Option<bool>,
}

optional_setters!(BackgroundTaskListFilter {
    with_kind => kind: BackgroundTaskKind,
    with_status => status: BackgroundTaskStatus,
    with_mode => mode: BackgroundTaskMode,
    with_include_closed => include_closed: bool,
});

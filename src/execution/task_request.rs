//! What a caller asks for when it starts a background task (`TBackgroundTaskRequest`): the
//! fields every kind shares and the four kinds.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::agent_core::{BackgroundPermissionPolicy, ModelEffort, ValueMap};

use super::task_schedule::BackgroundTaskSchedule;
use super::task_vocabulary::{
    BackgroundPrimitiveMap, BackgroundTaskIsolation, BackgroundTaskKind, BackgroundTaskMode,
};
#[cfg(feature = "serde")]
use super::wire_check::{ForeignField, present};
#[cfg(feature = "serde")]
use serde::de::IgnoredAny;

/// The fields every background-task request carries, whatever its kind
/// (`IBaseBackgroundTaskRequest` without `kind`); flattened into each kind's request on the wire.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundTaskRequestBase {
    /// A short name for the task, shown in lists.
    pub label: String,
    /// Whether the parent waits for the task.
    pub mode: BackgroundTaskMode,
    /// The session that asked for the task.
    pub parent_session_id: String,
    /// The task that asked for this one, when a task spawns a task.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub parent_task_id: Option<String>,
    /// How deep the task is nested: 0 for a task the session started itself, one more for each
    /// task in between. A negative or fractional depth fails to decode.
    pub depth: u32,
    /// The working directory the task runs in.
    pub cwd: String,
    /// An overall time limit, in milliseconds.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub timeout_ms: Option<u64>,
    /// How long the task may stay silent before it is stopped as idle, in milliseconds.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub idle_timeout_ms: Option<u64>,
    /// The longest the task may run, in milliseconds (for a handed-off tool call: the budget it
    /// has left).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_runtime_ms: Option<u64>,
    /// Free-form primitive annotations, carried onto the task's state.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub metadata: Option<BackgroundPrimitiveMap>,
}

impl BackgroundTaskRequestBase {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        label: impl Into<String>,
        mode: BackgroundTaskMode,
        parent_session_id: impl Into<String>,
        depth: u32,
        cwd: impl Into<String>,
    ) -> Self {
        Self {
            label: label.into(),
            mode,
            parent_session_id: parent_session_id.into(),
            parent_task_id: None,
            depth,
            cwd: cwd.into(),
            timeout_ms: None,
            idle_timeout_ms: None,
            max_runtime_ms: None,
            metadata: None,
        }
    }
}

optional_setters!(BackgroundTaskRequestBase {
    with_parent_task_id => parent_task_id: impl Into<String>,
    with_timeout_ms => timeout_ms: u64,
    with_idle_timeout_ms => idle_timeout_ms: u64,
    with_max_runtime_ms => max_runtime_ms: u64,
    with_metadata => metadata: BackgroundPrimitiveMap,
});

/// A provider configuration a child agent can rebuild on its own
/// (`ISerializableProviderProfile`).
///
/// Its `Debug` output never shows `api_key`: the key is printed as `<redacted>` when present.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SerializableProviderProfile {
    /// The name of the profile the settings came from.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub profile_name: Option<String>,
    /// The provider kind (wire `type`), e.g. `anthropic` or `openai`; an open set.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub provider_type: String,
    /// The model id.
    pub model: String,
    /// The API key itself, when the parent hands it over. Secret: never printed by `Debug`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub api_key: Option<String>,
    /// The name of the environment variable that holds the API key.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub api_key_env: Option<String>,
    /// A provider endpoint other than the default one (wire `baseURL`).
    #[cfg_attr(
        feature = "serde",
        serde(default, rename = "baseURL", skip_serializing_if = "Option::is_none")
    )]
    pub base_url: Option<String>,
    /// The provider call timeout, in milliseconds.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub timeout: Option<u64>,
    /// Provider-specific options, as JSON values.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub options: Option<ValueMap>,
}

impl SerializableProviderProfile {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(provider_type: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            profile_name: None,
            provider_type: provider_type.into(),
            model: model.into(),
            api_key: None,
            api_key_env: None,
            base_url: None,
            timeout: None,
            options: None,
        }
    }
}

optional_setters!(SerializableProviderProfile {
    with_profile_name => profile_name: impl Into<String>,
    with_api_key => api_key: impl Into<String>,
    with_api_key_env => api_key_env: impl Into<String>,
    with_base_url => base_url: impl Into<String>,
    with_timeout => timeout: u64,
    with_options => options: ValueMap,
});

impl fmt::Debug for SerializableProviderProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SerializableProviderProfile")
            .field("profile_name", &self.profile_name)
            .field("provider_type", &self.provider_type)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("api_key_env", &self.api_key_env)
            .field("base_url", &self.base_url)
            .field("timeout", &self.timeout)
            .field("options", &self.options)
            .finish()
    }
}

/// A request for a separate agent (`IAgentBackgroundTaskRequest` without `kind`; the payload of
/// [`BackgroundTaskRequest::Agent`], which adds `"kind": "agent"`). It is also the subagent spawn
/// request ([`SubagentSpawnRequest`](super::subagents::SubagentSpawnRequest)).
///
/// It is the only request that declares a permission policy, and there the policy is required.
/// A fork reaches the agent only as `resume_session_id`: the request has no field that could
/// carry a conversation.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct AgentBackgroundTaskRequest {
    /// Label, mode, parent, depth, working directory, limits and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BackgroundTaskRequestBase,
    /// The agent definition to run (e.g. `general-purpose`).
    pub agent_type: String,
    /// The first user prompt of the agent.
    pub prompt: String,
    /// The model to use instead of the definition's.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model: Option<String>,
    /// The reasoning effort to ask the model for.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub effort: Option<ModelEffort>,
    /// Where the agent works on files.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub isolation: Option<BackgroundTaskIsolation>,
    /// The id of a persisted session record (a fork written by `/fork`) the agent restores
    /// before its first turn. Only this id travels; the child reads the record from the store.
    /// Absent: the agent starts with an empty conversation.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub resume_session_id: Option<String>,
    /// The only tools the agent may use, when given.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub allowed_tools: Option<Vec<String>>,
    /// Tools the agent may not use.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub disallowed_tools: Option<Vec<String>>,
    /// How the agent's privileged tool calls are decided. Required: a request without it fails
    /// to decode.
    pub permission_policy: BackgroundPermissionPolicy,
    /// The provider the agent uses instead of the parent's (boxed: it is large and rarely
    /// given).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub provider_profile: Option<Box<SerializableProviderProfile>>,
    /// The most output the agent may produce, in bytes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub output_limit_bytes: Option<u64>,
    /// The most text deltas the agent may stream.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_text_deltas: Option<u32>,
    /// How many recent outputs the repetition check looks at.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub repetition_window: Option<u32>,
    /// How many identical outputs in a row stop the agent for repetition.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub repetition_threshold: Option<u32>,
}

impl AgentBackgroundTaskRequest {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        base: BackgroundTaskRequestBase,
        agent_type: impl Into<String>,
        prompt: impl Into<String>,
        permission_policy: BackgroundPermissionPolicy,
    ) -> Self {
        Self {
            base,
            agent_type: agent_type.into(),
            prompt: prompt.into(),
            model: None,
            effort: None,
            isolation: None,
            resume_session_id: None,
            allowed_tools: None,
            disallowed_tools: None,
            permission_policy,
            provider_profile: None,
            output_limit_bytes: None,
            max_text_deltas: None,
            repetition_window: None,
            repetition_threshold: None,
        }
    }

    /// The same record with `provider_profile`.
    #[must_use]
    pub fn with_provider_profile(mut self, provider_profile: SerializableProviderProfile) -> Self {
        self.provider_profile = Some(Box::new(provider_profile));
        self
    }
}

optional_setters!(AgentBackgroundTaskRequest {
    with_model => model: impl Into<String>,
    with_effort => effort: ModelEffort,
    with_isolation => isolation: BackgroundTaskIsolation,
    with_resume_session_id => resume_session_id: impl Into<String>,
    with_allowed_tools => allowed_tools: Vec<String>,
    with_disallowed_tools => disallowed_tools: Vec<String>,
    with_output_limit_bytes => output_limit_bytes: u64,
    with_max_text_deltas => max_text_deltas: u32,
    with_repetition_window => repetition_window: u32,
    with_repetition_threshold => repetition_threshold: u32,
});

impl AgentBackgroundTaskRequest {
    /// The kind this request is sent as.
    pub const KIND: BackgroundTaskKind = BackgroundTaskKind::Agent;
}

/// A request for a shell process (`IProcessBackgroundTaskRequest` without `kind`; the payload of
/// [`BackgroundTaskRequest::Process`]).
///
/// It carries no permission policy: JSON that has `permissionPolicy` fails to decode.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", try_from = "ProcessRequestWire")
)]
#[non_exhaustive]
pub struct ProcessBackgroundTaskRequest {
    /// Label, mode, parent, depth, working directory, limits and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BackgroundTaskRequestBase,
    /// The command line to run.
    pub command: String,
    /// The shell that runs it, when not the default one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub shell: Option<String>,
    /// Extra environment variables.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub env: Option<BTreeMap<String, String>>,
    /// Text written to the process's standard input.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub stdin: Option<String>,
    /// The most output kept, in bytes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub output_limit_bytes: Option<u64>,
    /// A regular expression (source text, not compiled here): an output line that matches it
    /// fires a `background_task_waking` event.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub match_pattern: Option<String>,
    /// The instruction the waking event carries when `match_pattern` matches.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub agent_instruction: Option<String>,
}

impl ProcessBackgroundTaskRequest {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(base: BackgroundTaskRequestBase, command: impl Into<String>) -> Self {
        Self {
            base,
            command: command.into(),
            shell: None,
            env: None,
            stdin: None,
            output_limit_bytes: None,
            match_pattern: None,
            agent_instruction: None,
        }
    }
}

optional_setters!(ProcessBackgroundTaskRequest {
    with_shell => shell: impl Into<String>,
    with_env => env: BTreeMap<String, String>,
    with_stdin => stdin: impl Into<String>,
    with_output_limit_bytes => output_limit_bytes: u64,
    with_match_pattern => match_pattern: impl Into<String>,
    with_agent_instruction => agent_instruction: impl Into<String>,
});

impl ProcessBackgroundTaskRequest {
    /// The kind this request is sent as.
    pub const KIND: BackgroundTaskKind = BackgroundTaskKind::Process;
}

/// A request for a cron schedule (`IScheduledBackgroundTaskRequest` without `kind`; the payload
/// of [`BackgroundTaskRequest::Scheduled`]).
///
/// It has no permission policy, by decision: a schedule with an agent instruction wakes the host
/// session, whose own permission configuration governs that turn; it spawns no agent. There is no
/// field to set one, and JSON that has `permissionPolicy` fails to decode with an error naming
/// it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", try_from = "ScheduledRequestWire")
)]
#[non_exhaustive]
pub struct ScheduledBackgroundTaskRequest {
    /// Label, mode, parent, depth, working directory, limits and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BackgroundTaskRequestBase,
    /// The cron expression, command, agent instruction, shell and environment (flattened: on the
    /// wire these are fields of the request itself). A request with neither a command nor an
    /// agent instruction fails to decode.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub schedule: BackgroundTaskSchedule,
    /// The most output kept per fire, in bytes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub output_limit_bytes: Option<u64>,
}

impl ScheduledBackgroundTaskRequest {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(base: BackgroundTaskRequestBase, schedule: BackgroundTaskSchedule) -> Self {
        Self {
            base,
            schedule,
            output_limit_bytes: None,
        }
    }
}

optional_setters!(ScheduledBackgroundTaskRequest {
    with_output_limit_bytes => output_limit_bytes: u64,
});

impl ScheduledBackgroundTaskRequest {
    /// The kind this request is sent as.
    pub const KIND: BackgroundTaskKind = BackgroundTaskKind::Scheduled;
}

string_enum! {
    /// Who handed a running tool call to the background (`provenanceOwner`); MCP is the only
    /// owner there is.
    pub enum ToolProvenanceOwner {
        /// A Model Context Protocol server's tool.
        Mcp = "mcp",
    }
}

/// A tool call that is already running, handed to the background
/// (`IToolInvocationBackgroundTaskRequest` without `kind`; the payload of
/// [`BackgroundTaskRequest::ToolInvocation`]).
///
/// The wire form also has `"provenanceOwner": "mcp"`, a fixed literal: it is written on encoding,
/// required on decoding, any other value is refused, and
/// [`provenance_owner`](Self::provenance_owner) reads it. The call's remaining budget rides the
/// base's `max_runtime_ms`. It carries no permission policy: JSON that has `permissionPolicy`
/// fails to decode.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "ToolInvocationRequestWire",
        into = "ToolInvocationRequestWire"
    )
)]
#[non_exhaustive]
pub struct ToolInvocationBackgroundTaskRequest {
    /// Label, mode, parent, depth, working directory, limits and metadata.
    pub base: BackgroundTaskRequestBase,
    /// The name of the tool being called.
    pub tool_name: String,
    /// The token the runner looks up to find the call that is already running.
    pub adoption_token: String,
    /// The MCP server that owns the tool.
    pub server_id: String,
    /// The name of the tool source, as the user knows it.
    pub source_name: String,
    /// The identity the call runs as, when the server has one.
    pub security_identity: Option<String>,
    /// The permission mode the call was admitted under. Provenance for lists and notifications,
    /// not something enforced from here.
    pub permission_mode: String,
}

impl ToolInvocationBackgroundTaskRequest {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        base: BackgroundTaskRequestBase,
        tool_name: impl Into<String>,
        adoption_token: impl Into<String>,
        server_id: impl Into<String>,
        source_name: impl Into<String>,
        permission_mode: impl Into<String>,
    ) -> Self {
        Self {
            base,
            tool_name: tool_name.into(),
            adoption_token: adoption_token.into(),
            server_id: server_id.into(),
            source_name: source_name.into(),
            security_identity: None,
            permission_mode: permission_mode.into(),
        }
    }
}

optional_setters!(ToolInvocationBackgroundTaskRequest {
    with_security_identity => security_identity: impl Into<String>,
});

impl ToolInvocationBackgroundTaskRequest {
    /// The kind this request is sent as.
    pub const KIND: BackgroundTaskKind = BackgroundTaskKind::ToolInvocation;

    /// Who handed the call over: always [`ToolProvenanceOwner::Mcp`] (the wire
    /// `provenanceOwner`).
    #[must_use]
    pub const fn provenance_owner(&self) -> ToolProvenanceOwner {
        ToolProvenanceOwner::Mcp
    }
}

/// A request to start a background task (`TBackgroundTaskRequest`), tagged on `kind`.
///
/// Each variant holds the fields of its kind; the enum supplies the `kind` tag, so
/// `BackgroundTaskRequest::Agent(x)` encodes as `x` plus `"kind": "agent"`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind"))]
pub enum BackgroundTaskRequest {
    /// `kind: 'agent'`: a separate agent.
    #[cfg_attr(feature = "serde", serde(rename = "agent"))]
    Agent(AgentBackgroundTaskRequest),
    /// `kind: 'process'`: a shell process.
    #[cfg_attr(feature = "serde", serde(rename = "process"))]
    Process(ProcessBackgroundTaskRequest),
    /// `kind: 'scheduled'`: a cron schedule.
    #[cfg_attr(feature = "serde", serde(rename = "scheduled"))]
    Scheduled(ScheduledBackgroundTaskRequest),
    /// `kind: 'tool-invocation'`: a running tool call handed over.
    #[cfg_attr(feature = "serde", serde(rename = "tool-invocation"))]
    ToolInvocation(ToolInvocationBackgroundTaskRequest),
}

impl BackgroundTaskRequest {
    /// The request's kind: the wire tag.
    #[must_use]
    pub const fn kind(&self) -> BackgroundTaskKind {
        match self {
            Self::Agent(_) => BackgroundTaskKind::Agent,
            Self::Process(_) => BackgroundTaskKind::Process,
            Self::Scheduled(_) => BackgroundTaskKind::Scheduled,
            Self::ToolInvocation(_) => BackgroundTaskKind::ToolInvocation,
        }
    }

    /// The fields every kind shares.
    #[must_use]
    pub const fn base(&self) -> &BackgroundTaskRequestBase {
        match self {
            Self::Agent(request) => &request.base,
            Self::Process(request) => &request.base,
            Self::Scheduled(request) => &request.base,
            Self::ToolInvocation(request) => &request.base,
        }
    }

    /// The fields every kind shares, for changing them.
    pub const fn base_mut(&mut self) -> &mut BackgroundTaskRequestBase {
        match self {
            Self::Agent(request) => &mut request.base,
            Self::Process(request) => &mut request.base,
            Self::Scheduled(request) => &mut request.base,
            Self::ToolInvocation(request) => &mut request.base,
        }
    }

    /// The permission policy: `Some` exactly for an agent request, `None` for every other kind
    /// (they have none to carry).
    #[must_use]
    pub const fn permission_policy(&self) -> Option<BackgroundPermissionPolicy> {
        match self {
            Self::Agent(request) => Some(request.permission_policy),
            _ => None,
        }
    }

    /// The session record a fork hands the task: `Some` only for an agent request that has one.
    #[must_use]
    pub fn resume_session_id(&self) -> Option<&str> {
        match self {
            Self::Agent(request) => request.resume_session_id.as_deref(),
            _ => None,
        }
    }
}

from_variants!(BackgroundTaskRequest {
    Agent(AgentBackgroundTaskRequest),
    Process(ProcessBackgroundTaskRequest),
    Scheduled(ScheduledBackgroundTaskRequest),
    ToolInvocation(ToolInvocationBackgroundTaskRequest),
});

/// Who may carry `permissionPolicy`, for refusals.
#[cfg(feature = "serde")]
const POLICY_OWNER: &str = "agent requests";

/// The decoded form of [`ProcessBackgroundTaskRequest`]; refuses `permissionPolicy`.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProcessRequestWire {
    #[serde(flatten)]
    base: BackgroundTaskRequestBase,
    command: String,
    #[serde(default)]
    shell: Option<String>,
    #[serde(default)]
    env: Option<BTreeMap<String, String>>,
    #[serde(default)]
    stdin: Option<String>,
    #[serde(default)]
    output_limit_bytes: Option<u64>,
    #[serde(default)]
    match_pattern: Option<String>,
    #[serde(default)]
    agent_instruction: Option<String>,
    #[serde(default, deserialize_with = "present")]
    permission_policy: Option<IgnoredAny>,
}

#[cfg(feature = "serde")]
impl TryFrom<ProcessRequestWire> for ProcessBackgroundTaskRequest {
    type Error = ForeignField;

    fn try_from(wire: ProcessRequestWire) -> Result<Self, Self::Error> {
        ForeignField::check(
            wire.permission_policy.as_ref(),
            "permissionPolicy",
            "a process request",
            POLICY_OWNER,
        )?;
        Ok(Self {
            base: wire.base,
            command: wire.command,
            shell: wire.shell,
            env: wire.env,
            stdin: wire.stdin,
            output_limit_bytes: wire.output_limit_bytes,
            match_pattern: wire.match_pattern,
            agent_instruction: wire.agent_instruction,
        })
    }
}

/// The decoded form of [`ScheduledBackgroundTaskRequest`]; refuses `permissionPolicy`.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ScheduledRequestWire {
    #[serde(flatten)]
    base: BackgroundTaskRequestBase,
    #[serde(flatten)]
    schedule: BackgroundTaskSchedule,
    #[serde(default)]
    output_limit_bytes: Option<u64>,
    #[serde(default, deserialize_with = "present")]
    permission_policy: Option<IgnoredAny>,
}

#[cfg(feature = "serde")]
impl TryFrom<ScheduledRequestWire> for ScheduledBackgroundTaskRequest {
    type Error = ForeignField;

    fn try_from(wire: ScheduledRequestWire) -> Result<Self, Self::Error> {
        ForeignField::check(
            wire.permission_policy.as_ref(),
            "permissionPolicy",
            "a scheduled request (it wakes the host session, whose own permissions apply)",
            POLICY_OWNER,
        )?;
        Ok(Self {
            base: wire.base,
            schedule: wire.schedule,
            output_limit_bytes: wire.output_limit_bytes,
        })
    }
}

/// The wire form of [`ToolInvocationBackgroundTaskRequest`]: adds the fixed `provenanceOwner` and
/// refuses `permissionPolicy`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolInvocationRequestWire {
    #[serde(flatten)]
    base: BackgroundTaskRequestBase,
    tool_name: String,
    adoption_token: String,
    provenance_owner: ToolProvenanceOwner,
    server_id: String,
    source_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    security_identity: Option<String>,
    permission_mode: String,
    #[serde(default, skip_serializing, deserialize_with = "present")]
    permission_policy: Option<IgnoredAny>,
}

#[cfg(feature = "serde")]
impl TryFrom<ToolInvocationRequestWire> for ToolInvocationBackgroundTaskRequest {
    type Error = ForeignField;

    fn try_from(wire: ToolInvocationRequestWire) -> Result<Self, Self::Error> {
        ForeignField::check(
            wire.permission_policy.as_ref(),
            "permissionPolicy",
            "a tool-invocation request",
            POLICY_OWNER,
        )?;
        // `ToolProvenanceOwner` has the one value `Mcp`: decoding it was the whole check.
        let ToolProvenanceOwner::Mcp = wire.provenance_owner;
        Ok(Self {
            base: wire.base,
            tool_name: wire.tool_name,
            adoption_token: wire.adoption_token,
            server_id: wire.server_id,
            source_name: wire.source_name,
            security_identity: wire.security_identity,
            permission_mode: wire.permission_mode,
        })
    }
}

#[cfg(feature = "serde")]
impl From<ToolInvocationBackgroundTaskRequest> for ToolInvocationRequestWire {
    fn from(request: ToolInvocationBackgroundTaskRequest) -> Self {
        Self {
            base: request.base,
            tool_name: request.tool_name,
            adoption_token: request.adoption_token,
            provenance_owner: ToolProvenanceOwner::Mcp,
            server_id: request.server_id,
            source_name: request.source_name,
            security_identity: request.security_identity,
            permission_mode: request.permission_mode,
            permission_policy: None,
        }
    }
}

//! serde's derived decoders of the wire shapes of the enums tagged on a member that the crate
//! decodes in one pass (`BackgroundTaskEvent`, `BackgroundJobGroupEvent`,
//! `UniversalMessagePart`, `UniversalMessage`, `BackgroundTaskResult`), and of
//! `BackgroundTaskState` and `ObjectParameterSchema` as they were, flattening: the reference the crate's decoders are held to, by
//! `tests/tagged_events.rs` and the `tagged_events` fuzz target. Named as the crate's enums, so
//! serde's messages (which name the enum) are the same; the crate's are imported renamed.

use agent_interface::agent_core::{
    AssistantMessage, JsonSchemaKind, ObjectParameterSchema, SystemMessage, ToolMessage,
    UniversalMessage as Message, UniversalMessagePart as Part, UserMessage, ValueMap,
};
use agent_interface::execution::groups::{
    BackgroundJobGroupEvent as GroupEvent, BackgroundJobGroupState,
};
use agent_interface::execution::task_event::BackgroundTaskEvent as TaskEvent;
use agent_interface::execution::task_result::{
    AgentBackgroundTaskResult, BackgroundTaskResult as TaskResult, ProcessBackgroundTaskResult,
    ScheduledBackgroundTaskResult, ToolInvocationBackgroundTaskResult,
};
use agent_interface::execution::task_schedule::BackgroundTaskSchedule;
use agent_interface::execution::task_state::{BackgroundTaskState, JobStateFields};
use agent_interface::execution::task_vocabulary::BackgroundPrimitiveMap;
use agent_interface::execution::task_vocabulary::{
    BackgroundTaskError, BackgroundTaskKind, BackgroundTaskStatus,
};
use serde::Deserialize;

/// serde's derived decoder of `BackgroundTaskEvent`'s wire shape.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum BackgroundTaskEvent {
    #[serde(rename = "background_task_created")]
    Created { task: Box<BackgroundTaskState> },
    #[serde(rename = "background_task_started")]
    Started { task: Box<BackgroundTaskState> },
    #[serde(rename = "background_task_updated")]
    Updated { task: Box<BackgroundTaskState> },
    #[serde(rename = "background_task_text_delta")]
    TextDelta { task_id: String, delta: String },
    #[serde(rename = "background_task_tool_start")]
    ToolStart {
        task_id: String,
        tool_name: String,
        #[serde(default)]
        first_arg: Option<String>,
    },
    #[serde(rename = "background_task_tool_end")]
    ToolEnd {
        task_id: String,
        tool_name: String,
        success: bool,
        #[serde(default)]
        error: Option<String>,
    },
    #[serde(rename = "background_task_permission_request")]
    PermissionRequest {
        task_id: String,
        request_id: String,
        tool_name: String,
        tool_args: BackgroundPrimitiveMap,
    },
    #[serde(rename = "background_task_completed")]
    Completed { task: Box<BackgroundTaskState> },
    #[serde(rename = "background_task_failed")]
    Failed { task: Box<BackgroundTaskState> },
    #[serde(rename = "background_task_cancelled")]
    Cancelled { task: Box<BackgroundTaskState> },
    #[serde(rename = "background_task_closed")]
    Closed { task_id: String },
    #[serde(rename = "background_task_waking")]
    Waking {
        task_id: String,
        #[serde(default)]
        instruction: Option<String>,
    },
}

impl From<BackgroundTaskEvent> for TaskEvent {
    fn from(event: BackgroundTaskEvent) -> Self {
        use BackgroundTaskEvent as R;
        match event {
            R::Created { task } => Self::Created { task },
            R::Started { task } => Self::Started { task },
            R::Updated { task } => Self::Updated { task },
            R::TextDelta { task_id, delta } => Self::TextDelta { task_id, delta },
            R::ToolStart {
                task_id,
                tool_name,
                first_arg,
            } => Self::ToolStart {
                task_id,
                tool_name,
                first_arg,
            },
            R::ToolEnd {
                task_id,
                tool_name,
                success,
                error,
            } => Self::ToolEnd {
                task_id,
                tool_name,
                success,
                error,
            },
            R::PermissionRequest {
                task_id,
                request_id,
                tool_name,
                tool_args,
            } => Self::PermissionRequest {
                task_id,
                request_id,
                tool_name,
                tool_args,
            },
            R::Completed { task } => Self::Completed { task },
            R::Failed { task } => Self::Failed { task },
            R::Cancelled { task } => Self::Cancelled { task },
            R::Closed { task_id } => Self::Closed { task_id },
            R::Waking {
                task_id,
                instruction,
            } => Self::Waking {
                task_id,
                instruction,
            },
        }
    }
}

/// serde's derived decoder of `BackgroundJobGroupEvent`'s wire shape.
#[derive(Deserialize)]
#[serde(tag = "type")]
pub enum BackgroundJobGroupEvent {
    #[serde(rename = "background_job_group_created")]
    Created { group: BackgroundJobGroupState },
    #[serde(rename = "background_job_group_updated")]
    Updated { group: BackgroundJobGroupState },
    #[serde(rename = "background_job_group_completed")]
    Completed { group: BackgroundJobGroupState },
}

impl From<BackgroundJobGroupEvent> for GroupEvent {
    fn from(event: BackgroundJobGroupEvent) -> Self {
        match event {
            BackgroundJobGroupEvent::Created { group } => Self::Created { group },
            BackgroundJobGroupEvent::Updated { group } => Self::Updated { group },
            BackgroundJobGroupEvent::Completed { group } => Self::Completed { group },
        }
    }
}

/// serde's derived decoder of `UniversalMessagePart`'s wire shape.
#[derive(Deserialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum UniversalMessagePart {
    Text {
        text: String,
    },
    ImageInline {
        mime_type: String,
        data: String,
    },
    ImageUri {
        uri: String,
        #[serde(default)]
        mime_type: Option<String>,
    },
}

impl From<UniversalMessagePart> for Part {
    fn from(part: UniversalMessagePart) -> Self {
        match part {
            UniversalMessagePart::Text { text } => Self::Text { text },
            UniversalMessagePart::ImageInline { mime_type, data } => {
                Self::ImageInline { mime_type, data }
            }
            UniversalMessagePart::ImageUri { uri, mime_type } => Self::ImageUri { uri, mime_type },
        }
    }
}

/// serde's derived decoder of `UniversalMessage`'s wire shape: tagged on `role`, each role the
/// crate's own struct, whose derived decoder flattens the shared base.
#[derive(Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum UniversalMessage {
    User(UserMessage),
    Assistant(AssistantMessage),
    System(SystemMessage),
    Tool(ToolMessage),
}

impl From<UniversalMessage> for Message {
    fn from(message: UniversalMessage) -> Self {
        match message {
            UniversalMessage::User(message) => Self::User(message),
            UniversalMessage::Assistant(message) => Self::Assistant(message),
            UniversalMessage::System(message) => Self::System(message),
            UniversalMessage::Tool(message) => Self::Tool(message),
        }
    }
}

/// serde's derived decoder of `BackgroundTaskResult`'s wire shape: tagged on `kind`, each kind
/// the crate's own struct, whose derived decoder flattens the shared base and refuses the keys
/// of other kinds.
#[derive(Deserialize)]
#[serde(tag = "kind")]
pub enum BackgroundTaskResult {
    #[serde(rename = "agent")]
    Agent(AgentBackgroundTaskResult),
    #[serde(rename = "process")]
    Process(ProcessBackgroundTaskResult),
    #[serde(rename = "scheduled")]
    Scheduled(ScheduledBackgroundTaskResult),
    #[serde(rename = "tool-invocation")]
    ToolInvocation(ToolInvocationBackgroundTaskResult),
}

impl From<BackgroundTaskResult> for TaskResult {
    fn from(result: BackgroundTaskResult) -> Self {
        match result {
            BackgroundTaskResult::Agent(result) => Self::Agent(result),
            BackgroundTaskResult::Process(result) => Self::Process(result),
            BackgroundTaskResult::Scheduled(result) => Self::Scheduled(result),
            BackgroundTaskResult::ToolInvocation(result) => Self::ToolInvocation(result),
        }
    }
}

/// serde's derived decoder of `BackgroundTaskState`'s wire shape as the crate declared it
/// before: the job's members flattened. Named as the crate's wire, since serde's messages name
/// the struct.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BackgroundTaskStateWire {
    #[serde(flatten)]
    job: JobStateFields,
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
    result: Option<TaskResult>,
    #[serde(default)]
    error: Option<BackgroundTaskError>,
    #[serde(default)]
    next_fire_at: Option<String>,
    #[serde(default)]
    schedule: Option<BackgroundTaskSchedule>,
}

/// [`BackgroundTaskStateWire`] with the crate's check that a result is of the task's kind.
#[derive(Deserialize)]
#[serde(try_from = "BackgroundTaskStateWire")]
pub struct TaskState(pub BackgroundTaskState);

impl TryFrom<BackgroundTaskStateWire> for TaskState {
    type Error = String;

    fn try_from(wire: BackgroundTaskStateWire) -> Result<Self, String> {
        if let Some(result) = &wire.result
            && result.kind() != wire.kind
        {
            return Err(format!(
                "a `{}` task cannot hold a `result` of kind `{}`",
                wire.kind,
                result.kind()
            ));
        }
        let mut state = BackgroundTaskState::new(wire.job, wire.kind, wire.status);
        state.agent_type = wire.agent_type;
        state.parent_task_id = wire.parent_task_id;
        state.last_activity_at = wire.last_activity_at;
        state.prompt_preview = wire.prompt_preview;
        state.command_preview = wire.command_preview;
        state.current_action = wire.current_action;
        state.unread = wire.unread;
        state.result = wire.result;
        state.error = wire.error;
        state.next_fire_at = wire.next_fire_at;
        state.schedule = wire.schedule;
        Ok(Self(state))
    }
}

impl From<TaskState> for BackgroundTaskState {
    fn from(state: TaskState) -> Self {
        state.0
    }
}

/// serde's derived decoder of `ObjectParameterSchema`'s wire shape as the crate declared it
/// before: every other member flattened into `extra`. Named as the crate's wire, since serde's
/// messages name the struct.
#[derive(Deserialize)]
pub struct ObjectSchemaWire {
    #[serde(rename = "type")]
    kind: JsonSchemaKind,
    properties: ValueMap,
    #[serde(default)]
    required: Option<Vec<String>>,
    #[serde(flatten)]
    extra: ValueMap,
}

/// [`ObjectSchemaWire`] with the crate's check that the type is `object`.
#[derive(Deserialize)]
#[serde(try_from = "ObjectSchemaWire")]
pub struct ObjectSchema(pub ObjectParameterSchema);

impl TryFrom<ObjectSchemaWire> for ObjectSchema {
    type Error = &'static str;

    fn try_from(wire: ObjectSchemaWire) -> Result<Self, Self::Error> {
        if wire.kind != JsonSchemaKind::Object {
            return Err("a tool's parameters schema must have type `object`");
        }
        let mut schema = ObjectParameterSchema::new(wire.properties);
        schema.required = wire.required;
        schema.extra = wire.extra;
        Ok(Self(schema))
    }
}

impl From<ObjectSchema> for ObjectParameterSchema {
    fn from(schema: ObjectSchema) -> Self {
        schema.0
    }
}

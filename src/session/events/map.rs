//! The session's event map (`IInteractiveSessionEvents`) as one enum, [`SessionEvent`], the set of
//! its 28 names ([`InteractiveEventName`]) and the routing facts the contract states about them.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::boxed::Box;
use alloc::string::String;

use crate::agent_core::{ContextWindowState, ErrorValue};
use crate::execution::{
    groups::BackgroundJobGroupEvent, task_event::BackgroundTaskEvent,
    workspace::ExecutionWorkspaceEvent,
};

use super::branch::BranchEvent;
use super::goal::GoalEvent;
use super::payloads::{CompactEvent, MemoryEvent, SkillActivationEvent};
use super::plan::PlanApprovalEvent;
use super::status::SessionStatusSnapshot;
use super::tool_state::ToolState;
use crate::session::directory::SessionSwitchedEvent;
use crate::session::prompts::{
    AskRequestEvent, ContextFileRefreshedEvent, PermissionRequestEvent, PromptResolvedEvent,
};
use crate::session::turns::{
    ExecutionResult, PartialExecutionResult, SessionRenamedEvent, TurnSource, UiIntentEvent,
};

string_enum! {
    /// The name of a session event (`TInteractiveEventName`): exactly the 28 keys of the event map.
    pub enum InteractiveEventName {
        /// `text_delta`: a piece of the assistant's reply.
        TextDelta = "text_delta",
        /// `tool_start`: a tool call began.
        ToolStart = "tool_start",
        /// `tool_end`: a tool call ended.
        ToolEnd = "tool_end",
        /// `thinking`: the model started or stopped thinking.
        Thinking = "thinking",
        /// `complete`: a turn ran to the end.
        Complete = "complete",
        /// `interrupted`: a turn was aborted.
        Interrupted = "interrupted",
        /// `error`: a turn failed.
        Error = "error",
        /// `context_update`: the context window's fill changed.
        ContextUpdate = "context_update",
        /// `compact`: the conversation was compacted.
        Compact = "compact",
        /// `skill_activation`: a skill started, finished or failed.
        SkillActivation = "skill_activation",
        /// `background_task_event`: a background task reported.
        BackgroundTaskEvent = "background_task_event",
        /// `background_job_group_event`: a background job group reported.
        BackgroundJobGroupEvent = "background_job_group_event",
        /// `execution_workspace_event`: the execution workspace changed.
        ExecutionWorkspaceEvent = "execution_workspace_event",
        /// `user_message`: a user message entered the conversation.
        UserMessage = "user_message",
        /// `turn_source`: where the turn now starting came from.
        TurnSource = "turn_source",
        /// `context_file_refreshed`: a context file was read again.
        ContextFileRefreshed = "context_file_refreshed",
        /// `memory_event`: something happened to a memory.
        MemoryEvent = "memory_event",
        /// `goal_event`: something happened to the goal.
        GoalEvent = "goal_event",
        /// `plan_event`: something happened to the plan.
        PlanEvent = "plan_event",
        /// `branch_event`: a checkpoint or branch transition was persisted.
        BranchEvent = "branch_event",
        /// `permission_request`: a tool call waits for a decision.
        PermissionRequest = "permission_request",
        /// `ask_request`: the agent asks the user a question.
        AskRequest = "ask_request",
        /// `prompt_resolved`: a prompt of any kind was settled.
        PromptResolved = "prompt_resolved",
        /// `ui_intent`: a command asks its surface to show a screen.
        UiIntent = "ui_intent",
        /// `session_renamed`: the session got a new name.
        SessionRenamed = "session_renamed",
        /// `history_cleared`: the conversation was cleared.
        HistoryCleared = "history_cleared",
        /// `session_switched`: this client's binding moved to another session.
        SessionSwitched = "session_switched",
        /// `status_changed`: mode, model, effort, goal or name changed.
        StatusChanged = "status_changed",
    }
}

/// Which surfaces an event is delivered to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum EventAudience {
    /// Every surface observing the session (a broadcast).
    EverySurface,
    /// Only the surface whose driver requested it (by the event's requester driver id); other
    /// surfaces ignore it.
    RequestingSurface,
    /// Only the client whose session binding moved.
    SwitchedClient,
}

impl InteractiveEventName {
    /// Who receives an event of this name: `ui_intent` only its requesting surface,
    /// `session_switched` only the client whose binding moved, every other event (among them
    /// `session_renamed` and `history_cleared`) every surface.
    #[must_use]
    pub const fn audience(self) -> EventAudience {
        match self {
            Self::UiIntent => EventAudience::RequestingSurface,
            Self::SessionSwitched => EventAudience::SwitchedClient,
            _ => EventAudience::EverySurface,
        }
    }

    /// True for the prompts the session parks until the first answer (`permission_request`,
    /// `ask_request`); a `ui_intent` expects no answer and is never parked.
    #[must_use]
    pub const fn awaits_answer(self) -> bool {
        matches!(self, Self::PermissionRequest | Self::AskRequest)
    }

    /// False only for `history_cleared`, the one event without a payload.
    #[must_use]
    pub const fn has_payload(self) -> bool {
        !matches!(self, Self::HistoryCleared)
    }
}

/// One session event (an entry of `IInteractiveSessionEvents`): the name and its payload.
///
/// The wire frame is `{"type": "<name>", "event": <payload>}`;
/// [`HistoryCleared`](Self::HistoryCleared) is written `{"type": "history_cleared"}`.
///
/// `#[non_exhaustive]`: the contract adds kinds, so match it with a wildcard arm; decoding
/// still refuses a kind not listed here.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "type", content = "event", rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum SessionEvent {
    /// `text_delta`: text to append to the assistant's reply.
    TextDelta(String),
    /// `tool_start`: a tool call began.
    ToolStart(ToolState),
    /// `tool_end`: a tool call ended.
    ToolEnd(ToolState),
    /// `thinking`: true when the model started thinking, false when it stopped.
    Thinking(bool),
    /// `complete`: the turn ran to the end, with its result.
    Complete(Box<ExecutionResult>),
    /// `interrupted`: the turn was aborted, with its partial result (local history only).
    Interrupted(PartialExecutionResult),
    /// `error`: the turn failed, with the error as data.
    Error(ErrorValue),
    /// `context_update`: the context window's new fill.
    ContextUpdate(ContextWindowState),
    /// `compact`: the conversation was compacted.
    Compact(CompactEvent),
    /// `skill_activation`: a skill started, finished or failed.
    SkillActivation(SkillActivationEvent),
    /// `background_task_event`: a background task's report.
    BackgroundTaskEvent(BackgroundTaskEvent),
    /// `background_job_group_event`: a background job group's report.
    BackgroundJobGroupEvent(BackgroundJobGroupEvent),
    /// `execution_workspace_event`: the execution workspace changed.
    ExecutionWorkspaceEvent(ExecutionWorkspaceEvent),
    /// `user_message`: the text of a user message that entered the conversation.
    UserMessage(String),
    /// `turn_source`: where the turn now starting came from (sent at the start of each turn).
    TurnSource(TurnSource),
    /// `context_file_refreshed`: a context file was read again.
    ContextFileRefreshed(ContextFileRefreshedEvent),
    /// `memory_event`: something happened to a memory.
    MemoryEvent(MemoryEvent),
    /// `goal_event`: something happened to the goal.
    GoalEvent(GoalEvent),
    /// `plan_event`: something happened to the plan.
    PlanEvent(PlanApprovalEvent),
    /// `branch_event`: a checkpoint or branch transition, sent only after it was persisted.
    BranchEvent(BranchEvent),
    /// `permission_request`: a tool call waits for a decision.
    PermissionRequest(PermissionRequestEvent),
    /// `ask_request`: the agent asks the user a question.
    AskRequest(AskRequestEvent),
    /// `prompt_resolved`: a prompt of any kind was settled.
    PromptResolved(PromptResolvedEvent),
    /// `ui_intent`: a command asks its requesting surface to show a screen.
    UiIntent(UiIntentEvent),
    /// `session_renamed`: the session got a new name.
    SessionRenamed(SessionRenamedEvent),
    /// `history_cleared`: the conversation was cleared (no payload).
    HistoryCleared,
    /// `session_switched`: this client's binding moved to another session.
    SessionSwitched(SessionSwitchedEvent),
    /// `status_changed`: the session's new status.
    StatusChanged(Box<SessionStatusSnapshot>),
}

impl SessionEvent {
    /// The event's name (its wire `type`).
    #[must_use]
    pub const fn name(&self) -> InteractiveEventName {
        match self {
            Self::TextDelta(_) => InteractiveEventName::TextDelta,
            Self::ToolStart(_) => InteractiveEventName::ToolStart,
            Self::ToolEnd(_) => InteractiveEventName::ToolEnd,
            Self::Thinking(_) => InteractiveEventName::Thinking,
            Self::Complete(_) => InteractiveEventName::Complete,
            Self::Interrupted(_) => InteractiveEventName::Interrupted,
            Self::Error(_) => InteractiveEventName::Error,
            Self::ContextUpdate(_) => InteractiveEventName::ContextUpdate,
            Self::Compact(_) => InteractiveEventName::Compact,
            Self::SkillActivation(_) => InteractiveEventName::SkillActivation,
            Self::BackgroundTaskEvent(_) => InteractiveEventName::BackgroundTaskEvent,
            Self::BackgroundJobGroupEvent(_) => InteractiveEventName::BackgroundJobGroupEvent,
            Self::ExecutionWorkspaceEvent(_) => InteractiveEventName::ExecutionWorkspaceEvent,
            Self::UserMessage(_) => InteractiveEventName::UserMessage,
            Self::TurnSource(_) => InteractiveEventName::TurnSource,
            Self::ContextFileRefreshed(_) => InteractiveEventName::ContextFileRefreshed,
            Self::MemoryEvent(_) => InteractiveEventName::MemoryEvent,
            Self::GoalEvent(_) => InteractiveEventName::GoalEvent,
            Self::PlanEvent(_) => InteractiveEventName::PlanEvent,
            Self::BranchEvent(_) => InteractiveEventName::BranchEvent,
            Self::PermissionRequest(_) => InteractiveEventName::PermissionRequest,
            Self::AskRequest(_) => InteractiveEventName::AskRequest,
            Self::PromptResolved(_) => InteractiveEventName::PromptResolved,
            Self::UiIntent(_) => InteractiveEventName::UiIntent,
            Self::SessionRenamed(_) => InteractiveEventName::SessionRenamed,
            Self::HistoryCleared => InteractiveEventName::HistoryCleared,
            Self::SessionSwitched(_) => InteractiveEventName::SessionSwitched,
            Self::StatusChanged(_) => InteractiveEventName::StatusChanged,
        }
    }

    /// Who receives this event ([`InteractiveEventName::audience`] of its name).
    #[must_use]
    pub const fn audience(&self) -> EventAudience {
        self.name().audience()
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! Decoding a frame: read `type` and the payload as a JSON value, then decode the payload in
    //! one non-generic function, so every payload decoder is compiled once (for the JSON value)
    //! whatever the caller's deserializer. This keeps the decoder small enough for firmware.

    use alloc::string::{String, ToString};

    use serde::de::{DeserializeOwned, Error as _};
    use serde::{Deserialize, Deserializer};

    use super::{InteractiveEventName, SessionEvent};
    use crate::agent_core::Value;

    /// The frame as read: its name and its payload, not yet decoded.
    #[derive(Deserialize)]
    struct FrameIn {
        #[serde(rename = "type")]
        name: InteractiveEventName,
        #[serde(default)]
        event: Option<Value>,
    }

    impl<'de> Deserialize<'de> for SessionEvent {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let frame = FrameIn::deserialize(deserializer)?;
            decode(frame.name, frame.event).map_err(D::Error::custom)
        }
    }

    /// Decodes one payload from its JSON value.
    fn payload<T: DeserializeOwned>(event: Value) -> Result<T, String> {
        T::deserialize(event).map_err(|error| error.to_string())
    }

    /// The event named `name` with the payload `event`.
    fn decode(name: InteractiveEventName, event: Option<Value>) -> Result<SessionEvent, String> {
        use InteractiveEventName as N;
        use SessionEvent as E;

        let event = match (name, event) {
            (N::HistoryCleared, None | Some(Value::Null)) => return Ok(E::HistoryCleared),
            (N::HistoryCleared, Some(_)) => {
                return Err(String::from("`history_cleared` carries no `event`"));
            }
            (_, None) => return Err(String::from("missing field `event`")),
            (_, Some(event)) => event,
        };
        Ok(match name {
            N::TextDelta => E::TextDelta(payload(event)?),
            N::ToolStart => E::ToolStart(payload(event)?),
            N::ToolEnd => E::ToolEnd(payload(event)?),
            N::Thinking => E::Thinking(payload(event)?),
            N::Complete => E::Complete(payload(event)?),
            N::Interrupted => E::Interrupted(payload(event)?),
            N::Error => E::Error(payload(event)?),
            N::ContextUpdate => E::ContextUpdate(payload(event)?),
            N::Compact => E::Compact(payload(event)?),
            N::SkillActivation => E::SkillActivation(payload(event)?),
            N::BackgroundTaskEvent => E::BackgroundTaskEvent(payload(event)?),
            N::BackgroundJobGroupEvent => E::BackgroundJobGroupEvent(payload(event)?),
            N::ExecutionWorkspaceEvent => E::ExecutionWorkspaceEvent(payload(event)?),
            N::UserMessage => E::UserMessage(payload(event)?),
            N::TurnSource => E::TurnSource(payload(event)?),
            N::ContextFileRefreshed => E::ContextFileRefreshed(payload(event)?),
            N::MemoryEvent => E::MemoryEvent(payload(event)?),
            N::GoalEvent => E::GoalEvent(payload(event)?),
            N::PlanEvent => E::PlanEvent(payload(event)?),
            N::BranchEvent => E::BranchEvent(payload(event)?),
            N::PermissionRequest => E::PermissionRequest(payload(event)?),
            N::AskRequest => E::AskRequest(payload(event)?),
            N::PromptResolved => E::PromptResolved(payload(event)?),
            N::UiIntent => E::UiIntent(payload(event)?),
            N::SessionRenamed => E::SessionRenamed(payload(event)?),
            N::HistoryCleared => E::HistoryCleared,
            N::SessionSwitched => E::SessionSwitched(payload(event)?),
            N::StatusChanged => E::StatusChanged(payload(event)?),
        })
    }
}

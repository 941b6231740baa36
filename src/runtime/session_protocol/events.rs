//! Session events as the protocol sends them: which are forwarded, to which surface, and with
//! which driver stamped.

use alloc::boxed::Box;

use crate::session::events::{InteractiveEventName, SessionEvent};
use crate::session::protocol::ServerMessage;
use crate::session::turns::DriverId;

/// How the protocol treats a session event of one name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum EventRoute {
    /// Sent to every connected surface.
    Forwarded,
    /// Sent only to the surface whose driver asked for it (`ui_intent`), or to every surface
    /// when no driver asked.
    RequesterRouted,
    /// Not sent: the event is for the host, not a surface (context updates, compaction, skill
    /// activation, turn source, memory and goal events; and the events the reference's
    /// protocol does not know, `session_switched` and `status_changed`).
    NotForwarded,
}

impl EventRoute {
    /// The route of events named `name`.
    #[must_use]
    pub const fn of(name: InteractiveEventName) -> Self {
        use InteractiveEventName as Name;
        match name {
            Name::UiIntent => Self::RequesterRouted,
            Name::ContextUpdate
            | Name::Compact
            | Name::SkillActivation
            | Name::TurnSource
            | Name::MemoryEvent
            | Name::GoalEvent
            | Name::SessionSwitched
            | Name::StatusChanged => Self::NotForwarded,
            _ => Self::Forwarded,
        }
    }
}

/// True when a `ui_intent` whose requester is `requester` goes to the surface bound to the
/// driver `surface`: when no driver asked, or the one that asked is that surface's (an empty id
/// is an id like any other; a surface bound to no driver gets only the intents no driver asked
/// for).
#[must_use]
pub fn delivers_ui_intent(surface: Option<&str>, requester: Option<&str>) -> bool {
    requester.is_none() || requester == surface
}

/// The server message a surface bound to the driver `surface` receives for `event`, or `None`
/// when the event is not sent there ([`EventRoute`], [`delivers_ui_intent`]).
///
/// The eight turn-authored events (`user_message`, `text_delta`, `tool_start`, `tool_end`,
/// `thinking`, `complete`, `interrupted`, `error`) are stamped with the active turn's driver:
/// `active_driver` is asked for them only, when the event is sent, and an empty id stamps
/// nothing. The `error` event carries its error's message only, and the execution workspace
/// event its snapshot only, as in the reference.
pub fn event_message(
    event: SessionEvent,
    surface: Option<&str>,
    active_driver: impl FnOnce() -> Option<DriverId>,
) -> Option<ServerMessage> {
    let stamp = || active_driver().filter(|driver| !driver.is_empty());
    Some(match event {
        SessionEvent::TextDelta(delta) => ServerMessage::TextDelta {
            delta,
            driver_id: stamp(),
        },
        SessionEvent::UserMessage(content) => ServerMessage::UserMessage {
            content,
            driver_id: stamp(),
        },
        SessionEvent::ToolStart(state) => ServerMessage::ToolStart {
            state: Box::new(state),
            driver_id: stamp(),
        },
        SessionEvent::ToolEnd(state) => ServerMessage::ToolEnd {
            state: Box::new(state),
            driver_id: stamp(),
        },
        SessionEvent::Thinking(is_thinking) => ServerMessage::Thinking {
            is_thinking,
            driver_id: stamp(),
        },
        SessionEvent::Complete(result) => ServerMessage::Complete {
            result,
            driver_id: stamp(),
        },
        SessionEvent::Interrupted(result) => ServerMessage::Interrupted {
            result: Box::new(result),
            driver_id: stamp(),
        },
        SessionEvent::Error(error) => ServerMessage::Error {
            message: error.message,
            driver_id: stamp(),
        },
        SessionEvent::BackgroundTaskEvent(event) => ServerMessage::BackgroundTaskEvent {
            event: Box::new(event),
        },
        SessionEvent::BackgroundJobGroupEvent(event) => ServerMessage::BackgroundJobGroupEvent {
            event: Box::new(event),
        },
        SessionEvent::ExecutionWorkspaceEvent(event) => ServerMessage::ExecutionWorkspaceEvent {
            snapshot: Box::new(event.snapshot),
        },
        SessionEvent::ContextFileRefreshed(event) => ServerMessage::ContextFileRefreshed { event },
        SessionEvent::PlanEvent(event) => ServerMessage::PlanEvent {
            event: Box::new(event),
        },
        SessionEvent::BranchEvent(event) => ServerMessage::BranchEvent { event },
        SessionEvent::PermissionRequest(event) => ServerMessage::PermissionRequest {
            event: Box::new(event),
        },
        SessionEvent::AskRequest(event) => ServerMessage::AskRequest {
            event: Box::new(event),
        },
        SessionEvent::PromptResolved(event) => ServerMessage::PromptResolved { event },
        SessionEvent::UiIntent(event) => {
            if !delivers_ui_intent(surface, event.requester_driver_id.as_deref()) {
                return None;
            }
            ServerMessage::UiIntent { event }
        }
        SessionEvent::SessionRenamed(event) => ServerMessage::SessionRenamed { event },
        SessionEvent::HistoryCleared => ServerMessage::HistoryCleared,
        _ => return None,
    })
}

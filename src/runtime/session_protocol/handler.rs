//! A client message becomes calls on the session's role ports, and what the client is answered.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};

use crate::agent_core::ErrorValue;
use crate::command::definition::CommandInvocationSource;
use crate::execution::workspace::ExecutionWorkspaceSnapshotOptions;
use crate::session::capabilities::{
    SessionBackgroundGroups, SessionBackgroundTasks, SessionCommands, SessionConversationRead,
    SessionExecutionState, SessionExecutionWorkspace, SessionPromptResolution, SessionTurnControl,
    SessionTurnSubmission,
};
use crate::session::protocol::{BackgroundControlAction, ClientMessage, ServerMessage};
use crate::session::turns::{SubmitOptions, TurnHandle};

use super::FrameRefusal;

/// The roles of a session the protocol drives: submitting and controlling turns, reading its
/// state and conversation, commands, prompt answers, background tasks and groups, and the
/// execution workspace. Every session that has these roles is one (a blanket implementation).
/// Its errors are `'static`, so that an [`ErrorValue`] is answered with its message alone.
pub trait ProtocolSession:
    SessionTurnSubmission<Error: 'static>
    + SessionTurnControl
    + SessionExecutionState
    + SessionConversationRead
    + SessionCommands<Error: 'static>
    + SessionPromptResolution
    + SessionBackgroundTasks<Error: 'static>
    + SessionBackgroundGroups<Error: 'static>
    + SessionExecutionWorkspace
{
}

impl<S> ProtocolSession for S where
    S: SessionTurnSubmission<Error: 'static>
        + SessionTurnControl
        + SessionExecutionState
        + SessionConversationRead
        + SessionCommands<Error: 'static>
        + SessionPromptResolution
        + SessionBackgroundTasks<Error: 'static>
        + SessionBackgroundGroups<Error: 'static>
        + SessionExecutionWorkspace
{
}

/// The text a client is told of a session's failure: an [`ErrorValue`]'s message (as the
/// reference sends `error.message`), else the error's `Display`.
fn message_of<E: core::error::Error + 'static>(error: &E) -> String {
    match (error as &dyn core::error::Error).downcast_ref::<ErrorValue>() {
        Some(error) => error.message.clone(),
        None => error.to_string(),
    }
}

/// What handling one client message came to.
#[derive(Debug)]
#[non_exhaustive]
pub enum Handled<C> {
    /// Send this message to the client that sent the one handled: a query's answer, a command's
    /// or a task control's result, or a `protocol_error`.
    Reply(ServerMessage),
    /// The session accepted the submitted turn: its handle. Nothing is sent; the turn's events
    /// tell every surface how it goes, and a turn that never runs settles its completion with
    /// the reason (an outcome, not a failure).
    Submitted(TurnHandle<C>),
    /// Nothing to send: an abort, a queue cancellation or a prompt answer (whose
    /// `prompt_resolved` event tells every surface).
    Done,
}

/// A `protocol_error` reply.
fn refusal<C>(message: impl Into<String>) -> Handled<C> {
    Handled::Reply(ServerMessage::ProtocolError {
        message: message.into(),
    })
}

/// A task control's result.
fn control<C, E: core::error::Error + 'static>(
    action: BackgroundControlAction,
    task_id: String,
    done: Result<(), E>,
) -> Handled<C> {
    let (success, message) = match done {
        Ok(()) => (true, None),
        Err(error) => (false, Some(message_of(&error))),
    };
    Handled::Reply(ServerMessage::BackgroundTaskControlResult {
        action,
        task_id,
        success,
        message,
    })
}

/// Handles one client message from the surface bound to `driver` (the id the host assigned to
/// the connection; a client never names its own driver): calls the session and says what to
/// answer. Call it for every message [`decode_client_frame`](super::decode_client_frame) read;
/// each call settles on its own, so a slow one (a command, a wait for a group) does not hold
/// back the next message's answer.
///
/// The reference's rules: a turn, a command and a prompt answer are attributed to `driver` (an
/// empty one attributes nothing); a command is sourced `remote`, and answered with its message
/// and data (not its host actions and UI intents, which the session carries out and routes
/// itself), or `Unknown command: <name>` when the session has none by that name; a read is
/// answered at once with its value, a missing task or group with `null`; a task control is
/// answered with its success or the error's text; a session failure becomes a
/// `protocol_error` with its message. `get-usage-report`, `resume` and `ack` are answered
/// as unknown types on this path, as the reference's handler answers them (the resume bridge
/// handles the last two).
pub async fn handle_client_message<S: ProtocolSession>(
    session: &S,
    message: ClientMessage,
    driver: Option<&str>,
) -> Handled<<S as SessionTurnSubmission>::Completion> {
    let driver = driver.filter(|driver| !driver.is_empty());
    match message {
        ClientMessage::Submit { prompt } => {
            let mut options = SubmitOptions::new();
            options.driver_id = driver.map(String::from);
            match session.submit(&prompt, None, None, options).await {
                Ok(handle) => Handled::Submitted(handle),
                Err(error) => refusal(message_of(&error)),
            }
        }
        ClientMessage::Command { name, args } => {
            let args = args.unwrap_or_default();
            let run = session.execute_command(
                &name,
                &args,
                Some(CommandInvocationSource::Remote),
                driver,
            );
            match run.await {
                Ok(Some(result)) => Handled::Reply(ServerMessage::CommandResult {
                    name,
                    message: result.message,
                    success: result.success,
                    data: result.data,
                }),
                Ok(None) => Handled::Reply(ServerMessage::CommandResult {
                    message: format!("Unknown command: {name}"),
                    name,
                    success: false,
                    data: None,
                }),
                Err(error) => refusal(message_of(&error)),
            }
        }
        ClientMessage::Abort => {
            session.abort();
            Handled::Done
        }
        ClientMessage::CancelQueue => {
            session.cancel_queue();
            Handled::Done
        }
        ClientMessage::GetMessages => Handled::Reply(ServerMessage::Messages {
            messages: session.get_messages(),
        }),
        ClientMessage::GetContext => Handled::Reply(ServerMessage::Context {
            state: session.get_context_state(),
        }),
        ClientMessage::GetExecuting => Handled::Reply(ServerMessage::Executing {
            executing: session.is_executing(),
        }),
        ClientMessage::GetPending => Handled::Reply(ServerMessage::Pending {
            pending: session.get_pending_prompt(),
        }),
        ClientMessage::GetExecutionWorkspace => {
            let options = ExecutionWorkspaceSnapshotOptions::default();
            Handled::Reply(ServerMessage::ExecutionWorkspaceEvent {
                snapshot: Box::new(session.get_execution_workspace_snapshot(&options)),
            })
        }
        ClientMessage::GetBackgroundTasks { filter } => {
            Handled::Reply(ServerMessage::BackgroundTasks {
                tasks: session.list_background_tasks(filter.unwrap_or_default()),
            })
        }
        ClientMessage::GetBackgroundTask { task_id } => {
            let task = session.get_background_task(&task_id).map(Box::new);
            Handled::Reply(ServerMessage::BackgroundTask { task_id, task })
        }
        ClientMessage::GetBackgroundJobGroups => {
            Handled::Reply(ServerMessage::BackgroundJobGroups {
                groups: session.list_background_job_groups(),
            })
        }
        ClientMessage::GetBackgroundJobGroup { group_id } => {
            let group = session.get_background_job_group(&group_id).map(Box::new);
            Handled::Reply(ServerMessage::BackgroundJobGroup { group_id, group })
        }
        ClientMessage::WaitBackgroundJobGroup { group_id } => {
            match session.wait_background_job_group(&group_id).await {
                Ok(group) => Handled::Reply(ServerMessage::BackgroundJobGroup {
                    group_id,
                    group: Some(Box::new(group)),
                }),
                Err(error) => refusal(message_of(&error)),
            }
        }
        ClientMessage::ReadBackgroundTaskLog { task_id, cursor } => {
            match session.read_background_task_log(&task_id, cursor).await {
                Ok(page) => Handled::Reply(ServerMessage::BackgroundTaskLog { task_id, page }),
                Err(error) => refusal(message_of(&error)),
            }
        }
        ClientMessage::CancelBackgroundTask { task_id, reason } => {
            let done = session
                .cancel_background_task(&task_id, reason.as_deref())
                .await;
            control(BackgroundControlAction::Cancel, task_id, done)
        }
        ClientMessage::CloseBackgroundTask { task_id } => {
            let done = session.close_background_task(&task_id).await;
            control(BackgroundControlAction::Close, task_id, done)
        }
        ClientMessage::SendBackgroundTask { task_id, input } => {
            let done = session.send_background_task(&task_id, input).await;
            control(BackgroundControlAction::Send, task_id, done)
        }
        ClientMessage::PermissionResponse { id, result } => {
            session.resolve_permission(&id, result, driver);
            Handled::Done
        }
        ClientMessage::AskResponse { id, response } => {
            session.resolve_ask(&id, response, driver);
            Handled::Done
        }
        unrouted @ (ClientMessage::GetUsageReport
        | ClientMessage::Resume { .. }
        | ClientMessage::Ack { .. }) => {
            // The frame decoder's wording for a type it does not know: one text for both paths.
            let unknown = FrameRefusal::UnknownType(String::from(unrouted.type_literal()));
            refusal(unknown.to_string())
        }
    }
}

//! Cases of the session protocol: the resume buffer (`runtime::session_protocol`), with a
//! seeded property over any sequence of sends, drops, acks and resumes, and the client and
//! server messages (`session::protocol`), each round-tripping its golden file. Uses only
//! `core`, `alloc`, serde_json and the crate.
//!
//! The firmware runs the `buffer`, `events` and `client` parts on the LM3S6965. The `server` part runs on
//! the host and in wasm32-wasip1 only: serde's derived decoder of every server payload, each
//! twice through the buffering an internally tagged enum needs, is about 358 KB of flash, and a
//! device host writes server messages, it does not read them.

use alloc::vec::Vec;

use agent_interface::agent_core::ReadLimits;
use agent_interface::agent_core::{ContextWindowState, ErrorValue};
use agent_interface::command::definition::CommandUiIntent;
use agent_interface::runtime::session_protocol::{
    BridgeFrame, Delivery, EventRoute, FrameLimits, FrameRefusal, OutboundDelivery, ResumeBridge,
    ResumeBuffer, ResumeLimits, ResumeOverrun, decode_client_frame, delivers_ui_intent,
    event_message,
};
use agent_interface::session::events::{InteractiveEventName, SessionEvent};
use agent_interface::session::protocol::{ClientMessage, ServerMessage};
use agent_interface::session::turns::UiIntentEvent;

use crate::support::{golden, rejects};

// Its own copy of the seeded generator, so that any runner (the firmware's included) gets it.
#[path = "seeded.rs"]
mod seeded;

use self::seeded::Seeded;

/// One golden file per client message, named by its `type` in snake case.
const CLIENT_GOLDENS: &[(&str, &str)] = &[
    (
        "abort",
        include_str!("../golden/session/protocol/client_abort.json"),
    ),
    (
        "ack",
        include_str!("../golden/session/protocol/client_ack.json"),
    ),
    (
        "ask_response",
        include_str!("../golden/session/protocol/client_ask_response.json"),
    ),
    (
        "cancel_background_task",
        include_str!("../golden/session/protocol/client_cancel_background_task.json"),
    ),
    (
        "cancel_queue",
        include_str!("../golden/session/protocol/client_cancel_queue.json"),
    ),
    (
        "close_background_task",
        include_str!("../golden/session/protocol/client_close_background_task.json"),
    ),
    (
        "command",
        include_str!("../golden/session/protocol/client_command.json"),
    ),
    (
        "get_background_job_group",
        include_str!("../golden/session/protocol/client_get_background_job_group.json"),
    ),
    (
        "get_background_job_groups",
        include_str!("../golden/session/protocol/client_get_background_job_groups.json"),
    ),
    (
        "get_background_task",
        include_str!("../golden/session/protocol/client_get_background_task.json"),
    ),
    (
        "get_background_tasks",
        include_str!("../golden/session/protocol/client_get_background_tasks.json"),
    ),
    (
        "get_context",
        include_str!("../golden/session/protocol/client_get_context.json"),
    ),
    (
        "get_executing",
        include_str!("../golden/session/protocol/client_get_executing.json"),
    ),
    (
        "get_execution_workspace",
        include_str!("../golden/session/protocol/client_get_execution_workspace.json"),
    ),
    (
        "get_messages",
        include_str!("../golden/session/protocol/client_get_messages.json"),
    ),
    (
        "get_pending",
        include_str!("../golden/session/protocol/client_get_pending.json"),
    ),
    (
        "get_usage_report",
        include_str!("../golden/session/protocol/client_get_usage_report.json"),
    ),
    (
        "permission_response",
        include_str!("../golden/session/protocol/client_permission_response.json"),
    ),
    (
        "read_background_task_log",
        include_str!("../golden/session/protocol/client_read_background_task_log.json"),
    ),
    (
        "resume",
        include_str!("../golden/session/protocol/client_resume.json"),
    ),
    (
        "send_background_task",
        include_str!("../golden/session/protocol/client_send_background_task.json"),
    ),
    (
        "submit",
        include_str!("../golden/session/protocol/client_submit.json"),
    ),
    (
        "wait_background_job_group",
        include_str!("../golden/session/protocol/client_wait_background_job_group.json"),
    ),
];

/// One golden file per server message, named by its `type`.
const SERVER_GOLDENS: &[(&str, &str)] = &[
    (
        "ask_request",
        include_str!("../golden/session/protocol/server_ask_request.json"),
    ),
    (
        "background_job_group",
        include_str!("../golden/session/protocol/server_background_job_group.json"),
    ),
    (
        "background_job_group_event",
        include_str!("../golden/session/protocol/server_background_job_group_event.json"),
    ),
    (
        "background_job_groups",
        include_str!("../golden/session/protocol/server_background_job_groups.json"),
    ),
    (
        "background_task",
        include_str!("../golden/session/protocol/server_background_task.json"),
    ),
    (
        "background_task_control_result",
        include_str!("../golden/session/protocol/server_background_task_control_result.json"),
    ),
    (
        "background_task_event",
        include_str!("../golden/session/protocol/server_background_task_event.json"),
    ),
    (
        "background_task_log",
        include_str!("../golden/session/protocol/server_background_task_log.json"),
    ),
    (
        "background_tasks",
        include_str!("../golden/session/protocol/server_background_tasks.json"),
    ),
    (
        "command_result",
        include_str!("../golden/session/protocol/server_command_result.json"),
    ),
    (
        "complete",
        include_str!("../golden/session/protocol/server_complete.json"),
    ),
    (
        "context",
        include_str!("../golden/session/protocol/server_context.json"),
    ),
    (
        "error",
        include_str!("../golden/session/protocol/server_error.json"),
    ),
    (
        "executing",
        include_str!("../golden/session/protocol/server_executing.json"),
    ),
    (
        "execution_workspace_event",
        include_str!("../golden/session/protocol/server_execution_workspace_event.json"),
    ),
    (
        "interrupted",
        include_str!("../golden/session/protocol/server_interrupted.json"),
    ),
    (
        "messages",
        include_str!("../golden/session/protocol/server_messages.json"),
    ),
    (
        "pending",
        include_str!("../golden/session/protocol/server_pending.json"),
    ),
    (
        "permission_request",
        include_str!("../golden/session/protocol/server_permission_request.json"),
    ),
    (
        "prompt_resolved",
        include_str!("../golden/session/protocol/server_prompt_resolved.json"),
    ),
    (
        "protocol_error",
        include_str!("../golden/session/protocol/server_protocol_error.json"),
    ),
    (
        "resume_gap",
        include_str!("../golden/session/protocol/server_resume_gap.json"),
    ),
    (
        "text_delta",
        include_str!("../golden/session/protocol/server_text_delta.json"),
    ),
    (
        "thinking",
        include_str!("../golden/session/protocol/server_thinking.json"),
    ),
    (
        "tool_end",
        include_str!("../golden/session/protocol/server_tool_end.json"),
    ),
    (
        "tool_start",
        include_str!("../golden/session/protocol/server_tool_start.json"),
    ),
    (
        "ui_intent",
        include_str!("../golden/session/protocol/server_ui_intent.json"),
    ),
    (
        "usage_report",
        include_str!("../golden/session/protocol/server_usage_report.json"),
    ),
    (
        "user_message",
        include_str!("../golden/session/protocol/server_user_message.json"),
    ),
    (
        "plan_event",
        include_str!("../golden/session/protocol/server_plan_event.json"),
    ),
    (
        "context_file_refreshed",
        include_str!("../golden/session/protocol/server_context_file_refreshed.json"),
    ),
    (
        "branch_event",
        include_str!("../golden/session/protocol/server_branch_event.json"),
    ),
    (
        "session_renamed",
        include_str!("../golden/session/protocol/server_session_renamed.json"),
    ),
    (
        "history_cleared",
        include_str!("../golden/session/protocol/server_history_cleared.json"),
    ),
];

/// A session that records every role call the protocol handler makes, answers reads with fixed
/// values, and fails where told to (`failing`).
mod recorder {
    use alloc::format;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;
    use core::cell::RefCell;
    use core::future::{Ready, ready};

    use agent_interface::agent_core::{
        AbortSignal, ActionResponse, ContextWindowState, ErrorValue, HistoryEntry, UniversalMessage,
    };
    use agent_interface::command::definition::{CommandInvocationSource, CommandResult};
    use agent_interface::command::listing::{CommandListEntry, CommandSkillListEntry};
    use agent_interface::execution::groups::{
        BackgroundJobGroupState, BackgroundJobGroupStatus, BackgroundJobWaitPolicy,
    };
    use agent_interface::execution::task_state::{
        BackgroundTaskInput, BackgroundTaskListFilter, BackgroundTaskLogCursor,
        BackgroundTaskLogPage, BackgroundTaskState,
    };
    use agent_interface::execution::workspace::{
        ExecutionWorkspaceSnapshot, ExecutionWorkspaceSnapshotOptions,
    };
    use agent_interface::session::capabilities::*;
    use agent_interface::session::events::ModelListSnapshot;
    use agent_interface::session::prompts::PermissionResultValue;
    use agent_interface::session::turns::{
        SubmitOptions, TurnCompletion, TurnError, TurnHandle, TurnNotRun, TurnNotRunReason,
    };

    /// The recording session.
    #[derive(Default)]
    pub struct Recorder {
        /// Every call, in order, as text.
        pub calls: RefCell<Vec<String>>,
        /// The operations that fail (by name), with the error `failed <name>`.
        pub failing: Vec<&'static str>,
        /// Whether a command of any name exists.
        pub commands: bool,
    }

    impl Recorder {
        fn note(&self, call: String) {
            self.calls.borrow_mut().push(call);
        }

        fn outcome(&self, name: &'static str) -> Result<(), ErrorValue> {
            if self.failing.contains(&name) {
                Err(ErrorValue::new("Error", format!("failed {name}")))
            } else {
                Ok(())
            }
        }

        pub fn group(id: &str) -> BackgroundJobGroupState {
            BackgroundJobGroupState::new(
                id.to_string(),
                "session_1".to_string(),
                BackgroundJobWaitPolicy::WaitAll,
                Vec::new(),
                BackgroundJobGroupStatus::Completed,
                "2026-05-01T00:00:00.000Z",
                "2026-05-01T00:00:00.000Z",
            )
        }
    }

    impl SessionTurnSubmission for Recorder {
        type Completion = Ready<TurnCompletion>;
        type Error = ErrorValue;

        async fn submit<S: AbortSignal + 'static>(
            &self,
            input: &str,
            _display_input: Option<&str>,
            _raw_input: Option<&str>,
            options: SubmitOptions<S>,
        ) -> Result<TurnHandle<Self::Completion>, ErrorValue> {
            self.note(format!("submit {input} by {:?}", options.driver_id));
            self.outcome("submit")?;
            // The turn is accepted, then dropped from the queue: an outcome on its handle.
            let not_run = TurnNotRun::new("turn-1", TurnNotRunReason::Dropped);
            Ok(TurnHandle::new(
                "turn-1",
                ready(Err(TurnError::NotRun(not_run))),
            ))
        }
    }

    impl SessionTurnControl for Recorder {
        fn abort(&self) {
            self.note("abort".into());
        }

        fn cancel_queue(&self) {
            self.note("cancel_queue".into());
        }
    }

    impl SessionExecutionState for Recorder {
        fn is_executing(&self) -> bool {
            true
        }

        fn get_pending_prompt(&self) -> Option<String> {
            None
        }

        fn get_pending_count(&self) -> u32 {
            0
        }
    }

    impl SessionConversationRead for Recorder {
        fn get_messages(&self) -> Vec<UniversalMessage> {
            alloc::vec![UniversalMessage::user(
                "m1",
                "2026-05-01T00:00:00.000Z",
                "hi"
            )]
        }

        fn get_full_history(&self) -> Vec<HistoryEntry> {
            Vec::new()
        }

        fn get_context_state(&self) -> ContextWindowState {
            ContextWindowState::new(100_000, 500, 0.5, 99.5)
        }

        fn get_messages_display(&self) -> Vec<UniversalMessage> {
            Vec::new()
        }
    }

    impl SessionCommands for Recorder {
        type Error = ErrorValue;

        async fn execute_command(
            &self,
            name: &str,
            args: &str,
            source: Option<CommandInvocationSource>,
            origin_driver_id: Option<&str>,
        ) -> Result<Option<CommandResult>, ErrorValue> {
            self.note(format!(
                "command {name} {args:?} from {source:?} by {origin_driver_id:?}"
            ));
            self.outcome("command")?;
            Ok(self.commands.then(|| CommandResult::new("done", true)))
        }

        fn list_commands(&self) -> Vec<CommandListEntry> {
            Vec::new()
        }

        fn list_skills(&self) -> Vec<CommandSkillListEntry> {
            Vec::new()
        }

        fn list_models(&self) -> ModelListSnapshot {
            ModelListSnapshot::default()
        }
    }

    impl SessionPromptResolution for Recorder {
        fn resolve_permission(
            &self,
            id: &str,
            result: PermissionResultValue,
            answerer_driver_id: Option<&str>,
        ) {
            self.note(format!(
                "permission {id} {result:?} by {answerer_driver_id:?}"
            ));
        }

        fn resolve_ask(
            &self,
            id: &str,
            _response: ActionResponse,
            answerer_driver_id: Option<&str>,
        ) {
            self.note(format!("ask {id} by {answerer_driver_id:?}"));
        }
    }

    impl SessionBackgroundTasks for Recorder {
        type Error = ErrorValue;

        fn list_background_tasks(
            &self,
            filter: BackgroundTaskListFilter,
        ) -> Vec<BackgroundTaskState> {
            self.note(format!("list tasks {filter:?}"));
            Vec::new()
        }

        fn get_background_task(&self, task_id: &str) -> Option<BackgroundTaskState> {
            self.note(format!("get task {task_id}"));
            None
        }

        async fn cancel_background_task(
            &self,
            task_id: &str,
            reason: Option<&str>,
        ) -> Result<(), ErrorValue> {
            self.note(format!("cancel {task_id} {reason:?}"));
            self.outcome("cancel")
        }

        async fn close_background_task(&self, task_id: &str) -> Result<(), ErrorValue> {
            self.note(format!("close {task_id}"));
            self.outcome("close")
        }

        async fn send_background_task(
            &self,
            task_id: &str,
            _input: BackgroundTaskInput,
        ) -> Result<(), ErrorValue> {
            self.note(format!("send {task_id}"));
            self.outcome("send")
        }

        async fn read_background_task_log(
            &self,
            task_id: &str,
            cursor: Option<BackgroundTaskLogCursor>,
        ) -> Result<BackgroundTaskLogPage, ErrorValue> {
            self.note(format!("log {task_id} {cursor:?}"));
            self.outcome("log")
                .map(|()| BackgroundTaskLogPage::default())
        }
    }

    impl SessionBackgroundGroups for Recorder {
        type Error = ErrorValue;

        fn list_background_job_groups(&self) -> Vec<BackgroundJobGroupState> {
            alloc::vec![Self::group("group_1")]
        }

        fn get_background_job_group(&self, group_id: &str) -> Option<BackgroundJobGroupState> {
            (group_id == "group_1").then(|| Self::group(group_id))
        }

        fn create_background_job_group(
            &self,
            _input: BackgroundJobGroupCreateInput,
        ) -> Result<BackgroundJobGroupState, ErrorValue> {
            Ok(Self::group("new"))
        }

        async fn wait_background_job_group(
            &self,
            group_id: &str,
        ) -> Result<BackgroundJobGroupState, ErrorValue> {
            self.note(format!("wait {group_id}"));
            self.outcome("wait").map(|()| Self::group(group_id))
        }
    }

    impl SessionExecutionWorkspace for Recorder {
        fn get_execution_workspace_snapshot(
            &self,
            _options: &ExecutionWorkspaceSnapshotOptions,
        ) -> ExecutionWorkspaceSnapshot {
            ExecutionWorkspaceSnapshot::new("session_1", "2026-05-01T00:00:00.000Z", Vec::new())
        }
    }
}

use self::recorder::Recorder;
use agent_interface::runtime::session_protocol::{Handled, handle_client_message};
use agent_interface::session::turns::{TurnError, TurnNotRunReason};

/// Handles the client message written `frame` from the surface of `driver`, and what
/// the reply reads as JSON (`None` for no reply).
fn answer(session: &Recorder, frame: &str, driver: Option<&str>) -> Option<serde_json::Value> {
    let message = decode_client_frame(frame, &FrameLimits::DEFAULT).expect("a frame");
    match crate::support::block_on(handle_client_message(session, message, driver)) {
        Handled::Reply(reply) => Some(serde_json::to_value(&reply).expect("writes")),
        Handled::Submitted(_) | Handled::Done => None,
        _ => panic!("an answer the test does not know"),
    }
}

fn calls(session: &Recorder) -> Vec<alloc::string::String> {
    core::mem::take(&mut *session.calls.borrow_mut())
}

/// A client of the buffer's host: what it received, in order, and whether it is connected.
struct Client {
    /// The last seq it saw (what it resumes from and acks).
    last: u64,
    connected: bool,
}

/// Runs one seeded session: the host stamps frames (their payload is their own seq, sized at
/// random) and sends them while the client is connected; the client drops (losing what was in
/// flight), acks, and resumes. Every frame the client takes must be the one after its last, and
/// a resume must be refused exactly when a frame after the client's last is gone.
fn run(seed: u64, limits: ResumeLimits, steps: usize) {
    let mut random = Seeded::new(seed);
    let mut buffer = ResumeBuffer::new(limits);
    let mut client = Client {
        last: 0,
        connected: true,
    };
    // Frames sent but not yet taken by the client (a connection's queue).
    let mut in_flight: Vec<u64> = Vec::new();
    let mut overruns = 0;
    for _ in 0..steps {
        match random.below(10) {
            0..=4 => {
                let size = random.below(64) as usize;
                let seq = buffer.append(0, size);
                let payload = seq;
                if client.connected {
                    in_flight.push(payload);
                }
            }
            5 => {
                // The client takes what reached it.
                for seq in in_flight.drain(..) {
                    assert_eq!(
                        seq,
                        client.last + 1,
                        "seed {seed}: a frame lost or repeated"
                    );
                    client.last = seq;
                }
            }
            6 => {
                // The connection drops: what was in flight is lost.
                client.connected = false;
                in_flight.clear();
            }
            7 => buffer.ack_through(client.last),
            _ => {
                // The client (re)connects and resumes from the last seq it saw.
                in_flight.clear();
                client.connected = true;
                let gone = client.last + 1 < buffer.oldest_seq();
                match buffer.tail_after(client.last) {
                    Ok(tail) => {
                        assert!(!gone, "seed {seed}: a tail with a hole in it");
                        let tail: Vec<u64> = tail.map(|(seq, _)| seq).collect();
                        if let Some(first) = tail.first() {
                            assert_eq!(*first, client.last + 1, "seed {seed}: the tail's start");
                        }
                        in_flight.extend(tail);
                    }
                    Err(overrun) => {
                        assert!(gone, "seed {seed}: an overrun with every frame retained");
                        assert_eq!(
                            (overrun.after, overrun.oldest, overrun.last),
                            (client.last, buffer.oldest_seq(), buffer.last_seq())
                        );
                        // The protocol's `resume_gap`: the client starts again from now.
                        overruns += 1;
                        client.last = buffer.last_seq();
                    }
                }
            }
        }
        // The bounds hold after every step.
        assert!(
            buffer.len() <= limits.max_frames,
            "seed {seed}: over the frame bound"
        );
        assert!(
            buffer.retained_bytes() <= limits.max_bytes || buffer.len() <= 1,
            "seed {seed}: over the byte bound"
        );
        let seqs: Vec<u64> = buffer.retained().map(|(seq, _)| seq).collect();
        assert!(
            seqs.windows(2).all(|pair| pair[1] == pair[0] + 1)
                && seqs.last().is_none_or(|last| *last == buffer.last_seq()),
            "seed {seed}: the retained seqs are not consecutive up to the last"
        );
    }
    // Tight bounds must have overrun at least once over a long run (the check can fail).
    if limits.max_frames <= 4 && steps >= 1_000 {
        assert!(overruns > 0, "seed {seed}: no overrun under tight bounds");
    }
}

cases! {
    mod buffer {
        fn seqs_start_at_one_and_rise_by_one() {
            let mut buffer = ResumeBuffer::default();
            assert_eq!(buffer.last_seq(), 0);
            assert_eq!((buffer.append("a", 1), buffer.append("b", 1)), (1, 2));
            assert_eq!(buffer.retained().map(|(seq, frame)| (seq, *frame)).collect::<Vec<_>>(), [(1, "a"), (2, "b")]);
        }

        fn a_resume_after_acked_frames_is_an_overrun_and_after_the_last_is_empty() {
            let mut buffer = ResumeBuffer::new(ResumeLimits::new(8, 1_000));
            for frame in ["a", "b", "c"] {
                buffer.append(frame, 1);
            }
            buffer.ack_through(2);
            assert_eq!(buffer.tail_after(2).map(|tail| tail.count()), Ok(1));
            let overrun: ResumeOverrun = buffer.tail_after(1).err().expect("an overrun");
            assert_eq!((overrun.after, overrun.oldest, overrun.last), (1, 3, 3));
            assert_eq!(buffer.tail_after(3).map(|tail| tail.count()), Ok(0));
            assert_eq!(buffer.tail_after(u64::MAX).map(|tail| tail.count()), Ok(0));
            // An ack past the last frees everything; the next frame is still 4.
            buffer.ack_through(u64::MAX);
            assert!(buffer.is_empty());
            assert_eq!(buffer.append("d", 1), 4);
        }

        fn the_newest_frame_stays_whatever_its_size_unless_no_frame_may() {
            let mut buffer = ResumeBuffer::new(ResumeLimits::new(8, 10));
            buffer.append("small", 5);
            buffer.append("large", 50);
            assert_eq!((buffer.len(), buffer.retained_bytes(), buffer.oldest_seq()), (1, 50, 2));
            let mut none = ResumeBuffer::new(ResumeLimits::new(0, 10));
            assert_eq!(none.append("a", 1), 1);
            assert!(none.is_empty());
            assert!(none.tail_after(0).is_err());
            assert_eq!(none.tail_after(1).map(|tail| tail.count()), Ok(0));
        }

        fn the_bridge_stamps_keeps_holds_and_replays() {
            let delta = |text: &str| ServerMessage::TextDelta { delta: text.into(), driver_id: Some("d7".into()) };
            fn texts(frames: Vec<BridgeFrame<'_>>) -> Vec<&str> {
                frames.iter().map(|frame| frame.text).collect()
            }
            let mut bridge = ResumeBridge::new(ResumeLimits::new(2, 1_000));
            // Detached: stamped and kept, nothing to send.
            assert_eq!(bridge.outbound(&delta("a")).expect("writes"), None);
            bridge.attach(false);
            // Each frame names its type, for the delivery boundary to report a failure with.
            assert_eq!(
                bridge.outbound(&delta("b")).expect("writes"),
                Some(BridgeFrame { event: "text_delta", text: r#"{"type":"text_delta","delta":"b","driverId":"d7","seq":2}"# })
            );
            // A resume_gap is sent as it is, never stamped or kept.
            let gap = BridgeFrame { event: "resume_gap", text: r#"{"type":"resume_gap"}"# };
            assert_eq!(bridge.outbound(&ServerMessage::ResumeGap).expect("writes"), Some(gap));
            assert_eq!(bridge.last_seq(), 2);
            // Attached awaiting its resume: held until then, and replayed in order.
            bridge.detach();
            bridge.attach(true);
            assert_eq!(bridge.outbound(&delta("c")).expect("writes"), None);
            assert!(bridge.is_holding());
            assert_eq!(
                texts(bridge.resume(1)),
                [
                    r#"{"type":"text_delta","delta":"b","driverId":"d7","seq":2}"#,
                    r#"{"type":"text_delta","delta":"c","driverId":"d7","seq":3}"#
                ]
            );
            assert!(!bridge.is_holding());
            // Frame 1 was evicted (two frames kept): a resume from 0 is a gap.
            assert_eq!(bridge.resume(0), [gap]);
            bridge.ack(3);
            assert_eq!(bridge.retained_seqs().count(), 0);
            assert_eq!(bridge.resume(3), []);
        }

        fn a_bridge_that_keeps_nothing_still_sends_live_messages() {
            // A frame bound of 0 keeps nothing to replay, but an attached client is still sent
            // each message as it is stamped (the reference sends what it stamped, kept or not).
            let mut bridge = ResumeBridge::new(ResumeLimits::new(0, 1_000));
            bridge.attach(false);
            let sent = bridge.outbound(&ServerMessage::Executing { executing: true }).expect("writes");
            let text = r#"{"type":"executing","executing":true,"seq":1}"#;
            assert_eq!(sent, Some(BridgeFrame { event: "executing", text }));
            let sent = bridge.outbound(&ServerMessage::HistoryCleared).expect("writes");
            let text = r#"{"type":"history_cleared","seq":2}"#;
            assert_eq!(sent, Some(BridgeFrame { event: "history_cleared", text }));
            assert_eq!(bridge.retained_seqs().count(), 0);
            // Nothing to replay: a resume from before the last seq is a gap.
            assert_eq!(bridge.resume(1), [BridgeFrame { event: "resume_gap", text: r#"{"type":"resume_gap"}"# }]);
        }

        fn a_replayed_frame_goes_through_the_delivery_boundary_with_its_type() {
            let mut bridge = ResumeBridge::new(ResumeLimits::new(8, 1_000));
            bridge.outbound(&ServerMessage::Executing { executing: true }).expect("writes");
            bridge.outbound(&ServerMessage::ResumeGap).expect("writes");
            bridge.outbound(&ServerMessage::HistoryCleared).expect("writes");
            bridge.attach(true);
            let mut boundary = OutboundDelivery::new();
            let outcomes: Vec<Delivery<&str>> = bridge
                .resume(0)
                .iter()
                .map(|frame| boundary.deliver(frame, |frame| if frame.event == "executing" { Ok(()) } else { Err("closed") }))
                .collect();
            assert_eq!(outcomes, [Delivery::Sent, Delivery::Failed { error: "closed", event: "history_cleared" }]);
        }

        fn no_frame_is_lost_or_repeated_across_drops_acks_and_resumes() {
            for seed in 0..64 {
                run(seed, ResumeLimits::new(4, 256), 1_000);
                run(seed ^ 0xA5A5, ResumeLimits::new(64, 100_000), 1_000);
                run(seed ^ 0x5A5A, ResumeLimits::new(32, 96), 500);
            }
        }
    }

    mod handler {
        fn a_submit_is_attributed_to_the_connection_and_returns_the_turn_handle() {
            let session = Recorder::default();
            let message = decode_client_frame(r#"{"type":"submit","prompt":"hi","driverId":"forged"}"#, &FrameLimits::DEFAULT).expect("a frame");
            let handled = crate::support::block_on(handle_client_message(&session, message, Some("device-7")));
            let Handled::Submitted(handle) = handled else { panic!("submitted") };
            assert_eq!(handle.turn_id, "turn-1");
            // A turn that never ran is an outcome on its handle, not a protocol error.
            let completion = crate::support::block_on(handle.completed);
            assert!(matches!(completion, Err(TurnError::NotRun(ref not_run)) if not_run.reason == TurnNotRunReason::Dropped));
            assert_eq!(calls(&session), ["submit hi by Some(\"device-7\")"]);
            // An empty driver attributes nothing; a failing submission is a protocol error.
            assert_eq!(answer(&session, r#"{"type":"submit","prompt":"x"}"#, Some("")), None);
            assert_eq!(calls(&session), ["submit x by None"]);
            let failing = Recorder { failing: alloc::vec!["submit"], ..Recorder::default() };
            assert_eq!(
                answer(&failing, r#"{"type":"submit","prompt":"x"}"#, None),
                Some(serde_json::json!({"type": "protocol_error", "message": "failed submit"}))
            );
        }

        fn a_command_runs_remote_for_the_connection_and_is_answered_with_its_result() {
            let session = Recorder { commands: true, ..Recorder::default() };
            assert_eq!(
                answer(&session, r#"{"type":"command","name":"model","args":"sonnet"}"#, Some("device-7")),
                Some(serde_json::json!({"type": "command_result", "name": "model", "message": "done", "success": true}))
            );
            assert_eq!(calls(&session), ["command model \"sonnet\" from Some(Remote) by Some(\"device-7\")"]);
            let none = Recorder::default();
            assert_eq!(
                answer(&none, r#"{"type":"command","name":"nope"}"#, None),
                Some(serde_json::json!({"type": "command_result", "name": "nope", "message": "Unknown command: nope", "success": false}))
            );
            assert_eq!(calls(&none), ["command nope \"\" from Some(Remote) by None"]);
            let failing = Recorder { failing: alloc::vec!["command"], ..Recorder::default() };
            assert_eq!(
                answer(&failing, r#"{"type":"command","name":"x"}"#, None),
                Some(serde_json::json!({"type": "protocol_error", "message": "failed command"}))
            );
        }

        fn controls_and_prompt_answers_call_the_session_and_send_nothing() {
            let session = Recorder::default();
            for frame in [
                r#"{"type":"abort"}"#,
                r#"{"type":"cancel-queue"}"#,
                r#"{"type":"permission-response","id":"p1","result":true}"#,
                r#"{"type":"ask-response","id":"a1","response":{"type":"cancelled"}}"#,
            ] {
                assert_eq!(answer(&session, frame, Some("device-7")), None, "{frame}");
            }
            assert_eq!(
                calls(&session),
                ["abort", "cancel_queue", "permission p1 Allow by Some(\"device-7\")", "ask a1 by Some(\"device-7\")"]
            );
        }

        fn reads_are_answered_with_their_values() {
            let session = Recorder::default();
            let reply = |frame| answer(&session, frame, None).expect("a reply");
            assert_eq!(reply(r#"{"type":"get-executing"}"#), serde_json::json!({"type": "executing", "executing": true}));
            assert_eq!(reply(r#"{"type":"get-pending"}"#), serde_json::json!({"type": "pending", "pending": null}));
            assert_eq!(reply(r#"{"type":"get-messages"}"#)["messages"][0]["content"], "hi");
            assert_eq!(reply(r#"{"type":"get-context"}"#)["state"]["usedTokens"], 500);
            assert_eq!(reply(r#"{"type":"get-execution-workspace"}"#)["type"], "execution_workspace_event");
            assert_eq!(
                reply(r#"{"type":"get-background-task","taskId":"t9"}"#),
                serde_json::json!({"type": "background_task", "taskId": "t9", "task": null})
            );
            assert_eq!(reply(r#"{"type":"get-background-tasks"}"#), serde_json::json!({"type": "background_tasks", "tasks": []}));
            assert_eq!(reply(r#"{"type":"get-background-job-group","groupId":"g9"}"#)["group"], serde_json::Value::Null);
            assert_eq!(reply(r#"{"type":"get-background-job-group","groupId":"group_1"}"#)["group"]["id"], "group_1");
            assert_eq!(reply(r#"{"type":"get-background-job-groups"}"#)["groups"][0]["id"], "group_1");
            assert_eq!(reply(r#"{"type":"wait-background-job-group","groupId":"g2"}"#)["group"]["id"], "g2");
            assert_eq!(reply(r#"{"type":"read-background-task-log","taskId":"t1","cursor":{"offset":3}}"#)["type"], "background_task_log");
            assert_eq!(
                calls(&session),
                [
                    "get task t9",
                    "list tasks BackgroundTaskListFilter { kind: None, status: None, mode: None, include_closed: None }",
                    "wait g2",
                    "log t1 Some(BackgroundTaskLogCursor { offset: 3 })",
                ]
            );
        }

        fn task_controls_are_answered_with_their_success_or_the_error() {
            let session = Recorder { failing: alloc::vec!["close", "wait", "log"], ..Recorder::default() };
            assert_eq!(
                answer(&session, r#"{"type":"cancel-background-task","taskId":"t1","reason":"r"}"#, None),
                Some(serde_json::json!({"type": "background_task_control_result", "action": "cancel", "taskId": "t1", "success": true}))
            );
            assert_eq!(
                answer(&session, r#"{"type":"close-background-task","taskId":"t1"}"#, None),
                Some(serde_json::json!({"type": "background_task_control_result", "action": "close", "taskId": "t1", "success": false, "message": "failed close"}))
            );
            assert_eq!(
                answer(&session, r#"{"type":"send-background-task","taskId":"t1","input":{"stdin":"y"}}"#, None),
                Some(serde_json::json!({"type": "background_task_control_result", "action": "send", "taskId": "t1", "success": true}))
            );
            for frame in [r#"{"type":"wait-background-job-group","groupId":"g"}"#, r#"{"type":"read-background-task-log","taskId":"t"}"#] {
                assert_eq!(answer(&session, frame, None).expect("a reply")["type"], "protocol_error", "{frame}");
            }
            assert_eq!(calls(&session), ["cancel t1 Some(\"r\")", "close t1", "send t1", "wait g", "log t None"]);
        }

        fn a_connection_reports_its_first_delivery_failure_and_sends_nothing_after_it() {
            let mut boundary = OutboundDelivery::new();
            let message = ServerMessage::Executing { executing: true };
            let calls = core::cell::Cell::new(0);
            let send = |ok: bool| {
                let calls = &calls;
                move |_: &ServerMessage| {
                    calls.set(calls.get() + 1);
                    if ok { Ok(()) } else { Err("socket closed") }
                }
            };
            assert_eq!(boundary.deliver(&message, send(true)), Delivery::Sent);
            assert_eq!(
                boundary.deliver(&message, send(false)),
                Delivery::Failed { error: "socket closed", event: "executing" }
            );
            assert!(boundary.is_latched());
            assert_eq!(boundary.deliver(&message, send(true)), Delivery::Dropped);
            assert_eq!(calls.get(), 2, "a latched boundary does not call the carrier");
        }

        fn messages_the_reference_does_not_route_here_are_unknown_types() {
            let session = Recorder::default();
            for (frame, kind) in [
                (r#"{"type":"get-usage-report"}"#, "get-usage-report"),
                (r#"{"type":"resume","lastSeq":3}"#, "resume"),
                (r#"{"type":"ack","seq":3}"#, "ack"),
            ] {
                assert_eq!(
                    answer(&session, frame, None),
                    Some(serde_json::json!({"type": "protocol_error", "message": alloc::format!("Unknown message type: {kind}")}))
                );
            }
            assert!(calls(&session).is_empty());
        }
    }

    mod events {
        fn only_turn_authored_events_are_stamped_and_only_they_ask_for_the_driver() {
            use core::cell::Cell;
            let asked = Cell::new(0);
            let driver = || {
                asked.set(asked.get() + 1);
                Some(alloc::string::String::from("device-7"))
            };
            let authored = [
                SessionEvent::TextDelta("x".into()),
                SessionEvent::UserMessage("hi".into()),
                SessionEvent::Thinking(true),
                SessionEvent::Error(ErrorValue::new("Error", "provider timeout")),
            ];
            for event in authored {
                let message = event_message(event, None, driver).expect("forwarded");
                assert_eq!(message.driver_id(), Some("device-7"), "{}", message.type_literal());
            }
            assert_eq!(asked.get(), 4);
            let message = event_message(SessionEvent::HistoryCleared, None, driver).expect("forwarded");
            assert_eq!((message.type_literal(), message.driver_id()), ("history_cleared", None));
            assert_eq!(asked.get(), 4, "a broadcast event does not ask for the driver");
            // An empty driver id stamps nothing; no driver stamps nothing.
            let empty = event_message(SessionEvent::TextDelta("x".into()), None, || Some("".into()));
            assert_eq!(empty.expect("forwarded").driver_id(), None);
            let none = event_message(SessionEvent::Thinking(false), None, || None);
            assert_eq!(none.expect("forwarded").driver_id(), None);
        }

        fn host_events_are_not_sent() {
            let state = ContextWindowState::new(1_000, 100, 10.0, 90.0);
            assert_eq!(event_message(SessionEvent::ContextUpdate(state), None, || None), None);
            for name in InteractiveEventName::ALL {
                let route = EventRoute::of(*name);
                let expected = match name.as_str() {
                    "ui_intent" => EventRoute::RequesterRouted,
                    "context_update" | "compact" | "skill_activation" | "turn_source"
                    | "memory_event" | "goal_event" | "session_switched" | "status_changed" => {
                        EventRoute::NotForwarded
                    }
                    _ => EventRoute::Forwarded,
                };
                assert_eq!(route, expected, "{}", name.as_str());
            }
        }

        fn a_ui_intent_goes_to_its_requester_or_to_every_surface() {
            for (surface, requester, delivered) in [
                (None, None, true),
                (None, Some("device-A"), false),
                (None, Some(""), false),
                (Some("device-A"), None, true),
                (Some("device-A"), Some("device-A"), true),
                (Some("device-A"), Some("device-B"), false),
                (Some(""), Some(""), true),
                (Some(""), Some("device-A"), false),
            ] {
                assert_eq!(delivers_ui_intent(surface, requester), delivered, "{surface:?} {requester:?}");
                let mut intent = UiIntentEvent::new(CommandUiIntent::ShowSettings);
                if let Some(requester) = requester {
                    intent = intent.with_requester_driver_id(requester);
                }
                let sent = event_message(SessionEvent::UiIntent(intent), surface, || None);
                assert_eq!(sent.is_some(), delivered, "{surface:?} {requester:?}");
            }
        }
    }

    mod client {
        fn every_client_message_round_trips_its_golden_file() {
            let mut seen = Vec::new();
            for (name, text) in CLIENT_GOLDENS {
                let message: ClientMessage = golden(name, text);
                assert_eq!(message.type_literal().replace('-', "_"), *name, "{name}: its type");
                seen.push(message.type_literal());
            }
            seen.sort_unstable();
            let mut all = ClientMessage::TYPES.to_vec();
            all.sort_unstable();
            assert_eq!(seen, all, "one golden file per client message");
        }

        fn every_client_golden_reads_as_a_frame() {
            for (name, text) in CLIENT_GOLDENS {
                let read = decode_client_frame(text, &FrameLimits::DEFAULT);
                assert_eq!(read.as_ref().ok(), Some(&golden::<ClientMessage>(name, text)), "{name}");
            }
        }

        fn a_wrong_shaped_frame_is_refused_in_the_reference_words() {
            let refused = |text: &str| {
                decode_client_frame(text, &FrameLimits::DEFAULT)
                    .map(|message| alloc::format!("{message:?}"))
                    .unwrap_or_else(|refusal| alloc::format!("{refusal}"))
            };
            // The reference decoder's corpus, and its words.
            for (frame, words) in [
                ("null", "message must be a JSON object"),
                (r#"[{"type":"abort"}]"#, "message must be a JSON object"),
                (r#""abort""#, "message must be a JSON object"),
                (r#"{"prompt":"x"}"#, "message type must be a string"),
                (r#"{"type":1}"#, "message type must be a string"),
                (r#"{"type":"nope"}"#, "Unknown message type: nope"),
                (r#"{"type":"toString"}"#, "Unknown message type: toString"),
                (r#"{"type":"submit"}"#, "prompt must be a non-empty string"),
                (r#"{"type":"submit","prompt":""}"#, "prompt must be a non-empty string"),
                (r#"{"type":"submit","prompt":["x"]}"#, "prompt must be a non-empty string"),
                (r#"{"type":"submit","prompt":1}"#, "prompt must be a non-empty string"),
                (r#"{"type":"command","name":"n","args":1}"#, "args has an invalid shape"),
                (r#"{"type":"get-background-tasks","filter":[]}"#, "filter has an invalid shape"),
                (r#"{"type":"get-background-tasks","filter":{"kind":"x"}}"#, "filter has an invalid shape"),
                (r#"{"type":"send-background-task","taskId":"t","input":"p"}"#, "input has an invalid shape"),
                (r#"{"type":"send-background-task","taskId":"t","input":{"prompt":1}}"#, "input has an invalid shape"),
                (r#"{"type":"read-background-task-log","taskId":"t","cursor":{"offset":"3"}}"#, "cursor has an invalid shape"),
                (r#"{"type":"permission-response","id":"p","result":"yes"}"#, "result has an invalid shape"),
                (r#"{"type":"ask-response","id":"a","response":{"type":"answer","values":[1]}}"#, "response has an invalid shape"),
                (r#"{"type":"ask-response","id":"a","response":{"type":"cancelled","values":[]}}"#, "response has an invalid shape"),
                (r#"{"type":"resume","lastSeq":"4"}"#, "lastSeq has an invalid shape"),
                (r#"{"type":"cancel-background-task","taskId":""}"#, "taskId has an invalid shape"),
                ("not json", "Invalid JSON"),
                ("\u{feff}{\"type\":\"abort\"}", "Invalid JSON"),
                // The corpus's NaN seq as JSON text can write it: out of range, so not a seq
                // (as `JSON.parse` reads it, Infinity, which the reference decoder refuses).
                (r#"{"type":"ack","seq":1e400}"#, "seq has an invalid shape"),
                // Stricter than the reference: a seq is a whole number from 0.
                (r#"{"type":"ack","seq":1.5}"#, "seq has an invalid shape"),
                (r#"{"type":"resume","lastSeq":-1}"#, "lastSeq has an invalid shape"),
            ] {
                assert_eq!(refused(frame), words, "{frame}");
            }
            // Members a message does not declare are ignored; the last of a repeated key counts.
            assert_eq!(
                decode_client_frame(r#"{"type":"abort","driverId":"x","extra":[1]}"#, &FrameLimits::DEFAULT),
                Ok(ClientMessage::Abort)
            );
            assert_eq!(refused(r#"{"type":"nope","type":"abort"}"#), "Abort");
        }

        fn a_frame_past_the_bounds_is_refused_before_it_is_parsed() {
            let small = FrameLimits::new(32, ReadLimits::DEFAULT.with_depth(3).with_echo(8));
            assert_eq!(
                decode_client_frame(r#"{"type":"submit","prompt":"0123456789abcdef"}"#, &small),
                Err(FrameRefusal::TooLarge)
            );
            assert_eq!(decode_client_frame(r#"{"type":"abort"}"#, &small), Ok(ClientMessage::Abort));
            let deep = r#"{"type":"abort","x":[[[1]]]}"#;
            assert_eq!(decode_client_frame(deep, &small), Err(FrameRefusal::TooDeep { depth: 3 }));
            let refusal = decode_client_frame(r#"{"type":"abcdefghijklmnop"}"#, &small).unwrap_err();
            let text = alloc::format!("{refusal}");
            assert!(text.starts_with("Unknown message type: abcdefgh") && !text.contains("ijklmnop"), "{text}");
            // A frame 1,000 levels deep is refused by the default bound, not parsed.
            let mut hostile = alloc::string::String::from(r#"{"type":"abort","x":"#);
            hostile.push_str(&"[".repeat(1_000));
            assert_eq!(
                decode_client_frame(&hostile, &FrameLimits::DEFAULT),
                Err(FrameRefusal::TooDeep { depth: ReadLimits::DEFAULT.depth })
            );
        }

        fn a_checked_frame_always_decodes_and_agrees_with_the_message_decoder() {
            // Every member of every golden, removed or replaced by values of every JSON kind:
            // the frame decoder (which reads each member on its own) and serde's message decoder
            // agree on every frame the frame decoder accepts.
            let replacements = ["null", "true", "0", "7", "-1", "1.5", "\"\"", "\"x\"", "[]", "[\"a\"]", "{}"];
            let mut frames = 0;
            for (name, text) in CLIENT_GOLDENS {
                let golden: serde_json::Value = serde_json::from_str(text).expect("JSON");
                let object = golden.as_object().expect("an object");
                for member in object.keys().filter(|key| *key != "type") {
                    let mut variants = Vec::new();
                    let mut removed = object.clone();
                    removed.remove(member);
                    variants.push(removed);
                    for replacement in replacements {
                        let mut changed = object.clone();
                        changed.insert(member.clone(), serde_json::from_str(replacement).expect("JSON"));
                        variants.push(changed);
                    }
                    for variant in variants {
                        let frame = serde_json::to_string(&variant).expect("encodes");
                        frames += 1;
                        // What the frame decoder reads, serde's message decoder reads alike; what
                        // serde refuses, the frame decoder refuses too.
                        if let Ok(message) = decode_client_frame(&frame, &FrameLimits::DEFAULT) {
                            assert_eq!(
                                serde_json::from_str::<ClientMessage>(&frame).ok(),
                                Some(message),
                                "{name}: {frame}"
                            );
                        }
                    }
                }
            }
            assert!(frames > 200, "{frames} frames");
        }

        fn a_client_message_of_the_wrong_shape_does_not_decode() {
            rejects::<ClientMessage>(r#"{"type":"launch"}"#, "unknown variant `launch`");
            rejects::<ClientMessage>(r#"{"prompt":"hi"}"#, "missing field `type`");
            rejects::<ClientMessage>(r#"{"type":"submit"}"#, "missing field `prompt`");
            rejects::<ClientMessage>(r#"{"type":"submit","prompt":42}"#, "invalid type: integer `42`");
            rejects::<ClientMessage>(r#"{"type":"resume","lastSeq":-1}"#, "invalid value: integer `-1`");
            rejects::<ClientMessage>(r#"{"type":"ack","seq":1.5}"#, "invalid type: floating point `1.5`");
            rejects::<ClientMessage>(
                r#"{"type":"permission-response","id":"p1","result":"allow-forever"}"#,
                "allow-forever",
            );
            rejects::<ClientMessage>(r#"{"type":"get-background-task"}"#, "missing field `taskId`");
        }
    }

    mod server {
        fn every_server_message_round_trips_its_golden_file() {
            let mut seen = Vec::new();
            for (name, text) in SERVER_GOLDENS {
                let message: ServerMessage = golden(name, text);
                assert_eq!(message.type_literal(), *name, "{name}: its type");
                seen.push(message.type_literal());
            }
            seen.sort_unstable();
            let mut all = ServerMessage::TYPES.to_vec();
            all.sort_unstable();
            assert_eq!(seen, all, "one golden file per server message");
        }

        fn only_turn_authored_events_carry_a_driver() {
            for (name, text) in SERVER_GOLDENS {
                let message: ServerMessage = golden(name, text);
                let authored = matches!(
                    *name,
                    "text_delta" | "user_message" | "tool_start" | "tool_end" | "thinking"
                        | "complete" | "interrupted" | "error"
                );
                let written = serde_json::to_value(&message).expect("encodes");
                assert_eq!(written.get("driverId").is_some(), message.driver_id().is_some(), "{name}");
                assert!(authored || message.driver_id().is_none(), "{name}: not turn-authored");
            }
            // A driver id on any other message is not part of it: dropped on decode, never written.
            let message: ServerMessage =
                serde_json::from_str(r#"{"type":"executing","executing":true,"driverId":"device-7"}"#)
                    .expect("decodes");
            assert_eq!(
                serde_json::to_string(&message).expect("encodes"),
                r#"{"type":"executing","executing":true}"#
            );
        }
    }
}

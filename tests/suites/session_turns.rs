//! Cases of the `session` family's turn identity, events, prompts and loops: golden round trips of
//! every payload and of every event frame, catalog §10 items 13 and 14, the peer-turn refusal,
//! the partial result that cannot answer, the event name set and routing facts, the loop machine
//! and the waiting-loop stop rule, and refused JSON. Uses only `core`, `alloc`, serde_json and the
//! crate, so it also runs on the firmware and wasm.
//!
//! Parts (one firmware image each, every one under the board's 256 KiB of flash): `turn`,
//! `payloads`, `goals`, `prompts`, `events` (frames encoded), `frame_decoding` (frames decoded;
//! host and wasm only, see the part) and `loops`.

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::marker::PhantomData;

use agent_interface::agent_core::{ContextWindowState, ErrorValue, NeverAborted, ToolArgs, Value};
use agent_interface::session::{directory::*, events::*, loops::*, prompts::*, turns::*};

use crate::support::{block_on, s};
use crate::support::{from_json, golden, json_eq, rejects, to_json};

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("test JSON")
}

fn empty_context() -> ContextWindowState {
    ContextWindowState::new(200_000, 0, 0.0, 100.0)
}

fn result(response: &str) -> ExecutionResult {
    ExecutionResult::new(response).with_context_state(empty_context())
}

// ---- compile-time shape probe: does `T` convert into an `ExecutionResult`? ----

/// Answers `false` for every type (the fallback when the inherent constant does not apply).
trait NoConversion {
    const INTO_ANSWER: bool = false;
    const TRY_INTO_ANSWER: bool = false;
}

impl<T> NoConversion for T {}

/// Holds `T`; its inherent constants exist only when `T` converts.
struct Probe<T>(PhantomData<T>);

impl<T: Into<ExecutionResult>> Probe<T> {
    const INTO_ANSWER: bool = true;
}

struct TryProbe<T>(PhantomData<T>);

impl<T: TryInto<ExecutionResult>> TryProbe<T> {
    const TRY_INTO_ANSWER: bool = true;
}

// ---- loops: instants used by the machine cases ----

/// 2026-09-24T10:10:00.000Z
const T_10_10: u64 = 1_790_244_600_000;
/// 2026-09-24T10:20:00.000Z
const T_10_20: u64 = 1_790_245_200_000;
/// 2026-09-27T10:00:00.000Z
const T_EXPIRES: u64 = 1_790_503_200_000;

fn loop_in(status: SessionLoopStatus) -> SessionLoopState {
    let mut state = SessionLoopState::new(
        "loop-1",
        "Check the deploy",
        "2026-09-24T10:00:00.000Z",
        "2026-09-27T10:00:00.000Z",
    );
    state.revision = 4;
    state.generation = 2;
    state.status = status;
    state
}

fn waiting_loop() -> SessionLoopState {
    loop_in(SessionLoopStatus::Waiting {
        next_allowed_at: s("2026-09-24T10:20:00.000Z"),
        reason: Some(s("deploy takes ten minutes")),
    })
}

fn delay(seconds: u32) -> LoopDelay {
    LoopDelay::new(seconds).expect("in range")
}

/// Applies `input` and asserts it was refused with `expected` and left the state as it was.
fn assert_refused(state: &SessionLoopState, input: &LoopInput, expected: LoopRefusal) {
    let mut after = state.clone();
    assert_eq!(after.apply(input), Err(expected), "input {input:?}");
    assert_eq!(&after, state, "a refused {input:?} changed the state");
}

/// Applies `input`, asserts it was accepted, the revision grew by one and the phase is `phase`.
fn assert_accepted(
    state: &SessionLoopState,
    input: &LoopInput,
    phase: SessionLoopPhase,
) -> SessionLoopState {
    let mut after = state.clone();
    assert_eq!(after.apply(input), Ok(()), "input {input:?}");
    assert_eq!(after.revision, state.revision + 1);
    assert_eq!(after.phase(), phase);
    assert_eq!(after.loop_id, state.loop_id);
    assert_eq!(after.use_default_prompt, state.use_default_prompt);
    after
}

// ---- events: the values of the golden frames, built without decoding ----

fn used_context() -> ContextWindowState {
    ContextWindowState::new(200_000, 62_480, 31.24, 68.76)
}

fn permission_request() -> SessionEvent {
    let mut tool_args = ToolArgs::new();
    tool_args.insert(s("command"), Value::from("ls"));
    SessionEvent::PermissionRequest(PermissionRequestEvent::new("p1", "Bash", tool_args))
}

fn ask_request() -> SessionEvent {
    SessionEvent::AskRequest(AskRequestEvent::new(
        "a1",
        agent_interface::agent_core::ActionRequest::new("r", "Pick"),
    ))
}

/// One event per name, in [`FRAMES`] order: the values the golden frames encode.
fn all_events() -> Vec<SessionEvent> {
    use agent_interface::agent_core::{ModelEffortSelection, PermissionMode};
    use agent_interface::execution::{
        groups::{
            BackgroundJobGroupEvent, BackgroundJobGroupState, BackgroundJobGroupStatus,
            BackgroundJobWaitPolicy,
        },
        task_event::BackgroundTaskEvent,
        workspace::{
            ExecutionWorkspaceEvent, ExecutionWorkspaceSnapshot, ExecutionWorkspaceUpdateCause,
        },
    };

    let running_tool = ToolState::new("Bash", "cargo test", true);
    let failed_tool = ToolState::new("Bash", "cargo test", false)
        .with_result(ToolResultStatus::Error)
        .with_execution_id("call-3");
    let group = BackgroundJobGroupState::new(
        "group-2",
        "sess-1",
        BackgroundJobWaitPolicy::Detached,
        vec![s("task-7")],
        BackgroundJobGroupStatus::Running,
        "2026-09-24T10:00:00.000Z",
        "2026-09-24T10:09:00.000Z",
    );
    let workspace = ExecutionWorkspaceEvent::new(
        ExecutionWorkspaceUpdateCause::BackgroundGroup,
        ExecutionWorkspaceSnapshot::new("sess-1", "2026-09-24T12:00:01.000Z", Vec::new()),
    )
    .with_entry_id("entry-group-3");
    let goal = GoalState::new(
        "goal-1",
        "Make every test pass",
        GoalStatus::Active,
        0,
        25,
        "2026-09-24T10:00:00.000Z",
        Vec::new(),
    );
    let plan = PlanArtifact::new(
        "plan-1",
        "Split the parser",
        Vec::new(),
        PlanPhase::Planning,
        "2026-09-24T10:00:00.000Z",
    );
    let status = SessionStatusSnapshot::new(
        "sess-1",
        "claude-sonnet-4",
        PermissionMode::Default,
        ModelEffortSelection::Auto,
        empty_context(),
    );
    vec![
        SessionEvent::TextDelta(s("Looking at ")),
        SessionEvent::ToolStart(running_tool),
        SessionEvent::ToolEnd(failed_tool),
        SessionEvent::Thinking(true),
        SessionEvent::Complete(alloc::boxed::Box::new(result("ok"))),
        SessionEvent::Interrupted(result("").into_interrupted()),
        SessionEvent::Error(ErrorValue::from_message("provider unavailable")),
        SessionEvent::ContextUpdate(used_context()),
        SessionEvent::Compact(CompactEvent::new(
            CompactTrigger::Manual,
            used_context(),
            empty_context(),
        )),
        SessionEvent::SkillActivation(SkillActivationEvent::new(
            "review",
            SkillActivationSource::Skill,
            SkillActivationInvocation::ModelTool,
            SkillActivationMode::Inject,
            SkillActivationStatus::Started,
            "2026-09-24T10:02:00.000Z",
        )),
        SessionEvent::BackgroundTaskEvent(BackgroundTaskEvent::Closed {
            task_id: s("task-6"),
        }),
        SessionEvent::BackgroundJobGroupEvent(BackgroundJobGroupEvent::Created { group }),
        SessionEvent::ExecutionWorkspaceEvent(workspace),
        SessionEvent::UserMessage(s("Fix the parser")),
        SessionEvent::TurnSource(TurnSource::AgentWakeup),
        SessionEvent::ContextFileRefreshed(ContextFileRefreshedEvent::new("/repo/AGENTS.md")),
        SessionEvent::MemoryEvent(MemoryEvent::new(
            MemoryEventType::Retrieved,
            "2026-09-24T10:03:00.000Z",
        )),
        SessionEvent::GoalEvent(GoalEvent::new(GoalEventType::Started, goal)),
        SessionEvent::PlanEvent(PlanApprovalEvent::new(PlanEventType::Reverted, plan)),
        SessionEvent::BranchEvent(BranchEvent::new(
            BranchEventKind::BranchSwitched,
            "turn-0002",
            "branch-2",
        )),
        permission_request(),
        ask_request(),
        SessionEvent::PromptResolved(PromptResolvedEvent::new("a1")),
        SessionEvent::UiIntent(
            UiIntentEvent::new(agent_interface::command::definition::CommandUiIntent::ShowSettings)
                .with_requester_driver_id(OWNER_DRIVER_ID),
        ),
        SessionEvent::SessionRenamed(SessionRenamedEvent::new("Parser fixes")),
        SessionEvent::HistoryCleared,
        SessionEvent::SessionSwitched(SessionSwitchedEvent::new("sess-2")),
        SessionEvent::StatusChanged(alloc::boxed::Box::new(status)),
    ]
}

// ---- events: one golden frame per event ----

const FRAMES: &[(&str, &str)] = &[
    (
        "text_delta",
        include_str!("../golden/session/turns/frame_text_delta.json"),
    ),
    (
        "tool_start",
        include_str!("../golden/session/turns/frame_tool_start.json"),
    ),
    (
        "tool_end",
        include_str!("../golden/session/turns/frame_tool_end.json"),
    ),
    (
        "thinking",
        include_str!("../golden/session/turns/frame_thinking.json"),
    ),
    (
        "complete",
        include_str!("../golden/session/turns/frame_complete.json"),
    ),
    (
        "interrupted",
        include_str!("../golden/session/turns/frame_interrupted.json"),
    ),
    (
        "error",
        include_str!("../golden/session/turns/frame_error.json"),
    ),
    (
        "context_update",
        include_str!("../golden/session/turns/frame_context_update.json"),
    ),
    (
        "compact",
        include_str!("../golden/session/turns/frame_compact.json"),
    ),
    (
        "skill_activation",
        include_str!("../golden/session/turns/frame_skill_activation.json"),
    ),
    (
        "background_task_event",
        include_str!("../golden/session/turns/frame_background_task_event.json"),
    ),
    (
        "background_job_group_event",
        include_str!("../golden/session/turns/frame_background_job_group_event.json"),
    ),
    (
        "execution_workspace_event",
        include_str!("../golden/session/turns/frame_execution_workspace_event.json"),
    ),
    (
        "user_message",
        include_str!("../golden/session/turns/frame_user_message.json"),
    ),
    (
        "turn_source",
        include_str!("../golden/session/turns/frame_turn_source.json"),
    ),
    (
        "context_file_refreshed",
        include_str!("../golden/session/turns/frame_context_file_refreshed.json"),
    ),
    (
        "memory_event",
        include_str!("../golden/session/turns/frame_memory_event.json"),
    ),
    (
        "goal_event",
        include_str!("../golden/session/turns/frame_goal_event.json"),
    ),
    (
        "plan_event",
        include_str!("../golden/session/turns/frame_plan_event.json"),
    ),
    (
        "branch_event",
        include_str!("../golden/session/turns/frame_branch_event.json"),
    ),
    (
        "permission_request",
        include_str!("../golden/session/turns/frame_permission_request.json"),
    ),
    (
        "ask_request",
        include_str!("../golden/session/turns/frame_ask_request.json"),
    ),
    (
        "prompt_resolved",
        include_str!("../golden/session/turns/frame_prompt_resolved.json"),
    ),
    (
        "ui_intent",
        include_str!("../golden/session/turns/frame_ui_intent.json"),
    ),
    (
        "session_renamed",
        include_str!("../golden/session/turns/frame_session_renamed.json"),
    ),
    (
        "history_cleared",
        include_str!("../golden/session/turns/frame_history_cleared.json"),
    ),
    (
        "session_switched",
        include_str!("../golden/session/turns/frame_session_switched.json"),
    ),
    (
        "status_changed",
        include_str!("../golden/session/turns/frame_status_changed.json"),
    ),
];

/// The 28 names of the event map, in the catalog's order.
const EVENT_NAMES: [&str; 28] = [
    "text_delta",
    "tool_start",
    "tool_end",
    "thinking",
    "complete",
    "interrupted",
    "error",
    "context_update",
    "compact",
    "skill_activation",
    "background_task_event",
    "background_job_group_event",
    "execution_workspace_event",
    "user_message",
    "turn_source",
    "context_file_refreshed",
    "memory_event",
    "goal_event",
    "plan_event",
    "branch_event",
    "permission_request",
    "ask_request",
    "prompt_resolved",
    "ui_intent",
    "session_renamed",
    "history_cleared",
    "session_switched",
    "status_changed",
];

cases! {
    // Turn identity, submit options, the not-run outcome and its predicate, results (turn.rs,
    // execution_result.rs).
    mod turn {
        fn driver_ids_are_owner_and_agent() {
            assert_eq!(OWNER_DRIVER_ID, "owner");
            assert_eq!(AGENT_DRIVER_ID, "agent");
            assert_ne!(OWNER_DRIVER_ID, AGENT_DRIVER_ID);
            assert_eq!(default_driver_id(None), Some(OWNER_DRIVER_ID));
            assert_eq!(default_driver_id(Some(TurnSource::User)), Some(OWNER_DRIVER_ID));
            assert_eq!(default_driver_id(Some(TurnSource::AgentWakeup)), Some(AGENT_DRIVER_ID));
            assert_eq!(default_driver_id(Some(TurnSource::Peer)), None);
            assert_eq!(default_driver_id(Some(TurnSource::ExternalEvent)), None);
        }

        fn turn_source_has_four_literals() {
            literal_round_trip!(TurnSource);
            assert_eq!(
                TurnSource::LITERALS,
                &["user", "agent-wakeup", "peer", "external-event"]
            );
        }

        fn turn_source_refuses_system() {
            rejects::<TurnSource>(r#""system""#, "system");
        }

        fn peer_turn_context_round_trips() {
            let peer: PeerTurnContext = golden(
                "peer_turn_context",
                include_str!("../golden/session/turns/peer_turn_context.json"),
            );
            assert_eq!(peer.reach, Some(agent_interface::agent_core::PeerReach::AnotherHost));
            assert_eq!(peer.message_id, "msg-7");
            let bare: PeerTurnContext =
                golden("peer without reach", r#"{"messageId":"m","replyTo":"sess-2"}"#);
            assert_eq!(bare.reach, None);
        }

        fn peer_turn_context_needs_reply_to() {
            rejects::<PeerTurnContext>(r#"{"messageId":"m"}"#, "replyTo");
        }

        fn peer_turn_without_driver_is_refused() {
            let peer = PeerTurnContext::new("m", "sess-2");
            let mut options = SubmitOptions::peer("peer:device-9", peer);
            assert_eq!(options.validate(), Ok(()));
            assert_eq!(options.attributed_driver_id(), Some("peer:device-9"));
            options.driver_id = None;
            assert_eq!(options.validate(), Err(SubmitRefusal::PeerWithoutDriver));
            options.driver_id = Some(String::new());
            assert_eq!(options.validate(), Err(SubmitRefusal::PeerWithoutDriver));
            assert_eq!(options.attributed_driver_id(), None);
            options.peer = None;
            assert_eq!(options.validate(), Err(SubmitRefusal::PeerWithoutDriver));
            let refusal = SubmitRefusal::PeerWithoutDriver.to_string();
            assert!(refusal.contains("driver id"), "{refusal}");
        }

        fn peer_context_only_on_peer_turns() {
            let peer = PeerTurnContext::new("m", "sess-2");
            let options = SubmitOptions::new()
                .with_driver_id("owner")
                .with_turn_source(TurnSource::User)
                .with_peer(peer);
            assert_eq!(options.validate(), Err(SubmitRefusal::PeerContextOnNonPeerTurn));
        }

        fn user_and_wakeup_turns_validate_and_default_their_driver() {
            let user: SubmitOptions = SubmitOptions::default();
            assert_eq!(user.validate(), Ok(()));
            assert_eq!(user.attributed_driver_id(), Some(OWNER_DRIVER_ID));
            let wake = SubmitOptions::new().with_turn_source(TurnSource::AgentWakeup);
            assert_eq!(wake.validate(), Ok(()));
            assert_eq!(wake.attributed_driver_id(), Some(AGENT_DRIVER_ID));
            let remote = SubmitOptions::new()
                .with_driver_id("device-42")
                .with_surface(agent_interface::analytics::usage::UsageSurface::Browser);
            assert_eq!(remote.attributed_driver_id(), Some("device-42"));
        }

        fn abort_signal_cancels_only_its_submission() {
            let signal = core::cell::Cell::new(false);
            let mine = SubmitOptions::new().with_signal(&signal);
            let other: SubmitOptions = SubmitOptions::default();
            assert!(!mine.is_aborted());
            signal.set(true);
            assert!(mine.is_aborted());
            assert!(!other.is_aborted());
            assert!(!SubmitOptions::new().with_signal(NeverAborted).is_aborted());
        }

        fn turn_handle_keeps_its_id_and_settles() {
            let handle = TurnHandle::new(
                "sess-1-turn-1",
                core::future::ready(TurnCompletion::<ErrorValue>::Ok(result("").into())),
            );
            assert_eq!(handle.turn_id, "sess-1-turn-1");
            let outcome = block_on(handle.completed).expect("completes");
            assert_eq!(outcome.response(), "");
            assert!(!outcome.is_interrupted());
            let not_run = TurnHandle::new(
                "sess-1-turn-2",
                core::future::ready(TurnCompletion::<ErrorValue>::Err(
                    TurnNotRun::new("sess-1-turn-2", TurnNotRunReason::Dropped).into(),
                )),
            );
            let error = block_on(async { not_run.await }).expect_err("never ran");
            assert_eq!(error.not_run().map(|n| n.turn_id.as_str()), Some("sess-1-turn-2"));
        }

        fn every_not_run_reason_is_named_and_there_is_no_shutdown() {
            literal_round_trip!(TurnNotRunReason);
            assert_eq!(TurnNotRunReason::LITERALS, &["coalesced", "dropped", "cancelled"]);
            assert_eq!(TurnNotRunReason::from_literal("shutdown"), None);
            for reason in TurnNotRunReason::ALL {
                let outcome = TurnNotRun::new("t1", *reason);
                assert_eq!(outcome.to_string(), alloc::format!("turn t1 never ran: {reason}"));
                let error: TurnError = outcome.clone().into();
                assert!(error.is_turn_not_run());
                assert!(is_turn_not_run(&error));
                let wire = to_json(&outcome);
                assert_eq!(wire["name"], Value::from("TurnNotRunError"));
                assert_eq!(wire["turnId"], Value::from("t1"));
                assert_eq!(wire["reason"], Value::from(reason.as_str()));
                assert_eq!(from_json::<TurnNotRun>(&wire).expect("decodes"), outcome);
            }
        }

        fn not_run_message_matches_the_typescript_error() {
            let outcome = TurnNotRun::new("t1", TurnNotRunReason::Coalesced);
            assert_eq!(outcome.to_string(), "turn t1 never ran: coalesced");
            assert_eq!(TurnNotRun::NAME, "TurnNotRunError");
            let value = outcome.to_error_value();
            assert_eq!(value.name, "TurnNotRunError");
            assert_eq!(value.message, "turn t1 never ran: coalesced");
        }

        fn turn_not_run_round_trips() {
            let outcome: TurnNotRun = golden(
                "turn_not_run",
                include_str!("../golden/session/turns/turn_not_run.json"),
            );
            assert_eq!(outcome, TurnNotRun::new("sess-1-turn-3", TurnNotRunReason::Coalesced));
        }

        fn not_run_refuses_shutdown() {
            rejects::<TurnNotRunReason>(r#""shutdown""#, "shutdown");
            rejects::<TurnNotRun>(
                r#"{"name":"TurnNotRunError","turnId":"t4","reason":"shutdown"}"#,
                "shutdown",
            );
        }

        fn not_run_refuses_another_name() {
            rejects::<TurnNotRun>(
                r#"{"name":"Error","turnId":"t1","reason":"dropped"}"#,
                "TurnNotRunError",
            );
            rejects::<TurnNotRun>(r#"{"turnId":"t1","reason":"dropped"}"#, "name");
        }

        fn predicate_is_false_for_failures_and_look_alikes() {
            let failed: TurnError = TurnError::Failed(ErrorValue::from_message("provider down"));
            assert!(!failed.is_turn_not_run());
            assert!(failed.not_run().is_none());
            assert_eq!(failed.failure().map(|e| e.message.as_str()), Some("provider down"));
            assert!(!is_turn_not_run(&failed));
            // An error value that only carries the name is a look-alike (interop departure 15).
            let look_alike = TurnNotRun::new("t1", TurnNotRunReason::Dropped).to_error_value();
            assert_eq!(look_alike.name, "TurnNotRunError");
            assert!(!is_turn_not_run(&look_alike));
            assert!(!is_turn_not_run(&TurnError::<ErrorValue>::Failed(look_alike)));
            assert!(!is_turn_not_run(&SubmitRefusal::PeerWithoutDriver));
            assert!(is_turn_not_run(&TurnNotRun::new("t2", TurnNotRunReason::Cancelled)));
        }

        fn transport_reports_not_run_and_surfaces_failures() {
            // A transport boundary: an outcome to report, or a failure to surface.
            fn settle(completion: TurnCompletion) -> Result<Option<String>, String> {
                match completion {
                    Ok(outcome) => Ok(Some(String::from(outcome.response()))),
                    Err(error) if error.is_turn_not_run() => Ok(None),
                    Err(error) => Err(error.to_string()),
                }
            }
            let not_run = TurnNotRun::new("t3", TurnNotRunReason::Cancelled);
            assert_eq!(settle(Err(not_run.into())), Ok(None));
            assert_eq!(
                settle(Err(TurnError::Failed(ErrorValue::from_message("boom")))),
                Err(s("the turn failed: Error: boom"))
            );
            assert_eq!(settle(Ok(result("hi").into())), Ok(Some(s("hi"))));
        }

        fn execution_result_reproduces_the_recorded_fixture() {
            let value: ExecutionResult = golden(
                "execution_result",
                include_str!("../golden/session/turns/execution_result.json"),
            );
            assert_eq!(value, result("ok"));
            assert!(value.usage.is_none() && value.prompt_file_references.is_none());
        }

        fn full_execution_result_round_trips() {
            let value: ExecutionResult = golden(
                "execution_result_full",
                include_str!("../golden/session/turns/execution_result_full.json"),
            );
            assert_eq!(value.history.len(), 2);
            assert!(value.history[0].is_chat());
            let edit = ToolSummary::new("Edit", "src/parser.rs");
            assert_eq!(value.tool_summaries, vec![edit]);
            assert_eq!(value.usage.as_ref().map(|u| u.total_tokens), Some(15873));
            let references = value.prompt_file_references.as_deref().expect("references");
            assert_eq!(references[0].reason, PromptFileReferenceReason::PromptReference);
        }

        fn execution_result_needs_its_context_state() {
            rejects::<ExecutionResult>(
                r#"{"response":"ok","history":[],"toolSummaries":[]}"#,
                "contextState",
            );
        }

        fn partial_result_round_trips_with_its_marker() {
            let partial: PartialExecutionResult = golden(
                "partial_result",
                include_str!("../golden/session/turns/partial_result.json"),
            );
            assert_eq!(partial.response(), "The parser now");
            assert_eq!(partial.history().len(), 1);
            assert!(partial.tool_summaries().is_empty());
            assert!(partial.usage().is_none() && partial.prompt_file_references().is_none());
            assert_eq!(partial.context_state().used_tokens, 62480);
            assert_eq!(to_json(&partial)["interrupted"], Value::Bool(true));
            let history = partial.into_local_history();
            assert_eq!(history[0].id, "h-1");
        }

        fn a_partial_result_does_not_decode_as_a_complete_one() {
            rejects::<ExecutionResult>(
                include_str!("../golden/session/turns/partial_result.json"),
                "interrupted",
            );
            rejects::<PartialExecutionResult>(
                r#"{"response":"","history":[],"toolSummaries":[],
                "contextState":{"maxTokens":1,"usedTokens":0,
                "usedPercentage":0,"remainingPercentage":100},
                "interrupted":false}"#,
                "interrupted",
            );
        }

        fn turn_outcome_reads_the_marker() {
            let partial: TurnOutcome =
                from_json(&json(include_str!("../golden/session/turns/partial_result.json")))
                    .expect("decodes");
            assert!(partial.is_interrupted());
            assert_eq!(partial.history().len(), 1);
            let complete: TurnOutcome =
                from_json(&json(include_str!("../golden/session/turns/execution_result.json")))
                    .expect("decodes");
            assert!(!complete.is_interrupted());
            assert_eq!(complete.response(), "ok");
            assert!(json_eq(
                &to_json(&complete),
                &json(include_str!("../golden/session/turns/execution_result.json"))
            ));
        }

        fn only_a_complete_outcome_becomes_an_answer() {
            // What answers an external sender takes an `ExecutionResult`, nothing else.
            fn answer(result: ExecutionResult) -> String {
                result.response
            }
            let complete = TurnOutcome::from(result("done"));
            let answered = ExecutionResult::try_from(complete).map(answer);
            assert_eq!(answered, Ok(s("done")));
            let interrupted = TurnOutcome::from(result("half").into_interrupted());
            let refused = ExecutionResult::try_from(interrupted).map(answer);
            let partial = refused.expect_err("an interrupted outcome is not an answer");
            assert_eq!(partial.response(), "half");
            // Compile-time shape (the build fails if it changes): only the complete result
            // converts into an answer.
            const { assert!(Probe::<ExecutionResult>::INTO_ANSWER) };
            const { assert!(!Probe::<PartialExecutionResult>::INTO_ANSWER) };
            const { assert!(!TryProbe::<PartialExecutionResult>::TRY_INTO_ANSWER) };
            const { assert!(!Probe::<TurnOutcome>::INTO_ANSWER) };
            const { assert!(TryProbe::<TurnOutcome>::TRY_INTO_ANSWER) };
        }

        fn ui_intent_reproduces_the_recorded_fixture() {
            let event: UiIntentEvent = golden(
                "ui_intent",
                include_str!("../golden/session/turns/ui_intent.json"),
            );
            assert_eq!(event.intent, agent_interface::command::definition::CommandUiIntent::ShowSettings);
            assert_eq!(event.requester_driver_id.as_deref(), Some(OWNER_DRIVER_ID));
        }

        fn session_renamed_round_trips() {
            let event: SessionRenamedEvent = golden(
                "session_renamed",
                include_str!("../golden/session/turns/session_renamed.json"),
            );
            assert_eq!(event.name, "Parser fixes");
            rejects::<SessionRenamedEvent>("{}", "name");
        }
    }

    // Event payloads, tool state and branches (event_payloads.rs, tool_state.rs, branch.rs).
    mod payloads {
        fn payload_literal_sets_round_trip() {
            literal_round_trip!(CompactTrigger);
            literal_round_trip!(SkillActivationSource);
            literal_round_trip!(SkillActivationInvocation);
            literal_round_trip!(SkillActivationMode);
            literal_round_trip!(SkillActivationStatus);
            literal_round_trip!(SkillActivationEventType);
            literal_round_trip!(MemoryType);
            literal_round_trip!(MemoryEventType);
            literal_round_trip!(PromptFileReferenceReason);
            literal_round_trip!(ContextReferenceLoadType);
            literal_round_trip!(ContextReferenceStatus);
            literal_round_trip!(DiffLineType);
            literal_round_trip!(ToolResultStatus);
            assert_eq!(MemoryEventType::ALL.len(), 7);
            assert_eq!(SkillActivationEventType::default().as_str(), "skill-activation");
        }

        fn compact_event_round_trips() {
            let event: CompactEvent = golden(
                "compact_event",
                include_str!("../golden/session/turns/compact_event.json"),
            );
            assert_eq!(event.trigger, CompactTrigger::Auto);
            assert!(event.before.used_tokens > event.after.used_tokens);
        }

        fn skill_activation_event_round_trips() {
            let event: SkillActivationEvent = golden(
                "skill_activation_event",
                include_str!("../golden/session/turns/skill_activation_event.json"),
            );
            assert_eq!(event.event_type, SkillActivationEventType::SkillActivation);
            assert_eq!(event.status, SkillActivationStatus::Failed);
            assert_eq!(event.qualified_name.as_deref(), Some("acme:review"));
        }

        fn skill_activation_event_refuses_another_type() {
            rejects::<SkillActivationEvent>(
                r#"{"type":"skill_activation","skillName":"r","source":"skill",
                "invocation":"user-slash","mode":"inject","status":"started","timestamp":"t"}"#,
                "skill_activation",
            );
        }

        fn memory_payloads_round_trip() {
            let event: MemoryEvent = golden(
                "memory_event",
                include_str!("../golden/session/turns/memory_event.json"),
            );
            assert_eq!(event.event_type, MemoryEventType::CandidateRejected);
            assert_eq!(event.data.as_ref().map(|d| d.len()), Some(2));
            let reference: MemoryReference = golden(
                "memory_reference",
                include_str!("../golden/session/turns/memory_reference.json"),
            );
            assert!(!reference.truncated);
        }

        fn memory_event_refuses_an_unknown_type() {
            rejects::<MemoryEvent>(r#"{"type":"memory_forgotten","at":"t"}"#, "memory_forgotten");
        }

        fn reference_records_round_trip() {
            let file: PromptFileReferenceRecord = golden(
                "prompt_file_reference",
                include_str!("../golden/session/turns/prompt_file_reference.json"),
            );
            assert_eq!((file.depth, file.byte_length), (1, 1200));
            let item: ContextReferenceItem = golden(
                "context_reference",
                include_str!("../golden/session/turns/context_reference.json"),
            );
            assert_eq!(item.load_type, ContextReferenceLoadType::System);
            assert_eq!(item.status, ContextReferenceStatus::Active);
        }

        fn reference_records_refuse_negative_sizes() {
            rejects::<PromptFileReferenceRecord>(
                r#"{"originalReference":"a","sourcePath":"b","relativePath":"c",
                "reason":"manual","depth":0,"byteLength":-1}"#,
                "-1",
            );
        }

        fn tool_states_round_trip() {
            let running: ToolState = golden(
                "tool_state_running",
                include_str!("../golden/session/turns/tool_state_running.json"),
            );
            assert!(running.is_running && running.result.is_none() && running.view_ref.is_none());
            let done: ToolState = golden(
                "tool_state_finished",
                include_str!("../golden/session/turns/tool_state_finished.json"),
            );
            assert_eq!(done.result, Some(ToolResultStatus::Success));
            assert_eq!(done.view_ref, Some(ViewReference(s("view:edit/call-9"))));
            let lines = done.diff_lines.as_deref().expect("diff");
            let kinds: Vec<DiffLineType> = lines.iter().map(|line| line.kind).collect();
            assert_eq!(
                kinds,
                [DiffLineType::Hunk, DiffLineType::Remove, DiffLineType::Add, DiffLineType::Context]
            );
        }

        fn tool_state_refuses_a_negative_line_number_and_an_unknown_result() {
            rejects::<DiffLine>(r#"{"type":"add","text":"x","lineNumber":-3}"#, "-3");
            rejects::<ToolState>(
                r#"{"toolName":"Bash","firstArg":"ls","isRunning":false,"result":"skipped"}"#,
                "skipped",
            );
        }

        fn every_branch_event_kind_round_trips() {
            literal_round_trip!(BranchEventKind);
            let files = [
                include_str!("../golden/session/turns/branch_checkpoint_created.json"),
                include_str!("../golden/session/turns/branch_checkpoint_restored.json"),
                include_str!("../golden/session/turns/branch_checkpoint_rolled_back.json"),
                include_str!("../golden/session/turns/branch_branch_forked.json"),
                include_str!("../golden/session/turns/branch_branch_switched.json"),
            ];
            assert_eq!(files.len(), BranchEventKind::ALL.len());
            for (text, kind) in files.iter().zip(BranchEventKind::ALL) {
                let event: BranchEvent = golden(kind.as_str(), text);
                assert_eq!(event.kind, *kind);
            }
        }

        fn branch_events_reproduce_the_recorded_fixtures() {
            let switched: BranchEvent = golden(
                "branch_switched",
                r#"{"kind":"branch_switched","checkpointId":"turn-0002","branchId":"branch-2"}"#,
            );
            assert_eq!(switched.branch_id, "branch-2");
            let created: BranchEvent = golden(
                "checkpoint_created",
                r#"{"kind":"checkpoint_created","checkpointId":"turn-0001","branchId":"main"}"#,
            );
            assert_eq!(created.checkpoint_id, "turn-0001");
            let pointer: ActiveBranchPointer = golden(
                "active_branch",
                include_str!("../golden/session/turns/active_branch.json"),
            );
            assert_eq!(pointer.branch_id, switched.branch_id);
        }

        fn branch_event_refuses_an_unknown_kind() {
            rejects::<BranchEvent>(
                r#"{"kind":"branch_merged","checkpointId":"c","branchId":"b"}"#,
                "branch_merged",
            );
        }

    }

    // Goal, plan and status snapshot (goal.rs, plan.rs, status.rs).
    mod goals {
        fn goal_events_round_trip() {
            literal_round_trip!(GoalStatus);
            literal_round_trip!(GoalStopReason);
            literal_round_trip!(GoalProgressSignal);
            literal_round_trip!(GoalEventType);
            let started: GoalEvent = golden(
                "goal_started",
                include_str!("../golden/session/turns/goal_started.json"),
            );
            assert_eq!(started.event_type, GoalEventType::Started);
            assert_eq!(started.goal.max_iterations, 25);
            let progress: GoalEvent = golden(
                "goal_progress",
                include_str!("../golden/session/turns/goal_progress.json"),
            );
            assert_eq!(progress.goal.progress[0].signal, GoalProgressSignal::Continue);
            let stopped: GoalEvent = golden(
                "goal_stopped",
                include_str!("../golden/session/turns/goal_stopped.json"),
            );
            assert_eq!(stopped.goal.status, GoalStatus::Stopped);
            assert_eq!(stopped.goal.stop_reason, Some(GoalStopReason::NoProgress));
        }

        fn goal_refuses_negative_iterations() {
            rejects::<GoalState>(
                r#"{"id":"g","objective":"o","status":"active","iterations":-1,
                "maxIterations":25,"startedAt":"t","progress":[]}"#,
                "-1",
            );
        }

        fn plan_events_round_trip() {
            literal_round_trip!(PlanStepStatus);
            literal_round_trip!(PlanPhase);
            literal_round_trip!(PlanEventType);
            let created: PlanApprovalEvent = golden(
                "plan_created",
                include_str!("../golden/session/turns/plan_created.json"),
            );
            assert_eq!(created.plan.phase, PlanPhase::AwaitingApproval);
            assert!(created.plan.approved_at.is_none());
            let approved: PlanApprovalEvent = golden(
                "plan_approved",
                include_str!("../golden/session/turns/plan_approved.json"),
            );
            let statuses: Vec<PlanStepStatus> =
                approved.plan.steps.iter().map(|step| step.status).collect();
            assert_eq!(
                statuses,
                [PlanStepStatus::Done, PlanStepStatus::InProgress, PlanStepStatus::Pending]
            );
            let reverted: PlanApprovalEvent = golden(
                "plan_reverted",
                include_str!("../golden/session/turns/plan_reverted.json"),
            );
            assert_eq!(reverted.event_type, PlanEventType::Reverted);
        }

        fn plan_refuses_an_unknown_phase() {
            rejects::<PlanArtifact>(
                r#"{"id":"p","objective":"o","steps":[],"phase":"approved","createdAt":"t"}"#,
                "approved",
            );
        }

        fn plan_event_needs_a_whole_plan() {
            // The recorded fixture abbreviates the plan to its id; the contract needs every field.
            rejects::<PlanApprovalEvent>(
                r#"{"type":"plan_created","plan":{"id":"plan-1"}}"#,
                "objective",
            );
        }

        fn status_snapshot_with_goal_and_workspace_round_trips() {
            let status: SessionStatusSnapshot = golden(
                "status_with_goal",
                include_str!("../golden/session/turns/status_with_goal.json"),
            );
            assert!(status.setup_required);
            assert_eq!(status.goal.as_ref().map(|goal| goal.id.as_str()), Some("goal-1"));
            assert_eq!(status.workspace.as_ref().map(|w| w.name.as_str()), Some("repo"));
        }

        fn status_snapshot_without_goal_writes_null() {
            let status: SessionStatusSnapshot = golden(
                "status_without_goal",
                include_str!("../golden/session/turns/status_without_goal.json"),
            );
            assert!(status.goal.is_none() && status.workspace.is_none());
            assert!(!status.setup_required);
            let wire = to_json(&status);
            assert_eq!(wire.get("goal"), Some(&Value::Null));
            assert_eq!(wire.get("setupRequired"), None);
        }

        fn status_snapshot_refuses_setup_required_false() {
            rejects::<SessionStatusSnapshot>(
                r#"{"sessionId":"s","model":"m","permissionMode":"default","effort":"auto",
                "context":{"maxTokens":1,"usedTokens":0,
                "usedPercentage":0,"remainingPercentage":100},
                "goal":null,"setupRequired":false}"#,
                "setupRequired",
            );
        }

        fn status_snapshot_needs_the_goal_key() {
            rejects::<SessionStatusSnapshot>(
                r#"{"sessionId":"s","model":"m","permissionMode":"default","effort":"auto",
                "context":{"maxTokens":1,"usedTokens":0,
                "usedPercentage":0,"remainingPercentage":100}}"#,
                "goal",
            );
        }

        fn model_list_round_trips() {
            let list: ModelListSnapshot = golden(
                "model_list",
                include_str!("../golden/session/turns/model_list.json"),
            );
            assert_eq!(list.groups[0].profile_name, "work");
            assert_eq!(list.current_profile.as_deref(), Some("work"));
            assert!(list.groups[1].models.is_empty());
        }
    }

    // Permission answers, requesters, prompts and their one resolved event (prompt.rs).
    mod prompts {
        fn permission_values_have_their_wire_forms() {
            let cases = [
                (PermissionResultValue::Allow, "true"),
                (PermissionResultValue::Deny, "false"),
                (PermissionResultValue::AllowSession, r#""allow-session""#),
                (PermissionResultValue::AllowProject, r#""allow-project""#),
            ];
            assert_eq!(cases.len(), PermissionResultValue::ALL.len());
            for (value, wire) in cases {
                assert_eq!(to_json(&value), json(wire));
                let back: PermissionResultValue = from_json(&json(wire)).expect("decodes");
                assert_eq!(back, value);
                assert_eq!(value.allows(), value != PermissionResultValue::Deny);
            }
            assert_eq!(PermissionResultValue::from(true), PermissionResultValue::Allow);
            assert_eq!(PermissionResultValue::AllowSession.to_string(), "allow-session");
        }

        fn permission_value_refuses_allow_forever() {
            rejects::<PermissionResultValue>(r#""allow-forever""#, "allow-forever");
            rejects::<PermissionResultValue>("1", "invalid type");
        }

        fn permission_request_reproduces_the_recorded_payload() {
            let event: PermissionRequestEvent = golden(
                "permission_request_payload",
                include_str!("../golden/session/turns/permission_request_payload.json"),
            );
            assert_eq!(event.tool_name, "Bash");
            assert_eq!(event.tool_args.get("command"), Some(&Value::from("ls")));
            assert!(event.can_persist_project_permission.is_none() && event.requester.is_none());
        }

        fn permission_request_with_requester_round_trips() {
            let event: PermissionRequestEvent = golden(
                "permission_request_full",
                include_str!("../golden/session/turns/permission_request_full.json"),
            );
            assert_eq!(event.can_persist_project_permission, Some(false));
            assert_eq!(
                event.requester,
                Some(PermissionRequester::BackgroundAgent(BackgroundAgentPermissionRequester::new(
                    "explorer", "task-7",
                )))
            );
        }

        fn permission_requester_refuses_an_unknown_kind() {
            rejects::<PermissionRequester>(r#"{"kind":"peer","label":"x","taskId":"t"}"#, "peer");
        }

        fn permission_request_needs_a_tool_name() {
            rejects::<PermissionRequestEvent>(r#"{"id":"p","toolArgs":{}}"#, "toolName");
        }

        fn ask_requests_round_trip() {
            let recorded: AskRequestEvent = golden(
                "ask_request_payload",
                include_str!("../golden/session/turns/ask_request_payload.json"),
            );
            assert_eq!(recorded.request.title, "Pick");
            let full: AskRequestEvent = golden(
                "ask_request_full",
                include_str!("../golden/session/turns/ask_request_full.json"),
            );
            assert_eq!(full.request.max_select, Some(1));
            assert_eq!(full.requester_driver_id.as_deref(), Some(OWNER_DRIVER_ID));
        }

        fn one_resolved_event_for_every_prompt_kind() {
            let recorded: PromptResolvedEvent = golden(
                "prompt_resolved",
                include_str!("../golden/session/turns/prompt_resolved.json"),
            );
            assert_eq!(recorded.id, "a1");
            let answered: PromptResolvedEvent = golden(
                "prompt_resolved_answered",
                include_str!("../golden/session/turns/prompt_resolved_answered.json"),
            );
            assert_eq!(answered.answerer_driver_id.as_deref(), Some("device-42"));
            // The same event settles an ask (a1) and a permission request (p2).
            let events = [
                SessionEvent::PromptResolved(recorded),
                SessionEvent::PromptResolved(answered),
            ];
            assert!(events.iter().all(|e| e.name() == InteractiveEventName::PromptResolved));
        }

        fn context_file_refreshed_reproduces_the_recorded_payload() {
            let event: ContextFileRefreshedEvent = golden(
                "context_file_refreshed",
                include_str!("../golden/session/turns/context_file_refreshed.json"),
            );
            assert_eq!(event.file_path, "/repo/AGENTS.md");
        }

        fn permission_handler_answers() {
            struct ReadOnly;
            impl InteractivePermissionHandler for ReadOnly {
                async fn decide(&self, tool_name: &str, _: &ToolArgs) -> PermissionResultValue {
                    PermissionResultValue::from_bool(tool_name == "Read")
                }
            }
            let args = ToolArgs::new();
            assert_eq!(block_on(ReadOnly.decide("Read", &args)), PermissionResultValue::Allow);
            assert_eq!(block_on(ReadOnly.decide("Bash", &args)), PermissionResultValue::Deny);
        }
    }

    // The event map as wire frames (encoding), its name set and routing facts (events.rs).
    mod events {
        fn every_event_encodes_to_its_golden_frame() {
            let events = all_events();
            assert_eq!(events.len(), FRAMES.len());
            for (event, (name, text)) in events.iter().zip(FRAMES) {
                assert_eq!(event.name().as_str(), *name);
                let actual = to_json(event);
                let expected = json(text);
                assert!(json_eq(&actual, &expected), "{name}: {actual} differs from {expected}");
            }
        }

        fn frames_cover_every_event_name_once() {
            let mut names: Vec<String> = FRAMES
                .iter()
                .map(|(_, text)| match &json(text)["type"] {
                    Value::String(name) => name.clone(),
                    other => panic!("a frame's type is a string, not {other}"),
                })
                .collect();
            names.sort_unstable();
            names.dedup();
            let mut expected: Vec<&str> = InteractiveEventName::LITERALS.to_vec();
            expected.sort_unstable();
            assert_eq!(names, expected);
            let named: Vec<InteractiveEventName> =
                all_events().iter().map(SessionEvent::name).collect();
            assert_eq!(named, InteractiveEventName::ALL);
        }

        fn event_name_set_has_exactly_the_28_names() {
            literal_round_trip!(InteractiveEventName);
            assert_eq!(InteractiveEventName::LITERALS, &EVENT_NAMES);
            let mut unique = EVENT_NAMES.to_vec();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), 28);
        }

        fn event_name_set_refuses_an_unknown_name() {
            rejects::<InteractiveEventName>(r#""turn_started""#, "turn_started");
        }

        fn permission_request_frame_matches_the_recorded_frame() {
            let recorded = json(
                r#"{"type":"permission_request",
                "event":{"id":"p1","toolName":"Bash","toolArgs":{"command":"ls"}}}"#,
            );
            assert_eq!(to_json(&permission_request()), recorded);
        }

        fn ask_request_frame_matches_the_recorded_frame() {
            let recorded = json(
                r#"{"type":"ask_request","event":{"id":"a1","request":{"id":"r","title":"Pick"}}}"#,
            );
            assert_eq!(to_json(&ask_request()), recorded);
        }

        fn history_cleared_has_no_event_key() {
            let wire = to_json(&SessionEvent::HistoryCleared);
            assert_eq!(wire, json(r#"{"type":"history_cleared"}"#));
            assert!(!InteractiveEventName::HistoryCleared.has_payload());
            let with_payload = InteractiveEventName::ALL.iter().filter(|n| n.has_payload()).count();
            assert_eq!(with_payload, 27);
        }

        fn interrupted_frame_carries_the_marker() {
            let event = SessionEvent::Interrupted(result("half").into_interrupted());
            assert_eq!(to_json(&event)["event"]["interrupted"], Value::Bool(true));
            let complete = SessionEvent::Complete(alloc::boxed::Box::new(result("done")));
            assert_eq!(to_json(&complete)["event"].get("interrupted"), None);
        }

        fn routing_facts() {
            use InteractiveEventName as N;
            assert_eq!(N::UiIntent.audience(), EventAudience::RequestingSurface);
            assert_eq!(N::SessionRenamed.audience(), EventAudience::EverySurface);
            assert_eq!(N::HistoryCleared.audience(), EventAudience::EverySurface);
            assert_eq!(N::SessionSwitched.audience(), EventAudience::SwitchedClient);
            assert_eq!(N::PromptResolved.audience(), EventAudience::EverySurface);
            let special = N::ALL
                .iter()
                .filter(|name| name.audience() != EventAudience::EverySurface)
                .count();
            assert_eq!(special, 2);
            let intent = SessionEvent::UiIntent(
                UiIntentEvent::new(agent_interface::command::definition::CommandUiIntent::ShowThemePicker)
                    .with_requester_driver_id("device-42"),
            );
            assert_eq!(intent.audience(), EventAudience::RequestingSurface);
            assert_eq!(SessionEvent::HistoryCleared.audience(), EventAudience::EverySurface);
        }

        fn only_prompts_await_an_answer() {
            let parked: Vec<&str> = InteractiveEventName::ALL
                .iter()
                .filter(|name| name.awaits_answer())
                .map(|name| name.as_str())
                .collect();
            assert_eq!(parked, ["permission_request", "ask_request"]);
            assert!(!InteractiveEventName::UiIntent.awaits_answer());
        }
    }

    // Decoding frames (events.rs). The frame decoder links every payload decoder of the family
    // and of `execution`, about 400 KiB of Thumb code, more than the Cortex-M3 board's flash: these
    // cases run on the host and on wasm only: the firmware has no image for this part, and the
    // payload goldens of the other parts cover each payload's decoder on the board.
    mod frame_decoding {
        fn every_event_frame_round_trips() {
            {
                let events = all_events();
                for ((name, text), expected) in FRAMES.iter().zip(&events) {
                    let event: SessionEvent = golden(name, text);
                    assert_eq!(&event, expected, "{name}");
                }
            }
        }

        fn recorded_frames_decode() {
            {
                let permission = r#"{"type":"permission_request",
                    "event":{"id":"p1","toolName":"Bash","toolArgs":{"command":"ls"}}}"#;
                let event: SessionEvent = from_json(&json(permission)).expect("decodes");
                assert_eq!(event, permission_request());
                let ask = r#"{"event":{"id":"a1","request":{"id":"r","title":"Pick"}},
                    "type":"ask_request"}"#;
                let event: SessionEvent = from_json(&json(ask)).expect("decodes");
                assert_eq!(event, ask_request());
            }
        }

        fn history_cleared_decodes_without_or_with_a_null_event() {
            {
                let bare = r#"{"type":"history_cleared"}"#;
                for text in [bare, r#"{"type":"history_cleared","event":null}"#] {
                    let event: SessionEvent = from_json(&json(text)).expect("decodes");
                    assert_eq!(event, SessionEvent::HistoryCleared);
                }
                rejects::<SessionEvent>(r#"{"type":"history_cleared","event":{}}"#, "no `event`");
            }
        }

        fn an_unmarked_interrupted_frame_still_decodes_as_partial() {
            {
                let event: SessionEvent = from_json(&json(
                    r#"{"type":"interrupted","event":{"response":"half","history":[],
                    "toolSummaries":[],"contextState":{"maxTokens":1,"usedTokens":0,
                    "usedPercentage":0,"remainingPercentage":100}}}"#,
                ))
                .expect("decodes");
                match event {
                    SessionEvent::Interrupted(partial) => assert_eq!(partial.response(), "half"),
                    other => panic!("expected interrupted, got {other:?}"),
                }
            }
        }

        fn complete_frame_refuses_an_interrupted_result() {
            rejects::<SessionEvent>(
                r#"{"type":"complete","event":{"response":"half","history":[],"toolSummaries":[],
                "contextState":{"maxTokens":1,"usedTokens":0,
                "usedPercentage":0,"remainingPercentage":100},
                "interrupted":true}}"#,
                "interrupted",
            );
        }

        fn frame_refuses_an_unknown_event_type() {
            rejects::<SessionEvent>(r#"{"type":"turn_started","event":{}}"#, "turn_started");
        }

        fn frame_refuses_a_missing_payload() {
            rejects::<SessionEvent>(r#"{"type":"text_delta"}"#, "missing field `event`");
        }

        fn frame_refuses_a_wrong_payload() {
            {
                rejects::<SessionEvent>(r#"{"type":"turn_source","event":"system"}"#, "system");
                rejects::<SessionEvent>(r#"{"type":"thinking","event":"yes"}"#, "invalid type");
                rejects::<SessionEvent>(r#"{"event":true}"#, "type");
            }
        }
    }

    // Self-paced loop states, the loop machine and the waiting-loop stop rule (loop_state.rs).
    mod loops {
        fn loop_phase_literals_round_trip() {
            literal_round_trip!(SessionLoopPhase);
            let terminal: Vec<SessionLoopPhase> =
                SessionLoopPhase::ALL.iter().copied().filter(|p| p.is_terminal()).collect();
            assert_eq!(terminal, [SessionLoopPhase::Stopped, SessionLoopPhase::Expired]);
        }

        fn loop_in_each_phase_round_trips() {
            let waiting: SessionLoopState = golden(
                "loop_waiting",
                include_str!("../golden/session/turns/loop_waiting.json"),
            );
            let mut expected = waiting_loop();
            expected.delay_seconds = Some(delay(600));
            assert_eq!(waiting, expected);
            assert_eq!(waiting.next_allowed_at(), Some("2026-09-24T10:20:00.000Z"));
            let pending: SessionLoopState = golden(
                "loop_pending",
                include_str!("../golden/session/turns/loop_pending.json"),
            );
            assert_eq!(pending.status, SessionLoopStatus::Pending);
            assert!(pending.uses_default_prompt());
            let running: SessionLoopState = golden(
                "loop_running",
                include_str!("../golden/session/turns/loop_running.json"),
            );
            assert_eq!(running.status, SessionLoopStatus::Running);
            assert_eq!(running.use_default_prompt, Some(false));
            assert!(running.fallback_used);
            let stopped: SessionLoopState = golden(
                "loop_stopped",
                include_str!("../golden/session/turns/loop_stopped.json"),
            );
            assert_eq!(stopped.terminal_reason(), Some("user asked"));
            let expired: SessionLoopState = golden(
                "loop_expired",
                include_str!("../golden/session/turns/loop_expired.json"),
            );
            assert_eq!(expired.phase(), SessionLoopPhase::Expired);
            assert!(expired.is_terminal() && expired.terminal_reason().is_none());
        }

        fn omitted_prompt_marker_survives_round_trip_and_transitions() {
            let pending: SessionLoopState =
                from_json(&json(include_str!("../golden/session/turns/loop_pending.json")))
                    .expect("decodes");
            let running = assert_accepted(&pending, &LoopInput::Start, SessionLoopPhase::Running);
            let waiting = assert_accepted(
                &running,
                &LoopInput::ScheduleWait { now_ms: T_10_10, delay: delay(60), reason: None },
                SessionLoopPhase::Waiting,
            );
            assert_eq!(waiting.use_default_prompt, Some(true));
            assert_eq!(to_json(&waiting)["useDefaultPrompt"], Value::Bool(true));
            let fresh = SessionLoopState::new("loop-9", "x", "c", "e");
            assert!(!fresh.uses_default_prompt());
            assert_eq!(to_json(&fresh).get("useDefaultPrompt"), None);
        }

        fn delay_is_bounded() {
            assert_eq!(LoopDelay::new(60).map(LoopDelay::seconds), Ok(60));
            assert_eq!(LoopDelay::new(3600).map(LoopDelay::seconds), Ok(3600));
            assert_eq!(LoopDelay::new(59), Err(LoopDelayOutOfRange { seconds: 59 }));
            assert_eq!(LoopDelay::new(3601), Err(LoopDelayOutOfRange { seconds: 3601 }));
            assert_eq!((LoopDelay::MIN.seconds(), LoopDelay::MAX.seconds()), (60, 3600));
        }

        fn loop_refuses_delay_of_30_seconds() {
            let text = include_str!("../golden/session/turns/loop_waiting.json")
                .replace("\"delaySeconds\": 600", "\"delaySeconds\": 30");
            rejects::<SessionLoopState>(&text, "delaySeconds");
        }

        fn loop_refuses_delay_of_7200_seconds() {
            let text = include_str!("../golden/session/turns/loop_waiting.json")
                .replace("\"delaySeconds\": 600", "\"delaySeconds\": 7200");
            rejects::<SessionLoopState>(&text, "7200");
        }

        fn waiting_loop_needs_its_next_instant() {
            let text = include_str!("../golden/session/turns/loop_waiting.json")
                .replace("\"nextAllowedAt\": \"2026-09-24T10:20:00.000Z\",", "");
            rejects::<SessionLoopState>(&text, "nextAllowedAt");
        }

        fn loop_refuses_fields_of_another_phase() {
            let running = include_str!("../golden/session/turns/loop_running.json");
            let phase = "\"phase\": \"running\",";
            let with =
                |field: &str| running.replace(phase, &alloc::format!("{phase} {field}: \"x\","));
            rejects::<SessionLoopState>(&with("\"reason\""), "reason");
            rejects::<SessionLoopState>(&with("\"nextAllowedAt\""), "nextAllowedAt");
            rejects::<SessionLoopState>(&with("\"terminalReason\""), "terminalReason");
        }

        fn loop_refuses_negative_generation_and_unknown_phase() {
            let running = include_str!("../golden/session/turns/loop_running.json");
            let negative = running.replace("\"generation\": 3", "\"generation\": -1");
            rejects::<SessionLoopState>(&negative, "-1");
            rejects::<SessionLoopState>(&running.replace("\"running\"", "\"paused\""), "paused");
            let missing = running.replace(",\n  \"fallbackUsed\": true", "");
            rejects::<SessionLoopState>(&missing, "fallbackUsed");
        }

        fn every_transition_is_accepted_or_refused_as_the_table_says() {
            use SessionLoopPhase as P;
            let inputs = [
                LoopInput::ScheduleWait {
                    now_ms: T_10_10,
                    delay: delay(600),
                    reason: Some(s("r")),
                },
                LoopInput::Finish { now_ms: T_10_10, fallback: delay(900) },
                LoopInput::Wake { generation: 2, now_ms: T_10_20 },
                LoopInput::Wake { generation: 1, now_ms: T_10_20 },
                LoopInput::Start,
                LoopInput::Stop { reason: Some(s("done")) },
                LoopInput::Expire { now_ms: T_EXPIRES },
            ];
            let stale = LoopRefusal::StaleWake { expected: 2, received: 1 };
            let wrong = |phase, input| Err(LoopRefusal::WrongPhase { phase, input });
            let table: [(SessionLoopState, [Result<P, LoopRefusal>; 7]); 3] = [
                (
                    waiting_loop(),
                    [
                        Ok(P::Waiting),
                        wrong(P::Waiting, LoopInputKind::Finish),
                        Ok(P::Pending),
                        Err(stale),
                        wrong(P::Waiting, LoopInputKind::Start),
                        Ok(P::Stopped),
                        Ok(P::Expired),
                    ],
                ),
                (
                    loop_in(SessionLoopStatus::Pending),
                    [
                        wrong(P::Pending, LoopInputKind::ScheduleWait),
                        wrong(P::Pending, LoopInputKind::Finish),
                        wrong(P::Pending, LoopInputKind::Wake),
                        Err(stale),
                        Ok(P::Running),
                        Ok(P::Stopped),
                        Ok(P::Expired),
                    ],
                ),
                (
                    loop_in(SessionLoopStatus::Running),
                    [
                        Ok(P::Waiting),
                        Ok(P::Waiting),
                        wrong(P::Running, LoopInputKind::Wake),
                        Err(stale),
                        wrong(P::Running, LoopInputKind::Start),
                        Ok(P::Stopped),
                        Ok(P::Expired),
                    ],
                ),
            ];
            for (state, expected) in &table {
                for (input, outcome) in inputs.iter().zip(expected) {
                    match outcome {
                        Ok(phase) => {
                            assert_accepted(state, input, *phase);
                        }
                        Err(refusal) => assert_refused(state, input, *refusal),
                    }
                }
            }
        }

        fn terminal_loops_accept_nothing() {
            let inputs = [
                LoopInput::ScheduleWait { now_ms: T_10_10, delay: delay(600), reason: None },
                LoopInput::Finish { now_ms: T_10_10, fallback: delay(600) },
                LoopInput::Wake { generation: 2, now_ms: T_10_20 },
                LoopInput::Wake { generation: 7, now_ms: T_10_20 },
                LoopInput::Start,
                LoopInput::Stop { reason: None },
                LoopInput::Expire { now_ms: T_EXPIRES },
            ];
            let stopped = loop_in(SessionLoopStatus::Stopped { terminal_reason: None });
            let expired = loop_in(SessionLoopStatus::Expired { terminal_reason: None });
            for input in &inputs {
                let phase = SessionLoopPhase::Stopped;
                assert_refused(&stopped, input, LoopRefusal::Terminal { phase });
                let phase = SessionLoopPhase::Expired;
                assert_refused(&expired, input, LoopRefusal::Terminal { phase });
            }
        }

        fn accepted_transitions_write_what_they_decide() {
            let running = loop_in(SessionLoopStatus::Running);
            let chosen = assert_accepted(
                &running,
                &LoopInput::ScheduleWait {
                    now_ms: T_10_10,
                    delay: delay(600),
                    reason: Some(s("deploy")),
                },
                SessionLoopPhase::Waiting,
            );
            assert_eq!(
                chosen.status,
                SessionLoopStatus::Waiting {
                    next_allowed_at: s("2026-09-24T10:20:00.000Z"),
                    reason: Some(s("deploy")),
                }
            );
            assert_eq!((chosen.delay_seconds, chosen.fallback_used), (Some(delay(600)), false));
            assert_eq!(chosen.generation, running.generation);
            let fallback = assert_accepted(
                &running,
                &LoopInput::Finish { now_ms: T_10_10, fallback: delay(3600) },
                SessionLoopPhase::Waiting,
            );
            assert_eq!(fallback.next_allowed_at(), Some("2026-09-24T11:10:00.000Z"));
            assert!(fallback.fallback_used);
            let woken = assert_accepted(
                &chosen,
                &LoopInput::Wake { generation: 2, now_ms: T_10_20 },
                SessionLoopPhase::Pending,
            );
            assert_eq!(woken.generation, 3);
            assert_eq!(woken.delay_seconds, Some(delay(600)));
            let stopped = assert_accepted(
                &woken,
                &LoopInput::Stop { reason: Some(s("user asked")) },
                SessionLoopPhase::Stopped,
            );
            assert_eq!(stopped.terminal_reason(), Some("user asked"));
            assert_eq!(stopped.revision, running.revision + 3);
        }

        fn next_instant_crosses_a_leap_day() {
            // 2028-02-28T23:59:00.000Z plus one hour.
            let running = loop_in(SessionLoopStatus::Running);
            let waiting = assert_accepted(
                &running,
                &LoopInput::ScheduleWait {
                    now_ms: 1_835_395_140_000,
                    delay: delay(3600),
                    reason: None,
                },
                SessionLoopPhase::Waiting,
            );
            assert_eq!(waiting.next_allowed_at(), Some("2028-02-29T00:59:00.000Z"));
            assert_eq!(to_json(&waiting).get("reason"), None);
        }

        fn wake_before_the_next_instant_is_refused() {
            let waiting = waiting_loop();
            let early = LoopInput::Wake { generation: 2, now_ms: T_10_20 - 1 };
            assert_refused(&waiting, &early, LoopRefusal::TooEarly);
            // The same instant written with an offset and a fraction is read the same way.
            let offset = loop_in(SessionLoopStatus::Waiting {
                next_allowed_at: s("2026-09-24T12:20:00.5+02:00"),
                reason: None,
            });
            assert_refused(
                &offset,
                &LoopInput::Wake { generation: 2, now_ms: T_10_20 + 499 },
                LoopRefusal::TooEarly,
            );
            assert_accepted(
                &offset,
                &LoopInput::Wake { generation: 2, now_ms: T_10_20 + 500 },
                SessionLoopPhase::Pending,
            );
        }

        fn stale_wake_after_resume_is_refused() {
            // Waiting at generation 2; the wake for 2 runs the iteration (generation 3).
            let woken = assert_accepted(
                &waiting_loop(),
                &LoopInput::Wake { generation: 2, now_ms: T_10_20 },
                SessionLoopPhase::Pending,
            );
            // The process restarts: the record is read back, and the old timer fires again.
            let resumed: SessionLoopState = from_json(&to_json(&woken)).expect("decodes");
            assert_eq!(resumed, woken);
            let again = LoopInput::Wake { generation: 2, now_ms: T_10_20 + 5_000 };
            assert_refused(&resumed, &again, LoopRefusal::StaleWake { expected: 3, received: 2 });
            let running = assert_accepted(&resumed, &LoopInput::Start, SessionLoopPhase::Running);
            assert_refused(&running, &again, LoopRefusal::StaleWake { expected: 3, received: 2 });
            let waiting = assert_accepted(
                &running,
                &LoopInput::ScheduleWait { now_ms: T_10_20, delay: delay(60), reason: None },
                SessionLoopPhase::Waiting,
            );
            assert_refused(&waiting, &again, LoopRefusal::StaleWake { expected: 3, received: 2 });
        }

        fn expiry_before_expires_at_is_refused() {
            let waiting = waiting_loop();
            let early = LoopInput::Expire { now_ms: T_EXPIRES - 1 };
            assert_refused(&waiting, &early, LoopRefusal::NotExpired);
            let expired = assert_accepted(
                &waiting,
                &LoopInput::Expire { now_ms: T_EXPIRES },
                SessionLoopPhase::Expired,
            );
            assert!(expired.next_allowed_at().is_none());
        }

        fn unreadable_instants_and_exhausted_counters_are_refused() {
            let garbled = loop_in(SessionLoopStatus::Waiting {
                next_allowed_at: s("tomorrow"),
                reason: None,
            });
            assert_refused(
                &garbled,
                &LoopInput::Wake { generation: 2, now_ms: T_10_20 },
                LoopRefusal::UnreadableInstant { field: "nextAllowedAt" },
            );
            let mut no_expiry = waiting_loop();
            no_expiry.expires_at = s("2026-02-30T00:00:00.000Z");
            assert_refused(
                &no_expiry,
                &LoopInput::Expire { now_ms: T_EXPIRES },
                LoopRefusal::UnreadableInstant { field: "expiresAt" },
            );
            let running = loop_in(SessionLoopStatus::Running);
            assert_refused(
                &running,
                &LoopInput::ScheduleWait { now_ms: u64::MAX - 10, delay: delay(60), reason: None },
                LoopRefusal::InstantOutOfRange,
            );
            let mut worn = loop_in(SessionLoopStatus::Pending);
            worn.revision = u64::MAX;
            assert_refused(&worn, &LoopInput::Start, LoopRefusal::CounterExhausted);
            assert!(LoopRefusal::CounterExhausted.to_string().contains("counters"));
        }

        fn stop_outcomes_round_trip() {
            let none: WaitingLoopStopOutcome = golden(
                "stop_none",
                include_str!("../golden/session/turns/stop_none.json"),
            );
            assert_eq!(none, WaitingLoopStopOutcome::None);
            let several: WaitingLoopStopOutcome = golden(
                "stop_several",
                include_str!("../golden/session/turns/stop_several.json"),
            );
            assert!(matches!(several, WaitingLoopStopOutcome::Several { .. }));
            let stopped: WaitingLoopStopOutcome = golden(
                "stop_stopped",
                include_str!("../golden/session/turns/stop_stopped.json"),
            );
            assert_eq!(
                stopped,
                WaitingLoopStopOutcome::Stopped {
                    loop_id: s("loop-1"),
                    message: Some(s("Stopped.")),
                }
            );
            let failed: WaitingLoopStopOutcome = golden(
                "stop_failed",
                include_str!("../golden/session/turns/stop_failed.json"),
            );
            assert!(matches!(failed, WaitingLoopStopOutcome::Failed { loop_id: Some(_), .. }));
            let bare: WaitingLoopStopOutcome =
                golden("failed without loop", r#"{"kind":"failed","message":"m"}"#);
            assert_eq!(bare, WaitingLoopStopOutcome::Failed { loop_id: None, message: s("m") });
        }

        fn stop_outcome_refuses_unknown_kinds_and_missing_fields() {
            rejects::<WaitingLoopStopOutcome>(r#"{"kind":"paused"}"#, "paused");
            rejects::<WaitingLoopStopOutcome>(r#"{"kind":"several"}"#, "message");
            rejects::<WaitingLoopStopOutcome>(r#"{"kind":"stopped"}"#, "loopId");
        }

        fn stop_rule_with_no_waiting_loop_is_none() {
            assert_eq!(stop_waiting_loop(&mut [], None), WaitingLoopStopOutcome::None);
            let mut loops = [
                loop_in(SessionLoopStatus::Running),
                loop_in(SessionLoopStatus::Stopped { terminal_reason: None }),
            ];
            let before = loops.clone();
            assert_eq!(stop_waiting_loop(&mut loops, None), WaitingLoopStopOutcome::None);
            assert_eq!(loops, before);
        }

        fn stop_rule_with_several_waiting_stops_none() {
            let mut other = waiting_loop();
            other.loop_id = s("loop-2");
            let mut loops = [waiting_loop(), loop_in(SessionLoopStatus::Pending), other];
            let before = loops.clone();
            let outcome = stop_waiting_loop(&mut loops, Some(s("bye")));
            assert_eq!(
                outcome,
                WaitingLoopStopOutcome::Several {
                    message: s("2 self-paced loops are waiting; name the one to stop"),
                }
            );
            assert_eq!(loops, before);
        }

        fn stop_rule_with_exactly_one_waiting_stops_it() {
            let mut loops = [loop_in(SessionLoopStatus::Running), waiting_loop()];
            let outcome = stop_waiting_loop(&mut loops, Some(s("bye")));
            assert_eq!(
                outcome,
                WaitingLoopStopOutcome::Stopped { loop_id: s("loop-1"), message: None }
            );
            assert_eq!(loops[1].phase(), SessionLoopPhase::Stopped);
            assert_eq!(loops[1].terminal_reason(), Some("bye"));
            assert_eq!(loops[1].revision, 5);
            assert_eq!(loops[0], loop_in(SessionLoopStatus::Running));
        }

        fn stop_rule_reports_a_refused_stop_as_failed() {
            let mut worn = waiting_loop();
            worn.revision = u64::MAX;
            let mut loops = [worn.clone()];
            let outcome = stop_waiting_loop(&mut loops, None);
            assert_eq!(
                outcome,
                WaitingLoopStopOutcome::Failed {
                    loop_id: Some(s("loop-1")),
                    message: LoopRefusal::CounterExhausted.to_string(),
                }
            );
            assert_eq!(loops[0], worn);
        }
    }
}

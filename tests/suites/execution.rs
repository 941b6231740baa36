//! Wire-form and rule cases of the `execution` family: golden round trips, the type parity the
//! original package tests, the behavioural rules, and refused JSON. Uses only `core`, `alloc`,
//! serde_json and the crate, so it also runs on the firmware and wasm.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use agent_interface::agent_core::*;
use agent_interface::execution::{
    groups::*, subagents::*, task_event::*, task_request::*, task_result::*, task_schedule::*,
    task_state::*, task_vocabulary::*, workspace::*, workspace_projection::*,
};

use crate::support::s;
use crate::support::{golden, json_eq, rejects, to_json};

fn request_base() -> BackgroundTaskRequestBase {
    BackgroundTaskRequestBase::new(
        "explore",
        BackgroundTaskMode::Foreground,
        "sess-1",
        1,
        "/work/repo",
    )
}

fn agent_request() -> AgentBackgroundTaskRequest {
    AgentBackgroundTaskRequest::new(
        request_base(),
        "explorer",
        "Find the config loader.",
        BackgroundPermissionPolicy::Deny,
    )
}

fn origin() -> ExecutionOrigin {
    ExecutionOrigin::new(ExecutionOriginKind::SlashCommand, "sess-1")
}

fn entry(
    kind: ExecutionEntryKind,
    source_id: &str,
    title: &str,
    controls: &[ExecutionControl],
) -> ExecutionWorkspaceEntry {
    ExecutionWorkspaceEntry::new(
        alloc::format!("entry-{source_id}"),
        source_id,
        kind,
        origin(),
        ExecutionWorkspaceStatus::Task(BackgroundTaskStatus::Sleeping),
        title,
        "2026-09-24T12:00:00.000Z",
    )
    .with_controls(controls.to_vec())
}

/// The JSON object `value` encodes to (panics when it is not an object).
fn object(value: Value) -> ValueMap {
    match value {
        Value::Object(map) => map,
        other => panic!("expected a JSON object, got {other}"),
    }
}

fn sorted_keys(map: &ValueMap) -> Vec<&str> {
    let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// Decodes a golden task event and checks its type literal and task id.
fn task_event(
    name: &str,
    text: &str,
    expected: BackgroundTaskEventType,
    task_id: &str,
) -> BackgroundTaskEvent {
    let event: BackgroundTaskEvent = golden(name, text);
    assert_eq!(event.event_type(), expected);
    assert_eq!(
        to_json(&event).get("type"),
        Some(&Value::from(expected.as_str()))
    );
    assert_eq!(event.task_id(), task_id);
    event
}

/// Takes exactly the base vocabulary's usage triple.
fn total_of(usage: TokenUsage) -> u64 {
    usage.total_tokens
}

/// Takes exactly the task mode.
fn is_background(mode: BackgroundTaskMode) -> bool {
    mode == BackgroundTaskMode::Background
}

const SCHEDULED_WITH_POLICY: &str = r#"{"kind":"scheduled","label":"l","mode":"background",
    "parentSessionId":"p","depth":0,"cwd":"/w","cronExpression":"* * * * *",
    "agentInstruction":"wake","permissionPolicy":"preapproved"}"#;

cases! {
    // Requests (`BackgroundTaskRequest` and its kinds, schedule and provider profile).
    mod task_requests {
        // ---- golden round trips: requests ----

        fn agent_request_round_trips() {
            let request: BackgroundTaskRequest =
                golden("request_agent", include_str!("../golden/execution/request_agent.json"));
            assert_eq!(request.kind(), BackgroundTaskKind::Agent);
            assert_eq!(request.permission_policy(), Some(BackgroundPermissionPolicy::InheritAllowlist));
            assert_eq!(request.resume_session_id(), Some("sess-fork-7"));
            let base = request.base();
            assert_eq!(base.label, "review the diff");
            assert_eq!(base.mode, BackgroundTaskMode::Background);
            assert_eq!(base.parent_task_id.as_deref(), Some("task-0"));
            assert_eq!(base.depth, 1);
            assert_eq!(base.timeout_ms, Some(600_000));
            assert_eq!(base.idle_timeout_ms, Some(120_000));
            assert_eq!(base.max_runtime_ms, Some(900_000));
            let metadata = base.metadata.as_ref().expect("metadata");
            assert_eq!(metadata.get("origin"), Some(&BackgroundPrimitive::from("fork")));
            assert_eq!(metadata.get("attempt").and_then(BackgroundPrimitive::as_f64), Some(2.0));
            assert_eq!(metadata.get("urgent").and_then(BackgroundPrimitive::as_bool), Some(true));
            assert_eq!(metadata.get("weight"), Some(&BackgroundPrimitive::Number(0.5)));
            let BackgroundTaskRequest::Agent(agent) = &request else {
                panic!("expected an agent request, got {request:?}");
            };
            assert_eq!(agent.agent_type, "general-purpose");
            assert_eq!(agent.prompt, "Review the staged diff.");
            assert_eq!(agent.model.as_deref(), Some("claude-sonnet"));
            assert_eq!(agent.effort, Some(ModelEffort::High));
            assert_eq!(agent.isolation, Some(BackgroundTaskIsolation::Worktree));
            assert_eq!(agent.allowed_tools, Some(vec![s("Read"), s("Grep")]));
            assert_eq!(agent.disallowed_tools, Some(vec![s("Bash")]));
            assert_eq!(agent.output_limit_bytes, Some(65_536));
            assert_eq!(agent.max_text_deltas, Some(5000));
            assert_eq!(agent.repetition_window, Some(8));
            assert_eq!(agent.repetition_threshold, Some(4));
            let profile = agent.provider_profile.as_deref().expect("provider profile");
            assert_eq!(profile.profile_name.as_deref(), Some("work"));
            assert_eq!(profile.provider_type, "anthropic");
            assert_eq!(profile.api_key, None);
            assert_eq!(profile.api_key_env.as_deref(), Some("ANTHROPIC_API_KEY"));
            assert_eq!(profile.base_url.as_deref(), Some("https://api.example.com"));
            assert_eq!(profile.timeout, Some(30_000));
            let options = profile.options.as_ref().expect("options");
            assert_eq!(options.get("beta"), Some(&serde_json::json!(["x"])));
            // A whole number is written back without a fraction, as JavaScript prints it.
            let json = to_json(&request);
            assert_eq!(json.pointer("/metadata/attempt").map(Value::is_u64), Some(true));
        }

        fn process_request_round_trips() {
            let request: BackgroundTaskRequest =
                golden("request_process", include_str!("../golden/execution/request_process.json"));
            assert_eq!(request.kind(), BackgroundTaskKind::Process);
            assert_eq!(request.permission_policy(), None);
            assert_eq!(request.resume_session_id(), None);
            let BackgroundTaskRequest::Process(process) = &request else {
                panic!("expected a process request, got {request:?}");
            };
            assert_eq!(process.base.depth, 0);
            assert_eq!(process.command, "npm run dev");
            assert_eq!(process.shell.as_deref(), Some("/bin/bash"));
            let env = process.env.as_ref().expect("env");
            assert_eq!(env.get("PORT").map(String::as_str), Some("3000"));
            assert_eq!(env.len(), 2);
            assert_eq!(process.stdin.as_deref(), Some("y\n"));
            assert_eq!(process.output_limit_bytes, Some(1_048_576));
            assert_eq!(process.match_pattern.as_deref(), Some("ready on port \\d+"));
            assert!(process.agent_instruction.is_some());
        }

        fn scheduled_request_round_trips() {
            let request: BackgroundTaskRequest = golden(
                "request_scheduled",
                include_str!("../golden/execution/request_scheduled.json"),
            );
            assert_eq!(request.kind(), BackgroundTaskKind::Scheduled);
            assert_eq!(request.permission_policy(), None);
            let BackgroundTaskRequest::Scheduled(scheduled) = &request else {
                panic!("expected a scheduled request, got {request:?}");
            };
            assert_eq!(scheduled.base.max_runtime_ms, Some(60_000));
            assert_eq!(scheduled.schedule.cron_expression, "0 3 * * *");
            assert_eq!(scheduled.schedule.command.as_deref(), Some("npm test"));
            assert!(scheduled.schedule.wakes_session());
            assert!(scheduled.schedule.runs_command());
            assert_eq!(scheduled.schedule.shell.as_deref(), Some("/bin/sh"));
            assert_eq!(scheduled.output_limit_bytes, Some(4096));
            assert!(to_json(&request).get("permissionPolicy").is_none());
        }

        fn tool_invocation_request_round_trips() {
            let request: BackgroundTaskRequest = golden(
                "request_tool_invocation",
                include_str!("../golden/execution/request_tool_invocation.json"),
            );
            assert_eq!(request.kind(), BackgroundTaskKind::ToolInvocation);
            let BackgroundTaskRequest::ToolInvocation(call) = &request else {
                panic!("expected a tool-invocation request, got {request:?}");
            };
            assert_eq!(call.provenance_owner(), ToolProvenanceOwner::Mcp);
            assert_eq!(call.tool_name, "run_query");
            assert_eq!(call.adoption_token, "adopt-3f9");
            assert_eq!(call.server_id, "db");
            assert_eq!(call.source_name, "Warehouse");
            assert_eq!(call.security_identity.as_deref(), Some("svc-reader"));
            assert_eq!(call.permission_mode, "default");
            assert_eq!(call.base.max_runtime_ms, Some(45_000));
            let json = to_json(call);
            assert_eq!(json.get("provenanceOwner"), Some(&Value::from("mcp")));
            assert!(json.get("kind").is_none());
        }

        // ---- golden round trips: subagents ----

        fn subagent_spawn_request_round_trips() {
            let request: SubagentSpawnRequest = golden(
                "subagent_spawn_request",
                include_str!("../golden/execution/subagent_spawn_request.json"),
            );
            assert_eq!(request, agent_request());
            assert!(to_json(&request).get("kind").is_none());
        }

        // ---- type parity (§3.7) ----

        fn spawn_request_is_agent_request_minus_kind() {
            let mut spawn: SubagentSpawnRequest = agent_request();
            spawn.resume_session_id = Some(s("sess-fork-1"));
            spawn.effort = Some(ModelEffort::Low);
            let mut with_kind = object(to_json(&spawn));
            assert!(!with_kind.contains_key("kind"));
            with_kind.insert(s("kind"), Value::from("agent"));
            let tagged = to_json(&BackgroundTaskRequest::Agent(spawn.clone()));
            assert!(json_eq(&tagged, &Value::Object(with_kind)));
            // And back: the tagged form decodes to the very same spawn request.
            let back: BackgroundTaskRequest = serde_json::from_value(tagged).expect("decodes");
            assert_eq!(back, BackgroundTaskRequest::Agent(spawn));
        }

        // ---- rules (§3.6) ----

        fn scheduled_request_with_permission_policy_fails() {
            rejects::<BackgroundTaskRequest>(SCHEDULED_WITH_POLICY, "permissionPolicy");
            let standalone = SCHEDULED_WITH_POLICY.replacen(r#""kind":"scheduled","#, "", 1);
            rejects::<ScheduledBackgroundTaskRequest>(&standalone, "permissionPolicy");
            // Even an explicit null is a policy key the request cannot have.
            let null = SCHEDULED_WITH_POLICY.replacen(r#""preapproved""#, "null", 1);
            rejects::<BackgroundTaskRequest>(&null, "permissionPolicy");
            // Without the key the same request decodes.
            let without = SCHEDULED_WITH_POLICY.replacen(r#","permissionPolicy":"preapproved""#, "", 1);
            let request: BackgroundTaskRequest = serde_json::from_str(&without).expect("decodes");
            assert_eq!(request.permission_policy(), None);
        }

        fn other_non_agent_requests_refuse_permission_policy() {
            rejects::<BackgroundTaskRequest>(
                r#"{"kind":"process","label":"l","mode":"background","parentSessionId":"p",
                "depth":0,"cwd":"/w","command":"ls","permissionPolicy":"deny"}"#,
                "permissionPolicy",
            );
            rejects::<BackgroundTaskRequest>(
                r#"{"kind":"tool-invocation","label":"l","mode":"background","parentSessionId":"p",
                "depth":0,"cwd":"/w","toolName":"t","adoptionToken":"a","provenanceOwner":"mcp",
                "serverId":"s","sourceName":"n","permissionMode":"default",
                "permissionPolicy":"prompt"}"#,
                "permissionPolicy",
            );
        }

        fn agent_request_without_permission_policy_fails() {
            rejects::<BackgroundTaskRequest>(
                r#"{"kind":"agent","label":"l","mode":"background","parentSessionId":"p",
                "depth":0,"cwd":"/w","agentType":"a","prompt":"go"}"#,
                "permissionPolicy",
            );
            rejects::<SubagentSpawnRequest>(
                r#"{"label":"l","mode":"background","parentSessionId":"p","depth":0,"cwd":"/w",
                "agentType":"a","prompt":"go"}"#,
                "permissionPolicy",
            );
        }

        fn fork_reaches_a_task_as_its_id_only() {
            let mut request = agent_request();
            request.resume_session_id = Some(s("sess-fork-3"));
            let json = object(to_json(&BackgroundTaskRequest::Agent(request)));
            assert_eq!(json.get("resumeSessionId"), Some(&Value::from("sess-fork-3")));
            assert_eq!(
                sorted_keys(&json),
                [
                    "agentType", "cwd", "depth", "kind", "label", "mode", "parentSessionId",
                    "permissionPolicy", "prompt", "resumeSessionId"
                ]
            );
            // Nothing else in the encoding refers to the fork: it travels as the one id.
            let text = serde_json::to_string(&json).expect("encodes");
            assert_eq!(text.matches("sess-fork-3").count(), 1);
            for word in ["history", "messages", "conversation", "transcript"] {
                assert!(!text.contains(word), "the request must not carry `{word}`");
            }
        }

        fn schedule_with_nothing_to_do_fails() {
            rejects::<BackgroundTaskSchedule>(r#"{"cronExpression":"* * * * *"}"#, "agentInstruction");
            rejects::<BackgroundTaskRequest>(
                r#"{"kind":"scheduled","label":"l","mode":"background","parentSessionId":"p",
                "depth":0,"cwd":"/w","cronExpression":"* * * * *"}"#,
                "command",
            );
        }

        fn primitives_are_strings_numbers_or_booleans() {
            let map: BackgroundPrimitiveMap =
                serde_json::from_str(r#"{"a":"x","b":-3,"c":2.5,"d":true}"#).expect("decodes");
            assert_eq!(map.get("b"), Some(&BackgroundPrimitive::from(-3_i32)));
            let json = to_json(&map);
            assert_eq!(json.get("b").and_then(Value::as_i64), Some(-3));
            assert_eq!(json.get("c").and_then(Value::as_f64), Some(2.5));
            rejects::<BackgroundPrimitive>("null", "a string, a number or a boolean");
            rejects::<BackgroundPrimitive>("[1]", "a string, a number or a boolean");
            assert!(serde_json::to_value(BackgroundPrimitive::Number(f64::NAN)).is_err());
            assert!(serde_json::to_value(BackgroundPrimitive::Number(f64::INFINITY)).is_err());
        }

        fn provider_profile_debug_hides_the_api_key() {
            let profile = SerializableProviderProfile::new("openai", "gpt").with_api_key("sk-secret-123");
            let debug = alloc::format!("{profile:?}");
            assert!(!debug.contains("sk-secret-123"), "{debug}");
            assert!(debug.contains("<redacted>"));
            // The wire form still carries the key: the caller chose to hand it over.
            assert_eq!(to_json(&profile).get("apiKey"), Some(&Value::from("sk-secret-123")));
        }

        // ---- bad input ----

        fn rejects_wrong_request_kind() {
            rejects::<BackgroundTaskRequest>(
                r#"{"kind":"cron","label":"l","mode":"background","parentSessionId":"p","depth":0,
                "cwd":"/w","cronExpression":"* * * * *","command":"ls"}"#,
                "unknown variant `cron`",
            );
        }

        fn rejects_request_without_cwd() {
            rejects::<BackgroundTaskRequest>(
                r#"{"kind":"process","label":"l","mode":"background","parentSessionId":"p",
                "depth":0,"command":"ls"}"#,
                "missing field `cwd`",
            );
        }

        fn rejects_request_without_depth() {
            rejects::<BackgroundTaskRequest>(
                r#"{"kind":"agent","label":"l","mode":"background","parentSessionId":"p",
                "cwd":"/w","agentType":"a","prompt":"go","permissionPolicy":"deny"}"#,
                "missing field `depth`",
            );
        }

        fn rejects_request_without_permission_policy() {
            rejects::<AgentBackgroundTaskRequest>(
                r#"{"label":"l","mode":"background","parentSessionId":"p","depth":0,"cwd":"/w",
                "agentType":"a","prompt":"go"}"#,
                "missing field `permissionPolicy`",
            );
        }

        fn rejects_negative_depth() {
            rejects::<BackgroundTaskRequest>(
                r#"{"kind":"process","label":"l","mode":"background","parentSessionId":"p",
                "depth":-1,"cwd":"/w","command":"ls"}"#,
                "invalid value: integer `-1`",
            );
        }

        fn rejects_provenance_owner_other_than_mcp() {
            let text = include_str!("../golden/execution/request_tool_invocation.json")
                .replacen(r#""provenanceOwner": "mcp""#, r#""provenanceOwner": "plugin""#, 1);
            rejects::<BackgroundTaskRequest>(&text, "unknown variant `plugin`, expected `mcp`");
            let missing = include_str!("../golden/execution/request_tool_invocation.json")
                .replacen(r#""provenanceOwner": "mcp","#, "", 1);
            rejects::<BackgroundTaskRequest>(&missing, "provenanceOwner");
        }
    }

    // Results, task state, errors, inputs, log pages and list filters.
    mod task_results_and_state {
        // ---- golden round trips: results ----

        fn agent_result_round_trips() {
            let result: BackgroundTaskResult =
                golden("result_agent", include_str!("../golden/execution/result_agent.json"));
            assert_eq!(result.kind(), BackgroundTaskKind::Agent);
            assert_eq!(result.task_id(), "task-1");
            assert_eq!(result.output(), "No issues found.");
            assert_eq!(result.exit_code(), None);
            assert_eq!(
                result.usage(),
                Some(&TokenUsage::new(1200, 80, 1280))
            );
            let metadata = result.base().metadata.as_ref().expect("metadata");
            assert_eq!(metadata.get("turns").and_then(BackgroundPrimitive::as_f64), Some(3.0));
        }

        fn process_result_round_trips() {
            let result: BackgroundTaskResult =
                golden("result_process", include_str!("../golden/execution/result_process.json"));
            assert_eq!(result.kind(), BackgroundTaskKind::Process);
            assert_eq!(result.exit_code(), Some(-1));
            assert_eq!(result.usage(), None);
            let BackgroundTaskResult::Process(process) = &result else {
                panic!("expected a process result, got {result:?}");
            };
            assert_eq!(process.signal_code.as_deref(), Some("SIGTERM"));
            assert_eq!(process.base.output, "terminated");
        }

        fn scheduled_result_round_trips() {
            let result: BackgroundTaskResult =
                golden("result_scheduled", include_str!("../golden/execution/result_scheduled.json"));
            assert_eq!(result.kind(), BackgroundTaskKind::Scheduled);
            assert_eq!(result.task_id(), "task-3");
            assert_eq!(result.output(), "3 tests failed");
            assert_eq!((result.usage(), result.exit_code()), (None, None));
        }

        fn tool_invocation_result_round_trips() {
            let result: BackgroundTaskResult = golden(
                "result_tool_invocation",
                include_str!("../golden/execution/result_tool_invocation.json"),
            );
            assert_eq!(result.kind(), BackgroundTaskKind::ToolInvocation);
            assert_eq!(result.output(), "{\"rows\":42}");
            assert_eq!(result.base().metadata, None);
        }

        // ---- golden round trips: task records ----

        fn task_state_with_result_and_error_round_trips() {
            let state: BackgroundTaskState =
                golden("task_state", include_str!("../golden/execution/task_state.json"));
            assert_eq!(state.id(), "task-1");
            assert_eq!(state.kind, BackgroundTaskKind::Agent);
            assert_eq!(state.agent_type.as_deref(), Some("general-purpose"));
            assert_eq!(state.status, BackgroundTaskStatus::Failed);
            assert!(state.is_terminal());
            assert_eq!(state.normalized_state(), ExecutionNormalizedState::Failed);
            assert_eq!(state.job.depth, 1);
            assert_eq!(state.job.pid, Some(4242));
            assert_eq!(state.job.isolation, Some(BackgroundTaskIsolation::Worktree));
            assert_eq!(state.attach_session_id(), Some("sess-fork-7"));
            assert_eq!(state.job.timeout_reason, Some(BackgroundTaskTimeoutReason::Idle));
            assert_eq!(state.job.branch_name.as_deref(), Some("task/task-1"));
            assert_eq!(state.job.worktree_base_revision.as_deref(), Some("a1b2c3d"));
            assert_eq!(state.job.parent_worktree_status.as_deref(), Some("clean"));
            assert_eq!(state.parent_task_id.as_deref(), Some("task-0"));
            assert_eq!(state.last_activity_at.as_deref(), Some("2026-09-24T10:04:59.000Z"));
            assert_eq!(state.current_action.as_deref(), Some("Reading src/lib.rs"));
            assert!(state.unread);
            let result = state.result.as_ref().expect("result");
            assert_eq!(result.kind(), state.kind);
            assert_eq!(result.usage().map(|usage| usage.total_tokens), Some(940));
            let error = state.error.as_ref().expect("error");
            assert_eq!(error.category, BackgroundTaskErrorCategory::Timeout);
            assert!(error.recoverable);
            assert_eq!(state.schedule, None);
        }

        fn task_error_round_trips_and_crosses_boundaries() {
            let error: BackgroundTaskError =
                golden("task_error", include_str!("../golden/execution/task_error.json"));
            assert_eq!(
                error,
                BackgroundTaskError::new(
                    BackgroundTaskErrorCategory::Capacity,
                    "8 tasks already running",
                    false
                )
            );
            assert_eq!(alloc::format!("{error}"), "capacity: 8 tasks already running");
            let boxed: Box<dyn core::error::Error> = Box::new(error.clone());
            assert_eq!(alloc::format!("{boxed}"), "capacity: 8 tasks already running");
            let result: Result<(), BackgroundTaskError> = Err(error);
            assert!(result.is_err_and(|e| !e.recoverable));
        }

        fn schedule_round_trips() {
            let schedule: BackgroundTaskSchedule =
                golden("schedule", include_str!("../golden/execution/schedule.json"));
            assert_eq!(schedule.cron_expression, "*/15 * * * *");
            assert_eq!(schedule.agent_instruction.as_deref(), Some("Check the deploy."));
            assert!(schedule.wakes_session());
            assert!(!schedule.runs_command());
            let env = schedule.env.as_ref().expect("env");
            assert_eq!(env.get("TZ").map(String::as_str), Some("UTC"));
        }

        fn task_input_round_trips() {
            let input: BackgroundTaskInput =
                golden("task_input", include_str!("../golden/execution/task_input.json"));
            assert_eq!(input.prompt.as_deref(), Some("Also check the tests."));
            assert_eq!(input.stdin.as_deref(), Some("q\n"));
            let empty: BackgroundTaskInput = golden("task_input_empty", "{}");
            assert_eq!(empty, BackgroundTaskInput::default());
        }

        fn log_page_round_trips() {
            let page: BackgroundTaskLogPage =
                golden("log_page", include_str!("../golden/execution/log_page.json"));
            assert_eq!(page.task_id, "task-2");
            assert_eq!(page.cursor, Some(BackgroundTaskLogCursor::new(100)));
            assert_eq!(page.next_cursor, Some(BackgroundTaskLogCursor::new(103)));
            assert_eq!(page.lines.len(), 3);
            assert_eq!(page.lines[1], "ready on port 3000");
        }

        fn list_filter_round_trips() {
            let filter: BackgroundTaskListFilter =
                golden("list_filter", include_str!("../golden/execution/list_filter.json"));
            assert_eq!(filter.kind, Some(BackgroundTaskKind::Scheduled));
            assert_eq!(filter.status, Some(BackgroundTaskStatus::Paused));
            assert_eq!(filter.mode, Some(BackgroundTaskMode::Background));
            assert_eq!(filter.include_closed, Some(true));
            let all: BackgroundTaskListFilter = golden("list_filter_empty", "{}");
            assert_eq!(all, BackgroundTaskListFilter::default());
        }

        // ---- golden round trips: subagents ----

        fn subagent_job_result_round_trips() {
            let result: SubagentJobResult = golden(
                "subagent_job_result",
                include_str!("../golden/execution/subagent_job_result.json"),
            );
            assert_eq!(result.base.task_id, "task-8");
            assert_eq!(result.base.output, "src/config.rs");
            assert_eq!(result.usage.map(total_of), Some(312));
        }

        // ---- type parity (§3.7) ----

        fn background_task_usage_is_token_usage() {
            assert_eq!(
                core::any::TypeId::of::<BackgroundTaskUsage>(),
                core::any::TypeId::of::<TokenUsage>()
            );
            assert_eq!(
                core::any::TypeId::of::<SessionUsageTotals>(),
                core::any::TypeId::of::<BackgroundTaskUsage>()
            );
            let usage: BackgroundTaskUsage = BackgroundTaskUsage::new(5, 2, 7);
            assert_eq!(total_of(usage), 7);
        }

        fn job_result_is_agent_result_minus_kind() {
            let result: SubagentJobResult =
                AgentBackgroundTaskResult::new(BackgroundTaskResultBase::new("task-8", "done"))
                    .with_usage(TokenUsage::new(1, 1, 2));
            let mut with_kind = object(to_json(&result));
            assert_eq!(sorted_keys(&with_kind), ["output", "taskId", "usage"]);
            with_kind.insert(s("kind"), Value::from("agent"));
            let tagged = to_json(&BackgroundTaskResult::from(result));
            assert!(json_eq(&tagged, &Value::Object(with_kind)));
        }

        // ---- rules (§3.6) ----

        fn task_status_terminality() {
            let terminal: Vec<BackgroundTaskStatus> =
                BackgroundTaskStatus::ALL.iter().copied().filter(|s| s.is_terminal()).collect();
            assert_eq!(
                terminal,
                [BackgroundTaskStatus::Completed, BackgroundTaskStatus::Failed, BackgroundTaskStatus::Cancelled]
            );
            assert!(!BackgroundTaskStatus::Paused.is_terminal());
        }

        fn task_state_refuses_a_result_of_another_kind() {
            let text = include_str!("../golden/execution/event_completed.json");
            let task = text
                .split_once(r#""task": "#)
                .map(|(_, rest)| rest.trim_end().trim_end_matches('}'))
                .expect("a task object");
            let state: BackgroundTaskState = serde_json::from_str(task).expect("decodes");
            assert_eq!(state.kind, BackgroundTaskKind::Process);
            let agent = task.replacen(r#""kind": "process""#, r#""kind": "agent""#, 1);
            rejects::<BackgroundTaskState>(&agent, "`result` of kind `process`");
        }

        // ---- bad input ----

        fn rejects_wrong_result_kind() {
            rejects::<BackgroundTaskResult>(
                r#"{"kind":"cron","taskId":"t","output":""}"#,
                "unknown variant `cron`",
            );
        }

        fn rejects_fractional_offset() {
            rejects::<BackgroundTaskLogCursor>(r#"{"offset":1.5}"#, "1.5");
            rejects::<ExecutionDetailCursor>(r#"{"offset":1.5}"#, "1.5");
        }

        fn rejects_negative_pid() {
            rejects::<BackgroundTaskState>(
                r#"{"id":"t","kind":"process","label":"l","status":"running","mode":"background",
                "parentSessionId":"p","depth":0,"cwd":"/w","pid":-4,"updatedAt":"u",
                "unread":false}"#,
                "invalid value: integer `-4`",
            );
        }

        fn rejects_process_result_carrying_usage() {
            rejects::<BackgroundTaskResult>(
                r#"{"kind":"process","taskId":"t","output":"","exitCode":0,
                "usage":{"promptTokens":1,"completionTokens":1,"totalTokens":2}}"#,
                "`usage`",
            );
        }

        fn rejects_agent_result_carrying_exit_code() {
            rejects::<BackgroundTaskResult>(
                r#"{"kind":"agent","taskId":"t","output":"","exitCode":0}"#,
                "`exitCode`",
            );
            rejects::<SubagentJobResult>(r#"{"taskId":"t","output":"","signalCode":"SIGINT"}"#, "`signalCode`");
        }

        fn rejects_kind_specific_fields_on_scheduled_and_tool_results() {
            rejects::<BackgroundTaskResult>(
                r#"{"kind":"scheduled","taskId":"t","output":"","exitCode":1}"#,
                "`exitCode`",
            );
            rejects::<BackgroundTaskResult>(
                r#"{"kind":"tool-invocation","taskId":"t","output":"",
                "usage":{"promptTokens":1,"completionTokens":1,"totalTokens":2}}"#,
                "`usage`",
            );
        }
    }

    // Task events (`BackgroundTaskEvent`), one per type, and their listener.
    mod task_events {
        // ---- golden round trips: task events, one per type ----

        fn created_event_round_trips() {
            let event = task_event(
                "event_created",
                include_str!("../golden/execution/event_created.json"),
                BackgroundTaskEventType::Created,
                "task-5",
            );
            let task = event.task().expect("task");
            assert_eq!(task.kind, BackgroundTaskKind::Process);
            assert_eq!(task.status, BackgroundTaskStatus::Queued);
            assert_eq!(task.command_preview.as_deref(), Some("cargo build"));
        }

        fn started_event_round_trips() {
            let event = task_event(
                "event_started",
                include_str!("../golden/execution/event_started.json"),
                BackgroundTaskEventType::Started,
                "task-5",
            );
            let task = event.task().expect("task");
            assert_eq!(task.status, BackgroundTaskStatus::Running);
            assert_eq!(task.job.pid, Some(77));
            assert_eq!(task.job.started_at.as_deref(), Some("2026-09-24T11:00:01.000Z"));
        }

        fn updated_event_round_trips() {
            let event = task_event(
                "event_updated",
                include_str!("../golden/execution/event_updated.json"),
                BackgroundTaskEventType::Updated,
                "task-6",
            );
            let task = event.task().expect("task");
            assert_eq!(task.status, BackgroundTaskStatus::Sleeping);
            assert_eq!(task.next_fire_at.as_deref(), Some("2026-09-25T03:00:00.000Z"));
            let schedule = task.schedule.as_ref().expect("schedule");
            assert_eq!(schedule.cron_expression, "0 3 * * *");
            assert!(!schedule.wakes_session());
        }

        fn text_delta_event_round_trips() {
            let event = task_event(
                "event_text_delta",
                include_str!("../golden/execution/event_text_delta.json"),
                BackgroundTaskEventType::TextDelta,
                "task-1",
            );
            assert_eq!(
                event,
                BackgroundTaskEvent::TextDelta { task_id: s("task-1"), delta: s("Looking at ") }
            );
            assert!(event.task().is_none());
        }

        fn tool_start_event_round_trips() {
            let event = task_event(
                "event_tool_start",
                include_str!("../golden/execution/event_tool_start.json"),
                BackgroundTaskEventType::ToolStart,
                "task-1",
            );
            assert_eq!(
                event,
                BackgroundTaskEvent::ToolStart {
                    task_id: s("task-1"),
                    tool_name: s("Read"),
                    first_arg: Some(s("src/lib.rs")),
                }
            );
        }

        fn tool_end_event_round_trips() {
            let event = task_event(
                "event_tool_end",
                include_str!("../golden/execution/event_tool_end.json"),
                BackgroundTaskEventType::ToolEnd,
                "task-1",
            );
            assert_eq!(
                event,
                BackgroundTaskEvent::ToolEnd {
                    task_id: s("task-1"),
                    tool_name: s("Read"),
                    success: false,
                    error: Some(s("file not found")),
                }
            );
        }

        fn permission_request_event_round_trips() {
            let event = task_event(
                "event_permission_request",
                include_str!("../golden/execution/event_permission_request.json"),
                BackgroundTaskEventType::PermissionRequest,
                "task-1",
            );
            let BackgroundTaskEvent::PermissionRequest { request_id, tool_name, tool_args, .. } = &event
            else {
                panic!("expected a permission request, got {event:?}");
            };
            assert_eq!(request_id, "perm-9");
            assert_eq!(tool_name, "Bash");
            assert_eq!(tool_args.get("command").and_then(BackgroundPrimitive::as_str), Some("rm -rf build"));
            assert_eq!(tool_args.get("timeout"), Some(&BackgroundPrimitive::from(30_u32)));
            assert_eq!(tool_args.get("background"), Some(&BackgroundPrimitive::Bool(false)));
        }

        fn completed_event_round_trips() {
            let event = task_event(
                "event_completed",
                include_str!("../golden/execution/event_completed.json"),
                BackgroundTaskEventType::Completed,
                "task-5",
            );
            let task = event.task().expect("task");
            assert_eq!(task.normalized_state(), ExecutionNormalizedState::Completed);
            let result = task.result.as_ref().expect("result");
            assert_eq!(result.kind(), BackgroundTaskKind::Process);
            assert_eq!(result.exit_code(), Some(0));
        }

        fn failed_event_round_trips() {
            let event = task_event(
                "event_failed",
                include_str!("../golden/execution/event_failed.json"),
                BackgroundTaskEventType::Failed,
                "task-4",
            );
            let task = event.task().expect("task");
            assert_eq!(task.kind, BackgroundTaskKind::ToolInvocation);
            let error = task.error.as_ref().expect("error");
            assert_eq!(error.category, BackgroundTaskErrorCategory::Runner);
            assert!(!error.recoverable);
        }

        fn cancelled_event_round_trips() {
            let event = task_event(
                "event_cancelled",
                include_str!("../golden/execution/event_cancelled.json"),
                BackgroundTaskEventType::Cancelled,
                "task-6",
            );
            let task = event.task().expect("task");
            assert_eq!(task.status, BackgroundTaskStatus::Cancelled);
            assert_eq!(task.normalized_state(), ExecutionNormalizedState::Stopped);
        }

        fn closed_event_round_trips() {
            let event = task_event(
                "event_closed",
                include_str!("../golden/execution/event_closed.json"),
                BackgroundTaskEventType::Closed,
                "task-6",
            );
            assert_eq!(event, BackgroundTaskEvent::Closed { task_id: s("task-6") });
        }

        fn waking_event_round_trips() {
            let event = task_event(
                "event_waking",
                include_str!("../golden/execution/event_waking.json"),
                BackgroundTaskEventType::Waking,
                "task-2",
            );
            let BackgroundTaskEvent::Waking { instruction, .. } = &event else {
                panic!("expected a waking event, got {event:?}");
            };
            assert_eq!(instruction.as_deref(), Some("The dev server is up; open the page."));
            let bare: BackgroundTaskEvent =
                golden("event_waking_bare", r#"{"type":"background_task_waking","taskId":"t"}"#);
            assert_eq!(bare, BackgroundTaskEvent::Waking { task_id: s("t"), instruction: None });
        }

        fn task_event_listener_is_a_closure() {
            let mut seen: Vec<String> = Vec::new();
            {
                let mut listener = |event: &BackgroundTaskEvent| seen.push(s(event.task_id()));
                let port: &mut dyn BackgroundTaskEventListener = &mut listener;
                port.on_event(&BackgroundTaskEvent::Closed { task_id: s("a") });
                port.on_event(&BackgroundTaskEvent::Waking { task_id: s("b"), instruction: None });
            }
            assert_eq!(seen, vec![s("a"), s("b")]);
        }

        // ---- bad input ----

        fn rejects_wrong_task_event_type() {
            rejects::<BackgroundTaskEvent>(
                r#"{"type":"background_task_paused","taskId":"t"}"#,
                "unknown variant `background_task_paused`",
            );
        }
    }

    // Job groups and subagent jobs.
    mod job_groups_and_subagents {
        // ---- golden round trips: job groups ----

        fn job_group_state_round_trips() {
            let group: BackgroundJobGroupState =
                golden("job_group_state", include_str!("../golden/execution/job_group_state.json"));
            assert_eq!(group.id, "group-1");
            assert_eq!(group.wait_policy, BackgroundJobWaitPolicy::WaitAll);
            assert_eq!(group.task_ids, vec![s("task-1"), s("task-2")]);
            assert_eq!(group.status, BackgroundJobGroupStatus::Running);
            assert_eq!(group.label.as_deref(), Some("review + build"));
            assert_eq!(group.completed_at, None);
            assert_eq!(group.results.len(), 1);
            let envelope = &group.results[0];
            assert_eq!(envelope.status, BackgroundTaskStatus::Failed);
            assert_eq!(envelope.summary.as_deref(), Some("Partial review."));
            assert_eq!(envelope.output_ref.as_deref(), Some("/tmp/task-1.log"));
            assert_eq!(envelope.error.as_ref().map(|e| e.category), Some(BackgroundTaskErrorCategory::Timeout));
            // A recorded failure makes the whole group read as failed, though it still runs.
            assert_eq!(group.normalized_state(), ExecutionNormalizedState::Failed);
        }

        fn job_group_summary_round_trips() {
            let summary: BackgroundJobGroupSummary = golden(
                "job_group_summary",
                include_str!("../golden/execution/job_group_summary.json"),
            );
            assert_eq!(summary.group_id, "group-1");
            assert_eq!(summary.status, BackgroundJobGroupStatus::Completed);
            assert_eq!(
                (summary.total, summary.completed, summary.failed, summary.cancelled, summary.pending),
                (3, 1, 1, 1, 0)
            );
            assert_eq!(summary.lines.len(), 3);
        }

        fn job_group_create_request_round_trips() {
            let request: BackgroundJobGroupCreateRequest = golden(
                "job_group_create_request",
                include_str!("../golden/execution/job_group_create_request.json"),
            );
            assert_eq!(request.parent_session_id, "sess-1");
            assert_eq!(request.wait_policy, BackgroundJobWaitPolicy::WaitAny);
            assert_eq!(request.task_ids.len(), 2);
            assert_eq!(request.label.as_deref(), Some("race"));
            let mut next = 0_u32;
            let mut factory = |request: &BackgroundJobGroupCreateRequest| {
                next += 1;
                alloc::format!("{}-group-{next}", request.parent_session_id)
            };
            let port: &mut dyn BackgroundJobGroupIdFactory = &mut factory;
            assert_eq!(port.group_id(&request), "sess-1-group-1");
            assert_eq!(port.group_id(&request), "sess-1-group-2");
        }

        fn job_group_events_round_trip() {
            let created: BackgroundJobGroupEvent = golden(
                "job_group_event_created",
                include_str!("../golden/execution/job_group_event_created.json"),
            );
            let updated: BackgroundJobGroupEvent = golden(
                "job_group_event_updated",
                include_str!("../golden/execution/job_group_event_updated.json"),
            );
            let completed: BackgroundJobGroupEvent = golden(
                "job_group_event_completed",
                include_str!("../golden/execution/job_group_event_completed.json"),
            );
            assert_eq!(created.event_type(), BackgroundJobGroupEventType::Created);
            assert_eq!(updated.event_type(), BackgroundJobGroupEventType::Updated);
            assert_eq!(completed.event_type(), BackgroundJobGroupEventType::Completed);
            assert!(matches!(created, BackgroundJobGroupEvent::Created { .. }));
            assert!(matches!(completed, BackgroundJobGroupEvent::Completed { .. }));
            assert_eq!(created.group().wait_policy, BackgroundJobWaitPolicy::Detached);
            assert_eq!(created.group().normalized_state(), ExecutionNormalizedState::Working);
            assert_eq!(completed.group().status, BackgroundJobGroupStatus::Completed);
            assert_eq!(completed.group().normalized_state(), ExecutionNormalizedState::Completed);
            assert_eq!(completed.group().completed_at.as_deref(), Some("2026-09-24T10:09:00.000Z"));
            let mut types = Vec::new();
            let mut listener = |event: &BackgroundJobGroupEvent| types.push(event.event_type());
            for event in [&created, &updated, &completed] {
                BackgroundJobGroupEventListener::on_event(&mut listener, event);
            }
            assert_eq!(types, BackgroundJobGroupEventType::ALL);
        }

        // ---- golden round trips: subagents ----

        fn subagent_job_state_round_trips() {
            let job: SubagentJobState = golden(
                "subagent_job_state",
                include_str!("../golden/execution/subagent_job_state.json"),
            );
            assert_eq!(job.id(), "task-1");
            assert_eq!(job.agent_type, "general-purpose");
            assert_eq!(job.status, SubagentJobStatus::WaitingPermission);
            assert_eq!(job.job.mode, BackgroundTaskMode::Foreground);
            assert_eq!(job.job.depth, 1);
            assert_eq!(job.job.pid, Some(4242));
            assert_eq!(job.job.isolation, Some(BackgroundTaskIsolation::None));
            assert_eq!(job.job.resume_session_id.as_deref(), Some("sess-fork-7"));
            assert_eq!(job.job.timeout_reason, Some(BackgroundTaskTimeoutReason::Repetition));
            assert_eq!(job.prompt_preview, "Review the staged diff.");
            assert_eq!(job.current_tool.as_deref(), Some("Bash"));
            assert_eq!(job.result.as_deref(), Some("so far: 2 findings"));
            assert_eq!(job.error.as_deref(), Some("permission pending"));
        }

        // ---- type parity (§3.7) ----

        fn subagent_status_is_task_status_minus_paused() {
            let mut union: Vec<BackgroundTaskStatus> =
                SubagentJobStatus::ALL.iter().map(|status| BackgroundTaskStatus::from(*status)).collect();
            assert!(!union.contains(&BackgroundTaskStatus::Paused));
            union.push(BackgroundTaskStatus::Paused);
            union.sort_unstable();
            let mut task: Vec<BackgroundTaskStatus> = BackgroundTaskStatus::ALL.to_vec();
            task.sort_unstable();
            assert_eq!(union, task);
            for status in SubagentJobStatus::ALL {
                assert_eq!(status.as_str(), BackgroundTaskStatus::from(*status).as_str());
            }
        }

        fn subagent_status_converts_both_ways() {
            for status in BackgroundTaskStatus::ALL {
                match SubagentJobStatus::try_from(*status) {
                    Ok(job) => assert_eq!(BackgroundTaskStatus::from(job), *status),
                    Err(refusal) => {
                        assert_eq!(*status, BackgroundTaskStatus::Paused);
                        assert_eq!(refusal, PausedSubagentStatus);
                        assert!(alloc::format!("{refusal}").contains("paused"));
                    }
                }
                assert_eq!(
                    SubagentJobStatus::from_task_status(*status).is_terminal(),
                    status.is_terminal()
                );
            }
            assert_eq!(
                SubagentJobStatus::from_task_status(BackgroundTaskStatus::Paused),
                SubagentJobStatus::Sleeping
            );
            assert!(SubagentJobStatus::try_from(BackgroundTaskStatus::Paused).is_err());
        }

        fn subagent_mode_is_task_mode() {
            let mode: SubagentJobMode = BackgroundTaskMode::Background;
            assert!(is_background(mode));
            assert_eq!(SubagentJobMode::LITERALS, BackgroundTaskMode::LITERALS);
        }

        fn job_state_shares_task_state_fields() {
            let task: BackgroundTaskState =
                golden("task_state", include_str!("../golden/execution/task_state.json"));
            let job = SubagentJobState::new(
                task.job.clone(),
                "general-purpose",
                SubagentJobStatus::from_task_status(task.status),
                "Review the staged diff.",
            );
            let shared = object(to_json(&task.job));
            let task_json = object(to_json(&task));
            let job_json = object(to_json(&job));
            assert!(shared.len() >= 20, "the shared fields are all present in the golden state");
            for (key, value) in &shared {
                assert_eq!(task_json.get(key), Some(value), "task state field {key}");
                assert_eq!(job_json.get(key), Some(value), "subagent job field {key}");
            }
            // The job's own fields are exactly these beyond the shared ones.
            let own: Vec<&str> = sorted_keys(&job_json)
                .into_iter()
                .filter(|key| !shared.contains_key(*key))
                .collect();
            assert_eq!(own, ["promptPreview", "status", "type"]);
        }

        // ---- rules (§3.6) ----

        fn subagent_status_is_never_paused() {
            assert!(!SubagentJobStatus::LITERALS.contains(&"paused"));
            rejects::<SubagentJobStatus>("\"paused\"", "unknown variant `paused`");
            let text = include_str!("../golden/execution/subagent_job_state.json")
                .replacen(r#""waiting_permission""#, r#""paused""#, 1);
            rejects::<SubagentJobState>(&text, "paused");
        }

        // ---- bad input ----

        fn rejects_wrong_group_event_type() {
            rejects::<BackgroundJobGroupEvent>(
                r#"{"type":"background_task_created","group":{}}"#,
                "unknown variant `background_task_created`",
            );
        }

        fn rejects_negative_counts() {
            rejects::<BackgroundJobGroupSummary>(
                r#"{"groupId":"g","status":"running","total":-1,"completed":0,"failed":0,
                "cancelled":0,"pending":0,"lines":[]}"#,
                "invalid value: integer `-1`",
            );
            rejects::<ExecutionSelfPacedLoopSummary>(
                r#"{"loopId":"l","instruction":"i","phase":"waiting","createdAt":"c","delaySeconds":0.5}"#,
                "0.5",
            );
        }
    }

    // The execution workspace: entries, snapshots, events, details and their inputs.
    mod workspace {
        // ---- golden round trips: workspace ----

        fn workspace_entry_with_loop_id_round_trips() {
            let entry: ExecutionWorkspaceEntry = golden(
                "workspace_entry_loop",
                include_str!("../golden/execution/workspace_entry_loop.json"),
            );
            assert_eq!(entry.kind, ExecutionEntryKind::BackgroundTask);
            assert_eq!(entry.source_id, "task-9");
            assert_eq!(entry.parent_id.as_deref(), Some("entry-main"));
            assert_eq!(entry.group_id.as_deref(), Some("group-3"));
            assert_eq!(entry.origin.kind, ExecutionOriginKind::SlashCommand);
            assert_eq!(entry.origin.command_name.as_deref(), Some("loop"));
            assert_eq!(entry.origin.skill_id.as_deref(), Some("skill-1"));
            assert_eq!(entry.task_kind, Some(BackgroundTaskKind::Scheduled));
            assert_eq!(entry.status, ExecutionWorkspaceStatus::Task(BackgroundTaskStatus::Sleeping));
            assert_eq!(entry.visibility, ExecutionWorkspaceVisibility::Collapsed);
            assert_eq!(
                entry.controls,
                vec![ExecutionControl::Select, ExecutionControl::Cancel, ExecutionControl::ReadLog]
            );
            assert_eq!(entry.state, ExecutionNormalizedState::Working);
            assert_eq!(
                entry.headline,
                Some(ExecutionHeadline::new(ExecutionHeadlineKind::Activity, "check CI"))
            );
            assert_eq!(entry.next_fire_at.as_deref(), Some("2026-09-24T12:05:00.000Z"));
            assert_eq!(entry.loop_id.as_deref(), Some("loop-42"));
            assert_eq!(entry.denied_tool_calls, Some(2));
            assert_eq!(entry.cancel_route(), CancelRoute::StopLoop { loop_id: "loop-42" });
            assert!(!entry.offers_attach());
        }

        fn workspace_snapshot_round_trips() {
            let snapshot: ExecutionWorkspaceSnapshot = golden(
                "workspace_snapshot",
                include_str!("../golden/execution/workspace_snapshot.json"),
            );
            assert_eq!(snapshot.session_id, "sess-1");
            assert_eq!(snapshot.selected_entry_id.as_deref(), Some("entry-task-10"));
            assert_eq!(snapshot.entries.len(), 2);
            let main = &snapshot.entries[0];
            assert_eq!(main.kind, ExecutionEntryKind::MainThread);
            assert_eq!(main.status, ExecutionWorkspaceStatus::Idle);
            assert_eq!(main.state, main.status.normalized_state());
            assert_eq!(main.cancel_route(), CancelRoute::NotCancellable);
            let fork = &snapshot.entries[1];
            assert_eq!(fork.attention, ExecutionAttention::Permission);
            assert_eq!(fork.state, ExecutionNormalizedState::NeedsInput);
            assert!(fork.offers_attach());
            assert!(fork.controls.contains(&ExecutionControl::Attach));
            assert_eq!(fork.attach_session_id(), Some("sess-fork-9"));
            assert_eq!(fork.cancel_route(), CancelRoute::CancelTask { task_id: "task-10" });
            assert_eq!(fork.headline.as_ref().map(|h| h.kind), Some(ExecutionHeadlineKind::Question));
        }

        fn workspace_event_round_trips() {
            let event: ExecutionWorkspaceEvent =
                golden("workspace_event", include_str!("../golden/execution/workspace_event.json"));
            assert_eq!(event.event_type(), ExecutionWorkspaceEventType::ExecutionWorkspaceUpdated);
            assert_eq!(event.cause, ExecutionWorkspaceUpdateCause::BackgroundGroup);
            assert_eq!(event.entry_id.as_deref(), Some("entry-group-3"));
            assert!(event.snapshot.entries.is_empty());
            assert_eq!(event.snapshot.selected_entry_id, None);
            let json = to_json(&event);
            assert_eq!(json.get("type"), Some(&Value::from("execution_workspace_updated")));
        }

        fn snapshot_options_round_trip() {
            let options: ExecutionWorkspaceSnapshotOptions = golden(
                "snapshot_options",
                include_str!("../golden/execution/snapshot_options.json"),
            );
            assert_eq!(options.selected_entry_id.as_deref(), Some("entry-main"));
            let filter = options.filter.as_ref().expect("filter");
            assert_eq!(filter.include_main_thread, Some(false));
            assert_eq!(
                filter.kinds,
                Some(vec![ExecutionEntryKind::BackgroundTask, ExecutionEntryKind::BackgroundGroup])
            );
            assert_eq!(filter.visibility, Some(vec![ExecutionWorkspaceVisibility::Default]));
            let none: ExecutionWorkspaceSnapshotOptions = golden("snapshot_options_empty", "{}");
            assert_eq!(none, ExecutionWorkspaceSnapshotOptions::default());
        }

        fn detail_record_and_page_round_trip() {
            let record: ExecutionDetailRecord =
                golden("detail_record", include_str!("../golden/execution/detail_record.json"));
            assert_eq!(record.kind, ExecutionDetailRecordKind::ToolActivity);
            assert_eq!(record.text, "Read src/lib.rs");
            assert_eq!(record.timestamp.as_deref(), Some("2026-09-24T12:00:00.000Z"));
            assert_eq!(record.source_id.as_deref(), Some("hist-4"));
            let page: ExecutionDetailPage =
                golden("detail_page", include_str!("../golden/execution/detail_page.json"));
            assert_eq!(page.entry_id, "entry-task-10");
            assert_eq!(page.cursor, Some(ExecutionDetailCursor::new(0)));
            assert_eq!(page.next_cursor, Some(ExecutionDetailCursor::new(2)));
            assert_eq!(page.records.len(), 2);
            assert_eq!(page.records[0].kind, ExecutionDetailRecordKind::Message);
            assert_eq!(page.records[1].kind, ExecutionDetailRecordKind::Error);
            assert_eq!(page.records[1].source_id.as_deref(), Some("task-10"));
        }

        fn main_thread_entry_input_round_trips() {
            let input: CreateMainThreadEntryInput = golden(
                "main_thread_entry_input",
                include_str!("../golden/execution/main_thread_entry_input.json"),
            );
            assert!(input.is_executing);
            assert!(input.has_pending_prompt);
            assert_eq!(input.history_length, 57);
            assert_eq!(input.preview.as_deref(), Some("Editing src/main.rs"));
            let pending = input.pending_request.as_ref().expect("pending request");
            assert_eq!(pending.kind, ExecutionPendingRequestKind::Permission);
            assert_eq!(pending.text, "Allow Bash: cargo test?");
            assert_eq!(input.status(), ExecutionWorkspaceStatus::Active);
            // The parked prompt wins over the running turn.
            assert_eq!(input.normalized_state(), ExecutionNormalizedState::NeedsInput);
        }

        fn self_paced_loop_summary_round_trips() {
            let summary: ExecutionSelfPacedLoopSummary = golden(
                "self_paced_loop_summary",
                include_str!("../golden/execution/self_paced_loop_summary.json"),
            );
            assert_eq!(summary.loop_id, "loop-7");
            assert_eq!(summary.instruction, "keep the build green");
            assert_eq!(summary.phase, ExecutionSelfPacedLoopPhase::Running);
            assert_eq!(summary.delay_seconds, Some(270));
            assert_eq!(summary.reason.as_deref(), Some("CI still running"));
            assert!(summary.needs_own_entry());
        }

        fn snapshot_input_round_trips() {
            let input: CreateExecutionWorkspaceSnapshotInput =
                golden("snapshot_input", include_str!("../golden/execution/snapshot_input.json"));
            assert_eq!(input.session_id, "sess-1");
            assert_eq!(input.main_thread.status(), ExecutionWorkspaceStatus::Idle);
            assert_eq!(input.main_thread.normalized_state(), ExecutionNormalizedState::Completed);
            assert_eq!(input.main_thread.pending_request, None);
            assert_eq!(input.tasks.len(), 1);
            assert_eq!(input.tasks[0].kind, BackgroundTaskKind::Scheduled);
            assert!(input.groups.is_empty());
            let loops = input.self_paced_loops.as_ref().expect("loops");
            assert_eq!(loops[0].phase, ExecutionSelfPacedLoopPhase::Pending);
            assert_eq!(loops[0].delay_seconds, None);
            assert_eq!(input.selected_entry_id.as_deref(), Some("entry-main"));
            assert_eq!(input.filter.as_ref().and_then(|f| f.include_main_thread), Some(true));
        }

        fn entry_ref_round_trips() {
            let reference: ExecutionWorkspaceEntryRef =
                golden("entry_ref", include_str!("../golden/execution/entry_ref.json"));
            assert_eq!(
                reference,
                ExecutionWorkspaceEntryRef::new(ExecutionEntryKind::BackgroundGroup, "group-3")
            );
        }

        fn main_thread_detail_page_input_round_trips() {
            let input: CreateMainThreadDetailPageInput = golden(
                "main_thread_detail_page_input",
                include_str!("../golden/execution/main_thread_detail_page_input.json"),
            );
            assert_eq!(input.entry_id, "entry-main");
            assert_eq!(input.history.len(), 2);
            assert!(input.history[0].is_chat());
            assert_eq!(input.history[0].kind, "user");
            assert_eq!(input.history[1].data, None);
            assert_eq!(input.cursor, Some(ExecutionDetailCursor::new(0)));
            assert_eq!(
                input.pending_request.as_ref().map(|p| p.kind),
                Some(ExecutionPendingRequestKind::Ask)
            );
        }

        fn line_detail_page_input_round_trips() {
            let input: CreateLineDetailPageInput = golden(
                "line_detail_page_input",
                include_str!("../golden/execution/line_detail_page_input.json"),
            );
            assert_eq!(input.entry_id, "entry-task-2");
            assert_eq!(input.lines, vec![s("compiling"), s("ready")]);
            assert_eq!(input.cursor, Some(BackgroundTaskLogCursor::new(10)));
            assert_eq!(input.next_cursor, Some(BackgroundTaskLogCursor::new(12)));
            assert_eq!(input.kind, Some(ExecutionDetailRecordKind::ProcessOutput));
        }

        // ---- type parity (§3.7) ----

        fn workspace_entry_carries_origin() {
            let built = entry(ExecutionEntryKind::MainThread, "sess-1", "Main", &[]);
            let json = to_json(&built);
            assert_eq!(json.pointer("/origin/kind"), Some(&Value::from("slash_command")));
            assert_eq!(json.pointer("/origin/sessionId"), Some(&Value::from("sess-1")));
            rejects::<ExecutionWorkspaceEntry>(
                r#"{"id":"e","sourceId":"s","kind":"main_thread","status":"idle","title":"t",
                "unread":false,"attention":"none","visibility":"default","updatedAt":"u",
                "controls":[],"state":"completed"}"#,
                "origin",
            );
        }

        fn workspace_status_is_active_idle_and_every_task_status() {
            assert_eq!(&ExecutionWorkspaceStatus::LITERALS[..2], &["active", "idle"]);
            assert_eq!(&ExecutionWorkspaceStatus::LITERALS[2..], BackgroundTaskStatus::LITERALS);
            for status in BackgroundTaskStatus::ALL {
                let workspace = ExecutionWorkspaceStatus::from(*status);
                assert_eq!(workspace.task_status(), Some(*status));
                assert_eq!(workspace.as_str(), status.as_str());
            }
            assert_eq!(ExecutionWorkspaceStatus::Idle.task_status(), None);
            literal_round_trip!(ExecutionWorkspaceStatus);
        }

        // ---- rules (§3.6) ----

        fn cancel_routes_to_the_loop_only_with_a_loop_id() {
            let controls = [ExecutionControl::Select, ExecutionControl::Cancel];
            let mut looped = entry(ExecutionEntryKind::BackgroundTask, "task-9", "wake timer", &controls);
            looped.task_kind = Some(BackgroundTaskKind::Scheduled);
            looped.loop_id = Some(s("loop-42"));
            assert_eq!(looped.cancel_route(), CancelRoute::StopLoop { loop_id: "loop-42" });
            looped.loop_id = None;
            assert_eq!(looped.cancel_route(), CancelRoute::CancelTask { task_id: "task-9" });
        }

        fn a_loop_looking_task_without_loop_id_routes_to_the_task() {
            let controls = [ExecutionControl::Cancel];
            let mut schedule =
                entry(ExecutionEntryKind::BackgroundTask, "task-12", "/loop 5m check CI", &controls);
            schedule.task_kind = Some(BackgroundTaskKind::Scheduled);
            schedule.subtitle = Some(s("/loop"));
            assert_eq!(schedule.cancel_route(), CancelRoute::CancelTask { task_id: "task-12" });
        }

        fn cancel_route_of_other_entries() {
            let cancel = [ExecutionControl::Cancel];
            let mut main = entry(ExecutionEntryKind::MainThread, "sess-1", "Main", &cancel);
            assert_eq!(main.cancel_route(), CancelRoute::NotCancellable);
            main.loop_id = Some(s("loop-1"));
            assert_eq!(main.cancel_route(), CancelRoute::StopLoop { loop_id: "loop-1" });
            let group = entry(ExecutionEntryKind::BackgroundGroup, "group-1", "Group", &cancel);
            assert_eq!(group.cancel_route(), CancelRoute::NotCancellable);
            // No `cancel` control: nothing to route, loop id or not.
            let mut quiet = entry(ExecutionEntryKind::BackgroundTask, "task-1", "t", &[ExecutionControl::Select]);
            assert_eq!(quiet.cancel_route(), CancelRoute::NotCancellable);
            quiet.loop_id = Some(s("loop-2"));
            assert_eq!(quiet.cancel_route(), CancelRoute::NotCancellable);
        }

        fn attach_is_offered_only_with_a_resume_session_id() {
            for kind in ExecutionEntryKind::ALL {
                assert!(!attach_offered(*kind, None), "{kind} without a resume id");
                assert_eq!(
                    attach_offered(*kind, Some("sess-fork")),
                    *kind == ExecutionEntryKind::BackgroundTask,
                    "{kind} with a resume id"
                );
            }
            let mut task = entry(ExecutionEntryKind::BackgroundTask, "task-1", "t", &[]);
            assert!(!task.offers_attach());
            assert_eq!(task.attach_session_id(), None);
            task.resume_session_id = Some(s("sess-fork-2"));
            assert!(task.offers_attach());
            assert_eq!(task.attach_session_id(), Some("sess-fork-2"));
            let mut group = entry(ExecutionEntryKind::BackgroundGroup, "group-1", "g", &[]);
            group.resume_session_id = Some(s("sess-fork-2"));
            assert!(!group.offers_attach());
            assert_eq!(group.attach_session_id(), None);
        }

        fn normalized_state_is_total_over_workspace_status() {
            use ExecutionNormalizedState::{Completed, Failed, NeedsInput, Stopped, Working};
            let expected = [
                ("active", Working),
                ("idle", Completed),
                ("queued", Working),
                ("running", Working),
                ("waiting_permission", NeedsInput),
                ("sleeping", Working),
                ("paused", Stopped),
                ("completed", Completed),
                ("failed", Failed),
                ("cancelled", Stopped),
            ];
            assert_eq!(expected.len(), ExecutionWorkspaceStatus::ALL.len());
            for (literal, state) in expected {
                let status = ExecutionWorkspaceStatus::from_literal(literal).expect("a status literal");
                assert_eq!(status.normalized_state(), state, "{literal}");
                assert_eq!(ExecutionNormalizedState::derive(status, false), state, "{literal}");
                assert_eq!(ExecutionNormalizedState::derive(status, true), NeedsInput, "{literal}");
            }
            // Cancelled and paused are never reported as completed.
            for status in [BackgroundTaskStatus::Cancelled, BackgroundTaskStatus::Paused] {
                assert_ne!(ExecutionWorkspaceStatus::from(status).normalized_state(), Completed);
            }
        }

        fn main_thread_state_follows_prompt_then_turn() {
            let mut input = CreateMainThreadEntryInput::new("sess-1", false, false, 0, "t");
            assert_eq!(input.normalized_state(), ExecutionNormalizedState::Completed);
            input.is_executing = true;
            assert_eq!(input.normalized_state(), ExecutionNormalizedState::Working);
            input.has_pending_prompt = true;
            assert_eq!(input.normalized_state(), ExecutionNormalizedState::NeedsInput);
            input.has_pending_prompt = false;
            input.is_executing = false;
            input.pending_request =
                Some(ExecutionPendingRequest::new(ExecutionPendingRequestKind::Ask, "Which file?"));
            assert!(input.has_parked_prompt());
            assert_eq!(input.normalized_state(), ExecutionNormalizedState::NeedsInput);
        }

        fn self_paced_loops_need_an_entry_only_while_pending_or_running() {
            let mut summary = ExecutionSelfPacedLoopSummary::new(
                "loop-1",
                "go",
                ExecutionSelfPacedLoopPhase::Waiting,
                "t",
            );
            let mut listed = Vec::new();
            for phase in ExecutionSelfPacedLoopPhase::ALL {
                summary.phase = *phase;
                if summary.needs_own_entry() {
                    listed.push(*phase);
                }
            }
            assert_eq!(listed, [ExecutionSelfPacedLoopPhase::Pending, ExecutionSelfPacedLoopPhase::Running]);
        }

        // ---- bad input ----

        fn rejects_wrong_workspace_event_type() {
            rejects::<ExecutionWorkspaceEvent>(
                r#"{"type":"workspace_updated","cause":"main_thread",
                "snapshot":{"sessionId":"s","updatedAt":"u","entries":[]}}"#,
                "unknown variant `workspace_updated`",
            );
            rejects::<ExecutionWorkspaceEvent>(
                r#"{"cause":"main_thread","snapshot":{"sessionId":"s","updatedAt":"u","entries":[]}}"#,
                "missing field `type`",
            );
        }

        fn rejects_unknown_workspace_status() {
            rejects::<ExecutionWorkspaceStatus>("\"busy\"", "unknown variant `busy`");
            rejects::<ExecutionWorkspaceStatus>("\"Active\"", "unknown variant `Active`");
        }
    }

    // The literal sets: every literal round trips and keeps the contract spelling.
    mod literal_sets {
        // ---- type parity (§3.7) ----

        fn literal_sets_round_trip() {
            literal_round_trip!(BackgroundTaskKind);
            literal_round_trip!(BackgroundTaskMode);
            literal_round_trip!(BackgroundTaskIsolation);
            literal_round_trip!(BackgroundTaskStatus);
            literal_round_trip!(BackgroundTaskTimeoutReason);
            literal_round_trip!(BackgroundTaskErrorCategory);
            literal_round_trip!(ToolProvenanceOwner);
            literal_round_trip!(BackgroundTaskEventType);
            literal_round_trip!(BackgroundJobWaitPolicy);
            literal_round_trip!(BackgroundJobGroupStatus);
            literal_round_trip!(BackgroundJobGroupEventType);
            literal_round_trip!(SubagentJobStatus);
            literal_round_trip!(ExecutionEntryKind);
            literal_round_trip!(ExecutionAttention);
            literal_round_trip!(ExecutionWorkspaceVisibility);
            literal_round_trip!(ExecutionControl);
            literal_round_trip!(ExecutionOriginKind);
            literal_round_trip!(ExecutionDetailRecordKind);
            literal_round_trip!(ExecutionWorkspaceUpdateCause);
            literal_round_trip!(ExecutionNormalizedState);
            literal_round_trip!(ExecutionHeadlineKind);
            literal_round_trip!(ExecutionPendingRequestKind);
            literal_round_trip!(ExecutionWorkspaceEventType);
            literal_round_trip!(ExecutionSelfPacedLoopPhase);
        }

        fn literal_sets_hold_the_contract_spelling() {
            assert_eq!(BackgroundTaskKind::LITERALS, &["agent", "process", "scheduled", "tool-invocation"]);
            assert_eq!(BackgroundTaskStatus::WaitingPermission.as_str(), "waiting_permission");
            assert_eq!(BackgroundTaskTimeoutReason::StaleWorker.as_str(), "stale_worker");
            assert_eq!(BackgroundTaskEventType::ALL.len(), 12);
            assert_eq!(BackgroundTaskEventType::Created.as_str(), "background_task_created");
            assert_eq!(ExecutionNormalizedState::NeedsInput.as_str(), "needs-input");
            assert_eq!(ExecutionControl::ReadLog.as_str(), "read_log");
            assert_eq!(
                ExecutionWorkspaceEventType::ExecutionWorkspaceUpdated.as_str(),
                "execution_workspace_updated"
            );
            assert_eq!(ExecutionWorkspaceUpdateCause::LITERALS, ExecutionEntryKind::LITERALS);
        }
    }
}

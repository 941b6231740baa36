//! Cases of the `session` family's capability side: the 20 roles and their member table (checked
//! against the recorded TypeScript table), the capability host (catalog §10 item 18), the
//! described host and its exact rejections (item 19), the session double (id coherence, turn
//! identity, the pinned detail-page and loop-stop answers) and the runtime-tool capability (the
//! fail-closed default and prompt withdrawal on cancel). Uses only `core`, `alloc`, serde_json
//! and the crate, so it also runs on the firmware and wasm.
//!
//! Parts (one firmware image each): `roles` (names, table, read result, input wire forms),
//! `host` (the typed and the described host), `double` (the session double) and `runtime_tools`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::Cell;
use core::future::Future;
use core::pin::pin;
use core::task::{Context, Poll, Waker};

use agent_interface::agent_core::{ErrorValue, NeverAborted, ToolParameters, Value};
use agent_interface::execution::{
    groups::{BackgroundJobGroupStatus, BackgroundJobWaitPolicy},
    subagents::SubagentJobStatus,
    task_vocabulary::{BackgroundTaskIsolation, BackgroundTaskMode},
    workspace::{ExecutionDetailCursor, ExecutionDetailPage, ExecutionWorkspaceSnapshotOptions},
};
use agent_interface::session::testing::*;
use agent_interface::session::{capabilities::*, events::*, loops::*, prompts::*, turns::*};

use crate::support::{block_on, golden, s, to_json};

/// Polls `future` once with a waker that does nothing.
fn poll_once<F: Future + ?Sized>(future: core::pin::Pin<&mut F>) -> Poll<F::Output> {
    let mut cx = Context::from_waker(Waker::noop());
    future.poll(&mut cx)
}

/// The message a described host is refused with.
fn refusal(description: &CapabilityHostDescription) -> String {
    match create_session_capability_host(description) {
        Ok(host) => panic!("expected a refusal, built {host:?}"),
        Err(error) => format!("{error}"),
    }
}

/// The number `n` of an id `test-session-<n>`, or a panic naming the id.
fn counter_of(id: &str) -> u32 {
    match id.strip_prefix("test-session-").map(str::parse::<u32>) {
        Some(Ok(n)) => n,
        _ => panic!("`{id}` is not `test-session-<n>`"),
    }
}

/// The workspace snapshot's id, a created group's parent and a spawned job's parent.
fn surface_ids(session: &TestInteractiveSession) -> [String; 3] {
    let snapshot =
        session.get_execution_workspace_snapshot(&ExecutionWorkspaceSnapshotOptions::default());
    let group = session
        .create_background_job_group(BackgroundJobGroupCreateInput::new(
            BackgroundJobWaitPolicy::WaitAll,
            vec![],
        ))
        .expect("the double creates a group");
    let job = block_on(session.spawn_agent_job(spawn_input())).expect("the double spawns");
    [
        snapshot.session_id,
        group.parent_session_id,
        job.job.parent_session_id,
    ]
}

fn spawn_input() -> AgentJobSpawnInput {
    AgentJobSpawnInput::new(
        "general-purpose",
        "review",
        BackgroundTaskMode::Background,
        "review the diff",
    )
}

/// Submits `input` with default options and returns the turn id.
fn submit_id<T: SessionTurnSubmission + ?Sized>(session: &T, input: &str) -> String {
    match block_on(session.submit(input, None, None, SubmitOptions::new())) {
        Ok(handle) => handle.turn_id,
        Err(error) => panic!("submit refused: {error}"),
    }
}

/// A tool set with one tool that needs a decision (`write`) and one that does not (`read`).
fn tools() -> TestRuntimeTools {
    TestRuntimeTools::new()
        .with_tool(TestRuntimeTool::new("write", true))
        .with_tool(TestRuntimeTool::new("read", false))
}

/// The id of the `permission_request` events recorded, in order.
fn requested(events: &[SessionEvent]) -> Vec<(String, Option<String>)> {
    events
        .iter()
        .filter_map(|event| match event {
            SessionEvent::PermissionRequest(request) => {
                Some((request.id.clone(), request.requester_driver_id.clone()))
            }
            _ => None,
        })
        .collect()
}

/// The `prompt_resolved` events recorded, as (id, answerer), in order.
fn resolved(events: &[SessionEvent]) -> Vec<(String, Option<String>)> {
    events
        .iter()
        .filter_map(|event| match event {
            SessionEvent::PromptResolved(resolved) => {
                Some((resolved.id.clone(), resolved.answerer_driver_id.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Members in the order the recorded TypeScript table (`SESSION_CAPABILITY_MEMBER_KEYS` vector of
/// `interop/vectors/session.json`, source `session-capability-contracts.ts@00523108`) lists them.
/// That table has 46 members: it predates `commands.listModels` (already declared on the port,
/// missing from the table) and `conversationRead.getMessagesDisplay`; the newest contract test
/// expects 48 with both, and this crate follows the test.
const RECORDED_TABLE: &[(&str, &[&str])] = &[
    ("lifecycle", &["isInitialized", "shutdown"]),
    ("turnSubmission", &["submit"]),
    ("turnControl", &["abort", "cancelQueue"]),
    ("goal", &["setGoal", "getGoalState", "cancelGoal"]),
    (
        "executionState",
        &["isExecuting", "getPendingPrompt", "getPendingCount"],
    ),
    ("driverAttribution", &["getActiveDriverId"]),
    (
        "conversationRead",
        &["getMessages", "getFullHistory", "getContextState"],
    ),
    ("identity", &["getSession"]),
    ("workspaceLocation", &["getCwd"]),
    (
        "commands",
        &["executeCommand", "listCommands", "listSkills"],
    ),
    ("statusRead", &["getStatusSnapshot"]),
    ("runtimeTools", &["listRuntimeTools", "invokeRuntimeTool"]),
    ("events", &["on", "off"]),
    ("promptResolution", &["resolvePermission", "resolveAsk"]),
    (
        "backgroundTasks",
        &[
            "listBackgroundTasks",
            "getBackgroundTask",
            "cancelBackgroundTask",
            "closeBackgroundTask",
            "sendBackgroundTask",
            "readBackgroundTaskLog",
        ],
    ),
    (
        "backgroundGroups",
        &[
            "listBackgroundJobGroups",
            "getBackgroundJobGroup",
            "createBackgroundJobGroup",
            "waitBackgroundJobGroup",
        ],
    ),
    ("executionWorkspace", &["getExecutionWorkspaceSnapshot"]),
    ("executionDetail", &["readExecutionWorkspaceDetail"]),
    ("selfPacedLoopControl", &["stopWaitingSelfPacedLoop"]),
    (
        "agentJobs",
        &[
            "listAgentDefinitions",
            "listAgentJobs",
            "spawnAgentJob",
            "sendAgentJob",
            "cancelAgentJob",
            "closeAgentJob",
        ],
    ),
];

/// The members this crate adds to the recorded table (the 46 vs 48 question).
const ADDED_MEMBERS: &[(&str, &str)] = &[
    ("conversationRead", "getMessagesDisplay"),
    ("commands", "listModels"),
];

/// `camelCase` to `snake_case`: the Rust name of a member.
fn snake(camel: &str) -> String {
    let mut out = String::new();
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

type D = TestInteractiveSession;

cases! {
    mod roles {
        fn role_literals_are_the_twenty_map_keys() {
            assert_eq!(
                SessionCapabilityRole::LITERALS,
                &[
                    "lifecycle", "turnSubmission", "turnControl", "goal", "executionState",
                    "driverAttribution", "conversationRead", "identity", "workspaceLocation",
                    "commands", "statusRead", "runtimeTools", "events", "promptResolution",
                    "backgroundTasks", "backgroundGroups", "executionWorkspace",
                    "executionDetail", "selfPacedLoopControl", "agentJobs",
                ]
            );
            assert_eq!(SessionCapabilityRole::ALL.len(), 20);
            for (role, literal) in SessionCapabilityRole::ALL.iter().zip(SessionCapabilityRole::LITERALS) {
                assert_eq!(SessionCapabilityRole::from_literal(literal), Some(*role));
                assert_eq!(to_json(role), Value::String(s(literal)));
                assert_eq!(format!("{role}"), *literal);
            }
            assert_eq!(SessionCapabilityRole::from_literal("capabilities"), None);
            assert_eq!(SessionCapabilityRole::from_literal("TurnSubmission"), None);
        }

        fn member_table_has_one_row_per_role_and_48_members() {
            assert_eq!(SESSION_CAPABILITY_MEMBER_KEYS.len(), 20);
            let mut seen: Vec<&str> = Vec::new();
            for ((role, members), expected) in
                SESSION_CAPABILITY_MEMBER_KEYS.iter().zip(SessionCapabilityRole::ALL)
            {
                assert_eq!(role, expected, "rows follow the role order");
                assert_eq!(role.members(), *members);
                assert!(!members.is_empty(), "{role} has no member");
                for member in *members {
                    assert!(!seen.contains(member), "{member} is in two rows");
                    assert!(
                        !RESERVED_CAPABILITY_MEMBERS.contains(member),
                        "{member} is reserved"
                    );
                    seen.push(member);
                }
            }
            assert_eq!(seen.len(), 48);
        }

        fn member_table_matches_the_recorded_table_but_for_two_added_members() {
            // The recorded table (46) is a strict sub-table of ours (48): every recorded row is
            // ours minus the added members, in the same order, and nothing else differs.
            assert_eq!(RECORDED_TABLE.len(), SESSION_CAPABILITY_MEMBER_KEYS.len());
            let mut added = Vec::new();
            for ((key, recorded), (role, ours)) in
                RECORDED_TABLE.iter().zip(SESSION_CAPABILITY_MEMBER_KEYS.iter())
            {
                assert_eq!(*key, role.as_str());
                let kept: Vec<&str> = ours
                    .iter()
                    .copied()
                    .filter(|member| !ADDED_MEMBERS.contains(&(*key, *member)))
                    .collect();
                assert_eq!(kept.as_slice(), *recorded, "row {key}");
                for member in ours.iter().filter(|m| !recorded.contains(m)) {
                    added.push((*key, *member));
                }
            }
            assert_eq!(added.as_slice(), ADDED_MEMBERS);
            let recorded_total: usize = RECORDED_TABLE.iter().map(|(_, m)| m.len()).sum();
            assert_eq!(recorded_total, 46);
        }

        fn every_row_names_the_methods_of_its_trait() {
            // Each row, in snake_case, is the method list of its trait; the references below
            // only compile while each method exists with that name.
            let _ = (<D as SessionLifecycle>::is_initialized, <D as SessionLifecycle>::shutdown);
            let _ = <D as SessionTurnSubmission>::submit::<NeverAborted>;
            let _ = (<D as SessionTurnControl>::abort, <D as SessionTurnControl>::cancel_queue);
            let _ = (
                <D as SessionGoal>::set_goal,
                <D as SessionGoal>::get_goal_state,
                <D as SessionGoal>::cancel_goal,
            );
            let _ = (
                <D as SessionExecutionState>::is_executing,
                <D as SessionExecutionState>::get_pending_prompt,
                <D as SessionExecutionState>::get_pending_count,
            );
            let _ = <D as SessionDriverAttribution>::get_active_driver_id;
            let _ = (
                <D as SessionConversationRead>::get_messages,
                <D as SessionConversationRead>::get_full_history,
                <D as SessionConversationRead>::get_context_state,
                <D as SessionConversationRead>::get_messages_display,
            );
            let _ = <D as SessionIdentity>::get_session;
            let _ = <D as SessionWorkspaceLocation>::get_cwd;
            let _ = (
                <D as SessionCommands>::execute_command,
                <D as SessionCommands>::list_commands,
                <D as SessionCommands>::list_skills,
                <D as SessionCommands>::list_models,
            );
            let _ = <D as SessionStatusRead>::get_status_snapshot;
            let _ = (
                <D as SessionRuntimeTools>::list_runtime_tools,
                <D as SessionRuntimeTools>::invoke_runtime_tool::<NeverAborted>,
            );
            let _ = (<D as SessionEvents>::on, <D as SessionEvents>::off);
            let _ = (
                <D as SessionPromptResolution>::resolve_permission,
                <D as SessionPromptResolution>::resolve_ask,
            );
            let _ = (
                <D as SessionBackgroundTasks>::list_background_tasks,
                <D as SessionBackgroundTasks>::get_background_task,
                <D as SessionBackgroundTasks>::cancel_background_task,
                <D as SessionBackgroundTasks>::close_background_task,
                <D as SessionBackgroundTasks>::send_background_task,
                <D as SessionBackgroundTasks>::read_background_task_log,
            );
            let _ = (
                <D as SessionBackgroundGroups>::list_background_job_groups,
                <D as SessionBackgroundGroups>::get_background_job_group,
                <D as SessionBackgroundGroups>::create_background_job_group,
                <D as SessionBackgroundGroups>::wait_background_job_group,
            );
            let _ = <D as SessionExecutionWorkspace>::get_execution_workspace_snapshot;
            let _ = <D as SessionExecutionDetail>::read_execution_workspace_detail;
            let _ = <D as SessionSelfPacedLoopControl>::stop_waiting_self_paced_loop;
            let _ = (
                <D as SessionAgentJobs>::list_agent_definitions,
                <D as SessionAgentJobs>::list_agent_jobs,
                <D as SessionAgentJobs>::spawn_agent_job,
                <D as SessionAgentJobs>::send_agent_job,
                <D as SessionAgentJobs>::cancel_agent_job,
                <D as SessionAgentJobs>::close_agent_job,
            );
            let methods: &[&[&str]] = &[
                &["is_initialized", "shutdown"],
                &["submit"],
                &["abort", "cancel_queue"],
                &["set_goal", "get_goal_state", "cancel_goal"],
                &["is_executing", "get_pending_prompt", "get_pending_count"],
                &["get_active_driver_id"],
                &["get_messages", "get_full_history", "get_context_state", "get_messages_display"],
                &["get_session"],
                &["get_cwd"],
                &["execute_command", "list_commands", "list_skills", "list_models"],
                &["get_status_snapshot"],
                &["list_runtime_tools", "invoke_runtime_tool"],
                &["on", "off"],
                &["resolve_permission", "resolve_ask"],
                &[
                    "list_background_tasks", "get_background_task", "cancel_background_task",
                    "close_background_task", "send_background_task", "read_background_task_log",
                ],
                &[
                    "list_background_job_groups", "get_background_job_group",
                    "create_background_job_group", "wait_background_job_group",
                ],
                &["get_execution_workspace_snapshot"],
                &["read_execution_workspace_detail"],
                &["stop_waiting_self_paced_loop"],
                &[
                    "list_agent_definitions", "list_agent_jobs", "spawn_agent_job",
                    "send_agent_job", "cancel_agent_job", "close_agent_job",
                ],
            ];
            assert_eq!(methods.len(), 20);
            for ((role, members), rust) in SESSION_CAPABILITY_MEMBER_KEYS.iter().zip(methods) {
                let snaked: Vec<String> = members.iter().map(|m| snake(m)).collect();
                assert_eq!(snaked, *rust, "row {role}");
            }
        }

        fn required_roles_are_the_three_the_contract_requires() {
            let required: Vec<SessionCapabilityRole> = SessionCapabilityRole::ALL
                .iter()
                .copied()
                .filter(|role| role.is_required())
                .collect();
            assert_eq!(
                required,
                [
                    SessionCapabilityRole::Lifecycle,
                    SessionCapabilityRole::ExecutionState,
                    SessionCapabilityRole::DriverAttribution,
                ]
            );
            assert!(SessionCapabilityRole::Lifecycle.members().contains(&"isInitialized"));
            assert!(SessionCapabilityRole::ExecutionState.members().contains(&"getPendingCount"));
            assert!(SessionCapabilityRole::DriverAttribution.members().contains(&"getActiveDriverId"));
        }

        fn read_result_tells_absent_from_present_returning_nothing() {
            let absent: CapabilityRead<Option<&str>> = CapabilityRead::NotProvided;
            let present_none: CapabilityRead<Option<&str>> = CapabilityRead::Provided(None);
            assert_ne!(absent, present_none);
            assert!(!absent.is_provided());
            assert!(present_none.is_provided());
            assert_eq!(absent.provided(), None);
            assert_eq!(present_none.provided(), Some(None));
            assert_eq!(CapabilityRead::from(Some(false)), CapabilityRead::Provided(false));
            assert_eq!(CapabilityRead::<bool>::from(None), CapabilityRead::NotProvided);
            assert_eq!(CapabilityRead::Provided(2).map(|n| n * 2), CapabilityRead::Provided(4));
            assert_eq!(CapabilityRead::<u8>::NotProvided.map(|n| n * 2), CapabilityRead::NotProvided);
        }

        fn input_records_keep_their_wire_form() {
            let spawn: AgentJobSpawnInput = golden(
                "agent_job_spawn_input",
                include_str!("../golden/session/capabilities/agent_job_spawn_input.json"),
            );
            assert_eq!(spawn.mode, BackgroundTaskMode::Background);
            assert_eq!(spawn.isolation, Some(BackgroundTaskIsolation::Worktree));
            assert_eq!(spawn.model.as_deref(), Some("fast-model"));
            let group: BackgroundJobGroupCreateInput = golden(
                "job_group_create_input",
                include_str!("../golden/session/capabilities/job_group_create_input.json"),
            );
            assert_eq!(group.wait_policy, BackgroundJobWaitPolicy::WaitAny);
            assert_eq!(group.task_ids, [s("task-1"), s("task-2")]);
            let goal: SetGoalOptions = golden(
                "set_goal_options",
                include_str!("../golden/session/capabilities/set_goal_options.json"),
            );
            assert_eq!(goal, SetGoalOptions::new().with_max_iterations(10).with_no_progress_limit(3));
            let shutdown: ShutdownOptions = golden(
                "shutdown_options",
                include_str!("../golden/session/capabilities/shutdown_options.json"),
            );
            assert_eq!(shutdown.reason.as_deref(), Some("idle"));
            // Absent options are left out, not written as null.
            assert_eq!(to_json(&ShutdownOptions::default()), Value::Object(Default::default()));
            assert_eq!(to_json(&SetGoalOptions::default()), Value::Object(Default::default()));
        }
    }

    mod host {
        fn a_host_always_holds_the_three_required_roles() {
            // `SessionCapabilityHost::new` takes the three required roles; there is no way to
            // build a host without them (a compile error), so unlike the TypeScript host a Rust
            // host always answers initialization, pending count and active driver.
            let session = D::new().with_pending_count(3).with_initialized(false);
            let host = SessionCapabilityHost::new(&session, &session, &session);
            assert!(!host.is_initialized());
            assert_eq!(host.get_pending_count(), 3);
            assert_eq!(host.get_active_driver_id(), None);
            assert_eq!(
                host.provided_roles(),
                [
                    SessionCapabilityRole::Lifecycle,
                    SessionCapabilityRole::ExecutionState,
                    SessionCapabilityRole::DriverAttribution,
                ]
            );
            for role in SessionCapabilityRole::ALL {
                assert_eq!(host.provides(*role), role.is_required(), "{role}");
            }
            assert!(!host.goal().is_provided());
            assert!(!read_session_capability(&host, SessionCapabilityRole::TurnSubmission).is_provided());
        }

        fn a_host_of_turn_submission_and_events_provides_those_only() {
            let session = D::new();
            let host = SessionCapabilityHost::new(&session, &session, &session)
                .with_turn_submission(&session)
                .with_events(&session);
            assert!(host.provides(SessionCapabilityRole::TurnSubmission));
            assert!(host.provides(SessionCapabilityRole::Events));
            for role in [
                SessionCapabilityRole::Goal,
                SessionCapabilityRole::Identity,
                SessionCapabilityRole::RuntimeTools,
                SessionCapabilityRole::AgentJobs,
            ] {
                assert_eq!(
                    read_session_capability(&host, role).map(|c| c.role()),
                    CapabilityRead::NotProvided,
                    "{role}"
                );
            }
            // Forwarded with the original receiver: the submission counts on the double itself.
            let Some(submission) = host.turn_submission().provided() else {
                panic!("turnSubmission is provided");
            };
            let first = submit_id(submission, "hello");
            assert_eq!(first, format!("{}-turn-1", session.own_id()));
            assert_eq!(submit_id(&session, "again"), format!("{}-turn-2", session.own_id()));
        }

        fn a_present_driver_attribution_returning_none_reads_provided() {
            let idle = D::new();
            let host = SessionCapabilityHost::new(&idle, &idle, &idle);
            match read_session_capability(&host, SessionCapabilityRole::DriverAttribution) {
                CapabilityRead::Provided(SessionCapability::DriverAttribution(role)) => {
                    assert_eq!(role.get_active_driver_id(), None, "None: nobody is driving");
                }
                other => panic!("expected the provided role, got {other:?}"),
            }
            let driven = D::new().with_active_driver_id(Some("phone"));
            let host = SessionCapabilityHost::new(&driven, &driven, &driven);
            assert_eq!(host.get_active_driver_id().as_deref(), Some("phone"));
            // A present role whose reads are empty is still provided.
            let host = host.with_goal(&driven).with_background_tasks(&driven);
            let Some(goal) = host.goal().provided() else { panic!("goal is provided") };
            assert_eq!(goal.get_goal_state(), None);
            let Some(tasks) = host.background_tasks().provided() else { panic!("provided") };
            assert!(tasks.list_background_tasks(Default::default()).is_empty());
        }

        fn a_host_is_a_snapshot() {
            let first = D::new();
            let second = D::new();
            let host = SessionCapabilityHost::new(&first, &first, &first).with_turn_submission(&first);
            let replaced = host.with_turn_submission(&second).with_goal(&second);
            // The host handed out first is unchanged: no goal, and it still submits to `first`.
            assert!(!host.goal().is_provided());
            assert!(replaced.goal().is_provided());
            let Some(submission) = host.turn_submission().provided() else { panic!("provided") };
            assert!(submit_id(submission, "x").starts_with(first.own_id()));
            let Some(submission) = replaced.turn_submission().provided() else { panic!("provided") };
            assert!(submit_id(submission, "x").starts_with(second.own_id()));
        }

        fn a_host_of_a_whole_session_provides_every_role() {
            let session = D::new();
            let host = SessionCapabilityHost::from_session(&session);
            assert_eq!(host.provided_roles(), SessionCapabilityRole::ALL);
            for role in SessionCapabilityRole::ALL {
                match read_session_capability(&host, *role) {
                    CapabilityRead::Provided(capability) => assert_eq!(capability.role(), *role),
                    CapabilityRead::NotProvided => panic!("{role} is not provided"),
                }
            }
            let Some(detail) = host.execution_detail().provided() else { panic!("provided") };
            let page = block_on(detail.read_execution_workspace_detail("main", None))
                .expect("the double reads");
            assert_eq!(page.entry_id, "main");
            let Some(tools) = host.runtime_tools().provided() else { panic!("provided") };
            assert!(block_on(tools.list_runtime_tools()).expect("lists").is_empty());
        }

        fn host_members_read_the_receivers_state_on_each_call() {
            struct Queue(Cell<u32>);
            impl SessionExecutionState for Queue {
                fn is_executing(&self) -> bool {
                    self.0.get() > 0
                }
                fn get_pending_prompt(&self) -> Option<String> {
                    None
                }
                fn get_pending_count(&self) -> u32 {
                    self.0.get()
                }
            }
            let session = D::new();
            let queue = Queue(Cell::new(0));
            let host = SessionCapabilityHost::new(&session, &queue, &session);
            assert_eq!(host.get_pending_count(), 0);
            queue.0.set(2);
            assert_eq!(host.get_pending_count(), 2);
            assert!(host.execution_state().is_executing());
        }

        fn a_described_host_of_turn_submission_and_events() {
            let description = CapabilityHostDescription::new()
                .role("turnSubmission", Some(&["submit"]))
                .role("events", Some(&["on", "off"]));
            let host = create_session_capability_host(&description).expect("builds");
            assert_eq!(
                host.capabilities(),
                [SessionCapabilityRole::TurnSubmission, SessionCapabilityRole::Events]
            );
            // Vector `createSessionCapabilityHost/turnSubmission+events`: own keys
            // submit, on, off (then `capabilities`, the host's own field here).
            assert_eq!(host.members().collect::<Vec<_>>(), ["submit", "on", "off"]);
            assert_eq!(host.route("submit"), Some(SessionCapabilityRole::TurnSubmission));
            assert_eq!(host.route("off"), Some(SessionCapabilityRole::Events));
            assert_eq!(host.route("getActiveDriverId"), None);
            assert_eq!(host.read(SessionCapabilityRole::DriverAttribution), CapabilityRead::NotProvided);
            assert_eq!(
                host.read(SessionCapabilityRole::TurnSubmission),
                CapabilityRead::Provided(&[s("submit")][..])
            );
            let empty = create_session_capability_host(&CapabilityHostDescription::new())
                .expect("an empty map builds");
            assert!(empty.capabilities().is_empty());
        }

        fn a_described_host_refuses_unknown_roles_exactly() {
            let cases: &[(CapabilityHostDescription, &str)] = &[
                (
                    CapabilityHostDescription::new().role("unknownRole", Some(&[])),
                    "Unknown session capability: unknownRole",
                ),
                (
                    CapabilityHostDescription::new()
                        .role("turnSubmission", Some(&["submit"]))
                        .role("bogus", Some(&[])),
                    "Unknown session capability: bogus",
                ),
                (
                    CapabilityHostDescription::new().role("bogus", None),
                    "Unknown session capability: bogus",
                ),
                (
                    CapabilityHostDescription::new().role("capabilities", Some(&[])),
                    "Unknown session capability: capabilities",
                ),
                // Every key is checked before any role's members.
                (
                    CapabilityHostDescription::new()
                        .role("lifecycle", Some(&[]))
                        .role("bogus", None),
                    "Unknown session capability: bogus",
                ),
            ];
            for (description, message) in cases {
                assert_eq!(refusal(description), *message);
            }
            let error = create_session_capability_host(
                &CapabilityHostDescription::new().role("unknownRole", None),
            )
            .expect_err("refused");
            assert_eq!(error, CapabilityHostError::UnknownRole { key: s("unknownRole") });
        }

        fn a_described_host_refuses_missing_members_exactly() {
            let cases: &[(CapabilityHostDescription, &str)] = &[
                (
                    CapabilityHostDescription::new().role("lifecycle", Some(&["isInitialized"])),
                    "Missing lifecycle capability member: shutdown",
                ),
                (
                    CapabilityHostDescription::new().role("lifecycle", Some(&["shutdown"])),
                    "Missing lifecycle capability member: isInitialized",
                ),
                (
                    CapabilityHostDescription::new()
                        .role("turnSubmission", Some(&["submit"]))
                        .role("events", Some(&["on"])),
                    "Missing events capability member: off",
                ),
                (
                    CapabilityHostDescription::new().role("driverAttribution", Some(&[])),
                    "Missing driverAttribution capability member: getActiveDriverId",
                ),
                (
                    CapabilityHostDescription::new().role("identity", Some(&["getSessionId"])),
                    "Missing identity capability member: getSession",
                ),
            ];
            for (description, message) in cases {
                assert_eq!(refusal(description), *message);
            }
            assert_eq!(
                create_session_capability_host(
                    &CapabilityHostDescription::new().role("lifecycle", Some(&["isInitialized"]))
                ),
                Err(CapabilityHostError::MissingMember {
                    role: SessionCapabilityRole::Lifecycle,
                    member: s("shutdown"),
                })
            );
        }

        fn a_described_host_skips_absent_roles() {
            let description = CapabilityHostDescription::new()
                .role("driverAttribution", None)
                .role("turnSubmission", Some(&["submit"]));
            let host = create_session_capability_host(&description).expect("builds");
            assert_eq!(host.capabilities(), [SessionCapabilityRole::TurnSubmission]);
            assert!(!host.provides(SessionCapabilityRole::DriverAttribution));
            assert_eq!(host.route("getActiveDriverId"), None);
        }

        fn a_described_host_forwards_only_canonical_members() {
            // A role object carrying hostile extra keys (`capabilities`, `__proto__`) and an
            // extra member: nothing but the canonical member is forwarded, only the declared
            // role is provided (vector `extra-members-not-forwarded`).
            let description = CapabilityHostDescription::new().role(
                "driverAttribution",
                Some(&["getActiveDriverId", "extra", "capabilities", "__proto__"]),
            );
            let host = create_session_capability_host(&description).expect("builds");
            assert_eq!(host.capabilities(), [SessionCapabilityRole::DriverAttribution]);
            assert_eq!(host.members().collect::<Vec<_>>(), ["getActiveDriverId"]);
            assert_eq!(host.route("extra"), None);
            assert_eq!(host.route("capabilities"), None);
        }

        fn a_described_host_refuses_reserved_and_duplicate_members() {
            // The canonical table names neither; an amended table is where they can come from.
            let reserved: &[(SessionCapabilityRole, &[&str])] =
                &[(SessionCapabilityRole::Lifecycle, &["isInitialized", "constructor"])];
            let description = CapabilityHostDescription::new()
                .role("lifecycle", Some(&["isInitialized", "constructor"]));
            let error = create_session_capability_host_with_table(&description, reserved)
                .expect_err("refused");
            assert_eq!(format!("{error}"), "Reserved session capability member: constructor");
            for name in ["capabilities", "__proto__"] {
                let row: &[&str] = &[name];
                let table = [(SessionCapabilityRole::Goal, row)];
                let description = CapabilityHostDescription::new().role("goal", Some(&[name]));
                assert_eq!(
                    create_session_capability_host_with_table(&description, &table),
                    Err(CapabilityHostError::ReservedMember { member: s(name) })
                );
            }
            let duplicated: &[(SessionCapabilityRole, &[&str])] = &[
                (SessionCapabilityRole::TurnSubmission, &["submit"]),
                (SessionCapabilityRole::Goal, &["setGoal", "submit"]),
            ];
            let both = CapabilityHostDescription::new()
                .role("turnSubmission", Some(&["submit"]))
                .role("goal", Some(&["setGoal", "submit"]));
            let error = create_session_capability_host_with_table(&both, duplicated)
                .expect_err("refused");
            assert_eq!(format!("{error}"), "Duplicate session capability member: submit");
            // One of the two roles alone is fine.
            let one = CapabilityHostDescription::new().role("goal", Some(&["setGoal", "submit"]));
            assert!(create_session_capability_host_with_table(&one, duplicated).is_ok());
        }

        fn a_described_host_is_a_snapshot() {
            let mut description = CapabilityHostDescription::new()
                .role("turnSubmission", Some(&["submit"]));
            let host = create_session_capability_host(&description).expect("builds");
            let before = host.clone();
            description.set_role("events", Some(&["on", "off"]));
            description.set_role("turnSubmission", None);
            description.remove_role("turnSubmission");
            assert_eq!(host, before);
            assert_eq!(host.capabilities(), [SessionCapabilityRole::TurnSubmission]);
            // Describing a key again replaces it in place.
            assert_eq!(description.keys().collect::<Vec<_>>(), ["events"]);
            let rebuilt = create_session_capability_host(&description).expect("builds");
            assert_eq!(rebuilt.capabilities(), [SessionCapabilityRole::Events]);
        }

        fn a_described_host_of_every_role_forwards_the_48_members_in_order() {
            let mut description = CapabilityHostDescription::new();
            for (role, members) in SESSION_CAPABILITY_MEMBER_KEYS.iter() {
                description.set_role(role.as_str(), Some(members));
            }
            let host = create_session_capability_host(&description).expect("builds");
            assert_eq!(host.capabilities(), SessionCapabilityRole::ALL);
            let members: Vec<&str> = host.members().collect();
            let expected: Vec<&str> = SESSION_CAPABILITY_MEMBER_KEYS
                .iter()
                .flat_map(|(_, members)| members.iter().copied())
                .collect();
            assert_eq!(members.len(), 48);
            assert_eq!(members, expected);
            for (role, row) in SESSION_CAPABILITY_MEMBER_KEYS.iter() {
                for member in *row {
                    assert_eq!(host.route(member), Some(*role));
                }
            }
        }
    }

    mod double {
        fn the_double_is_an_interactive_session_with_the_documented_defaults() {
            fn is_session<S: InteractiveSession>(_: &S) {}
            let session = D::new();
            is_session(&session);
            assert!(session.is_initialized());
            assert_eq!(session.get_pending_count(), 0);
            assert_eq!(session.get_active_driver_id(), None);
            assert!(!session.is_executing());
            assert_eq!(session.get_pending_prompt(), None);
            assert!(session.get_messages().is_empty());
            assert!(session.get_full_history().is_empty());
            assert!(session.get_messages_display().is_empty());
            assert_eq!(session.get_context_state(), empty_context_state());
            assert_eq!(session.get_context_state().max_tokens, 200_000);
            assert_eq!(session.get_cwd(), "/workspace");
            assert_eq!(block_on(session.execute_command("help", "", None, None)), Ok(None));
            assert!(session.list_commands().is_empty());
            assert!(session.list_skills().is_empty());
            assert!(session.list_background_tasks(Default::default()).is_empty());
            assert_eq!(session.get_background_task("t"), None);
            let log = block_on(session.read_background_task_log("t", None)).expect("reads");
            assert_eq!(log.task_id, "");
            assert!(log.lines.is_empty());
            assert!(session.list_background_job_groups().is_empty());
            let group = block_on(session.wait_background_job_group("g")).expect("waits");
            assert_eq!(group.wait_policy, BackgroundJobWaitPolicy::WaitAll);
            assert_eq!(group.status, BackgroundJobGroupStatus::Completed);
            assert!(group.task_ids.is_empty());
            let job = block_on(session.spawn_agent_job(spawn_input())).expect("spawns");
            assert_eq!(job.id(), "agent_1");
            assert_eq!(job.agent_type, "general-purpose");
            assert_eq!(job.status, SubagentJobStatus::Running);
            assert_eq!(job.job.mode, BackgroundTaskMode::Background);
            assert_eq!((job.job.depth, job.job.cwd.as_str()), (1, "/workspace"));
            let goal = block_on(session.set_goal("ship it", SetGoalOptions::default())).expect("sets");
            assert_eq!(goal.max_iterations, 25);
            assert_eq!(goal.status, agent_interface::session::events::GoalStatus::Active);
            assert_eq!(session.get_goal_state(), None);
            assert_eq!(session.cancel_goal(), None);
            assert_eq!(block_on(session.shutdown(ShutdownOptions::default())), Ok(()));
            let snapshot = session.get_execution_workspace_snapshot(&Default::default());
            assert!(snapshot.entries.is_empty());
            assert_eq!(snapshot.updated_at, TEST_TIMESTAMP);
        }

        fn doubles_have_distinct_ids_and_one_id_per_double() {
            let first = D::new();
            let second = D::new();
            assert_ne!(first.own_id(), second.own_id());
            assert!(counter_of(second.own_id()) > counter_of(first.own_id()));
            for session in [&first, &second] {
                let id = s(session.get_session().get_session_id());
                assert_eq!(id, session.own_id());
                assert_eq!(surface_ids(session), [id.clone(), id.clone(), id.clone()]);
                assert_eq!(session.get_status_snapshot().session_id, id);
            }
        }

        fn an_overridden_identity_names_every_surface() {
            let session = D::new().with_session_id("X");
            assert_eq!(session.get_session().get_session_id(), "X");
            assert_eq!(surface_ids(&session), [s("X"), s("X"), s("X")]);
            // Resolved on each call, through the identity.
            let answers = alloc::rc::Rc::new(Cell::new(0u32));
            let counter = answers.clone();
            let lazy = D::new().with_identity(move || {
                counter.set(counter.get() + 1);
                Ok(format!("id-{}", counter.get()))
            });
            assert_eq!(answers.get(), 0, "not read at construction");
            let ids = surface_ids(&lazy);
            assert_eq!(ids, [s("id-1"), s("id-2"), s("id-3")]);
        }

        fn a_failing_or_empty_identity_falls_back_to_the_own_id() {
            let failing = D::new().with_identity(|| Err(ErrorValue::from_message("no identity")));
            let own = s(failing.own_id());
            counter_of(&own);
            assert_eq!(surface_ids(&failing), [own.clone(), own.clone(), own.clone()]);
            assert_eq!(failing.get_session().get_session_id(), own);

            let empty = D::new().with_identity(|| Ok(String::new()));
            let own = s(empty.own_id());
            assert_eq!(surface_ids(&empty), [own.clone(), own.clone(), own.clone()]);
            // The identity's own answer is reported as given.
            assert_eq!(empty.get_session().get_session_id(), "");
        }

        fn turn_ids_count_per_double_and_turns_complete_empty() {
            let first = D::new();
            let handle = block_on(first.submit("a", Some("a"), None, SubmitOptions::new()))
                .expect("accepted");
            assert_eq!(handle.turn_id, format!("{}-turn-1", first.own_id()));
            let outcome = block_on(handle.completed).expect("completes");
            assert_eq!(outcome.response(), "");
            assert!(outcome.history().is_empty());
            assert!(!outcome.is_interrupted());
            assert_eq!(submit_id(&first, "b"), format!("{}-turn-2", first.own_id()));
            let second = D::new();
            assert_eq!(submit_id(&second, "a"), format!("{}-turn-1", second.own_id()));
            assert_eq!(submit_id(&first, "c"), format!("{}-turn-3", first.own_id()));
        }

        fn turn_ids_follow_the_identity() {
            let named = D::new().with_session_id("named-session");
            assert_eq!(submit_id(&named, "a"), "named-session-turn-1");
            let empty = D::new().with_identity(|| Ok(String::new()));
            assert_eq!(submit_id(&empty, "a"), format!("{}-turn-1", empty.own_id()));
            let failing = D::new().with_identity(|| Err(ErrorValue::from_message("boom")));
            let id = submit_id(&failing, "a");
            assert_eq!(id, format!("{}-turn-1", failing.own_id()));
            assert!(id.starts_with("test-session-"));
        }

        fn a_submit_override_is_authoritative() {
            let session = D::new().with_submit(|call| {
                let completed: BoxedTurnCompletion = Box::pin(core::future::ready(Ok(
                    TurnOutcome::from(ExecutionResult::new(format!("echo {}", call.input))),
                )));
                Ok(TurnHandle::new("custom-turn", completed))
            });
            let handle = block_on(session.submit("hi", None, None, SubmitOptions::new()))
                .expect("accepted");
            assert_eq!(handle.turn_id, "custom-turn");
            assert_eq!(block_on(handle.completed).expect("completes").response(), "echo hi");
            // Options are still validated: a peer turn must name its driver.
            let mut peer = SubmitOptions::new();
            peer.turn_source = Some(TurnSource::Peer);
            assert!(block_on(session.submit("hi", None, None, peer)).is_err());
            let mut plain_peer = SubmitOptions::new();
            plain_peer.turn_source = Some(TurnSource::Peer);
            assert!(block_on(D::new().submit("hi", None, None, plain_peer)).is_err());
        }

        fn pinned_detail_page_and_loop_stop_answers() {
            let session = D::new();
            let page = block_on(session.read_execution_workspace_detail(
                "main",
                Some(ExecutionDetailCursor::new(2)),
            ))
            .expect("reads");
            // The recorded TypeScript answer (`golden-fixtures.json`, session/execution-detail-page).
            let expected: ExecutionDetailPage = golden(
                "execution_detail_page",
                include_str!("../golden/session/capabilities/execution_detail_page.json"),
            );
            assert_eq!(page, expected);
            let outcome = block_on(session.stop_waiting_self_paced_loop(None));
            let expected: WaitingLoopStopOutcome = golden(
                "waiting_loop_stop_none",
                include_str!("../golden/session/capabilities/waiting_loop_stop_none.json"),
            );
            assert_eq!(outcome, expected);
            assert_eq!(outcome, WaitingLoopStopOutcome::None);
        }

        fn event_handlers_are_shared_functions() {
            let session = D::new();
            let seen = alloc::rc::Rc::new(Cell::new(0u32));
            let counter = seen.clone();
            let handler: SessionEventHandler = alloc::rc::Rc::new(move |event: &SessionEvent| {
                if let SessionEvent::StatusChanged(snapshot) = event {
                    counter.set(counter.get() + snapshot.context.used_tokens as u32 + 1);
                }
            });
            session.on(InteractiveEventName::StatusChanged, handler.clone());
            session.off(InteractiveEventName::StatusChanged, &handler);
            // A status_changed handler reads the status snapshot from its event.
            handler(&SessionEvent::StatusChanged(Box::new(session.get_status_snapshot())));
            assert_eq!(seen.get(), 1);
            assert!(alloc::rc::Rc::ptr_eq(&handler, &handler.clone()));
        }
    }

    mod runtime_tools {
        fn invoke_options_default_to_fail_closed() {
            let options = RuntimeToolInvokeOptions::new();
            assert!(!options.allow_permission_prompt);
            assert_eq!(options.prompt_driver_id, None);
            assert!(options.signal.is_none());
            assert!(!options.is_aborted());
            assert_eq!(options.prompt_route(), PermissionPromptRoute::DenyWithoutAsking);
            let defaulted: RuntimeToolInvokeOptions<Cell<bool>> = Default::default();
            assert_eq!(defaulted.prompt_route(), PermissionPromptRoute::DenyWithoutAsking);
            let asking = RuntimeToolInvokeOptions::new().allowing_prompt(Some(s("phone")));
            assert_eq!(asking.prompt_route(), PermissionPromptRoute::Ask { driver_id: Some("phone") });
            let flag = Cell::new(true);
            assert!(asking.with_signal(&flag).is_aborted());
        }

        fn a_tool_needing_a_decision_is_denied_without_asking_by_default() {
            let tools = tools();
            let names: Vec<String> = block_on(tools.list_runtime_tools())
                .expect("lists")
                .into_iter()
                .map(|schema| schema.name)
                .collect();
            assert_eq!(names, [s("write"), s("read")]);
            let denied = block_on(tools.invoke_runtime_tool(
                "write",
                &ToolParameters::new(),
                RuntimeToolInvokeOptions::new(),
            ))
            .expect("a denial is a result");
            assert!(!denied.success);
            assert_eq!(denied.tool_name.as_deref(), Some("write"));
            assert!(denied.error.as_deref().is_some_and(|e| e.contains("permission denied")));
            assert!(tools.events().is_empty(), "nobody was asked");
            assert!(tools.waiting_prompts().is_empty());
            assert_eq!(tools.runs(), 0);
            let ran = block_on(tools.invoke_runtime_tool(
                "read",
                &ToolParameters::new(),
                RuntimeToolInvokeOptions::new(),
            ))
            .expect("runs");
            assert!(ran.success);
            assert_eq!(tools.runs(), 1);
        }

        fn an_allowed_prompt_is_attributed_and_settled_by_the_first_answer() {
            let tools = tools();
            let mut parameters = ToolParameters::new();
            parameters.insert(s("path"), Value::String(s("notes.md")));
            let options = RuntimeToolInvokeOptions::new().allowing_prompt(Some(s("phone")));
            let mut call = pin!(tools.invoke_runtime_tool("write", &parameters, options));
            assert!(poll_once(call.as_mut()).is_pending());
            let requests = requested(&tools.events());
            assert_eq!(requests.len(), 1);
            let (id, driver) = requests[0].clone();
            assert_eq!(driver.as_deref(), Some("phone"));
            assert_eq!(tools.waiting_prompts(), core::slice::from_ref(&id));
            match &tools.events()[0] {
                SessionEvent::PermissionRequest(request) => {
                    assert_eq!(request.tool_name, "write");
                    assert_eq!(request.tool_args, parameters);
                }
                other => panic!("expected a permission request, got {other:?}"),
            }
            tools.resolve_permission(&id, PermissionResultValue::Allow, Some("owner"));
            tools.resolve_permission(&id, PermissionResultValue::Deny, Some("laptop"));
            let Poll::Ready(result) = poll_once(call.as_mut()) else {
                panic!("the answer settles the call");
            };
            assert!(result.expect("runs").success);
            assert_eq!(tools.runs(), 1);
            assert_eq!(resolved(&tools.events()), [(id, Some(s("owner")))]);
        }

        fn a_no_from_the_person_denies_the_tool() {
            let tools = tools();
            let options = RuntimeToolInvokeOptions::new().allowing_prompt(None);
            let parameters = ToolParameters::new();
            let mut call = pin!(tools.invoke_runtime_tool("write", &parameters, options));
            assert!(poll_once(call.as_mut()).is_pending());
            let id = tools.waiting_prompts()[0].clone();
            tools.resolve_permission(&id, PermissionResultValue::Deny, None);
            let Poll::Ready(result) = poll_once(call.as_mut()) else { panic!("settled") };
            let result = result.expect("a denial is a result");
            assert!(!result.success);
            assert_eq!(tools.runs(), 0);
        }

        fn cancelling_the_call_withdraws_its_prompt() {
            let tools = tools();
            let cancel = Cell::new(false);
            let options = RuntimeToolInvokeOptions::new()
                .allowing_prompt(Some(s("phone")))
                .with_signal(&cancel);
            let parameters = ToolParameters::new();
            let mut call = pin!(tools.invoke_runtime_tool("write", &parameters, options));
            assert!(poll_once(call.as_mut()).is_pending());
            let id = tools.waiting_prompts()[0].clone();
            cancel.set(true);
            let Poll::Ready(result) = poll_once(call.as_mut()) else { panic!("cancel settles") };
            assert_eq!(result, Err(cancelled_error()));
            assert!(tools.waiting_prompts().is_empty(), "the prompt is withdrawn");
            assert_eq!(resolved(&tools.events()), [(id.clone(), None)]);
            // A late answer is ignored and the tool never runs.
            tools.resolve_permission(&id, PermissionResultValue::Allow, Some("owner"));
            assert_eq!(resolved(&tools.events()).len(), 1);
            assert_eq!(tools.runs(), 0);
        }

        fn dropping_the_call_withdraws_its_prompt() {
            let tools = tools();
            let options = RuntimeToolInvokeOptions::new().allowing_prompt(None);
            let parameters = ToolParameters::new();
            let mut call = Box::pin(tools.invoke_runtime_tool("write", &parameters, options));
            assert!(poll_once(call.as_mut()).is_pending());
            let id = tools.waiting_prompts()[0].clone();
            drop(call);
            assert!(tools.waiting_prompts().is_empty());
            assert_eq!(resolved(&tools.events()), [(id, None)]);
            assert_eq!(tools.runs(), 0);
        }

        fn an_aborted_call_asks_nobody() {
            let tools = tools();
            let cancel = Cell::new(true);
            let options = RuntimeToolInvokeOptions::new().allowing_prompt(None).with_signal(&cancel);
            let result = block_on(tools.invoke_runtime_tool("write", &ToolParameters::new(), options));
            assert_eq!(result, Err(cancelled_error()));
            assert!(tools.events().is_empty());
            let unknown = block_on(tools.invoke_runtime_tool(
                "missing",
                &ToolParameters::new(),
                RuntimeToolInvokeOptions::new(),
            ))
            .expect("a result");
            assert!(!unknown.success);
        }

        fn runtime_tools_through_a_host_and_the_session_double() {
            let session = D::new().with_runtime_tools(tools());
            let host = SessionCapabilityHost::new(&session, &session, &session)
                .with_runtime_tools(&session)
                .with_prompt_resolution(&session);
            let Some(runtime) = host.runtime_tools().provided() else { panic!("provided") };
            assert_eq!(block_on(runtime.list_runtime_tools()).expect("lists").len(), 2);
            // Through the erased role the default still fails closed.
            let denied = block_on(runtime.invoke_runtime_tool(
                "write",
                &ToolParameters::new(),
                RuntimeToolInvokeOptions::new(),
            ))
            .expect("a result");
            assert!(!denied.success);
            // A prompt opened through the host is answered through the session's prompt role.
            let flag = Cell::new(false);
            let options = RuntimeToolInvokeOptions::new()
                .allowing_prompt(Some(s("owner")))
                .with_signal(&flag);
            let parameters = ToolParameters::new();
            let mut call = pin!(runtime.invoke_runtime_tool("write", &parameters, options));
            assert!(poll_once(call.as_mut()).is_pending());
            let id = session.runtime_tools().waiting_prompts()[0].clone();
            let Some(prompts) = host.prompt_resolution().provided() else { panic!("provided") };
            prompts.resolve_permission(&id, PermissionResultValue::AllowSession, Some("owner"));
            let Poll::Ready(result) = poll_once(call.as_mut()) else { panic!("settled") };
            assert!(result.expect("runs").success);
            assert_eq!(session.runtime_tools().runs(), 1);
        }
    }
}

//! The main example: a host walks through what `agent-interface` gives it today.
//!
//! 1. A turn finishes: the host records a content-free usage observation and sends it to a peer
//!    as JSON; the peer (Rust or the TypeScript SDK) reads it back.
//! 2. A command is invoked without its argument: its picker interaction is rendered and answered,
//!    and a confirm interaction crosses to a remote renderer as JSON and back.
//! 3. The host lists its commands for a client, runs one through an executor, and refuses a
//!    subcommand the model may not run.
//! 4. A background agent task walks through its lifecycle as the events a surface receives.
//! 5. Two drivers co-drive one session through the turn queue: one input queued, one coalesced,
//!    one dropped at capacity, one cancelled, each printing how it settled.
//! 6. The host runs its transports through a registry: a service and a runner start in order,
//!    the runner's end is awaited, and everything stops. It resolves the transport's admission
//!    (an explicit token, an open run with its reason, a minted token), checks a presented bearer
//!    credential in constant time, and carries a payload channel whose frames arrive out of
//!    order and are delivered in order; an undeclared event is refused back to the peer.
//! 7. A crashed turn's orphan tool calls are reconciled on wake, never re-run.
//! 8. A sealed record that no key in this process opens is reported `locked` and left intact.
//! 9. The session cache forks a session and reconciles it on wake, over the directory store.
//! 10. The read-only shared-memory seam, over an in-memory provider.
//!
//! Shorter examples, one task each, in `hosted/examples/`: `store_round_trip` (records in a
//! directory, claims and a damaged record), `co_drive_threads` (the turn queue on threads),
//! `policy_checks` (per-session permission rules), `handoff` (a session moved between two
//! machines' record stores: sealed, chunked, verified, acknowledged), `ws_carrier` (a tokio host
//! over a real WebSocket); and `firmware/examples/co_drive.rs` and `browser/`.
//!
//! Run it with `cargo run --example session_host --features full,record-store-fs`.

use agent_interface::agent_core::{
    AssistantMessage, ToolCall, ToolCallFunction, ToolMessage, UniversalMessage,
};
use agent_interface::agent_core::{BackgroundPermissionPolicy, NeverAborted, TokenUsage};
use agent_interface::analytics::usage::{
    ModelAttribution, TurnCost, UsageObservation, UsageOutcome, UsageSnapshot, UsageSnapshotKind,
    UsageSnapshotScope, UsageSource, UsageSurface,
};
use agent_interface::command::definition::{
    Command, CommandHostAction, CommandResult, CommandRunner,
};
use agent_interface::command::listing::{model_may_run, to_command_list_entry};
use agent_interface::execution::{
    task_event::BackgroundTaskEvent,
    task_request::{AgentBackgroundTaskRequest, BackgroundTaskRequest, BackgroundTaskRequestBase},
    task_result::{AgentBackgroundTaskResult, BackgroundTaskResult, BackgroundTaskResultBase},
    task_state::{BackgroundTaskState, JobStateFields},
    task_vocabulary::{BackgroundTaskKind, BackgroundTaskMode, BackgroundTaskStatus},
};
use agent_interface::runtime::reconcile::{
    ReconcileInputs, ToolEffect, reconcile_interrupted_session, reconciled_error_kind,
};
use agent_interface::runtime::record_store::{
    AeadSeal, FileMedium, FileRecordStore, KeyId, KeyRole, Keyring, RecordId, RecordMedium,
    RecordStore, Unsealed, WriterId,
};
use agent_interface::runtime::session_cache::{
    AcquireOptions, Acquisition, ForkOwner, IdKind, OwnerRow, Principal, Registration,
    SessionCache, SessionCacheConfig, SessionCachePort, StoreDurability,
};
use agent_interface::runtime::shared_memory::{
    InMemorySharedMemory, SharedMemoryFixture, SharedMemoryProvider, SharedMemoryState,
    SharedMemoryStoreFixture, SharedMemoryStoreInfo,
};
use agent_interface::runtime::transport::admission::rand_core::{TryCryptoRng, TryRng};
use agent_interface::runtime::transport::admission::{
    admission_admits, bearer_credential, resolve_admission,
};
use agent_interface::runtime::transport::channels::{
    ChannelResumePoint, NotDelivered, PayloadChannelRegistry,
};
use agent_interface::runtime::transport::{
    BoundTransport, InMemoryRunner, InMemoryService, TransportRegistration, TransportRegistry,
};
use agent_interface::runtime::turn_queue::{Settled, TurnQueue};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose,
};
use agent_interface::transport::{
    admission::{TransportAdmission, TransportAdmissionConfig},
    channels::{ChannelDescriptor, ChannelName},
    config::TransportLifecycleRegistryView,
    outcomes::TransportRunOutcome,
};
use agent_interface::tui::{
    AnyTuiCommandInteraction, OnMissingArgsAction, TuiCommandInteraction, TuiConfirmInteraction,
    TuiPickerItem,
};

use embassy_futures::block_on;
use embassy_sync::blocking_mutex::raw::NoopRawMutex;

fn main() -> Result<(), serde_json::Error> {
    usage_observation()?;
    tui_interaction()?;
    commands()?;
    background_task()?;
    co_drive();
    transports()?;
    admission();
    payload_channel();
    reconcile_on_wake()?;
    // The stores write to a directory of their own, removed at the end.
    let dir = std::env::temp_dir().join(format!("session-host-{}", std::process::id()));
    sealed_locked_record(&dir);
    session_cache(&dir);
    std::fs::remove_dir_all(&dir).expect("the example's directory goes");
    shared_memory()?;
    Ok(())
}

/// Section 1: a usage observation for one finished turn, on the wire and back.
fn usage_observation() -> Result<(), serde_json::Error> {
    println!("== usage observation");
    let usage = UsageSnapshot::new(
        UsageSnapshotKind::Exact,
        UsageSnapshotScope::Turn,
        1_530,
        1_530,
        200_000,
        0.8,
        // Priced from a local table: an estimate, however exact the model id.
        TurnCost::Estimated { usd: 0.0086 },
    )
    .with_prompt_tokens(1_200)
    .with_completion_tokens(330);
    let observation = UsageObservation::new("obs-7", "turn-7", UsageOutcome::Success)
        .with_prompt_execution_started_at("2026-12-02T10:00:00.000Z")
        .with_prompt_execution_ended_at("2026-12-02T10:00:02.500Z")
        .with_prompt_execution_outcome(UsageOutcome::Success)
        .with_prompt_execution_trace_id("4bf92f3577b34da6a3ce929d0e0e4736")
        .with_prompt_execution_span_id("00f067aa0ba902b7")
        .with_model(ModelAttribution::Single("claude-sonnet".into()))
        .with_provider_id("anthropic")
        .with_surface(UsageSurface::Cli)
        .with_source(UsageSource::main())
        .with_usage(usage);
    let wire = serde_json::to_string_pretty(&observation)?;
    println!("{wire}");
    let read_back: UsageObservation = serde_json::from_str(&wire)?;
    assert_eq!(read_back, observation);
    let cost = read_back.usage.as_ref().map(|usage| usage.cost);
    println!(
        "peer read it back: turn {} on {:?}, cost {:?} USD ({})",
        read_back.turn_id,
        read_back.model.model_id(),
        cost.and_then(|cost| cost.usd()),
        cost.map_or("no snapshot", |cost| cost.status().as_str()),
    );
    // An amount with status `unknown` is not a value of the type, so it cannot be decoded either.
    let refused = serde_json::from_str::<UsageSnapshot>(
        r#"{"kind":"exact","scope":"turn","totalTokens":1,"contextUsedTokens":1,
            "contextMaxTokens":10,"contextUsedPercentage":10,"costStatus":"unknown","costUsd":1}"#,
    );
    println!(
        "an unpriced snapshot with an amount: {}",
        refused.unwrap_err()
    );
    Ok(())
}

/// Section 2: a terminal interaction, rendered locally and sent to a remote renderer.
fn tui_interaction() -> Result<(), serde_json::Error> {
    println!("\n== tui interaction");
    // `/model` declares that a missing argument opens a picker.
    let declared = TuiCommandInteraction::new().with_on_missing_args(OnMissingArgsAction::Picker);
    println!("/model declares {}", serde_json::to_string(&declared)?);

    let models = || {
        vec![
            TuiPickerItem::new("Opus", "claude-opus").with_description("Most capable"),
            TuiPickerItem::new("Sonnet", "claude-sonnet"),
        ]
    };
    let interactions = [
        AnyTuiCommandInteraction::Picker(Box::new(models)),
        AnyTuiCommandInteraction::Confirm(TuiConfirmInteraction::new(
            "Switch model for this session?",
        )),
    ];
    for interaction in &interactions {
        // The renderer narrows on the action; the match is exhaustive.
        match interaction {
            AnyTuiCommandInteraction::Picker(picker) => {
                let items = picker.get_items();
                let chosen = &items[1];
                println!(
                    "picker: {} items, the user picks {:?} -> `/model {}`",
                    items.len(),
                    chosen.label,
                    chosen.value
                );
            }
            AnyTuiCommandInteraction::Confirm(confirm) => {
                // A remote renderer receives the confirm as JSON and reads it back.
                let wire = serde_json::to_string(confirm)?;
                let remote: TuiConfirmInteraction = serde_json::from_str(&wire)?;
                assert_eq!(&remote, confirm);
                println!(
                    "confirm crosses as {wire}; the remote asks {:?}",
                    remote.message
                );
            }
        }
    }
    Ok(())
}

/// Section 3: commands, as a client lists them and as the host runs them.
fn commands() -> Result<(), serde_json::Error> {
    println!("\n== commands");
    let memory = Command::new(
        "memory",
        "Inspect and edit what the agent remembers",
        "builtin",
    )
    .with_model_invocable(true)
    .with_subcommands(vec![
        Command::new("show", "Print the memory file", "builtin").with_model_invocable(true),
        Command::new("clear", "Forget everything", "builtin").with_model_invocable(false),
    ]);
    let rename =
        Command::new("rename", "Rename this session", "builtin").with_argument_hint("<name>");
    for command in [&memory, &rename] {
        let entry = to_command_list_entry(command);
        assert_eq!(entry.runner, CommandRunner::Runtime);
        println!("listed: {}", serde_json::to_string(&entry)?);
    }
    for args in ["", "show", "clear"] {
        println!(
            "may the model run `/memory {args}`? {}",
            model_may_run(&memory, args)
        );
    }
    // Running `/rename Quarterly report`: the result carries the host action; a failure would be
    // `success: false` in the same record, never a thrown error.
    let result = CommandResult::success("Renamed.").with_host_actions(vec![
        CommandHostAction::SessionRename {
            name: "Quarterly report".into(),
        },
    ]);
    println!("/rename result: {}", serde_json::to_string(&result)?);
    Ok(())
}

/// Section 4: one background agent task, from request to completion, as surfaces see it.
fn background_task() -> Result<(), serde_json::Error> {
    println!("\n== background task");
    let request = BackgroundTaskRequest::Agent(
        AgentBackgroundTaskRequest::new(
            BackgroundTaskRequestBase::new(
                "Summarise the changelog",
                BackgroundTaskMode::Background,
                "session-1",
                1,
                "/work/project",
            )
            .with_max_runtime_ms(600_000),
            "general-purpose",
            "Summarise CHANGELOG.md in five bullets",
            BackgroundPermissionPolicy::InheritAllowlist,
        )
        .with_allowed_tools(vec!["read_file".into()]),
    );
    println!("request: {}", serde_json::to_string(&request)?);

    let mut task = BackgroundTaskState::new(
        JobStateFields::new(
            "task-1",
            "Summarise the changelog",
            "session-1",
            BackgroundTaskMode::Background,
            1,
            "/work/project",
            "2026-12-02T10:00:00.000Z",
        ),
        BackgroundTaskKind::Agent,
        BackgroundTaskStatus::Queued,
    )
    .with_agent_type("general-purpose")
    .with_prompt_preview("Summarise CHANGELOG.md");
    let mut events = vec![BackgroundTaskEvent::Created {
        task: Box::new(task.clone()),
    }];
    task.status = BackgroundTaskStatus::Running;
    task.job.started_at = Some("2026-12-02T10:00:01.000Z".into());
    events.push(BackgroundTaskEvent::Started {
        task: Box::new(task.clone()),
    });
    events.push(BackgroundTaskEvent::TextDelta {
        task_id: "task-1".into(),
        delta: "- Faster startup".into(),
    });
    task.status = BackgroundTaskStatus::Completed;
    task.unread = true;
    task.job.completed_at = Some("2026-12-02T10:00:09.000Z".into());
    task.result = Some(BackgroundTaskResult::Agent(
        AgentBackgroundTaskResult::new(BackgroundTaskResultBase::new(
            "task-1",
            "- Faster startup\n- New theme picker",
        ))
        .with_usage(TokenUsage::new(2_100, 160, 2_260)),
    ));
    events.push(BackgroundTaskEvent::Completed {
        task: Box::new(task.clone()),
    });
    for event in &events {
        let wire = serde_json::to_string(event)?;
        let seen: BackgroundTaskEvent = serde_json::from_str(&wire)?;
        let status = seen.task().map(|task| task.status.as_str()).unwrap_or("-");
        println!(
            "event {:<28} task {} status {:<9} terminal {}",
            seen.event_type().as_str(),
            seen.task_id(),
            status,
            seen.task().is_some_and(BackgroundTaskState::is_terminal),
        );
    }
    let usage = task.result.as_ref().and_then(BackgroundTaskResult::usage);
    println!("result usage: {usage:?}");
    Ok(())
}

/// Section 5: two drivers, one session, one turn at a time.
fn co_drive() {
    println!("\n== co-drive");
    // Two inputs may wait behind the running turn. `NoopRawMutex`: this host is single-threaded.
    let queue: TurnQueue<NoopRawMutex, &str, String, &str, 2> = TurnQueue::new();
    let mut fix = queue.submit("fix the failing test", "owner").expect("open");
    let turn = queue.start().expect("the owner's input runs");
    let mut tests = queue.submit("also run the tests", "phone").expect("open"); // queued
    let mut typo = queue.submit("and lnit", "owner").expect("open"); // queued
    let mut lint = queue.submit("and lint", "owner").expect("open"); // replaces `typo`
    let mut docs = queue.submit("update the docs", "phone").expect("open"); // two wait: dropped

    queue
        .finish(turn.id, format!("done: {}", turn.input))
        .expect("it is running");
    let next = queue.start().expect("the phone's queued input runs");
    queue
        .finish(next.id, format!("done: {}", next.input))
        .expect("it is running");
    // The owner cancels what still waits (refused only from inside a driver's comparison).
    let cleared = queue.clear().expect("not called back from a comparison");
    let drivers: Vec<_> = cleared.drivers().collect();
    println!("cleared {} input(s) from {drivers:?}", cleared.cancelled());

    let tickets = [
        ("fix", &mut fix),
        ("tests", &mut tests),
        ("typo", &mut typo),
        ("lint", &mut lint),
        ("docs", &mut docs),
    ];
    for (name, ticket) in tickets {
        // `Err(AlreadyRead)` only for a ticket read before; these are read here once.
        match ticket.try_settled().expect("each ticket is read once") {
            Some(Settled::Complete(reply)) => {
                println!("turn {} ({name}) completed: {reply}", ticket.id());
            }
            Some(Settled::Interrupted(partial)) => {
                println!("turn {} ({name}) interrupted: {partial}", ticket.id());
            }
            Some(Settled::NotRun(not_run)) => println!("{not_run} ({name})"),
            None => println!("turn {} ({name}) has not settled", ticket.id()),
        }
    }
    // A submission dropped at capacity hands its input back.
    assert_eq!(docs.take_dropped_input(), Some("update the docs"));
    queue.shutdown().expect("not called back from a comparison");
    let refused = queue.submit("hello?", "phone").expect_err("shut down");
    println!(
        "after shutdown, the input comes back: {:?}",
        refused.into_inner()
    );
}

/// Section 6: transports under a registry. The registry holds bound adapters only (the session
/// is captured by the binding), starts them in registration order, and reports how runners end.
fn transports() -> Result<(), serde_json::Error> {
    println!("== transports");
    let session = String::from("session-1");
    let ws = BoundTransport::new(InMemoryService::new("ws"), session.clone());
    let headless = BoundTransport::new(InMemoryRunner::new("headless"), session);
    let registry = TransportRegistry::without_settings();
    registry
        .register(TransportRegistration::service(&ws))
        .expect("unique name");
    registry
        .register(TransportRegistration::runner(&headless))
        .expect("unique name");
    block_on(registry.start_all()).expect("both start");
    println!("started: {:?}", registry.names());

    // The runner's work ends; the host reports how, as the TypeScript SDK would read it.
    headless
        .adapter()
        .complete(Ok(TransportRunOutcome::Succeeded));
    let records = block_on(registry.wait_for_completion()).expect("no fault");
    println!("completion: {}", serde_json::to_string(&records)?);
    let failure = block_on(registry.wait_for_failure()).expect("no fault");
    println!("first failure: {failure:?}");

    let stopped = block_on(registry.stop_all());
    println!("stopped cleanly: {}", stopped.is_clean());
    Ok(())
}

/// The example's stand-in for the host's entropy source. A real host passes its operating
/// system's cryptographic RNG (for example getrandom's `SysRng`); the crate never reads entropy
/// itself.
struct ExampleEntropy(u8);

impl TryRng for ExampleEntropy {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut bytes = [0; 4];
        self.try_fill_bytes(&mut bytes)?;
        Ok(u32::from_le_bytes(bytes))
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut bytes = [0; 8];
        self.try_fill_bytes(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for byte in dst {
            self.0 = self.0.wrapping_mul(167).wrapping_add(13);
            *byte = self.0;
        }
        Ok(())
    }
}

impl TryCryptoRng for ExampleEntropy {}

/// Section 6, continued: how a transport admits its peers.
fn admission() {
    println!("== admission");
    let mut entropy = ExampleEntropy(7);
    // A host-chosen token is used as given; the RNG is not touched.
    let chosen = TransportAdmissionConfig {
        token: Some(String::from("host-chosen-secret")),
        ..TransportAdmissionConfig::default()
    };
    let chosen = resolve_admission(chosen, &mut entropy).expect("a token");
    // Running open needs a written reason.
    let open = TransportAdmissionConfig {
        open: Some(true),
        open_reason: Some(String::from("  loopback demo only  ")),
        ..TransportAdmissionConfig::default()
    };
    match resolve_admission(open, &mut entropy) {
        Ok(TransportAdmission::Open { reason }) => println!("open, because: {}", reason.as_str()),
        other => println!("unexpected: {other:?}"),
    }
    // Nothing asked for: a token is minted; its Debug never shows it.
    let minted = resolve_admission(TransportAdmissionConfig::default(), &mut entropy)
        .expect("the RNG works");
    println!("minted: {minted:?}");
    // Resolving again changes nothing.
    let again = resolve_admission(minted.clone(), &mut entropy).expect("idempotent");
    assert_eq!(again, minted);
    // A peer presents a bearer header; the check runs in constant time.
    let presented = bearer_credential("Bearer host-chosen-secret");
    println!(
        "bearer admitted: {}, wrong one admitted: {}",
        admission_admits(&chosen, presented),
        admission_admits(&chosen, bearer_credential("bearer nope"))
    );
}

/// Section 6, continued: a payload channel on a transport, out-of-order delivery restored.
fn payload_channel() {
    println!("== payload channel");
    let descriptor = ChannelDescriptor::new(
        ChannelName::new("voice").expect("1..=255 bytes"),
        ["start", "stop"],
    )
    .with_binary(true);
    let mut sender: PayloadChannelRegistry<8> = PayloadChannelRegistry::new();
    let mut receiver: PayloadChannelRegistry<8> = PayloadChannelRegistry::new();
    let outbound = sender.register(descriptor.clone()).expect("a new name");
    // Both sides start the channel at seq 0 (a resume point), so a frame ahead of seq 0 waits
    // for it. A plain `register` would take the first frame to arrive, whatever its seq, as the
    // start (a peer joined late, its numbering under way); `rebase` does so after a reconnect.
    receiver
        .register_resuming(descriptor, ChannelResumePoint::ZERO)
        .expect("a new name");

    let start = serde_json::json!({"codec": "opus"});
    let frames = [
        sender
            .send_event(&outbound, "start", &start)
            .expect("declared"),
        sender
            .send_binary(&outbound, &[1, 2, 3])
            .expect("binary opted in"),
        sender
            .send_event(&outbound, "stop", &serde_json::Value::Null)
            .expect("declared"),
    ];
    // The carrier delivers seq 2, then 0, then 1.
    // Each frame is handed over as the buffer the carrier delivered (no copy).
    for index in [2, 0, 1] {
        let delivery = receiver
            .receive(frames[index].clone(), 0)
            .expect("routable");
        let seqs: Vec<u32> = delivery
            .map(|item| match item {
                Ok(frame) => frame.seq,
                Err(NotDelivered::Refused(refused)) => refused.seq,
                // A gap needs a deadline or a full window: neither happens here.
                Err(other) => panic!("{other}"),
            })
            .collect();
        println!("frame {index} arrived: delivers seqs {seqs:?}");
    }
    // An event the channel never declared is refused back to the peer, never dropped: its
    // header is in order (seq 3), so it moves the channel on and its delivery is the refusal.
    let mut rogue: PayloadChannelRegistry<8> = PayloadChannelRegistry::new();
    let next = ChannelResumePoint {
        next_send: 3,
        next_receive: 0,
    };
    let rogue_channel = rogue
        .register_resuming(
            ChannelDescriptor::new(ChannelName::new("voice").expect("1..=255 bytes"), ["mute"]),
            next,
        )
        .expect("a new name");
    let bytes = rogue
        .send_event(&rogue_channel, "mute", &serde_json::Value::Null)
        .expect("declared on the rogue side");
    let mut delivery = receiver.receive(bytes, 0).expect("in order");
    let refusal = delivery
        .next()
        .and_then(Result::err)
        .expect("undeclared here");
    println!(
        "refused: {}",
        serde_json::to_string(&refusal.to_receive_result()).expect("serializable")
    );
}

/// Section 7: a turn crashed after its assistant message was persisted and before two of its
/// three tool results were. On wake, the host reconciles the branch before the next turn: each
/// orphan call gets a synthetic interrupted result (no tool runs again), tuned by the tool's
/// effect, and the report says what to announce. A second reconciliation has nothing to do.
fn reconcile_on_wake() -> Result<(), serde_json::Error> {
    println!("== reconcile on wake");
    let at = "2026-05-01T11:59:00.000Z";
    let call = |id: &str, tool: &str| ToolCall::new(id, ToolCallFunction::new(tool, "{}"));
    // The persisted branch: the read's result was flushed, then the process died.
    let mut branch = vec![
        UniversalMessage::user("e1", at, "update the changelog and deploy"),
        AssistantMessage::new("e2", at, None)
            .with_tool_calls(vec![
                call("call_read", "read_file"),
                call("call_write", "write_file"),
                call("call_deploy", "deploy"),
            ])
            .into(),
        ToolMessage::new("e3", at, "call_read", "# Changelog")
            .with_name("read_file")
            .into(),
    ];

    // What the host knows on wake: its tools' effects (`deploy` is not described, so it counts
    // as a write). Which calls had started died with the process, so none is said to be safe.
    let effects = std::collections::BTreeMap::from([
        ("read_file", ToolEffect::Read),
        ("write_file", ToolEffect::Write),
    ]);
    let inputs = ReconcileInputs::new().with_tool_effects(&effects);
    let now_ms = 1_777_636_800_000; // 2026-05-01T12:00:00Z, from the host's clock
    let mut next_entry = branch.len();
    let reconciliation = reconcile_interrupted_session(&branch, &inputs, now_ms, |_orphan| {
        next_entry += 1;
        format!("e{next_entry}")
    })
    .expect("a well-formed branch");

    for recovered in &reconciliation.report().recovered {
        println!(
            "closed {} ({}) as {} in entry {}: {}",
            recovered.tool_call_id,
            recovered.tool_name,
            recovered.error_kind,
            recovered.entry_id,
            recovered.text
        );
    }
    println!(
        "report: {}",
        serde_json::to_string(reconciliation.report())?
    );
    let (append, _report, result_orphans) = reconciliation.into_parts();
    assert!(result_orphans.is_empty());
    for result in &append {
        // The kind is on the message too: nobody parses the text.
        assert!(reconciled_error_kind(result).is_some());
    }
    branch.extend(append.into_iter().map(UniversalMessage::Tool));

    let again = reconcile_interrupted_session(&branch, &inputs, now_ms, |_| String::from("unused"))
        .expect("a well-formed branch");
    println!(
        "reconciling again appends {} result(s)",
        again.append().len()
    );
    Ok(())
}

/// Section 8: a sealed record that no key in this process opens is reported
/// `locked` with its reason, counted apart in a listing, and left intact.
fn sealed_locked_record(dir: &std::path::Path) {
    println!("== a sealed record this process cannot open");
    let medium = FileMedium::open(dir.join("sealed")).expect("the directory opens");
    // The host hands the keys in (from its keychain, say); the crate reads none itself.
    let owner_key = KeyId::new("owner-2026").expect("a valid key id");
    let mut keys = Keyring::new();
    keys.add_key(owner_key, KeyRole::Owner, [0x42; 32].into())
        .expect("one key per id");
    println!("keyring (material never printed): {keys:?}");

    // The owner's process seals and saves a session, then lets it go.
    let owner = RecordStore::new(
        &medium,
        AeadSeal::new(keys.clone(), ExampleEntropy(11)),
        WriterId::new("owner-process").expect("a valid writer id"),
    );
    let record = InteractiveSessionRecord::new(
        "sealed-1",
        "/work/app",
        "2026-09-24T10:00:00Z",
        "2026-09-24T10:00:00Z",
    );
    let saved = block_on(owner.save(&record, SavePurpose::Run, ContentProvenance::Session))
        .expect("the directory is writable");
    assert_eq!(saved, SaveOutcome::Saved);
    let id = RecordId::new("sealed-1").expect("a valid record id");
    let owned = block_on(owner.load("sealed-1", LoadPurpose::Probe)).expect("readable");
    println!("the owner's process reads it as: {:?}", owned.owner());
    block_on(owner.release(&id)).expect("the marker goes");

    // Two other processes over the same files: one knows the key id but its key is locked,
    // one holds no key at all.
    let before = block_on(medium.read(&id)).expect("readable");
    for (name, keyring) in [("keys-locked", keys.locked()), ("keyless", Keyring::new())] {
        let other = RecordStore::new(
            &medium,
            AeadSeal::new(keyring, ExampleEntropy(12)),
            WriterId::new(name).expect("a valid writer id"),
        );
        let outcome = block_on(other.load("sealed-1", LoadPurpose::Resume)).expect("readable");
        println!(
            "{name}: load -> {outcome:?} (recovery allowed: {})",
            outcome.permits_recovery()
        );
        let listing = block_on(other.list()).expect("readable");
        println!(
            "{name}: the listing shows {} entries; {} locked (an unlock here opens them), {} unopenable",
            listing.entries.len(),
            listing.locked_count,
            listing.unopenable_count
        );
        let overwrite = record.clone().with_name("overwritten?");
        let refused =
            block_on(other.save(&overwrite, SavePurpose::Run, ContentProvenance::Session))
                .expect("the directory is writable");
        println!("{name}: a save over it -> {refused:?}");
    }
    let after = block_on(medium.read(&id)).expect("readable");
    assert_eq!(before, after, "the locked record is left intact");
    println!("the sealed bytes are unchanged");
}

/// Section 9: the session cache over the directory store. It forks a session (the copy takes
/// the committed history and never weaker ownership than the source's), then wakes an
/// interrupted session: the dangling tool call is closed with a synthetic result and saved back
/// before the session is handed out.
fn session_cache(dir: &std::path::Path) {
    println!("== the session cache: fork, and reconcile on wake");
    let store = FileRecordStore::new(
        FileMedium::open(dir.join("cache")).expect("the directory opens"),
        Unsealed,
        WriterId::new(format!("cache:{}", std::process::id())).expect("a valid writer id"),
    );
    let at = "2026-05-01T11:59:00.000Z";
    let user = UniversalMessage::user("m1", at, "write the release notes");
    let mut source = InteractiveSessionRecord::new(
        "src",
        "/work/project",
        "2026-05-01T11:00:00.000Z",
        "2026-05-01T11:59:00.000Z",
    );
    source.messages = vec![user.clone()];
    // A crash between persisting the assistant's tool call and its result.
    let mut interrupted = source.clone();
    interrupted.id = "interrupted".into();
    interrupted.messages.push(
        AssistantMessage::new("m2", at, None)
            .with_tool_calls(vec![ToolCall::new(
                "call_1",
                ToolCallFunction::new("write_file", "{}"),
            )])
            .into(),
    );
    for record in [&source, &interrupted] {
        let saved = block_on(store.save(record, SavePurpose::Run, ContentProvenance::Session));
        assert_eq!(saved.expect("the disk answers"), SaveOutcome::Saved);
    }

    // The host mints ids (the crate reads no entropy); a directory store is durable, so the
    // cache forgets on eviction instead of deleting history.
    let mut next = 0u32;
    let ids = move |kind: IdKind| {
        next += 1;
        match kind {
            IdKind::Session => format!("fork-{next}"),
            IdKind::Entry => format!("reconciled-{next}"),
        }
    };
    let config =
        SessionCacheConfig::for_custom_store("/work/project", Some(StoreDurability::Durable));
    let cache = SessionCache::new(store, ids, config);
    let now_ms = 1_777_636_800_000; // 2026-05-01T12:00:00Z, from the host's clock

    // Fork: alice owns the source, so the fork is hers too, whatever owner the caller names.
    block_on(cache.register(
        "src",
        Registration::Principal(Principal::new("alice").expect("not blank")),
    ));
    let fork_id = block_on(cache.fork(
        "src",
        ForkOwner::Principal(Principal::new("mallory").expect("not blank")),
        now_ms,
    ))
    .expect("the store answers")
    .expect("the source exists");
    assert_eq!(
        block_on(cache.owner_of(&fork_id)),
        OwnerRow::Owned(Principal::new("alice").expect("not blank"))
    );
    let fork = block_on(cache.acquire(
        Some(&fork_id),
        AcquireOptions::new().require_existing(true),
        now_ms + 1,
    ))
    .expect("resumes");
    println!(
        "forked `src` into `{fork_id}` ({} message(s), owner {:?})",
        fork.session.with(|record| record.messages.len()),
        block_on(cache.owner_of(&fork_id)),
    );

    // Wake: the tools' effects are known; which calls had started is not (the process died).
    let effects = std::collections::BTreeMap::from([("write_file", ToolEffect::Write)]);
    let options = AcquireOptions::new()
        .require_existing(true)
        .with_reconcile(ReconcileInputs::new().with_tool_effects(&effects));
    let woken = block_on(cache.acquire(Some("interrupted"), options, now_ms + 2)).expect("resumes");
    if let Acquisition::Resumed { recovered, .. } = &woken.how {
        for orphan in &recovered.recovered {
            println!(
                "closed interrupted call `{}` ({}) as {} with entry `{}`",
                orphan.tool_call_id, orphan.tool_name, orphan.error_kind, orphan.entry_id
            );
        }
    }
    // The reconcile was saved: waking again (after dropping the cached view) recovers nothing.
    cache.forget("interrupted");
    let again = block_on(cache.acquire(Some("interrupted"), options, now_ms + 3)).expect("resumes");
    assert!(
        matches!(again.how, Acquisition::Resumed { ref recovered, .. } if recovered.recovered.is_empty())
    );
    // A missing id with `require_existing` fails loudly instead of starting an empty session.
    let gone = block_on(cache.acquire(
        Some("gone"),
        AcquireOptions::new().require_existing(true),
        now_ms + 4,
    ));
    println!(
        "acquire `gone` (must exist): {}",
        gone.expect_err("not found")
    );
    let recent: Vec<String> = cache.list().into_iter().map(|s| s.session_id).collect();
    println!("recent sessions, newest first: {recent:?}");
}

/// Section 10: the read-only shared-memory seam, over an in-memory provider.
fn shared_memory() -> Result<(), serde_json::Error> {
    println!("== shared memory (read-only seam)");
    let contents = SharedMemoryFixture::new(
        SharedMemoryState {
            revision: 3,
            taken_at_ms: Some(1_700_000_000_000),
        },
        [SharedMemoryStoreFixture::new(
            SharedMemoryStoreInfo {
                description: Some("conventions the team agreed on".into()),
                ..SharedMemoryStoreInfo::new("team")
            },
            [
                ("style/indent", "4 spaces"),
                ("style/quotes", "double"),
                ("owner", "alice"),
            ],
        )],
    )
    .expect("store ids and keys are non-empty and unique");
    let memory = InMemorySharedMemory::new(contents);
    let snapshot = block_on(memory.snapshot(&NeverAborted)).expect("not cancelled");
    println!("snapshot: {}", serde_json::to_string(&snapshot)?);
    let style =
        block_on(memory.read_prefix("team", "style/", &NeverAborted)).expect("not cancelled");
    println!("under style/: {}", serde_json::to_string(&style)?);
    // Absence is a value, never an error.
    let missing = block_on(memory.read_entry("team", "deadline", &NeverAborted));
    println!("team/deadline: {missing:?}");
    // The host cancels through its own signal; a cancelled read returns no part of its answer.
    let cancel = core::cell::Cell::new(true);
    let cancelled = block_on(memory.read_prefix("team", "", &cancel));
    println!("cancelled read: {cancelled:?}");
    Ok(())
}

//! The 1 MiB session record the record benches share (benches/record_decode.rs,
//! benches/record_save.rs): messages of every role, the history timeline with payloads, tool
//! schemas, background tasks and their events, memory and context inventories, a goal, a plan
//! and an active branch, until its encoding reaches [`TARGET_BYTES`].
#![allow(dead_code)]

use agent_interface::agent_core::{
    AssistantMessage, HistoryEntry, ToolCall, ToolCallFunction, ToolMessage, ToolSchema,
    UniversalMessage, Value,
};
use agent_interface::runtime::record_codec::encode_session_record;
use agent_interface::session::records::InteractiveSessionRecord;
use serde::de::DeserializeOwned;

/// The size the bench record's encoding reaches (never less).
pub const TARGET_BYTES: usize = 1 << 20;
/// The bench record's id.
pub const ID: &str = "sess-bench";

/// A typed value of the crate, decoded from a JSON template (so the bench needs no knowledge
/// of every constructor, and a template the crate does not accept fails loudly).
pub fn typed<T: DeserializeOwned>(template: &str) -> T {
    serde_json::from_str(template).unwrap_or_else(|error| panic!("{template}: {error}"))
}

/// The timestamp of a message written `minute` minutes into the session.
pub fn at(minute: usize) -> String {
    format!(
        "2026-09-24T{:02}:{:02}:00Z",
        10 + minute / 60 % 12,
        minute % 60
    )
}

/// File contents a tool returns: source lines with quotes, backslashes and newlines to escape.
pub fn file_contents(turn: usize) -> String {
    let mut text = String::new();
    for line in 0..24 {
        text.push_str(&format!(
            "    let value_{line} = parse(\"field_{turn}\\t{line}\", &config)?; // checks \"{line}\"\n"
        ));
    }
    text
}

/// One turn: a user message, an assistant message with two tool calls, two tool results, and
/// the matching history entries.
pub fn turn(record: &mut InteractiveSessionRecord, turn: usize) {
    let messages = &mut record.messages;
    let history = record.history.get_or_insert_with(Vec::new);
    let user = format!(
        "Turn {turn}: please split the parser module into a lexer and a parser, keep the public \
         API, and run the tests afterwards. Mind the error type (ParseError) and the spans."
    );
    messages.push(UniversalMessage::user(
        format!("m{turn}-u"),
        at(turn),
        user.clone(),
    ));
    let calls: Vec<ToolCall> = (0..2)
        .map(|call| {
            ToolCall::new(
                format!("call-{turn}-{call}"),
                ToolCallFunction::new(
                    if call == 0 { "read_file" } else { "bash" },
                    format!(
                        "{{\"path\":\"src/parser/module_{turn}.rs\",\"command\":\"cargo test -p parser --lib {call}\"}}"
                    ),
                ),
            )
        })
        .collect();
    messages.push(
        AssistantMessage::new(
            format!("m{turn}-a"),
            at(turn),
            Some(format!(
                "I will read module {turn} first and then run the tests to see what fails."
            )),
        )
        .with_tool_calls(calls.clone())
        .into(),
    );
    for call in &calls {
        messages.push(
            ToolMessage::new(
                format!("{}-r", call.id),
                at(turn),
                call.id.clone(),
                file_contents(turn),
            )
            .with_name(call.function.name.clone())
            .into(),
        );
    }
    if turn.is_multiple_of(25) {
        messages.push(UniversalMessage::system(
            format!("m{turn}-s"),
            at(turn),
            "Context was compacted; earlier turns are summarised.",
        ));
    }
    history.push(typed(&format!(
        r#"{{"id":"h{turn}-u","timestamp":"2026-09-24T10:00:00Z","category":"chat","type":"user","data":{{"text":{}}}}}"#,
        Value::from(user)
    )));
    history.push(typed(&format!(
        r#"{{"id":"h{turn}-t","timestamp":"2026-09-24T10:00:01Z","category":"event","type":"tool-start","data":{{"toolName":"read_file","toolArgs":{{"path":"src/parser/module_{turn}.rs"}},"durationMs":{},"ok":true,"ratio":0.{turn}5}}}}"#,
        turn * 13
    )));
    let entry: HistoryEntry = typed(&format!(
        r#"{{"id":"h{turn}-e","timestamp":"2026-09-24T10:00:02Z","category":"event","type":"tool-end","data":{{"result":"success","lines":[1,2,3,{turn}],"summary":"read 24 lines"}}}}"#
    ));
    history.push(entry);
}

pub fn side_members(record: &mut InteractiveSessionRecord) {
    let tools: Vec<ToolSchema> = (0..12)
        .map(|tool| {
            typed(&format!(
                r#"{{"name":"tool_{tool}","description":"Tool number {tool}: reads or writes files in the workspace.","parameters":{{"type":"object","properties":{{"path":{{"type":"string","description":"A workspace path."}},"limit":{{"type":"number"}}}},"required":["path"]}}}}"#
            ))
        })
        .collect();
    record.tool_schemas = Some(tools);
    record.system_prompt = Some("You are a careful coding agent. ".repeat(40));
    let tasks = (0..40)
        .map(|task| {
            typed(&format!(
                r#"{{"id":"task-{task}","kind":"process","label":"build {task}","status":"running","mode":"background","parentSessionId":"{ID}","depth":0,"cwd":"/work/app","commandPreview":"cargo build --release -p crate_{task}","updatedAt":"2026-09-24T11:00:00Z","unread":true}}"#
            ))
        })
        .collect();
    record.background_tasks = Some(tasks);
    let events = (0..40)
        .map(|task| {
            typed(&format!(
                r#"{{"type":"background_task_closed","taskId":"task-{task}"}}"#
            ))
        })
        .collect();
    record.background_task_events = Some(events);
    record.background_job_groups = Some(vec![typed(&format!(
        r#"{{"id":"group-1","parentSessionId":"{ID}","waitPolicy":"detached","taskIds":["task-1","task-2"],"status":"running","createdAt":"2026-09-24T10:00:00Z","updatedAt":"2026-09-24T10:09:00Z","results":[]}}"#
    ))]);
    record.session_loops = Some(vec![typed(
        r#"{"loopId":"loop-2","instruction":"check the build","useDefaultPrompt":false,"createdAt":"2026-09-24T10:00:00Z","expiresAt":"2026-09-27T10:00:00Z","revision":5,"generation":3,"phase":"pending","delaySeconds":600,"fallbackUsed":false}"#,
    )]);
    record.skill_activation_events = Some(vec![typed(
        r#"{"type":"skill-activation","skillName":"review","source":"plugin","invocation":"user-slash","mode":"fork","status":"completed","timestamp":"2026-09-24T10:02:00Z"}"#,
    )]);
    record.memory_events = Some(
        (0..20)
            .map(|event| {
                typed(&format!(
                    r#"{{"type":"memory_retrieved","at":"2026-09-24T10:03:00Z","topic":"build commands {event}"}}"#
                ))
            })
            .collect(),
    );
    record.used_memory_references = Some(vec![typed(
        r#"{"topic":"build commands","path":"memory/project/build.md","score":0.87,"truncated":false}"#,
    )]);
    record.context_references = Some(
        (0..30)
            .map(|reference| {
                typed(&format!(
                    r#"{{"id":"ref-{reference}","sourcePath":"/work/app/src/{reference}.rs","relativePath":"src/{reference}.rs","originalReference":"src/{reference}.rs","loadType":"prompt-reference","status":"active","byteLength":2048,"loadedAt":"2026-09-24T09:59:00Z"}}"#
                ))
            })
            .collect(),
    );
    record.sandbox_snapshot_id = Some(String::from("snap-7"));
    record.goal = Some(typed(
        r#"{"id":"goal-1","objective":"Pass the tests","status":"active","iterations":1,"maxIterations":25,"startedAt":"2026-09-24T10:00:00Z","progress":[{"iteration":1,"signal":"continue","reason":"3 fail"}]}"#,
    ));
    record.plan = Some(typed(
        r#"{"id":"plan-1","objective":"Split the parser","steps":[{"id":"s1","description":"Extract the lexer","status":"pending"}],"phase":"awaiting-approval","createdAt":"2026-09-24T10:00:00Z"}"#,
    ));
    record.active_branch = Some(typed(
        r#"{"branchId":"branch-2","checkpointId":"turn-0002"}"#,
    ));
    record.extra.insert(
        String::from("uiState"),
        typed(r#"{"scroll":12,"collapsed":["h1-t"]}"#),
    );
}

/// A valid record whose encoding is about [`TARGET_BYTES`] (never less).
pub fn bench_record() -> InteractiveSessionRecord {
    let mut record = InteractiveSessionRecord::new(
        ID,
        "/work/app",
        "2026-09-24T10:00:00Z",
        "2026-09-24T12:00:00Z",
    );
    record.name = Some(String::from("parser split"));
    side_members(&mut record);
    let mut turns = 0;
    loop {
        // Check the size every 10 turns (encoding is the slow part of building).
        for _ in 0..10 {
            turn(&mut record, turns);
            turns += 1;
        }
        let bytes = encode_session_record(&record).expect("the bench record encodes");
        if bytes.len() >= TARGET_BYTES {
            return record;
        }
    }
}

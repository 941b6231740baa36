//! The one-pass decoders of the enums tagged on a member (the events `BackgroundTaskEvent` and
//! `BackgroundJobGroupEvent`, messages and their parts, task results), and the decoders of the
//! structs that stopped flattening (task states, tool parameter schemas), against serde's
//! derived decoder of the same shape, kept here as the reference: on golden values and
//! systematic corruptions of them (members reordered, dropped, written twice, of every wrong
//! type, foreign members, broken tags, broken nested members), both answer the same value or
//! the same message.
//!
//! The documented differences are tested on their own: an array is not an event, a tag that is
//! not a string is refused naming the literals (serde's says "variant identifier"), and a
//! message or a result with several problems names the first it reads.

use agent_interface::agent_core::{ObjectParameterSchema, UniversalMessage, UniversalMessagePart};
use agent_interface::execution::groups::BackgroundJobGroupEvent;
use agent_interface::execution::task_event::BackgroundTaskEvent;
use agent_interface::execution::task_result::BackgroundTaskResult;
use agent_interface::execution::task_state::BackgroundTaskState;
use serde::de::DeserializeOwned;
use serde_json::Value;

#[path = "common/reference_tagged.rs"]
mod reference;

use reference::{
    BackgroundJobGroupEvent as ReferenceGroupEvent, BackgroundTaskEvent as ReferenceTaskEvent,
    BackgroundTaskResult as ReferenceResult, ObjectSchema as ReferenceObjectSchema,
    TaskState as ReferenceTaskState, UniversalMessage as ReferenceMessage,
    UniversalMessagePart as ReferencePart,
};

/// An object as its members in the order they are written.
type Members = Vec<(String, Value)>;

/// A golden file of the execution family, by name (embedded, so the wasm32-wasip1 run, which
/// has no file system, reads it too).
macro_rules! golden {
    ($name:literal) => {
        include_str!(concat!("golden/execution/", $name, ".json"))
    };
}

/// The members of the object `text` holds, its tag (`type`, a message's `role`, a result's
/// `kind`) first as the
/// golden files write it; the order of the rest does not matter to either decoder, so the map's own order is good
/// enough.
fn members_of(text: &str) -> Members {
    let Value::Object(map) = serde_json::from_str(text).expect("JSON") else {
        panic!("not an object: {text}");
    };
    let mut members: Members = map.into_iter().collect();
    if let Some(tag) = members
        .iter()
        .position(|(key, _)| matches!(key.as_str(), "type" | "role" | "kind"))
    {
        let tag = members.remove(tag);
        members.insert(0, tag);
    }
    members
}

fn text(members: &Members) -> String {
    let written: Vec<String> = members
        .iter()
        .map(|(key, value)| format!("{}:{}", Value::from(key.as_str()), value))
        .collect();
    format!("{{{}}}", written.join(","))
}

/// serde_json's message without the position it appends.
fn message(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    }
}

/// Decodes `text` with both decoders; panics when they disagree. Answers whether it decoded.
fn agree<T, R>(text: &str) -> bool
where
    T: DeserializeOwned + PartialEq + std::fmt::Debug,
    R: DeserializeOwned + Into<T>,
{
    let ours = serde_json::from_str::<T>(text);
    let reference = serde_json::from_str::<R>(text).map(Into::into);
    match (&ours, &reference) {
        // A member read before the tag is read as the record codec reads one: a struct from an
        // object only, where serde's derived decoder also reads an array (a departure).
        (Err(error), _) if message(error).starts_with(ARRAY_AS_STRUCT) => {
            assert!(text.contains('['), "{text}: {error}");
        }
        (Ok(ours), Ok(reference)) => assert_eq!(ours, reference, "{text}"),
        (Err(ours), Err(reference)) => assert_eq!(message(ours), message(reference), "{text}"),
        _ => panic!("{text}: one-pass {ours:?}, derived {reference:?}"),
    }
    ours.is_ok()
}

/// The start of the refusal of an array where a struct is expected.
const ARRAY_AS_STRUCT: &str = "invalid type: sequence, expected struct";

/// Values of every JSON type, each wrong for most members.
fn wrong_values() -> Vec<Value> {
    [
        "5",
        "-1.5",
        "\"x\"",
        "null",
        "true",
        "[]",
        "{}",
        "[1]",
        "{\"a\":1}",
    ]
    .iter()
    .map(|text| serde_json::from_str(text).expect("JSON"))
    .collect()
}

/// Every corruption of `members` (an event with its tag first) the test runs, the untouched
/// event first.
fn corruptions(members: &Members, foreign: &[(&str, Value)]) -> Vec<Members> {
    let mut all = vec![members.clone()];
    // The tag last, the tag in the middle, everything reversed.
    let mut last = members.clone();
    last.rotate_left(1);
    all.push(last.clone());
    if members.len() > 2 {
        let mut middle = members.clone();
        middle.swap(0, 1);
        all.push(middle);
    }
    let mut reversed = members.clone();
    reversed.reverse();
    all.push(reversed);
    for order in [members.clone(), last] {
        for at in 0..order.len() {
            // Dropped, written twice (at once and at the end), of every wrong type.
            let mut dropped = order.clone();
            dropped.remove(at);
            all.push(dropped);
            let mut twice = order.clone();
            twice.insert(at + 1, order[at].clone());
            all.push(twice);
            let mut at_end = order.clone();
            at_end.push(order[at].clone());
            all.push(at_end);
            // A tag that is not a string is refused differently on purpose (see
            // `an_event_is_an_object_with_a_string_tag`).
            let values = if matches!(order[at].0.as_str(), "type" | "role" | "kind") {
                Vec::new()
            } else {
                wrong_values()
            };
            for value in values {
                let mut wrong = order.clone();
                wrong[at].1 = value;
                all.push(wrong);
            }
            // A member of the nested state of the wrong type, and missing.
            if let Value::Object(state) = &order[at].1 {
                for key in state.keys() {
                    let mut nested = order.clone();
                    let Value::Object(state) = &mut nested[at].1 else {
                        unreachable!()
                    };
                    let mut without = state.clone();
                    without.remove(key);
                    state.insert(key.clone(), Value::from(5));
                    all.push(nested.clone());
                    nested[at].1 = Value::Object(without);
                    all.push(nested);
                }
            }
        }
        // Members of other variants, right and wrong, before and after everything else; and a
        // member nobody declares.
        for (name, value) in foreign {
            for value in [value.clone(), Value::from(5), Value::from("x")] {
                let mut before = order.clone();
                before.insert(0, ((*name).to_owned(), value.clone()));
                all.push(before);
                let mut after = order.clone();
                after.push(((*name).to_owned(), value));
                all.push(after);
            }
        }
        let mut unknown = order.clone();
        unknown.insert(1, ("zzz".to_owned(), Value::from(1)));
        all.push(unknown);
    }
    // Broken tags: unknown, written twice, missing.
    let mut unknown = members.clone();
    unknown[0].1 = Value::from("background_task_nope");
    all.push(unknown);
    let mut twice = members.clone();
    twice.push(members[0].clone());
    all.push(twice);
    all.push(members[1..].to_vec());
    all
}

/// Runs every corruption of each of `events` (each valid) through both decoders (see
/// [`agree`]); answers how many decoded and how many were refused.
fn compare<T, R>(events: &[Members], foreign: &[(&str, Value)]) -> (usize, usize)
where
    T: DeserializeOwned + PartialEq + std::fmt::Debug,
    R: DeserializeOwned + Into<T>,
{
    let (mut valid, mut refused) = (0, 0);
    for event in events {
        let all = corruptions(event, foreign);
        assert!(agree::<T, R>(&text(&all[0])), "{} decodes", text(event));
        for members in &all {
            if agree::<T, R>(&text(members)) {
                valid += 1;
            } else {
                refused += 1;
            }
        }
    }
    (valid, refused)
}

#[test]
fn task_events_decode_as_serdes_derived_decoder_does() {
    let task = members_of(golden!("task_state"));
    let task = Value::Object(task.into_iter().collect());
    let foreign: Vec<(&str, Value)> = vec![
        ("task", task),
        ("taskId", Value::from("task-9")),
        ("delta", Value::from("d")),
        ("toolName", Value::from("Read")),
        ("firstArg", Value::from("a")),
        ("success", Value::from(true)),
        ("error", Value::from("e")),
        ("requestId", Value::from("r")),
        ("toolArgs", serde_json::json!({ "k": "v" })),
        ("instruction", Value::from("i")),
    ];
    let events: Vec<Members> = [
        golden!("event_created"),
        golden!("event_started"),
        golden!("event_updated"),
        golden!("event_text_delta"),
        golden!("event_tool_start"),
        golden!("event_tool_end"),
        golden!("event_permission_request"),
        golden!("event_completed"),
        golden!("event_failed"),
        golden!("event_cancelled"),
        golden!("event_closed"),
        golden!("event_waking"),
    ]
    .map(members_of)
    .into();
    let (valid, refused) = compare::<BackgroundTaskEvent, ReferenceTaskEvent>(&events, &foreign);
    assert!(
        valid > 200 && refused > 1_000,
        "{valid} valid, {refused} refused"
    );
}

#[test]
fn group_events_decode_as_serdes_derived_decoder_does() {
    let group = members_of(golden!("job_group_state"));
    let foreign = vec![("task", Value::Object(group.into_iter().collect()))];
    let events: Vec<Members> = [
        golden!("job_group_event_created"),
        golden!("job_group_event_updated"),
        golden!("job_group_event_completed"),
    ]
    .map(members_of)
    .into();
    let (valid, refused) =
        compare::<BackgroundJobGroupEvent, ReferenceGroupEvent>(&events, &foreign);
    assert!(
        valid > 20 && refused > 100,
        "{valid} valid, {refused} refused"
    );
}

#[test]
fn an_event_is_an_object_with_a_string_tag() {
    // serde's derived decoder reads the array as `Closed`; both refuse a tag that is not a
    // string, in other words.
    let array = r#"["background_task_closed", "task-1"]"#;
    let error = serde_json::from_str::<BackgroundTaskEvent>(array).unwrap_err();
    assert_eq!(
        message(&error),
        "invalid type: sequence, expected internally tagged enum BackgroundTaskEvent"
    );
    assert!(serde_json::from_str::<ReferenceTaskEvent>(array).is_ok());
    let index = r#"{"type": 10, "taskId": "task-1"}"#;
    let reference = serde_json::from_str::<ReferenceTaskEvent>(index).map(|_| ());
    assert!(reference.is_err_and(|error| message(&error).ends_with("expected variant identifier")));
    for (tag, seen) in [
        ("10", "integer `10`"),
        ("null", "null"),
        ("true", "boolean `true`"),
        ("{}", "map"),
    ] {
        let event = format!(r#"{{"type": {tag}, "taskId": "task-1"}}"#);
        let error = serde_json::from_str::<BackgroundTaskEvent>(&event).unwrap_err();
        let expected = format!(
            "invalid type: {seen}, expected one of the string literals `background_task_created`"
        );
        assert!(message(&error).starts_with(&expected), "{error}");
    }
    let group = r#"["background_job_group_created", {}]"#;
    let error = serde_json::from_str::<BackgroundJobGroupEvent>(group).unwrap_err();
    assert_eq!(
        message(&error),
        "invalid type: sequence, expected internally tagged enum BackgroundJobGroupEvent"
    );
}

#[test]
fn members_before_the_tag_decode_exactly() {
    // A float that only a round-tripping writer and reader keep, in a member read before the
    // tag (kept as a value, then decoded from its text).
    let tag_last = r#"{"taskId": "t", "toolName": "Read", "toolArgs": {"x": 0.30000000000000004, "n": -0.0}, "requestId": "r", "type": "background_task_permission_request"}"#;
    let tag_first = r#"{"type": "background_task_permission_request", "taskId": "t", "toolName": "Read", "toolArgs": {"x": 0.30000000000000004, "n": -0.0}, "requestId": "r"}"#;
    let last: BackgroundTaskEvent = serde_json::from_str(tag_last).expect("valid");
    let first: BackgroundTaskEvent = serde_json::from_str(tag_first).expect("valid");
    assert_eq!(last, first);
    assert_eq!(
        serde_json::to_string(&last).unwrap(),
        serde_json::to_string(&first).unwrap()
    );
}

#[test]
fn a_state_inside_an_event_reads_as_it_reads_alone() {
    // A result tagged with a number: serde's buffered decoder (the derived event decoder's) read
    // it as a variant's index; the state's own decoder refuses it, and so does the event. Now
    // that the result has a decoder of its own that never reads an index, even an event read
    // by the derived reference refuses it.
    let mut state = members_of(golden!("task_state"));
    state.retain(|(name, _)| name != "result");
    state.push(("result".to_owned(), serde_json::json!({ "kind": 0 })));
    let state = text(&state);
    let alone = serde_json::from_str::<BackgroundTaskState>(&state).unwrap_err();
    assert_eq!(
        message(&alone),
        "invalid type: integer `0`, expected one of the string literals `agent`, `process`, \
         `scheduled`, `tool-invocation`"
    );
    for event in [
        format!(r#"{{"type": "background_task_updated", "task": {state}}}"#),
        format!(r#"{{"task": {state}, "type": "background_task_updated"}}"#),
    ] {
        let error = serde_json::from_str::<BackgroundTaskEvent>(&event).unwrap_err();
        assert_eq!(message(&error), message(&alone), "{event}");
        let reference = serde_json::from_str::<ReferenceTaskEvent>(&event).map(|_| ());
        assert_eq!(
            reference.map_err(|error| message(&error)),
            Err(message(&alone))
        );
    }
}

#[test]
fn message_parts_decode_as_serdes_derived_decoder_does() {
    let parts: Vec<Members> = [
        serde_json::json!({ "type": "text", "text": "hello" }),
        serde_json::json!({ "type": "image_inline", "mimeType": "image/png", "data": "iVBORw0" }),
        serde_json::json!({ "type": "image_uri", "uri": "https://x/y.png", "mimeType": "image/png" }),
        serde_json::json!({ "type": "image_uri", "uri": "https://x/y.png" }),
    ]
    .into_iter()
    .map(|part| members_of(&part.to_string()))
    .collect();
    let foreign: Vec<(&str, Value)> = vec![
        ("text", Value::from("t")),
        ("mimeType", Value::from("image/gif")),
        ("data", Value::from("R0lG")),
        ("uri", Value::from("https://z")),
    ];
    let (valid, refused) = compare::<UniversalMessagePart, ReferencePart>(&parts, &foreign);
    assert!(
        valid > 50 && refused > 150,
        "{valid} valid, {refused} refused"
    );
}

#[test]
fn a_part_inside_a_message_has_a_string_tag() {
    // Buffered inside the message's derived decoder, serde's part decoder read `0` as the first
    // variant's index: a text part, written back as `"type": "text"`.
    let text = r#"{"role": "user", "id": "m", "timestamp": "t", "state": "complete",
        "content": "c", "parts": [{"type": 0, "text": "x"}]}"#;
    let error = serde_json::from_str::<UniversalMessage>(text).unwrap_err();
    assert!(
        message(&error)
            .starts_with("invalid type: integer `0`, expected one of the string literals `text`"),
        "{error}"
    );
}

/// A message of every role, with every member its role declares, and the bare ones.
fn messages() -> Vec<Members> {
    let call = serde_json::json!({
        "id": "c1", "type": "function", "function": { "name": "read", "arguments": "{}" }
    });
    [
        serde_json::json!({
            "role": "user", "id": "m1", "timestamp": "2026-09-24T10:00:01Z",
            "state": "complete", "metadata": { "a": [1, 2.5, "x"], "b": null },
            "content": "hi", "parts": [{ "type": "text", "text": "p" }], "name": "ann"
        }),
        serde_json::json!({
            "role": "user", "id": "m1", "timestamp": "t", "state": "complete", "content": "hi"
        }),
        serde_json::json!({
            "role": "assistant", "id": "m2", "timestamp": "t", "state": "interrupted",
            "content": null, "toolCalls": [call], "metadata": { "k": 1 },
            "parts": [{ "type": "image_uri", "uri": "https://x/y.png" }]
        }),
        serde_json::json!({
            "role": "assistant", "id": "m2", "timestamp": "t", "state": "complete",
            "content": "done"
        }),
        serde_json::json!({
            "role": "system", "id": "m3", "timestamp": "t", "state": "complete",
            "content": "be brief", "name": "policy"
        }),
        serde_json::json!({
            "role": "tool", "id": "m4", "timestamp": "t", "state": "complete", "content": "out",
            "toolCallId": "c1", "name": "read", "metadata": { "ms": 12 }
        }),
    ]
    .into_iter()
    .map(|message| members_of(&message.to_string()))
    .collect()
}

#[test]
fn messages_decode_as_serdes_derived_decoder_does() {
    let foreign: Vec<(&str, Value)> = vec![
        ("content", Value::Null),
        ("name", Value::from("n")),
        ("toolCalls", serde_json::json!([])),
        ("toolCallId", Value::from("c9")),
        ("parts", Value::Null),
        ("metadata", Value::Null),
    ];
    let (valid, refused) = compare::<UniversalMessage, ReferenceMessage>(&messages(), &foreign);
    assert!(
        valid > 200 && refused > 1_000,
        "{valid} valid, {refused} refused"
    );
}

#[test]
fn a_message_with_several_problems_names_the_first_written() {
    // serde's derived decoder reads the role's own members first and the flattened base after
    // them, so it names `content` here; the one pass names what comes first in the text.
    let text = r#"{"role": "user", "id": 5, "timestamp": "t", "state": "complete", "content": 7}"#;
    let ours = serde_json::from_str::<UniversalMessage>(text).unwrap_err();
    let derived = serde_json::from_str::<ReferenceMessage>(text).map(|_| ());
    assert_eq!(
        message(&ours),
        "invalid type: integer `5`, expected a string"
    );
    assert_eq!(
        derived.map_err(|error| message(&error)),
        Err("invalid type: integer `7`, expected a string".to_owned())
    );
    // One problem: both name it, wherever it is written.
    for text in [
        r#"{"role": "user", "id": 5, "timestamp": "t", "state": "complete", "content": "c"}"#,
        r#"{"id": 5, "timestamp": "t", "state": "complete", "content": "c", "role": "user"}"#,
    ] {
        let ours = serde_json::from_str::<UniversalMessage>(text).unwrap_err();
        let derived = serde_json::from_str::<ReferenceMessage>(text).map(|_| ());
        assert_eq!(
            derived.map_err(|error| message(&error)),
            Err(message(&ours))
        );
    }
}

#[test]
fn a_message_has_a_string_role() {
    let text = r#"{"role": 0, "id": "m", "timestamp": "t", "state": "complete", "content": "c"}"#;
    let error = serde_json::from_str::<UniversalMessage>(text).unwrap_err();
    assert!(
        message(&error)
            .starts_with("invalid type: integer `0`, expected one of the string literals `user`"),
        "{error}"
    );
    let array = r#"["user", "m", "t", "complete", "c"]"#;
    let error = serde_json::from_str::<UniversalMessage>(array).unwrap_err();
    assert_eq!(
        message(&error),
        "invalid type: sequence, expected internally tagged enum UniversalMessage"
    );
}

#[test]
fn task_results_decode_as_serdes_derived_decoder_does() {
    let results: Vec<Members> = [
        golden!("result_agent"),
        golden!("result_process"),
        golden!("result_scheduled"),
        golden!("result_tool_invocation"),
        r#"{"kind": "agent", "taskId": "t", "output": "o"}"#,
    ]
    .map(members_of)
    .into();
    let foreign: Vec<(&str, Value)> = vec![
        (
            "usage",
            serde_json::json!({ "promptTokens": 1, "completionTokens": 2, "totalTokens": 3 }),
        ),
        ("exitCode", Value::from(0)),
        ("signalCode", Value::from("SIGKILL")),
        ("metadata", serde_json::json!({ "k": true })),
        ("usage", Value::Null),
    ];
    let (valid, refused) = compare::<BackgroundTaskResult, ReferenceResult>(&results, &foreign);
    assert!(
        valid > 100 && refused > 500,
        "{valid} valid, {refused} refused"
    );
}

#[test]
fn a_result_refuses_another_kinds_key_after_its_own_problems() {
    // Both decoders refuse a key of another kind only once the result decodes otherwise.
    let text = r#"{"kind": "scheduled", "exitCode": 0, "taskId": "t"}"#;
    let ours = serde_json::from_str::<BackgroundTaskResult>(text).unwrap_err();
    let derived = serde_json::from_str::<ReferenceResult>(text).map(|_| ());
    assert_eq!(message(&ours), "missing field `output`");
    assert_eq!(
        derived.map_err(|error| message(&error)),
        Err(message(&ours))
    );
    let text = r#"{"kind": "scheduled", "exitCode": 0, "taskId": "t", "output": "o"}"#;
    let ours = serde_json::from_str::<BackgroundTaskResult>(text).unwrap_err();
    assert_eq!(
        message(&ours),
        "a scheduled result cannot carry `exitCode`: only process results have it"
    );
}

#[test]
fn task_states_decode_as_the_flattened_derived_decoder_does() {
    // The golden state, and the states inside the golden events.
    let mut states = vec![members_of(golden!("task_state"))];
    for event in [
        golden!("event_created"),
        golden!("event_completed"),
        golden!("event_failed"),
    ] {
        let task = members_of(event)
            .into_iter()
            .find(|(name, _)| name == "task")
            .expect("a task")
            .1;
        states.push(members_of(&task.to_string()));
    }
    let process_result = serde_json::json!({
        "kind": "process", "taskId": "task-1", "output": "o", "exitCode": 0
    });
    let foreign: Vec<(&str, Value)> = vec![
        ("result", process_result),
        ("nextFireAt", Value::from("2026-09-24T11:00:00Z")),
        ("worktreePath", Value::from("/w")),
        ("timeoutReason", Value::from("idle")),
    ];
    let (valid, refused) = compare::<BackgroundTaskState, ReferenceTaskState>(&states, &foreign);
    assert!(
        valid > 300 && refused > 1_000,
        "{valid} valid, {refused} refused"
    );
}

#[test]
fn a_task_state_is_an_object() {
    // Every member in the order the state's wire form declares them: serde's derived decoder
    // of a plain struct reads such an array; the state refuses it, as it did while the job's
    // members were flattened.
    let golden: Value = serde_json::from_str(golden!("task_state")).expect("JSON");
    let in_order: Vec<Value> = [
        "kind",
        "agentType",
        "status",
        "parentTaskId",
        "lastActivityAt",
        "promptPreview",
        "commandPreview",
        "currentAction",
        "unread",
        "result",
        "error",
        "nextFireAt",
        "schedule",
        "id",
        "label",
        "parentSessionId",
        "mode",
        "depth",
        "pid",
        "cwd",
        "isolation",
        "resumeSessionId",
        "worktreePath",
        "branchName",
        "worktreeStatus",
        "worktreeNextAction",
        "worktreeBaseRevision",
        "parentWorktreeStatus",
        "logPath",
        "transcriptPath",
        "startedAt",
        "updatedAt",
        "completedAt",
        "timeoutReason",
        "metadata",
    ]
    .iter()
    .map(|name| golden.get(name).cloned().unwrap_or(Value::Null))
    .collect();
    let array = Value::Array(in_order).to_string();
    let error = serde_json::from_str::<BackgroundTaskState>(&array).unwrap_err();
    assert_eq!(
        message(&error),
        "invalid type: sequence, expected struct BackgroundTaskStateWire"
    );
    let reference = serde_json::from_str::<ReferenceTaskState>(&array).map(|_| ());
    assert_eq!(
        reference.map_err(|error| message(&error)),
        Err(message(&error))
    );
}

#[test]
fn parameter_schemas_decode_as_the_flattened_derived_decoder_does() {
    let schemas: Vec<Members> = [
        serde_json::json!({
            "type": "object",
            "properties": { "path": { "type": "string", "description": "where" } },
            "required": ["path"],
            "additionalProperties": false,
            "description": "the arguments",
            "$defs": { "n": { "type": "number", "minimum": 0.5 } }
        }),
        serde_json::json!({ "type": "object", "properties": {} }),
    ]
    .into_iter()
    .map(|schema| members_of(&schema.to_string()))
    .collect();
    let foreign: Vec<(&str, Value)> = vec![
        ("required", Value::Null),
        ("anyOf", serde_json::json!([{ "type": "null" }])),
        ("type", Value::from("array")),
        ("properties", serde_json::json!({ "x": {} })),
    ];
    let (valid, refused) =
        compare::<ObjectParameterSchema, ReferenceObjectSchema>(&schemas, &foreign);
    assert!(
        valid > 40 && refused > 100,
        "{valid} valid, {refused} refused"
    );
}

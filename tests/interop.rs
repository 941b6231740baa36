//! Interop: the crate against the vectors recorded from the TypeScript implementation
//! (`tests/interop/vectors/`, a vendored copy of the recorded data with its README and the list
//! of deliberate departures). A missing or incomplete folder fails the target: nothing is skipped.
//!
//! Families checked so far: against the golden fixtures of `golden-fixtures.json`, `analytics`
//! (with `agent_core::HistoryEntry`), `command` and `execution`; against `session.json`, the
//! session refusal codes and predicates, the capability member table and the interaction readers;
//! and the transport vectors (run outcomes, lifecycle conformance, admission, payload channels),
//! one part per vector file under `interop/`.
//! Where the crate departs from a vector on purpose (interop README), the check says which and why.
#![cfg(not(target_family = "wasm"))]

extern crate alloc;

use std::path::PathBuf;

use agent_interface::agent_core::HistoryEntry;
use agent_interface::analytics::reports::{
    PersonalUsageReport, PersonalUsageRequest, UsageBySourceReport,
};
use agent_interface::analytics::trace::ProviderCallTraceEntry;
use agent_interface::analytics::usage::{UsageObservation, UsageSnapshot};
use agent_interface::command::definition::{CommandHostAction, CommandUiIntent};
use agent_interface::execution::task_request::BackgroundTaskRequest;
use agent_interface::session::{
    capabilities::SESSION_CAPABILITY_MEMBER_KEYS,
    directory::{
        SESSION_CHANGE_REFUSAL_CODES, SESSION_DELETE_REFUSAL_CODES, SessionChangeRefusal,
        SessionDeleteRefusal, is_session_change_refusal, is_session_delete_refusal,
    },
    interaction::{
        InteractionEvent, read_assistant_replies, read_errors, read_last_assistant_text,
        read_tool_calls,
    },
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop/vectors")
}

/// One vector file whole (its header holds the stand-ins' defaults); a missing or unreadable
/// file fails the test that asked.
fn document(file: &str) -> Value {
    let path = vectors_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("interop vectors: cannot read {}: {error}", path.display()));
    serde_json::from_str(&text).expect("vector file is JSON")
}

/// The vectors of one suite file; a missing or unreadable file fails the test that asked.
fn load(file: &str) -> Vec<Value> {
    let doc = document(file);
    assert_eq!(
        doc["format"], "robota-interop-vectors/1",
        "{file}: unknown format"
    );
    let vectors = doc["vectors"].as_array().expect("vectors array").clone();
    assert_eq!(
        doc["count"].as_u64(),
        Some(vectors.len() as u64),
        "{file}: count"
    );
    vectors
}

/// Replaces the README's value markers with their JSON form: a `{"$date": iso}` is the ISO text
/// (that is how a JS `Date` crosses the wire).
fn unmark(value: &Value) -> Value {
    match value {
        Value::Object(map) if map.len() == 1 && map.contains_key("$date") => map["$date"].clone(),
        // An Error held as data crosses as its fields; `undefined` as JSON's nearest, null.
        Value::Object(map) if map.len() == 1 && map.contains_key("$error") => {
            unmark(&map["$error"])
        }
        Value::Object(map) if map.len() == 1 && map.contains_key("$undefined") => Value::Null,
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), unmark(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(unmark).collect()),
        other => other.clone(),
    }
}

/// Decodes `literal` as `T`, re-encodes it, and returns the re-encoded JSON.
fn through<T: Serialize + DeserializeOwned>(name: &str, literal: &Value) -> Value {
    let decoded: T = serde_json::from_value(literal.clone())
        .unwrap_or_else(|e| panic!("{name}: the TypeScript literal does not decode: {e}"));
    serde_json::to_value(&decoded).expect("encodes")
}

fn assert_same(name: &str, actual: &Value, expected: &Value) {
    assert!(
        support::json_eq(actual, expected),
        "{name}: differs from the TypeScript literal\n expected: {expected}\n   actual: {actual}"
    );
}

#[test]
fn analytics_golden_fixtures() {
    let vectors = load("golden-fixtures.json");
    let mut checked = 0;
    for vector in &vectors {
        let name = vector["name"].as_str().expect("name");
        if !name.starts_with("analytics/") {
            continue;
        }
        let literal = unmark(&vector["output"]["value"]);
        match name {
            "analytics/usage-snapshot" => {
                assert_same(name, &through::<UsageSnapshot>(name, &literal), &literal);
            }
            "analytics/usage-observation-history-entry" => {
                let again = through::<HistoryEntry<UsageObservation>>(name, &literal);
                assert_same(name, &again, &literal);
            }
            "analytics/usage-summary-history-entry" => {
                let again = through::<HistoryEntry<UsageSnapshot>>(name, &literal);
                assert_same(name, &again, &literal);
            }
            "analytics/provider-call-trace-history-entry" => {
                // The TypeScript test checks that `content` is never exported: the Rust type has
                // no field for it, so it is gone after one pass and everything else stays.
                assert!(
                    literal["data"].get("content").is_some(),
                    "{name}: fixture changed"
                );
                let again = through::<HistoryEntry<ProviderCallTraceEntry>>(name, &literal);
                let mut expected = literal.clone();
                expected["data"].as_object_mut().unwrap().remove("content");
                assert_same(name, &again, &expected);
                assert!(again["data"].get("content").is_none());
            }
            "analytics/personal-usage-report" => {
                assert_same(
                    name,
                    &through::<PersonalUsageReport>(name, &literal),
                    &literal,
                );
            }
            "analytics/usage-by-source-report" => {
                assert_same(
                    name,
                    &through::<UsageBySourceReport>(name, &literal),
                    &literal,
                );
            }
            "analytics/personal-usage-request" => {
                assert_same(
                    name,
                    &through::<PersonalUsageRequest>(name, &literal),
                    &literal,
                );
            }
            other => panic!("{other}: an analytics vector this target does not check yet"),
        }
        checked += 1;
    }
    assert_eq!(checked, 7, "analytics vectors checked");
}

/// The golden fixtures of one family prefix, each decoded as its type and re-encoded unchanged.
/// `check` maps a vector name to the round trip it needs, or `None` for a name it does not know.
fn round_trip_family(prefix: &str, expected: usize, check: fn(&str, &Value) -> Option<Value>) {
    let vectors = load("golden-fixtures.json");
    let mut checked = 0;
    for vector in &vectors {
        let name = vector["name"].as_str().expect("name");
        if !name.starts_with(prefix) {
            continue;
        }
        let literal = unmark(&vector["output"]["value"]);
        let again = check(name, &literal)
            .unwrap_or_else(|| panic!("{name}: a {prefix} vector this target does not check yet"));
        assert_same(name, &again, &literal);
        checked += 1;
    }
    assert_eq!(checked, expected, "{prefix} vectors checked");
}

#[test]
fn command_golden_fixtures() {
    round_trip_family("command/", 2, |name, literal| match name {
        "command/host-action-session-rename" => Some(through::<CommandHostAction>(name, literal)),
        "command/ui-intent-show-settings" => Some(through::<CommandUiIntent>(name, literal)),
        _ => None,
    });
}

#[test]
fn execution_golden_fixtures() {
    round_trip_family("execution/", 2, |name, literal| match name {
        "execution/agent-task-request" | "execution/process-task-request" => {
            Some(through::<BackgroundTaskRequest>(name, literal))
        }
        _ => None,
    });
}

/// The vectors of `session.json` whose name starts with `prefix`.
fn session_vectors(prefix: &str) -> Vec<Value> {
    let vectors = load("session.json");
    let picked: Vec<Value> = vectors
        .into_iter()
        .filter(|v| v["name"].as_str().is_some_and(|n| n.starts_with(prefix)))
        .collect();
    assert!(!picked.is_empty(), "session.json has no {prefix} vectors");
    picked
}

#[test]
fn session_refusal_code_lists() {
    let change = session_vectors("SESSION_CHANGE_REFUSAL_CODES");
    let ours: Vec<&str> = SESSION_CHANGE_REFUSAL_CODES
        .iter()
        .map(|c| c.as_str())
        .collect();
    assert_eq!(Value::from(ours), change[0]["output"]["returns"]);
    let delete = session_vectors("SESSION_DELETE_REFUSAL_CODES");
    let ours: Vec<&str> = SESSION_DELETE_REFUSAL_CODES
        .iter()
        .map(|c| c.as_str())
        .collect();
    assert_eq!(Value::from(ours), delete[0]["output"]["returns"]);
}

/// What the Rust predicate says of a vector's input, or `None` where the input is not an error
/// at all (null, a string, a plain object): the Rust predicates take the crate's own error
/// values, so such an input cannot be passed (README departure 15); the reference says `false`.
fn refusal_verdict<T>(
    input: &Value,
    predicate: fn(&(dyn core::error::Error + 'static)) -> bool,
) -> Option<bool>
where
    T: DeserializeOwned + core::error::Error + 'static,
{
    let class = input.get("class")?.as_str()?;
    if class != "Error" && class != "TypeError" {
        return None;
    }
    // An error whose name or code is not the refusal's cannot be decoded as one: not a refusal.
    let wire = serde_json::json!({ "name": input["name"], "code": input["code"], "message": "" });
    Some(match serde_json::from_value::<T>(wire) {
        Ok(refusal) => predicate(&refusal),
        Err(_) => false,
    })
}

#[test]
fn session_refusal_predicates() {
    for (prefix, check) in [
        (
            "isSessionChangeRefusal/",
            (|input: &Value| {
                refusal_verdict::<SessionChangeRefusal>(input, is_session_change_refusal)
            }) as fn(&Value) -> Option<bool>,
        ),
        ("isSessionDeleteRefusal/", |input: &Value| {
            refusal_verdict::<SessionDeleteRefusal>(input, is_session_delete_refusal)
        }),
    ] {
        let vectors = session_vectors(prefix);
        let (mut checked, mut departed) = (0, 0);
        for vector in &vectors {
            let name = vector["name"].as_str().unwrap();
            let expected = vector["output"]["returns"].as_bool().expect("a boolean");
            match check(&vector["input"]["value"]) {
                Some(verdict) => {
                    assert_eq!(verdict, expected, "{name}");
                    checked += 1;
                }
                None => {
                    assert!(!expected, "{name}: a non-error input the reference accepts");
                    departed += 1;
                }
            }
        }
        assert_eq!(checked + departed, vectors.len());
        assert!(checked >= 60, "{prefix}: only {checked} vectors checked");
    }
}

#[test]
fn session_capability_member_table() {
    let vectors = session_vectors("SESSION_CAPABILITY_MEMBER_KEYS");
    let reference = vectors[0]["output"]["returns"]
        .as_object()
        .expect("a table");
    assert_eq!(
        reference.len(),
        SESSION_CAPABILITY_MEMBER_KEYS.len(),
        "20 roles"
    );
    for (role, members) in SESSION_CAPABILITY_MEMBER_KEYS {
        let theirs: Vec<&str> = reference[role.as_str()]
            .as_array()
            .expect("a row")
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        // Departure (interop README item 2): the newest readable table has 46 members; the
        // newest test expects 48. The crate has 48: `listModels` and `getMessagesDisplay` are
        // appended to their rows, everything else is the reference row, in order.
        let extra: &[&str] = match role.as_str() {
            "commands" => &["listModels"],
            "conversationRead" => &["getMessagesDisplay"],
            _ => &[],
        };
        let expected: Vec<&str> = theirs
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .collect();
        assert_eq!(members.to_vec(), expected, "row {}", role.as_str());
    }
}

#[test]
fn session_interaction_readers() {
    let vectors = session_vectors("interactionAccessors/");
    let mut checked = 0;
    for vector in &vectors {
        let name = vector["name"].as_str().unwrap();
        let input = unmark(&vector["input"]["events"]);
        let events: Vec<InteractionEvent> = match serde_json::from_value(input) {
            Ok(events) => events,
            Err(error) => {
                // Departure: the event union is closed, so a stream with an unknown `type`
                // does not decode at all (the reference skips such events).
                assert_eq!(
                    name, "interactionAccessors/unknown-types-ignored",
                    "{error}"
                );
                continue;
            }
        };
        let before = events.clone();
        let output = unmark(&vector["output"]);
        assert_eq!(
            Value::from(read_assistant_replies(&events)),
            output["readAssistantReplies"],
            "{name}"
        );
        let last = read_last_assistant_text(&events).map_or(Value::Null, Value::from);
        assert_eq!(last, output["readLastAssistantText"], "{name}");
        assert_same(
            name,
            &serde_json::to_value(read_tool_calls(&events)).unwrap(),
            &output["readToolCalls"],
        );
        assert_same(
            name,
            &serde_json::to_value(read_errors(&events)).unwrap(),
            &output["readErrors"],
        );
        assert_eq!(events, before, "{name}: a reader changed its input");
        checked += 1;
    }
    assert_eq!(
        checked + 1,
        vectors.len(),
        "every reader vector but the departure"
    );
}

// The session-mobility vectors: handoff (ownership, offer, orchestration) and peer (authority,
// predicates), each with its golden fixtures.
#[cfg(feature = "session-mobility")]
#[path = "interop/handoff.rs"]
mod handoff;
#[cfg(feature = "session-mobility")]
#[path = "interop/peer.rs"]
mod peer;

// The transport vectors, one part per vector file (each part uses the helpers above).
#[cfg(feature = "transport-runtime")]
#[path = "interop/payload_channels.rs"]
mod payload_channels;
#[cfg(feature = "transport-runtime")]
#[path = "interop/transport_admission.rs"]
mod transport_admission;
#[cfg(all(feature = "transport-runtime", feature = "testing"))]
#[path = "interop/transport_lifecycle.rs"]
mod transport_lifecycle;
#[cfg(feature = "transport")]
#[path = "interop/transport_run_outcome.rs"]
mod transport_run_outcome;

// The session protocol vectors (issue 41): the handler's over a scripted session, the delivery
// boundary's, the event fan-out's, the resume buffer's and the resume bridge's.
#[cfg(feature = "session-protocol")]
#[path = "interop/session_protocol_client.rs"]
mod session_protocol_client;
#[cfg(feature = "session-protocol")]
#[path = "interop/session_protocol_delivery.rs"]
mod session_protocol_delivery;
#[cfg(feature = "session-protocol")]
#[path = "interop/session_protocol_events.rs"]
mod session_protocol_events;
#[cfg(feature = "session-protocol")]
#[path = "interop/session_protocol_resume.rs"]
mod session_protocol_resume;

/// The vector files this target reads, each through [`load`] by one of its checks.
const READ_HERE: [&str; 15] = [
    "connection-authority.json",
    "golden-fixtures.json",
    "handoff-offer.json",
    "handoff-orchestration.json",
    "handoff-ownership.json",
    "payload-channels.json",
    "peer-predicates.json",
    "session.json",
    "session-protocol-client.json",
    "session-protocol-delivery.json",
    "session-protocol-events.json",
    "session-protocol-resume.json",
    "transport-admission.json",
    "transport-lifecycle-conformance.json",
    "transport-run-outcome.json",
];

/// `co-drive-queue.json` scenarios the queue cannot express: its turn ids are minted, never
/// missing, and a wake is a field of a turn, not something removed from the queue afterwards.
const CO_DRIVE_UNEXPRESSIBLE: [&str; 2] = ["missing-turnId-fails-fast", "removeWake"];

/// The vendored folder is whole: every file in it is read by this target or (the co-drive queue,
/// whose checks run on the firmware too) cited case by case in `tests/suites/turn_queue.rs`, and
/// the counts add up to the 1,538 vectors recorded before the session protocol, and the 191, 31,
/// 109 and 60 of its client, delivery, events and resume files.
#[test]
fn every_vector_file_is_checked() {
    let mut total = 0;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(vectors_dir()).expect("the vendored vectors folder exists") {
        let name = entry.expect("a readable entry").file_name();
        let name = name.to_str().expect("a UTF-8 file name").to_owned();
        if !name.ends_with(".json") {
            continue;
        }
        total += load(&name).len();
        files.push(name);
    }
    files.sort();
    let mut expected: Vec<String> = READ_HERE.iter().map(|f| String::from(*f)).collect();
    expected.push(String::from("co-drive-queue.json"));
    expected.sort();
    assert_eq!(files, expected, "the vendored vector files changed");
    assert_eq!(
        total,
        1538 + 191 + 31 + 109 + 60,
        "the vendored vectors number 1,929"
    );

    let cases = include_str!("suites/turn_queue.rs");
    for vector in load("co-drive-queue.json") {
        let name = vector["name"].as_str().expect("a vector name");
        let scenario = name.split('/').next().expect("a scenario");
        assert!(
            cases.contains(scenario) || CO_DRIVE_UNEXPRESSIBLE.contains(&scenario),
            "co-drive vector {name} is neither a case of tests/suites/turn_queue.rs nor listed as unexpressible"
        );
    }
}

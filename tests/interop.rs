//! Interop: the crate against the vectors recorded from the TypeScript implementation
//! (`../shared/interop/vectors/`, beside the repository). The files are read in place, never
//! copied. Where the folder is absent (a user's fresh clone) each check says plainly that it was
//! skipped.
//!
//! Families checked so far, against the golden fixtures of `golden-fixtures.json`: `analytics`
//! (with `agent_core::HistoryEntry`), `command` and `execution`.
#![cfg(not(target_family = "wasm"))]

extern crate alloc;

use std::path::PathBuf;

use agent_interface::agent_core::HistoryEntry;
use agent_interface::analytics::{
    PersonalUsageReport, PersonalUsageRequest, ProviderCallTraceEntry, UsageBySourceReport,
    UsageObservation, UsageSnapshot,
};
use agent_interface::command::{CommandHostAction, CommandUiIntent};
use agent_interface::execution::BackgroundTaskRequest;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/interop/vectors")
}

/// The vectors of one suite file, or `None` (with a note on stderr) when the folder is absent.
fn load(file: &str) -> Option<Vec<Value>> {
    let path = vectors_dir().join(file);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("interop: skipped {file}: {} not found", path.display());
        return None;
    };
    let doc: Value = serde_json::from_str(&text).expect("vector file is JSON");
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
    Some(vectors)
}

/// Replaces the README's value markers with their JSON form: a `{"$date": iso}` is the ISO text
/// (that is how a JS `Date` crosses the wire).
fn unmark(value: &Value) -> Value {
    match value {
        Value::Object(map) if map.len() == 1 && map.contains_key("$date") => map["$date"].clone(),
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
    let Some(vectors) = load("golden-fixtures.json") else {
        return;
    };
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
    let Some(vectors) = load("golden-fixtures.json") else {
        return;
    };
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

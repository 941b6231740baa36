//! `session-protocol-events.json`: session events as the protocol sends them
//! (`runtime::session_protocol::event_message`), per surface, with the active driver stamped
//! where the reference stamps it, and the route of every event name (`EventRoute`).
//!
//! Each emitted event is decoded from the reference's `{type, event}` form into a
//! `SessionEvent`, turned into the message each surface receives, and compared with the text
//! the reference sent: the same JSON, `type` first and a stamped `driverId` last; the active driver must be asked exactly as often as the
//! reference asked its session. The five vectors about the reference handler subscribing to a
//! session (`subscription/*`, `direct-subscribe/*`) and a session whose driver lookup throws
//! (`session-throws/*`) have no form here: the host subscribes, and the lookup cannot throw.
//!
//! Departures (`docs/decisions/session-protocol.md`): an `interrupted` message's result also
//! says `interrupted: true`, as the crate's partial result always does; an event forwards the
//! members its type declares, not whatever else the emitter put in it.
//!
//! Where the crate cannot receive the reference's input: an active driver that is a number or
//! `undefined`, an `error` event whose payload is not an error, a `session_renamed` event of
//! `null` and a `tool_start` without a state do not decode into the crate's typed events, and a
//! `ui_intent` requester of `null` (which the reference routes unlike an absent one) is an
//! absent one in the crate; those vectors are listed below and skipped.

use super::*;

use std::cell::Cell;

use agent_interface::runtime::session_protocol::{EventRoute, event_message};
use agent_interface::session::events::{InteractiveEventName, SessionEvent};

/// Vectors whose input a typed caller cannot express.
const INEXPRESSIBLE: [&str; 8] = [
    "edge-untyped/event/text_delta/active-driver=undefined",
    "edge-untyped/event/text_delta/active-driver=number",
    "edge-untyped/payload/error/not-an-error",
    "edge-untyped/payload/session_renamed/null-event",
    "edge-untyped/payload/tool_start/undefined-state",
    "edge-untyped/ui_intent/surface=none/requester=null",
    "edge-untyped/ui_intent/surface=device-A/requester=null",
    "edge-untyped/ui_intent/surface=empty-string/requester=null",
];

/// Vectors whose event carries members its type does not declare: the reference forwards the
/// emitter's object as it is, the crate's typed event keeps its declared members only.
const UNDECLARED_MEMBERS: [(&str, &[&str]); 1] = [(
    "payload/permission_request/extra-fields-forwarded",
    &["driverId", "futureField"],
)];

/// Vectors of the reference handler's own subscription (how many listeners it registers and
/// removes, for one or two handlers, with or without options) and of a driver lookup that
/// throws: the crate's handler does not subscribe (the host subscribes to the session and hands
/// each event to `event_message`), and its driver lookup is a closure that cannot throw.
const NOT_THE_HANDLERS: [&str; 5] = [
    "session-throws/getActiveDriverId",
    "subscription/create-and-cleanup",
    "subscription/two-handlers-one-session",
    "direct-subscribe/options-absent",
    "direct-subscribe/options-empty",
];

/// A driver id as a typed caller has it: `Ok(None)` for none (`null` or absent), `Err` for a
/// value no typed caller can pass.
pub(super) fn driver(value: Option<&Value>) -> Result<Option<String>, ()> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) => Ok(Some(id.clone())),
        Some(_) => Err(()),
    }
}

/// The event the reference emitted, as the crate's typed event; `None` when it does not decode.
pub(super) fn emitted(event: &str, args: &[Value]) -> Option<SessionEvent> {
    let mut frame = serde_json::Map::new();
    frame.insert(String::from("type"), Value::String(String::from(event)));
    // An event's payload is its first argument; `history_cleared` has none (extra arguments
    // are ignored, as the reference ignores them).
    if let Some(payload) = args.first().filter(|_| event != "history_cleared") {
        // `undefined`, and a requester of `null` (which the reference tells from an absent one),
        // have no typed form.
        if payload.get("$undefined").is_some()
            || payload.get("requesterDriverId") == Some(&Value::Null)
        {
            return None;
        }
        frame.insert(String::from("event"), unmark(payload));
    }
    serde_json::from_value(Value::Object(frame)).ok()
}

/// Asserts that the crate wrote the message the reference sent: the same JSON value, with the
/// same envelope (`type` first, a stamped `driverId` last). A payload's members are written in
/// the crate's declared order, which need not be the order the reference's emitter used
/// (`docs/decisions/member-order.md`).
pub(super) fn same_message(name: &str, written: &str, expected: &str) {
    let parse = |text: &str| serde_json::from_str::<Value>(text).expect("a JSON frame");
    let mut ours = parse(written);
    if ours["type"] == "interrupted" {
        // Departure: the crate's partial result always says it is one.
        let result = ours["result"].as_object_mut().expect("a result");
        assert_eq!(
            result.remove("interrupted"),
            Some(Value::Bool(true)),
            "{name}"
        );
    }
    let mut theirs = parse(expected);
    for (vector, members) in UNDECLARED_MEMBERS {
        if vector == name {
            let event = theirs["event"].as_object_mut().expect("an event");
            for member in members {
                assert!(event.remove(*member).is_some(), "{name}: {member}");
            }
        }
    }
    assert_same(name, &ours, &theirs);
    let kind = expected
        .split(',')
        .next()
        .unwrap_or(expected)
        .trim_end_matches('}');
    assert!(
        written.starts_with(kind),
        "{name}: {written} does not start like {expected}"
    );
    if let Some(at) = expected
        .rfind(",\"driverId\":")
        .filter(|_| parse(expected).get("driverId").is_some())
    {
        assert!(
            written.ends_with(&expected[at..]),
            "{name}: the driver is not last in {written}"
        );
    }
}

/// Runs one vector; `false` when its input cannot be expressed.
fn run_events_vector(vector: &Value) -> bool {
    let name = vector["name"].as_str().expect("name");
    let input = &vector["input"];
    let Ok(mut active) = driver(input.get("activeDriverId")) else {
        return false;
    };
    // The surfaces: several named ones, or the one handler (bound to `handlerDriverId`).
    let surfaces: Vec<(String, Option<String>)> = match input.get("surfaces") {
        Some(Value::Array(list)) => list
            .iter()
            .map(|surface| {
                let name = surface["name"].as_str().expect("a surface name").to_owned();
                (name, surface["driverId"].as_str().map(str::to_owned))
            })
            .collect(),
        _ => vec![(
            String::new(),
            driver(input.get("handlerDriverId")).expect("a surface driver"),
        )],
    };
    let steps = input["steps"].as_array().expect("steps");
    let trace = vector["output"]["trace"].as_array().expect("a trace");
    assert_eq!(steps.len(), trace.len(), "{name}");
    for (step, recorded) in steps.iter().zip(trace) {
        match step["op"].as_str().expect("an op") {
            "setActiveDriverId" => {
                active = driver(step.get("value")).expect("a driver id");
                continue;
            }
            "emit" => {}
            other => panic!("{name}: unknown op {other}"),
        }
        let kind = step["event"].as_str().expect("an event name");
        let args = step["args"].as_array().expect("args");
        let Some(event) = emitted(kind, args) else {
            return false;
        };
        let asked = Cell::new(0);
        for (surface, bound) in &surfaces {
            let message = event_message(event.clone(), bound.as_deref(), || {
                asked.set(asked.get() + 1);
                active.clone()
            });
            let sent = if surface.is_empty() {
                &recorded["sent"]
            } else {
                &recorded["sent"][surface.as_str()]
            };
            let expected: Vec<&str> = sent
                .as_array()
                .expect("sent frames")
                .iter()
                .map(|frame| frame["text"].as_str().expect("a text frame"))
                .collect();
            let written: Vec<String> = message
                .iter()
                .map(|message| serde_json::to_string(message).expect("a message writes"))
                .collect();
            assert_eq!(
                written.len(),
                expected.len(),
                "{name}: {kind} to surface {surface:?}"
            );
            for (written, expected) in written.iter().zip(&expected) {
                same_message(name, written, expected);
            }
        }
        let lookups = recorded["sessionCalls"]
            .as_array()
            .expect("session calls")
            .iter()
            .filter(|call| call["method"] == "getActiveDriverId")
            .count();
        assert_eq!(
            asked.get(),
            lookups,
            "{name}: {kind}: active driver lookups"
        );
    }
    true
}

/// The reference's exported table of how each event is treated, against [`EventRoute`].
fn check_classification(vector: &Value) {
    let table = vector["output"]["table"].as_object().expect("the table");
    assert_eq!(table.len(), 26, "the reference classifies 26 events");
    for (event, treatment) in table {
        let name = InteractiveEventName::from_literal(event).expect("an event the crate knows");
        let expected = match treatment.as_str().expect("a treatment") {
            "forwarded" => EventRoute::Forwarded,
            "requester-routed" => EventRoute::RequesterRouted,
            "non-surface" => EventRoute::NotForwarded,
            other => panic!("unknown treatment {other}"),
        };
        assert_eq!(EventRoute::of(name), expected, "{event}");
    }
    // The two events the reference does not know are not sent.
    for event in ["session_switched", "status_changed"] {
        let name = InteractiveEventName::from_literal(event).expect("an event");
        assert!(!table.contains_key(event), "{event}");
        assert_eq!(EventRoute::of(name), EventRoute::NotForwarded, "{event}");
    }
}

#[test]
fn session_event_vectors() {
    let vectors = load("session-protocol-events.json");
    let mut checked = 0;
    let mut inexpressible = Vec::new();
    let mut not_the_handlers = Vec::new();
    for vector in &vectors {
        let name = vector["name"].as_str().expect("name");
        if name == "classification/table" {
            check_classification(vector);
            checked += 1;
        } else if NOT_THE_HANDLERS.contains(&name) {
            not_the_handlers.push(name);
        } else if run_events_vector(vector) {
            checked += 1;
        } else {
            inexpressible.push(name);
        }
    }
    assert_eq!(inexpressible, INEXPRESSIBLE);
    assert_eq!(not_the_handlers, NOT_THE_HANDLERS);
    assert_eq!(checked, 109 - 8 - 5, "every other vector is checked");
}

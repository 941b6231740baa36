//! `session-protocol-resume.json`: the resume buffer (`buffer/*`, 30 vectors), op by op, with
//! the state the reference reports after each (last seq, retained seqs and bytes), and the
//! resume bridge (`bridge/*`, 30 vectors): 23 checked step by step over the client vectors'
//! scripted session (deliveries byte for byte, failures reported, session calls, the bridge's
//! state after each step); 5 are departures of the strict frame decoder and 2 dispose of the
//! bridge, which has no disposal (a host drops it).
//!
//! Where the crate cannot receive the reference's input, or departs from it on purpose
//! (`docs/decisions/session-protocol.md`):
//! - A seq is a `u64`: a negative, fractional, non-finite, string, `null` or missing seq cannot
//!   be passed. A tail after such a seq changes nothing, so it is skipped and the vector goes on;
//!   an ack of one that changed the reference's state ends the vector's check there.
//! - The default size of a frame is its JSON text's length in UTF-8 bytes (what it holds in
//!   memory), not in UTF-16 code units: `buffer/default-sizing/utf16-code-units-not-utf8-bytes`
//!   evicts the first frame where the reference keeps both, which is checked.

use super::*;

use std::cell::Cell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use agent_interface::agent_core::ErrorValue;
use agent_interface::runtime::session_protocol::{
    BridgeFrame, Delivery, FrameLimits, Handled, OutboundDelivery, ResumeBridge, ResumeBuffer,
    ResumeLimits, decode_client_frame, event_message, handle_client_message,
};
use agent_interface::session::events::SessionEvent;
use agent_interface::session::protocol::{ClientMessage, ServerMessage};

use super::session_protocol_client::Script;
use super::session_protocol_events::emitted;

/// The `bridge/*` vectors that dispose of the bridge: the crate's bridge has no disposal (a host
/// that is done with a session's stream drops it, and the host's own subscription with it), so
/// they have no form here. Checked to be exactly the vectors the runner cannot run.
const BRIDGE_DISPOSAL: [&str; 2] = [
    "bridge/async-reply-after-dispose-dropped",
    "bridge/subscription-and-dispose",
];

/// The `bridge/*` vectors with a client frame the crate's strict frame decoder refuses (a
/// missing, string, `null`, fractional, negative or out-of-range seq; a falsy frame), or whose
/// `awaitResume` is not a boolean: departures (`docs/decisions/session-protocol.md`).
const BRIDGE_DEPARTURES: [&str; 5] = [
    "edge-untyped/bridge/await-resume-truthy-non-boolean",
    "bridge/resume-fresh-session",
    "bridge/malformed-resume-and-ack",
    "edge-untyped/bridge/resume-missing-lastSeq-releases-hold",
    "bridge/falsy-json-frames-ignored",
];

/// The vectors whose check ends at an ack the typed API cannot express (it changed the
/// reference's state).
const ENDS_AT_AN_INEXPRESSIBLE_ACK: [&str; 3] = [
    "edge/buffer/ack-fractional",
    "edge/buffer/ack-infinity",
    "edge-untyped/buffer/ack-string-and-null",
];

/// The vector where the crate's default size (UTF-8 bytes) departs from the reference's.
const UTF16_SIZING: &str = "buffer/default-sizing/utf16-code-units-not-utf8-bytes";

/// The seq a typed caller passes for this input, if a `u64` can hold it.
fn seq(input: &Value) -> Option<u64> {
    input.as_u64()
}

/// The state the reference reports, as the crate's buffer has it.
fn state(buffer: &ResumeBuffer<Value>) -> Value {
    serde_json::json!({
        "lastSeq": buffer.last_seq(),
        "size": buffer.len(),
        "retainedSeqs": buffer.retained().map(|(seq, _)| seq).collect::<Vec<_>>(),
        "retainedBytes": buffer.retained_bytes(),
    })
}

/// The reference's answer to a tail, as the crate's buffer gives it.
fn tail(buffer: &ResumeBuffer<Value>, after: u64) -> Value {
    match buffer.tail_after(after) {
        Ok(frames) => serde_json::json!({
            "kind": "tail",
            "frames": frames
                .map(|(seq, message)| serde_json::json!({"seq": seq, "message": message}))
                .collect::<Vec<_>>(),
        }),
        Err(_) => serde_json::json!({"kind": "overrun"}),
    }
}

/// The default size of a frame: its JSON text's length in bytes.
fn default_size(message: &Value) -> usize {
    serde_json::to_string(message).expect("a JSON value").len()
}

/// The bounds a vector's options give, the reference's defaults for those it leaves out.
fn limits(options: &Value) -> ResumeLimits {
    let bound = |key: &str, default: usize| options[key].as_u64().map_or(default, |n| n as usize);
    ResumeLimits::new(
        bound("maxFrames", ResumeLimits::DEFAULT.max_frames),
        bound("maxBytes", ResumeLimits::DEFAULT.max_bytes),
    )
}

/// Runs one `buffer/*` vector; returns how many of its ops were skipped (a tail after a seq the
/// typed API cannot express), and whether its check ended at an ack it cannot express.
fn run_buffer_vector(vector: &Value) -> (usize, bool) {
    let name = vector["name"].as_str().expect("name");
    let input = &vector["input"];
    let limits = limits(&input["options"]);
    let scripted = input["sizing"] == "scripted";
    let mut buffer = ResumeBuffer::new(limits);
    let trace = vector["output"]["trace"].as_array().expect("a trace");
    assert_same(name, &state(&buffer), &trace[0]["state"]);
    let mut skipped = 0;
    for step in &trace[1..] {
        let op = step["op"].as_str().expect("an op");
        let returns = &step["result"]["returns"];
        let before = state(&buffer);
        match op {
            "append" => {
                let message = step["message"].clone();
                let size = if scripted {
                    step["size"].as_u64().expect("a scripted size") as usize
                } else {
                    default_size(&message)
                };
                let stamped = buffer.append(message, size);
                assert_same(name, &serde_json::json!(stamped), returns);
            }
            "appendMany" => {
                let count = step["count"].as_u64().expect("a count");
                let prefix = step["deltaPrefix"].as_str().expect("a prefix");
                let first = buffer.last_seq() + 1;
                for at in 0..count {
                    let message =
                        serde_json::json!({"type": "text_delta", "delta": format!("{prefix}{at}")});
                    let size = default_size(&message);
                    buffer.append(message, size);
                }
                assert_same(
                    name,
                    &serde_json::json!({"firstSeq": first, "lastSeq": buffer.last_seq()}),
                    returns,
                );
            }
            "appendLarge" => {
                let text = step["char"].as_str().expect("a char");
                let count = step["count"].as_u64().expect("a count") as usize;
                let message =
                    serde_json::json!({"type": "text_delta", "delta": text.repeat(count)});
                let size = default_size(&message);
                let stamped = buffer.append(message, size);
                assert_same(name, &serde_json::json!(stamped), returns);
            }
            "ackThrough" => match seq(&step["seq"]) {
                Some(through) => buffer.ack_through(through),
                // A no-op in the reference: nothing to do.
                None if step["state"] == before => {
                    skipped += 1;
                    continue;
                }
                None => return (skipped, true),
            },
            "tailAfter" => match seq(&step["lastSeq"]) {
                Some(after) => assert_same(name, &tail(&buffer, after), returns),
                None => {
                    skipped += 1;
                    continue;
                }
            },
            "read" if name == UTF16_SIZING => {
                assert_eq!((buffer.last_seq(), buffer.len()), (2, 1), "{name}");
                assert_eq!(returns["size"], 2, "{name}: the reference keeps both");
            }
            "read" => assert_same(
                name,
                &serde_json::json!({"lastSeq": buffer.last_seq(), "size": buffer.len()}),
                returns,
            ),
            other => panic!("{name}: unknown op {other}"),
        }
        if name == UTF16_SIZING {
            // Departure: "é" and "😀" frames are 34 and 36 UTF-8 bytes (33 and 34 UTF-16 code
            // units), 70 of the 67 allowed, so the first is evicted where the reference keeps it.
            let expected = match buffer.last_seq() {
                1 => (34, 1, 33, 1),
                _ => (36, 1, 67, 2),
            };
            assert_eq!(
                (
                    buffer.retained_bytes(),
                    buffer.len(),
                    step["state"]["retainedBytes"].as_u64().expect("bytes") as usize,
                    step["state"]["size"].as_u64().expect("size") as usize,
                ),
                expected,
                "{name} after {op}"
            );
            continue;
        }
        assert_same(
            &format!("{name} after {op}"),
            &state(&buffer),
            &step["state"],
        );
    }
    (skipped, false)
}

/// The sink a connection attached with: its name, how it fails (`throws` every call, or on
/// its n-th call only) and with what, how often it was called, and the attachment's own
/// delivery boundary.
struct Sink {
    name: String,
    throws: Option<Option<usize>>,
    error: ErrorValue,
    calls: usize,
    delivery: OutboundDelivery,
}

/// What one step delivered, per sink, and the failures reported.
#[derive(Default)]
struct Step {
    delivered: BTreeMap<String, Vec<String>>,
    errors: Vec<Value>,
}

/// Sends `frame` to the attached sink through its boundary; a failure is reported once and
/// detaches the connection (the reference's bridge drops a connection whose sink fails).
fn send(
    bridge: &mut ResumeBridge,
    sink: &mut Option<Sink>,
    step: &mut Step,
    frame: BridgeFrame<'_>,
) {
    let Some(attached) = sink.as_mut() else {
        return;
    };
    attached.calls += 1;
    let fails = match attached.throws {
        Some(None) => true,
        Some(Some(nth)) => attached.calls == nth,
        None => false,
    };
    let texts = step.delivered.entry(attached.name.clone()).or_default();
    let outcome = attached.delivery.deliver(&frame, |frame| {
        if fails {
            return Err(attached.error.clone());
        }
        texts.push(frame.text.to_owned());
        Ok(())
    });
    if let Delivery::Failed { error, event } = outcome {
        let report =
            serde_json::json!({ "attachment": attached.name, "error": error, "event": event });
        step.errors.push(report);
        *sink = None;
        bridge.detach();
    }
}

/// A server message through the bridge, and to the sink when the bridge says so.
fn outbound(
    bridge: &mut ResumeBridge,
    sink: &mut Option<Sink>,
    step: &mut Step,
    message: &ServerMessage,
) {
    let frame = bridge
        .outbound(message)
        .expect("a message writes")
        .map(|frame| (frame.event, frame.text.to_owned()));
    if let Some((event, text)) = frame {
        send(bridge, sink, step, BridgeFrame { event, text: &text });
    }
}

/// Runs one `bridge/*` vector (of this file or of the delivery file) over a [`ResumeBridge`]
/// and the client vectors' scripted session: events through `event_message` for the surface
/// bound to the bridge's driver, client frames through the strict frame decoder (`resume` and
/// `ack` to the bridge, every other message to the handler, whose replies go through the
/// bridge), each attachment's sink behind its own delivery boundary. Compared after each step:
/// each sink's deliveries byte for byte, the failures reported, the session calls, the active
/// driver's lookups and the bridge's state. `Err` when the vector has no form here.
pub(super) fn run_bridge_vector(defaults: &Value, vector: &Value) -> Result<(), String> {
    let name = vector["name"].as_str().expect("name");
    let input = &vector["input"];
    let session = Script::for_vector(defaults, vector)?;
    let limits = limits(&input["options"]["buffer"]);
    let mut driver = input["options"]["driverId"].as_str().map(str::to_owned);
    let mut active = input["activeDriverId"].as_str().map(str::to_owned);
    let asked = Cell::new(0);
    let mut bridge = ResumeBridge::new(limits);
    let mut sink: Option<Sink> = None;
    let mut pending: Vec<Pin<Box<dyn Future<Output = Handled<_>> + '_>>> = Vec::new();
    let mut context = Context::from_waker(Waker::noop());
    let trace = vector["output"]["trace"].as_array().expect("a trace");
    for (step_input, recorded) in input["steps"].as_array().expect("steps").iter().zip(trace) {
        let op = step_input["op"].as_str().expect("an op");
        let mut step = Step::default();
        match op {
            "attach" => {
                if step_input["onDeliveryError"] == "record-then-throw" {
                    return Err(String::from("a failure handler that throws"));
                }
                let error = match step_input.get("throwValue") {
                    None => ErrorValue::new("Error", "data channel closed"),
                    Some(thrown) => return Err(format!("a sink that throws {thrown}")),
                };
                let throws = match &step_input["sinkBehaviour"] {
                    Value::Null => None,
                    Value::String(always) if always == "throws" => Some(None),
                    other => Some(Some(
                        other["throwsOnCall"].as_u64().expect("a call") as usize
                    )),
                };
                bridge.attach(step_input["awaitResume"].as_bool().unwrap_or(false));
                let name = step_input["sink"].as_str().expect("a sink").to_owned();
                sink = Some(Sink {
                    name,
                    throws,
                    error,
                    calls: 0,
                    delivery: OutboundDelivery::new(),
                });
            }
            "detach" => {
                bridge.detach();
                sink = None;
            }
            "emit" => {
                let kind = step_input["event"].as_str().expect("an event name");
                let args = step_input["args"].as_array().expect("args");
                let event = emitted(kind, args).expect("a session event");
                session.events.borrow_mut().push(event);
            }
            "client" => {
                let raw = step_input["raw"].as_str().expect("a frame");
                match decode_client_frame(raw, &FrameLimits::DEFAULT) {
                    Ok(ClientMessage::Resume { last_seq }) => {
                        let frames: Vec<(&'static str, String)> = bridge
                            .resume(last_seq)
                            .into_iter()
                            .map(|frame| (frame.event, frame.text.to_owned()))
                            .collect();
                        for (event, text) in &frames {
                            send(
                                &mut bridge,
                                &mut sink,
                                &mut step,
                                BridgeFrame { event, text },
                            );
                        }
                    }
                    Ok(ClientMessage::Ack { seq }) => bridge.ack(seq),
                    Ok(message) => {
                        let (session, driver) = (&session, driver.clone());
                        pending.push(Box::pin(async move {
                            handle_client_message(session, message, driver.as_deref()).await
                        }));
                    }
                    Err(refusal) => {
                        let message = ServerMessage::ProtocolError {
                            message: refusal.to_string(),
                        };
                        outbound(&mut bridge, &mut sink, &mut step, &message);
                    }
                }
            }
            "setDriverId" => driver = step_input["driverId"].as_str().map(str::to_owned),
            "setActiveDriverId" => {
                active = super::session_protocol_events::driver(step_input.get("value"))
                    .map_err(|()| String::from("an untyped active driver"))?;
            }
            "settleDeferred" => {
                let mut spec = step_input.as_object().expect("a step").clone();
                spec.retain(|key, _| key == "resolves" || key == "rejects");
                let deferred = step_input["name"].as_str().expect("a name").to_owned();
                session
                    .settled
                    .borrow_mut()
                    .insert(deferred, Value::Object(spec));
            }
            "dispose" | "readLastSeq" => {
                return Err(String::from("the bridge has no disposal: a host drops it"));
            }
            "emitSelfReferencing" => return Err(String::from("a self-referencing event")),
            other => panic!("{name}: an op this check does not run: {other}"),
        }
        // The events emitted, then every handling not done yet, oldest first.
        let mut index = 0;
        loop {
            let events: Vec<SessionEvent> = session.events.borrow_mut().drain(..).collect();
            for event in events {
                let lookup = || {
                    asked.set(asked.get() + 1);
                    active.clone()
                };
                if let Some(message) = event_message(event, driver.as_deref(), lookup) {
                    outbound(&mut bridge, &mut sink, &mut step, &message);
                }
            }
            let Some(handling) = pending.get_mut(index) else {
                break;
            };
            match handling.as_mut().poll(&mut context) {
                Poll::Pending => index += 1,
                Poll::Ready(handled) => {
                    drop(pending.remove(index));
                    if let Handled::Reply(reply) = handled {
                        outbound(&mut bridge, &mut sink, &mut step, &reply);
                    }
                }
            }
        }

        let at = format!("{name}: {op}");
        let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for key in ["delivered", "deliveredAfterSettle"] {
            for (to, texts) in recorded[key].as_object().into_iter().flatten() {
                let texts = texts.as_array().expect("texts").iter();
                let texts = texts.map(|text| text.as_str().expect("a text").to_owned());
                expected.entry(to.clone()).or_default().extend(texts);
            }
        }
        step.delivered.retain(|_, texts| !texts.is_empty());
        assert_eq!(step.delivered, expected, "{at}: deliveries");
        let errors = recorded["deliveryErrors"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(step.errors, errors, "{at}: delivery failures");
        let calls: Vec<Value> = session.calls.borrow_mut().drain(..).collect();
        let mut expected_calls = recorded["sessionCalls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let before = expected_calls.len();
        expected_calls.retain(|call| call["method"] != "getActiveDriverId");
        assert_eq!(
            asked.replace(0),
            before - expected_calls.len(),
            "{at}: driver lookups"
        );
        assert_eq!(calls, expected_calls, "{at}: session calls");
        let internal = &recorded["internal"];
        assert_same(
            &format!("{at}: the bridge's state"),
            &serde_json::json!({
                "lastSeq": bridge.last_seq(),
                "retainedSeqs": bridge.retained_seqs().collect::<Vec<_>>(),
                "holding": bridge.is_holding(),
                "attached": bridge.is_attached(),
            }),
            &serde_json::json!({
                "lastSeq": recorded["lastSeq"],
                "retainedSeqs": internal["retainedSeqs"],
                "holding": internal["holding"],
                "attached": internal["attached"],
            }),
        );
    }
    assert!(pending.is_empty(), "{name}: a handling never settled");
    Ok(())
}

#[test]
fn resume_buffer_vectors() {
    let vectors = load("session-protocol-resume.json");
    let defaults =
        &document("session-protocol-resume.json")["standIns"]["session"]["defaultAnswers"];
    let mut bridge_departures = Vec::new();
    let mut buffer_vectors = 0;
    let mut skipped = 0;
    let mut ended = Vec::new();
    let mut bridge = 0;
    let mut bridge_checked = 0;
    for vector in &vectors {
        let name = vector["name"].as_str().expect("name");
        if name.starts_with("bridge/") || name.starts_with("edge-untyped/bridge/") {
            if BRIDGE_DEPARTURES.contains(&name) {
                bridge += 1;
            } else {
                match run_bridge_vector(defaults, vector) {
                    Ok(()) => bridge_checked += 1,
                    Err(_) => bridge_departures.push(name),
                }
            }
            continue;
        }
        let (skips, ended_early) = run_buffer_vector(vector);
        skipped += skips;
        if ended_early {
            ended.push(name);
        }
        buffer_vectors += 1;
    }
    assert_eq!(buffer_vectors, 30, "the buffer vectors");
    assert_eq!(bridge, BRIDGE_DEPARTURES.len(), "bridge vectors skipped");
    assert_eq!(bridge_departures, BRIDGE_DISPOSAL);
    assert_eq!(
        bridge_checked,
        30 - 5 - 2,
        "every other bridge vector is checked"
    );
    assert_eq!(ended, ENDS_AT_AN_INEXPRESSIBLE_ACK);
    // Tails after -1 (twice), NaN (twice), +∞, -∞, "1", null and undefined; acks of -5 and NaN,
    // which changed nothing.
    assert_eq!(skipped, 11, "ops a typed seq cannot express");
}

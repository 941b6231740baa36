//! Hostile input on the wire, on the LM3S6965 (64 KiB SRAM: a 40 KiB heap, about 24 KiB of
//! stack): the fuzz reproducers of the channel frame, transport JSON and policy targets replayed
//! through the public API, and crafted worst cases (nesting at the default bound, one past it and
//! 1000 deep in event bodies, whole frames, frames received through the channel registry, the
//! strict decoders, policy rules and session protocol client frames; far-ahead and `u32::MAX`
//! channel seqs; client frames of the device's frame bound that cost the most heap). Each case
//! checks the outcome (a typed refusal for bad input) and runs within a stack and heap budget.
#![no_std]
#![no_main]

extern crate alloc;

#[path = "hostile/mod.rs"]
mod hostile;

use alloc::string::String;
use alloc::vec::Vec;

use agent_interface::agent_core::{Value, from_json_slice};
use agent_interface::runtime::policy::{
    SessionPermissionRules, StoredSessionRules, lex_within, normalize_path,
};
use agent_interface::runtime::session_protocol::{FrameLimits, FrameRefusal, decode_client_frame};
use agent_interface::runtime::transport::channels::{
    ChannelFrameError, ChannelRefusal, GapPolicy, NotDelivered, PayloadChannelRegistry,
    RefusedDelivery, SequenceRefusal, WindowFull, decode_channel_frame, decode_event_body,
    decode_header, encode_channel_frame,
};
use agent_interface::session::protocol::ClientMessage;
use agent_interface::transport::channels::{
    ChannelDescriptor, ChannelEventFrame, ChannelFrame, ChannelName,
};
use hostile::{
    AT, BOUND, DEEP, HEAP, PAST, STACK, TOO_DEEP, event_body, event_frame, nested, regressions,
};

// ---------------------------------------------------------------- fuzz reproducers

/// `channel_frame`: bytes fed to `decode_channel_frame`. A frame that decodes encodes to bytes
/// that decode again, and that encoding is stable; bytes refused are refused by the header
/// reader alike when the header is what is wrong.
fn regressions_channel_frame() {
    for (name, bytes) in regressions("channel_frame") {
        match decode_channel_frame(bytes) {
            Ok(frame) => {
                let encoded = encode_channel_frame(&frame);
                let again = decode_channel_frame(&encoded)
                    .unwrap_or_else(|e| panic!("{name}: the encoding does not decode: {e}"));
                assert_eq!(
                    encode_channel_frame(&again),
                    encoded,
                    "{name}: unstable encoding"
                );
            }
            Err(error) => {
                if let Err(header) = decode_header(bytes) {
                    assert_eq!(header, error, "{name}: the header reader disagrees");
                }
            }
        }
    }
}

/// `json_transport`: bytes fed to the strict decoder of every transport wire type; here the
/// channel frame types the reproducers are. A value that decodes round-trips exactly.
fn regressions_json_transport() {
    fn round_trip<T>(name: &str, bytes: &[u8]) -> bool
    where
        T: serde::de::DeserializeOwned + serde::Serialize + PartialEq + core::fmt::Debug,
    {
        let Ok(value) = from_json_slice::<T>(bytes) else {
            return false;
        };
        let encoded = serde_json::to_vec(&value).expect("a decoded value encodes");
        let again: T = from_json_slice(&encoded)
            .unwrap_or_else(|e| panic!("{name}: the encoding does not decode: {e}"));
        assert_eq!(again, value, "{name}: decode(encode(value)) != value");
        assert_eq!(
            serde_json::to_vec(&again).ok(),
            Some(encoded),
            "{name}: unstable"
        );
        true
    }
    for (name, bytes) in regressions("json_transport") {
        let decoded = round_trip::<ChannelFrame>(name, bytes)
            | round_trip::<ChannelEventFrame>(name, bytes)
            | round_trip::<Value>(name, bytes);
        assert!(
            decoded,
            "{name}: none of the types read it (not a reproducer of this target?)"
        );
    }
}

/// `policy_path`: up to three paths split at NUL. Normalising is idempotent, an opaque path
/// normalises to itself, and containment agrees before and after normalising.
fn regressions_policy_path() {
    for (name, bytes) in regressions("policy_path") {
        let text = String::from_utf8_lossy(bytes);
        let mut parts = text.splitn(3, '\0');
        let root = parts.next().unwrap_or_default();
        let path = parts.next().unwrap_or(root);
        let third = parts.next().unwrap_or(path);
        for p in [root, path, third] {
            let once = normalize_path(p);
            assert_eq!(
                normalize_path(&once),
                once,
                "{name}: normalize is not idempotent"
            );
            if !lex_within(p, p) {
                assert_eq!(once, p, "{name}: an opaque path was normalised");
            }
        }
        let (n_root, n_path) = (normalize_path(root), normalize_path(path));
        assert_eq!(
            lex_within(root, path),
            lex_within(&n_root, &n_path),
            "{name}: disagree"
        );
    }
}

/// `policy_rules`: `<prior rules> NUL <next rules>`. The strict decoder refuses a document
/// with a repeated top-level member; otherwise it agrees with `from_json` on the parsed value.
fn regressions_policy_rules() {
    for (name, bytes) in regressions("policy_rules") {
        for document in bytes.split(|b| *b == 0) {
            let strict = from_json_slice::<SessionPermissionRules>(document).ok();
            let _ = from_json_slice::<StoredSessionRules>(document);
            let keys = top_level_keys(document);
            let mut unique = keys.clone();
            unique.sort_unstable();
            unique.dedup();
            if unique.len() < keys.len() {
                assert!(strict.is_none(), "{name}: a repeated member was accepted");
            } else if let Ok(value) = from_json_slice::<Value>(document) {
                let lenient = SessionPermissionRules::from_json(&value).ok();
                assert_eq!(
                    lenient, strict,
                    "{name}: from_json and the strict decoder disagree"
                );
            }
        }
    }
}

/// The raw keys of the top-level object in `text` (escapes left as they are), in order.
fn top_level_keys(text: &[u8]) -> Vec<&[u8]> {
    let mut keys = Vec::new();
    let (mut depth, mut at) = (0_usize, 0);
    while let Some(&byte) = text.get(at) {
        match byte {
            b'"' => {
                let start = at + 1;
                at = start;
                while let Some(&c) = text.get(at) {
                    match c {
                        b'\\' => at += 2,
                        b'"' => break,
                        _ => at += 1,
                    }
                }
                let rest = text.get(at + 1..).unwrap_or_default();
                let is_key = rest.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b':');
                if depth == 1 && is_key {
                    keys.push(text.get(start..at).unwrap_or_default());
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    keys
}

// ---------------------------------------------------------------- event bodies

fn event_body_at_the_bound() {
    let (event, payload) = decode_event_body(&event_body(AT)).expect("at the bound: read");
    assert_eq!(event, "e");
    assert_eq!(depth_of(&payload), AT - 1, "the payload keeps every level");
}

fn event_body_one_past_the_bound() {
    assert_too_deep(decode_event_body(&event_body(PAST)).map(drop));
}

fn event_body_1000_deep() {
    assert_too_deep(decode_event_body(&event_body(DEEP)).map(drop));
}

/// How deep `value` nests (a scalar is 0), without recursion.
fn depth_of(value: &Value) -> usize {
    let mut depth = 0;
    let mut at = value;
    while let Some(inner) = at.as_array().and_then(|items| items.first()) {
        depth += 1;
        at = inner;
    }
    depth + usize::from(at.is_array())
}

/// A refusal of text nested too deep: the decoder says the body is not one it reads.
fn assert_too_deep(outcome: Result<(), ChannelFrameError>) {
    let error = outcome.expect_err("nested past the bound: refused");
    assert_eq!(error, ChannelFrameError::TooDeep { limit: BOUND });
}

// ---------------------------------------------------------------- whole frames

fn channel_frame_at_the_bound() {
    let frame = decode_channel_frame(&event_frame("c", 7, &event_body(AT))).expect("read");
    let ChannelFrame::Event(frame) = frame else {
        panic!("an event frame")
    };
    assert_eq!((frame.seq, depth_of(&frame.payload)), (7, AT - 1));
}

fn channel_frame_one_past_the_bound() {
    assert_too_deep(decode_channel_frame(&event_frame("c", 7, &event_body(PAST))).map(drop));
}

fn channel_frame_1000_deep() {
    assert_too_deep(decode_channel_frame(&event_frame("c", 7, &event_body(DEEP))).map(drop));
}

// ---------------------------------------------------------------- the channel registry

type Registry = PayloadChannelRegistry<8>;

fn open_registry() -> Registry {
    let mut registry = Registry::new();
    let name = ChannelName::new("c").expect("a name");
    registry
        .register(ChannelDescriptor::new(name, ["e"]))
        .expect("registered");
    registry
}

/// Receives one event frame nested `depth` deep at seq 0 and returns what came out.
fn receive_nested(depth: usize) -> Vec<Result<usize, NotDelivered>> {
    let mut registry = open_registry();
    let delivery = registry.receive(event_frame("c", 0, &event_body(depth)), 0);
    let delivery = delivery.expect("the header is whole, the channel open: routed");
    delivery
        .map(|item| {
            item.map(|frame| match frame.body {
                agent_interface::runtime::transport::channels::DeliveredBody::Event {
                    payload,
                    ..
                } => depth_of(&payload),
                other => panic!("an event, not {other:?}"),
            })
        })
        .collect()
}

fn registry_delivers_at_the_bound() {
    let items = receive_nested(AT);
    assert!(
        matches!(items.as_slice(), [Ok(levels)] if *levels == AT - 1),
        "{items:?}"
    );
}

fn registry_refuses_one_past_the_bound() {
    assert_refused_delivery(&receive_nested(PAST));
}

fn registry_refuses_1000_deep() {
    assert_refused_delivery(&receive_nested(DEEP));
}

fn assert_refused_delivery(items: &[Result<usize, NotDelivered>]) {
    let [
        Err(NotDelivered::Refused(RefusedDelivery {
            seq: 0, refusal, ..
        })),
    ] = items
    else {
        panic!("one refused delivery, not {items:?}");
    };
    let too_deep = ChannelFrameError::TooDeep { limit: BOUND };
    assert_eq!(refusal, &ChannelRefusal::Malformed(too_deep));
}

/// A frame far ahead, then one at `u32::MAX`. Under the default policy (a full window skips
/// ahead only when frames already held, or a second frame, back the jump up) each is refused as
/// beyond the window and the channel keeps its place: the next in-order frame is delivered, and
/// a repeat of one delivered is stale. Under `WindowFull::Refuse` they are refused too.
fn far_ahead_and_last_seqs() {
    let body = event_body(2);
    let mut registry = open_registry();
    let first: Vec<_> = registry
        .receive(event_frame("c", 0, &body), 0)
        .expect("routed")
        .collect();
    assert!(matches!(first.as_slice(), [Ok(_)]), "{first:?}");

    // One frame far ahead, with nothing held to back it up, no longer moves the base: it is
    // refused as beyond the window, and the next in-order frame is still delivered.
    for far in [1_000_000, u32::MAX] {
        let refused = registry.receive(event_frame("c", far, &body), 0);
        assert!(
            matches!(refused, Err(ChannelRefusal::Sequence { .. })),
            "{far} refused"
        );
    }
    let next: Vec<_> = registry
        .receive(event_frame("c", 1, &body), 0)
        .expect("routed")
        .collect();
    assert!(matches!(next.as_slice(), [Ok(_)]), "{next:?}");

    let refused = registry.receive(event_frame("c", 0, &body), 0).map(drop);
    let Err(ChannelRefusal::Sequence { refusal, .. }) = refused else {
        panic!("a sequence refusal at 0, not {refused:?}");
    };
    assert_eq!(refusal, SequenceRefusal::Stale { seq: 0 });

    let refuse = GapPolicy::new().with_window_full(WindowFull::Refuse);
    let mut strict = open_registry().with_gap_policy(refuse);
    let first = strict.receive(event_frame("c", 0, &body), 0);
    assert_eq!(
        first.expect("routed").count(),
        1,
        "seq 0 delivered, 1 expected next"
    );
    for seq in [9, 1_000_000, u32::MAX] {
        let refused = strict.receive(event_frame("c", seq, &body), 0).map(drop);
        let Err(ChannelRefusal::Sequence { refusal, .. }) = refused else {
            panic!("a sequence refusal at {seq}, not {refused:?}");
        };
        assert!(
            matches!(refusal, SequenceRefusal::BeyondWindow { expected: 1, .. }),
            "{refusal:?}"
        );
    }
}

// ---------------------------------------------------------------- strict decoders

/// A frame in its JSON form, the payload `levels` arrays deep (the text nests `levels + 1`).
fn frame_json(levels: usize) -> Vec<u8> {
    nested(
        r#"{"kind":"event","channel":"c","seq":0,"event":"e","payload":"#,
        levels,
        "}",
    )
}

fn strict_value_at_the_bound() {
    let value: Value = from_json_slice(&nested("", AT, "")).expect("a value at the bound");
    assert_eq!(depth_of(&value), AT);
}

fn strict_event_frame_at_the_bound() {
    let frame: ChannelEventFrame = from_json_slice(&frame_json(AT - 1)).expect("at the bound");
    assert_eq!(depth_of(&frame.payload), AT - 1);
}

fn strict_frame_at_the_bound() {
    let frame: ChannelFrame = from_json_slice(&frame_json(AT - 1)).expect("at the bound");
    assert!(matches!(frame, ChannelFrame::Event(_)));
}

fn strict_decoders_past_the_bound() {
    for depth in [PAST, DEEP] {
        assert_json_too_deep(from_json_slice::<Value>(&nested("", depth, "")).map(drop));
        let text = frame_json(depth - 1);
        assert_json_too_deep(from_json_slice::<ChannelEventFrame>(&text).map(drop));
        assert_json_too_deep(from_json_slice::<ChannelFrame>(&text).map(drop));
    }
}

/// A strict decoder's refusal of text nested past the bound, which says so.
fn assert_json_too_deep(outcome: Result<(), agent_interface::agent_core::JsonDecodeError>) {
    let error = outcome.expect_err("nested past the bound: refused");
    let message = alloc::format!("{error}");
    assert!(
        message.contains(TOO_DEEP),
        "not refused as too deep: {message}"
    );
}

// ---------------------------------------------------------------- policy rules

/// A rules document whose `toolAllow` holds arrays nested so that the text nests `depth` deep.
fn rules_document(depth: usize) -> Vec<u8> {
    nested(r#"{"toolAllow":"#, depth - 1, r#","rev":1}"#)
}

fn policy_rules_at_the_bound() {
    let document = rules_document(AT);
    // Parsed at the bound; not rules (a list of strings), so refused by both readers.
    let value: Value = from_json_slice(&document).expect("parsed at the bound");
    assert!(SessionPermissionRules::from_json(&value).is_err());
    assert!(StoredSessionRules::from_json(&value).is_err());
    assert!(from_json_slice::<SessionPermissionRules>(&document).is_err());
    assert!(from_json_slice::<StoredSessionRules>(&document).is_err());
}

fn policy_rules_past_the_bound() {
    for depth in [PAST, DEEP] {
        let document = rules_document(depth);
        assert_json_too_deep(from_json_slice::<Value>(&document).map(drop));
        assert_json_too_deep(from_json_slice::<SessionPermissionRules>(&document).map(drop));
        assert_json_too_deep(from_json_slice::<StoredSessionRules>(&document).map(drop));
    }
}

// ---------------------------------------------------------------- session protocol frames

/// The frame bound of a device host (`FrameLimits::DEVICE`): the reference's 4 MiB would let
/// one frame take the whole heap.
const DEVICE: FrameLimits = FrameLimits::DEVICE;

/// A client frame: an `abort` with an undeclared member holding `levels` nested arrays (the
/// text nests `levels + 1`).
fn client_frame(levels: usize) -> String {
    let text = nested(r#"{"type":"abort","x":"#, levels, "}");
    String::from_utf8(text).expect("ASCII")
}

fn client_frame_at_the_bound() {
    let frame = client_frame(AT - 1);
    let message = decode_client_frame(&frame, &FrameLimits::DEFAULT).expect("at the bound");
    assert_eq!(message, ClientMessage::Abort);
}

fn client_frame_past_the_bound() {
    for depth in [PAST, DEEP] {
        let refusal = decode_client_frame(&client_frame(depth - 1), &FrameLimits::DEFAULT)
            .expect_err("nested past the bound: refused");
        assert_eq!(refusal, FrameRefusal::TooDeep { depth: BOUND });
        assert!(alloc::format!("{refusal}").contains(TOO_DEEP));
    }
}

/// An `abort` frame of exactly the device's bound whose undeclared member `x` holds `item`
/// repeated (each followed by `,`, the last by `]`) as often as fits: read within the heap, and
/// one byte more is refused before it is parsed.
fn widest_client_frame(item: impl Fn(usize) -> String) {
    let open = r#"{"type":"abort","x":["#;
    let mut frame = String::from(open);
    let mut count = 0;
    loop {
        let next = item(count);
        // Room for the item, its separator, and the closing `]}` (replacing the last `,`).
        if frame.len() + next.len() + 1 + "]}".len() > DEVICE.max_bytes {
            break;
        }
        frame.push_str(&next);
        frame.push(',');
        count += 1;
    }
    frame.pop();
    frame.push_str("]}");
    frame.extend(core::iter::repeat_n(' ', DEVICE.max_bytes - frame.len()));
    assert_eq!(frame.len(), DEVICE.max_bytes);
    let message = decode_client_frame(&frame, &DEVICE).expect("within the bound");
    assert_eq!(message, ClientMessage::Abort);
    frame.push(' ');
    assert_eq!(
        decode_client_frame(&frame, &DEVICE),
        Err(FrameRefusal::TooLarge)
    );
}

/// Empty arrays (`[]`): a value for every three bytes.
fn client_frame_of_empty_arrays_at_the_device_bound() {
    widest_client_frame(|_| String::from("[]"));
}

/// Digits (`0`): a value for every two bytes.
fn client_frame_of_numbers_at_the_device_bound() {
    widest_client_frame(|_| String::from("0"));
}

/// Objects with a member each (`{"k":0}`).
fn client_frame_of_small_objects_at_the_device_bound() {
    widest_client_frame(|_| String::from(r#"{"k":0}"#));
}

/// A declared member at its widest: an answer's values, as many empty strings as fit.
fn client_frame_of_answer_values_at_the_device_bound() {
    let mut frame =
        String::from(r#"{"type":"ask-response","id":"a1","response":{"type":"answer","values":["#);
    while frame.len() + r#""","#.len() + "]}}".len() <= DEVICE.max_bytes {
        frame.push_str(r#""","#);
    }
    frame.pop();
    frame.push_str("]}}");
    let message = decode_client_frame(&frame, &DEVICE).expect("within the bound");
    assert!(matches!(message, ClientMessage::AskResponse { .. }));
}

/// One object with as many distinct members as fit, in an undeclared member.
fn client_frame_of_distinct_members_at_the_device_bound() {
    let mut frame = String::from(r#"{"type":"abort","x":{"#);
    let mut count = 0u32;
    loop {
        let member = alloc::format!(r#""{count:x}":0,"#);
        if frame.len() + member.len() + 1 > DEVICE.max_bytes {
            break;
        }
        frame.push_str(&member);
        count += 1;
    }
    frame.pop();
    frame.push_str("}}");
    let message = decode_client_frame(&frame, &DEVICE).expect("within the bound");
    assert_eq!(message, ClientMessage::Abort);
}

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run_measured(
        "hostile_input::wire",
        &[
            (
                "regressions_channel_frame",
                regressions_channel_frame,
                STACK,
                HEAP,
            ),
            (
                "regressions_json_transport",
                regressions_json_transport,
                STACK,
                HEAP,
            ),
            (
                "regressions_policy_path",
                regressions_policy_path,
                STACK,
                HEAP,
            ),
            (
                "regressions_policy_rules",
                regressions_policy_rules,
                STACK,
                HEAP,
            ),
            (
                "event_body_at_the_bound",
                event_body_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "event_body_one_past_the_bound",
                event_body_one_past_the_bound,
                STACK,
                HEAP,
            ),
            ("event_body_1000_deep", event_body_1000_deep, STACK, HEAP),
            (
                "client_frame_at_the_bound",
                client_frame_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "client_frame_past_the_bound",
                client_frame_past_the_bound,
                STACK,
                HEAP,
            ),
            (
                "client_frame_of_empty_arrays_at_the_device_bound",
                client_frame_of_empty_arrays_at_the_device_bound,
                STACK,
                HEAP,
            ),
            (
                "client_frame_of_numbers_at_the_device_bound",
                client_frame_of_numbers_at_the_device_bound,
                STACK,
                HEAP,
            ),
            (
                "client_frame_of_small_objects_at_the_device_bound",
                client_frame_of_small_objects_at_the_device_bound,
                STACK,
                HEAP,
            ),
            (
                "client_frame_of_answer_values_at_the_device_bound",
                client_frame_of_answer_values_at_the_device_bound,
                STACK,
                HEAP,
            ),
            (
                "client_frame_of_distinct_members_at_the_device_bound",
                client_frame_of_distinct_members_at_the_device_bound,
                STACK,
                HEAP,
            ),
            (
                "channel_frame_at_the_bound",
                channel_frame_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "channel_frame_one_past_the_bound",
                channel_frame_one_past_the_bound,
                STACK,
                HEAP,
            ),
            (
                "channel_frame_1000_deep",
                channel_frame_1000_deep,
                STACK,
                HEAP,
            ),
            (
                "registry_delivers_at_the_bound",
                registry_delivers_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "registry_refuses_one_past_the_bound",
                registry_refuses_one_past_the_bound,
                STACK,
                HEAP,
            ),
            (
                "registry_refuses_1000_deep",
                registry_refuses_1000_deep,
                STACK,
                HEAP,
            ),
            (
                "far_ahead_and_last_seqs",
                far_ahead_and_last_seqs,
                STACK,
                HEAP,
            ),
            (
                "strict_value_at_the_bound",
                strict_value_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "strict_event_frame_at_the_bound",
                strict_event_frame_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "strict_frame_at_the_bound",
                strict_frame_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "strict_decoders_past_the_bound",
                strict_decoders_past_the_bound,
                STACK,
                HEAP,
            ),
            (
                "policy_rules_at_the_bound",
                policy_rules_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "policy_rules_past_the_bound",
                policy_rules_past_the_bound,
                STACK,
                HEAP,
            ),
        ],
    )
}

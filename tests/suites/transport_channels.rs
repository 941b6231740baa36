//! Cases of the payload channels: the frame contracts' JSON form (golden files and refused
//! input), the byte codec (the reference's bytes, copied from the interop vectors as literal
//! cases, and every refusal), the reassembler, and the registry's rules. Uses only `core`,
//! `alloc`, serde_json and the crate, so it also runs on the firmware and wasm.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::channels::{
    Bytes, CHANNEL_FRAME_MAGIC, CHANNEL_FRAME_VERSION, ChannelClosed, ChannelFrameError,
    ChannelFrameHeader, ChannelGap, ChannelReassembler, ChannelRefusal, ChannelRegisterError,
    ChannelResumePoint, ChannelSendError, DeliveredBody, DeliveredFrame, GapPolicy, JsonBodyError,
    JsonBodyFault, NotDelivered, PayloadChannel, PayloadChannelRegistry, Reassembled,
    ReassemblyRefused, RefusedDelivery, SequenceGap, SequenceRefusal, UndeclaredFrame, WindowFull,
    decode_channel_frame, decode_event_body, decode_header, encode_channel_frame,
    encode_channel_frame_into, is_channel_frame,
};
use agent_interface::transport::channels::{
    BinaryFrame, ChannelDescriptor, ChannelEventFrame, ChannelFrame, ChannelName,
    ChannelReceiveResult, ProtocolErrorMessage,
};

use crate::support::{decode, golden, rejects, s, to_json};

#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

macro_rules! gold {
    ($ty:ty, $file:literal) => {
        golden::<$ty>(
            $file,
            include_str!(concat!("../golden/transport/channels/", $file, ".json")),
        )
    };
}

/// The registry of most cases: at most 4 frames held per channel.
type Registry = PayloadChannelRegistry<4>;

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("test JSON")
}

fn name(text: &str) -> ChannelName {
    ChannelName::new(text).expect("a valid channel name")
}

/// Bytes from lowercase hex (test data only).
fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex test data"))
        .collect()
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn descriptor(channel: &str, events: &[&str], binary: Option<bool>) -> ChannelDescriptor {
    let mut descriptor = ChannelDescriptor::new(name(channel), events.iter().copied());
    descriptor.binary = binary;
    descriptor
}

fn event(channel: &str, seq: u32, event: &str, payload: &str) -> ChannelFrame {
    ChannelFrame::Event(ChannelEventFrame::new(
        name(channel),
        seq,
        event,
        json(payload),
    ))
}

fn binary(channel: &str, seq: u32, payload: &[u8]) -> ChannelFrame {
    ChannelFrame::Binary(BinaryFrame::new(name(channel), seq, payload.to_vec()))
}

/// The bytes of a frame built by the codec (for inbound test traffic).
fn wire(frame: &ChannelFrame) -> Vec<u8> {
    encode_channel_frame(frame)
}

/// The bytes of a frame with any body: `binary` or event, the body not checked.
fn raw(channel: &str, seq: u32, binary: bool, body: &[u8]) -> Vec<u8> {
    let mut bytes = b"RBF\x01".to_vec();
    bytes.push(if binary { 1 } else { 2 });
    bytes.push(u8::try_from(channel.len()).expect("a short name"));
    bytes.extend_from_slice(channel.as_bytes());
    bytes.extend_from_slice(&seq.to_be_bytes());
    bytes.extend_from_slice(body);
    bytes
}

/// One item handed on by a receive: the frame, its refused delivery, or a gap.
type Item = Result<ChannelFrame, NotDelivered>;

/// Receives `bytes` at time 0 and takes everything the receive delivers, as contract frames.
fn receive<const N: usize>(
    registry: &mut PayloadChannelRegistry<N>,
    bytes: Vec<u8>,
) -> Result<Vec<Item>, ChannelRefusal> {
    receive_at(registry, bytes, 0)
}

/// Receives `bytes` at the host's time `now_ms` and takes everything the receive delivers.
fn receive_at<const N: usize>(
    registry: &mut PayloadChannelRegistry<N>,
    bytes: Vec<u8>,
    now_ms: u64,
) -> Result<Vec<Item>, ChannelRefusal> {
    let delivery = registry.receive(bytes, now_ms)?;
    Ok(delivery
        .map(|item| item.map(DeliveredFrame::into_frame))
        .collect())
}

/// Frames as delivered items (or as a close hands them back), each accepted.
fn delivered<E>(frames: &[ChannelFrame]) -> Vec<Result<ChannelFrame, E>> {
    frames.iter().cloned().map(Ok).collect()
}

/// A refused delivery as a delivery item.
fn refused_item(channel: &str, seq: u32, refusal: ChannelRefusal) -> Item {
    Err(NotDelivered::Refused(RefusedDelivery {
        channel: name(channel),
        seq,
        refusal,
    }))
}

/// A gap as a delivery item.
fn gap(channel: &str, first_missing: u32, missing_count: u32) -> Item {
    Err(NotDelivered::Gap(ChannelGap {
        channel: name(channel),
        first_missing,
        missing_count,
    }))
}

/// The seqs of delivered items (a gap by its first missing seq).
fn seqs(items: &[Item]) -> Vec<u32> {
    items
        .iter()
        .map(|item| match item {
            Ok(frame) => frame.seq(),
            Err(NotDelivered::Refused(refused)) => refused.seq,
            Err(NotDelivered::Gap(gap)) => gap.first_missing,
            Err(other) => panic!("a new kind of item: {other:?}"),
        })
        .collect()
}

/// Registers `descriptor` anchored at seq 0 (as a channel resumed at its start): a frame ahead
/// of seq 0 is held, not taken as the base.
fn anchored<const N: usize>(
    registry: &mut PayloadChannelRegistry<N>,
    descriptor: ChannelDescriptor,
) -> PayloadChannel {
    registry
        .register_resuming(descriptor, ChannelResumePoint::ZERO)
        .expect("registers")
}

/// A registry that refuses a frame beyond the window, as before gaps were reported.
fn refusing<const N: usize>() -> PayloadChannelRegistry<N> {
    PayloadChannelRegistry::new()
        .with_gap_policy(GapPolicy::new().with_window_full(WindowFull::Refuse))
}

/// The next item a reassembler hands out; a gap fails the test (only cases that skip expect
/// gaps, and they call `pop` themselves).
fn popped<T: core::fmt::Debug, const N: usize>(window: &mut ChannelReassembler<T, N>) -> Option<T> {
    match window.pop()? {
        Reassembled::Item(item) => Some(item),
        gap => panic!("an unexpected gap: {gap:?}"),
    }
}

/// The detail of a body whose JSON ends early, at `column` of its first line.
fn truncated_at(column: usize) -> JsonBodyError {
    JsonBodyError {
        reason: JsonBodyFault::Truncated,
        line: 1,
        column,
    }
}

/// The detail of a body whose JSON is invalid at `column` of its first line.
fn syntax_at(column: usize) -> JsonBodyError {
    JsonBodyError {
        reason: JsonBodyFault::Syntax,
        line: 1,
        column,
    }
}

/// `{"event":"e","payload":1}` as bytes, the event body most refusal vectors carry.
const BODY_E_1: &str = "7b226576656e74223a2265222c227061796c6f6164223a317d";

cases! {
    mod wire_json {
        fn frame_goldens_round_trip() {
            let frame = gold!(ChannelFrame, "binary_frame");
            assert_eq!(frame, binary("media", 8, &[0xca, 0xfe, 0x00, 0xff]));
            let empty = gold!(ChannelFrame, "binary_frame_empty");
            assert_eq!(empty, binary("media", 2, &[]));
            let meta = gold!(ChannelFrame, "event_frame");
            assert_eq!(meta, event("media", 7, "meta", r#"{"mime":"audio/opus","rate":48000}"#));
            assert_eq!(meta.channel().as_str(), "media");
            assert_eq!(meta.seq(), 7);
            // Each variant alone has the same form without the tag.
            let alone: BinaryFrame = decode(&json(r#"{"channel":"m","seq":1,"payload":"00"}"#));
            assert_eq!(alone.payload, vec![0]);
        }

        fn receive_result_goldens_round_trip() {
            let accepted = gold!(ChannelReceiveResult, "receive_result_accepted");
            assert_eq!(
                accepted,
                ChannelReceiveResult::Accepted { frame: event("text", 0, "msg", r#""hi""#) }
            );
            let refused = gold!(ChannelReceiveResult, "receive_result_refused");
            assert_eq!(
                refused,
                ChannelReceiveResult::Refused { error: s("No channel registered for \"nope\"") }
            );
        }

        fn binary_payload_is_lowercase_hex() {
            let frame = binary("b", 0, &[0x00, 0x0f, 0xa5, 0xff]);
            assert_eq!(to_json(&frame)["payload"], json(r#""000fa5ff""#));
            let bad = |payload: &str| format!(r#"{{"kind":"binary","channel":"b","seq":0,"payload":{payload}}}"#);
            let expecting = "lowercase hex string";
            rejects::<ChannelFrame>(&bad(r#""abc""#), expecting);
            rejects::<ChannelFrame>(&bad(r#""CAFE""#), expecting);
            rejects::<ChannelFrame>(&bad(r#""0g""#), expecting);
            rejects::<ChannelFrame>(&bad(r#""+1""#), expecting);
            rejects::<ChannelFrame>(&bad("[1,2]"), expecting);
            rejects::<ChannelFrame>(&bad("null"), expecting);
        }

        fn frame_json_refusals() {
            rejects::<ChannelFrame>(r#"{"kind":"text","channel":"c","seq":0}"#, "unknown variant `text`");
            rejects::<ChannelFrame>(r#"{"channel":"c","seq":0,"payload":""}"#, "missing field `kind`");
            let event = |channel: &str, seq: &str| {
                format!(r#"{{"kind":"event","channel":{channel},"seq":{seq},"event":"e","payload":1}}"#)
            };
            // The seq is the wire's u32: 2^32, negatives and fractions are refused.
            rejects::<ChannelFrame>(&event(r#""c""#, "4294967296"), "u32");
            rejects::<ChannelFrame>(&event(r#""c""#, "-1"), "u32");
            rejects::<ChannelFrame>(&event(r#""c""#, "1.5"), "u32");
            rejects::<ChannelFrame>(&event(r#""""#, "0"), "received 0 bytes");
            let long = format!(r#""{}""#, "x".repeat(256));
            rejects::<ChannelFrame>(&event(&long, "0"), "received 256 bytes");
            rejects::<ChannelFrame>(
                r#"{"kind":"event","channel":"c","seq":0,"event":"e"}"#,
                "missing field `payload`",
            );
            rejects::<ChannelFrame>(
                r#"{"kind":"event","channel":"c","seq":0,"payload":1}"#,
                "missing field `event`",
            );
        }

        fn receive_result_json_refusals() {
            let frame = r#"{"kind":"binary","channel":"c","seq":0,"payload":""}"#;
            rejects::<ChannelReceiveResult>(r#"{"ok":true}"#, "`ok: true` has a `frame`");
            rejects::<ChannelReceiveResult>(
                &format!(r#"{{"ok":true,"frame":{frame},"error":"x"}}"#),
                "`ok: true` has a `frame` and no `error`",
            );
            rejects::<ChannelReceiveResult>(r#"{"ok":false}"#, "`ok: false` has an `error`");
            rejects::<ChannelReceiveResult>(
                &format!(r#"{{"ok":false,"frame":{frame},"error":"x"}}"#),
                "`ok: false` has an `error` and no `frame`",
            );
            rejects::<ChannelReceiveResult>(r#"{"ok":"true","error":"x"}"#, "expected a boolean");
            rejects::<ChannelReceiveResult>(r#"{"error":"x"}"#, "missing field `ok`");
        }
    }

    mod wire_bytes {
        fn encodes_the_reference_bytes() {
            // Copied from payload-channels.json (scenario/name-1-byte, encode/*,
            // scenario/name-4-byte-emoji, scenario/seq-shared-between-event-and-binary).
            let cases = [
                (
                    event("a", 0, "ping", r#"{"n":1}"#),
                    "52424601020161000000007b226576656e74223a2270696e67222c227061796c6f6164223a7b226e223a317d7d",
                ),
                (binary("a", 1, &[0x00, 0xff]), "524246010101610000000100ff"),
                (binary("bin", 1, &[1, 2, 3]), "52424601010362696e00000001010203"),
                (binary("media", 2, &[]), "5242460101056d6564696100000002"),
                (
                    event("c", u32::MAX, "e", "1"),
                    "52424601020163ffffffff7b226576656e74223a2265222c227061796c6f6164223a317d",
                ),
                (
                    event("c", 0, "", "1"),
                    "52424601020163000000007b226576656e74223a22222c227061796c6f6164223a317d",
                ),
                (
                    event("\u{1F600}", 0, "ping", r#"{"n":1}"#),
                    "524246010204f09f9880000000007b226576656e74223a2270696e67222c227061796c6f6164223a7b226e223a317d7d",
                ),
                (
                    event("media", 3, "end", "null"),
                    "5242460102056d65646961000000037b226576656e74223a22656e64222c227061796c6f6164223a6e756c6c7d",
                ),
            ];
            for (frame, bytes) in cases {
                assert_eq!(to_hex(&encode_channel_frame(&frame)), bytes, "{frame:?}");
            }
            assert_eq!(&CHANNEL_FRAME_MAGIC, b"RBF");
            assert_eq!(CHANNEL_FRAME_VERSION, 1);
        }

        fn event_bodies_are_json_with_the_event_first() {
            let frame = event("j", 0, "e", r#"{"nested":[1,"two",null,true],"s":"é\u2028\"\\"}"#);
            let bytes = encode_channel_frame(&frame);
            let body = core::str::from_utf8(&bytes[3 + 3 + 1 + 4..]).expect("UTF-8 body");
            // Keys in the order the payload holds them (sorted without `std`, as read with it:
            // the input is sorted, so both agree); U+2028 stays raw, as JSON.stringify leaves it.
            assert_eq!(
                body,
                "{\"event\":\"e\",\"payload\":{\"nested\":[1,\"two\",null,true],\"s\":\"é\u{2028}\\\"\\\\\"}}"
            );
            let quoted = event("j", 1, "say \"hi\"", "3.25");
            let bytes = encode_channel_frame(&quoted);
            assert!(bytes.ends_with(br#"{"event":"say \"hi\"","payload":3.25}"#));
            assert_eq!(decode_channel_frame(&bytes), Ok(quoted));
        }

        fn event_names_are_escaped_as_serde_json_escapes_them() {
            let mut name: String = (0u8..0x20).map(char::from).collect();
            name.push_str("\"\\/\u{7f}é\u{2028}\u{1F600} plain");
            let bytes = encode_channel_frame(&event("j", 0, &name, "1"));
            let body = core::str::from_utf8(&bytes[3 + 3 + 1 + 4..]).expect("UTF-8 body");
            let quoted = serde_json::to_string(&Value::from(name.as_str())).expect("a string");
            assert_eq!(body, format!(r#"{{"event":{quoted},"payload":1}}"#));
            assert_eq!(decode_channel_frame(&bytes), Ok(event("j", 0, &name, "1")));
        }

        fn decodes_what_it_encodes() {
            let name_255 = "é".repeat(127) + "a";
            let frames = [
                event("media", 7, "meta", r#"{"a":1}"#),
                event(&name_255, 9, "e", "[]"),
                binary("media", 8, &[0xca, 0xfe]),
                binary("m", u32::MAX, &[]),
                event("c", 0, "e", "null"),
            ];
            for frame in frames {
                assert_eq!(decode_channel_frame(&wire(&frame)), Ok(frame));
            }
        }

        fn event_body_reading_follows_the_reference() {
            let with_body = |body: &str| {
                let mut bytes = hex("52424601020163");
                bytes.extend_from_slice(&1u32.to_be_bytes());
                bytes.extend_from_slice(body.as_bytes());
                decode_channel_frame(&bytes)
            };
            assert_eq!(with_body(r#"{"event":"e"}"#), Ok(event("c", 1, "e", "null")), "a missing payload reads as null");
            assert_eq!(with_body(r#"{"event":"e","payload":null}"#), Ok(event("c", 1, "e", "null")));
            assert_eq!(with_body(r#"{"payload":2,"event":"e","x":9}"#), Ok(event("c", 1, "e", "2")), "other keys are ignored");
        }

        fn decode_refuses_malformed_frames() {
            use ChannelFrameError::*;
            // Copied from payload-channels.json (decodeChannelFrame/*).
            let cases: &[(&str, ChannelFrameError, &str)] = &[
                ("", BadMagic, "bad magic (not a channel frame)"),
                ("5242", BadMagic, "bad magic (not a channel frame)"),
                ("584246010201630000000100", BadMagic, "bad magic (not a channel frame)"),
                ("524246", TruncatedHeader, "truncated header"),
                ("5242460102", TruncatedHeader, "truncated header"),
                ("52424602020163000000017b7d", UnsupportedVersion(2), "unsupported version 2"),
                ("52424600020163000000017b7d", UnsupportedVersion(0), "unsupported version 0"),
                ("52424601030163000000017b7d", UnknownKind(3), "unknown kind 3"),
                ("52424601000163000000017b7d", UnknownKind(0), "unknown kind 0"),
                ("524246010200000000007b7d", EmptyChannelName, "empty channel name"),
                ("5242460102ff63", Truncated, "truncated (header longer than the frame)"),
                ("524246010201630000", Truncated, "truncated (header longer than the frame)"),
                ("524246010201ff00000001", ChannelNameNotUtf8, "channel name is not valid UTF-8"),
                ("5242460102016300000001", MalformedJsonBody(truncated_at(0)), "malformed JSON body"),
                ("52424601020163000000017b6f6f7073", MalformedJsonBody(syntax_at(2)), "malformed JSON body"),
                ("52424601020163000000015b2265222c315d", EventBodyNotObject, "event body must be a JSON object"),
                ("52424601020163000000016e756c6c", EventBodyNotObject, "event body must be a JSON object"),
                ("5242460102016300000001226522", EventBodyNotObject, "event body must be a JSON object"),
                ("52424601020163000000017b227061796c6f6164223a317d", MissingEventName, "event body is missing a non-empty `event` name"),
                ("52424601020163000000017b226576656e74223a22222c227061796c6f6164223a317d", MissingEventName, "event body is missing a non-empty `event` name"),
                ("52424601020163000000017b226576656e74223a352c227061796c6f6164223a317d", MissingEventName, "event body is missing a non-empty `event` name"),
            ];
            for (bytes, error, message) in cases {
                assert_eq!(decode_channel_frame(&hex(bytes)), Err(*error), "{bytes}");
                assert_eq!(format!("{error}"), format!("channel frame: {message}"));
            }
            // A truncated name is refused before its UTF-8 is looked at.
            assert_eq!(decode_channel_frame(&hex("524246010202ff")), Err(Truncated));
            // A binary body is never inspected: any bytes, even a bad event body, are payload.
            let raw = decode_channel_frame(&hex("52424601010163000000015b"));
            assert_eq!(raw, Ok(binary("c", 1, b"[")));
        }

        fn the_header_is_read_without_the_body() {
            let bytes = raw("media", 7, false, b"not JSON at all");
            let header = decode_header(&bytes).expect("a whole header");
            assert_eq!(header, ChannelFrameHeader { binary: false, channel: "media", seq: 7, body_offset: 15 });
            assert_eq!(&bytes[header.body_offset..], b"not JSON at all");
            let not_json = ChannelFrameError::MalformedJsonBody(syntax_at(2));
            assert_eq!(decode_event_body(&bytes[header.body_offset..]), Err(not_json));
            assert_eq!(decode_channel_frame(&bytes), Err(not_json));
            // Every header refusal is the whole decoder's, in the same order.
            for bytes in ["", "5242", "524246", "52424602020163", "52424601030163", "524246010200", "524246010201630000", "524246010201ff00000001"] {
                let bytes = hex(bytes);
                assert_eq!(decode_header(&bytes).map(|_| ()), decode_channel_frame(&bytes).map(|_| ()), "{bytes:?}");
            }
            let body = br#"{"payload":[1],"event":"e"}"#;
            assert_eq!(decode_event_body(body), Ok((s("e"), json("[1]"))));
        }

        fn a_malformed_body_says_why_and_where_in_bounded_words() {
            // Issue 39, point 4: truncation and a huge number were both just "malformed JSON body".
            use core::error::Error as _;
            let cut = decode_event_body(br#"{"event":"e","payload":[1,"#);
            assert_eq!(cut, Err(ChannelFrameError::MalformedJsonBody(truncated_at(26))));
            let huge = decode_event_body(br#"{"event":"e","payload":1e400}"#);
            assert_eq!(huge, Err(ChannelFrameError::MalformedJsonBody(syntax_at(28))));
            let lines = decode_event_body(b"{\"event\":\"e\",\n\"payload\": ]}");
            let on_line_2 = JsonBodyError { reason: JsonBodyFault::Syntax, line: 2, column: 12 };
            assert_eq!(lines, Err(ChannelFrameError::MalformedJsonBody(on_line_2)));
            // The words the peer is answered with stay the reference's; the detail is the source.
            let error = huge.expect_err("refused");
            assert_eq!(format!("{error}"), "channel frame: malformed JSON body");
            let detail = error.source().map(|source| format!("{source}"));
            assert_eq!(detail.as_deref(), Some("invalid JSON or a number out of range at line 1, column 28"));
            assert_eq!(format!("{}", truncated_at(0)), "the JSON ends early at line 1, column 0");
            // Through a refusal and a refused delivery too, so an error report shows it.
            let refusal = ChannelRefusal::Malformed(error);
            assert_eq!(refusal.source().map(|source| format!("{source}")), detail);
            let refused = RefusedDelivery { channel: name("c"), seq: 3, refusal };
            assert_eq!(refused.source().map(|source| format!("{source}")), detail);
            assert_eq!(NotDelivered::Refused(refused.clone()).source().map(|source| format!("{source}")), detail);
            assert_eq!(refused.to_receive_result(), ChannelReceiveResult::Refused { error: s("channel frame: malformed JSON body") });
            // Never the peer's bytes, however many: a fixed phrase and two numbers.
            let mut long = b"{\"event\":\"e\",\"payload\":\"".to_vec();
            long.extend(core::iter::repeat_n(b'x', 2000));
            long.extend_from_slice(b"\x01\"}");
            let error = decode_event_body(&long).expect_err("a control character");
            let words = format!("{}", error.source().expect("a detail"));
            assert_eq!(words, "invalid JSON or a number out of range at line 1, column 2025");
        }

        fn encoding_into_a_buffer_appends_the_same_bytes() {
            let frames = [binary("a", 1, &[0x00, 0xff]), event("c", 3, "e", r#"{"k":[1]}"#)];
            let mut out = b"kept".to_vec();
            for frame in &frames {
                encode_channel_frame_into(frame, &mut out);
            }
            let mut expected = b"kept".to_vec();
            expected.extend(encode_channel_frame(&frames[0]));
            expected.extend(encode_channel_frame(&frames[1]));
            assert_eq!(out, expected);
        }

        fn is_channel_frame_tests_only_the_magic() {
            assert!(is_channel_frame(&hex(&format!("5242460102016300000001{BODY_E_1}"))));
            assert!(is_channel_frame(b"RBF"));
            assert!(!is_channel_frame(b""));
            assert!(!is_channel_frame(b"RB"));
            assert!(!is_channel_frame(b"rbf"));
        }
    }

    mod reassembly {
        fn in_order_items_pass_straight_through() {
            let mut window = ChannelReassembler::<u32, 2>::new();
            assert_eq!(ChannelReassembler::<u32, 2>::CAPACITY, 2);
            for seq in 0..10 {
                window.push(seq, seq * 10).expect("in order");
                assert_eq!(popped(&mut window), Some(seq * 10));
                assert_eq!(popped(&mut window), None);
            }
            assert_eq!(window.expected(), Some(10));
            assert!(window.is_empty());
        }

        fn any_delivery_order_comes_out_in_seq_order() {
            let orders: [[u32; 8]; 3] = [
                [7, 6, 5, 4, 3, 2, 1, 0],
                [7, 0, 6, 1, 5, 2, 4, 3],
                [1, 3, 5, 7, 0, 2, 4, 6],
            ];
            for order in orders {
                let mut window = ChannelReassembler::<u32, 8>::new();
                let mut out = Vec::new();
                for seq in order {
                    window.push(seq, seq).expect("inside the window");
                    out.extend(core::iter::from_fn(|| popped(&mut window)));
                }
                assert_eq!(out, (0..8).collect::<Vec<_>>(), "{order:?}");
                assert!(window.is_empty());
            }
        }

        fn stale_seq_is_refused_and_handed_back() {
            let mut window = ChannelReassembler::<&str, 4>::new();
            window.push(0, "zero").expect("first");
            assert_eq!(popped(&mut window), Some("zero"));
            let refused = window.push(0, "again").expect_err("already delivered");
            assert_eq!(refused, ReassemblyRefused { refusal: SequenceRefusal::Stale { seq: 0 }, item: "again" });
            assert_eq!(format!("{refused}"), "seq 0 was already delivered");
            assert_eq!(window.expected(), Some(1));
        }

        fn duplicate_seq_is_refused_and_handed_back() {
            let mut window = ChannelReassembler::<&str, 4>::new();
            window.push(2, "first").expect("ahead of a gap");
            let refused = window.push(2, "second").expect_err("already held");
            assert_eq!(refused.refusal, SequenceRefusal::Duplicate { seq: 2 });
            assert_eq!(refused.item, "second");
            assert_eq!(format!("{}", refused.refusal), "seq 2 is already waiting for reassembly");
            assert_eq!(window.len(), 1, "the first one stays");
        }

        fn beyond_the_window_is_refused_and_memory_stays_bounded() {
            let mut window = ChannelReassembler::<u32, 3>::new();
            for seq in 1..3 {
                window.push(seq, seq).expect("inside the window");
            }
            let refused = window.push(3, 3).expect_err("seq 0 + capacity 3");
            assert_eq!(
                refused.refusal,
                SequenceRefusal::BeyondWindow { seq: 3, expected: 0, capacity: 3 }
            );
            assert_eq!(refused.item, 3, "handed back");
            assert_eq!(
                format!("{}", refused.refusal),
                "seq 3 is beyond the reassembly window (expecting 0, holding at most 3 frames)"
            );
            assert!(window.push(u32::MAX, 9).is_err());
            assert_eq!(window.len(), 2);
            window.push(0, 0).expect("the gap is filled");
            assert_eq!(window.len(), 3, "full");
            let out: Vec<u32> = core::iter::from_fn(|| popped(&mut window)).collect();
            assert_eq!(out, vec![0, 1, 2]);
            window.push(5, 5).expect("the window moved on");
        }

        fn a_window_of_one_takes_only_the_expected_seq() {
            let mut window = ChannelReassembler::<u8, 1>::default();
            assert!(matches!(window.push(1, 1), Err(ReassemblyRefused { refusal: SequenceRefusal::BeyondWindow { .. }, .. })));
            window.push(0, 0).expect("expected");
            assert!(matches!(window.push(0, 0), Err(ReassemblyRefused { refusal: SequenceRefusal::Duplicate { seq: 0 }, .. })));
            assert_eq!(popped(&mut window), Some(0));
        }

        fn sequence_numbers_never_wrap() {
            let mut window = ChannelReassembler::<u32, 4>::starting_at(u32::MAX - 1);
            window.push(u32::MAX, 2).expect("inside the window");
            assert_eq!(popped(&mut window), None, "waits for MAX - 1");
            window.push(u32::MAX - 1, 1).expect("expected");
            assert_eq!(popped(&mut window), Some(1));
            assert_eq!(popped(&mut window), Some(2));
            assert_eq!(window.expected(), None, "every seq was handed out");
            for seq in [0, 1] {
                let refused = window.push(seq, 0).expect_err("no wrap");
                assert_eq!(refused.refusal, SequenceRefusal::BelowBase { seq, base: u32::MAX - 1 });
            }
            let refused = window.push(u32::MAX, 0).expect_err("no wrap");
            assert_eq!(refused.refusal, SequenceRefusal::Stale { seq: u32::MAX });
        }

        fn held_items_come_back_in_seq_order() {
            let mut window = ChannelReassembler::<u32, 4>::new();
            assert!(ChannelReassembler::<u32, 4>::new().into_held().is_empty());
            window.push(0, 0).expect("expected");
            window.push(1, 1).expect("expected next");
            assert_eq!(popped(&mut window), Some(0));
            assert_eq!(popped(&mut window), Some(1));
            // The head slot is now 2; held items wrap around the slots.
            for seq in [5, 3, 4] {
                window.push(seq, seq).expect("inside the window");
            }
            assert_eq!(window.len(), 3);
            assert_eq!(format!("{window:?}"), "ChannelReassembler { anchored: true, expected: Some(2), held: 3, capacity: 4 }");
            assert_eq!(window.into_held(), vec![3, 4, 5]);
        }
    }

    mod registry {
        fn registration_checks_name_events_and_uniqueness() {
            let mut registry = Registry::new();
            let voice = registry.register(descriptor("voice", &["start"], None)).expect("registers");
            assert_eq!(voice.name().as_str(), "voice");
            assert_eq!(registry.descriptor(&voice).map(|d| d.events.len()), Ok(1));
            let duplicate = registry.register(descriptor("voice", &["other"], None));
            assert_eq!(duplicate, Err(ChannelRegisterError::AlreadyRegistered { channel: name("voice") }));
            assert_eq!(
                format!("{}", duplicate.expect_err("duplicate")),
                "Channel \"voice\" is already registered on this transport"
            );
            let empty = registry.register(descriptor("quiet", &["a", ""], None));
            assert_eq!(empty, Err(ChannelRegisterError::EmptyEventName { channel: name("quiet") }));
            assert_eq!(
                format!("{}", empty.expect_err("empty event")),
                "Channel \"quiet\" declares an empty event name, which no frame can carry"
            );
            assert!(registry.register(descriptor("quiet", &["a"], None)).is_ok(), "nothing was registered");
            // Departure 3: the name is checked when the channel is declared.
            assert!(ChannelName::new("").is_err());
            assert!(ChannelName::new("é".repeat(128)).is_err());
        }

        fn one_sequence_per_channel_shared_by_events_and_binary() {
            let mut registry = Registry::new();
            let media = registry.register(descriptor("media", &["meta", "end"], Some(true))).expect("registers");
            let other = registry.register(descriptor("other", &["x"], None)).expect("registers");
            let sent = [
                registry.send_event(&media, "meta", &json(r#"{"mime":"audio/opus"}"#)),
                registry.send_binary(&media, &[0xde, 0xad, 0xbe, 0xef]),
                registry.send_binary(&media, &[]),
                registry.send_event(&media, "end", &Value::Null),
                registry.send_event(&other, "x", &json(r#""independent seq""#)),
            ];
            let frames: Vec<ChannelFrame> = sent
                .iter()
                .map(|bytes| decode_channel_frame(bytes.as_ref().expect("sent")).expect("decodes"))
                .collect();
            assert_eq!(frames.iter().map(ChannelFrame::seq).collect::<Vec<_>>(), vec![0, 1, 2, 3, 0]);
            assert_eq!(frames[1], binary("media", 1, &[0xde, 0xad, 0xbe, 0xef]));
            assert_eq!(
                to_hex(sent[1].as_ref().expect("sent")),
                "5242460101056d6564696100000001deadbeef"
            );
        }

        fn refused_sends_consume_no_seq() {
            let mut registry = Registry::new();
            let app = registry.register(descriptor("app", &["a", "b"], None)).expect("registers");
            let undeclared = registry.send_event(&app, "c", &Value::Null);
            let expected = UndeclaredFrame::Event { channel: name("app"), event: s("c") };
            assert_eq!(undeclared, Err(ChannelSendError::Undeclared(expected)));
            assert_eq!(
                format!("{}", undeclared.expect_err("undeclared")),
                "Channel \"app\" did not declare event \"c\""
            );
            let text_only = registry.send_binary(&app, &[1, 2]);
            assert_eq!(text_only, Err(ChannelSendError::Undeclared(UndeclaredFrame::Binary { channel: name("app") })));
            assert_eq!(
                format!("{}", text_only.expect_err("binary")),
                "Channel \"app\" did not declare binary payload support"
            );
            let off = registry.register(descriptor("off", &["a"], Some(false))).expect("registers");
            assert!(registry.send_binary(&off, &[1]).is_err(), "binary: false refuses binary too");
            // Departure 3: the failed sends used no seq, so the first frame sent is seq 0.
            let bytes = registry.send_event(&app, "a", &Value::Null).expect("declared");
            assert_eq!(decode_channel_frame(&bytes).map(|f| f.seq()), Ok(0));
        }

        fn the_last_seq_is_sent_once_and_never_wraps() {
            let mut registry = Registry::new();
            let resume = ChannelResumePoint { next_send: u32::MAX, next_receive: 0 };
            let c = registry.register_resuming(descriptor("c", &["e"], Some(true)), resume).expect("registers");
            let last = registry.send_binary(&c, &[1]).expect("seq MAX");
            assert_eq!(decode_channel_frame(&last).map(|f| f.seq()), Ok(u32::MAX));
            let exhausted = registry.send_event(&c, "e", &Value::Null);
            assert_eq!(exhausted, Err(ChannelSendError::SequenceExhausted { channel: name("c") }));
            assert_eq!(
                format!("{}", exhausted.expect_err("exhausted")),
                "Channel \"c\" has sent its last seq (4294967295); close it and register it again"
            );
            assert!(registry.send_binary(&c, &[]).is_err(), "still exhausted");
            registry.close(c).expect("open");
            let again = registry.register(descriptor("c", &["e"], None)).expect("name free");
            let first = registry.send_event(&again, "e", &Value::Null).expect("fresh sequence");
            assert_eq!(decode_channel_frame(&first).map(|f| f.seq()), Ok(0));
        }

        fn closing_frees_the_name_and_a_stale_handle_touches_nothing() {
            let mut registry = Registry::new();
            let voice = registry.register(descriptor("voice", &["start"], None)).expect("registers");
            let copy = voice.clone();
            registry.send_event(&voice, "start", &json("1")).expect("open");
            assert_eq!(registry.close(voice), Ok(vec![]));
            let closed = ChannelClosed { channel: name("voice") };
            assert_eq!(registry.send_event(&copy, "start", &json("3")), Err(ChannelSendError::Closed(closed.clone())));
            assert_eq!(format!("{closed}"), "Channel \"voice\" is closed");
            let voice2 = registry.register(descriptor("voice", &["start"], None)).expect("the name is free");
            // Departure 4: the stale handle is refused and the new channel is untouched.
            assert_eq!(registry.send_event(&copy, "start", &json("4")), Err(ChannelSendError::Closed(closed.clone())));
            assert_eq!(registry.close(copy.clone()), Err(closed.clone()));
            assert_eq!(registry.descriptor(&copy), Err(closed.clone()));
            assert_eq!(registry.held(&copy), Err(closed));
            let bytes = registry.send_event(&voice2, "start", &json("5")).expect("still open");
            assert_eq!(decode_channel_frame(&bytes).map(|f| f.seq()), Ok(0), "its own sequence");
            let inbound = wire(&event("voice", 0, "start", "6"));
            assert_eq!(registry.receive(inbound, 0).map(Iterator::count), Ok(1), "still routed");
        }

        fn receive_routes_declared_frames() {
            let mut registry = Registry::new();
            registry.register(descriptor("media", &["meta"], Some(true))).expect("registers");
            registry.register(descriptor("text", &["msg"], None)).expect("registers");
            let meta = event("media", 0, "meta", r#"{"a":1}"#);
            assert_eq!(receive(&mut registry, wire(&meta)), Ok(delivered(&[meta])));
            let data = binary("media", 1, &[0xca, 0xfe]);
            assert_eq!(receive(&mut registry, wire(&data)), Ok(delivered(&[data])));
            // A binary payload is a slice of the buffer the carrier delivered, not a copy.
            let buffer = Bytes::from(raw("media", 2, true, &[1, 2, 3]));
            let mut delivery = registry.receive(buffer.clone(), 0).expect("routed");
            let Some(Ok(DeliveredFrame { channel, seq: 2, body: DeliveredBody::Binary(payload) })) = delivery.next() else {
                panic!("one binary frame");
            };
            assert_eq!(channel.as_str(), "media");
            assert_eq!(payload, buffer.slice(buffer.len() - 3..));
            assert_eq!(payload.as_ptr(), buffer[buffer.len() - 3..].as_ptr(), "the same bytes");
            assert!(delivery.next().is_none());
            let msg = event("text", 0, "msg", r#""hi""#);
            assert_eq!(receive(&mut registry, wire(&msg)), Ok(delivered(core::slice::from_ref(&msg))));
            let answer = ChannelReceiveResult::Accepted { frame: msg };
            assert_eq!(to_json(&answer), json(r#"{"ok":true,"frame":{"kind":"event","channel":"text","seq":0,"event":"msg","payload":"hi"}}"#));
        }

        fn receive_refuses_unroutable_frames_with_a_stated_error() {
            let mut registry: Registry = refusing();
            anchored(&mut registry, descriptor("text", &["msg"], None));
            let refusal = |registry: &mut Registry, bytes: Vec<u8>| receive(registry, bytes).expect_err("refused");
            let cases: Vec<(Vec<u8>, ChannelRefusal, &str)> = vec![
                (
                    hex("5242"),
                    ChannelRefusal::Malformed(ChannelFrameError::BadMagic),
                    "channel frame: bad magic (not a channel frame)",
                ),
                (
                    hex(&format!("524246010201ff00000000{BODY_E_1}")),
                    ChannelRefusal::Malformed(ChannelFrameError::ChannelNameNotUtf8),
                    "channel frame: channel name is not valid UTF-8",
                ),
                (
                    wire(&event("nope", 0, "msg", "1")),
                    ChannelRefusal::UnknownChannel { channel: name("nope") },
                    "No channel registered for \"nope\"",
                ),
                (
                    wire(&binary("text", 0, &[0])),
                    ChannelRefusal::Undeclared(UndeclaredFrame::Binary { channel: name("text") }),
                    "Channel \"text\" did not declare binary payload support",
                ),
                (
                    wire(&event("text", 4, "msg", "1")),
                    ChannelRefusal::Sequence {
                        channel: name("text"),
                        refusal: SequenceRefusal::BeyondWindow { seq: 4, expected: 0, capacity: 4 },
                    },
                    "Channel \"text\": seq 4 is beyond the reassembly window (expecting 0, holding at most 4 frames)",
                ),
            ];
            for (bytes, expected, message) in cases {
                let refused = refusal(&mut registry, bytes);
                assert_eq!(refused, expected);
                assert_eq!(format!("{refused}"), message);
                assert_eq!(refused.to_receive_result(), ChannelReceiveResult::Refused { error: s(message) });
            }
            // Nothing was routed or held by the refusals: seq 0 is still the one expected.
            let first = event("text", 0, "msg", "1");
            assert_eq!(receive(&mut registry, wire(&first)), Ok(delivered(core::slice::from_ref(&first))));
            // Departure 3: inbound seqs are checked.
            let stale = refusal(&mut registry, wire(&first));
            assert_eq!(stale, ChannelRefusal::Sequence { channel: name("text"), refusal: SequenceRefusal::Stale { seq: 0 } });
            assert_eq!(format!("{stale}"), "Channel \"text\": seq 0 was already delivered");
            let ahead = event("text", 2, "msg", "2");
            assert_eq!(receive(&mut registry, wire(&ahead)), Ok(vec![]), "held ahead of seq 1");
            let duplicate = refusal(&mut registry, wire(&ahead));
            assert_eq!(duplicate, ChannelRefusal::Sequence { channel: name("text"), refusal: SequenceRefusal::Duplicate { seq: 2 } });
            assert_eq!(
                to_json(&duplicate.to_receive_result()),
                json(r#"{"ok":false,"error":"Channel \"text\": seq 2 is already waiting for reassembly"}"#)
            );
        }

        fn receive_reassembles_whatever_the_delivery_order() {
            let mut registry = PayloadChannelRegistry::<8>::new();
            let media = anchored(&mut registry, descriptor("media", &["meta", "end"], Some(true)));
            let frames = [
                event("media", 0, "meta", r#"{"parts":3}"#),
                binary("media", 1, b"one"),
                binary("media", 2, b"two"),
                binary("media", 3, b"three"),
                event("media", 4, "end", "null"),
            ];
            let mut by_receive = Vec::new();
            for index in [3, 1, 4, 2, 0] {
                let now = receive(&mut registry, wire(&frames[index])).expect("inside the window");
                by_receive.push(seqs(&now));
                assert_eq!(registry.held(&media).map(|held| held > 0), Ok(index != 0));
            }
            assert_eq!(by_receive, vec![vec![], vec![], vec![], vec![], vec![0, 1, 2, 3, 4]]);
            let mut registry = Registry::new();
            anchored(&mut registry, descriptor("media", &["meta", "end"], Some(true)));
            let mut all = Vec::new();
            for index in [1, 0, 3, 2, 4] {
                all.extend(receive(&mut registry, wire(&frames[index])).expect("inside the window"));
            }
            assert_eq!(all, delivered(&frames));
        }

        fn closing_stops_delivery_and_hands_back_held_frames() {
            let mut registry = Registry::new();
            let c = anchored(&mut registry, descriptor("c", &["e"], Some(true)));
            let held = [binary("c", 2, &[2]), event("c", 1, "e", "1")];
            for frame in &held {
                assert_eq!(receive(&mut registry, wire(frame)), Ok(vec![]));
            }
            assert_eq!(registry.held(&c), Ok(2));
            let in_order = delivered(&[held[1].clone(), held[0].clone()]);
            assert_eq!(registry.close(c), Ok(in_order), "in seq order");
            let late = wire(&event("c", 0, "e", "0"));
            assert_eq!(receive(&mut registry, late), Err(ChannelRefusal::UnknownChannel { channel: name("c") }));
        }

        fn a_resumed_channel_expects_its_resume_point() {
            let mut registry = Registry::default();
            let resume = ChannelResumePoint { next_send: 10, next_receive: u32::MAX };
            let c = registry.register_resuming(descriptor("c", &["e"], None), resume).expect("registers");
            let bytes = registry.send_event(&c, "e", &Value::Null).expect("open");
            assert_eq!(decode_channel_frame(&bytes).map(|f| f.seq()), Ok(10));
            let last = event("c", u32::MAX, "e", "1");
            assert_eq!(receive(&mut registry, wire(&last)), Ok(delivered(&[last])));
            // Nothing follows u32::MAX: every later frame is stale, never wrapped to 0.
            let wrapped = receive(&mut registry, wire(&event("c", 0, "e", "2"))).expect_err("no wrap");
            assert_eq!(wrapped, ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::BelowBase { seq: 0, base: u32::MAX } });
            // Issue 39, point 3: no `Default` to pick by accident; seq 0 is named.
            assert_eq!(ChannelResumePoint::ZERO, ChannelResumePoint { next_send: 0, next_receive: 0 });
            assert_eq!(ChannelResumePoint::new(10, u32::MAX), resume);
        }

        fn sends_write_into_a_buffer_of_the_host() {
            let mut registry = Registry::new();
            let media = registry.register(descriptor("media", &["meta"], Some(true))).expect("registers");
            let mut out = b"head".to_vec();
            assert_eq!(registry.send_binary_into(&media, &[0xde, 0xad], &mut out), Ok(0));
            assert_eq!(registry.send_event_into(&media, "meta", &json("1"), &mut out), Ok(1));
            let mut expected = b"head".to_vec();
            expected.extend(wire(&binary("media", 0, &[0xde, 0xad])));
            expected.extend(wire(&event("media", 1, "meta", "1")));
            assert_eq!(out, expected);
            // A refused send leaves the buffer untouched and consumes no seq.
            let refused = registry.send_event_into(&media, "other", &Value::Null, &mut out);
            assert!(matches!(refused, Err(ChannelSendError::Undeclared(_))));
            assert_eq!(out, expected);
            assert_eq!(registry.send_binary_into(&media, &[], &mut out), Ok(2));
        }

        fn the_header_decides_and_a_bad_body_is_refused_only_at_delivery() {
            let mut registry: Registry = refusing();
            let text = registry.register(descriptor("text", &["msg"], None)).expect("registers");
            let bad = b"{not JSON";
            let sequence = |refusal| ChannelRefusal::Sequence { channel: name("text"), refusal };
            assert_eq!(receive(&mut registry, wire(&event("text", 0, "msg", "0"))).map(|items| seqs(&items)), Ok(vec![0]));
            // Refused on the header alone: the body is never parsed (else: Malformed).
            assert_eq!(receive(&mut registry, raw("text", 0, false, bad)), Err(sequence(SequenceRefusal::Stale { seq: 0 })));
            assert_eq!(receive(&mut registry, raw("nope", 1, false, bad)), Err(ChannelRefusal::UnknownChannel { channel: name("nope") }));
            let beyond = SequenceRefusal::BeyondWindow { seq: 5, expected: 1, capacity: 4 };
            assert_eq!(receive(&mut registry, raw("text", 5, false, bad)), Err(sequence(beyond)));
            // Held ahead of a gap without a parse; a second copy is a duplicate.
            assert_eq!(receive(&mut registry, raw("text", 2, false, bad)), Ok(vec![]));
            assert_eq!(receive(&mut registry, raw("text", 2, false, bad)), Err(sequence(SequenceRefusal::Duplicate { seq: 2 })));
            // When their turn comes, an undeclared event and the bad body are refused deliveries:
            // the reference's words, their seqs consumed, the channel moved on.
            let items = receive(&mut registry, wire(&event("text", 1, "other", "1"))).expect("routed");
            let undeclared = UndeclaredFrame::Event { channel: name("text"), event: s("other") };
            let expected = vec![
                refused_item("text", 1, ChannelRefusal::Undeclared(undeclared)),
                refused_item("text", 2, ChannelRefusal::Malformed(ChannelFrameError::MalformedJsonBody(syntax_at(2)))),
            ];
            assert_eq!(items, expected);
            let words: Vec<String> = items.iter().map(|item| format!("{}", item.as_ref().expect_err("refused"))).collect();
            assert_eq!(words, vec![s("Channel \"text\" did not declare event \"other\""), s("channel frame: malformed JSON body")]);
            let answer = items[1].as_ref().expect_err("refused").to_receive_result();
            assert_eq!(answer, ChannelReceiveResult::Refused { error: s("channel frame: malformed JSON body") });
            // The same words in the TypeScript server's form, byte for byte, and back.
            let protocol_error = items[1].as_ref().expect_err("refused").to_protocol_error();
            let expected_text = r#"{"type":"protocol_error","message":"channel frame: malformed JSON body"}"#;
            assert_eq!(serde_json::to_string(&protocol_error).expect("encodes"), expected_text);
            assert_eq!(serde_json::from_str::<ProtocolErrorMessage>(expected_text).expect("decodes"), protocol_error);
            assert_eq!(items[0].as_ref().expect_err("refused").to_protocol_error(), ProtocolErrorMessage::new(words[0].clone()));
            for (other, needle) in [
                (r#"{"type":"error","message":"x"}"#, "protocol_error"),
                (r#"{"message":"x"}"#, "type"),
                (r#"{"type":"protocol_error"}"#, "message"),
                (r#"{"type":"protocol_error","message":7}"#, "expected a string"),
                (r#"{"type":"protocol_error","message":null}"#, "expected a string"),
                (r#"{"type":7,"message":"x"}"#, "invalid type"),
            ] {
                rejects::<ProtocolErrorMessage>(other, needle);
            }
            assert_eq!(registry.held(&text), Ok(0));
            let next = event("text", 3, "msg", "3");
            assert_eq!(receive(&mut registry, wire(&next)), Ok(delivered(&[next])));
            // Held bad bodies come back from a close as refused deliveries too.
            assert_eq!(receive(&mut registry, raw("text", 5, false, b"[1]")), Ok(vec![]));
            let not_object = RefusedDelivery { channel: name("text"), seq: 5, refusal: ChannelRefusal::Malformed(ChannelFrameError::EventBodyNotObject) };
            assert_eq!(registry.close(text), Ok(vec![Err(not_object)]));
        }

        fn a_lone_surrogate_from_the_typescript_peer_reads_as_the_replacement_character() {
            // The exact frame the TypeScript side sends for a JS string holding a lone surrogate.
            let header = "5242460102046564676500000000";
            let body = r#"{"event":"text","payload":{"s":"lone \ud800 surrogate"}}"#;
            let mut bytes = hex(header);
            bytes.extend_from_slice(body.as_bytes());
            let read = event("edge", 0, "text", r#"{"s":"lone \ufffd surrogate"}"#);
            assert_eq!(decode_channel_frame(&bytes), Ok(read.clone()));
            let mut registry = Registry::new();
            let edge = registry.register(descriptor("edge", &["text"], None)).expect("registers");
            assert_eq!(receive(&mut registry, bytes), Ok(delivered(&[read])));
            let next = event("edge", 1, "text", "1");
            assert_eq!(receive(&mut registry, wire(&next)), Ok(delivered(&[next])), "the channel moved on");
            assert_eq!(registry.held(&edge), Ok(0));
            // Back to the peer: U+FFFD as UTF-8 (EF BF BD), which its JSON.parse reads as U+FFFD.
            let mut out = Vec::new();
            let sent = registry.send_event_into(&edge, "text", &json(r#"{"s":"lone \ufffd surrogate"}"#), &mut out);
            assert!(sent.is_ok(), "{sent:?}");
            let mut expected = hex(header);
            expected.extend_from_slice("{\"event\":\"text\",\"payload\":{\"s\":\"lone \u{FFFD} surrogate\"}}".as_bytes());
            assert_eq!(to_hex(&out), to_hex(&expected));
            // Pairs are kept, each lone unit replaced, and an escaped backslash is not an escape.
            let mut bytes = hex("52424601020465646765000000ff");
            bytes.extend_from_slice(br#"{"event":"text","payload":"\ud83d\ude00 \udc00\ud800 \\ud800"}"#);
            let read = event("edge", 255, "text", r#""\ud83d\ude00 \ufffd\ufffd \\ud800""#);
            assert_eq!(decode_channel_frame(&bytes), Ok(read));
            // Text that is malformed for another reason stays refused.
            let mut bytes = hex("52424601020465646765000000ff");
            bytes.extend_from_slice(br#"{"event":"text","payload":"\ud800"#);
            assert_eq!(decode_channel_frame(&bytes), Err(ChannelFrameError::MalformedJsonBody(truncated_at(33))));
            // A lone surrogate in the event name: read as U+FFFD too, so the name is one the
            // channel did not declare; refused with its seq consumed, and the channel moves on.
            let mut bytes = hex("5242460102046564676500000002");
            bytes.extend_from_slice(br#"{"event":"te\ud800xt","payload":1}"#);
            let read = event("edge", 2, "te\u{FFFD}xt", "1");
            assert_eq!(decode_channel_frame(&bytes), Ok(read));
            let items = receive(&mut registry, bytes).expect("routed");
            let words: Vec<String> = items.iter().map(|item| format!("{}", item.as_ref().expect_err("undeclared"))).collect();
            assert_eq!(words, vec![s("Channel \"edge\" did not declare event \"te\u{FFFD}xt\"")]);
            let next = event("edge", 3, "text", "3");
            assert_eq!(receive(&mut registry, wire(&next)), Ok(delivered(&[next])), "seq 2 was consumed");
        }

        fn frames_not_taken_stay_ready_for_the_next_delivery() {
            let mut registry = Registry::new();
            let c = anchored(&mut registry, descriptor("c", &["e"], Some(true)));
            assert_eq!(receive(&mut registry, wire(&binary("c", 1, &[1]))), Ok(vec![]));
            let _untaken = registry.receive(wire(&binary("c", 0, &[0])), 0).expect("routed");
            assert_eq!(registry.held(&c), Ok(2), "ready, not taken");
            let ready: Vec<Item> = registry.ready(&c).expect("open").map(|item| item.map(DeliveredFrame::into_frame)).collect();
            assert_eq!(ready, delivered(&[binary("c", 0, &[0]), binary("c", 1, &[1])]));
            assert_eq!(registry.ready(&c).map(Iterator::count), Ok(0));
            // Taken one at a time: the rest comes first in the next delivery.
            assert_eq!(receive(&mut registry, wire(&binary("c", 3, &[3]))), Ok(vec![]));
            let mut delivery = registry.receive(wire(&binary("c", 2, &[2])), 0).expect("routed");
            assert_eq!(delivery.next().map(|item| item.map(|frame| frame.seq)), Some(Ok(2)));
            let next = receive(&mut registry, wire(&binary("c", 4, &[4]))).expect("routed");
            assert_eq!(seqs(&next), vec![3, 4]);
            registry.close(c.clone()).expect("open");
            assert!(registry.ready(&c).is_err(), "closed");
        }
    }

    mod gaps {
        fn an_unanchored_reassembler_takes_its_first_seq_as_the_base() {
            let mut window = ChannelReassembler::<u32, 4>::unanchored();
            assert!(!window.is_anchored());
            assert_eq!(window.expected(), None, "no position yet");
            assert_eq!(window.pop(), None);
            assert_eq!(window.waiting().count(), 0);
            assert_eq!(format!("{window:?}"), "ChannelReassembler { anchored: false, expected: None, held: 0, capacity: 4 }");
            window.skip_to(9);
            assert!(!window.is_anchored(), "a skip sets no base");
            window.push(7, 70).expect("any first seq is taken");
            assert!(window.is_anchored());
            assert_eq!(popped(&mut window), Some(70));
            assert_eq!(window.expected(), Some(8));
            let refused = window.push(6, 60).expect_err("below the base");
            assert_eq!(refused.refusal, SequenceRefusal::BelowBase { seq: 6, base: 7 });
            assert!(ChannelReassembler::<u32, 4>::unanchored().into_held().is_empty());
            // Even u32::MAX as the first seq: it is handed out and nothing follows it.
            let mut last = ChannelReassembler::<u32, 2>::unanchored();
            last.push(u32::MAX, 1).expect("taken");
            assert_eq!(popped(&mut last), Some(1));
            assert_eq!(last.push(0, 0).map_err(|refused| refused.refusal), Err(SequenceRefusal::BelowBase { seq: 0, base: u32::MAX }));
        }

        fn a_reassembler_skips_ahead_and_reports_the_seqs_it_gave_up() {
            let mut window = ChannelReassembler::<u32, 4>::new();
            window.push(1, 1).expect("inside");
            window.push(2, 2).expect("inside");
            // Refused as before unless asked to skip.
            let refused = window.push(5, 5).expect_err("beyond");
            assert_eq!(refused.refusal, SequenceRefusal::BeyondWindow { seq: 5, expected: 0, capacity: 4 });
            window.push_with(5, 5, WindowFull::SkipAhead).expect("skips ahead");
            assert_eq!(window.len(), 3);
            assert_eq!(window.push_with(5, 5, WindowFull::SkipAhead).map_err(|r| r.refusal), Err(SequenceRefusal::Duplicate { seq: 5 }));
            assert_eq!(window.push_with(0, 0, WindowFull::SkipAhead).map_err(|r| r.refusal), Err(SequenceRefusal::GivenUp { seq: 0 }), "given up");
            let out: Vec<Reassembled<u32>> = core::iter::from_fn(|| window.pop()).collect();
            assert_eq!(out, vec![Reassembled::Gap(SequenceGap { first: 0, count: 1 }), Reassembled::Item(1), Reassembled::Item(2)]);
            assert_eq!(window.expected(), Some(3));
            assert_eq!(window.waiting().map(|(seq, item)| (seq, *item)).collect::<Vec<_>>(), vec![(5, 5)]);
            // A jump far ahead (2 * N or more) is taken only when two seqs agree on it: 101 alone
            // is refused, then 100 agrees. The gap runs up to where 100 fits, split by held items.
            window.push(3, 3).expect("inside");
            let refused = window.push_with(101, 101, WindowFull::SkipAhead).expect_err("alone");
            assert_eq!(refused.refusal, SequenceRefusal::BeyondWindow { seq: 101, expected: 3, capacity: 4 });
            assert_eq!(window.len(), 2, "nothing changed");
            assert_eq!(window.push_with(100, 100, WindowFull::SkipAhead), Ok(()));
            let out: Vec<Reassembled<u32>> = core::iter::from_fn(|| window.pop()).collect();
            assert_eq!(
                out,
                vec![
                    Reassembled::Item(3),
                    Reassembled::Gap(SequenceGap { first: 4, count: 1 }),
                    Reassembled::Item(5),
                    Reassembled::Gap(SequenceGap { first: 6, count: 91 }),
                ]
            );
            assert_eq!(window.expected(), Some(97));
            assert_eq!(window.len(), 1, "100 waits for 97 to 99");
            // skip_to gives up the seqs before it, as gaps, in order.
            window.skip_to(99);
            window.skip_to(50);
            let out: Vec<Reassembled<u32>> = core::iter::from_fn(|| window.pop()).collect();
            assert_eq!(out, vec![Reassembled::Gap(SequenceGap { first: 97, count: 2 })], "100 still waits for 99");
            window.skip_to(101);
            let out: Vec<Reassembled<u32>> = core::iter::from_fn(|| window.pop()).collect();
            assert_eq!(out, vec![Reassembled::Gap(SequenceGap { first: 99, count: 1 }), Reassembled::Item(100)]);
            assert!(window.is_empty());
            // A stale seq says what happened to it, as far as the latest gap runs remember.
            assert_eq!(ChannelReassembler::<u32, 4>::GAPS_REMEMBERED, 4);
            let refusal = |window: &mut ChannelReassembler<u32, 4>, seq| window.push(seq, seq).map_err(|refused| refused.refusal);
            assert_eq!(refusal(&mut window, 5), Err(SequenceRefusal::Stale { seq: 5 }));
            for seq in [0, 4, 6, 50, 96, 97, 99] {
                // The runs 0, 4, and 6 to 99 (the gaps 6 to 96, 97 to 98 and 99 touch: merged).
                assert_eq!(refusal(&mut window, seq), Err(SequenceRefusal::GivenUp { seq }));
            }
            assert_eq!(refusal(&mut window, 1), Err(SequenceRefusal::Stale { seq: 1 }));
            // A fourth run, then a fifth: the oldest is forgotten and the base moves past it.
            for seq in [102, 104] {
                window.push(seq, seq).expect("inside");
                window.skip_to(seq);
                let out: Vec<Reassembled<u32>> = core::iter::from_fn(|| window.pop()).collect();
                assert_eq!(out, vec![Reassembled::Gap(SequenceGap { first: seq - 1, count: 1 }), Reassembled::Item(seq)]);
            }
            assert_eq!(refusal(&mut window, 0), Err(SequenceRefusal::BelowBase { seq: 0, base: 1 }));
            assert_eq!(refusal(&mut window, 1), Err(SequenceRefusal::Stale { seq: 1 }));
            assert_eq!(refusal(&mut window, 4), Err(SequenceRefusal::GivenUp { seq: 4 }));
            assert_eq!(refusal(&mut window, 101), Err(SequenceRefusal::GivenUp { seq: 101 }));
            let words: Vec<String> = [0, 1, 4].iter().map(|&seq| format!("{}", refusal(&mut window, seq).expect_err("stale"))).collect();
            assert_eq!(words, [
                "seq 0 is below the base (seq 1), older than anything remembered",
                "seq 1 was already delivered",
                "seq 4 was given up as a gap",
            ]);
            assert!(refusal(&mut window, 0).expect_err("stale").is_stale());
            assert_eq!(refusal(&mut window, 0).expect_err("stale").seq(), 0);
            assert!(!SequenceRefusal::Duplicate { seq: 3 }.is_stale());
            assert_eq!(SequenceRefusal::BeyondWindow { seq: 9, expected: 0, capacity: 4 }.seq(), 9);
        }

        fn a_full_window_of_ready_items_is_refused_even_when_skipping() {
            let mut window = ChannelReassembler::<u32, 2>::new();
            window.push(0, 0).expect("expected");
            window.push(1, 1).expect("inside");
            let refused = window.push_with(2, 2, WindowFull::SkipAhead).expect_err("N items held");
            assert_eq!(refused, ReassemblyRefused { refusal: SequenceRefusal::BeyondWindow { seq: 2, expected: 0, capacity: 2 }, item: 2 });
            // One skip ahead at a time: a second one waits for the first to be handed out.
            let mut window = ChannelReassembler::<u32, 2>::new();
            window.push(1, 1).expect("inside");
            window.push_with(3, 3, WindowFull::SkipAhead).expect("skips");
            assert_eq!(window.len(), 2);
            assert!(window.push_with(5, 5, WindowFull::SkipAhead).is_err(), "the window is full");
            assert_eq!(window.into_held(), vec![1, 3], "the parked item comes back too");
        }

        fn a_fresh_channel_delivers_its_first_frame_whatever_its_seq() {
            let mut registry = Registry::new();
            let c = registry.register(descriptor("c", &["e"], Some(true))).expect("registers");
            // The TypeScript peer numbered frames while no one listened: its first one here is 2.
            let first = binary("c", 2, &[2]);
            assert_eq!(receive(&mut registry, wire(&first)), Ok(delivered(core::slice::from_ref(&first))));
            assert_eq!(registry.held(&c), Ok(0), "not held");
            let next = event("c", 3, "e", "3");
            assert_eq!(receive(&mut registry, wire(&next)), Ok(delivered(core::slice::from_ref(&next))));
            let stale = |seq| ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::Stale { seq } };
            assert_eq!(receive(&mut registry, wire(&first)), Err(stale(2)), "a repeat");
            let below = ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::BelowBase { seq: 1, base: 2 } };
            assert_eq!(receive(&mut registry, wire(&binary("c", 1, &[1]))), Err(below), "before the base");
            assert_eq!(receive(&mut registry, wire(&binary("c", 5, &[5]))), Ok(vec![]), "anchored: 5 waits for 4");
            assert_eq!(registry.held(&c), Ok(1));
            // A refused first frame sets no base: an undeclared binary frame on a text channel.
            let t = registry.register(descriptor("t", &["e"], None)).expect("registers");
            let undeclared = ChannelRefusal::Undeclared(UndeclaredFrame::Binary { channel: name("t") });
            assert_eq!(receive(&mut registry, wire(&binary("t", 9, &[]))), Err(undeclared));
            let then = event("t", 40, "e", "1");
            assert_eq!(receive(&mut registry, wire(&then)), Ok(delivered(&[then])));
            assert_eq!(registry.held(&t), Ok(0));
            // Its outbound sequence starts at 0 all the same.
            assert_eq!(registry.send_binary_into(&c, &[], &mut Vec::new()), Ok(0));
        }

        fn a_resumed_channel_still_holds_a_frame_ahead_of_its_position() {
            let mut registry = Registry::new();
            let resume = ChannelResumePoint { next_send: 0, next_receive: 5 };
            let c = registry.register_resuming(descriptor("c", &["e"], Some(true)), resume).expect("registers");
            assert_eq!(receive(&mut registry, wire(&binary("c", 7, &[7]))), Ok(vec![]), "held");
            assert_eq!(registry.held(&c), Ok(1));
            let stale = receive(&mut registry, wire(&binary("c", 4, &[4])));
            assert_eq!(stale, Err(ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::BelowBase { seq: 4, base: 5 } }));
            assert_eq!(receive(&mut registry, wire(&binary("c", 5, &[5]))).map(|items| seqs(&items)), Ok(vec![5]));
            assert_eq!(receive(&mut registry, wire(&binary("c", 6, &[6]))).map(|items| seqs(&items)), Ok(vec![6, 7]));
        }

        fn rebase_after_a_reconnect_takes_the_next_frame_as_the_base() {
            let mut registry = Registry::new();
            let c = registry.register(descriptor("c", &["e"], Some(true))).expect("registers");
            assert_eq!(receive(&mut registry, wire(&binary("c", 0, &[0]))).map(|items| seqs(&items)), Ok(vec![0]));
            assert_eq!(registry.send_binary_into(&c, &[], &mut Vec::new()), Ok(0));
            let held = event("c", 2, "e", "2");
            assert_eq!(receive(&mut registry, wire(&held)), Ok(vec![]), "waits for 1");
            // The carrier reconnected: what was held comes back, as a close hands it back.
            assert_eq!(registry.rebase(&c), Ok(delivered(&[held])));
            assert_eq!(registry.held(&c), Ok(0));
            assert_eq!(registry.rebase(&c), Ok(vec![]), "nothing held, still fine");
            // The peer went on numbering: its first frame on the new carrier is 40.
            let after = binary("c", 40, &[40]);
            assert_eq!(receive(&mut registry, wire(&after)), Ok(delivered(core::slice::from_ref(&after))));
            assert_eq!(receive(&mut registry, wire(&binary("c", 41, &[41]))).map(|items| seqs(&items)), Ok(vec![41]));
            // Or it restarted lower: a rebase takes that too.
            registry.rebase(&c).expect("open");
            assert_eq!(receive(&mut registry, wire(&binary("c", 3, &[3]))).map(|items| seqs(&items)), Ok(vec![3]));
            // The outbound sequence went on.
            assert_eq!(registry.send_binary_into(&c, &[], &mut Vec::new()), Ok(1));
            // A channel that received seq u32::MAX refuses every seq until a rebase.
            let resume = ChannelResumePoint { next_send: 0, next_receive: u32::MAX };
            let m = registry.register_resuming(descriptor("m", &["e"], Some(true)), resume).expect("registers");
            assert_eq!(receive(&mut registry, wire(&binary("m", u32::MAX, &[]))).map(|items| seqs(&items)), Ok(vec![u32::MAX]));
            let exhausted = receive(&mut registry, wire(&binary("m", 0, &[])));
            assert_eq!(exhausted, Err(ChannelRefusal::Sequence { channel: name("m"), refusal: SequenceRefusal::BelowBase { seq: 0, base: u32::MAX } }));
            registry.rebase(&m).expect("open");
            assert_eq!(receive(&mut registry, wire(&binary("m", 0, &[]))).map(|items| seqs(&items)), Ok(vec![0]));
            // A resumed channel can be rebased too; a closed handle cannot.
            let resume = ChannelResumePoint { next_send: 0, next_receive: 100 };
            let r = registry.register_resuming(descriptor("r", &["e"], Some(true)), resume).expect("registers");
            registry.rebase(&r).expect("open");
            assert_eq!(receive(&mut registry, wire(&binary("r", 7, &[7]))).map(|items| seqs(&items)), Ok(vec![7]));
            registry.close(r.clone()).expect("open");
            assert_eq!(registry.rebase(&r), Err(ChannelClosed { channel: name("r") }));
            // A bad body held at a rebase comes back as a refused delivery, its words kept.
            let bad = raw("c", 5, false, b"{oops");
            assert_eq!(receive(&mut registry, bad), Ok(vec![]));
            let malformed = RefusedDelivery { channel: name("c"), seq: 5, refusal: ChannelRefusal::Malformed(ChannelFrameError::MalformedJsonBody(syntax_at(2))) };
            assert_eq!(registry.rebase(&c), Ok(vec![Err(malformed)]));
        }

        fn rebase_all_rebases_every_channel_and_hands_back_what_each_held() {
            // Issue 39, point 2: a reconnect concerns every channel of the carrier.
            let mut registry = Registry::new();
            let c = registry.register(descriptor("c", &["e"], Some(true))).expect("registers");
            let d = registry.register(descriptor("d", &["e"], Some(true))).expect("registers");
            let e = registry.register(descriptor("e", &["e"], None)).expect("registers");
            for frame in [binary("c", 0, &[]), binary("d", 0, &[]), event("e", 0, "e", "0")] {
                assert_eq!(receive(&mut registry, wire(&frame)).map(|items| items.len()), Ok(1));
            }
            let held = binary("c", 2, &[2]);
            assert_eq!(receive(&mut registry, wire(&held)), Ok(vec![]), "waits for 1");
            assert_eq!(receive(&mut registry, raw("e", 3, false, b"{oops")), Ok(vec![]), "waits for 1");
            assert_eq!(registry.send_binary_into(&d, &[], &mut Vec::new()), Ok(0));
            // Each channel that held frames, by name, with its handle; d held nothing.
            let malformed = ChannelRefusal::Malformed(ChannelFrameError::MalformedJsonBody(syntax_at(2)));
            let refused = RefusedDelivery { channel: name("e"), seq: 3, refusal: malformed };
            assert_eq!(registry.rebase_all(), vec![(c.clone(), vec![Ok(held)]), (e.clone(), vec![Err(refused)])]);
            assert_eq!((registry.held(&c), registry.held(&e)), (Ok(0), Ok(0)));
            // Every channel, d too, takes its next frame as the base; sends go on.
            for (channel, seq) in [("c", 50), ("d", 7)] {
                assert_eq!(receive(&mut registry, wire(&binary(channel, seq, &[]))).map(|items| seqs(&items)), Ok(vec![seq]));
            }
            let base = event("e", 9, "e", "9");
            assert_eq!(receive(&mut registry, wire(&base)), Ok(delivered(&[base])));
            assert_eq!(registry.send_binary_into(&d, &[], &mut Vec::new()), Ok(1));
            assert_eq!(registry.rebase_all(), vec![], "nothing held");
            // A closed channel is not among them.
            registry.close(c).expect("open");
            assert_eq!(receive(&mut registry, wire(&binary("d", 30, &[]))).map(|items| seqs(&items)), Ok(vec![30]), "unanchored again");
            let held = binary("d", 32, &[]);
            assert_eq!(receive(&mut registry, wire(&held)), Ok(vec![]), "waits for 31");
            assert_eq!(registry.rebase_all(), vec![(d, vec![Ok(held)])]);
        }

        fn a_full_window_skips_ahead_with_a_gap() {
            let mut registry = Registry::new();
            assert_eq!(registry.gap_policy(), GapPolicy::default());
            assert_eq!(GapPolicy::default(), GapPolicy::new());
            assert_eq!(GapPolicy::new().window_full, WindowFull::SkipAhead, "never stalls by default");
            assert_eq!(GapPolicy::new().deadline_ms, None, "no deadline by default");
            let c = anchored(&mut registry, descriptor("c", &["e"], Some(true)));
            for seq in [1, 2] {
                assert_eq!(receive(&mut registry, wire(&binary("c", seq, &[]))), Ok(vec![]));
            }
            // Seq 5 is 4 (PENDING) ahead of 0: seq 0 is given up, 1 and 2 come out, 5 waits.
            let items = receive(&mut registry, wire(&binary("c", 5, &[5]))).expect("taken");
            assert_eq!(items, vec![gap("c", 0, 1), Ok(binary("c", 1, &[])), Ok(binary("c", 2, &[]))]);
            assert_eq!(registry.held(&c), Ok(1));
            // The late frame for the skipped seq is stale, in the usual words.
            let late = receive(&mut registry, wire(&binary("c", 0, &[0]))).expect_err("given up");
            assert_eq!(late, ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::GivenUp { seq: 0 } });
            assert_eq!(format!("{late}"), "Channel \"c\": seq 0 was given up as a gap");
            assert_eq!(receive(&mut registry, wire(&binary("c", 3, &[3]))).map(|items| seqs(&items)), Ok(vec![3]));
            assert_eq!(receive(&mut registry, wire(&binary("c", 4, &[4]))).map(|items| seqs(&items)), Ok(vec![4, 5]));
            // The gap in words, for a log or the peer.
            let Err(NotDelivered::Gap(gap)) = &items[0] else { panic!("a gap first") };
            assert_eq!(format!("{gap}"), "Channel \"c\": 1 frame(s) from seq 0 never arrived");
            let words = r#"Channel "c": 1 frame(s) from seq 0 never arrived"#;
            let answer = items[0].as_ref().expect_err("a gap").to_receive_result();
            assert_eq!(answer, ChannelReceiveResult::Refused { error: s(words) });
            assert_eq!(items[0].as_ref().expect_err("a gap").to_protocol_error(), ProtocolErrorMessage::new(s(words)));
            // Under WindowFull::Refuse the same frame is refused and nothing changes.
            let mut strict: Registry = refusing();
            let c = anchored(&mut strict, descriptor("c", &["e"], Some(true)));
            assert_eq!(receive(&mut strict, wire(&binary("c", 1, &[]))), Ok(vec![]));
            let beyond = receive(&mut strict, wire(&binary("c", 5, &[5]))).expect_err("refused");
            assert_eq!(beyond, ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::BeyondWindow { seq: 5, expected: 0, capacity: 4 } });
            assert_eq!(strict.held(&c), Ok(1));
            // A window full of frames ready but not taken is refused even when skipping.
            let mut registry = PayloadChannelRegistry::<2>::new();
            let c = anchored(&mut registry, descriptor("c", &["e"], Some(true)));
            for seq in [0, 1] {
                let _untaken = registry.receive(wire(&binary("c", seq, &[])), 0).expect("routed");
            }
            let full = receive(&mut registry, wire(&binary("c", 2, &[])));
            assert_eq!(full, Err(ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::BeyondWindow { seq: 2, expected: 0, capacity: 2 } }));
            assert_eq!(registry.ready(&c).map(Iterator::count), Ok(2));
        }

        fn a_frame_waits_until_the_deadline_and_not_after() {
            let policy = GapPolicy::new().with_deadline_ms(100);
            assert_eq!(policy.deadline_ms, Some(100));
            let mut registry = Registry::new().with_gap_policy(policy);
            let c = registry.register(descriptor("c", &["e"], Some(true))).expect("registers");
            let d = registry.register(descriptor("d", &["e"], Some(true))).expect("registers");
            assert_eq!(registry.next_deadline(), None, "nothing waits");
            assert_eq!(receive_at(&mut registry, wire(&binary("c", 0, &[])), 0).map(|items| seqs(&items)), Ok(vec![0]));
            assert_eq!(receive_at(&mut registry, wire(&binary("c", 2, &[2])), 10), Ok(vec![]));
            assert_eq!(registry.deadline(&c), Ok(Some(110)));
            assert_eq!(registry.deadline(&d), Ok(None));
            assert_eq!(registry.next_deadline(), Some(110));
            // Not before the deadline: nothing moves.
            let expire = |registry: &mut Registry, channel: &PayloadChannel, now_ms| -> Vec<Item> {
                let delivery = registry.expire(channel, now_ms).expect("open");
                delivery.map(|item| item.map(DeliveredFrame::into_frame)).collect()
            };
            assert_eq!(expire(&mut registry, &c, 109), vec![]);
            assert_eq!(registry.expired(109).count(), 0);
            assert_eq!(registry.held(&c), Ok(1));
            // At the deadline: seq 1 is given up and 2 comes out behind its gap.
            assert_eq!(registry.expired(110).collect::<Vec<_>>(), vec![c.clone()]);
            assert_eq!(expire(&mut registry, &c, 110), vec![gap("c", 1, 1), Ok(binary("c", 2, &[2]))]);
            assert_eq!(registry.held(&c), Ok(0));
            assert_eq!(registry.next_deadline(), None);
            let late = receive_at(&mut registry, wire(&binary("c", 1, &[1])), 111).expect_err("given up");
            assert_eq!(late, ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::GivenUp { seq: 1 } });
            // A receive applies the deadline too: 4 waited 150 ms when 6 arrived.
            assert_eq!(receive_at(&mut registry, wire(&binary("c", 4, &[4])), 200), Ok(vec![]));
            let items = receive_at(&mut registry, wire(&binary("c", 6, &[6])), 350).expect("routed");
            assert_eq!(items, vec![gap("c", 3, 1), Ok(binary("c", 4, &[4]))]);
            assert_eq!(registry.deadline(&c), Ok(Some(450)), "6 waits for 5 from 350 on");
            // Each frame counts from its own arrival: 4 arrived after 2, so the hole before it waits on.
            assert_eq!(receive_at(&mut registry, wire(&binary("d", 0, &[])), 400).map(|items| items.len()), Ok(1));
            assert_eq!(receive_at(&mut registry, wire(&binary("d", 2, &[])), 400), Ok(vec![]));
            assert_eq!(receive_at(&mut registry, wire(&binary("d", 4, &[])), 440), Ok(vec![]));
            assert_eq!(registry.next_deadline(), Some(450));
            assert_eq!(registry.expired(500).count(), 2);
            assert_eq!(expire(&mut registry, &d, 500).iter().map(|item| item.is_ok()).collect::<Vec<_>>(), vec![false, true]);
            assert_eq!(registry.deadline(&d), Ok(Some(540)));
            assert_eq!(expire(&mut registry, &d, 540), vec![gap("d", 3, 1), Ok(binary("d", 4, &[]))]);
            assert_eq!(expire(&mut registry, &c, u64::MAX), vec![gap("c", 5, 1), Ok(binary("c", 6, &[6]))]);
            assert_eq!(registry.next_deadline(), None);
            // A closed handle is refused.
            registry.close(d.clone()).expect("open");
            assert!(registry.expire(&d, 0).is_err());
            assert_eq!(registry.deadline(&d), Err(ChannelClosed { channel: name("d") }));
        }

        fn expire_all_hands_on_every_due_channel_with_its_handle() {
            // Issue 39, point 2: the host's timer expires every channel without its handles.
            let mut registry = Registry::new().with_gap_policy(GapPolicy::new().with_deadline_ms(100));
            let mut handles = Vec::new();
            for channel in ["c", "d", "e"] {
                let handle = registry.register(descriptor(channel, &["e"], Some(true))).expect("registers");
                assert_eq!(receive_at(&mut registry, wire(&binary(channel, 0, &[])), 0).map(|items| items.len()), Ok(1));
                handles.push(handle);
            }
            let [c, d, e] = [&handles[0], &handles[1], &handles[2]];
            assert_eq!(receive_at(&mut registry, wire(&binary("c", 2, &[2])), 0), Ok(vec![]));
            assert_eq!(receive_at(&mut registry, wire(&binary("d", 3, &[3])), 50), Ok(vec![]));
            assert_eq!(receive_at(&mut registry, wire(&binary("e", 2, &[2])), 10), Ok(vec![]));
            let expire_all = |registry: &mut Registry, now_ms| -> Vec<(PayloadChannel, Vec<Item>)> {
                let deliveries = registry.expire_all(now_ms);
                deliveries.map(|(handle, delivery)| (handle, delivery.map(|item| item.map(DeliveredFrame::into_frame)).collect())).collect()
            };
            assert_eq!(expire_all(&mut registry, 99), vec![], "nothing due");
            // At 110, c and e are due, d (arrived at 50) is not; each comes with its handle.
            let due = expire_all(&mut registry, 110);
            let expected = vec![
                (c.clone(), vec![gap("c", 1, 1), Ok(binary("c", 2, &[2]))]),
                (e.clone(), vec![gap("e", 1, 1), Ok(binary("e", 2, &[2]))]),
            ];
            assert_eq!(due, expected);
            assert_eq!(registry.next_deadline(), Some(150));
            // Dropped untaken, nothing is lost: the deadline is applied, and what is ready stays
            // ready for the channel's next delivery.
            drop(registry.expire_all(150));
            assert_eq!(registry.next_deadline(), None);
            assert_eq!(registry.held(d), Ok(1));
            let mut deliveries = registry.expire_all(150);
            let (handle, mut delivery) = deliveries.next().expect("d is ready");
            assert_eq!(handle, d.clone());
            assert_eq!(delivery.next().map(|item| item.map(DeliveredFrame::into_frame)), Some(gap("d", 1, 2)));
            assert!(deliveries.next().is_none(), "only d");
            drop((delivery, deliveries));
            let rest: Vec<Item> = registry.ready(d).expect("open").map(|item| item.map(DeliveredFrame::into_frame)).collect();
            assert_eq!(rest, vec![Ok(binary("d", 3, &[3]))]);
            assert_eq!(expire_all(&mut registry, u64::MAX), vec![]);
        }

        fn without_a_deadline_a_frame_waits_for_ever() {
            let mut registry = Registry::new();
            let c = anchored(&mut registry, descriptor("c", &["e"], Some(true)));
            assert_eq!(receive_at(&mut registry, wire(&binary("c", 1, &[])), 0), Ok(vec![]));
            assert_eq!(registry.deadline(&c), Ok(None));
            assert_eq!(registry.next_deadline(), None);
            assert_eq!(registry.expire(&c, u64::MAX).map(Iterator::count), Ok(0));
            assert_eq!(registry.held(&c), Ok(1));
            // A deadline set later counts from the frame's arrival, and saturates at u64::MAX.
            registry.set_gap_policy(GapPolicy::new().with_deadline_ms(u64::MAX));
            assert_eq!(registry.deadline(&c), Ok(Some(u64::MAX)));
            assert_eq!(registry.expire(&c, u64::MAX - 1).map(Iterator::count), Ok(0));
            assert_eq!(registry.expire(&c, u64::MAX).map(Iterator::count), Ok(2));
            // A zero deadline gives up a gap at once.
            registry.set_gap_policy(GapPolicy::new().with_deadline_ms(0));
            let items = receive_at(&mut registry, wire(&binary("c", 3, &[])), 7).expect("routed");
            assert_eq!(items, vec![gap("c", 2, 1), Ok(binary("c", 3, &[]))]);
        }

        fn one_far_ahead_frame_never_stalls_the_channel() {
            // Issue 37, point 5: under the default skip ahead, one frame with a far seq gave up
            // about four billion seqs, and every in-sequence frame after it was refused as stale.
            for far in [4_000_000_000, u32::MAX] {
                let mut registry = Registry::new();
                let c = registry.register(descriptor("c", &["e"], Some(true))).expect("registers");
                for seq in 0..3 {
                    assert_eq!(receive(&mut registry, wire(&binary("c", seq, &[]))).map(|items| seqs(&items)), Ok(vec![seq]));
                }
                let refused = receive(&mut registry, wire(&binary("c", far, &[]))).expect_err("too far to skip to");
                let words = format!("Channel \"c\": seq {far} is beyond the reassembly window (expecting 3, holding at most 4 frames)");
                assert_eq!(format!("{refused}"), words);
                assert_eq!(registry.held(&c), Ok(0), "the channel keeps its place");
                for seq in 3..20 {
                    let frame = binary("c", seq, &[1]);
                    assert_eq!(receive(&mut registry, wire(&frame)), Ok(delivered(&[frame])), "seq {seq} after {far}");
                }
                // The same far frame again is refused again, and does not agree with itself.
                assert!(receive(&mut registry, wire(&binary("c", far, &[]))).is_err());
                assert_eq!(receive(&mut registry, wire(&binary("c", 20, &[]))).map(|items| seqs(&items)), Ok(vec![20]));
            }
            // Near the end of the sequence space: no wrap, no panic, the channel keeps its place.
            let resume = ChannelResumePoint { next_send: 0, next_receive: u32::MAX - 20 };
            let mut registry = Registry::new();
            registry.register_resuming(descriptor("m", &["e"], Some(true)), resume).expect("registers");
            assert!(receive(&mut registry, wire(&binary("m", u32::MAX, &[]))).is_err(), "20 ahead");
            for seq in u32::MAX - 20..=u32::MAX {
                assert_eq!(receive(&mut registry, wire(&binary("m", seq, &[]))).map(|items| seqs(&items)), Ok(vec![seq]));
            }
            // And a frame less than twice the window ahead, with nothing held: no hole is borne
            // out, so it is refused too (a gap needs frames past it).
            let mut registry = Registry::new();
            anchored(&mut registry, descriptor("c", &["e"], Some(true)));
            assert!(receive(&mut registry, wire(&binary("c", 5, &[]))).is_err(), "nothing held");
            for seq in 0..6 {
                assert_eq!(receive(&mut registry, wire(&binary("c", seq, &[]))).map(|items| seqs(&items)), Ok(vec![seq]));
            }
        }

        fn a_real_jump_is_taken_once_two_frames_agree() {
            // A lossy carrier lost seqs 3 to 22: the first frame after the hole is refused (one
            // frame alone moves nothing far), the second agrees with it and the channel moves on,
            // the refused one given up with the hole.
            let mut registry = Registry::new();
            let c = anchored(&mut registry, descriptor("c", &["e"], Some(true)));
            for seq in 0..3 {
                assert_eq!(receive(&mut registry, wire(&binary("c", seq, &[]))).map(|items| seqs(&items)), Ok(vec![seq]));
            }
            assert!(receive(&mut registry, wire(&binary("c", 23, &[23]))).is_err(), "alone");
            let items = receive(&mut registry, wire(&binary("c", 24, &[24]))).expect("agrees with 23");
            assert_eq!(items, vec![gap("c", 3, 21), Ok(binary("c", 24, &[24]))]);
            assert_eq!(registry.held(&c), Ok(0));
            assert_eq!(receive(&mut registry, wire(&binary("c", 25, &[]))).map(|items| seqs(&items)), Ok(vec![25]));
            // Reordered the other way round: 41 refused, then 40 agrees; 41 is awaited again.
            assert!(receive(&mut registry, wire(&binary("c", 41, &[]))).is_err(), "alone");
            let items = receive(&mut registry, wire(&binary("c", 40, &[40]))).expect("agrees with 41");
            assert_eq!(items, vec![gap("c", 26, 11)], "40 waits behind 37 to 39");
            assert_eq!(registry.held(&c), Ok(1));
            // A frame taken in between breaks the agreement: 26 was given up, 37 is taken.
            let mut registry = Registry::new();
            anchored(&mut registry, descriptor("c", &["e"], Some(true)));
            assert!(receive(&mut registry, wire(&binary("c", 100, &[]))).is_err());
            assert_eq!(receive(&mut registry, wire(&binary("c", 0, &[]))).map(|items| seqs(&items)), Ok(vec![0]));
            assert!(receive(&mut registry, wire(&binary("c", 101, &[]))).is_err(), "100 was forgotten");
            assert!(receive(&mut registry, wire(&binary("c", 200, &[]))).is_err(), "not close to 101");
            assert_eq!(receive(&mut registry, wire(&binary("c", 201, &[]))).map(|items| seqs(&items)), Ok(vec![1, 201]));
        }

        fn a_stale_frame_says_what_happened_to_its_seq() {
            let mut registry = Registry::new();
            let resume = ChannelResumePoint { next_send: 0, next_receive: 10 };
            registry.register_resuming(descriptor("c", &["e"], Some(true)), resume).expect("registers");
            let words = |registry: &mut Registry, seq| {
                let refused = receive(registry, wire(&binary("c", seq, &[]))).expect_err("stale");
                assert_eq!(refused.to_receive_result(), ChannelReceiveResult::Refused { error: format!("{refused}") });
                format!("{refused}")
            };
            assert_eq!(words(&mut registry, 9), "Channel \"c\": seq 9 is below the base (seq 10), older than anything remembered");
            assert_eq!(receive(&mut registry, wire(&binary("c", 10, &[]))).map(|items| seqs(&items)), Ok(vec![10]));
            assert_eq!(words(&mut registry, 10), "Channel \"c\": seq 10 was already delivered");
            // 11 never comes: 12 to 14 wait, 15 fills the window and 11 is given up.
            for seq in 12..15 {
                assert_eq!(receive(&mut registry, wire(&binary("c", seq, &[]))), Ok(vec![]));
            }
            assert_eq!(receive(&mut registry, wire(&binary("c", 15, &[]))).map(|items| seqs(&items)), Ok(vec![11, 12, 13, 14, 15]));
            assert_eq!(words(&mut registry, 11), "Channel \"c\": seq 11 was given up as a gap");
            assert_eq!(words(&mut registry, 12), "Channel \"c\": seq 12 was already delivered");
            assert_eq!(words(&mut registry, 3), "Channel \"c\": seq 3 is below the base (seq 10), older than anything remembered");
            // Given up but not yet handed out (the delivery not taken): given up all the same.
            for seq in 17..20 {
                assert_eq!(receive(&mut registry, wire(&binary("c", seq, &[]))), Ok(vec![]));
            }
            let _untaken = registry.receive(wire(&binary("c", 20, &[])), 0).expect("skips 16");
            assert_eq!(words(&mut registry, 16), "Channel \"c\": seq 16 was given up as a gap");
            // An exhausted channel: every seq below where it started is below the base.
            let resume = ChannelResumePoint { next_send: 0, next_receive: u32::MAX };
            registry.register_resuming(descriptor("m", &["e"], Some(true)), resume).expect("registers");
            assert_eq!(receive(&mut registry, wire(&binary("m", u32::MAX, &[]))).map(|items| seqs(&items)), Ok(vec![u32::MAX]));
            let refused = receive(&mut registry, wire(&binary("m", 0, &[]))).expect_err("exhausted");
            assert_eq!(format!("{refused}"), "Channel \"m\": seq 0 is below the base (seq 4294967295), older than anything remembered");
            let refused = receive(&mut registry, wire(&binary("m", u32::MAX, &[]))).expect_err("exhausted");
            assert_eq!(format!("{refused}"), "Channel \"m\": seq 4294967295 was already delivered");
        }

        fn one_hostile_frame_never_stops_the_in_order_frames() {
            for seed in 0..hostile_rounds() {
                one_hostile_frame(seed);
            }
        }

        fn random_traffic_never_loses_repeats_or_stalls_a_seq() {
            for seed in 0..gap_rounds() {
                random_traffic(seed);
            }
        }

        fn the_reassembler_behaves_as_a_plain_ordered_map() {
            for seed in 0..gap_rounds() {
                against_the_model::<1>(seed);
                against_the_model::<4>(seed);
                against_the_model::<5>(seed);
            }
        }
    }
}

// ---- the gap property test: seeded random traffic against the invariants ----------------------

/// Fewer, shorter cases on the Cortex-M3 (64 KiB of RAM, a slow emulator).
fn gap_rounds() -> u64 {
    if cfg!(target_os = "none") { 12 } else { 300 }
}

/// One frame on its way from the peer: the seq it carries and the id of the send that made it
/// (a duplicate carries the same id).
#[derive(Clone, Copy, Debug)]
struct InFlight {
    seq: u32,
    id: u32,
}

/// Runs one seeded case: a peer sends binary frames on one channel (numbered per carrier,
/// starting anywhere), some lost, some duplicated, some reordered; the carrier reconnects at
/// arbitrary seqs; time advances and the host calls `expire`. Checks after every step that
/// every frame is delivered at most once; that the seqs handed on since each (re)connect,
/// delivered and reported as gaps, are strictly increasing and contiguous; that no more than
/// `PENDING` frames are held; and, with a deadline, that once `expire` ran nothing has waited it
/// out and at the end nothing is held.
fn random_traffic(seed: u64) {
    const PENDING: usize = 4;
    let mut rng = Seeded::new(0x5EED_6A95_0000_0000 ^ seed);
    let deadline = if rng.chance(1, 4) {
        None
    } else {
        Some(rng.below(60))
    };
    let window_full = if rng.chance(1, 5) {
        WindowFull::Refuse
    } else {
        WindowFull::SkipAhead
    };
    let mut policy = GapPolicy::new().with_window_full(window_full);
    if let Some(deadline) = deadline {
        policy = policy.with_deadline_ms(deadline);
    }
    let mut registry = PayloadChannelRegistry::<PENDING>::new().with_gap_policy(policy);
    let c = registry
        .register(descriptor("c", &["e"], Some(true)))
        .expect("registers");
    // The peer's next seq (u64: it may run past u32::MAX, then it sends no more).
    let start = |rng: &mut Seeded| {
        if rng.chance(1, 8) {
            u64::from(u32::MAX) - rng.below(40)
        } else {
            rng.below(1_000)
        }
    };
    let mut peer = start(&mut rng);
    let mut next_id = 0u32;
    let mut in_flight: Vec<InFlight> = Vec::new();
    // What the host saw since the last (re)connect: the seq it expects next (None: no base yet).
    let mut expect: Option<u64> = None;
    // Ids delivered or handed back; the arrival time of each frame the registry holds, by seq.
    let mut consumed: Vec<u32> = Vec::new();
    let mut holding: Vec<(u32, u64)> = Vec::new();
    let mut now = 0u64;
    let steps = if cfg!(target_os = "none") { 60 } else { 200 };
    let context = |step: usize| format!("seed {seed}, step {step}, policy {policy:?}");

    // Takes a delivery's items and checks them against what the host saw.
    let take = |items: Vec<Result<DeliveredFrame<'_>, NotDelivered>>,
                expect: &mut Option<u64>,
                consumed: &mut Vec<u32>,
                holding: &mut Vec<(u32, u64)>,
                at: &str| {
        for item in items {
            let (first, count) = match item {
                Ok(frame) => {
                    let DeliveredBody::Binary(payload) = frame.body else {
                        panic!("{at}: binary only")
                    };
                    let id = u32::from_be_bytes(payload[..4].try_into().expect("an id"));
                    let seq = u32::from_be_bytes(payload[4..].try_into().expect("a seq"));
                    assert_eq!(seq, frame.seq, "{at}: the frame's own payload");
                    assert!(
                        !consumed.contains(&id),
                        "{at}: frame {id} (seq {seq}) handed on twice"
                    );
                    consumed.push(id);
                    holding.retain(|(held, _)| *held != frame.seq);
                    (u64::from(frame.seq), 1)
                }
                Err(NotDelivered::Gap(gap)) => {
                    assert!(expect.is_some(), "{at}: a gap before any base");
                    assert!(gap.missing_count > 0, "{at}: an empty gap");
                    (u64::from(gap.first_missing), u64::from(gap.missing_count))
                }
                Err(other) => panic!("{at}: {other:?}"),
            };
            if let Some(expected) = *expect {
                assert_eq!(first, expected, "{at}: the seqs handed on skip or repeat");
            }
            *expect = Some(first + count);
        }
    };

    for step in 0..steps {
        let at = context(step);
        match rng.below(12) {
            // The peer sends; the frame may be lost, duplicated, or overtaken later.
            0..=4 => {
                if let Ok(seq) = u32::try_from(peer) {
                    peer += 1;
                    let frame = InFlight { seq, id: next_id };
                    next_id += 1;
                    if !rng.chance(1, 6) {
                        in_flight.push(frame);
                    }
                    if rng.chance(1, 10) {
                        in_flight.push(frame);
                    }
                }
            }
            // The carrier delivers one frame, the oldest or a random one.
            5..=8 => {
                if in_flight.is_empty() {
                    continue;
                }
                let index = if rng.chance(1, 3) {
                    rng.below(in_flight.len() as u64) as usize
                } else {
                    0
                };
                let frame = in_flight.remove(index);
                let mut payload = frame.id.to_be_bytes().to_vec();
                payload.extend_from_slice(&frame.seq.to_be_bytes());
                match registry.receive(raw("c", frame.seq, true, &payload), now) {
                    Ok(delivery) => {
                        holding.push((frame.seq, now));
                        let items: Vec<_> = delivery.collect();
                        take(items, &mut expect, &mut consumed, &mut holding, &at);
                    }
                    Err(ChannelRefusal::Sequence { refusal, .. }) => match refusal {
                        SequenceRefusal::Stale { seq }
                        | SequenceRefusal::GivenUp { seq }
                        | SequenceRefusal::BelowBase { seq, .. } => {
                            // Every delivery is taken whole, so a seq given up was reported.
                            let below = expect.is_some_and(|expected| u64::from(seq) < expected);
                            assert!(below, "{at}: stale {seq}, expecting {expect:?}");
                            assert!(
                                !holding.iter().any(|(held, _)| *held == seq),
                                "{at}: stale {seq} is held"
                            );
                        }
                        SequenceRefusal::Duplicate { seq } => {
                            assert!(
                                holding.iter().any(|(held, _)| *held == seq),
                                "{at}: duplicate {seq} not held"
                            );
                        }
                        SequenceRefusal::BeyondWindow {
                            seq,
                            expected,
                            capacity,
                        } => {
                            assert_eq!(capacity, PENDING, "{at}");
                            assert!(
                                u64::from(seq) >= u64::from(expected) + PENDING as u64,
                                "{at}: {seq} fits"
                            );
                            // When a skip ahead is borne out is the model test's to check.
                        }
                        other => panic!("{at}: {other:?}"),
                    },
                    Err(other) => panic!("{at}: refused {other:?}"),
                }
            }
            // Time passes.
            9 => now += rng.below(40),
            // The host's timer fires.
            10 => {
                let due: Vec<_> = registry.expired(now).collect();
                assert!(due.is_empty() || due == vec![c.clone()], "{at}");
                let before = registry.deadline(&c).expect("open");
                assert_eq!(
                    due.is_empty(),
                    before.is_none_or(|deadline| deadline > now),
                    "{at}: expired vs deadline"
                );
                let items: Vec<_> = registry.expire(&c, now).expect("open").collect();
                take(items, &mut expect, &mut consumed, &mut holding, &at);
                if let Some(deadline) = deadline {
                    for (seq, arrived) in &holding {
                        assert!(
                            arrived + deadline > now,
                            "{at}: seq {seq} waited out the deadline"
                        );
                    }
                    let after = registry.deadline(&c).expect("open");
                    assert!(
                        after.is_none_or(|next| next > now),
                        "{at}: a deadline already past: {after:?}"
                    );
                } else {
                    assert_eq!(registry.deadline(&c), Ok(None), "{at}");
                }
            }
            // The carrier reconnects: the peer goes on from an arbitrary seq, nothing in flight
            // survives, and what was held comes back.
            _ => {
                in_flight.clear();
                for item in registry.rebase(&c).expect("open") {
                    let frame = item.expect("binary frames are never refused");
                    let ChannelFrame::Binary(frame) = frame else {
                        panic!("{at}: binary only")
                    };
                    let id = u32::from_be_bytes(frame.payload[..4].try_into().expect("an id"));
                    assert!(
                        !consumed.contains(&id),
                        "{at}: frame {id} handed back twice"
                    );
                    consumed.push(id);
                }
                holding.clear();
                expect = None;
                peer = if rng.chance(1, 2) {
                    peer + rng.below(50)
                } else {
                    start(&mut rng)
                };
            }
        }
        let held = registry.held(&c).expect("open");
        assert!(held <= PENDING, "{at}: {held} held");
        assert_eq!(held, holding.len(), "{at}: held frames");
    }
    // In the end, with a deadline, one expire after it hands everything on.
    if let Some(deadline) = deadline {
        now += deadline;
        let items: Vec<_> = registry.expire(&c, now).expect("open").collect();
        take(
            items,
            &mut expect,
            &mut consumed,
            &mut holding,
            &context(steps),
        );
        assert_eq!(registry.held(&c), Ok(0), "seed {seed}: held for ever");
        assert_eq!(registry.next_deadline(), None, "seed {seed}");
    }
}

// ---- one hostile frame in an in-order stream ----------------------------------------------------

/// Fewer cases on the Cortex-M3.
fn hostile_rounds() -> u64 {
    if cfg!(target_os = "none") { 24 } else { 2_000 }
}

/// Runs one seeded case: a peer sends binary frames on one channel strictly in order, from a
/// random start (now and then near `u32::MAX`), on a channel registered afresh or resumed there;
/// once, at a random point, one hostile frame with any seq (far ahead, `u32::MAX`, just ahead,
/// just behind, anything) is injected. Checks that every in-order frame is delivered at once,
/// except the one whose seq the hostile frame took first (refused as already delivered); that
/// no seq is given up; and that nothing is left held once the stream has passed the hostile seq.
fn one_hostile_frame(seed: u64) {
    const PENDING: usize = 4;
    let mut rng = Seeded::new(0x4057_11E0_0000_0000 ^ seed);
    let start: u32 = if rng.chance(1, 4) {
        u32::MAX - rng.below(40) as u32
    } else {
        rng.below(1_000_000) as u32
    };
    let len = u32::try_from(rng.below(40) + 2).expect("small");
    // One past the last in-order seq; the peer sends nothing after u32::MAX.
    let end = (u64::from(start) + u64::from(len)).min(1 << 32);
    let mut registry = PayloadChannelRegistry::<PENDING>::new();
    let descriptor = descriptor("c", &["e"], Some(true));
    let resumed = rng.chance(1, 2);
    let c = if resumed {
        let resume = ChannelResumePoint {
            next_send: 0,
            next_receive: start,
        };
        registry
            .register_resuming(descriptor, resume)
            .expect("registers")
    } else {
        registry.register(descriptor).expect("registers")
    };
    // A fresh channel takes its first frame as the base, so the hostile frame comes after it.
    let first_at = u64::from(!resumed);
    let inject_before = first_at + rng.below(u64::from(len));
    let mut hostile_taken: Option<u32> = None;
    let mut next = u64::from(start); // the seq the host expects next
    let at =
        |what: &str| format!("seed {seed}: start {start}, len {len}, resumed {resumed}: {what}");
    for (index, seq) in (u64::from(start)..end).enumerate() {
        let seq = u32::try_from(seq).expect("below 2^32");
        if index as u64 == inject_before {
            let around = u64::from(seq);
            let hostile = match rng.below(7) {
                0 => u32::MAX,
                1 => 4_000_000_000,
                2 => rng.next_u64() as u32,
                3 => u32::try_from(around + rng.below(3 * PENDING as u64)).unwrap_or(u32::MAX),
                4 => u32::try_from(around.saturating_sub(rng.below(6))).expect("a seq"),
                5 => u32::try_from(around + PENDING as u64 + rng.below(4 * PENDING as u64))
                    .unwrap_or(u32::MAX),
                _ => u32::try_from(around + rng.below(1 << 20)).unwrap_or(u32::MAX),
            };
            let at = at(&format!("hostile {hostile} before {seq}"));
            match receive(&mut registry, raw("c", hostile, true, &[0xBA, 0xD0])) {
                Ok(items) => {
                    assert!(items.iter().all(Result::is_ok), "{at}: a gap {items:?}");
                    // Taken: it waits for its turn, or it is the very seq expected.
                    assert!(
                        u64::from(hostile) >= next && u64::from(hostile) < next + PENDING as u64,
                        "{at}: taken"
                    );
                    hostile_taken = Some(hostile);
                    next += items.len() as u64;
                }
                Err(ChannelRefusal::Sequence { .. }) => {}
                Err(other) => panic!("{at}: {other:?}"),
            }
        }
        let at = at(&format!("in-order {seq}"));
        let result = receive(&mut registry, raw("c", seq, true, &seq.to_be_bytes()));
        if hostile_taken.is_some_and(|hostile| hostile == seq) {
            let refused = result.expect_err("its seq was taken by the hostile frame");
            assert_eq!(
                format!("{refused}"),
                format!("Channel \"c\": seq {seq} was already delivered"),
                "{at}"
            );
            continue;
        }
        let items = result.unwrap_or_else(|refused| panic!("{at}: refused: {refused}"));
        assert!(!items.is_empty(), "{at}: not delivered at once");
        for item in &items {
            let Ok(ChannelFrame::Binary(frame)) = item else {
                panic!("{at}: {item:?}")
            };
            assert_eq!(u64::from(frame.seq), next, "{at}: out of order");
            let payload = if Some(frame.seq) == hostile_taken {
                vec![0xBA, 0xD0]
            } else {
                frame.seq.to_be_bytes().to_vec()
            };
            assert_eq!(frame.payload, payload, "{at}");
            next += 1;
        }
    }
    if hostile_taken.is_none_or(|hostile| u64::from(hostile) < end) {
        assert_eq!(registry.held(&c), Ok(0), "{}", at("held at the end"));
    }
    // Every in-order seq was handed on, and the hostile frame too when it came right after.
    let after = u64::from(hostile_taken.is_some_and(|hostile| u64::from(hostile) == end));
    assert_eq!(
        next,
        end + after,
        "{}",
        at("every in-order frame handed on")
    );
}

// ---- the reassembler against a model: the rules written out over an ordered map ---------------

/// The reassembler's rules, written as plainly as possible over an ordered map of the held items
/// (no ring, no parking: an item `N` or more ahead of `next` is simply held), with the runs of
/// seqs given up in a plain list.
struct Model<const N: usize> {
    /// `None` while unanchored; `2^32` once `u32::MAX` was handed out.
    next: Option<u64>,
    release: u64,
    held: BTreeMap<u32, u32>,
    /// Below it, a stale seq is below the base.
    floor: u64,
    /// The latest runs given up, inclusive, oldest first (at most `GAPS_REMEMBERED`).
    runs: Vec<(u64, u64)>,
    /// The last seq refused beyond the window while skipping, none taken since.
    far: Option<u64>,
}

impl<const N: usize> Model<N> {
    fn stale(&self, seq: u32) -> SequenceRefusal {
        let at = u64::from(seq);
        let next = self.next.expect("anchored");
        if at < self.floor {
            return SequenceRefusal::BelowBase {
                seq,
                base: u32::try_from(self.floor).expect("a seq"),
            };
        }
        let given_up = (at >= next && at < self.release)
            || self
                .runs
                .iter()
                .any(|&(first, last)| first <= at && at <= last);
        if given_up {
            SequenceRefusal::GivenUp { seq }
        } else {
            SequenceRefusal::Stale { seq }
        }
    }

    fn push(&mut self, seq: u32, item: u32, full: WindowFull) -> Result<(), SequenceRefusal> {
        let seq64 = u64::from(seq);
        if self.next.is_none() {
            self.next = Some(seq64);
            self.release = seq64;
            self.floor = seq64;
        }
        let next = self.next.expect("anchored");
        let window = N as u64;
        let beyond = SequenceRefusal::BeyondWindow {
            seq,
            expected: u32::try_from(next).unwrap_or(u32::MAX),
            capacity: N,
        };
        if seq64 < next {
            return Err(self.stale(seq));
        }
        if self.held.contains_key(&seq) {
            return Err(SequenceRefusal::Duplicate { seq });
        }
        if seq64 < self.release {
            return Err(self.stale(seq));
        }
        if seq64 < next + window {
            if self.held.len() >= N {
                return Err(beyond);
            }
            self.held.insert(seq, item);
            self.far = None;
            return Ok(());
        }
        if full == WindowFull::Refuse {
            return Err(beyond);
        }
        // One skip ahead at a time: an item already held beyond the window blocks another.
        let skipped = self
            .held
            .keys()
            .any(|held| u64::from(*held) >= next + window);
        if self.held.len() < N && !skipped {
            // Borne out by a far seq refused just before, close to this one; or by an item held,
            // this one less than two windows ahead.
            let fit = seq64 + 1 - window;
            let agreed = self
                .far
                .filter(|far| *far != seq64 && far.abs_diff(seq64) <= window);
            let release = match agreed {
                Some(far) if far < seq64 => Some(fit.max(far + 1)),
                Some(_) => Some(fit),
                None if !self.held.is_empty() && seq64 - next < 2 * window => Some(fit),
                None => None,
            };
            if let Some(release) = release {
                self.release = self.release.max(release);
                self.held.insert(seq, item);
                self.far = None;
                return Ok(());
            }
        }
        self.far = Some(seq64);
        Err(beyond)
    }

    fn pop(&mut self) -> Option<Reassembled<u32>> {
        let next = self.next?;
        if let Some(item) = u32::try_from(next)
            .ok()
            .and_then(|seq| self.held.remove(&seq))
        {
            self.next = Some(next + 1);
            return Some(Reassembled::Item(item));
        }
        if next >= self.release {
            return None;
        }
        let first_held = self
            .held
            .keys()
            .next()
            .map_or(u64::MAX, |seq| u64::from(*seq));
        let end = self.release.min(first_held);
        self.next = Some(end);
        match self.runs.last_mut() {
            Some(latest) if latest.1 + 1 == next => latest.1 = end - 1,
            _ => {
                if self.runs.len() == ChannelReassembler::<u32, N>::GAPS_REMEMBERED {
                    let (_, last) = self.runs.remove(0);
                    self.floor = last + 1;
                }
                self.runs.push((next, end - 1));
            }
        }
        Some(Reassembled::Gap(SequenceGap {
            first: next as u32,
            count: (end - next) as u32,
        }))
    }

    fn skip_to(&mut self, seq: u32) {
        if self.next.is_some() {
            self.release = self.release.max(u64::from(seq));
        }
    }

    /// The held items behind a missing seq still waited for, and the one taken by a skip ahead
    /// (beyond the window) until it fits.
    fn waiting(&self) -> Vec<(u32, u32)> {
        let Some(next) = self.next else {
            return Vec::new();
        };
        let mut missing = self.release.max(next);
        while u32::try_from(missing).is_ok_and(|seq| self.held.contains_key(&seq)) {
            missing += 1;
        }
        let waits = |seq: u64| seq > missing || seq >= next + N as u64;
        let held = self.held.iter().map(|(seq, item)| (*seq, *item));
        held.filter(|(seq, _)| waits(u64::from(*seq))).collect()
    }
}

/// Runs one seeded case: random pushes (in and out of the window, repeats, stale ones, both
/// window-full policies), pops and skips on a reassembler of capacity `N` and on the model, and
/// checks after every step that both answer the same.
fn against_the_model<const N: usize>(seed: u64) {
    let mut rng = Seeded::new(0x0DE1_0000_0000_0000 ^ seed ^ ((N as u64) << 40));
    let base = if rng.chance(1, 4) {
        u32::MAX - rng.below(3 * N as u64) as u32
    } else {
        rng.below(1_000) as u32
    };
    let (mut window, next) = if rng.chance(1, 2) {
        (ChannelReassembler::<u32, N>::unanchored(), None)
    } else {
        (
            ChannelReassembler::<u32, N>::starting_at(base),
            Some(u64::from(base)),
        )
    };
    let release = next.unwrap_or(0);
    let mut model = Model::<N> {
        next,
        release,
        held: BTreeMap::new(),
        floor: release,
        runs: Vec::new(),
        far: None,
    };
    let steps = if cfg!(target_os = "none") { 100 } else { 400 };
    for step in 0..steps {
        let at = format!("seed {seed}, N {N}, step {step}");
        match rng.below(10) {
            0..=5 => {
                // Around the expected seq, now and then far ahead.
                let around = model.next.unwrap_or(u64::from(base));
                let reach = if rng.chance(1, 8) {
                    4 * N as u64 + 40
                } else {
                    2 * N as u64 + 2
                };
                let seq = (around + rng.below(reach)).saturating_sub(N as u64 / 2 + 1);
                let seq = u32::try_from(seq).unwrap_or(u32::MAX);
                let full = if rng.chance(1, 2) {
                    WindowFull::SkipAhead
                } else {
                    WindowFull::Refuse
                };
                let item = rng.next_u64() as u32;
                let got = window.push_with(seq, item, full);
                let want = model.push(seq, item, full);
                match (&got, &want) {
                    (Ok(()), Ok(())) => {}
                    (Err(refused), Err(refusal)) => {
                        assert_eq!(refused.refusal, *refusal, "{at}: push {seq} ({full:?})");
                        assert_eq!(refused.item, item, "{at}: the item handed back");
                    }
                    _ => panic!("{at}: push {seq} ({full:?}): {got:?}, the model {want:?}"),
                }
            }
            6..=8 => {
                for _ in 0..rng.below(3) + 1 {
                    assert_eq!(window.pop(), model.pop(), "{at}: pop");
                }
            }
            _ => {
                let around = model.next.unwrap_or(u64::from(base));
                let seq = u32::try_from(around + rng.below(3 * N as u64)).unwrap_or(u32::MAX);
                window.skip_to(seq);
                model.skip_to(seq);
            }
        }
        assert!(window.len() <= N, "{at}: {} held", window.len());
        assert_eq!(window.len(), model.held.len(), "{at}: held");
        assert_eq!(window.is_anchored(), model.next.is_some(), "{at}: anchored");
        let expected = model.next.and_then(|next| u32::try_from(next).ok());
        assert_eq!(window.expected(), expected, "{at}: expected");
        let waiting: Vec<(u32, u32)> = window.waiting().map(|(seq, item)| (seq, *item)).collect();
        assert_eq!(waiting, model.waiting(), "{at}: waiting");
    }
    let held: Vec<u32> = model.held.values().copied().collect();
    assert_eq!(
        window.into_held(),
        held,
        "seed {seed}, N {N}: held at the end"
    );
}

//! Cases of the payload channels: the frame contracts' JSON form (golden files and refused
//! input), the byte codec (the reference's bytes, copied from the interop vectors as literal
//! cases, and every refusal), the reassembler, and the registry's rules. Uses only `core`,
//! `alloc`, serde_json and the crate, so it also runs on the firmware and wasm.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::{
    Bytes, CHANNEL_FRAME_MAGIC, CHANNEL_FRAME_VERSION, ChannelClosed, ChannelFrameError,
    ChannelFrameHeader, ChannelReassembler, ChannelRefusal, ChannelRegisterError,
    ChannelResumePoint, ChannelSendError, DeliveredBody, DeliveredFrame, PayloadChannelRegistry,
    ReassemblyRefused, RefusedDelivery, SequenceRefusal, UndeclaredFrame, decode_channel_frame,
    decode_event_body, decode_header, encode_channel_frame, encode_channel_frame_into,
    is_channel_frame,
};
use agent_interface::transport::{
    BinaryFrame, ChannelDescriptor, ChannelEventFrame, ChannelFrame, ChannelName,
    ChannelReceiveResult, ProtocolErrorMessage,
};

use crate::support::{decode, golden, rejects, s, to_json};

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
    ChannelFrame::Event(ChannelEventFrame {
        channel: name(channel),
        seq,
        event: s(event),
        payload: json(payload),
    })
}

fn binary(channel: &str, seq: u32, payload: &[u8]) -> ChannelFrame {
    ChannelFrame::Binary(BinaryFrame {
        channel: name(channel),
        seq,
        payload: payload.to_vec(),
    })
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

/// One frame handed on by a receive (or back by a close): the frame, or its refused delivery.
type Item = Result<ChannelFrame, RefusedDelivery>;

/// Receives `bytes` and takes everything the receive delivers, as contract frames.
fn receive<const N: usize>(
    registry: &mut PayloadChannelRegistry<N>,
    bytes: Vec<u8>,
) -> Result<Vec<Item>, ChannelRefusal> {
    let delivery = registry.receive(bytes)?;
    Ok(delivery
        .map(|item| item.map(DeliveredFrame::into_frame))
        .collect())
}

/// Frames as delivered items, each accepted.
fn delivered(frames: &[ChannelFrame]) -> Vec<Item> {
    frames.iter().cloned().map(Ok).collect()
}

/// The seqs of delivered items.
fn seqs(items: &[Item]) -> Vec<u32> {
    items
        .iter()
        .map(|item| {
            item.as_ref()
                .map_or_else(|refused| refused.seq, ChannelFrame::seq)
        })
        .collect()
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
                ("5242460102016300000001", MalformedJsonBody, "malformed JSON body"),
                ("52424601020163000000017b6f6f7073", MalformedJsonBody, "malformed JSON body"),
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
            assert_eq!(decode_event_body(&bytes[header.body_offset..]), Err(ChannelFrameError::MalformedJsonBody));
            assert_eq!(decode_channel_frame(&bytes), Err(ChannelFrameError::MalformedJsonBody));
            // Every header refusal is the whole decoder's, in the same order.
            for bytes in ["", "5242", "524246", "52424602020163", "52424601030163", "524246010200", "524246010201630000", "524246010201ff00000001"] {
                let bytes = hex(bytes);
                assert_eq!(decode_header(&bytes).map(|_| ()), decode_channel_frame(&bytes).map(|_| ()), "{bytes:?}");
            }
            let body = br#"{"payload":[1],"event":"e"}"#;
            assert_eq!(decode_event_body(body), Ok((s("e"), json("[1]"))));
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
                assert_eq!(window.pop(), Some(seq * 10));
                assert_eq!(window.pop(), None);
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
                    out.extend(core::iter::from_fn(|| window.pop()));
                }
                assert_eq!(out, (0..8).collect::<Vec<_>>(), "{order:?}");
                assert!(window.is_empty());
            }
        }

        fn stale_seq_is_refused_and_handed_back() {
            let mut window = ChannelReassembler::<&str, 4>::new();
            window.push(0, "zero").expect("first");
            assert_eq!(window.pop(), Some("zero"));
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
            let out: Vec<u32> = core::iter::from_fn(|| window.pop()).collect();
            assert_eq!(out, vec![0, 1, 2]);
            window.push(5, 5).expect("the window moved on");
        }

        fn a_window_of_one_takes_only_the_expected_seq() {
            let mut window = ChannelReassembler::<u8, 1>::default();
            assert!(matches!(window.push(1, 1), Err(ReassemblyRefused { refusal: SequenceRefusal::BeyondWindow { .. }, .. })));
            window.push(0, 0).expect("expected");
            assert!(matches!(window.push(0, 0), Err(ReassemblyRefused { refusal: SequenceRefusal::Duplicate { seq: 0 }, .. })));
            assert_eq!(window.pop(), Some(0));
        }

        fn sequence_numbers_never_wrap() {
            let mut window = ChannelReassembler::<u32, 4>::starting_at(u32::MAX - 1);
            window.push(u32::MAX, 2).expect("inside the window");
            assert_eq!(window.pop(), None, "waits for MAX - 1");
            window.push(u32::MAX - 1, 1).expect("expected");
            assert_eq!(window.pop(), Some(1));
            assert_eq!(window.pop(), Some(2));
            assert_eq!(window.expected(), None, "every seq was handed out");
            for seq in [0, 1, u32::MAX] {
                let refused = window.push(seq, 0).expect_err("no wrap");
                assert_eq!(refused.refusal, SequenceRefusal::Stale { seq });
            }
        }

        fn held_items_come_back_in_seq_order() {
            let mut window = ChannelReassembler::<u32, 4>::new();
            assert!(ChannelReassembler::<u32, 4>::new().into_held().is_empty());
            window.push(0, 0).expect("expected");
            window.push(1, 1).expect("expected next");
            assert_eq!(window.pop(), Some(0));
            assert_eq!(window.pop(), Some(1));
            // The head slot is now 2; held items wrap around the slots.
            for seq in [5, 3, 4] {
                window.push(seq, seq).expect("inside the window");
            }
            assert_eq!(window.len(), 3);
            assert_eq!(format!("{window:?}"), "ChannelReassembler { expected: Some(2), held: 3, capacity: 4 }");
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
            assert_eq!(registry.receive(inbound).map(Iterator::count), Ok(1), "still routed");
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
            let mut delivery = registry.receive(buffer.clone()).expect("routed");
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
            let mut registry = Registry::new();
            registry.register(descriptor("text", &["msg"], None)).expect("registers");
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
            let media = registry.register(descriptor("media", &["meta", "end"], Some(true))).expect("registers");
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
            registry.register(descriptor("media", &["meta", "end"], Some(true))).expect("registers");
            let mut all = Vec::new();
            for index in [1, 0, 3, 2, 4] {
                all.extend(receive(&mut registry, wire(&frames[index])).expect("inside the window"));
            }
            assert_eq!(all, delivered(&frames));
        }

        fn closing_stops_delivery_and_hands_back_held_frames() {
            let mut registry = Registry::new();
            let c = registry.register(descriptor("c", &["e"], Some(true))).expect("registers");
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
            assert_eq!(wrapped, ChannelRefusal::Sequence { channel: name("c"), refusal: SequenceRefusal::Stale { seq: 0 } });
            assert_eq!(ChannelResumePoint::default(), ChannelResumePoint { next_send: 0, next_receive: 0 });
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
            let mut registry = Registry::new();
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
                Err(RefusedDelivery { seq: 1, refusal: ChannelRefusal::Undeclared(undeclared) }),
                Err(RefusedDelivery { seq: 2, refusal: ChannelRefusal::Malformed(ChannelFrameError::MalformedJsonBody) }),
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
            ] {
                rejects::<ProtocolErrorMessage>(other, needle);
            }
            assert_eq!(registry.held(&text), Ok(0));
            let next = event("text", 3, "msg", "3");
            assert_eq!(receive(&mut registry, wire(&next)), Ok(delivered(&[next])));
            // Held bad bodies come back from a close as refused deliveries too.
            assert_eq!(receive(&mut registry, raw("text", 5, false, b"[1]")), Ok(vec![]));
            let not_object = RefusedDelivery { seq: 5, refusal: ChannelRefusal::Malformed(ChannelFrameError::EventBodyNotObject) };
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
            assert_eq!(decode_channel_frame(&bytes), Err(ChannelFrameError::MalformedJsonBody));
        }

        fn frames_not_taken_stay_ready_for_the_next_delivery() {
            let mut registry = Registry::new();
            let c = registry.register(descriptor("c", &["e"], Some(true))).expect("registers");
            assert_eq!(receive(&mut registry, wire(&binary("c", 1, &[1]))), Ok(vec![]));
            let _untaken = registry.receive(wire(&binary("c", 0, &[0]))).expect("routed");
            assert_eq!(registry.held(&c), Ok(2), "ready, not taken");
            let ready: Vec<Item> = registry.ready(&c).expect("open").map(|item| item.map(DeliveredFrame::into_frame)).collect();
            assert_eq!(ready, delivered(&[binary("c", 0, &[0]), binary("c", 1, &[1])]));
            assert_eq!(registry.ready(&c).map(Iterator::count), Ok(0));
            // Taken one at a time: the rest comes first in the next delivery.
            assert_eq!(receive(&mut registry, wire(&binary("c", 3, &[3]))), Ok(vec![]));
            let mut delivery = registry.receive(wire(&binary("c", 2, &[2]))).expect("routed");
            assert_eq!(delivery.next().map(|item| item.map(|frame| frame.seq)), Some(Ok(2)));
            let next = receive(&mut registry, wire(&binary("c", 4, &[4]))).expect("routed");
            assert_eq!(seqs(&next), vec![3, 4]);
            registry.close(c.clone()).expect("open");
            assert!(registry.ready(&c).is_err(), "closed");
        }
    }
}

//! Numbers survive decode → encode → decode exactly (defect 6): serde_json parsed some decimal
//! texts one step (one unit in the last place) off the nearest `f64` (`9.9e24` read back as
//! `9.899999999999999e24`), so a number kept as written (an unknown member in `extra`, a `Value`
//! field, a relayed channel event payload) drifted on every store or relay cycle. The crate reads
//! JSON with serde_json's `float_roundtrip` feature, which parses to the nearest `f64`.
//!
//! Host only: the cases need the `record-codec` and `transport-runtime` features together, and
//! the property test is about serde_json's reader, which the firmware links the same way.

use agent_interface::agent_core::Value;
use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::runtime::transport::channels::{decode_channel_frame, encode_channel_frame};
use agent_interface::session::records::SessionRecordDecodeOutcome;
use agent_interface::transport::channels::{ChannelEventFrame, ChannelFrame, ChannelName};

#[path = "suites/seeded.rs"]
mod seeded;

use seeded::Seeded;

/// The number the fuzzer found: serde_json without `float_roundtrip` reads it one step low.
const DRIFTING: f64 = 9.9e24;

fn valid(bytes: &[u8]) -> agent_interface::session::records::InteractiveSessionRecord {
    match decode_session_record(bytes, "sess-1") {
        SessionRecordDecodeOutcome::Valid { record } => *record,
        other => panic!(
            "{} does not decode as a valid record: {other:?}",
            String::from_utf8_lossy(bytes)
        ),
    }
}

fn bits(value: &Value) -> u64 {
    value.as_f64().expect("a number").to_bits()
}

#[test]
fn a_stored_record_keeps_its_numbers_exactly() {
    let stored = br#"{"schemaVersion":1,"record":{"id":"sess-1","cwd":"/w","createdAt":"t","updatedAt":"t","messages":[{"role":"user","id":"m1","timestamp":"t","state":"complete","content":"hi","metadata":{"score":9.9e24}}],"x-score":9.9e24}}"#;
    let record = valid(stored);
    // Read exactly: in an unknown member kept in `extra`, and in a `Value` field.
    assert_eq!(bits(&record.extra["x-score"]), DRIFTING.to_bits(), "extra");
    let metadata = record.messages[0]
        .base()
        .metadata
        .as_ref()
        .expect("metadata");
    assert_eq!(bits(&metadata["score"]), DRIFTING.to_bits(), "metadata");
    // Written as read, and stable from then on.
    let first = encode_session_record(&record).expect("encodes");
    let text = core::str::from_utf8(&first).expect("UTF-8");
    assert_eq!(text.matches("9.9e+24").count(), 2, "{text}");
    let again = valid(&first);
    assert!(again == record, "the record changed through a round trip");
    let second = encode_session_record(&again).expect("encodes");
    assert_eq!(
        core::str::from_utf8(&second).expect("UTF-8"),
        text,
        "a second cycle changed the bytes"
    );
}

#[test]
fn a_channel_event_payload_keeps_its_numbers_exactly() {
    let frame = ChannelFrame::Event(ChannelEventFrame::new(
        ChannelName::new("telemetry").expect("a channel name"),
        7,
        "sample",
        serde_json::json!({"mass": DRIFTING, "list": [DRIFTING, -DRIFTING, 1e-300]}),
    ));
    let first = encode_channel_frame(&frame);
    let decoded = decode_channel_frame(&first).expect("decodes");
    assert_eq!(decoded, frame, "the payload changed through decoding");
    let second = encode_channel_frame(&decoded);
    assert_eq!(
        String::from_utf8_lossy(&second),
        String::from_utf8_lossy(&first),
        "re-encoding changed the bytes"
    );
    let third = encode_channel_frame(&decode_channel_frame(&second).expect("decodes"));
    assert_eq!(third, first, "a second relay changed the bytes");
}

/// The texts a writer may use for `x`: Rust's shortest (`{:?}`), exponent (`{:e}`) and full
/// decimal (`{}`) forms, and serde_json's own.
fn texts(x: f64) -> [String; 4] {
    [
        format!("{x:?}"),
        format!("{x:e}"),
        format!("{x}"),
        serde_json::to_string(&x).expect("a finite f64 encodes"),
    ]
}

/// text → `Value` → text → `Value`: the first read is the nearest `f64` (bit for bit), and from
/// the first encode on, the text and the value no longer change.
fn check(x: f64, origin: &str) {
    for text in texts(x) {
        let first: Value = serde_json::from_str(&text)
            .unwrap_or_else(|error| panic!("{origin}: {text} does not parse: {error}"));
        let read = first.as_f64().expect("a number");
        assert_eq!(
            read.to_bits(),
            x.to_bits(),
            "{origin}: {text} read as {read:?}, not {x:?} (bits {:#018x})",
            x.to_bits()
        );
        let written = serde_json::to_string(&first).expect("encodes");
        let second: Value = serde_json::from_str(&written).expect("the encoder writes JSON");
        assert_eq!(
            bits(&second),
            x.to_bits(),
            "{origin}: {text} -> {written} read back as {second}"
        );
        assert_eq!(second, first, "{origin}: {text} -> {written}");
        let rewritten = serde_json::to_string(&second).expect("encodes");
        assert_eq!(
            rewritten, written,
            "{origin}: {text} drifts on the second cycle"
        );
    }
}

#[test]
fn edge_numbers_survive_text_value_text_value() {
    let two_53 = 9_007_199_254_740_992.0_f64;
    let edges = [
        DRIFTING,
        -DRIFTING,
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        f64::MIN_POSITIVE / 2.0,
        f64::from_bits(1), // 5e-324, the least subnormal
        5e-324,
        f64::from_bits(0x000F_FFFF_FFFF_FFFF), // the greatest subnormal
        2.225_073_858_507_201e-308,
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        1e-300,
        1e300,
        1e23,
        0.1,
        0.3,
        two_53,
        two_53 + 2.0,
        -(two_53 + 2.0),
        two_53 * 2.0 + 4.0,
        9_223_372_036_854_775_808.0,  // 2^63
        18_446_744_073_709_551_616.0, // 2^64
        18_446_744_073_709_555_712.0, // 2^64 + 4096
        1.234_567_890_123_456_8e20,
        -9_223_372_036_854_775_808.0,
    ];
    for x in edges {
        check(x, &format!("edge {x:?}"));
    }
}

#[test]
fn property_random_finite_numbers_survive_text_value_text_value() {
    let seed = 0x6E75_6D62_6572_7321;
    let mut rng = Seeded::new(seed);
    let mut checked = 0;
    while checked < 20_000 {
        let x = f64::from_bits(rng.next_u64());
        if !x.is_finite() {
            continue;
        }
        check(x, &format!("seed {seed:#x}, case {checked}"));
        checked += 1;
    }
}

#[test]
fn property_short_decimal_texts_read_as_the_nearest_f64() {
    // Short decimals like `9.9e24` are what people and other encoders write; Rust's `parse` is
    // correctly rounded, so it is the reference.
    let seed = 0x6465_6369_6D61_6C73;
    let mut rng = Seeded::new(seed);
    for case in 0..20_000 {
        let digits = 1 + rng.below(17);
        let mantissa = rng.below(10_u64.pow(digits as u32));
        let exponent = rng.below(640) as i64 - 330;
        let sign = if rng.chance(1, 4) { "-" } else { "" };
        let text = format!("{sign}{mantissa}e{exponent}");
        let nearest: f64 = text.parse().expect("Rust reads it");
        if !nearest.is_finite() {
            continue;
        }
        let read: Value = serde_json::from_str(&text).expect("serde_json reads it");
        assert_eq!(
            bits(&read),
            nearest.to_bits(),
            "seed {seed:#x}, case {case}: {text} read as {read}, not {nearest:?}"
        );
        check(nearest, &format!("seed {seed:#x}, case {case} ({text})"));
    }
}

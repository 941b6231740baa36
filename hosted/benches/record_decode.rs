//! Benchmark of decoding a stored session record against an untyped parse of the same bytes
//! (issue 9, "Measured"), in ONE criterion group so the ratio comes from one run:
//!
//! - `record_decode/decode_session_record`: [`decode_session_record`] on a valid 1 MiB stored
//!   record: parse, check the envelope version and the id, decode every member, classify;
//! - `record_decode/serde_json_value`: `serde_json::from_slice::<Value>` on the same bytes (the
//!   untyped parse the decoder is measured against);
//! - `record_decode/decode_session_record_wrong_id`: the same bytes stored under another id, so
//!   the answer is `corrupt` with a located issue (the slow, locating path);
//! - `record_decode/serde_json_typed_record`: `serde_json::from_slice` of the bare record type
//!   (the crate's own `Deserialize`), for reference.
//!
//! The record is built through the crate's types and written by [`encode_session_record`]:
//! messages of every role (user turns, assistant turns with tool calls, tool results with file
//! contents, an occasional system message), the history timeline with payloads, tool schemas,
//! background tasks and their events, memory and context inventories, a goal, a plan and an
//! active branch, until the stored bytes reach 1 MiB.
//!
//! A second group, `record_locate`, measures the locating path on crafted corrupt records of
//! about 1 MiB each (the worst inputs for it: see [`crafted`]). For every input `<name>` it
//! measures `record_locate/serde_json_value/<name>` and `record_locate/decode_session_record/<name>`
//! in the same run and, at the end, prints the ratio of the two for every input (the bound is 5:
//! docs/decisions/session-record-codec.md). With `RECORD_LOCATE_MAX_RATIO` set, the run fails
//! when a ratio is above it.
//!
//! Run, in `hosted/`:
//! `cargo bench --no-default-features --features record-codec --bench record_decode -- --warm-up-time 1 --measurement-time 3`;
//! the locating group alone, ratios printed last:
//! `cargo bench --no-default-features --features record-codec --bench record_decode -- record_locate --warm-up-time 0.5 --measurement-time 2`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::SystemTime;

use agent_interface::agent_core::Value;
use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::session::records::{InteractiveSessionRecord, SessionRecordDecodeOutcome};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};

#[path = "common/bench_record.rs"]
mod bench_record;

use bench_record::{ID, TARGET_BYTES, bench_record};

/// A valid stored record of about [`TARGET_BYTES`] (never less).
fn stored_record() -> Vec<u8> {
    encode_session_record(&bench_record()).expect("the bench record encodes")
}

fn bench(c: &mut Criterion) {
    let bytes = stored_record();
    assert!(
        matches!(
            decode_session_record(&bytes, ID),
            SessionRecordDecodeOutcome::Valid { .. }
        ),
        "the bench record must decode as valid"
    );
    assert!(matches!(
        decode_session_record(&bytes, "sess-other"),
        SessionRecordDecodeOutcome::Corrupt { .. }
    ));
    let value: Value = serde_json::from_slice(&bytes).expect("JSON");
    let record_bytes = serde_json::to_vec(&value["record"]).expect("encodes");
    eprintln!(
        "record_decode: stored record of {} bytes, {} messages",
        bytes.len(),
        value["record"]["messages"].as_array().map_or(0, Vec::len)
    );

    let mut group = c.benchmark_group("record_decode");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("decode_session_record", |b| {
        b.iter(|| decode_session_record(black_box(&bytes), black_box(ID)))
    });
    group.bench_function("serde_json_value", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(&bytes)).expect("JSON"))
    });
    group.bench_function("decode_session_record_wrong_id", |b| {
        b.iter(|| decode_session_record(black_box(&bytes), black_box("sess-other")))
    });
    group.bench_function("serde_json_typed_record", |b| {
        b.iter(|| {
            serde_json::from_slice::<InteractiveSessionRecord>(black_box(&record_bytes))
                .expect("a record")
        })
    });
    group.finish();
}

// ---- the locating path on crafted corrupt records ------------------------------------------

/// The stored envelope of a record `ID` whose members besides the required ones are `members`
/// (JSON text, without braces).
fn envelope_with(members: &str) -> Vec<u8> {
    format!(
        r#"{{"schemaVersion":1,"record":{{"id":"{ID}","cwd":"/work/app","createdAt":"2026-09-24T10:00:00Z","updatedAt":"2026-09-24T12:00:00Z",{members}}}}}"#
    )
    .into_bytes()
}

/// `count` JSON texts made by `item`, comma-separated, as many as reach `bytes` in total.
fn fill(bytes: usize, item: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    let mut index = 0;
    while out.len() < bytes {
        if index > 0 {
            out.push(',');
        }
        out.push_str(&item(index));
        index += 1;
    }
    out
}

/// A user message `m{index}` whose text parts fill `bytes`, the last one's `text` a number.
fn message_broken_deep(index: usize, bytes: usize) -> String {
    let parts = fill(bytes, |part| {
        format!(r#"{{"type":"text","text":"part {part} of message {index}: some words of text"}}"#)
    });
    format!(
        r#"{{"role":"user","id":"m{index}","timestamp":"2026-09-24T10:00:00Z","state":"complete","content":"see the parts","parts":[{parts},{{"type":"text","text":7}}]}}"#
    )
}

/// The valid bench record as a JSON value, for the cases that break it.
fn bench_value() -> Value {
    serde_json::from_slice(&stored_record()).expect("JSON")
}

/// The crafted corrupt records of about [`TARGET_BYTES`] each, with the id each is decoded
/// under: what makes the locating path work hardest.
///
/// - `wrong_id`: the valid bench record under another id (nothing to narrow, every member
///   decoded);
/// - `last_message_broken`: the bench record, its last message's last tool call broken;
/// - `every_element_broken`: the bench record with every message and history entry broken
///   (a timestamp, a tool call's function name deep inside, a content), thousands of issues;
/// - `large_elements_broken_deep`: 16 messages of 64 KiB, each with its last part broken;
/// - `one_huge_element`: one message of 1 MiB of parts, the last one broken;
/// - `huge_goal_broken_late`: a goal (plain structs, no buffering enum) with 1 MiB of progress
///   entries, the last one broken;
/// - `many_members`: 16 messages of 64 KiB, each with 60 unknown members and a broken
///   timestamp (one trial per member);
/// - `deep_nesting`: small messages whose part and metadata nest as deep as the default read
///   limit allows (31 and 30 levels of the document);
/// - `tiny_nodes`: 16 messages whose metadata is an array of 30 000 zeros, each with a broken
///   timestamp (many nodes for few bytes);
/// - `many_small_broken`: 20 000 history entries of 60 bytes, each broken;
/// - `empty_objects`: 350 000 messages that are each `{}`, each an issue;
/// - `many_broken_members`: the record's `name` written 60 000 times as a number, with an
///   unknown member before each;
/// - `late_breaks_after_valid`: 4/5 of valid messages heavy to decode (4096 zeros of metadata
///   each), then 1/5 of broken ones: the fast path decodes far before it gives up, and the
///   narrowing has many issues to spend its budget on;
/// - `heavy_last_broken`: 1 MiB of valid messages holding 4096 empty objects of metadata each
///   (the dearest content to decode for its size), the last message broken;
/// - `heavy_late_breaks`: the same messages, the last fifth of them broken.
fn crafted() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let mut cases = Vec::new();
    let valid = stored_record();
    cases.push(("wrong_id", valid, "sess-other"));

    let mut value = bench_value();
    let last = value["record"]["messages"]
        .as_array_mut()
        .and_then(|messages| messages.iter_mut().rev().find(|m| m["role"] == "assistant"))
        .expect("an assistant message");
    last["toolCalls"][1]["function"]["name"] = Value::from(5);
    cases.push((
        "last_message_broken",
        serde_json::to_vec(&value).expect("encodes"),
        ID,
    ));

    let mut value = bench_value();
    for (index, message) in value["record"]["messages"]
        .as_array_mut()
        .expect("messages")
        .iter_mut()
        .enumerate()
    {
        if message["role"] == "assistant" {
            message["toolCalls"][1]["function"]["name"] = Value::from(5);
        } else if index % 2 == 0 {
            message["timestamp"] = Value::from(5);
        } else {
            message["state"] = Value::from("halfway");
        }
    }
    for entry in value["record"]["history"]
        .as_array_mut()
        .expect("history")
        .iter_mut()
    {
        entry["category"] = Value::from(5);
    }
    cases.push((
        "every_element_broken",
        serde_json::to_vec(&value).expect("encodes"),
        ID,
    ));

    let messages = fill(TARGET_BYTES, |index| {
        message_broken_deep(index, TARGET_BYTES / 16)
    });
    cases.push((
        "large_elements_broken_deep",
        envelope_with(&format!(r#""messages":[{messages}]"#)),
        ID,
    ));

    let message = message_broken_deep(0, TARGET_BYTES);
    cases.push((
        "one_huge_element",
        envelope_with(&format!(r#""messages":[{message}]"#)),
        ID,
    ));

    let progress = fill(TARGET_BYTES, |iteration| {
        format!(r#"{{"iteration":{iteration},"signal":"continue","reason":"3 tests fail"}}"#)
    });
    cases.push((
        "huge_goal_broken_late",
        envelope_with(&format!(
            r#""messages":[],"goal":{{"id":"goal-1","objective":"Pass the tests","status":"active","iterations":1,"maxIterations":25,"startedAt":"2026-09-24T10:00:00Z","progress":[{progress},{{"iteration":-1,"signal":"continue","reason":"late"}}]}}"#
        )),
        ID,
    ));

    let messages = fill(TARGET_BYTES, |index| {
        let members = fill(TARGET_BYTES / 16, |member| {
            format!(
                r#""x-{member}":"{}""#,
                "unknown member kept as it is; ".repeat(38)
            )
        });
        format!(
            r#"{{"role":"user","id":"m{index}","timestamp":5,"state":"complete","content":"hi",{members}}}"#
        )
    });
    cases.push((
        "many_members",
        envelope_with(&format!(r#""messages":[{messages}]"#)),
        ID,
    ));

    let messages = fill(TARGET_BYTES, |index| {
        // As deep as the default read limit lets a message's parts and metadata nest.
        let deep = format!("{}1{}", "[".repeat(26), "]".repeat(26));
        let metadata = format!("{}1{}", r#"{"a":"#.repeat(25), "}".repeat(25));
        format!(
            r#"{{"role":"user","id":"m{index}","timestamp":"2026-09-24T10:00:00Z","state":"complete","content":"hi","metadata":{{"m":{metadata}}},"parts":[{deep}]}}"#
        )
    });
    cases.push((
        "deep_nesting",
        envelope_with(&format!(r#""messages":[{messages}]"#)),
        ID,
    ));

    let messages = fill(TARGET_BYTES, |index| {
        let zeros = fill(TARGET_BYTES / 16, |_| String::from("0"));
        format!(
            r#"{{"role":"user","id":"m{index}","timestamp":5,"state":"complete","content":"hi","metadata":{{"n":[{zeros}]}}}}"#
        )
    });
    cases.push((
        "tiny_nodes",
        envelope_with(&format!(r#""messages":[{messages}]"#)),
        ID,
    ));

    let history = fill(TARGET_BYTES, |index| {
        format!(r#"{{"id":"h{index}","timestamp":5,"category":"chat","type":"user"}}"#)
    });
    cases.push((
        "many_small_broken",
        envelope_with(&format!(r#""messages":[],"history":[{history}]"#)),
        ID,
    ));
    // Every message an empty object, each an issue: the cheapest elements to parse.
    let empty = fill(TARGET_BYTES, |_| String::from("{}"));
    cases.push((
        "empty_objects",
        envelope_with(&format!(r#""messages":[{empty}]"#)),
        ID,
    ));
    // Many members of the record itself, each declared one broken (`name` repeated as a
    // number, unknown members between).
    let members = fill(TARGET_BYTES, |index| {
        format!(r#""x-{index}":1,"name":{index}"#)
    });
    cases.push((
        "many_broken_members",
        envelope_with(&format!(r#""messages":[],{members}"#)),
        ID,
    ));

    let heavy = |index: usize, timestamp: &str| {
        let zeros = fill(4096, |_| String::from("0"));
        format!(
            r#"{{"role":"user","id":"m{index}","timestamp":{timestamp},"state":"complete","content":"hi","metadata":{{"n":[{zeros}]}}}}"#
        )
    };
    let valid = fill(TARGET_BYTES / 5 * 4, |index| {
        heavy(index, r#""2026-09-24T10:00:00Z""#)
    });
    let broken = fill(TARGET_BYTES / 5, |index| heavy(index, "5"));
    cases.push((
        "late_breaks_after_valid",
        envelope_with(&format!(r#""messages":[{valid},{broken}]"#)),
        ID,
    ));
    // Messages whose metadata holds 4096 empty objects: cheap to parse, dear to decode (the
    // message is buffered for its tag and its flattened base, the metadata rebuilt as a value).
    let objects = |index: usize, timestamp: &str| {
        let objects = fill(4096, |_| String::from("{}"));
        format!(
            r#"{{"role":"user","id":"m{index}","timestamp":{timestamp},"state":"complete","content":"hi","metadata":{{"o":[{objects}]}}}}"#
        )
    };
    let valid = fill(TARGET_BYTES, |index| {
        objects(index, r#""2026-09-24T10:00:00Z""#)
    });
    cases.push((
        "heavy_last_broken",
        envelope_with(&format!(
            r#""messages":[{valid},{}]"#,
            objects(usize::MAX, "5")
        )),
        ID,
    ));
    let valid = fill(TARGET_BYTES / 5 * 4, |index| {
        objects(index, r#""2026-09-24T10:00:00Z""#)
    });
    let broken = fill(TARGET_BYTES / 5, |index| objects(index, "5"));
    cases.push((
        "heavy_late_breaks",
        envelope_with(&format!(r#""messages":[{valid},{broken}]"#)),
        ID,
    ));
    assert!(
        cases.iter().map(|case| case.0).eq(CRAFTED),
        "CRAFTED names the cases in order"
    );
    cases
}

/// The names of the [`crafted`] cases, in order.
const CRAFTED: [&str; 15] = [
    "wrong_id",
    "last_message_broken",
    "every_element_broken",
    "large_elements_broken_deep",
    "one_huge_element",
    "huge_goal_broken_late",
    "many_members",
    "deep_nesting",
    "tiny_nodes",
    "many_small_broken",
    "empty_objects",
    "many_broken_members",
    "late_breaks_after_valid",
    "heavy_last_broken",
    "heavy_late_breaks",
];

fn bench_locate(c: &mut Criterion) {
    let mut group = c.benchmark_group("record_locate");
    group.sample_size(10);
    for (name, bytes, id) in crafted() {
        let outcome = decode_session_record(&bytes, id);
        let SessionRecordDecodeOutcome::Corrupt { issues, .. } = &outcome else {
            panic!("the crafted record {name} must decode as corrupt");
        };
        eprintln!(
            "record_locate/{name}: {} bytes, {} issues, first at {}, last at {}",
            bytes.len(),
            issues.len(),
            issues[0].path,
            issues[issues.len() - 1].path
        );
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(BenchmarkId::new("serde_json_value", name), |b| {
            b.iter(|| serde_json::from_slice::<Value>(black_box(&bytes)).expect("JSON"))
        });
        group.bench_function(BenchmarkId::new("decode_session_record", name), |b| {
            b.iter(|| decode_session_record(black_box(&bytes), black_box(id)))
        });
    }
    group.finish();
}

/// Where criterion keeps its estimates (as criterion itself decides it).
fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    target.join("criterion")
}

/// The mean of one benchmark, when this run (started at `since`) measured it.
fn mean_seconds(function: &str, input: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_home()
        .join("record_locate")
        .join(function)
        .join(input)
        .join("new")
        .join("estimates.json");
    let fresh = std::fs::metadata(&path).ok()?.modified().ok()? >= since;
    let estimates: Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    let nanos = estimates["mean"]["point_estimate"].as_f64()?;
    fresh.then_some(nanos / 1e9)
}

/// Prints, for every crafted input measured in this run, the decoder's time over the parse's;
/// with `RECORD_LOCATE_MAX_RATIO`, exits with 1 when one is above it.
fn report_ratios(since: SystemTime) {
    let limit: Option<f64> = std::env::var("RECORD_LOCATE_MAX_RATIO")
        .ok()
        .and_then(|limit| limit.parse().ok());
    let mut over = Vec::new();
    let mut printed = false;
    for name in CRAFTED {
        let (Some(parse), Some(decode)) = (
            mean_seconds("serde_json_value", name, since),
            mean_seconds("decode_session_record", name, since),
        ) else {
            continue;
        };
        if !printed {
            println!(
                "\nrecord_locate ratios (decode_session_record / serde_json_value, this run):"
            );
            printed = true;
        }
        let ratio = decode / parse;
        println!(
            "  {name:<28} {ratio:>8.2}x   ({:.2} ms / {:.2} ms)",
            decode * 1e3,
            parse * 1e3
        );
        if limit.is_some_and(|limit| ratio > limit) {
            over.push(name);
        }
    }
    if let (Some(limit), false) = (limit, over.is_empty()) {
        println!("record_locate: above {limit}x: {over:?}");
        std::process::exit(1);
    }
}

criterion_group!(benches, bench, bench_locate);

fn main() {
    let since = SystemTime::now();
    benches();
    Criterion::default().configure_from_args().final_summary();
    report_ratios(since);
}

//! The work of locating a corrupt record's problems is linear in the record: on crafted corrupt
//! records (the worst inputs for locating the issues of `decode_session_record`), the decoder
//! asks for at most [`LIMIT`] times the bytes of allocations a parse of the same bytes into a
//! `Value` asks for.
//!
//! Allocations are measured, not timed: the measure is deterministic where a clock on a shared
//! machine is not, and every trial decode of the narrowing allocates in proportion to the
//! value it decodes (buffered enums, strings, lists), so the bytes follow its work. Bytes, not
//! the count: a parse of `[{},{},…]` makes no allocation per element (an empty map allocates
//! nothing) while a refused element makes its error, so a count would compare work with
//! nothing; the count is printed beside. The timed counterpart is the `record_locate` group of
//! `hosted/benches/record_decode.rs`, with the same shapes.
//!
//! Host only, like the other allocation tests.
#![cfg(not(any(target_family = "wasm", target_os = "none")))]

use agent_interface::agent_core::Value;
use agent_interface::runtime::record_codec::decode_session_record;
use agent_interface::session::records::SessionRecordDecodeOutcome;

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use counting_allocator::allocated_in;

/// The most bytes of allocations a decode may ask for, as a multiple of the parse's.
const LIMIT: usize = 5;

/// The size of each crafted record.
const BYTES: usize = 128 * 1024;

const ID: &str = "sess-work";

/// The stored envelope of a record [`ID`] with `members` besides the required ones.
fn envelope(members: &str) -> Vec<u8> {
    format!(
        r#"{{"schemaVersion":1,"record":{{"id":"{ID}","cwd":"/work/app","createdAt":"t","updatedAt":"t",{members}}}}}"#
    )
    .into_bytes()
}

/// Items made by `item`, comma-separated, as many as reach `bytes`.
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

/// A user message whose text parts fill `bytes`, the last part's `text` a number.
fn broken_deep(index: usize, bytes: usize) -> String {
    let parts = fill(bytes, |part| {
        format!(r#"{{"type":"text","text":"part {part} of message {index}"}}"#)
    });
    format!(
        r#"{{"role":"user","id":"m{index}","timestamp":"t","state":"complete","content":"c","parts":[{parts},{{"type":"text","text":7}}]}}"#
    )
}

/// A user message with `metadata` (JSON text) and `timestamp` (JSON text).
fn message(index: usize, timestamp: &str, metadata: &str) -> String {
    format!(
        r#"{{"role":"user","id":"m{index}","timestamp":{timestamp},"state":"complete","content":"hi","metadata":{metadata}}}"#
    )
}

/// The crafted corrupt records (see the `record_locate` bench for what each stresses).
fn crafted() -> Vec<(&'static str, Vec<u8>)> {
    let zeros = |bytes| format!(r#"{{"n":[{}]}}"#, fill(bytes, |_| String::from("0")));
    let objects = format!(r#"{{"o":[{}]}}"#, fill(2048, |_| String::from("{}")));
    // As deep as the default read limit lets a message's parts nest.
    let deep = format!("{}1{}", "[".repeat(26), "]".repeat(26));
    vec![
        (
            "large_elements_broken_deep",
            envelope(&format!(
                r#""messages":[{}]"#,
                fill(BYTES, |index| broken_deep(index, BYTES / 16))
            )),
        ),
        (
            "one_huge_element",
            envelope(&format!(r#""messages":[{}]"#, broken_deep(0, BYTES))),
        ),
        (
            "huge_goal_broken_late",
            envelope(&format!(
                r#""messages":[],"goal":{{"id":"g","objective":"o","status":"active","iterations":1,"maxIterations":25,"startedAt":"t","progress":[{},{{"iteration":-1,"signal":"continue","reason":"late"}}]}}"#,
                fill(BYTES, |iteration| format!(
                    r#"{{"iteration":{iteration},"signal":"continue","reason":"3 tests fail"}}"#
                ))
            )),
        ),
        (
            "many_members",
            envelope(&format!(
                r#""messages":[{}]"#,
                fill(BYTES, |index| {
                    let members = fill(BYTES / 16, |member| {
                        format!(r#""x-{member}":"{}""#, "kept as it is; ".repeat(9))
                    });
                    format!(
                        r#"{{"role":"user","id":"m{index}","timestamp":5,"state":"complete","content":"hi",{members}}}"#
                    )
                })
            )),
        ),
        (
            "deep_nesting",
            envelope(&format!(
                r#""messages":[{}]"#,
                fill(BYTES, |index| format!(
                    r#"{{"role":"user","id":"m{index}","timestamp":"t","state":"complete","content":"hi","parts":[{deep}]}}"#
                ))
            )),
        ),
        (
            "tiny_nodes",
            envelope(&format!(
                r#""messages":[{}]"#,
                fill(BYTES, |index| message(index, "5", &zeros(BYTES / 16)))
            )),
        ),
        (
            "every_element_broken",
            envelope(&format!(
                r#""messages":[{}]"#,
                fill(BYTES, |index| message(index, "5", r#"{"k":"v"}"#))
            )),
        ),
        (
            "empty_objects",
            envelope(&format!(
                r#""messages":[{}]"#,
                fill(BYTES, |_| String::from("{}"))
            )),
        ),
        (
            "many_broken_members",
            envelope(&fill(BYTES, |index| {
                format!(r#""x-{index}":1,"name":{index}"#)
            })),
        ),
        (
            "many_small_broken",
            envelope(&format!(
                r#""messages":[],"history":[{}]"#,
                fill(BYTES, |index| format!(
                    r#"{{"id":"h{index}","timestamp":5,"category":"chat","type":"user"}}"#
                ))
            )),
        ),
        (
            "late_breaks_after_valid",
            envelope(&format!(
                r#""messages":[{},{}]"#,
                fill(BYTES / 5 * 4, |index| message(
                    index,
                    r#""t""#,
                    &zeros(2048)
                )),
                fill(BYTES / 5, |index| message(index, "5", &zeros(2048)))
            )),
        ),
        (
            "heavy_last_broken",
            envelope(&format!(
                r#""messages":[{},{}]"#,
                fill(BYTES, |index| message(index, r#""t""#, &objects)),
                message(0, "5", &objects)
            )),
        ),
        (
            "heavy_late_breaks",
            envelope(&format!(
                r#""messages":[{},{}]"#,
                fill(BYTES / 5 * 4, |index| message(index, r#""t""#, &objects)),
                fill(BYTES / 5, |index| message(index, "5", &objects))
            )),
        ),
    ]
}

#[test]
fn locating_a_crafted_corrupt_record_allocates_linearly() {
    let mut over = Vec::new();
    for (name, bytes) in crafted() {
        let (parse_count, parse) = allocated_in(|| {
            serde_json::from_slice::<Value>(&bytes).expect("JSON");
        });
        let mut outcome = None;
        let (decode_count, decode) =
            allocated_in(|| outcome = Some(decode_session_record(&bytes, ID)));
        assert!(
            matches!(outcome, Some(SessionRecordDecodeOutcome::Corrupt { .. })),
            "{name} must decode as corrupt"
        );
        println!(
            "{name}: {} bytes; {decode} bytes allocated against {parse} for the parse ({:.2}x); \
             {decode_count} allocations against {parse_count}",
            bytes.len(),
            decode as f64 / parse.max(1) as f64
        );
        if decode > LIMIT * parse {
            over.push(name);
        }
    }
    assert!(
        over.is_empty(),
        "locating allocates more than {LIMIT}x the bytes the parse does on {over:?}"
    );
}

/// Late breaks, and members and records repeated before and after a break (one spelt with an
/// escape): the decoder reads every member from its own text, the last of a repeated name, and
/// answers what a parse answers: the issues of the record's own `Deserialize` over the parsed
/// record (which reads the last occurrence, members sorted).
#[test]
fn repeats_and_late_breaks_answer_what_a_parse_answers() {
    use agent_interface::session::records::InteractiveSessionRecord;

    let good = |index: usize| message(index, r#""t""#, "{}");
    let bad = |index: usize| message(index, "5", "{}");
    let members = |members: &str| {
        format!(r#"{{"id":"{ID}","cwd":"/w","createdAt":"t","updatedAt":"t",{members}}}"#)
    };
    let list = |items: &[String]| items.join(",");
    let cases = [
        // A late break, after valid elements.
        envelope(&format!(
            r#""messages":[{}]"#,
            list(&[good(0), good(1), bad(2), good(3), bad(4)])
        )),
        // The list repeated: the first occurrence broke, the last one is what counts.
        envelope(&format!(
            r#""messages":[{}],"name":"n","messages":[{}]"#,
            list(&[good(0), good(1), bad(2)]),
            list(&[bad(0), good(1), bad(2), bad(3)])
        )),
        // The same, the repeat spelt with an escape.
        envelope(&format!(
            r#""messages":[{}],"mess\u0061ges":[{}]"#,
            list(&[good(0), bad(1)]),
            list(&[bad(0), bad(1)])
        )),
        // A member decoded whole, repeated after the break.
        envelope(&format!(
            r#""goal":null,"messages":[{}],"goal":{{"id":"g"}}"#,
            list(&[good(0), bad(1)])
        )),
        // The record repeated in the envelope.
        format!(
            r#"{{"schemaVersion":1,"record":{},"record":{}}}"#,
            members(&format!(r#""messages":[{}]"#, list(&[good(0), bad(1)]))),
            members(&format!(r#""messages":[{}]"#, list(&[bad(0), bad(1)])))
        )
        .into_bytes(),
        // A required member missing after every member decoded; a wrong id besides.
        format!(
            r#"{{"schemaVersion":1,"record":{{"id":"other","cwd":"/w","createdAt":"t","messages":[{}]}}}}"#,
            good(0)
        )
        .into_bytes(),
        // A field repeated in a message (a derived decoder refuses it): valid, the last counts.
        envelope(&format!(
            r#""messages":[{},{}]"#,
            good(0),
            r#"{"role":"user","id":"m1","id":"m2","timestamp":"t","state":"complete","content":"c"}"#
        )),
    ];
    for bytes in cases {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let decoded = decode_session_record(&bytes, ID);
        let document: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        let by_a_parse =
            <InteractiveSessionRecord as serde::Deserialize>::deserialize(&document["record"]);
        match (&decoded, by_a_parse) {
            (SessionRecordDecodeOutcome::Valid { record }, Ok(expected)) => {
                assert!(**record == expected, "{text}");
            }
            (SessionRecordDecodeOutcome::Corrupt { issues, .. }, Err(error)) => {
                let rendered: Vec<String> = issues
                    .iter()
                    .filter(|issue| !issue.message.starts_with("the record's id"))
                    .map(|issue| {
                        let path = issue.path.strip_prefix("record.").unwrap_or(&issue.path);
                        format!("{path}: {}", issue.message)
                    })
                    .collect();
                assert_eq!(rendered.join("; "), error.to_string(), "{text}");
            }
            (decoded, expected) => panic!("{text}: {decoded:?} against {expected:?}"),
        }
    }
}

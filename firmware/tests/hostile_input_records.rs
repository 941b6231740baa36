//! Hostile stored records on the LM3S6965 (64 KiB SRAM: a 40 KiB heap, about 24 KiB of stack):
//! the `session_decode` fuzz reproducers replayed through `decode_session_record`, and crafted
//! worst cases: nesting at the default bound, one past it and 1000 deep; about 8 KiB of
//! `"messages":[{},{},…]`; 8 KiB of messages with every member broken; one valid message, then
//! 8 KiB of one-byte elements or of commas; a 6 KiB wrong `id`;
//! strings of about 8 KiB where a list, an object, a record or a name is, and long unknown roles.
//! Each case checks the outcome (corrupt for bad input, with a bounded list of issues and
//! bounded echoes) and runs within a stack and heap budget.
#![no_std]
#![no_main]

extern crate alloc;

#[path = "hostile/mod.rs"]
mod hostile;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::session::records::{SessionRecordDecodeIssue, SessionRecordDecodeOutcome};
use hostile::{AT, DEEP, ECHO, HEAP, ISSUES, PAST, STACK, TOO_DEEP, nested, regressions};

/// A record stored under `sess-2` with `members` after its own (each starting with a comma).
fn record(members: &str) -> String {
    format!(
        r#"{{"schemaVersion":1,"record":{{"id":"sess-2","cwd":"/a","createdAt":"t","updatedAt":"t","messages":[]{members}}}}}"#
    )
}

/// The issues of a corrupt outcome; anything else fails the case.
fn corrupt(outcome: SessionRecordDecodeOutcome) -> Vec<SessionRecordDecodeIssue> {
    match outcome {
        SessionRecordDecodeOutcome::Corrupt { issues, .. } => {
            assert!(!issues.is_empty(), "a corrupt outcome without an issue");
            assert!(issues.len() <= ISSUES + 1, "{} issues listed", issues.len());
            for issue in &issues {
                // A message is a sentence around at most one echoed value.
                assert!(
                    issue.message.len() <= ECHO + 256 && issue.path.len() <= ECHO + 256,
                    "an issue {} + {} bytes long",
                    issue.path.len(),
                    issue.message.len()
                );
            }
            issues
        }
        other => panic!("corrupt, not {:?}", other.status()),
    }
}

// ---------------------------------------------------------------- fuzz reproducers

/// `session_decode`: `<stored id> NUL <bytes>` (or just the bytes, under `sess-2`). A corrupt
/// outcome has issues; a valid record has the stored id and round-trips through its encoding.
fn regressions_session_decode() {
    for (name, data) in regressions("session_decode") {
        let (id, bytes) = match data.iter().take(130).position(|&b| b == 0) {
            Some(at) => (
                String::from_utf8_lossy(&data[..at]).into_owned(),
                &data[at + 1..],
            ),
            None => (String::from("sess-2"), data),
        };
        let outcome = decode_session_record(bytes, &id);
        match &outcome {
            SessionRecordDecodeOutcome::Valid { record } => {
                assert_eq!(record.id, id, "{name}: valid under another id");
                let encoded = encode_session_record(record).expect("a decoded record encodes");
                assert_eq!(
                    decode_session_record(&encoded, &id),
                    outcome,
                    "{name}: round trip"
                );
            }
            SessionRecordDecodeOutcome::Corrupt { issues, .. } => {
                assert!(!issues.is_empty(), "{name}: corrupt without an issue");
            }
            SessionRecordDecodeOutcome::Unsupported { .. } => {}
        }
    }
}

// ---------------------------------------------------------------- nesting

/// A record whose unknown member `extra` holds arrays so that the text nests `depth` deep (the
/// envelope and the record are the first two levels).
fn deep_extra(depth: usize) -> Vec<u8> {
    let head = record(r#","extra":"#);
    let head = head.strip_suffix("}}").expect("the record's end");
    nested(head, depth - 2, "}}")
}

fn unknown_member_at_the_bound() {
    let outcome = decode_session_record(&deep_extra(AT), "sess-2");
    assert!(
        matches!(outcome, SessionRecordDecodeOutcome::Valid { .. }),
        "{:?}",
        outcome.status()
    );
}

fn unknown_member_one_past_the_bound() {
    assert_too_deep(
        &corrupt(decode_session_record(&deep_extra(PAST), "sess-2")),
        "record.extra",
    );
}

fn unknown_member_1000_deep() {
    assert_too_deep(
        &corrupt(decode_session_record(&deep_extra(DEEP), "sess-2")),
        "record.extra",
    );
}

/// Nesting 1000 deep before the record's `cwd`: after the bound's refusal, the best-effort
/// `cwd` scan reads the same bytes, and must give up within the stack budget too.
fn deep_before_the_cwd() {
    let text = nested(
        r#"{"schemaVersion":1,"record":{"extra":"#,
        DEEP,
        r#","id":"sess-2","cwd":"/a"}}"#,
    );
    let outcome = decode_session_record(&text, "sess-2");
    let SessionRecordDecodeOutcome::Corrupt { issues, .. } = &outcome else {
        panic!("corrupt, not {:?}", outcome.status());
    };
    assert_too_deep(issues, "record.extra");
}

/// One of `issues` is the bound's, located under `path`.
fn assert_too_deep(issues: &[SessionRecordDecodeIssue], path: &str) {
    let found = issues.iter().find(|issue| issue.message.contains(TOO_DEEP));
    let issue = found.unwrap_or_else(|| panic!("no issue names the nesting bound: {issues:?}"));
    assert!(
        issue.path.starts_with(path),
        "the bound's issue at {}",
        issue.path
    );
}

/// A record whose one message's `content` nests the text `depth` deep (envelope, record,
/// messages and message are the first four levels): never valid content.
fn deep_content(depth: usize) -> Vec<u8> {
    let head = r#"{"schemaVersion":1,"record":{"id":"sess-2","cwd":"/a","createdAt":"t","updatedAt":"t","messages":[{"role":"user","id":"m1","timestamp":"t","state":"complete","content":"#;
    nested(head, depth - 4, "}]}}")
}

fn message_content_at_the_bound() {
    corrupt(decode_session_record(&deep_content(AT), "sess-2"));
}

fn message_content_one_past_the_bound() {
    let issues = corrupt(decode_session_record(&deep_content(PAST), "sess-2"));
    assert_too_deep(&issues, "record.messages[0].content");
}

fn message_content_1000_deep() {
    let issues = corrupt(decode_session_record(&deep_content(DEEP), "sess-2"));
    assert_too_deep(&issues, "record.messages[0].content");
}

// ---------------------------------------------------------------- size

/// A record of about `bytes` bytes whose messages are `count` copies of `message`.
fn many_messages(message: &str, bytes: usize) -> String {
    // Room for the whole text up front: the case holds one copy of its bytes, not a grown one.
    let mut text = String::with_capacity(bytes);
    text.push_str(
        r#"{"schemaVersion":1,"record":{"id":"sess-2","cwd":"/a","createdAt":"t","updatedAt":"t","messages":["#,
    );
    let mut first = true;
    while text.len() + message.len() + 4 < bytes {
        if !first {
            text.push(',');
        }
        first = false;
        text.push_str(message);
    }
    text.push_str("]}}");
    text
}

fn eight_kib_of_empty_messages() {
    let text = many_messages("{}", 8 * 1024);
    assert!(text.len() > 8000);
    let issues = corrupt(decode_session_record(text.as_bytes(), "sess-2"));
    assert_capped(&issues);
}

/// `issues` are the first [`ISSUES`] (from the first message on), then one that counts the
/// rest.
fn assert_capped(issues: &[SessionRecordDecodeIssue]) {
    assert!(
        issues[0].path.starts_with("record.messages[0]"),
        "{}",
        issues[0].path
    );
    assert_eq!(
        issues.len(),
        ISSUES + 1,
        "the first issues, then the count of the rest"
    );
    let last = &issues[ISSUES].message;
    assert!(
        last.contains("more issues not listed"),
        "the last issue: {last}"
    );
}

/// A record of about 8 KiB whose messages are one valid message, then `filler` (a byte or two
/// each) until the size: elements no message decodes from, or commas with no element between.
fn one_message_then(filler: &str) -> String {
    let mut text = String::with_capacity(8 * 1024);
    text.push_str(
        r#"{"schemaVersion":1,"record":{"id":"sess-2","cwd":"/a","createdAt":"t","updatedAt":"t","messages":[{"role":"user","id":"m1","timestamp":"t","state":"complete","content":"hi"}"#,
    );
    while text.len() + filler.len() + 3 <= 8 * 1024 {
        text.push_str(filler);
    }
    text.push_str("]}}");
    text
}

/// A list is sized once by the elements its text holds; a byte or two of text each must not
/// size it at a decoded message each (a reservation the heap cannot give aborts the board).
fn one_message_then_8_kib_of_scalars() {
    let text = one_message_then(",1");
    assert!(text.len() > 8000);
    assert_capped_from(
        &corrupt(decode_session_record(text.as_bytes(), "sess-2")),
        1,
    );
}

fn one_message_then_8_kib_of_commas() {
    let text = one_message_then(",");
    assert!(text.len() > 8000);
    // Not JSON: one issue, at the document.
    let issues = corrupt(decode_session_record(text.as_bytes(), "sess-2"));
    assert_eq!(issues.len(), 1, "{issues:?}");
}

/// `issues` are the first [`ISSUES`] from message `first` on, then one that counts the rest.
fn assert_capped_from(issues: &[SessionRecordDecodeIssue], first: usize) {
    let path = format!("record.messages[{first}]");
    assert!(issues[0].path.starts_with(&path), "{}", issues[0].path);
    assert_eq!(issues.len(), ISSUES + 1);
}

fn eight_kib_of_broken_members() {
    let message = r#"{"role":"user","id":1,"timestamp":2,"state":3,"content":4,"x":[5]}"#;
    let text = many_messages(message, 8 * 1024);
    let issues = corrupt(decode_session_record(text.as_bytes(), "sess-2"));
    assert_capped(&issues);
}

fn six_kib_wrong_id() {
    // Built in place, so that the case holds one copy of the text while it is decoded.
    let (head, tail) = r#"{"schemaVersion":1,"record":{"id":"|","cwd":"/a","createdAt":"t","updatedAt":"t","messages":[]}}"#
        .split_once('|')
        .expect("the id's place");
    let mut text = String::with_capacity(head.len() + 6 * 1024 + tail.len());
    text.push_str(head);
    text.extend(core::iter::repeat_n('x', 6 * 1024));
    text.push_str(tail);
    let issues = corrupt(decode_session_record(text.as_bytes(), "sess-2"));
    assert!(
        issues.iter().any(|issue| issue.path == "record.id"),
        "{issues:?}"
    );
}

/// A record of about `bytes` bytes whose `count` messages each have a `role` literal that no
/// role has, as long as fits: every message fails with serde's message quoting the whole
/// literal, and its names are not in canonical order, so each failure is decoded twice.
fn long_literals(count: usize, bytes: usize) {
    let (head, tail) = (
        r#"{"role":""#,
        r#"","id":"m","timestamp":"t","state":"complete","content":"c"}"#,
    );
    let room = (bytes - 200) / count - head.len() - tail.len() - 1;
    // Built in place, so that the case holds one copy of the text while it is decoded.
    let mut text = String::with_capacity(bytes);
    text.push_str(
        r#"{"schemaVersion":1,"record":{"id":"sess-2","cwd":"/a","createdAt":"t","updatedAt":"t","messages":["#,
    );
    for at in 0..count {
        if at > 0 {
            text.push(',');
        }
        text.push_str(head);
        text.extend(core::iter::repeat_n('r', room));
        text.push_str(tail);
    }
    text.push_str("]}}");
    assert!(
        text.len() + 200 > bytes && text.len() <= bytes,
        "{}",
        text.len()
    );
    let issues = corrupt(decode_session_record(text.as_bytes(), "sess-2"));
    let last = format!("record.messages[{}]", count - 1);
    assert!(
        issues.iter().any(|issue| issue.path.starts_with(&last)
            && issue.message.contains(&format!("{room} bytes"))),
        "{issues:?}"
    );
}

/// `head`, a string of `r`s, `tail`, in about `bytes` bytes, built in place.
fn long_string(head: &str, tail: &str, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes);
    text.push_str(head);
    text.push('"');
    text.extend(core::iter::repeat_n(
        'r',
        bytes - head.len() - tail.len() - 2,
    ));
    text.push('"');
    text.push_str(tail);
    text
}

/// Strings of about 8 KiB where an array, an object or an envelope belongs: each is cut in its
/// issue and states its length, and is never copied whole into a message.
fn long_strings_where_values_belong() {
    const RECORD: &str = r#"{"schemaVersion":1,"record":{"id":"sess-2","cwd":"/a","createdAt":"t","updatedAt":"t","messages":"#;
    const MESSAGE: &str =
        r#"{"role":"user","id":"m","timestamp":"t","state":"complete","content":"#;
    // The text before and after the string, the issue's path, and whether the message quotes
    // the string (cut, stating its length).
    let cases: [(String, &str, &str, bool); 7] = [
        (String::from(RECORD), "}}", "record.messages", true),
        (format!(r#"{RECORD}[],"goal":"#), "}}", "record.goal", true),
        (format!("{RECORD}["), "]}}", "record.messages[0]", true),
        // Deep in a message whose name repeats (read in its canonical form), and as a name.
        (
            format!(r#"{RECORD}[{{"role":"user",{}{{"x":"#, &MESSAGE[1..]),
            "}}]}}",
            "record.messages[0]",
            false,
        ),
        (
            format!(r#"{RECORD}[{{"#),
            r#":1}]}}"#,
            "record.messages[0]",
            false,
        ),
        (
            String::from(r#"{"schemaVersion":1,"record":"#),
            "}",
            "record",
            true,
        ),
        (String::new(), "", "", true),
    ];
    for (head, tail, path, quoted) in cases {
        let text = long_string(&head, tail, 8 * 1024);
        let stated = format!("({} bytes)", text.len() - head.len() - tail.len() - 2);
        drop(head);
        let issues = corrupt(decode_session_record(text.as_bytes(), "sess-2"));
        assert!(
            issues.iter().any(|issue| issue.path.starts_with(path)
                && (!quoted || issue.message.contains(&stated))),
            "{issues:?}"
        );
    }
}

fn one_long_literal_in_8_kib() {
    long_literals(1, 8 * 1024);
}

fn two_long_literals_in_8_kib() {
    long_literals(2, 8 * 1024);
}

fn four_long_literals_in_8_kib() {
    long_literals(4, 8 * 1024);
}

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run_measured(
        "hostile_input::records",
        &[
            (
                "regressions_session_decode",
                regressions_session_decode,
                STACK,
                HEAP,
            ),
            (
                "unknown_member_at_the_bound",
                unknown_member_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "unknown_member_one_past_the_bound",
                unknown_member_one_past_the_bound,
                STACK,
                HEAP,
            ),
            (
                "unknown_member_1000_deep",
                unknown_member_1000_deep,
                STACK,
                HEAP,
            ),
            ("deep_before_the_cwd", deep_before_the_cwd, STACK, HEAP),
            (
                "message_content_at_the_bound",
                message_content_at_the_bound,
                STACK,
                HEAP,
            ),
            (
                "message_content_one_past_the_bound",
                message_content_one_past_the_bound,
                STACK,
                HEAP,
            ),
            (
                "message_content_1000_deep",
                message_content_1000_deep,
                STACK,
                HEAP,
            ),
            (
                "eight_kib_of_empty_messages",
                eight_kib_of_empty_messages,
                STACK,
                HEAP,
            ),
            (
                "eight_kib_of_broken_members",
                eight_kib_of_broken_members,
                STACK,
                HEAP,
            ),
            (
                "one_message_then_8_kib_of_scalars",
                one_message_then_8_kib_of_scalars,
                STACK,
                HEAP,
            ),
            (
                "one_message_then_8_kib_of_commas",
                one_message_then_8_kib_of_commas,
                STACK,
                HEAP,
            ),
            ("six_kib_wrong_id", six_kib_wrong_id, STACK, HEAP),
            (
                "long_strings_where_values_belong",
                long_strings_where_values_belong,
                STACK,
                HEAP,
            ),
            (
                "one_long_literal_in_8_kib",
                one_long_literal_in_8_kib,
                STACK,
                HEAP,
            ),
            (
                "two_long_literals_in_8_kib",
                two_long_literals_in_8_kib,
                STACK,
                HEAP,
            ),
            (
                "four_long_literals_in_8_kib",
                four_long_literals_in_8_kib,
                STACK,
                HEAP,
            ),
        ],
    )
}

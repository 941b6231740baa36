//! The session record decoder on untrusted bytes (`decode_session_record`).
//!
//! Input: `<stored id> NUL <stored bytes>`, or just the stored bytes (stored id `sess-2`, the id
//! of most golden records).
//!
//! Properties:
//! - it never panics, on any bytes and any id;
//! - it answers what a parse answers: parse the bytes into a `Value`, check the envelope, and
//!   deserialize the record from the `Value` with the record's own `Deserialize` (which sees no
//!   stored text: repeated names dropped, members sorted, numbers read). Valid with the same
//!   record, unsupported with the same version, corrupt with the same issues (paths and
//!   messages; for a parse's own error, only the path);
//! - `valid` only for a record whose id is the stored id, and such a record encodes and decodes
//!   back equal (`encode_session_record` round trip);
//! - `corrupt` always carries at least one issue;
//! - bytes nested deeper than the default read limit are corrupt with one issue that names
//!   it (or, first, that they are not UTF-8), whatever a parse says; past the limit's number
//!   of issues, the last one counts the rest, on both paths alike.
#![no_main]

use agent_interface::agent_core::{ReadLimits, Value};
use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::session::records::{InteractiveSessionRecord, SessionRecordDecodeOutcome};
use libfuzzer_sys::fuzz_target;

/// What a parse answers: `Ok` with the outcome when it is not corrupt, `Err` with the first
/// issue's path and, for the record's own error, the issues as one line (`path: message; …`,
/// paths without `record.`, no foreign id).
fn by_a_parse(
    bytes: &[u8],
    id: &str,
) -> Result<SessionRecordDecodeOutcome, (String, Option<String>)> {
    let Ok(Value::Object(envelope)) = serde_json::from_slice::<Value>(bytes) else {
        return Err((String::new(), None));
    };
    let cwd = envelope
        .get("record")
        .and_then(|record| record.get("cwd"))
        .or_else(|| envelope.get("cwd"))
        .and_then(Value::as_str)
        .map(String::from);
    let version = match envelope.get("schemaVersion") {
        None => return Err((String::from("schemaVersion"), None)),
        Some(version) => version.as_i64().or_else(|| {
            version
                .as_f64()
                .filter(|v| {
                    v.fract() == 0.0
                        && (-9_007_199_254_740_992.0..=9_007_199_254_740_992.0).contains(v)
                })
                .map(|v| v as i64)
        }),
    };
    if version != Some(1) {
        return Ok(SessionRecordDecodeOutcome::Unsupported {
            schema_version: version,
            cwd,
        });
    }
    let record = match envelope.get("record") {
        Some(record @ Value::Object(_)) => record,
        _ => return Err((String::from("record"), None)),
    };
    match <InteractiveSessionRecord as serde::Deserialize>::deserialize(record) {
        Ok(record) if record.id == id => Ok(SessionRecordDecodeOutcome::Valid {
            record: Box::new(record),
        }),
        Ok(_) => Err((String::from("record.id"), None)),
        Err(error) => Err((String::from("record"), Some(error.to_string()))),
    }
}

/// How deep arrays and objects nest in `bytes`, outside strings (the document is level 0).
fn nesting_of(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0_usize, 0, false, false);
    for &byte in bytes {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fuzz_target!(|data: &[u8]| {
    let (id, bytes) = match data.iter().take(130).position(|&b| b == 0) {
        Some(at) => (
            String::from_utf8_lossy(&data[..at]).into_owned(),
            &data[at + 1..],
        ),
        None => (String::from("sess-2"), data),
    };
    let outcome = decode_session_record(bytes, &id);
    if nesting_of(bytes) > ReadLimits::DEFAULT.depth {
        let SessionRecordDecodeOutcome::Corrupt { issues, .. } = &outcome else {
            panic!("nesting past the read limit is not corrupt: {outcome:?}");
        };
        assert_eq!(issues.len(), 1, "{issues:?}");
        // Bytes that are not UTF-8 are refused as such first (nothing recursive reads them).
        let words = if core::str::from_utf8(bytes).is_ok() {
            "nesting deeper than"
        } else {
            "the stored bytes are not UTF-8"
        };
        assert!(issues[0].message.starts_with(words), "{issues:?}");
        return;
    }
    match (&outcome, by_a_parse(bytes, &id)) {
        (SessionRecordDecodeOutcome::Corrupt { issues, .. }, Err((path, Some(line)))) => {
            let rendered: Vec<String> = issues
                .iter()
                .filter(|issue| !issue.message.starts_with("the record's id"))
                .map(|issue| {
                    // The record's own error names its members without `record.`, and the
                    // issue that counts the rest at the record itself without a path.
                    match issue.path.strip_prefix("record.") {
                        Some(path) => format!("{path}: {}", issue.message),
                        None if issue.path == "record" => issue.message.clone(),
                        None => format!("{}: {}", issue.path, issue.message),
                    }
                })
                .collect();
            assert_eq!(
                rendered.join("; "),
                line,
                "at {path} for {:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        (SessionRecordDecodeOutcome::Corrupt { issues, .. }, Err((path, None))) => {
            assert_eq!(
                issues[0].path,
                path,
                "for {:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        (outcome, Ok(expected)) => assert_eq!(
            outcome,
            &expected,
            "the decoder and a parse disagree on {:?} stored under {id:?}",
            String::from_utf8_lossy(bytes)
        ),
        (outcome, Err(expected)) => panic!(
            "the decoder answers {:?}, a parse corrupt at {expected:?}, for {:?}",
            outcome.status(),
            String::from_utf8_lossy(bytes)
        ),
    }
    match &outcome {
        SessionRecordDecodeOutcome::Valid { record } => {
            assert_eq!(record.id, id, "a valid record under another id");
            let encoded = encode_session_record(record)
                .expect("a decoded record holds only finite numbers, so it encodes");
            let again = decode_session_record(&encoded, &id);
            assert_eq!(
                again,
                outcome,
                "a valid record does not decode back equal from its encoding {:?}",
                String::from_utf8_lossy(&encoded)
            );
        }
        SessionRecordDecodeOutcome::Corrupt { issues, .. } => {
            assert!(!issues.is_empty(), "a corrupt outcome without an issue");
        }
        SessionRecordDecodeOutcome::Unsupported { .. } => {}
    }
});

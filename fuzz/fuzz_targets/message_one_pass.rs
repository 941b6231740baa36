//! A message reads the same inside a record as alone: the record decoder (its located member
//! decoder) and `UniversalMessage`'s own decoder agree. (The name is from when the record
//! decoder read messages with a one-pass reader of its own, in front of serde's derived
//! decoder; both are one decoder now, held to serde's derived one by `tagged_events`.)
//!
//! Input: the text of one message (any JSON value a parse reads; other bytes are skipped). It
//! is stored as the only element of a record's `messages` and decoded with
//! `decode_session_record`; the same text is decoded alone with the crate's decoder of untrusted
//! JSON (`from_json_str::<UniversalMessage>`, which reads a struct from an object only, as the
//! record codec does) and, for what a parse reads (repeated names dropped), from a parsed `Value`
//! (`from_json_value`).
//!
//! Properties:
//! - the record is valid exactly when the message decodes alone, from its text or else from its
//!   parse;
//! - a valid record holds the one message decoded alone (from the text when it reads the text);
//! - a corrupt record's issues are all at or below `record.messages[0]`.
#![no_main]

use agent_interface::agent_core::{UniversalMessage, Value, from_json_str, from_json_value};
use agent_interface::runtime::record_codec::decode_session_record;
use agent_interface::session::records::SessionRecordDecodeOutcome;
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;

const ID: &str = "s";

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = core::str::from_utf8(bytes) else {
        return;
    };
    // One JSON value a parse reads (strings included: a lone surrogate escape is not one) and
    // nothing else, so the record around it is the record it looks like.
    let Ok(parsed) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let stored = format!(
        r#"{{"schemaVersion":1,"record":{{"id":"{ID}","cwd":"/w","createdAt":"t0","updatedAt":"t1","messages":[{text}]}}}}"#
    );
    // Nesting the message alone reads can pass the read limit inside the record (four levels
    // deeper), where it is refused for its depth.
    if from_json_str::<IgnoredAny>(&stored).is_err() {
        return;
    }
    let from_text = from_json_str::<UniversalMessage>(text);
    let from_parse = from_json_value::<UniversalMessage>(parsed).ok();
    match decode_session_record(stored.as_bytes(), ID) {
        SessionRecordDecodeOutcome::Valid { record } => {
            let [message] = record.messages.as_slice() else {
                panic!(
                    "a valid record of one message holds {}",
                    record.messages.len()
                );
            };
            match (&from_text, &from_parse) {
                (Ok(expected), _) => assert_eq!(message, expected, "read from the text"),
                (Err(_), Some(expected)) => assert_eq!(message, expected, "read from a parse"),
                (Err(error), None) => {
                    panic!("valid, but the message alone is refused: {error}")
                }
            }
        }
        SessionRecordDecodeOutcome::Corrupt { issues, .. } => {
            assert!(
                from_text.is_err() && from_parse.is_none(),
                "corrupt ({issues:?}), but the message alone decodes"
            );
            for issue in &issues {
                assert!(
                    issue.path.starts_with("record.messages[0]"),
                    "an issue outside the message: {issue:?}"
                );
            }
        }
        SessionRecordDecodeOutcome::Unsupported { .. } => panic!("version 1 is supported"),
    }
});

//! The record decoder's two readers of a message agree: the one-pass reader, which answers
//! first, and serde's derived `UniversalMessage` decoder, which answers what it leaves.
//!
//! Input: the text of one message (any JSON value a parse reads; other bytes are skipped). It is stored as the only element of a
//! record's `messages` and decoded with `decode_session_record`; the same text is decoded with
//! the derived decoder alone (`serde_json::from_str::<UniversalMessage>`) and, for what a parse
//! reads (repeated names dropped), from a parsed `Value`.
//!
//! Properties:
//! - the record is valid exactly when the derived decoder reads the message, from its text or
//!   else from its parse;
//! - a valid record holds the one message the derived decoder read (from the text when it reads
//!   the text), so the one-pass reader never answers a different value, and never answers where
//!   the derived decoder refuses;
//! - a corrupt record's issues are all at or below `record.messages[0]`.
#![no_main]

use agent_interface::agent_core::{UniversalMessage, Value};
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
    // Deep nesting the message alone reads can exceed the parser's depth inside the record.
    if serde_json::from_str::<IgnoredAny>(&stored).is_err() {
        return;
    }
    let from_text = serde_json::from_str::<UniversalMessage>(text);
    let from_parse = <UniversalMessage as serde::Deserialize>::deserialize(&parsed).ok();
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
                    panic!("valid, but the derived decoder refuses the message: {error}")
                }
            }
        }
        SessionRecordDecodeOutcome::Corrupt { issues, .. } => {
            assert!(
                from_text.is_err() && from_parse.is_none(),
                "corrupt ({issues:?}), but the derived decoder reads the message"
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

//! The one-pass decoders of the enums tagged on a member agree with serde's derived decoders of
//! the same shapes (`tests/common/reference_tagged.rs`), on any JSON text.
//!
//! Input: the text of one JSON value (other bytes are skipped). It is decoded as a
//! `BackgroundTaskEvent`, a `BackgroundJobGroupEvent` and a `UniversalMessagePart`, each with
//! the crate's decoder and
//! with the reference, from the text; the reference also decodes the text's parse (a `Value`,
//! where a repeated name counts once).
//!
//! Properties, for each of the three enums:
//! - an array is never one (the reference reads one whose first element is the tag);
//! - the rest is compared only where no nested member named like a tag (`kind`, `type`) is a
//!   number: below its own tag the reference reads such a number as a variant's index, where a
//!   decoder of the text refuses it (the crate's, as the record's own lists always did);
//! - the crate's decoder reads a value exactly when the reference reads it from the text or
//!   else from the parse (a name repeated inside a member written before the tag counts once),
//!   and it reads the same value;
//! - where both refuse and a repeated name does not decide it (the reference refuses the text
//!   and the parse with one message), the crate's decoder refuses with that message too, unless
//!   the tag is not a string (then its message names the literals).
#![no_main]

use agent_interface::agent_core::{UniversalMessagePart, Value};
use agent_interface::execution::groups::BackgroundJobGroupEvent;
use agent_interface::execution::task_event::BackgroundTaskEvent;
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;

#[path = "../../tests/common/reference_tagged.rs"]
mod reference;

use reference::{
    BackgroundJobGroupEvent as ReferenceGroupEvent, BackgroundTaskEvent as ReferenceTaskEvent,
    UniversalMessagePart as ReferencePart,
};

/// serde_json's message without the position it appends.
fn message(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    }
}

/// Whether a nested member named like a tag (`kind`, `type`) is a number: serde's buffered
/// decoder, which the reference uses below its own tag, reads it as a variant's index, where a
/// decoder of the text (the crate's, as for a record's own lists) refuses it.
fn numeric_tag_below(value: &Value, depth: usize) -> bool {
    match value {
        Value::Object(members) => members.iter().any(|(name, value)| {
            (depth > 0 && matches!(name.as_str(), "kind" | "type") && value.is_number())
                || numeric_tag_below(value, depth + 1)
        }),
        Value::Array(items) => items.iter().any(|item| numeric_tag_below(item, depth + 1)),
        _ => false,
    }
}

fn agree<T, R>(text: &str, parsed: &Value)
where
    T: DeserializeOwned + PartialEq + core::fmt::Debug,
    R: DeserializeOwned + Into<T>,
{
    let ours = serde_json::from_str::<T>(text);
    if parsed.is_array() {
        assert!(ours.is_err(), "an array read as an event: {ours:?}");
        return;
    }
    if numeric_tag_below(parsed, 0) {
        return;
    }
    let from_text = serde_json::from_str::<R>(text).map(Into::into);
    let from_parse = <R as serde::Deserialize>::deserialize(parsed).map(Into::into);
    match (&ours, &from_text, &from_parse) {
        (Ok(ours), Ok(expected), _) => assert_eq!(ours, expected, "read from the text"),
        (Ok(ours), Err(_), Ok(expected)) => assert_eq!(ours, expected, "read from the parse"),
        (Ok(ours), Err(error), Err(_)) => panic!("{ours:?}, but the reference refuses: {error}"),
        (Err(error), Ok(expected), _) => {
            panic!("refused ({error}), the reference reads {expected:?}")
        }
        (Err(ours), Err(text_error), Err(parse_error)) => {
            let tag_is_string = parsed.get("type").is_none_or(Value::is_string);
            if message(text_error) == message(parse_error) && tag_is_string {
                assert_eq!(message(ours), message(text_error));
            }
        }
        (Err(_), Err(_), Ok(_)) => {}
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = core::str::from_utf8(bytes) else {
        return;
    };
    let Ok(parsed) = serde_json::from_str::<Value>(text) else {
        return;
    };
    agree::<BackgroundTaskEvent, ReferenceTaskEvent>(text, &parsed);
    agree::<BackgroundJobGroupEvent, ReferenceGroupEvent>(text, &parsed);
    agree::<UniversalMessagePart, ReferencePart>(text, &parsed);
});

//! The one-pass decoders of the enums tagged on a member, and the decoders of the structs that
//! stopped flattening, agree with serde's derived decoders of the same shapes
//! (`tests/common/reference_tagged.rs`), on any JSON text.
//!
//! Input: the text of one JSON value (other bytes are skipped). It is decoded as a
//! `BackgroundTaskEvent`, a `BackgroundJobGroupEvent`, a `UniversalMessagePart`, a
//! `UniversalMessage`, a `BackgroundTaskResult`, a `BackgroundTaskState` and an
//! `ObjectParameterSchema`, each with the crate's decoder and with the reference, from the
//! text; the reference also decodes the text's parse (a `Value`, where a repeated name counts
//! once). A state's and a schema's reference is the derived decoder of the flattened form the
//! crate used before.
//!
//! Properties, for each of the seven types:
//! - an array is never one (the reference reads one whose first element is the tag);
//! - a member written before the tag is read as the record codec reads one: a struct from an
//!   object only. Where that refuses an array, the reference may read it (a departure); such a
//!   refusal is not compared;
//! - the rest is compared only where no nested member named like a tag (`kind`, `type`) is a
//!   number: below its own tag the reference reads such a number as a variant's index, where a
//!   decoder of the text refuses it (the crate's, as the record's own lists always did);
//! - the crate's decoder reads a value exactly when the reference reads it from the text or
//!   else from the parse (a name repeated inside a member written before the tag counts once),
//!   and it reads the same value;
//! - where both refuse and a repeated name does not decide it (the reference refuses the text
//!   and the parse with one message), the crate's decoder refuses with that message too, unless
//!   the tag is not a string (then its message names the literals).
//!
//! A message, a task result and a task state are compared on more conditions: where one has
//! several problems, the crate's decoder names the first it reads, and serde's derived decoder
//! the first of the variant's own members, then a missing one of them, then the flattened
//! base's (see `message_group`, `result_group`, `state_group`). So the crate's message is taken
//! from the same members written in the order the derived decoder reads them, only when the tag
//! is written, and only where both or neither name a missing member (the crate names every
//! problem of a member written before a missing one).
#![no_main]

use agent_interface::agent_core::{
    ObjectParameterSchema, UniversalMessage, UniversalMessagePart, Value,
};
use agent_interface::execution::groups::BackgroundJobGroupEvent;
use agent_interface::execution::task_event::BackgroundTaskEvent;
use agent_interface::execution::task_result::BackgroundTaskResult;
use agent_interface::execution::task_state::BackgroundTaskState;
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;

#[path = "../../tests/common/reference_tagged.rs"]
mod reference;

use reference::{
    BackgroundJobGroupEvent as ReferenceGroupEvent, BackgroundTaskEvent as ReferenceTaskEvent,
    BackgroundTaskResult as ReferenceResult, ObjectSchema as ReferenceObjectSchema,
    TaskState as ReferenceTaskState, UniversalMessage as ReferenceMessage,
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

/// Whether `error` refuses an array where a struct is expected (the crate reads a struct
/// written before its tag from an object only).
fn array_as_struct(error: &serde_json::Error) -> bool {
    message(error).starts_with("invalid type: sequence, expected struct")
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

/// The members of a JSON object in the order they are written, a repeated name kept.
struct Written(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Written {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = Written;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Written, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Written(members))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// Which group a message's member `name` is read in by serde's derived decoder: the role, the
/// role's own members, the flattened base, the others.
fn message_group(name: &str, _role: Option<&Value>) -> u8 {
    match name {
        "role" => 0,
        "content" | "parts" | "name" | "toolCalls" | "toolCallId" => 1,
        "id" | "timestamp" | "state" | "metadata" => 2,
        _ => 3,
    }
}

/// Which group a task result's member `name` is read in by serde's derived decoder: the kind;
/// on an agent's or a process's result its own keys, then the flattened base; on the others the
/// base, then the other kinds' keys (flattened after it); the others.
fn result_group(name: &str, kind: Option<&Value>) -> u8 {
    let own_keys_first = kind.is_some_and(|kind| kind == "agent" || kind == "process");
    match name {
        "kind" => 0,
        "usage" | "exitCode" | "signalCode" if own_keys_first => 1,
        "usage" | "exitCode" | "signalCode" => 2,
        "taskId" | "output" | "metadata" if own_keys_first => 2,
        "taskId" | "output" | "metadata" => 1,
        _ => 3,
    }
}

/// Which group a task state's member `name` is read in by serde's derived decoder of the
/// flattened form: the state's own members (`kind` among them), then the job's.
fn state_group(name: &str, _kind: Option<&Value>) -> u8 {
    match name {
        "id"
        | "label"
        | "parentSessionId"
        | "mode"
        | "depth"
        | "pid"
        | "cwd"
        | "isolation"
        | "resumeSessionId"
        | "worktreePath"
        | "branchName"
        | "worktreeStatus"
        | "worktreeNextAction"
        | "worktreeBaseRevision"
        | "parentWorktreeStatus"
        | "logPath"
        | "transcriptPath"
        | "startedAt"
        | "updatedAt"
        | "completedAt"
        | "timeoutReason"
        | "metadata" => 2,
        _ => 1,
    }
}

/// The object `text` holds, its members written in the order serde's derived decoder reads
/// them (by `group`, each group in its order), a repeated name kept. `None` when it is no
/// object or has no `tag`.
fn in_derived_order(
    text: &str,
    tag: &str,
    group: fn(&str, Option<&Value>) -> u8,
) -> Option<String> {
    let Written(members) = serde_json::from_str(text).ok()?;
    let tag_value = members
        .iter()
        .find(|(name, _)| name == tag)
        .map(|(_, value)| value)?;
    let mut ordered: Vec<&(String, Value)> = members.iter().collect();
    ordered.sort_by_key(|(name, _)| group(name, Some(tag_value)));
    let written: Vec<String> = ordered
        .iter()
        .map(|(name, value)| format!("{}:{value}", Value::from(name.as_str())))
        .collect();
    Some(format!("{{{}}}", written.join(",")))
}

/// [`agree`] for an enum whose variants flatten a base (a message, a task result): a refusal's
/// message is taken from the members in the derived decoder's order; with no tag written, both
/// only refuse.
fn agree_flattened<T, R>(
    text: &str,
    parsed: &Value,
    tag: &str,
    group: fn(&str, Option<&Value>) -> u8,
) where
    T: DeserializeOwned + PartialEq + core::fmt::Debug,
    R: DeserializeOwned + Into<T>,
{
    if let Some(ordered) = in_derived_order(text, tag, group) {
        agree::<T, R>(text, parsed, tag, Some(&ordered));
    } else {
        // No object with the tag: never one (the reference reads some arrays, see `agree`).
        let ours = serde_json::from_str::<T>(text);
        assert!(ours.is_err(), "{ours:?}");
        if !parsed.is_array() {
            assert!(serde_json::from_str::<R>(text).is_err());
        }
    }
}

/// Compares the crate's decoder `T` with the reference `R` on `text`, whose parse is `parsed`;
/// `tag` is the tag's name, and a refusal's message is the crate's on `refusal_text`.
fn agree<T, R>(text: &str, parsed: &Value, tag: &str, refusal_text: Option<&str>)
where
    T: DeserializeOwned + PartialEq + core::fmt::Debug,
    R: DeserializeOwned + Into<T>,
{
    let ours = serde_json::from_str::<T>(text);
    if parsed.is_array() {
        assert!(ours.is_err(), "an array read as an event: {ours:?}");
        return;
    }
    if numeric_tag_below(parsed, 0) || ours.as_ref().is_err_and(array_as_struct) {
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
            let tag_is_string = parsed.get(tag).is_none_or(Value::is_string);
            let ours = match refusal_text {
                Some(refusal_text) => match serde_json::from_str::<T>(refusal_text) {
                    Err(error) if array_as_struct(&error) => return,
                    Err(error) => message(&error),
                    Ok(_) => return,
                },
                None => message(ours),
            };
            let missing = |message: &str| message.starts_with("missing field");
            // A message's missing member and another of its problems are named in either
            // order (see the module doc).
            let comparable =
                refusal_text.is_none() || missing(&ours) == missing(&message(text_error));
            if message(text_error) == message(parse_error) && tag_is_string && comparable {
                assert_eq!(ours, message(text_error));
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
    agree::<BackgroundTaskEvent, ReferenceTaskEvent>(text, &parsed, "type", None);
    agree::<BackgroundJobGroupEvent, ReferenceGroupEvent>(text, &parsed, "type", None);
    agree::<UniversalMessagePart, ReferencePart>(text, &parsed, "type", None);
    agree_flattened::<UniversalMessage, ReferenceMessage>(text, &parsed, "role", message_group);
    agree_flattened::<BackgroundTaskResult, ReferenceResult>(text, &parsed, "kind", result_group);
    agree_flattened::<BackgroundTaskState, ReferenceTaskState>(text, &parsed, "kind", state_group);
    agree::<ObjectParameterSchema, ReferenceObjectSchema>(text, &parsed, "type", None);
});

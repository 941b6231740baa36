//! Reading a client's frame: text from the socket becomes a [`ClientMessage`], or a refusal in
//! the reference's words, within the host's bounds.

use alloc::string::String;
use core::fmt;

use serde::Deserialize as _;
use serde_json::Value;

use crate::agent_core::{
    ActionResponse, ObjectsOnly, ReadLimits, echoed, json_message, nests_deeper,
};
use crate::execution::task_state::{
    BackgroundTaskInput, BackgroundTaskListFilter, BackgroundTaskLogCursor,
};
use crate::session::prompts::PermissionResultValue;
use crate::session::protocol::ClientMessage;

/// The bounds a client's frame is read within.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FrameLimits {
    /// The longest frame read, in bytes; a longer one is refused before it is parsed (the
    /// reference's bound is 4 MiB, [`FrameLimits::DEFAULT`]).
    pub max_bytes: usize,
    /// The nesting bound and the echo length ([`ReadLimits::depth`], [`ReadLimits::echo`]).
    pub read: ReadLimits,
}

impl FrameLimits {
    /// 4 MiB frames, and [`ReadLimits::DEFAULT`].
    pub const DEFAULT: Self = Self {
        max_bytes: 4 * 1024 * 1024,
        read: ReadLimits::DEFAULT,
    };

    /// Frames of at most `max_bytes` bytes, read within `read`.
    #[must_use]
    pub const fn new(max_bytes: usize, read: ReadLimits) -> Self {
        Self { max_bytes, read }
    }
}

impl Default for FrameLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Why a client's frame is not a message. Its `Display` is the text the host answers with, in a
/// `protocol_error`: the reference's words, and the crate's own for the nesting bound, which the
/// reference does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameRefusal {
    /// Longer than [`FrameLimits::max_bytes`]: `Frame too large`.
    TooLarge,
    /// Nested deeper than [`ReadLimits::depth`] levels; not parsed.
    TooDeep {
        /// The bound.
        depth: usize,
    },
    /// Not JSON text (a byte-order mark included, or a number out of range): `Invalid JSON`.
    InvalidJson,
    /// JSON, but not an object: `message must be a JSON object`.
    NotAnObject,
    /// An object whose `type` is missing or not a string: `message type must be a string`.
    TypeNotAString,
    /// A `type` no client message has: `Unknown message type: <type>` (cut to
    /// [`ReadLimits::echo`] bytes).
    UnknownType(String),
    /// A `submit` whose prompt is missing, empty or not a string:
    /// `prompt must be a non-empty string`.
    BadPrompt,
    /// A member of the message that is missing, empty where it must not be, or of the wrong
    /// shape: `<member> has an invalid shape`.
    BadMember(&'static str),
    /// Members that passed every check and still did not decode as the message: never
    /// expected (the checks are the message decoder's own rules), kept so that a disagreement
    /// is refused, never trusted. serde's message.
    Unreadable(String),
}

impl fmt::Display for FrameRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge => f.write_str("Frame too large"),
            Self::TooDeep { depth } => {
                write!(f, "Frame nests deeper than {depth} levels (the read limit)")
            }
            Self::InvalidJson => f.write_str("Invalid JSON"),
            Self::NotAnObject => f.write_str("message must be a JSON object"),
            Self::TypeNotAString => f.write_str("message type must be a string"),
            Self::UnknownType(kind) => write!(f, "Unknown message type: {kind}"),
            Self::BadPrompt => f.write_str("prompt must be a non-empty string"),
            Self::BadMember(member) => write!(f, "{member} has an invalid shape"),
            Self::Unreadable(message) => f.write_str(message),
        }
    }
}

impl core::error::Error for FrameRefusal {}

/// What a member of a client message must hold.
#[derive(Clone, Copy)]
enum Shape {
    /// A string that is not empty (ids, names, the prompt).
    Text,
    /// Absent, or a string.
    OptionalText,
    /// A seq: a whole number from 0 (the reference takes any finite number).
    Seq,
    /// Absent, or a task list filter.
    Filter,
    /// A task's input.
    Input,
    /// Absent, or a log cursor (a whole offset from 0).
    Cursor,
    /// `true`, `false`, `"allow-session"` or `"allow-project"`.
    Permission,
    /// An answer (its values all strings) or a cancellation (with no values and no text).
    Answer,
}

/// The members each client message declares, in the reference's order of checking.
fn members(kind: &str) -> Option<&'static [(&'static str, Shape)]> {
    use Shape::{Answer, Cursor, Filter, Input, OptionalText, Permission, Seq, Text};
    Some(match kind {
        "submit" => &[("prompt", Text)],
        "command" => &[("name", Text), ("args", OptionalText)],
        "abort"
        | "cancel-queue"
        | "get-messages"
        | "get-context"
        | "get-usage-report"
        | "get-executing"
        | "get-pending"
        | "get-execution-workspace"
        | "get-background-job-groups" => &[],
        "get-background-tasks" => &[("filter", Filter)],
        "get-background-task" | "close-background-task" => &[("taskId", Text)],
        "get-background-job-group" | "wait-background-job-group" => &[("groupId", Text)],
        "cancel-background-task" => &[("taskId", Text), ("reason", OptionalText)],
        "send-background-task" => &[("taskId", Text), ("input", Input)],
        "read-background-task-log" => &[("taskId", Text), ("cursor", Cursor)],
        "permission-response" => &[("id", Text), ("result", Permission)],
        "ask-response" => &[("id", Text), ("response", Answer)],
        "resume" => &[("lastSeq", Seq)],
        "ack" => &[("seq", Seq)],
        _ => return None,
    })
}

/// Whether `value` decodes as `T`, structs read from objects only.
fn reads_as<'v, T: serde::Deserialize<'v>>(value: &'v Value) -> bool {
    T::deserialize(ObjectsOnly(value)).is_ok()
}

/// Whether the member `value` (`None` when absent) has `shape`.
fn fits(shape: Shape, value: Option<&Value>) -> bool {
    match (shape, value) {
        (Shape::OptionalText | Shape::Filter | Shape::Cursor, None) => true,
        (_, None) => false,
        (Shape::Text, Some(value)) => value.as_str().is_some_and(|text| !text.is_empty()),
        (Shape::OptionalText, Some(value)) => value.is_string(),
        (Shape::Seq, Some(value)) => value.as_u64().is_some(),
        (Shape::Filter, Some(value)) => reads_as::<BackgroundTaskListFilter>(value),
        (Shape::Input, Some(value)) => reads_as::<BackgroundTaskInput>(value),
        (Shape::Cursor, Some(value)) => reads_as::<BackgroundTaskLogCursor>(value),
        (Shape::Permission, Some(value)) => reads_as::<PermissionResultValue>(value),
        (Shape::Answer, Some(value)) => {
            let cancelled_with_more = value.get("type").and_then(Value::as_str)
                == Some("cancelled")
                && (value.get("values").is_some() || value.get("text").is_some());
            !cancelled_with_more && reads_as::<ActionResponse>(value)
        }
    }
}

/// Reads one client frame: at most [`FrameLimits::max_bytes`] bytes of JSON text, nested no
/// deeper than the read limit, holding an object whose `type` names a client message and whose
/// members have that message's shapes. Members a message does not declare are ignored, as the
/// reference ignores them.
///
/// Stricter than the reference's released handler, which parses bare JSON and passes whatever
/// is truthy to the session: this follows its newer decoder, which refuses a wrong-shaped frame
/// before any session call, and also refuses a seq or log offset that is not a whole number
/// from 0 (`docs/decisions/session-protocol.md`). Its work is linear in the frame's length.
///
/// # Errors
/// [`FrameRefusal`], whose text is the `protocol_error` the host answers with.
pub fn decode_client_frame(
    text: &str,
    limits: &FrameLimits,
) -> Result<ClientMessage, FrameRefusal> {
    if text.len() > limits.max_bytes {
        return Err(FrameRefusal::TooLarge);
    }
    if nests_deeper(text.as_bytes(), limits.read.depth) {
        return Err(FrameRefusal::TooDeep {
            depth: limits.read.depth,
        });
    }
    let value: Value = serde_json::from_str(text).map_err(|_| FrameRefusal::InvalidJson)?;
    let Value::Object(object) = &value else {
        return Err(FrameRefusal::NotAnObject);
    };
    let kind = object
        .get("type")
        .and_then(Value::as_str)
        .ok_or(FrameRefusal::TypeNotAString)?;
    let Some(declared) = members(kind) else {
        return Err(FrameRefusal::UnknownType(String::from(echoed(
            kind,
            limits.read.echo,
        ))));
    };
    for &(member, shape) in declared {
        if !fits(shape, object.get(member)) {
            return Err(if member == "prompt" {
                FrameRefusal::BadPrompt
            } else {
                FrameRefusal::BadMember(member)
            });
        }
    }
    ClientMessage::deserialize(ObjectsOnly(&value))
        .map_err(|error| FrameRefusal::Unreadable(json_message(&error, limits.read.echo)))
}

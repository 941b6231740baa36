//! Reading a client's frame: text from the socket becomes a [`ClientMessage`], or a refusal in
//! the reference's words, within the host's bounds.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;
use core::ops::Range;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::agent_core::{ActionResponse, ObjectsOnly, ReadLimits, echoed, nests_deeper};
use crate::session::protocol::ClientMessage;
use crate::session::records::{each_member, whole};

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

    /// The bound for a device with a small heap: frames of at most 2 KiB, within the default
    /// read limit. What no message declares is skipped unread, so the heap a frame takes is what
    /// its message holds: at this bound the costliest, an answer of 680 empty strings, peaks at
    /// 26,868 bytes on the LM3S6965 (whose heap is 40 KiB), and a frame of only undeclared
    /// members takes none (`firmware/tests/hostile_input_wire.rs`).
    pub const DEVICE: Self = Self {
        max_bytes: 2 * 1024,
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
        }
    }
}

impl core::error::Error for FrameRefusal {}

/// Every member name a client message declares, and `type` first: the members a frame's
/// reading keeps (as spans of its text); every other member is skipped unread.
const KEPT: [&str; 15] = [
    "type", "prompt", "name", "args", "filter", "taskId", "groupId", "reason", "input", "cursor",
    "id", "result", "response", "lastSeq", "seq",
];

/// The message a frame of type `kind` holds, its members read from `kept` in the reference's
/// order of checking (the first that fails is the refusal); `None` for a type no client
/// message has.
fn message(kind: &str, kept: &Kept<'_>) -> Result<Option<ClientMessage>, FrameRefusal> {
    Ok(Some(match kind {
        "submit" => ClientMessage::Submit {
            prompt: kept.text("prompt")?,
        },
        "command" => ClientMessage::Command {
            name: kept.text("name")?,
            args: kept.optional("args")?,
        },
        "abort" => ClientMessage::Abort,
        "cancel-queue" => ClientMessage::CancelQueue,
        "get-messages" => ClientMessage::GetMessages,
        "get-context" => ClientMessage::GetContext,
        "get-usage-report" => ClientMessage::GetUsageReport,
        "get-executing" => ClientMessage::GetExecuting,
        "get-pending" => ClientMessage::GetPending,
        "get-execution-workspace" => ClientMessage::GetExecutionWorkspace,
        "get-background-job-groups" => ClientMessage::GetBackgroundJobGroups,
        "get-background-tasks" => ClientMessage::GetBackgroundTasks {
            filter: kept.optional("filter")?,
        },
        "get-background-task" => ClientMessage::GetBackgroundTask {
            task_id: kept.text("taskId")?,
        },
        "close-background-task" => ClientMessage::CloseBackgroundTask {
            task_id: kept.text("taskId")?,
        },
        "get-background-job-group" => ClientMessage::GetBackgroundJobGroup {
            group_id: kept.text("groupId")?,
        },
        "wait-background-job-group" => ClientMessage::WaitBackgroundJobGroup {
            group_id: kept.text("groupId")?,
        },
        "cancel-background-task" => ClientMessage::CancelBackgroundTask {
            task_id: kept.text("taskId")?,
            reason: kept.optional("reason")?,
        },
        "send-background-task" => ClientMessage::SendBackgroundTask {
            task_id: kept.text("taskId")?,
            input: kept.required("input")?,
        },
        "read-background-task-log" => ClientMessage::ReadBackgroundTaskLog {
            task_id: kept.text("taskId")?,
            cursor: kept.optional("cursor")?,
        },
        "permission-response" => ClientMessage::PermissionResponse {
            id: kept.text("id")?,
            result: kept.required("result")?,
        },
        "ask-response" => ClientMessage::AskResponse {
            id: kept.text("id")?,
            response: kept.answer("response")?,
        },
        "resume" => ClientMessage::Resume {
            last_seq: kept.required("lastSeq")?,
        },
        "ack" => ClientMessage::Ack {
            seq: kept.required("seq")?,
        },
        _ => return Ok(None),
    }))
}

/// Whether a frame's text is a JSON object, read strictly through its end and skipping every
/// value unread (no heap).
struct IsObject(bool);

impl<'de> Deserialize<'de> for IsObject {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IsObjectVisitor)
    }
}

struct IsObjectVisitor;

impl<'de> Visitor<'de> for IsObjectVisitor {
    type Value = IsObject;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(IsObject(true))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(IsObject(false))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(IsObject(false))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(IsObject(false))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(IsObject(false))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(IsObject(false))
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(IsObject(false))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(IsObject(false))
    }
}

/// Presence of a member, whatever it holds (`null` included).
#[derive(Default)]
struct Present(bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| Self(true))
    }
}

/// What an answer says of itself before it is read: its `type`, and whether it has values or
/// text (a cancellation has neither).
#[derive(Deserialize)]
struct AnswerTag<'t> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'t, str>>,
    #[serde(default)]
    values: Present,
    #[serde(default)]
    text: Present,
}

/// `text` read as `T`, structs read from objects only.
fn read_as<'t, T: Deserialize<'t>>(text: &'t str) -> Option<T> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(ObjectsOnly(&mut reader)).ok()?;
    reader.end().ok()?;
    Some(value)
}

/// The members a frame's reading kept, each read as its message declares it when asked.
struct Kept<'t> {
    text: &'t str,
    spans: [Option<Range<usize>>; KEPT.len()],
}

impl<'t> Kept<'t> {
    /// The text of the member `name` (the last written), if the frame has it.
    fn span(&self, name: &str) -> Option<&'t str> {
        let index = KEPT.iter().position(|kept| *kept == name)?;
        self.text.get(self.spans[index].clone()?)
    }

    /// The refusal of the member `name`: the prompt's own words, any other's.
    fn refusal(name: &'static str) -> FrameRefusal {
        if name == "prompt" {
            FrameRefusal::BadPrompt
        } else {
            FrameRefusal::BadMember(name)
        }
    }

    /// A member that must be there and read as `T`.
    fn required<T: Deserialize<'t>>(&self, name: &'static str) -> Result<T, FrameRefusal> {
        self.span(name).and_then(read_as).ok_or(Self::refusal(name))
    }

    /// A member that may be absent, and otherwise reads as `T`.
    fn optional<T: Deserialize<'t>>(&self, name: &'static str) -> Result<Option<T>, FrameRefusal> {
        self.span(name)
            .map(|text| read_as(text).ok_or(Self::refusal(name)))
            .transpose()
    }

    /// A string that must be there and not be empty (an id, a name, the prompt).
    fn text(&self, name: &'static str) -> Result<String, FrameRefusal> {
        self.required::<String>(name)
            .ok()
            .filter(|text| !text.is_empty())
            .ok_or(Self::refusal(name))
    }

    /// An answer: its values all strings, or a cancellation with no values and no text.
    fn answer(&self, name: &'static str) -> Result<ActionResponse, FrameRefusal> {
        let tag: AnswerTag<'_> = self.required(name)?;
        let cancelled = tag.kind.as_deref() == Some("cancelled");
        if cancelled && (tag.values.0 || tag.text.0) {
            return Err(Self::refusal(name));
        }
        self.required(name)
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
/// from 0 (`docs/decisions/session-protocol.md`). Its work is linear in the frame's length,
/// and the heap it takes is what the message holds: members no message declares are skipped
/// unread (so a number out of range or a lone surrogate escape there does not refuse it). On a
/// device, read within [`FrameLimits::DEVICE`] or a bound like it.
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
    // One strict pass over the whole text that skips every value unread, then the spans of the
    // members some message declares (the last written under each name), then each member the
    // type declares read once, as its message holds it: the heap a frame takes is what its
    // message holds.
    let IsObject(object) = serde_json::from_str(text).map_err(|_| FrameRefusal::InvalidJson)?;
    if !object {
        return Err(FrameRefusal::NotAnObject);
    }
    let mut spans = [const { None }; KEPT.len()];
    for member in each_member(text, &whole(text)) {
        // Valid JSON: the scan finds every member (else it is refused as what it would be).
        let member = member.ok_or(FrameRefusal::InvalidJson)?;
        if let Some(index) = KEPT.iter().position(|kept| *kept == member.name) {
            spans[index] = Some(member.value);
        }
    }
    let kept = Kept { text, spans };
    let kind_text = kept.span("type").ok_or(FrameRefusal::TypeNotAString)?;
    let kind = read_as::<Cow<'_, str>>(kind_text).ok_or(FrameRefusal::TypeNotAString)?;
    message(&kind, &kept)?
        .ok_or_else(|| FrameRefusal::UnknownType(String::from(echoed(&kind, limits.read.echo))))
}

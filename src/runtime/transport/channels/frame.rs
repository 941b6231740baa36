//! The byte codec of channel frames, exactly as the reference writes them: magic `RBF`, version
//! 1, kind (1 binary, 2 event), name length, UTF-8 name, big-endian `u32` seq, then the body
//! (the raw bytes, or the UTF-8 JSON `{"event": …, "payload": …}` with `event` first).

use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::agent_core::Value;
use crate::transport::{BinaryFrame, ChannelEventFrame, ChannelFrame, ChannelName};

/// The three bytes every channel frame starts with: `RBF`.
pub const CHANNEL_FRAME_MAGIC: [u8; 3] = *b"RBF";

/// The one frame layout version this codec reads and writes.
pub const CHANNEL_FRAME_VERSION: u8 = 1;

const KIND_BINARY: u8 = 1;
const KIND_EVENT: u8 = 2;
/// Magic, version, kind and name length.
const FIXED_HEADER: usize = 6;

/// Why [`decode_channel_frame`] refused some bytes. Each reason prints the reference's message
/// (`channel frame: …`), except [`ChannelNameNotUtf8`](Self::ChannelNameNotUtf8), which the
/// reference never reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ChannelFrameError {
    /// The bytes do not start with `RBF` (fewer than three bytes included).
    #[error("channel frame: bad magic (not a channel frame)")]
    BadMagic,
    /// The magic is there but the six fixed header bytes are not.
    #[error("channel frame: truncated header")]
    TruncatedHeader,
    /// A layout version other than 1.
    #[error("channel frame: unsupported version {0}")]
    UnsupportedVersion(u8),
    /// A kind other than 1 (binary) or 2 (event).
    #[error("channel frame: unknown kind {0}")]
    UnknownKind(u8),
    /// The name length byte is 0.
    #[error("channel frame: empty channel name")]
    EmptyChannelName,
    /// The name and the seq run past the end of the bytes.
    #[error("channel frame: truncated (header longer than the frame)")]
    Truncated,
    /// The channel name is not valid UTF-8 (the reference routes it as U+FFFD instead).
    #[error("channel frame: channel name is not valid UTF-8")]
    ChannelNameNotUtf8,
    /// An event body that is not JSON (or not UTF-8).
    #[error("channel frame: malformed JSON body")]
    MalformedJsonBody,
    /// An event body that is JSON but not an object.
    #[error("channel frame: event body must be a JSON object")]
    EventBodyNotObject,
    /// An event body without a non-empty string `event`.
    #[error("channel frame: event body is missing a non-empty `event` name")]
    MissingEventName,
}

/// True when `bytes` start with the frame magic `RBF`: the cheap test a carrier uses to tell
/// channel frames from its other messages. It says nothing about the rest of the frame.
#[must_use]
pub fn is_channel_frame(bytes: &[u8]) -> bool {
    bytes.starts_with(&CHANNEL_FRAME_MAGIC)
}

/// The bytes of `frame`, exactly as the reference encodes it. Infallible: the name's length and
/// the seq's range are guaranteed by their types.
///
/// An event payload is written by serde_json: object keys in the order the [`Value`] holds
/// them (sorted, serde_json's map), numbers as serde_json prints them.
#[must_use]
pub fn encode_channel_frame(frame: &ChannelFrame) -> Vec<u8> {
    match frame {
        ChannelFrame::Binary(frame) => encode_binary(&frame.channel, frame.seq, &frame.payload),
        ChannelFrame::Event(frame) => {
            encode_event(&frame.channel, frame.seq, &frame.event, &frame.payload)
        }
    }
}

pub(super) fn encode_binary(channel: &ChannelName, seq: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = header(KIND_BINARY, channel, seq, payload.len());
    out.extend_from_slice(payload);
    out
}

pub(super) fn encode_event(
    channel: &ChannelName,
    seq: u32,
    event: &str,
    payload: &Value,
) -> Vec<u8> {
    let mut out = header(KIND_EVENT, channel, seq, 0);
    // A JSON string's Display is the name escaped exactly as serde_json writes strings.
    let event = Value::from(event);
    // `ByteSink` never fails and serde_json's Display writes every `Value` whole, so the
    // `fmt::Result` carries nothing.
    let _ = write!(
        ByteSink(&mut out),
        r#"{{"event":{event},"payload":{payload}}}"#
    );
    out
}

/// Appends formatted text to a byte buffer; never fails.
struct ByteSink<'a>(&'a mut Vec<u8>);

impl fmt::Write for ByteSink<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.0.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

fn header(kind: u8, channel: &ChannelName, seq: u32, body: usize) -> Vec<u8> {
    let name = channel.as_str().as_bytes();
    let mut out = Vec::with_capacity(FIXED_HEADER + name.len() + 4 + body);
    out.extend_from_slice(&CHANNEL_FRAME_MAGIC);
    // A `ChannelName` is at most 255 bytes, so its length always fits the length byte.
    let length = u8::try_from(name.len()).unwrap_or(u8::MAX);
    out.extend_from_slice(&[CHANNEL_FRAME_VERSION, kind, length]);
    out.extend_from_slice(name);
    out.extend_from_slice(&seq.to_be_bytes());
    out
}

/// Reads one frame from `bytes`.
///
/// An event body must be a JSON object with a non-empty string `event`; a missing `payload`
/// reads as `null` and other keys are ignored (as the reference does).
///
/// # Errors
/// A [`ChannelFrameError`] naming the first thing wrong, checked in layout order: magic, fixed
/// header, version, kind, name length, name and seq present, name UTF-8, then the event body.
pub fn decode_channel_frame(bytes: &[u8]) -> Result<ChannelFrame, ChannelFrameError> {
    let rest = bytes
        .strip_prefix(&CHANNEL_FRAME_MAGIC)
        .ok_or(ChannelFrameError::BadMagic)?;
    let [version, kind, length, rest @ ..] = rest else {
        return Err(ChannelFrameError::TruncatedHeader);
    };
    if *version != CHANNEL_FRAME_VERSION {
        return Err(ChannelFrameError::UnsupportedVersion(*version));
    }
    if *kind != KIND_BINARY && *kind != KIND_EVENT {
        return Err(ChannelFrameError::UnknownKind(*kind));
    }
    if *length == 0 {
        return Err(ChannelFrameError::EmptyChannelName);
    }
    let (name, rest) = rest
        .split_at_checked(usize::from(*length))
        .ok_or(ChannelFrameError::Truncated)?;
    let (seq, body) = rest
        .split_first_chunk::<4>()
        .ok_or(ChannelFrameError::Truncated)?;
    let name = core::str::from_utf8(name).map_err(|_| ChannelFrameError::ChannelNameNotUtf8)?;
    // 1..=255 bytes by construction of the length byte, so the name is always accepted.
    let channel = ChannelName::new(name).map_err(|_| ChannelFrameError::EmptyChannelName)?;
    let seq = u32::from_be_bytes(*seq);
    if *kind == KIND_BINARY {
        return Ok(ChannelFrame::Binary(BinaryFrame {
            channel,
            seq,
            payload: body.to_vec(),
        }));
    }
    let body: Value =
        serde_json::from_slice(body).map_err(|_| ChannelFrameError::MalformedJsonBody)?;
    let Value::Object(mut body) = body else {
        return Err(ChannelFrameError::EventBodyNotObject);
    };
    let event = match body.remove("event") {
        Some(Value::String(event)) if !event.is_empty() => event,
        _ => return Err(ChannelFrameError::MissingEventName),
    };
    Ok(ChannelFrame::Event(ChannelEventFrame {
        channel,
        seq,
        event,
        payload: body.remove("payload").unwrap_or(Value::Null),
    }))
}

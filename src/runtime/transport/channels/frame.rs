//! The byte codec of channel frames, exactly as the reference writes them: magic `RBF`, version
//! 1, kind (1 binary, 2 event), name length, UTF-8 name, big-endian `u32` seq, then the body
//! (the raw bytes, or the UTF-8 JSON `{"event": …, "payload": …}` with `event` first).
//!
//! Reading is split in two so that a receiver can refuse a frame on its header alone:
//! [`decode_header`] reads everything up to the body without looking at it, and
//! [`decode_event_body`] parses an event body once the frame is delivered.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{ReadLimits, Value, nests_deeper};
use crate::transport::channels::{BinaryFrame, ChannelEventFrame, ChannelFrame, ChannelName};

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
    /// An event body that is not JSON (or not UTF-8). It prints the reference's words, which
    /// the peer is answered with (the interop vectors pin them); why and where the JSON broke
    /// is the [`JsonBodyError`] it carries, also its [`source`](core::error::Error::source).
    #[error("channel frame: malformed JSON body")]
    MalformedJsonBody(#[source] JsonBodyError),
    /// An event body that is JSON but not an object.
    #[error("channel frame: event body must be a JSON object")]
    EventBodyNotObject,
    /// An event body without a non-empty string `event`.
    #[error("channel frame: event body is missing a non-empty `event` name")]
    MissingEventName,
    /// An event body whose arrays and objects nest deeper than the read limit
    /// ([`ReadLimits::depth`]): refused before it is parsed (the reference has no bound).
    #[error("channel frame: event body nests deeper than {limit} levels")]
    TooDeep {
        /// The bound that was passed.
        limit: usize,
    },
}

/// Why and where an event body is not JSON: the detail of
/// [`ChannelFrameError::MalformedJsonBody`], as serde_json reports it. It prints a fixed phrase
/// and two numbers (`the JSON ends early at line 1, column 9`), never the body's bytes, so its
/// words stay short whatever the peer sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("{reason} at line {line}, column {column}")]
pub struct JsonBodyError {
    /// What kind of fault it is.
    pub reason: JsonBodyFault,
    /// The line of the body the fault is on, from 1.
    pub line: usize,
    /// Where on that line, in bytes from its start, as serde_json counts: on the first line,
    /// the byte offset in the body where the parse stopped.
    pub column: usize,
}

/// The kind of a [`JsonBodyError`]: serde_json's category of the fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum JsonBodyFault {
    /// The body ends before its JSON does: empty, or cut short (truncated).
    #[error("the JSON ends early")]
    Truncated,
    /// The text is not valid JSON there: a stray or missing character, an invalid escape or
    /// UTF-8, trailing text, or a number too large for an `f64` (`1e400`).
    #[error("invalid JSON or a number out of range")]
    Syntax,
    /// Valid JSON that a payload value cannot hold.
    #[error("JSON a payload value cannot hold")]
    Data,
}

impl JsonBodyError {
    /// The detail of serde_json's `error`.
    #[cold]
    fn of(error: &serde_json::Error) -> Self {
        let reason = match error.classify() {
            serde_json::error::Category::Eof => JsonBodyFault::Truncated,
            serde_json::error::Category::Data => JsonBodyFault::Data,
            // A slice is never read with I/O; were it, it is the text that broke.
            serde_json::error::Category::Syntax | serde_json::error::Category::Io => {
                JsonBodyFault::Syntax
            }
        };
        Self {
            reason,
            line: error.line(),
            column: error.column(),
        }
    }
}

/// True when `bytes` start with the frame magic `RBF`: the cheap test a carrier uses to tell
/// channel frames from its other messages. It says nothing about the rest of the frame.
#[must_use]
pub fn is_channel_frame(bytes: &[u8]) -> bool {
    bytes.starts_with(&CHANNEL_FRAME_MAGIC)
}

/// The bytes of `frame`, exactly as the reference encodes it. Infallible: the name's length and
/// the seq's range are guaranteed by their types. [`encode_channel_frame_into`] writes them into
/// a buffer of the caller's instead.
///
/// An event payload is written as JavaScript's `JSON.stringify` writes it: numbers in
/// JavaScript's form (`1` for `1.0`, `1e-7`), strings escaped as both it and serde_json
/// escape them, and object members in the order the [`Value`] holds them: the order they were
/// read or inserted with `std` (serde_json's `preserve_order`), sorted by key without it.
#[must_use]
pub fn encode_channel_frame(frame: &ChannelFrame) -> Vec<u8> {
    let mut out = Vec::new();
    encode_channel_frame_into(frame, &mut out);
    out
}

/// Appends the bytes of `frame` (as [`encode_channel_frame`] gives them) to `out`: the header,
/// then the payload copied once, straight from the frame. Nothing is allocated when `out` has
/// room for them.
pub fn encode_channel_frame_into(frame: &ChannelFrame, out: &mut Vec<u8>) {
    match frame {
        ChannelFrame::Binary(frame) => {
            encode_binary(&frame.channel, frame.seq, &frame.payload, out)
        }
        ChannelFrame::Event(frame) => {
            encode_event(&frame.channel, frame.seq, &frame.event, &frame.payload, out);
        }
    }
}

#[inline]
pub(super) fn encode_binary(channel: &ChannelName, seq: u32, payload: &[u8], out: &mut Vec<u8>) {
    header(KIND_BINARY, channel, seq, payload.len(), out);
    out.extend_from_slice(payload);
}

pub(super) fn encode_event(
    channel: &ChannelName,
    seq: u32,
    event: &str,
    payload: &Value,
    out: &mut Vec<u8>,
) {
    header(KIND_EVENT, channel, seq, 0, out);
    out.extend_from_slice(br#"{"event":"#);
    write_json_string(event, out);
    out.extend_from_slice(br#","payload":"#);
    super::js_json::write_value(payload, out);
    out.push(b'}');
}

/// Appends `text` as a JSON string exactly as serde_json writes one, without building a
/// `Value`: `"` and `\` behind a backslash, the control characters as `\b \t \n \f \r` or
/// `\u00xx` (lowercase hex), every other character as it is.
pub(super) fn write_json_string(text: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut plain = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        let short = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x09 => b't',
            0x0a => b'n',
            0x0c => b'f',
            0x0d => b'r',
            0x00..=0x1f => b'u',
            _ => continue,
        };
        out.extend_from_slice(bytes.get(plain..at).unwrap_or_default());
        plain = at + 1;
        out.extend_from_slice(&[b'\\', short]);
        if short == b'u' {
            let high = HEX[usize::from(byte >> 4)];
            let low = HEX[usize::from(byte & 0xf)];
            out.extend_from_slice(&[b'0', b'0', high, low]);
        }
    }
    out.extend_from_slice(bytes.get(plain..).unwrap_or_default());
    out.push(b'"');
}

/// Appends the header, after reserving room for it and `body` more bytes.
#[inline]
fn header(kind: u8, channel: &ChannelName, seq: u32, body: usize, out: &mut Vec<u8>) {
    let name = channel.as_str().as_bytes();
    out.reserve(FIXED_HEADER + name.len() + 4 + body);
    // A `ChannelName` is at most 255 bytes, so its length always fits the length byte.
    let length = u8::try_from(name.len()).unwrap_or(u8::MAX);
    let [r, b, f] = CHANNEL_FRAME_MAGIC;
    out.extend_from_slice(&[r, b, f, CHANNEL_FRAME_VERSION, kind, length]);
    out.extend_from_slice(name);
    out.extend_from_slice(&seq.to_be_bytes());
}

/// The header of one frame, read by [`decode_header`]: everything but the body, which is not
/// looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChannelFrameHeader<'a> {
    /// True for a binary frame (kind 1), false for an event frame (kind 2).
    pub binary: bool,
    /// The channel name, checked UTF-8 of 1..=255 bytes, borrowed from the frame.
    pub channel: &'a str,
    /// The frame's seq.
    pub seq: u32,
    /// Where the body starts in the frame's bytes (it runs to their end).
    pub body_offset: usize,
}

/// Reads the header of one frame from `bytes`, never looking at the body.
///
/// # Errors
/// A [`ChannelFrameError`] naming the first thing wrong, checked in layout order: magic, fixed
/// header, version, kind, name length, name and seq present, name UTF-8. Never a body error.
#[inline]
pub fn decode_header(bytes: &[u8]) -> Result<ChannelFrameHeader<'_>, ChannelFrameError> {
    let header = split_header(bytes)?;
    Ok(ChannelFrameHeader {
        binary: header.binary,
        channel: header.channel()?,
        seq: header.seq,
        body_offset: header.body_offset,
    })
}

/// A header whose name is not yet checked to be UTF-8: a receiver that finds the name among its
/// channels' (all UTF-8) need not check it.
pub(super) struct RawHeader<'a> {
    pub(super) binary: bool,
    pub(super) name: &'a [u8],
    pub(super) seq: u32,
    pub(super) body_offset: usize,
}

impl<'a> RawHeader<'a> {
    /// The name as text, or the refusal of a name that is not UTF-8.
    #[inline]
    pub(super) fn channel(&self) -> Result<&'a str, ChannelFrameError> {
        core::str::from_utf8(self.name).map_err(|_| ChannelFrameError::ChannelNameNotUtf8)
    }
}

/// [`decode_header`] up to, not including, the name's UTF-8 check (the last one).
#[inline]
pub(super) fn split_header(bytes: &[u8]) -> Result<RawHeader<'_>, ChannelFrameError> {
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
    Ok(RawHeader {
        binary: *kind == KIND_BINARY,
        name,
        seq: u32::from_be_bytes(*seq),
        body_offset: bytes.len() - body.len(),
    })
}

/// Parses an event body: a JSON object with a non-empty string `event`; a missing `payload`
/// reads as `null` and other keys are ignored (as the reference does). Returns the event name
/// and the payload. A lone UTF-16 surrogate escape (`\ud800`, which JavaScript writes for a
/// string holding one) reads as U+FFFD, as JavaScript's `TextEncoder` would make it; a pair
/// reads as its character.
///
/// Bodies nested deeper than [`ReadLimits::DEFAULT`] allows are refused before they are parsed;
/// [`decode_event_body_within`] takes the host's bound.
///
/// # Errors
/// [`ChannelFrameError::MalformedJsonBody`], [`TooDeep`](ChannelFrameError::TooDeep),
/// [`EventBodyNotObject`](ChannelFrameError::EventBodyNotObject) or
/// [`MissingEventName`](ChannelFrameError::MissingEventName).
pub fn decode_event_body(body: &[u8]) -> Result<(String, Value), ChannelFrameError> {
    decode_event_body_within(body, &ReadLimits::DEFAULT)
}

/// [`decode_event_body`] with [`ReadLimits::depth`] of the host's `limits` as the nesting
/// bound.
///
/// # Errors
/// As [`decode_event_body`].
pub fn decode_event_body_within(
    body: &[u8],
    limits: &ReadLimits,
) -> Result<(String, Value), ChannelFrameError> {
    if nests_deeper(body, limits.depth) {
        return Err(ChannelFrameError::TooDeep {
            limit: limits.depth,
        });
    }
    let body: Value = serde_json::from_slice(body)
        .or_else(|error| {
            let repaired = super::lone_surrogates::replace_lone_surrogates(body).ok_or(error)?;
            serde_json::from_slice(&repaired)
        })
        .map_err(|error| ChannelFrameError::MalformedJsonBody(JsonBodyError::of(&error)))?;
    let Value::Object(mut body) = body else {
        return Err(ChannelFrameError::EventBodyNotObject);
    };
    let event = match body.remove("event") {
        Some(Value::String(event)) if !event.is_empty() => event,
        _ => return Err(ChannelFrameError::MissingEventName),
    };
    Ok((event, body.remove("payload").unwrap_or(Value::Null)))
}

/// Reads one whole frame from `bytes`: its [header](decode_header), then, for an event frame,
/// its [body](decode_event_body). A binary payload is copied into the frame.
///
/// # Errors
/// A [`ChannelFrameError`] naming the first thing wrong, checked in layout order: the header's
/// refusals, then the event body's.
pub fn decode_channel_frame(bytes: &[u8]) -> Result<ChannelFrame, ChannelFrameError> {
    let header = decode_header(bytes)?;
    // 1..=255 bytes by construction of the length byte, so the name is always accepted.
    let channel =
        ChannelName::new(header.channel).map_err(|_| ChannelFrameError::EmptyChannelName)?;
    let body = bytes.get(header.body_offset..).unwrap_or_default();
    if header.binary {
        return Ok(ChannelFrame::Binary(BinaryFrame {
            channel,
            seq: header.seq,
            payload: body.to_vec(),
        }));
    }
    let (event, payload) = decode_event_body(body)?;
    Ok(ChannelFrame::Event(ChannelEventFrame {
        channel,
        seq: header.seq,
        event,
        payload,
    }))
}

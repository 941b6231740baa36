//! Payload channel contracts (`channel-contracts`): a validated channel name, the descriptor a
//! channel is registered with, the frames a channel carries and what a receiver answers for one.
//! Byte framing, sequencing and reassembly are the runtime's.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::agent_core::Value;

/// A channel name: 1..=255 bytes of UTF-8, checked when built.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct ChannelName(String);

impl ChannelName {
    /// The longest name, in UTF-8 bytes.
    pub const MAX_BYTES: usize = 255;

    /// `name` as a channel name; refuses an empty name or one longer than 255 bytes.
    pub fn new(name: impl Into<String>) -> Result<Self, InvalidChannelName> {
        let name = name.into();
        if name.is_empty() || name.len() > Self::MAX_BYTES {
            Err(InvalidChannelName { bytes: name.len() })
        } else {
            Ok(Self(name))
        }
    }

    /// The name as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ChannelName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for ChannelName {
    type Error = InvalidChannelName;
    fn try_from(name: String) -> Result<Self, InvalidChannelName> {
        Self::new(name)
    }
}

impl From<ChannelName> for String {
    fn from(name: ChannelName) -> Self {
        name.0
    }
}

/// The refusal of [`ChannelName::new`]: the name is empty or longer than 255 UTF-8 bytes. It
/// keeps only the length, not the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("a channel name must be 1 to 255 UTF-8 bytes; received {bytes} bytes")]
pub struct InvalidChannelName {
    /// The refused name's length in UTF-8 bytes.
    pub bytes: usize,
}

/// How a channel is declared (`IChannelDescriptor`): its name, the event names it carries, and
/// whether it accepts binary frames.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and
/// [`with_binary`](Self::with_binary).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ChannelDescriptor {
    /// The channel's name, unique per host.
    pub name: ChannelName,
    /// The declared event names; any other event is refused.
    pub events: Vec<String>,
    /// Binary opt-in: absent or `false` refuses binary frames on this channel.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub binary: Option<bool>,
}

impl ChannelDescriptor {
    /// A channel declaring these event names, text frames only (`binary` absent).
    #[must_use]
    pub fn new<E: Into<String>>(name: ChannelName, events: impl IntoIterator<Item = E>) -> Self {
        Self {
            name,
            events: events.into_iter().map(Into::into).collect(),
            binary: None,
        }
    }

    /// The same declaration with the binary opt-in set (`binary: true` accepts binary frames).
    #[must_use]
    pub const fn with_binary(mut self, binary: bool) -> Self {
        self.binary = Some(binary);
        self
    }

    /// True when the channel opted in to binary frames (`binary: true`).
    #[must_use]
    #[inline]
    pub fn accepts_binary(&self) -> bool {
        self.binary == Some(true)
    }

    /// True when `event` is one of the declared event names (exact match).
    #[must_use]
    pub fn declares(&self, event: &str) -> bool {
        self.events.iter().any(|declared| declared == event)
    }
}

/// A binary frame (`IBinaryFrame`): bytes on a channel that opted in to binary, never inspected.
///
/// JSON form: `{"kind": "binary", "channel", "seq", "payload"}`, the payload written as a
/// lowercase hex string (two digits per byte, `""` for no bytes). Decoding refuses an odd
/// length, any character outside `0-9a-f` and anything but a string, so each byte string has
/// exactly one JSON form.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct BinaryFrame {
    /// The channel the frame travels on.
    pub channel: ChannelName,
    /// The sender-assigned sequence number (shared with the channel's event frames).
    pub seq: u32,
    /// The bytes, exactly as sent.
    #[cfg_attr(feature = "serde", serde(with = "hex_payload"))]
    pub payload: Vec<u8>,
}

/// An event frame (`IChannelEventFrame<P = Value>`): one declared event and its payload.
///
/// JSON form: `{"kind": "event", "channel", "seq", "event", "payload"}`; the payload is
/// required (`null` is a payload).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ChannelEventFrame<P = Value> {
    /// The channel the frame travels on.
    pub channel: ChannelName,
    /// The sender-assigned sequence number (shared with the channel's binary frames).
    pub seq: u32,
    /// The event name, one the channel declared.
    pub event: String,
    /// The event's payload.
    pub payload: P,
}

impl BinaryFrame {
    /// The frame `seq` on `channel` carrying `payload`.
    #[must_use]
    pub const fn new(channel: ChannelName, seq: u32, payload: Vec<u8>) -> Self {
        Self {
            channel,
            seq,
            payload,
        }
    }
}

impl<P> ChannelEventFrame<P> {
    /// The frame `seq` on `channel` carrying `event` with `payload`.
    #[must_use]
    pub fn new(channel: ChannelName, seq: u32, event: impl Into<String>, payload: P) -> Self {
        Self {
            channel,
            seq,
            event: event.into(),
            payload,
        }
    }
}

/// A frame on a payload channel (`TChannelFrame`), tagged `kind`: `"binary"` or `"event"`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "lowercase"))]
pub enum ChannelFrame<P = Value> {
    /// `kind: 'binary'`.
    Binary(BinaryFrame),
    /// `kind: 'event'`.
    Event(ChannelEventFrame<P>),
}

impl<P> ChannelFrame<P> {
    /// The channel the frame travels on.
    #[must_use]
    pub fn channel(&self) -> &ChannelName {
        match self {
            Self::Binary(frame) => &frame.channel,
            Self::Event(frame) => &frame.channel,
        }
    }

    /// The frame's sequence number in its channel's one sequence space.
    #[must_use]
    pub fn seq(&self) -> u32 {
        match self {
            Self::Binary(frame) => frame.seq,
            Self::Event(frame) => frame.seq,
        }
    }
}

/// What a receiver answers for one inbound frame (`TChannelReceiveResult`): the routed frame, or
/// the reason it was refused, as text the peer can read.
///
/// JSON form: `{"ok": true, "frame": …}` or `{"ok": false, "error": "…"}`; decoding refuses
/// `ok: true` without a frame or with an error, and `ok: false` without an error or with a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "ReceiveResultWire", into = "ReceiveResultWire")
)]
pub enum ChannelReceiveResult {
    /// `ok: true`: the frame was routed.
    Accepted {
        /// The routed frame.
        frame: ChannelFrame,
    },
    /// `ok: false`: the frame was refused.
    Refused {
        /// Why, in words.
        error: String,
    },
}

/// The TypeScript WebSocket transport's answer to one refused inbound frame: the server message
/// `{"type": "protocol_error", "message": "…"}`, sent instead of the `{ok: false, error}` form
/// of [`ChannelReceiveResult`], with the same words.
///
/// Only a server sends it: the reference's server answers a `protocol_error` from a client
/// with `Unknown message type: protocol_error`, so a client refuses frames silently or with its
/// own diagnostics. Decoding refuses any other `type`; other members are ignored, as the
/// reference ignores them.
///
/// [`to_json`](Self::to_json) writes the wire form without the `serde` feature.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(from = "ProtocolErrorWire", into = "ProtocolErrorWire")
)]
#[non_exhaustive]
pub struct ProtocolErrorMessage {
    /// Why the frame was refused, in words.
    pub message: String,
}

impl ProtocolErrorMessage {
    /// The message for a refusal worded `message`.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The message's wire JSON, `{"type":"protocol_error","message":"…"}`: byte for byte what
    /// its serde form writes, with or without the `serde` feature, ready to send as a text frame.
    /// The words are escaped by serde_json's own string writer (a `Value`'s `Display`), the one
    /// the serde form uses.
    #[must_use]
    pub fn to_json(&self) -> String {
        use core::fmt::Write as _;
        let mut out = String::with_capacity(self.message.len() + 40);
        out.push_str(r#"{"type":"protocol_error","message":"#);
        // Writing to a `String` cannot fail.
        let _ = write!(out, "{}", Value::from(self.message.as_str()));
        out.push('}');
        out
    }
}

/// The wire form of [`ProtocolErrorMessage`]: its one server-message kind, so the tag is checked.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ProtocolErrorWire {
    ProtocolError { message: String },
}

#[cfg(feature = "serde")]
impl From<ProtocolErrorWire> for ProtocolErrorMessage {
    fn from(ProtocolErrorWire::ProtocolError { message }: ProtocolErrorWire) -> Self {
        Self { message }
    }
}

#[cfg(feature = "serde")]
impl From<ProtocolErrorMessage> for ProtocolErrorWire {
    fn from(ProtocolErrorMessage { message }: ProtocolErrorMessage) -> Self {
        Self::ProtocolError { message }
    }
}

/// The wire form of [`ChannelReceiveResult`]: a boolean tag and the member it selects.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ReceiveResultWire {
    ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame: Option<ChannelFrame>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[cfg(feature = "serde")]
impl TryFrom<ReceiveResultWire> for ChannelReceiveResult {
    type Error = &'static str;

    fn try_from(wire: ReceiveResultWire) -> Result<Self, Self::Error> {
        match wire {
            ReceiveResultWire {
                ok: true,
                frame: Some(frame),
                error: None,
            } => Ok(Self::Accepted { frame }),
            ReceiveResultWire {
                ok: false,
                frame: None,
                error: Some(error),
            } => Ok(Self::Refused { error }),
            ReceiveResultWire { ok: true, .. } => {
                Err("a receive result with `ok: true` has a `frame` and no `error`")
            }
            ReceiveResultWire { ok: false, .. } => {
                Err("a receive result with `ok: false` has an `error` and no `frame`")
            }
        }
    }
}

#[cfg(feature = "serde")]
impl From<ChannelReceiveResult> for ReceiveResultWire {
    fn from(result: ChannelReceiveResult) -> Self {
        match result {
            ChannelReceiveResult::Accepted { frame } => Self {
                ok: true,
                frame: Some(frame),
                error: None,
            },
            ChannelReceiveResult::Refused { error } => Self {
                ok: false,
                frame: None,
                error: Some(error),
            },
        }
    }
}

/// The JSON form of binary payloads: a lowercase hex string.
#[cfg(feature = "serde")]
mod hex_payload {
    use alloc::vec;
    use alloc::vec::Vec;
    use core::fmt;

    use base16ct::HexDisplay;

    pub(super) fn serialize<S: serde::Serializer>(
        bytes: &[u8],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{:x}", HexDisplay(bytes)))
    }

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<u8>, D::Error> {
        deserializer.deserialize_str(HexVisitor)
    }

    struct HexVisitor;

    impl serde::de::Visitor<'_> for HexVisitor {
        type Value = Vec<u8>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("binary payload bytes as a lowercase hex string (two digits per byte)")
        }

        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Vec<u8>, E> {
            let refuse = || E::invalid_value(serde::de::Unexpected::Str(text), &self);
            if !text.len().is_multiple_of(2) {
                return Err(refuse());
            }
            let mut bytes = vec![0; text.len() / 2];
            let whole = base16ct::lower::decode(text, &mut bytes)
                .is_ok_and(|decoded| decoded.len() == text.len() / 2);
            if whole { Ok(bytes) } else { Err(refuse()) }
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::ProtocolErrorMessage;

    /// Words with every escape serde_json writes, and characters it leaves as they are.
    fn words() -> Vec<String> {
        let mut words: Vec<String> = (0u32..0x80)
            .chain([0xa0, 0xe9, 0x2028, 0x2029, 0xfeff, 0xfffd, 0x1_f600])
            .filter_map(char::from_u32)
            .map(|c| format!("a{c}b"))
            .collect();
        words.push(String::new());
        words.push(String::from(
            "Channel \"text\" did not declare event \"a\\b\"",
        ));
        words
    }

    #[test]
    fn the_wire_json_is_the_reference_servers_message() {
        let message = ProtocolErrorMessage::new("channel frame: malformed JSON body");
        assert_eq!(
            message.to_json(),
            r#"{"type":"protocol_error","message":"channel frame: malformed JSON body"}"#
        );
        let escaped = ProtocolErrorMessage::new("\"\\\n\t\u{1}\u{7f}\u{e9}\u{2028}").to_json();
        assert_eq!(
            escaped,
            "{\"type\":\"protocol_error\",\"message\":\"\\\"\\\\\\n\\t\\u0001\u{7f}\u{e9}\u{2028}\"}"
        );
        for words in words() {
            let json = ProtocolErrorMessage::new(words.as_str()).to_json();
            let value: crate::agent_core::Value = serde_json::from_str(&json).expect("JSON");
            assert_eq!(value["type"], "protocol_error");
            assert_eq!(value["message"], words.as_str(), "{json}");
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn the_wire_json_is_the_serde_form_byte_for_byte() {
        for words in words() {
            let message = ProtocolErrorMessage::new(words);
            let serde_form = serde_json::to_string(&message).expect("encodes");
            assert_eq!(message.to_json(), serde_form);
            let back: ProtocolErrorMessage =
                serde_json::from_str(&message.to_json()).expect("decodes");
            assert_eq!(back, message);
        }
    }
}

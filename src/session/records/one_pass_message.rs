//! The record's messages read in one pass over their text.
//!
//! A message is tagged on `role` and every role flattens the shared base, so serde's derived
//! decoder buffers each message twice (the tag, then the flattened base) before it builds it;
//! on a record that is mostly messages that buffering is most of the decode. This reads a
//! message as one object holding the members of every role, then builds the role's message.
//! It answers only when the derived decoder would decode the same value: any text it does not
//! read cleanly (a member of another role with the wrong type, a missing member, an unknown
//! role) gives `None`, and the caller decodes that message with the derived decoder, whose
//! answer (and issue, when it fails) stands.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Deserialize as _;
use serde::de::IgnoredAny;

use crate::agent_core::{
    AssistantMessage, BaseMessage, MessageRole, MessageState, SystemMessage, ToolCall, ToolMessage,
    UniversalMessage, UserMessage, ValueMap,
};

/// Every member a message of any role declares; what a role does not declare is dropped.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct AnyRole {
    role: MessageRole,
    id: String,
    timestamp: String,
    state: MessageState,
    #[serde(default)]
    metadata: Option<ValueMap>,
    /// `Some` when present: `null` for an assistant's reply without text.
    #[serde(default, deserialize_with = "present")]
    content: Option<Option<String>>,
    /// Parts are left to the derived decoder (rare in a record, and their tagged decoder
    /// would be a second instance of it in the build): a message with parts is not read here.
    #[serde(default)]
    parts: Option<IgnoredAny>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<ToolCall>>,
    #[serde(default)]
    tool_call_id: Option<String>,
}

fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// The message `text` holds, when one pass reads it whole and it is what the derived decoder
/// would give; `None` otherwise (then only the derived decoder can tell).
pub(super) fn message_in_one_pass(text: &str) -> Option<UniversalMessage> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let read = AnyRole::deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    let base = BaseMessage {
        id: read.id,
        timestamp: read.timestamp,
        state: read.state,
        metadata: read.metadata,
    };
    // `null` reads as `None`, as the derived decoder reads it.
    if read.parts.is_some() {
        return None;
    }
    let parts = None;
    Some(match read.role {
        MessageRole::User => UniversalMessage::User(UserMessage {
            base,
            content: read.content.flatten()?,
            parts,
            name: read.name,
        }),
        MessageRole::Assistant => UniversalMessage::Assistant(AssistantMessage {
            base,
            content: read.content?,
            parts,
            tool_calls: read.tool_calls,
        }),
        MessageRole::System => UniversalMessage::System(SystemMessage {
            base,
            content: read.content.flatten()?,
            parts,
            name: read.name,
        }),
        MessageRole::Tool => UniversalMessage::Tool(ToolMessage {
            base,
            content: read.content.flatten()?,
            parts,
            tool_call_id: read.tool_call_id?,
            name: read.name,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::message_in_one_pass;
    use crate::agent_core::UniversalMessage;

    /// Texts, each with whether the one pass reads it (else it leaves it to the derived
    /// decoder).
    const TEXTS: &[(&str, bool)] = &[
        (
            r#"{"role":"user","id":"m1","timestamp":"t","state":"complete","content":"hi"}"#,
            true,
        ),
        (
            r#"{"id":"m1","timestamp":"t","content":"hi","state":"complete","role":"user","name":"n"}"#,
            true,
        ),
        (
            r#"{"role":"assistant","id":"m2","timestamp":"t","state":"complete","content":null,
            "toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}"#,
            true,
        ),
        (
            r#"{"role":"tool","id":"m3","timestamp":"t","state":"interrupted","content":"out",
            "toolCallId":"c","name":"bash","metadata":{"a":[1,2.5,"x"],"b":null}}"#,
            true,
        ),
        (
            r#"{"role":"system","id":"m4","timestamp":"t","state":"complete","content":"s",
            "extra":{"kept":false},"parts":null}"#,
            true,
        ),
        (
            r#"{"role":"user","id":"m1","timestamp":"t","state":"complete","content":"a\"b\u00e9"}"#,
            true,
        ),
        // Decodes, but holds parts, or a member another role declares has the wrong type (which
        // the derived decoder ignores): left to the derived decoder.
        (
            r#"{"role":"system","id":"m4","timestamp":"t","state":"complete","content":"s",
            "parts":[{"type":"text","text":"p"}]}"#,
            false,
        ),
        (
            r#"{"role":"assistant","id":"m2","timestamp":"t","state":"complete","content":"x","name":5}"#,
            false,
        ),
        (
            r#"{"role":"user","id":"m1","timestamp":"t","state":"complete","content":"x","toolCalls":7}"#,
            false,
        ),
        // Does not decode.
        (
            r#"{"role":0,"id":"m4","timestamp":"t","state":"complete","content":"s"}"#,
            false,
        ),
        (
            r#"{"role":"assistant","id":"m2","timestamp":"t","state":"complete"}"#,
            false,
        ),
        (
            r#"{"role":"user","id":"m1","timestamp":"t","state":"complete","content":null}"#,
            false,
        ),
        (
            r#"{"role":"tool","id":"m3","timestamp":"t","state":"complete","content":"out"}"#,
            false,
        ),
        (
            r#"{"role":"system","id":"m4","id":"m5","timestamp":"t","state":"complete","content":"s"}"#,
            false,
        ),
        (
            r#"{"role":"robot","id":"m4","timestamp":"t","state":"complete","content":"s"}"#,
            false,
        ),
        (
            r#"{"id":"m4","timestamp":"t","state":"complete","content":"s"}"#,
            false,
        ),
        (
            r#"{"role":"user","id":"m1","timestamp":"t","state":"complete","content":"x"} x"#,
            false,
        ),
        (r#"[1,2]"#, false),
        (r#"{"role":"user""#, false),
    ];

    #[test]
    fn the_one_pass_reads_what_the_derived_decoder_reads_or_leaves_it_the_text() {
        for (text, reads) in TEXTS {
            let derived = serde_json::from_str::<UniversalMessage>(text).ok();
            let one_pass = message_in_one_pass(text);
            assert_eq!(one_pass.is_some(), *reads, "{text}");
            if let Some(message) = one_pass {
                assert_eq!(Some(message), derived, "{text}");
            }
        }
        // Each case left to the derived decoder that it accepts is one named above.
        let accepted = TEXTS
            .iter()
            .filter(|(text, _)| serde_json::from_str::<UniversalMessage>(text).is_ok())
            .count();
        assert_eq!(accepted, 9);
    }
}

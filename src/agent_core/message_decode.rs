//! The `Deserialize` of [`UniversalMessage`], read in one pass (crate-private; only compiled
//! with `serde`).
//!
//! A message is tagged on `role` and every role flattens the shared [`BaseMessage`], so serde's
//! derived decoder buffers each message twice (for the tag, then for the flattened base) and
//! links a second instance of every member's decoder, built for the buffer. Read with
//! `agent_core::tagged`, the members every role declares alike are read where they are written,
//! the others once the role is known. Where it reads differently from the derived decoder (which
//! problem it names first when a message has several) is recorded in
//! `docs/decisions/session-record-codec.md` ("Tagged events read in one pass").

use alloc::string::String;
use alloc::vec::Vec;

use serde::de;

use super::message::{
    AssistantMessage, BaseMessage, MessageRole, MessageState, SystemMessage, ToolCall, ToolMessage,
    UniversalMessage, UniversalMessagePart, UserMessage,
};
use super::tagged::{MemberSource, TaggedMembers, decode_tagged, read_once, required};
use super::value::ValueMap;

/// A member some role declares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Id,
    Timestamp,
    State,
    Metadata,
    Parts,
    Content,
    Name,
    ToolCalls,
    ToolCallId,
}

/// The members of a message read so far. `content` is a string on every role but the
/// assistant's, where it may be `null`: read before the role, it is read as either, and a
/// `null` is refused once the role says it must be a string.
#[derive(Default)]
struct MessageMembers {
    id: Option<String>,
    timestamp: Option<String>,
    state: Option<MessageState>,
    metadata: Option<Option<ValueMap>>,
    parts: Option<Option<Vec<UniversalMessagePart>>>,
    content: Option<Option<String>>,
    /// A second `content` came before the role, after a `null`: a repeat on the assistant's,
    /// but the `null` is the first problem on another role's.
    content_after_null: bool,
    name: Option<Option<String>>,
    tool_calls: Option<Option<Vec<ToolCall>>>,
    tool_call_id: Option<String>,
}

impl MessageMembers {
    /// The base every role carries, a missing member refused in the order it declares them.
    fn base<E: de::Error>(&mut self) -> Result<BaseMessage, E> {
        Ok(BaseMessage {
            id: required(self.id.take(), "id")?,
            timestamp: required(self.timestamp.take(), "timestamp")?,
            state: required(self.state, "state")?,
            metadata: self.metadata.take().flatten(),
        })
    }
}

impl TaggedMembers for MessageMembers {
    type Tag = MessageRole;
    type Member = Member;
    type Output = UniversalMessage;

    const TAG: &'static str = "role";
    const EXPECTING: &'static str = "internally tagged enum UniversalMessage";

    fn member(name: &str) -> Option<Member> {
        Some(match name {
            "id" => Member::Id,
            "timestamp" => Member::Timestamp,
            "state" => Member::State,
            "metadata" => Member::Metadata,
            "parts" => Member::Parts,
            "content" => Member::Content,
            "name" => Member::Name,
            "toolCalls" => Member::ToolCalls,
            "toolCallId" => Member::ToolCallId,
            _ => return None,
        })
    }

    fn declares(member: Member, role: MessageRole) -> bool {
        match member {
            Member::Name => role != MessageRole::Assistant,
            Member::ToolCalls => role == MessageRole::Assistant,
            Member::ToolCallId => role == MessageRole::Tool,
            _ => true,
        }
    }

    fn shared(member: Member) -> bool {
        // `content` is declared by every role, its type differs only in `null`.
        matches!(
            member,
            Member::Id
                | Member::Timestamp
                | Member::State
                | Member::Metadata
                | Member::Parts
                | Member::Content
        )
    }

    fn read<S: MemberSource>(
        &mut self,
        member: Member,
        role: Option<MessageRole>,
        source: S,
    ) -> Result<(), S::Error> {
        match member {
            Member::Id => read_once(&mut self.id, "id", source),
            Member::Timestamp => read_once(&mut self.timestamp, "timestamp", source),
            Member::State => read_once(&mut self.state, "state", source),
            Member::Metadata => read_once(&mut self.metadata, "metadata", source),
            Member::Parts => read_once(&mut self.parts, "parts", source),
            Member::Content if role.is_none() && self.content == Some(None) => {
                self.content_after_null = true;
                source.read::<de::IgnoredAny>().map(drop)
            }
            Member::Content if role.is_none_or(|role| role == MessageRole::Assistant) => {
                read_once(&mut self.content, "content", source)
            }
            Member::Content if self.content.is_some() => Err(de::Error::duplicate_field("content")),
            Member::Content => {
                self.content = Some(Some(source.read()?));
                Ok(())
            }
            Member::Name => read_once(&mut self.name, "name", source),
            Member::ToolCalls => read_once(&mut self.tool_calls, "toolCalls", source),
            Member::ToolCallId => read_once(&mut self.tool_call_id, "toolCallId", source),
        }
    }

    fn tagged<E: de::Error>(&mut self, role: MessageRole) -> Result<(), E> {
        if role != MessageRole::Assistant && self.content == Some(None) {
            return Err(de::Error::invalid_type(de::Unexpected::Unit, &"a string"));
        }
        if self.content_after_null {
            return Err(de::Error::duplicate_field("content"));
        }
        Ok(())
    }

    fn build<E: de::Error>(mut self, role: MessageRole) -> Result<UniversalMessage, E> {
        // The role's own members are named missing before the base's, as serde's derived
        // decoder (which reads the flattened base last) names them.
        let content = required(self.content.take(), "content")?;
        let tool_call_id = match role {
            MessageRole::Tool => required(self.tool_call_id.take(), "toolCallId")?,
            _ => String::new(),
        };
        let base = self.base()?;
        let parts = self.parts.flatten();
        let name = self.name.flatten();
        Ok(match role {
            MessageRole::User => UniversalMessage::User(UserMessage {
                base,
                content: string(content)?,
                parts,
                name,
            }),
            MessageRole::Assistant => UniversalMessage::Assistant(AssistantMessage {
                base,
                content,
                parts,
                tool_calls: self.tool_calls.flatten(),
            }),
            MessageRole::System => UniversalMessage::System(SystemMessage {
                base,
                content: string(content)?,
                parts,
                name,
            }),
            MessageRole::Tool => UniversalMessage::Tool(ToolMessage {
                base,
                content: string(content)?,
                parts,
                tool_call_id,
                name,
            }),
        })
    }
}

/// The `content` of a role other than the assistant's, never `null` (already refused when the
/// role was read, see [`MessageMembers::tagged`]).
fn string<E: de::Error>(content: Option<String>) -> Result<String, E> {
    content.ok_or_else(|| de::Error::invalid_type(de::Unexpected::Unit, &"a string"))
}

impl<'de> de::Deserialize<'de> for UniversalMessage {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        decode_tagged::<MessageMembers, D>(deserializer)
    }
}

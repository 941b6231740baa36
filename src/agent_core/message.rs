//! Conversation messages (`TUniversalMessage`) and their parts and tool calls.

use alloc::string::String;
use alloc::vec::Vec;

use super::value::ValueMap;

string_enum! {
    /// Who speaks a message (`TUniversalMessageRole`); the tag of [`UniversalMessage`].
    pub closed enum MessageRole {
        /// The human (or the host speaking for them).
        User = "user",
        /// The model.
        Assistant = "assistant",
        /// Instructions that frame the conversation.
        System = "system",
        /// The result of a tool call, answering one assistant tool call.
        Tool = "tool",
    }
}

string_enum! {
    /// Whether a message in history is whole (`TMessageState`).
    pub enum MessageState {
        /// The message was produced to its end.
        Complete = "complete",
        /// Production stopped part-way (aborted turn, lost connection); the content is a prefix.
        Interrupted = "interrupted",
    }
}

string_enum! {
    /// The kind of a tool call; the contract knows only function calls.
    pub enum ToolCallType {
        /// A call of a named function with JSON-encoded arguments.
        Function = "function",
    }
}

/// One part of a multimodal message (`TUniversalMessagePart`), tagged on `type`.
///
/// `#[non_exhaustive]`: the contract's part kinds grow (audio, files), so match it with a
/// wildcard arm. Build parts with [`text`](Self::text), [`image_inline`](Self::image_inline) and
/// [`image_uri`](Self::image_uri).
// `Deserialize` is written out (`part_decode`): the derived one, buffered inside a message's,
// read a numeric tag as a variant's index.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "type",
        rename_all = "snake_case",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum UniversalMessagePart {
    /// `type: 'text'`: a run of text.
    Text {
        /// The text itself.
        text: String,
    },
    /// `type: 'image_inline'`: an image carried in the message.
    ImageInline {
        /// The image's media type, e.g. `image/png`.
        mime_type: String,
        /// The image bytes as the producer encoded them (base64 in practice; not checked here).
        data: String,
    },
    /// `type: 'image_uri'`: an image the receiver fetches from a location.
    ImageUri {
        /// Where the image lives.
        uri: String,
        /// The image's media type, when the producer knows it.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        mime_type: Option<String>,
    },
}

/// The function a tool call names and the arguments it passes.
///
/// `#[non_exhaustive]`, so the contract can add optional members: build it with
/// [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolCallFunction {
    /// The tool's name.
    pub name: String,
    /// The arguments as the model wrote them: a JSON text, kept verbatim and not parsed here.
    pub arguments: String,
}

/// A tool call made by the assistant (`IToolCall`): on the wire
/// `{"id", "type": "function", "function": {"name", "arguments"}}`; any other `type` fails to
/// decode.
///
/// `#[non_exhaustive]`, so the contract can add optional members: build it with
/// [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "ToolCallWire", into = "ToolCallWire"))]
#[non_exhaustive]
pub struct ToolCall {
    /// The call's id; the answering tool message names it as `toolCallId`.
    pub id: String,
    /// The function called and its arguments.
    pub function: ToolCallFunction,
}

impl ToolCall {
    /// The call's kind, always [`ToolCallType::Function`] (the wire `type`).
    #[must_use]
    pub const fn call_type(&self) -> ToolCallType {
        ToolCallType::Function
    }
}

/// The wire form of [`ToolCall`]; decoding `type` refuses anything but `'function'`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ToolCallWire {
    id: String,
    #[serde(rename = "type")]
    call_type: ToolCallType,
    function: ToolCallFunction,
}

#[cfg(feature = "serde")]
impl From<ToolCallWire> for ToolCall {
    fn from(wire: ToolCallWire) -> Self {
        // `ToolCallType` has the one value `Function`, so there is nothing left to check.
        let ToolCallType::Function = wire.call_type;
        Self {
            id: wire.id,
            function: wire.function,
        }
    }
}

#[cfg(feature = "serde")]
impl From<ToolCall> for ToolCallWire {
    fn from(call: ToolCall) -> Self {
        Self {
            id: call.id,
            call_type: ToolCallType::Function,
            function: call.function,
        }
    }
}

/// The fields every message carries whatever its role (`IBaseMessage`); flattened into each
/// role's record on the wire.
///
/// `#[non_exhaustive]`, so the contract can add optional members: build it with
/// [`new`](Self::new) and the `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BaseMessage {
    /// The message's unique id.
    pub id: String,
    /// When the message was created: an ISO-8601 string (a JS `Date` on the TypeScript side),
    /// carried as written and not validated here.
    pub timestamp: String,
    /// Whether the message is whole or was cut short.
    pub state: MessageState,
    /// Free-form annotations. The TypeScript type narrows the values to strings, numbers,
    /// booleans, dates, string or number lists and number maps; this map does not enforce that.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub metadata: Option<ValueMap>,
}

/// A message from the user (`IUserMessage`, `role: 'user'`).
///
/// `#[non_exhaustive]`, so the contract can add optional members: build it with
/// [`new`](Self::new) and the `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct UserMessage {
    /// Id, timestamp, state and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BaseMessage,
    /// The message text.
    pub content: String,
    /// Multimodal parts, in order, when the message is more than text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub parts: Option<Vec<UniversalMessagePart>>,
    /// An optional name telling several users apart.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub name: Option<String>,
}

/// A message from the model (`IAssistantMessage`, `role: 'assistant'`).
///
/// `#[non_exhaustive]`, so the contract can add optional members: build it with
/// [`new`](Self::new) and the `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct AssistantMessage {
    /// Id, timestamp, state and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BaseMessage,
    /// The reply text, or `None` (wire `null`) when the model only called tools. The key is
    /// required on the wire: `None` is written as `null`, and a message without the key fails to
    /// decode.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "super::value::required_nullable")
    )]
    pub content: Option<String>,
    /// Multimodal parts, in order, when the reply is more than text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub parts: Option<Vec<UniversalMessagePart>>,
    /// The tool calls the model made in this reply, in order.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_calls: Option<Vec<ToolCall>>,
}

/// A system instruction (`ISystemMessage`, `role: 'system'`).
///
/// `#[non_exhaustive]`, so the contract can add optional members: build it with
/// [`new`](Self::new) and the `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SystemMessage {
    /// Id, timestamp, state and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BaseMessage,
    /// The instruction text.
    pub content: String,
    /// Multimodal parts, in order, when the instruction is more than text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub parts: Option<Vec<UniversalMessagePart>>,
    /// An optional name for the instruction's author.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub name: Option<String>,
}

/// The result of one tool call (`IToolMessage`, `role: 'tool'`).
///
/// `#[non_exhaustive]`, so the contract can add optional members: build it with
/// [`new`](Self::new) and the `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolMessage {
    /// Id, timestamp, state and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BaseMessage,
    /// The tool's output as text.
    pub content: String,
    /// Multimodal parts, in order, when the output is more than text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub parts: Option<Vec<UniversalMessagePart>>,
    /// The [`ToolCall::id`] this message answers.
    pub tool_call_id: String,
    /// The name of the tool that ran, when given.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub name: Option<String>,
}

/// One conversation message (`TUniversalMessage`), tagged on `role`.
///
/// Narrow it with an exhaustive `match`; the accessors below read the fields every role shares.
// `Deserialize` is written out (`message_decode`): the derived one buffers the message twice
// (tag, then flattened base) and links a second decoder of every member.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "role", rename_all = "lowercase"))]
pub enum UniversalMessage {
    /// `role: 'user'`.
    User(UserMessage),
    /// `role: 'assistant'`.
    Assistant(AssistantMessage),
    /// `role: 'system'`.
    System(SystemMessage),
    /// `role: 'tool'`.
    Tool(ToolMessage),
}

impl UniversalMessage {
    /// The fields shared by every role.
    #[must_use]
    pub const fn base(&self) -> &BaseMessage {
        match self {
            Self::User(m) => &m.base,
            Self::Assistant(m) => &m.base,
            Self::System(m) => &m.base,
            Self::Tool(m) => &m.base,
        }
    }

    /// The fields shared by every role, for changing them.
    pub const fn base_mut(&mut self) -> &mut BaseMessage {
        match self {
            Self::User(m) => &mut m.base,
            Self::Assistant(m) => &mut m.base,
            Self::System(m) => &mut m.base,
            Self::Tool(m) => &mut m.base,
        }
    }

    /// The message's role: the wire tag.
    #[must_use]
    pub const fn role(&self) -> MessageRole {
        match self {
            Self::User(_) => MessageRole::User,
            Self::Assistant(_) => MessageRole::Assistant,
            Self::System(_) => MessageRole::System,
            Self::Tool(_) => MessageRole::Tool,
        }
    }

    /// The message's unique id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.base().id
    }

    /// When the message was created, as the ISO-8601 string it was carried as.
    #[must_use]
    pub fn timestamp(&self) -> &str {
        &self.base().timestamp
    }

    /// Whether the message is whole or was cut short.
    #[must_use]
    pub const fn state(&self) -> MessageState {
        self.base().state
    }

    /// The message's metadata, when it has any.
    #[must_use]
    pub const fn metadata(&self) -> Option<&ValueMap> {
        self.base().metadata.as_ref()
    }

    /// The message text; `None` only for an assistant message whose content is `null`.
    #[must_use]
    pub fn content(&self) -> Option<&str> {
        match self {
            Self::User(m) => Some(&m.content),
            Self::Assistant(m) => m.content.as_deref(),
            Self::System(m) => Some(&m.content),
            Self::Tool(m) => Some(&m.content),
        }
    }

    /// The multimodal parts, when the message has them.
    #[must_use]
    pub fn parts(&self) -> Option<&[UniversalMessagePart]> {
        match self {
            Self::User(m) => m.parts.as_deref(),
            Self::Assistant(m) => m.parts.as_deref(),
            Self::System(m) => m.parts.as_deref(),
            Self::Tool(m) => m.parts.as_deref(),
        }
    }
}

impl From<UserMessage> for UniversalMessage {
    fn from(message: UserMessage) -> Self {
        Self::User(message)
    }
}

impl From<AssistantMessage> for UniversalMessage {
    fn from(message: AssistantMessage) -> Self {
        Self::Assistant(message)
    }
}

impl From<SystemMessage> for UniversalMessage {
    fn from(message: SystemMessage) -> Self {
        Self::System(message)
    }
}

impl From<ToolMessage> for UniversalMessage {
    fn from(message: ToolMessage) -> Self {
        Self::Tool(message)
    }
}

impl UniversalMessagePart {
    /// A `text` part.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text { text: text.into() }
    }

    /// An `image_inline` part: the image's media type and its bytes as the producer encoded them.
    #[must_use]
    pub fn image_inline(mime_type: impl Into<String>, data: impl Into<String>) -> Self {
        Self::ImageInline {
            mime_type: mime_type.into(),
            data: data.into(),
        }
    }

    /// An `image_uri` part without a media type.
    #[must_use]
    pub fn image_uri(uri: impl Into<String>) -> Self {
        Self::ImageUri {
            uri: uri.into(),
            mime_type: None,
        }
    }
}

impl ToolCallFunction {
    /// The named function with its arguments as a JSON text, kept verbatim.
    #[must_use]
    pub fn new(name: impl Into<String>, arguments: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}

impl ToolCall {
    /// A function call with this id, naming `function`.
    #[must_use]
    pub fn new(id: impl Into<String>, function: ToolCallFunction) -> Self {
        Self {
            id: id.into(),
            function,
        }
    }
}

impl BaseMessage {
    /// A whole ([`MessageState::Complete`]) message's shared fields, without metadata.
    #[must_use]
    pub fn new(id: impl Into<String>, timestamp: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            timestamp: timestamp.into(),
            state: MessageState::Complete,
            metadata: None,
        }
    }

    /// The same fields with `state` in place of the current state.
    #[must_use]
    pub fn with_state(mut self, state: MessageState) -> Self {
        self.state = state;
        self
    }
}

optional_setters!(BaseMessage {
    /// The same fields with `metadata` in place of any current metadata.
    with_metadata => metadata: ValueMap,
});

/// The chainable setters every role's message shares: the base's state and metadata, and the
/// multimodal parts.
macro_rules! message_setters {
    ($message:ident) => {
        impl $message {
            /// The same message with `state` in place of its current state.
            #[must_use]
            pub fn with_state(mut self, state: MessageState) -> Self {
                self.base.state = state;
                self
            }

            /// The same message with `metadata` in place of any current metadata.
            #[must_use]
            pub fn with_metadata(mut self, metadata: ValueMap) -> Self {
                self.base.metadata = Some(metadata);
                self
            }

            /// The same message with `base` in place of its id, timestamp, state and metadata.
            #[must_use]
            pub fn with_base(mut self, base: BaseMessage) -> Self {
                self.base = base;
                self
            }

            /// The same message with these multimodal parts, in order.
            #[must_use]
            pub fn with_parts(mut self, parts: Vec<UniversalMessagePart>) -> Self {
                self.parts = Some(parts);
                self
            }
        }
    };
}

message_setters!(UserMessage);
message_setters!(AssistantMessage);
message_setters!(SystemMessage);
message_setters!(ToolMessage);

impl UserMessage {
    /// A whole user message with this text, without parts, name or metadata.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        Self {
            base: BaseMessage::new(id, timestamp),
            content: content.into(),
            parts: None,
            name: None,
        }
    }
}

optional_setters!(UserMessage {
    /// The same message with the name that tells its user apart.
    with_name => name: impl Into<String>,
});

impl AssistantMessage {
    /// A whole assistant reply with this text (`None` when the model only calls tools), without
    /// parts, tool calls or metadata.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        content: Option<String>,
    ) -> Self {
        Self {
            base: BaseMessage::new(id, timestamp),
            content,
            parts: None,
            tool_calls: None,
        }
    }
}

optional_setters!(AssistantMessage {
    /// The same reply with these tool calls, in order.
    with_tool_calls => tool_calls: Vec<ToolCall>,
});

impl SystemMessage {
    /// A whole system instruction with this text, without parts, name or metadata.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        Self {
            base: BaseMessage::new(id, timestamp),
            content: content.into(),
            parts: None,
            name: None,
        }
    }
}

optional_setters!(SystemMessage {
    /// The same instruction with its author's name.
    with_name => name: impl Into<String>,
});

impl ToolMessage {
    /// A whole tool result answering the call `tool_call_id` with this text, without parts, name
    /// or metadata.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        tool_call_id: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        Self {
            base: BaseMessage::new(id, timestamp),
            content: content.into(),
            parts: None,
            tool_call_id: tool_call_id.into(),
            name: None,
        }
    }
}

optional_setters!(ToolMessage {
    /// The same result with the name of the tool that ran.
    with_name => name: impl Into<String>,
});

impl UniversalMessage {
    /// A whole user message with this text: [`UserMessage::new`], wrapped.
    #[must_use]
    pub fn user(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        Self::User(UserMessage::new(id, timestamp, content))
    }

    /// A whole assistant reply: [`AssistantMessage::new`], wrapped.
    #[must_use]
    pub fn assistant(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        content: Option<String>,
    ) -> Self {
        Self::Assistant(AssistantMessage::new(id, timestamp, content))
    }

    /// A whole system instruction with this text: [`SystemMessage::new`], wrapped.
    #[must_use]
    pub fn system(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        Self::System(SystemMessage::new(id, timestamp, content))
    }

    /// A whole tool result answering `tool_call_id`: [`ToolMessage::new`], wrapped.
    #[must_use]
    pub fn tool(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        tool_call_id: impl Into<String>,
        content: impl Into<String>,
    ) -> Self {
        Self::Tool(ToolMessage::new(id, timestamp, tool_call_id, content))
    }
}

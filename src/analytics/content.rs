//! Opt-in live content: prompt, response and tool text, in a batch of its own.
//!
//! Content never joins the trace projection. A content batch is linked to its trace only by the
//! root trace and span ids (and a tool item by its call's tool span when the trace kept one), so
//! a consumer that never asks for content never holds any.

use alloc::string::String;
use alloc::vec::Vec;

use super::schema::SchemaVersion;

string_enum! {
    /// What a content item holds.
    pub enum LivePromptContentKind {
        /// The user's prompt.
        UserPrompt = "user-prompt",
        /// The assistant's response.
        AssistantResponse = "assistant-response",
        /// The arguments of one tool call.
        ToolArguments = "tool-arguments",
        /// The output of one tool call.
        ToolOutput = "tool-output",
    }
}

impl LivePromptContentKind {
    /// True for the two kinds that belong to a tool call and carry a [`LivePromptContentToolRef`].
    #[must_use]
    pub const fn is_tool(self) -> bool {
        matches!(self, Self::ToolArguments | Self::ToolOutput)
    }
}

string_enum! {
    /// How the tool call a content item belongs to ended.
    pub enum LivePromptContentToolOutcome {
        /// The call completed.
        Success = "success",
        /// The call failed.
        Failure = "failure",
        /// The call was denied before running.
        Denied = "denied",
    }
}

/// What content the host asked to capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct LivePromptContentPolicy {
    /// Capture the user's prompt.
    pub user_prompts: bool,
    /// Capture the assistant's response.
    pub assistant_responses: bool,
    /// Capture tool-call arguments; absent means off.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_arguments: Option<bool>,
    /// Capture tool output; absent means off.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_output: Option<bool>,
    /// Per-item bound in UTF-8 bytes, which the host enforces after redaction (the framework only
    /// pre-truncates).
    pub max_bytes: u64,
}

impl LivePromptContentPolicy {
    /// A capture policy: whether prompts and responses are kept, and the size bound; the tool switches start absent.
    #[must_use]
    pub const fn new(user_prompts: bool, assistant_responses: bool, max_bytes: u64) -> Self {
        Self {
            user_prompts,
            assistant_responses,
            max_bytes,
            tool_arguments: None,
            tool_output: None,
        }
    }

    /// Sets whether tool arguments are kept.
    #[must_use]
    pub const fn with_tool_arguments(mut self, tool_arguments: bool) -> Self {
        self.tool_arguments = Some(tool_arguments);
        self
    }

    /// Sets whether tool output is kept.
    #[must_use]
    pub const fn with_tool_output(mut self, tool_output: bool) -> Self {
        self.tool_output = Some(tool_output);
        self
    }
}

/// Which of the turn's own tool calls a tool item belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct LivePromptContentToolRef {
    /// Id of the tool call.
    pub call_id: String,
    /// Name of the tool; not validated, so export it only if it is a safe label.
    pub name: String,
    /// How the call ended.
    pub outcome: LivePromptContentToolOutcome,
    /// The call's tool-body span when the trace kept one; otherwise the root span applies.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub span_id: Option<String>,
}

impl LivePromptContentToolRef {
    /// A tool reference: the call id, tool name and outcome; the span id starts absent.
    #[must_use]
    pub fn new(
        call_id: impl Into<String>,
        name: impl Into<String>,
        outcome: LivePromptContentToolOutcome,
    ) -> Self {
        Self {
            call_id: call_id.into(),
            name: name.into(),
            outcome,
            span_id: None,
        }
    }
}

optional_setters!(LivePromptContentToolRef {
    /// Sets the span id of the tool body.
    with_span_id => span_id: impl Into<String>,
});

/// The `kind` and `tool` keys of a content item as one value: the two tool kinds always carry
/// their tool reference and the two text kinds never do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LivePromptContentSubject {
    /// `kind: 'user-prompt'`, no `tool`.
    UserPrompt,
    /// `kind: 'assistant-response'`, no `tool`.
    AssistantResponse,
    /// `kind: 'tool-arguments'` with the call's `tool` reference.
    ToolArguments(LivePromptContentToolRef),
    /// `kind: 'tool-output'` with the call's `tool` reference.
    ToolOutput(LivePromptContentToolRef),
}

impl LivePromptContentSubject {
    /// The `kind` literal.
    #[must_use]
    pub const fn kind(&self) -> LivePromptContentKind {
        match self {
            Self::UserPrompt => LivePromptContentKind::UserPrompt,
            Self::AssistantResponse => LivePromptContentKind::AssistantResponse,
            Self::ToolArguments(_) => LivePromptContentKind::ToolArguments,
            Self::ToolOutput(_) => LivePromptContentKind::ToolOutput,
        }
    }

    /// The `tool` reference; `Some` exactly for the two tool kinds.
    #[must_use]
    pub const fn tool(&self) -> Option<&LivePromptContentToolRef> {
        match self {
            Self::ToolArguments(tool) | Self::ToolOutput(tool) => Some(tool),
            Self::UserPrompt | Self::AssistantResponse => None,
        }
    }
}

/// The two keys as they are written.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
struct SubjectOut<'a> {
    kind: LivePromptContentKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a LivePromptContentToolRef>,
}

/// The two keys as they are read.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct SubjectIn {
    kind: LivePromptContentKind,
    #[serde(default)]
    tool: Option<LivePromptContentToolRef>,
}

#[cfg(feature = "serde")]
impl serde::Serialize for LivePromptContentSubject {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SubjectOut {
            kind: self.kind(),
            tool: self.tool(),
        }
        .serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for LivePromptContentSubject {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;

        let wire = SubjectIn::deserialize(deserializer)?;
        match (wire.kind, wire.tool) {
            (LivePromptContentKind::UserPrompt, None) => Ok(Self::UserPrompt),
            (LivePromptContentKind::AssistantResponse, None) => Ok(Self::AssistantResponse),
            (LivePromptContentKind::ToolArguments, Some(tool)) => Ok(Self::ToolArguments(tool)),
            (LivePromptContentKind::ToolOutput, Some(tool)) => Ok(Self::ToolOutput(tool)),
            (kind, None) => Err(D::Error::custom(format_args!(
                "content kind `{kind}` requires a `tool` reference"
            ))),
            (kind, Some(_)) => Err(D::Error::custom(format_args!(
                "content kind `{kind}` must not carry a `tool` reference (only tool kinds do)"
            ))),
        }
    }
}

/// One captured piece of text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct LivePromptContentItem {
    /// What the item holds, with its tool reference for the tool kinds (`kind` / `tool`).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub subject: LivePromptContentSubject,
    /// The text, unredacted: the host redacts before exporting.
    pub text: String,
    /// UTF-8 length of the text before truncation (a lower bound for tool arguments whose
    /// streaming stopped early).
    pub original_bytes: u64,
    /// The text was cut to the size bound.
    pub truncated: bool,
    /// The response of an interrupted turn. On the wire it is the literal `true` or absent;
    /// `false` is written by leaving the key out, and an explicit `false` fails to decode.
    /// Independent of [`Self::truncated`].
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "super::wire::is_false",
            deserialize_with = "super::wire::true_literal"
        )
    )]
    pub partial: bool,
}

impl LivePromptContentItem {
    /// A captured item: its subject, text, original length and whether it was cut; not partial.
    #[must_use]
    pub fn new(
        subject: LivePromptContentSubject,
        text: impl Into<String>,
        original_bytes: u64,
        truncated: bool,
    ) -> Self {
        Self {
            subject,
            text: text.into(),
            original_bytes,
            truncated,
            partial: false,
        }
    }

    /// Sets whether the item is the response of an interrupted turn.
    #[must_use]
    pub const fn with_partial(mut self, partial: bool) -> Self {
        self.partial = partial;
        self
    }
}

/// How many items of each kind a content batch left out. A kind with nothing left out has no
/// key on the wire (a zero count is written by leaving the key out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct LivePromptContentOmitted {
    /// User prompts left out (`user-prompt`).
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "user-prompt",
            default,
            skip_serializing_if = "super::wire::is_zero"
        )
    )]
    pub user_prompt: u64,
    /// Assistant responses left out (`assistant-response`).
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "assistant-response",
            default,
            skip_serializing_if = "super::wire::is_zero"
        )
    )]
    pub assistant_response: u64,
    /// Tool-argument items left out (`tool-arguments`).
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "tool-arguments",
            default,
            skip_serializing_if = "super::wire::is_zero"
        )
    )]
    pub tool_arguments: u64,
    /// Tool-output items left out (`tool-output`).
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "tool-output",
            default,
            skip_serializing_if = "super::wire::is_zero"
        )
    )]
    pub tool_output: u64,
}

impl LivePromptContentOmitted {
    /// Sets the count of user prompts left out.
    #[must_use]
    pub const fn with_user_prompt(mut self, user_prompt: u64) -> Self {
        self.user_prompt = user_prompt;
        self
    }

    /// Sets the count of assistant responses left out.
    #[must_use]
    pub const fn with_assistant_response(mut self, assistant_response: u64) -> Self {
        self.assistant_response = assistant_response;
        self
    }

    /// Sets the count of tool arguments left out.
    #[must_use]
    pub const fn with_tool_arguments(mut self, tool_arguments: u64) -> Self {
        self.tool_arguments = tool_arguments;
        self
    }

    /// Sets the count of tool outputs left out.
    #[must_use]
    pub const fn with_tool_output(mut self, tool_output: u64) -> Self {
        self.tool_output = tool_output;
        self
    }

    /// The count for one kind (zero when nothing of that kind was left out).
    #[must_use]
    pub const fn get(&self, kind: LivePromptContentKind) -> u64 {
        match kind {
            LivePromptContentKind::UserPrompt => self.user_prompt,
            LivePromptContentKind::AssistantResponse => self.assistant_response,
            LivePromptContentKind::ToolArguments => self.tool_arguments,
            LivePromptContentKind::ToolOutput => self.tool_output,
        }
    }

    /// True when nothing was left out (the map has no key).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.user_prompt == 0
            && self.assistant_response == 0
            && self.tool_arguments == 0
            && self.tool_output == 0
    }
}

/// The root of a content batch: the only join to the trace batch. The timestamp is ISO-8601 text
/// and is not validated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct LivePromptContentRoot {
    /// Trace id of the prompt execution.
    pub trace_id: String,
    /// Span id of the prompt-execution root.
    pub span_id: String,
    /// When the prompt call ended (ISO-8601, not validated).
    pub ended_at: String,
}

impl LivePromptContentRoot {
    /// A content root: the trace id, span id and end of the prompt execution it joins.
    #[must_use]
    pub fn new(
        trace_id: impl Into<String>,
        span_id: impl Into<String>,
        ended_at: impl Into<String>,
    ) -> Self {
        Self {
            trace_id: trace_id.into(),
            span_id: span_id.into(),
            ended_at: ended_at.into(),
        }
    }
}

/// The opt-in content of one prompt execution, apart from its trace.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct LivePromptContentBatch {
    /// Always `1`.
    pub schema_version: SchemaVersion,
    /// The join to the trace batch.
    pub root: LivePromptContentRoot,
    /// The items: the prompt, then the response, then tool items in call order.
    pub items: Vec<LivePromptContentItem>,
    /// Items left out, per kind.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub omitted: Option<LivePromptContentOmitted>,
}

impl LivePromptContentBatch {
    /// A content batch under this root with these items (`schemaVersion` is filled in); nothing omitted.
    #[must_use]
    pub fn new(root: LivePromptContentRoot, items: Vec<LivePromptContentItem>) -> Self {
        Self {
            root,
            items,
            omitted: None,
            schema_version: SchemaVersion,
        }
    }

    /// Sets the per-kind counts of items left out.
    #[must_use]
    pub const fn with_omitted(mut self, omitted: LivePromptContentOmitted) -> Self {
        self.omitted = Some(omitted);
        self
    }
}

//! Content-free child spans under a prompt-execution root, and the bounded live trace batch.
//!
//! No record here has a field for prompt, response, tool, user or session text; a stray field of
//! that kind in decoded JSON is dropped, never carried on.

use alloc::string::String;
use alloc::vec::Vec;

use super::schema::SchemaVersion;
use super::usage::UsageOutcome;

string_enum! {
    /// How a provider round was served.
    pub enum ProviderCallDisposition {
        /// The provider was called.
        Invoked = "invoked",
        /// The answer came from a cache; the provider was not called.
        CacheHit = "cache-hit",
        /// A check before the call refused it; the provider was not called.
        PreflightRefused = "preflight-refused",
    }
}

string_enum! {
    /// How much attested usage evidence a provider round returned (the basis of a table-derived
    /// cost estimate).
    pub enum UsageProvenance {
        /// Every usage count was attested.
        Complete = "complete",
        /// Some usage counts were attested.
        Partial = "partial",
        /// No usage was attested.
        Absent = "absent",
    }
}

string_enum! {
    /// The permission decision taken on a tool call before any body runs.
    pub enum ToolPermissionDecision {
        /// The call may run.
        Allowed = "allowed",
        /// The call was denied.
        Denied = "denied",
        /// A hook blocked the call.
        HookBlocked = "hook-blocked",
    }
}

/// One provider round under a prompt-execution root: linkage, timing, outcome and token counts.
/// Timestamps are ISO-8601 text and are not validated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ProviderCallTraceEntry {
    /// Id of the provider call, when one was assigned.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub call_id: Option<String>,
    /// Trace id shared with the prompt-execution root.
    pub trace_id: String,
    /// Span id of the parent (the prompt-execution root).
    pub parent_span_id: String,
    /// Span id of this round.
    pub span_id: String,
    /// When the round started (ISO-8601, not validated).
    pub started_at: String,
    /// When the round ended (ISO-8601, not validated).
    pub ended_at: String,
    /// How the round ended.
    pub outcome: UsageOutcome,
    /// Which provider round of the prompt execution this is.
    pub round: u32,
    /// How the round was served.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub disposition: Option<ProviderCallDisposition>,
    /// Provider that served the round.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub provider_id: Option<String>,
    /// Model that served the round.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model_id: Option<String>,
    /// How much attested usage evidence the round returned.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub usage_provenance: Option<UsageProvenance>,
    /// Input tokens of the round.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt_tokens: Option<u64>,
    /// Output tokens of the round.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub completion_tokens: Option<u64>,
    /// All tokens of the round.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub total_tokens: Option<u64>,
    /// Opaque request id the provider returned. Live projection only: an invoked round carries
    /// it, it is never written to the persisted provider-call history and never becomes a metric.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub provider_request_id: Option<String>,
}

impl ProviderCallTraceEntry {
    /// A provider round: its linkage, timing, outcome and round number; the rest starts absent.
    #[must_use]
    pub fn new(
        trace_id: impl Into<String>,
        parent_span_id: impl Into<String>,
        span_id: impl Into<String>,
        started_at: impl Into<String>,
        ended_at: impl Into<String>,
        outcome: UsageOutcome,
        round: u32,
    ) -> Self {
        Self {
            trace_id: trace_id.into(),
            parent_span_id: parent_span_id.into(),
            span_id: span_id.into(),
            started_at: started_at.into(),
            ended_at: ended_at.into(),
            outcome,
            round,
            call_id: None,
            disposition: None,
            provider_id: None,
            model_id: None,
            usage_provenance: None,
            prompt_tokens: None,
            completion_tokens: None,
            total_tokens: None,
            provider_request_id: None,
        }
    }

    /// Sets how the round was served.
    #[must_use]
    pub const fn with_disposition(mut self, disposition: ProviderCallDisposition) -> Self {
        self.disposition = Some(disposition);
        self
    }

    /// Sets how much attested usage evidence the round returned.
    #[must_use]
    pub const fn with_usage_provenance(mut self, usage_provenance: UsageProvenance) -> Self {
        self.usage_provenance = Some(usage_provenance);
        self
    }

    /// Sets the input tokens of the round.
    #[must_use]
    pub const fn with_prompt_tokens(mut self, prompt_tokens: u64) -> Self {
        self.prompt_tokens = Some(prompt_tokens);
        self
    }

    /// Sets the output tokens of the round.
    #[must_use]
    pub const fn with_completion_tokens(mut self, completion_tokens: u64) -> Self {
        self.completion_tokens = Some(completion_tokens);
        self
    }

    /// Sets all tokens of the round.
    #[must_use]
    pub const fn with_total_tokens(mut self, total_tokens: u64) -> Self {
        self.total_tokens = Some(total_tokens);
        self
    }
}

optional_setters!(ProviderCallTraceEntry {
    /// Sets the id of the provider call.
    with_call_id => call_id: impl Into<String>,
    /// Sets the provider that served the round.
    with_provider_id => provider_id: impl Into<String>,
    /// Sets the model that served the round.
    with_model_id => model_id: impl Into<String>,
    /// Sets the provider's opaque request id (live projection only).
    with_provider_request_id => provider_request_id: impl Into<String>,
});

/// The awaited body of one permitted tool call under a prompt-execution root. Timestamps are
/// ISO-8601 text and are not validated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolBodyTraceEntry {
    /// Id of the tool call; live projection only (not written to history). It joins this body to
    /// its [`ToolPermissionDecisionEntry`].
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_call_id: Option<String>,
    /// Name of the tool, a label rather than tool content; live projection only, never persisted.
    /// The contract states the label but its field name was not recovered: `toolName` is this
    /// crate's choice.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_name: Option<String>,
    /// Trace id shared with the prompt-execution root.
    pub trace_id: String,
    /// Span id of the parent (the prompt-execution root).
    pub parent_span_id: String,
    /// Span id of this tool body.
    pub span_id: String,
    /// When the body started (ISO-8601, not validated).
    pub started_at: String,
    /// When the body ended (ISO-8601, not validated).
    pub ended_at: String,
    /// How the body ended.
    pub outcome: UsageOutcome,
}

impl ToolBodyTraceEntry {
    /// A tool body: its linkage, timing and outcome; the call id and tool name start absent.
    #[must_use]
    pub fn new(
        trace_id: impl Into<String>,
        parent_span_id: impl Into<String>,
        span_id: impl Into<String>,
        started_at: impl Into<String>,
        ended_at: impl Into<String>,
        outcome: UsageOutcome,
    ) -> Self {
        Self {
            trace_id: trace_id.into(),
            parent_span_id: parent_span_id.into(),
            span_id: span_id.into(),
            started_at: started_at.into(),
            ended_at: ended_at.into(),
            outcome,
            tool_call_id: None,
            tool_name: None,
        }
    }
}

optional_setters!(ToolBodyTraceEntry {
    /// Sets the id of the tool call (live projection only).
    with_tool_call_id => tool_call_id: impl Into<String>,
    /// Sets the name of the tool (live projection only).
    with_tool_name => tool_name: impl Into<String>,
});

/// The live-only permission decision on one tool call, taken before any body runs; never
/// persisted. The timestamp is ISO-8601 text and is not validated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolPermissionDecisionEntry {
    /// Id of the tool call: the same value a permitted body's live entry carries (the join key).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_call_id: Option<String>,
    /// Trace id shared with the prompt-execution root.
    pub trace_id: String,
    /// Span id of the parent (the prompt-execution root).
    pub parent_span_id: String,
    /// When the decision was taken (ISO-8601, not validated).
    pub decided_at: String,
    /// The decision.
    pub decision: ToolPermissionDecision,
}

impl ToolPermissionDecisionEntry {
    /// A permission decision: its linkage, when it was taken and what it was; the call id starts absent.
    #[must_use]
    pub fn new(
        trace_id: impl Into<String>,
        parent_span_id: impl Into<String>,
        decided_at: impl Into<String>,
        decision: ToolPermissionDecision,
    ) -> Self {
        Self {
            trace_id: trace_id.into(),
            parent_span_id: parent_span_id.into(),
            decided_at: decided_at.into(),
            decision,
            tool_call_id: None,
        }
    }
}

optional_setters!(ToolPermissionDecisionEntry {
    /// Sets the id of the tool call (the join key).
    with_tool_call_id => tool_call_id: impl Into<String>,
});

/// The prompt-execution root span of a live trace batch. Timestamps are ISO-8601 text and are
/// not validated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct LivePromptTraceRoot {
    /// Trace id of the prompt execution.
    pub trace_id: String,
    /// Span id of the root.
    pub span_id: String,
    /// When prompt execution started (ISO-8601, not validated).
    pub started_at: String,
    /// When the first terminal callback fired (ISO-8601, not validated).
    pub ended_at: String,
    /// Outcome of that first terminal callback.
    pub outcome: UsageOutcome,
}

impl LivePromptTraceRoot {
    /// A prompt-execution root span: its trace and span ids, start, end and outcome.
    #[must_use]
    pub fn new(
        trace_id: impl Into<String>,
        span_id: impl Into<String>,
        started_at: impl Into<String>,
        ended_at: impl Into<String>,
        outcome: UsageOutcome,
    ) -> Self {
        Self {
            trace_id: trace_id.into(),
            span_id: span_id.into(),
            started_at: started_at.into(),
            ended_at: ended_at.into(),
            outcome,
        }
    }
}

/// One child of a live trace batch, tagged on `kind`.
///
/// `#[non_exhaustive]`: the contract adds kinds, so match it with a wildcard arm; decoding
/// still refuses a kind not listed here.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "lowercase"))]
#[non_exhaustive]
pub enum LivePromptTraceChild {
    /// `kind: 'provider'`: a provider round.
    Provider {
        /// The round.
        trace: ProviderCallTraceEntry,
    },
    /// `kind: 'tool'`: a tool body.
    Tool {
        /// The body.
        trace: ToolBodyTraceEntry,
    },
    /// `kind: 'permission'`: a permission decision.
    Permission {
        /// The decision.
        decision: ToolPermissionDecisionEntry,
    },
}

/// How many children of each kind a live trace batch left out (invalid or over the limit), so
/// that none is dropped silently. All three counts are always written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct LivePromptTraceOmitted {
    /// Provider rounds left out.
    pub provider: u64,
    /// Tool bodies left out.
    pub tool: u64,
    /// Permission decisions left out.
    pub permission: u64,
}

impl LivePromptTraceOmitted {
    /// The counts of provider rounds, tool bodies and permission decisions left out.
    #[must_use]
    pub const fn new(provider: u64, tool: u64, permission: u64) -> Self {
        Self {
            provider,
            tool,
            permission,
        }
    }

    /// All children left out, of any kind (saturating).
    #[must_use]
    pub const fn total(&self) -> u64 {
        self.provider
            .saturating_add(self.tool)
            .saturating_add(self.permission)
    }
}

/// The bounded, content-free live projection of one prompt execution.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct LivePromptTraceBatch {
    /// Always `1`.
    pub schema_version: SchemaVersion,
    /// The session the prompt ran in.
    pub session_id: String,
    /// The turn the prompt belongs to.
    pub turn_id: String,
    /// The prompt-execution root span.
    pub root: LivePromptTraceRoot,
    /// The kept children in callback order (not inferred causality; retries are not joined).
    pub children: Vec<LivePromptTraceChild>,
    /// Children left out, per kind.
    pub omitted_children: LivePromptTraceOmitted,
}

impl LivePromptTraceBatch {
    /// A live trace batch of one turn: its root, kept children and per-kind omissions (`schemaVersion` is filled in).
    #[must_use]
    pub fn new(
        session_id: impl Into<String>,
        turn_id: impl Into<String>,
        root: LivePromptTraceRoot,
        children: Vec<LivePromptTraceChild>,
        omitted_children: LivePromptTraceOmitted,
    ) -> Self {
        Self {
            session_id: session_id.into(),
            turn_id: turn_id.into(),
            root,
            children,
            omitted_children,
            schema_version: SchemaVersion,
        }
    }
}

//! The per-turn usage snapshot: tokens, context window and cost of one turn.

use super::{TurnCost, UsageSource};

string_enum! {
    /// Whether the token counts of a snapshot were reported or estimated.
    pub enum UsageSnapshotKind {
        /// Counts reported by the provider.
        Exact = "exact",
        /// Counts estimated locally.
        Estimated = "estimated",
    }
}

string_enum! {
    /// What a snapshot measures. The contract has a single value, so a snapshot always describes
    /// one turn; any other literal fails to decode.
    #[derive(Default)]
    pub enum UsageSnapshotScope {
        /// One turn.
        #[default]
        Turn = "turn",
    }
}

/// Tokens, context-window fill and cost of one turn.
///
/// The cost is one [`TurnCost`] value flattened into the record, so `costUsd` is present exactly
/// when `costStatus` is `estimated` or `exact`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct UsageSnapshot {
    /// Whether the counts were reported or estimated.
    pub kind: UsageSnapshotKind,
    /// Always `turn`.
    pub scope: UsageSnapshotScope,
    /// All tokens of the turn.
    pub total_tokens: u64,
    /// Input tokens, when known separately.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt_tokens: Option<u64>,
    /// Output tokens, when known separately.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub completion_tokens: Option<u64>,
    /// Tokens of the context window in use after the turn.
    pub context_used_tokens: u64,
    /// Size of the context window.
    pub context_max_tokens: u64,
    /// Fill of the context window, in percent (0 to 100 by convention; not checked).
    pub context_used_percentage: f64,
    /// Cost confidence and, when priced, the amount (`costStatus` / `costUsd`).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub cost: TurnCost,
    /// The execution unit that consumed the tokens; absent means the main thread.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source: Option<UsageSource>,
}

impl UsageSnapshot {
    /// A usage snapshot: its kind, scope, total tokens, context window and cost; the split and the source start absent.
    #[must_use]
    pub const fn new(
        kind: UsageSnapshotKind,
        scope: UsageSnapshotScope,
        total_tokens: u64,
        context_used_tokens: u64,
        context_max_tokens: u64,
        context_used_percentage: f64,
        cost: TurnCost,
    ) -> Self {
        Self {
            kind,
            scope,
            total_tokens,
            context_used_tokens,
            context_max_tokens,
            context_used_percentage,
            cost,
            prompt_tokens: None,
            completion_tokens: None,
            source: None,
        }
    }

    /// Sets the input tokens.
    #[must_use]
    pub const fn with_prompt_tokens(mut self, prompt_tokens: u64) -> Self {
        self.prompt_tokens = Some(prompt_tokens);
        self
    }

    /// Sets the output tokens.
    #[must_use]
    pub const fn with_completion_tokens(mut self, completion_tokens: u64) -> Self {
        self.completion_tokens = Some(completion_tokens);
        self
    }
}

optional_setters!(UsageSnapshot {
    /// Sets the execution unit that consumed the tokens.
    with_source => source: UsageSource,
});

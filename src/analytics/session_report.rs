//! The per-session trace and cost read model (the shape a report crosses the sidecar boundary
//! in).

use alloc::string::String;
use alloc::vec::Vec;

use super::UsageSource;

/// One timed operation, carried as the `data` of a history entry on the session record.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SpanEntry {
    /// Id of the span.
    pub span_id: String,
    /// Operation name (for example a tool name).
    pub op: String,
    /// Duration in milliseconds.
    pub duration_ms: f64,
}

/// The usage of one execution unit within a session.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct UsageSourceTotals {
    /// Grouping key, `<scope>:<id>` (not parsed).
    pub key: String,
    /// The unit.
    pub source: UsageSource,
    /// Human label of the unit.
    pub label: String,
    /// Input tokens.
    pub prompt_tokens: u64,
    /// Output tokens.
    pub completion_tokens: u64,
    /// All tokens.
    pub total_tokens: u64,
    /// Turns attributed to the unit.
    pub turns: u64,
    /// Share of the session's tokens, 0 to 100 with one decimal (not checked).
    pub percentage: f64,
    /// Sum of known costs in US dollars; unpriced turns add nothing.
    pub cost_usd: f64,
    /// True only if every turn has independently proven billed cost (price-table estimates do
    /// not qualify).
    pub cost_exact: bool,
}

/// One timed operation of a turn's timeline.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RunTraceSpan {
    /// Id of the span.
    pub span_id: String,
    /// Operation name.
    pub op: String,
    /// Duration in milliseconds.
    pub duration_ms: f64,
}

/// One turn of a session's timeline.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RunTraceTurn {
    /// 0-based position among the turns of the usage summary.
    pub turn_index: u32,
    /// The execution unit of the turn.
    pub source: UsageSource,
    /// Human label of the unit.
    pub label: String,
    /// The turn's spans in timeline order.
    pub spans: Vec<RunTraceSpan>,
    /// Sum of the span durations, in milliseconds (as written by the producer; see
    /// [`RunTraceTurn::span_duration_sum`]).
    pub total_duration_ms: f64,
}

impl RunTraceTurn {
    /// The sum of [`RunTraceSpan::duration_ms`] over [`Self::spans`], which
    /// [`Self::total_duration_ms`] is meant to equal.
    #[must_use]
    pub fn span_duration_sum(&self) -> f64 {
        self.spans.iter().map(|span| span.duration_ms).sum()
    }
}

/// A session's usage split by execution unit, with its timeline.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct UsageBySourceReport {
    /// The session.
    pub session_id: String,
    /// All tokens.
    pub total_tokens: u64,
    /// Input tokens.
    pub prompt_tokens: u64,
    /// Output tokens.
    pub completion_tokens: u64,
    /// Sum of known costs in US dollars.
    pub cost_usd: f64,
    /// True only if every turn has independently proven billed cost.
    pub cost_exact: bool,
    /// Usage per unit, by `totalTokens` descending (the producer's order; see
    /// [`UsageBySourceReport::is_sorted_by_tokens`]).
    pub by_source: Vec<UsageSourceTotals>,
    /// The unit that used the most tokens.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub top_consumer: Option<UsageSourceTotals>,
    /// The session's turns in order.
    pub timeline: Vec<RunTraceTurn>,
}

impl UsageBySourceReport {
    /// True when [`Self::by_source`] is in the contract's order, `totalTokens` descending.
    #[must_use]
    pub fn is_sorted_by_tokens(&self) -> bool {
        self.by_source
            .is_sorted_by(|earlier, later| earlier.total_tokens >= later.total_tokens)
    }
}

//! The per-session trace and cost read model (the shape a report crosses the sidecar boundary
//! in).

use alloc::string::String;
use alloc::vec::Vec;

use crate::analytics::usage::UsageSource;

/// One timed operation, carried as the `data` of a history entry on the session record.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SpanEntry {
    /// Id of the span.
    pub span_id: String,
    /// Operation name (for example a tool name).
    pub op: String,
    /// Duration in milliseconds.
    pub duration_ms: f64,
}

impl SpanEntry {
    /// A timed operation: its span id, operation and duration in milliseconds.
    #[must_use]
    pub fn new(span_id: impl Into<String>, op: impl Into<String>, duration_ms: f64) -> Self {
        Self {
            span_id: span_id.into(),
            op: op.into(),
            duration_ms,
        }
    }
}

/// The usage of one execution unit within a session.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
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

impl UsageSourceTotals {
    /// The totals of one unit, counted up from zero: no tokens, no turns, no cost, and the cost not exact.
    #[must_use]
    pub fn new(key: impl Into<String>, source: UsageSource, label: impl Into<String>) -> Self {
        Self {
            key: key.into(),
            source,
            label: label.into(),
            prompt_tokens: 0,
            completion_tokens: 0,
            total_tokens: 0,
            turns: 0,
            percentage: 0.0,
            cost_usd: 0.0,
            cost_exact: false,
        }
    }
}

/// One timed operation of a turn's timeline.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct RunTraceSpan {
    /// Id of the span.
    pub span_id: String,
    /// Operation name.
    pub op: String,
    /// Duration in milliseconds.
    pub duration_ms: f64,
}

impl RunTraceSpan {
    /// A span of a turn: its span id, operation and duration in milliseconds.
    #[must_use]
    pub fn new(span_id: impl Into<String>, op: impl Into<String>, duration_ms: f64) -> Self {
        Self {
            span_id: span_id.into(),
            op: op.into(),
            duration_ms,
        }
    }
}

/// One turn of a session's timeline.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
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
    /// A turn of the timeline: its index, unit, label, spans and total duration.
    #[must_use]
    pub fn new(
        turn_index: u32,
        source: UsageSource,
        label: impl Into<String>,
        spans: Vec<RunTraceSpan>,
        total_duration_ms: f64,
    ) -> Self {
        Self {
            turn_index,
            source,
            label: label.into(),
            spans,
            total_duration_ms,
        }
    }

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
#[non_exhaustive]
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
    /// A session's report, counted up from empty: no tokens, no cost (not exact), no units, no timeline.
    #[must_use]
    pub fn new(session_id: impl Into<String>) -> Self {
        Self {
            session_id: session_id.into(),
            top_consumer: None,
            total_tokens: 0,
            prompt_tokens: 0,
            completion_tokens: 0,
            cost_usd: 0.0,
            cost_exact: false,
            by_source: Vec::new(),
            timeline: Vec::new(),
        }
    }

    /// True when [`Self::by_source`] is in the contract's order, `totalTokens` descending.
    #[must_use]
    pub fn is_sorted_by_tokens(&self) -> bool {
        self.by_source
            .is_sorted_by(|earlier, later| earlier.total_tokens >= later.total_tokens)
    }
}

optional_setters!(UsageBySourceReport {
    /// Sets the unit that used the most tokens.
    with_top_consumer => top_consumer: UsageSourceTotals,
});

//! Usage and run traces (feature `analytics`, layer 0; names nothing, needs no dependency).
//!
//! It mirrors the TypeScript usage and trace contracts: the shapes of a measurement. How many
//! tokens a turn consumed, what it cost and how far that cost can be trusted, which execution
//! unit, model, provider and product surface it is attributed to, the content-free trace spans
//! under a prompt execution, the opt-in content batch kept apart from them, and the per-session
//! and cross-session usage reports. A host fills these in and writes them out; the family
//! measures nothing, decides no policy, declares no error type and no runtime value beyond small
//! accessors.
//!
//! | area | types |
//! |---|---|
//! | attribution | [`UsageSource`], [`UsageSourceScope`], [`UsageSurface`] |
//! | per-turn snapshot | [`UsageSnapshot`], [`UsageSnapshotKind`], [`UsageSnapshotScope`] |
//! | cost | [`CostStatus`], [`TurnCost`], [`ShareCost`] |
//! | observation | [`UsageObservation`], [`UsageOutcome`], [`UsageModelShare`], [`ModelAttribution`] |
//! | live trace | [`ProviderCallTraceEntry`], [`ToolBodyTraceEntry`], [`ToolPermissionDecisionEntry`], [`LivePromptTraceBatch`] and its parts |
//! | live content | [`LivePromptContentBatch`], [`LivePromptContentItem`], [`LivePromptContentPolicy`] and their parts |
//! | personal report | [`PersonalUsageRequest`], [`PersonalUsageReport`] and its parts |
//! | session report | [`UsageBySourceReport`], [`UsageSourceTotals`], [`RunTraceTurn`], [`RunTraceSpan`], [`SpanEntry`] |
//!
//! # Guarantees
//!
//! - **Paired keys are one value**: a cost ([`TurnCost`], [`ShareCost`]: never an amount with
//!   `unknown`, never a priced status without one, never `exact` on a share), a model
//!   attribution ([`ModelAttribution`]: `modelId` and `modelShares` never both), a content
//!   subject ([`LivePromptContentSubject`]); the JSON shape is unchanged.
//! - **Counts are unsigned** (`u64`; `round`, `turnIndex` `u32`): a negative or fractional count
//!   fails to decode. Amounts, percentages and durations are `f64`.
//! - **Unknown keys are dropped, never written back** (a stray `content` on a trace entry).
//! - Timestamps (ISO-8601) and dates (`YYYY-MM-DD`) are text carried as written, not validated.
//! - Rules no type can hold are the producer's (see the decisions file), with checks where they
//!   are cheap ([`UsageBySourceReport::is_sorted_by_tokens`], [`RunTraceTurn::span_duration_sum`]).
//!
//! # Example
//!
//! ```
//! use agent_interface::analytics::{CostStatus, TurnCost};
//!
//! let priced = TurnCost::Estimated { usd: 0.25 };
//! assert_eq!(priced.status(), CostStatus::Estimated);
//! assert_eq!((priced.usd(), TurnCost::Unknown.usd()), (Some(0.25), None));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/analytics.md`.

mod attribution;
mod content;
mod cost;
mod observation;
mod personal_report;
mod schema;
mod session_report;
mod snapshot;
mod trace;
mod wire;

pub use attribution::{UsageSource, UsageSourceScope, UsageSurface};
pub use content::{
    LivePromptContentBatch, LivePromptContentItem, LivePromptContentKind, LivePromptContentOmitted,
    LivePromptContentPolicy, LivePromptContentRoot, LivePromptContentSubject,
    LivePromptContentToolOutcome, LivePromptContentToolRef,
};
pub use cost::{CostStatus, ShareCost, TurnCost};
pub use observation::{ModelAttribution, UsageModelShare, UsageObservation, UsageOutcome};
pub use personal_report::{
    PersonalUsageActivity, PersonalUsageActivityKind, PersonalUsageCoverage, PersonalUsageDay,
    PersonalUsageDimension, PersonalUsageInterval, PersonalUsagePeriod, PersonalUsageReport,
    PersonalUsageRequest, PersonalUsageSessionLabel, PersonalUsageTotals,
};
pub use schema::SchemaVersion;
pub use session_report::{
    RunTraceSpan, RunTraceTurn, SpanEntry, UsageBySourceReport, UsageSourceTotals,
};
pub use snapshot::{UsageSnapshot, UsageSnapshotKind, UsageSnapshotScope};
pub use trace::{
    LivePromptTraceBatch, LivePromptTraceChild, LivePromptTraceOmitted, LivePromptTraceRoot,
    ProviderCallDisposition, ProviderCallTraceEntry, ToolBodyTraceEntry, ToolPermissionDecision,
    ToolPermissionDecisionEntry, UsageProvenance,
};

//! Usage and run traces (layer 0; names nothing, needs no dependency).
//!
//! The shapes of a measurement: how many tokens a turn consumed, what it cost and how far that
//! cost can be trusted, which execution unit, model, provider and product surface it is
//! attributed to, the content-free trace spans under a prompt execution, the opt-in content batch
//! kept apart from them, and the per-session and cross-session usage reports. The family measures
//! nothing and decides no policy; it declares no error type and no runtime value beyond small
//! accessors over its own types.
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
//! Timestamps are ISO-8601 text carried as `String` and are not validated; dates are
//! `YYYY-MM-DD` text, also unvalidated. Token and other counts are `u64` (a negative or
//! fractional count fails to decode), `round` and `turnIndex` are `u32`, dollar amounts,
//! percentages and durations are `f64`. Unknown JSON keys are ignored on decode, so a stray
//! field (say `content` on a trace entry) is dropped and never written back.
//!
//! # Rust shape
//!
//! Rules the contract states about pairs of keys are held by the types, keeping the JSON shape:
//!
//! * **Cost.** `costStatus` and `costUsd` are one flattened value: [`TurnCost`] on a snapshot
//!   (`unknown` without an amount, `estimated`/`exact` with one) and [`ShareCost`] on a model
//!   share (`unknown`, or `estimated` with an amount; never `exact`). Decoding refuses an amount
//!   with `unknown`, a priced status without an amount and, for a share, `exact`.
//!   [`PersonalUsageTotals`] keeps a plain `costUsd` plus `costStatus`: there the amount is always
//!   present (the sum of the known costs).
//! * **Model attribution.** `modelId` and `modelShares` of an observation are one flattened
//!   [`ModelAttribution`]: none, a single model, or shares. Both keys present fails to decode.
//!   Both absent stays valid (older observations, or a turn that failed before any model
//!   answered); `providerId` stays a separate optional field.
//! * **Content subject.** `kind` and `tool` of a content item are one flattened
//!   [`LivePromptContentSubject`]: the tool kinds hold their [`LivePromptContentToolRef`], the
//!   text kinds hold nothing.
//! * **Literals.** `schemaVersion` is the one-value [`SchemaVersion`] (decoding `2` fails), the
//!   snapshot `scope` is the one-value [`UsageSnapshotScope`], and the live trace children are the
//!   `kind`-tagged [`LivePromptTraceChild`].
//! * **`true` or absent.** [`LivePromptContentItem::partial`] is a `bool` written only when true;
//!   an explicit `"partial": false` is not a value of the contract type and fails to decode.
//! * **Zero means absent.** `unpricedTurns` and the per-kind counts of
//!   [`LivePromptContentOmitted`] are plain `u64`s whose key is left out when zero (a `0` on the
//!   wire decodes, and is then written back without the key). The trace batch's
//!   [`LivePromptTraceOmitted`] always writes all three counts, as the contract requires.
//!
//! Choices where the contract is silent:
//!
//! * The tool name of a tool-body child is stated by the contract but its field name was not
//!   recovered; it is [`ToolBodyTraceEntry::tool_name`], `toolName` on the wire, optional.
//! * The newer prose about duration aggregates and queue evidence in the live trace has no
//!   recovered fields and is not modelled.
//! * Helper types without a TypeScript name of their own are named after their place:
//!   [`LivePromptTraceRoot`], [`LivePromptTraceOmitted`], [`LivePromptContentRoot`],
//!   [`PersonalUsageInterval`], and the literal sets [`ProviderCallDisposition`],
//!   [`UsageProvenance`], [`ToolPermissionDecision`], [`LivePromptContentToolOutcome`],
//!   [`PersonalUsagePeriod`], [`PersonalUsageActivityKind`].
//! * A zero count in a content `omitted` map, and an empty `modelShares` list, are accepted on
//!   decode.
//!
//! Rules no type here can hold, left to the producer: the content-free guarantee of the trace
//! records beyond their field set, `providerRequestId` only on an invoked round, `bySource`
//! sorted by `totalTokens` descending ([`UsageBySourceReport::is_sorted_by_tokens`] checks it),
//! `totalDurationMs` being the sum of the spans ([`RunTraceTurn::span_duration_sum`]),
//! percentages within 0–100, and `costStatus` of a total being `unknown` exactly when nothing
//! was priced.

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

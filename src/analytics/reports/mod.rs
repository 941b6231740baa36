//! The usage read models a host hands to a viewer: the per-session trace and cost report, and the
//! provider-neutral, cross-session personal usage report with the request that asks for it.
//!
//! Reports carry what a producer computed; rules no type can hold are the producer's, with checks
//! where they are cheap ([`UsageBySourceReport::is_sorted_by_tokens`],
//! [`RunTraceTurn::span_duration_sum`]). Dates (`YYYY-MM-DD`) and timestamps are text carried as
//! written, not validated.
//!
//! | file | what it holds |
//! |---|---|
//! | session report | [`UsageBySourceReport`], [`UsageSourceTotals`], [`RunTraceTurn`], [`RunTraceSpan`], [`SpanEntry`] |
//! | personal report | [`PersonalUsageRequest`], [`PersonalUsageReport`] and its parts ([`PersonalUsageTotals`], [`PersonalUsageDay`], [`PersonalUsageDimension`], …) |

mod personal_report;
mod session_report;

pub use personal_report::{
    PersonalUsageActivity, PersonalUsageActivityKind, PersonalUsageCoverage, PersonalUsageDay,
    PersonalUsageDimension, PersonalUsageInterval, PersonalUsagePeriod, PersonalUsageReport,
    PersonalUsageRequest, PersonalUsageSessionLabel, PersonalUsageTotals,
};
pub use session_report::{
    RunTraceSpan, RunTraceTurn, SpanEntry, UsageBySourceReport, UsageSourceTotals,
};

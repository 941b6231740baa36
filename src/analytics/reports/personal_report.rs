//! The provider-neutral, cross-session personal usage report.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::analytics::schema::SchemaVersion;
use crate::analytics::usage::CostStatus;

string_enum! {
    /// The reporting window, counted in local days.
    pub enum PersonalUsagePeriod {
        /// The last seven days.
        SevenDays = "7d",
        /// The last thirty days.
        ThirtyDays = "30d",
    }
}

string_enum! {
    /// What an activity row counts.
    pub enum PersonalUsageActivityKind {
        /// A tool.
        Tool = "tool",
        /// A skill.
        Skill = "skill",
        /// A plugin.
        Plugin = "plugin",
    }
}

/// What a personal usage report is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageRequest {
    /// The window.
    pub period: PersonalUsagePeriod,
    /// IANA time-zone name that assigns turns to local days (not validated).
    pub timezone: String,
}

impl PersonalUsageRequest {
    /// A request for the report of this period in this IANA time zone.
    #[must_use]
    pub fn new(period: PersonalUsagePeriod, timezone: impl Into<String>) -> Self {
        Self {
            period,
            timezone: timezone.into(),
        }
    }
}

/// Sums over a set of sessions and turns.
///
/// `costUsd` is always present: it is the sum of the known per-turn costs, unpriced turns adding
/// nothing. `costStatus` is `unknown` exactly when nothing in the aggregate could be priced (a
/// rule over the data this record sums, not checked by the type).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageTotals {
    /// Sessions counted.
    pub sessions: u64,
    /// Turns counted.
    pub turns: u64,
    /// Input tokens.
    pub prompt_tokens: u64,
    /// Output tokens.
    pub completion_tokens: u64,
    /// All tokens.
    pub total_tokens: u64,
    /// Sum of the known costs, in US dollars.
    pub cost_usd: f64,
    /// Confidence of that sum.
    pub cost_status: CostStatus,
    /// Turns that could not be priced; the key is left out when there are none.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "crate::analytics::wire::is_zero")
    )]
    pub unpriced_turns: u64,
}

impl PersonalUsageTotals {
    /// Totals: sessions, turns, token counts, known cost and its status; no unpriced turns.
    #[must_use]
    pub const fn new(
        sessions: u64,
        turns: u64,
        prompt_tokens: u64,
        completion_tokens: u64,
        total_tokens: u64,
        cost_usd: f64,
        cost_status: CostStatus,
    ) -> Self {
        Self {
            sessions,
            turns,
            prompt_tokens,
            completion_tokens,
            total_tokens,
            cost_usd,
            cost_status,
            unpriced_turns: 0,
        }
    }

    /// Sets the count of turns with no price.
    #[must_use]
    pub const fn with_unpriced_turns(mut self, unpriced_turns: u64) -> Self {
        self.unpriced_turns = unpriced_turns;
        self
    }
}

/// The totals of one value of a grouping (one model, provider, surface or source), without a
/// session count, plus the sessions that contributed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageDimension {
    /// The grouped value (a model id, a provider id, a surface, a source key).
    pub key: String,
    /// Human label of that value.
    pub label: String,
    /// Turns counted.
    pub turns: u64,
    /// Input tokens.
    pub prompt_tokens: u64,
    /// Output tokens.
    pub completion_tokens: u64,
    /// All tokens.
    pub total_tokens: u64,
    /// Sum of the known costs, in US dollars.
    pub cost_usd: f64,
    /// Confidence of that sum.
    pub cost_status: CostStatus,
    /// Turns that could not be priced; the key is left out when there are none.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "crate::analytics::wire::is_zero")
    )]
    pub unpriced_turns: u64,
    /// Sessions that contributed to this value.
    pub session_ids: Vec<String>,
}

impl PersonalUsageDimension {
    /// A dimension row with this key and label, counted up from zero: no turns, no tokens, cost unknown, no sessions.
    #[must_use]
    pub fn new(key: impl Into<String>, label: impl Into<String>) -> Self {
        Self {
            key: key.into(),
            label: label.into(),
            unpriced_turns: 0,
            turns: 0,
            prompt_tokens: 0,
            completion_tokens: 0,
            total_tokens: 0,
            cost_usd: 0.0,
            cost_status: CostStatus::Unknown,
            session_ids: Vec::new(),
        }
    }

    /// Sets the count of turns with no price.
    #[must_use]
    pub const fn with_unpriced_turns(mut self, unpriced_turns: u64) -> Self {
        self.unpriced_turns = unpriced_turns;
        self
    }
}

/// How often one tool, skill or plugin was used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageActivity {
    /// Id of the tool, skill or plugin.
    pub key: String,
    /// Human label.
    pub label: String,
    /// What is counted.
    pub kind: PersonalUsageActivityKind,
    /// Uses in the period.
    pub count: u64,
}

impl PersonalUsageActivity {
    /// An activity row: its key, label, kind and count.
    #[must_use]
    pub fn new(
        key: impl Into<String>,
        label: impl Into<String>,
        kind: PersonalUsageActivityKind,
        count: u64,
    ) -> Self {
        Self {
            key: key.into(),
            label: label.into(),
            kind,
            count,
        }
    }
}

/// The totals of one local day.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageDay {
    /// The local date (`YYYY-MM-DD`, not validated).
    pub date: String,
    /// The day is only partly inside the period (or still running).
    pub partial: bool,
    /// The day's totals.
    pub totals: PersonalUsageTotals,
    /// Sessions with usage that day.
    pub session_ids: Vec<String>,
}

impl PersonalUsageDay {
    /// A day of the report: its date, whether it is partial, its totals and its sessions.
    #[must_use]
    pub fn new(
        date: impl Into<String>,
        partial: bool,
        totals: PersonalUsageTotals,
        session_ids: Vec<String>,
    ) -> Self {
        Self {
            date: date.into(),
            partial,
            totals,
            session_ids,
        }
    }
}

/// What the report could and could not read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageCoverage {
    /// Sessions read.
    pub valid_sessions: u64,
    /// Sessions whose record could not be decoded.
    pub corrupt_sessions: u64,
    /// Sessions in a format this reader does not support.
    pub unsupported_sessions: u64,
    /// Observations seen more than once and counted once.
    pub duplicate_observations: u64,
    /// Observations in an older format.
    pub legacy_observations: u64,
    /// Observations without a model.
    pub unknown_model_observations: u64,
    /// Observations without a provider.
    pub unknown_provider_observations: u64,
    /// Observations without a surface.
    pub unknown_surface_observations: u64,
    /// The corrupt sessions.
    pub corrupt_session_ids: Vec<String>,
    /// The unsupported sessions.
    pub unsupported_session_ids: Vec<String>,
}

/// How a report names one session: the one deliberately content-bearing part of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageSessionLabel {
    /// The session's name, else the first line of its first request, else "Untitled session".
    pub title: String,
    /// Base name of the session's working directory.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub workspace: Option<String>,
}

impl PersonalUsageSessionLabel {
    /// A session label with this title; the workspace starts absent.
    #[must_use]
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            workspace: None,
        }
    }
}

optional_setters!(PersonalUsageSessionLabel {
    /// Sets the workspace of the session.
    with_workspace => workspace: impl Into<String>,
});

/// The local dates a report covers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageInterval {
    /// First local date (`YYYY-MM-DD`, not validated).
    pub start_date: String,
    /// Last local date (`YYYY-MM-DD`, not validated).
    pub end_date: String,
}

impl PersonalUsageInterval {
    /// The interval from this start date to this end date (`YYYY-MM-DD`, not validated).
    #[must_use]
    pub fn new(start_date: impl Into<String>, end_date: impl Into<String>) -> Self {
        Self {
            start_date: start_date.into(),
            end_date: end_date.into(),
        }
    }
}

/// One user's usage across sessions over a period, grouped several ways.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PersonalUsageReport {
    /// Always `1`.
    pub schema_version: SchemaVersion,
    /// When the report was made (ISO-8601, not validated).
    pub generated_at: String,
    /// The window asked for.
    pub period: PersonalUsagePeriod,
    /// The time zone that assigned local days.
    pub timezone: String,
    /// The local dates covered.
    pub interval: PersonalUsageInterval,
    /// Totals over the whole period.
    pub totals: PersonalUsageTotals,
    /// Totals per local day.
    pub daily: Vec<PersonalUsageDay>,
    /// Totals per model.
    pub by_model: Vec<PersonalUsageDimension>,
    /// Totals per provider.
    pub by_provider: Vec<PersonalUsageDimension>,
    /// Totals per product surface.
    pub by_surface: Vec<PersonalUsageDimension>,
    /// Totals per execution unit.
    pub by_source: Vec<PersonalUsageDimension>,
    /// Tool, skill and plugin use.
    pub by_activity: Vec<PersonalUsageActivity>,
    /// Sessions that contributed usage.
    pub session_ids: Vec<String>,
    /// What could and could not be read.
    pub coverage: PersonalUsageCoverage,
    /// Labels by session id, only for sessions that contributed usage in the period.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub session_labels: Option<BTreeMap<String, PersonalUsageSessionLabel>>,
}

impl PersonalUsageReport {
    /// A report generated at this time for this period, time zone and interval, counted up from empty (`schemaVersion` is filled in).
    #[must_use]
    pub fn new(
        generated_at: impl Into<String>,
        period: PersonalUsagePeriod,
        timezone: impl Into<String>,
        interval: PersonalUsageInterval,
    ) -> Self {
        Self {
            generated_at: generated_at.into(),
            period,
            timezone: timezone.into(),
            interval,
            session_labels: None,
            schema_version: SchemaVersion,
            totals: PersonalUsageTotals::default(),
            daily: Vec::new(),
            by_model: Vec::new(),
            by_provider: Vec::new(),
            by_surface: Vec::new(),
            by_source: Vec::new(),
            by_activity: Vec::new(),
            session_ids: Vec::new(),
            coverage: PersonalUsageCoverage::default(),
        }
    }

    /// Sets the labels of the sessions, by session id.
    #[must_use]
    pub fn with_session_labels(
        mut self,
        session_labels: BTreeMap<String, PersonalUsageSessionLabel>,
    ) -> Self {
        self.session_labels = Some(session_labels);
        self
    }
}

//! The persisted usage observation: one content-free record per started interactive turn.

use alloc::string::String;
use alloc::vec::Vec;

use super::{ShareCost, UsageSnapshot, UsageSource, UsageSurface};

string_enum! {
    /// How a turn, a prompt call or a traced span ended.
    pub enum UsageOutcome {
        /// It completed.
        Success = "success",
        /// It failed.
        Failure = "failure",
        /// It was interrupted before completing.
        Interrupted = "interrupted",
    }
}

/// One model's part of a turn that ran on several models.
///
/// The cost is one [`ShareCost`] flattened into the record: a share is never `exact`, and
/// `costUsd` is present exactly when `costStatus` is `estimated`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct UsageModelShare {
    /// Provider of the model.
    pub provider_id: String,
    /// The model.
    pub model_id: String,
    /// Input tokens spent on this model.
    pub prompt_tokens: u64,
    /// Output tokens produced by this model.
    pub completion_tokens: u64,
    /// All tokens of this model's part.
    pub total_tokens: u64,
    /// Cost confidence and, when estimated, the amount (`costStatus` / `costUsd`).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub cost: ShareCost,
}

impl UsageModelShare {
    /// One model's share of a turn: provider, model, token counts and cost.
    #[must_use]
    pub fn new(
        provider_id: impl Into<String>,
        model_id: impl Into<String>,
        prompt_tokens: u64,
        completion_tokens: u64,
        total_tokens: u64,
        cost: ShareCost,
    ) -> Self {
        Self {
            provider_id: provider_id.into(),
            model_id: model_id.into(),
            prompt_tokens,
            completion_tokens,
            total_tokens,
            cost,
        }
    }
}

/// Which model answered a turn: the `modelId` and `modelShares` keys of an observation as one
/// value, so that a single model id and a list of shares are never both present.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ModelAttribution {
    /// Neither key is present (an older observation, or a turn that no model answered).
    #[default]
    Unattributed,
    /// `modelId`: the turn ran on this one model.
    Single(String),
    /// `modelShares`: the turn ran on several models; no single `modelId` is written.
    Shares(Vec<UsageModelShare>),
}

impl ModelAttribution {
    /// The `modelId` key: the single answering model, if there was exactly one.
    #[must_use]
    pub fn model_id(&self) -> Option<&str> {
        match self {
            Self::Single(model_id) => Some(model_id),
            Self::Unattributed | Self::Shares(_) => None,
        }
    }

    /// The `modelShares` key: the per-model parts of a multi-model turn.
    #[must_use]
    pub fn model_shares(&self) -> Option<&[UsageModelShare]> {
        match self {
            Self::Shares(shares) => Some(shares),
            Self::Unattributed | Self::Single(_) => None,
        }
    }
}

/// The two keys as they are written.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelAttributionOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    model_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_shares: Option<&'a [UsageModelShare]>,
}

/// The two keys as they are read.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ModelAttributionIn {
    #[serde(default)]
    model_id: Option<String>,
    #[serde(default)]
    model_shares: Option<Vec<UsageModelShare>>,
}

#[cfg(feature = "serde")]
impl serde::Serialize for ModelAttribution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ModelAttributionOut {
            model_id: self.model_id(),
            model_shares: self.model_shares(),
        }
        .serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ModelAttribution {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;

        let wire = ModelAttributionIn::deserialize(deserializer)?;
        match (wire.model_id, wire.model_shares) {
            (None, None) => Ok(Self::Unattributed),
            (Some(model_id), None) => Ok(Self::Single(model_id)),
            (None, Some(shares)) => Ok(Self::Shares(shares)),
            (Some(_), Some(_)) => Err(D::Error::custom(
                "modelId and modelShares are exclusive: a turn that ran on several models has no single modelId",
            )),
        }
    }
}

/// The persisted, content-free usage record of one started interactive turn.
///
/// The optional prompt-execution root identity (`promptExecution*`) describes the prompt call up
/// to its first terminal callback, not the settlement of the turn; an observation without it is
/// still valid. Timestamps are ISO-8601 text and are not validated.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct UsageObservation {
    /// Id of this observation.
    pub usage_observation_id: String,
    /// Id of the turn it describes.
    pub turn_id: String,
    /// The final outcome of the turn.
    pub outcome: UsageOutcome,
    /// When prompt execution began (ISO-8601, not validated); absent when the turn failed before
    /// execution began.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt_execution_started_at: Option<String>,
    /// When the first terminal callback of the prompt call fired (ISO-8601, not validated); later
    /// settlement does not move it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt_execution_ended_at: Option<String>,
    /// Outcome reported by that first terminal callback; it may differ from [`Self::outcome`].
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt_execution_outcome: Option<UsageOutcome>,
    /// OpenTelemetry-compatible trace id of the prompt-execution root, minted fresh and
    /// content-free.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt_execution_trace_id: Option<String>,
    /// OpenTelemetry-compatible span id of the prompt-execution root, minted fresh and
    /// content-free.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt_execution_span_id: Option<String>,
    /// The answering model (`modelId`) or, for a multi-model turn, the per-model shares
    /// (`modelShares`); never both.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub model: ModelAttribution,
    /// Provider of the answering model.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub provider_id: Option<String>,
    /// The product surface that accepted the turn.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub surface: Option<UsageSurface>,
    /// The execution unit the turn is attributed to; absent means the main thread.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source: Option<UsageSource>,
    /// Tokens, context and cost of the turn, when measured.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub usage: Option<UsageSnapshot>,
}

impl UsageObservation {
    /// An observation of one turn: its id, turn id and outcome; the model starts unattributed and the rest absent.
    #[must_use]
    pub fn new(
        usage_observation_id: impl Into<String>,
        turn_id: impl Into<String>,
        outcome: UsageOutcome,
    ) -> Self {
        Self {
            usage_observation_id: usage_observation_id.into(),
            turn_id: turn_id.into(),
            outcome,
            prompt_execution_started_at: None,
            prompt_execution_ended_at: None,
            prompt_execution_outcome: None,
            prompt_execution_trace_id: None,
            prompt_execution_span_id: None,
            model: ModelAttribution::Unattributed,
            provider_id: None,
            surface: None,
            source: None,
            usage: None,
        }
    }

    /// Sets when prompt execution started.
    #[must_use]
    pub fn with_prompt_execution_started_at(
        mut self,
        prompt_execution_started_at: impl Into<String>,
    ) -> Self {
        self.prompt_execution_started_at = Some(prompt_execution_started_at.into());
        self
    }

    /// Sets when prompt execution ended.
    #[must_use]
    pub fn with_prompt_execution_ended_at(
        mut self,
        prompt_execution_ended_at: impl Into<String>,
    ) -> Self {
        self.prompt_execution_ended_at = Some(prompt_execution_ended_at.into());
        self
    }

    /// Sets how prompt execution ended.
    #[must_use]
    pub const fn with_prompt_execution_outcome(
        mut self,
        prompt_execution_outcome: UsageOutcome,
    ) -> Self {
        self.prompt_execution_outcome = Some(prompt_execution_outcome);
        self
    }

    /// Sets the trace id of the prompt execution.
    #[must_use]
    pub fn with_prompt_execution_trace_id(
        mut self,
        prompt_execution_trace_id: impl Into<String>,
    ) -> Self {
        self.prompt_execution_trace_id = Some(prompt_execution_trace_id.into());
        self
    }

    /// Sets the span id of the prompt-execution root.
    #[must_use]
    pub fn with_prompt_execution_span_id(
        mut self,
        prompt_execution_span_id: impl Into<String>,
    ) -> Self {
        self.prompt_execution_span_id = Some(prompt_execution_span_id.into());
        self
    }

    /// Sets which model answered the turn (`modelId` or `modelShares`).
    #[must_use]
    pub fn with_model(mut self, model: ModelAttribution) -> Self {
        self.model = model;
        self
    }

    /// Sets the product surface of the turn.
    #[must_use]
    pub const fn with_surface(mut self, surface: UsageSurface) -> Self {
        self.surface = Some(surface);
        self
    }
}

optional_setters!(UsageObservation {
    /// Sets the provider that served the turn.
    with_provider_id => provider_id: impl Into<String>,
    /// Sets the execution unit the turn is attributed to.
    with_source => source: UsageSource,
    /// Sets the usage snapshot of the turn.
    with_usage => usage: UsageSnapshot,
});

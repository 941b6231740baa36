//! Token counts (`ITokenUsage`) and context-window occupancy (`IContextWindowState`).

/// Tokens spent by one call or summed over several (`ITokenUsage`): the usage triple every
/// family shares.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) (or `Default`, all zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct TokenUsage {
    /// Tokens of input: the prompt and the history sent with it.
    pub prompt_tokens: u64,
    /// Tokens the model produced.
    pub completion_tokens: u64,
    /// All tokens counted, as the provider reported them (not recomputed here).
    pub total_tokens: u64,
}

/// The usage totals of a whole session (`ISessionUsageTotals`): the same triple.
pub type SessionUsageTotals = TokenUsage;

impl TokenUsage {
    /// The counts as the provider reported them; `total_tokens` is taken as given, not summed.
    #[must_use]
    pub const fn new(prompt_tokens: u64, completion_tokens: u64, total_tokens: u64) -> Self {
        Self {
            prompt_tokens,
            completion_tokens,
            total_tokens,
        }
    }
}

/// How full the model's context window is (`IContextWindowState`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) (or `Default`, an unknown window).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ContextWindowState {
    /// The window size of the current model, in tokens.
    pub max_tokens: u64,
    /// Tokens in use: input and cache, output excluded (an estimate).
    pub used_tokens: u64,
    /// The used share of the window, 0 to 100 (as sent; not clamped here).
    pub used_percentage: f64,
    /// The free share of the window, 0 to 100 (as sent; not clamped here).
    pub remaining_percentage: f64,
}

impl ContextWindowState {
    /// The window's size and use as measured: tokens in use and the used and free shares, 0 to
    /// 100 (taken as given, not recomputed or clamped).
    #[must_use]
    pub const fn new(
        max_tokens: u64,
        used_tokens: u64,
        used_percentage: f64,
        remaining_percentage: f64,
    ) -> Self {
        Self {
            max_tokens,
            used_tokens,
            used_percentage,
            remaining_percentage,
        }
    }
}

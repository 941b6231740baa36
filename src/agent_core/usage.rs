//! Token counts (`ITokenUsage`) and context-window occupancy (`IContextWindowState`).

/// Tokens spent by one call or summed over several (`ITokenUsage`): the usage triple every
/// family shares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
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

/// How full the model's context window is (`IContextWindowState`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
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

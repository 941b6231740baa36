//! Screens a command asks the issuing surface to show (`TCommandUiIntent`).

use core::fmt;

/// A screen the surface that issued a command should show (`TCommandUiIntent`): on the wire
/// `{"type": "<literal>"}` with no payload.
///
/// Intents are fire-and-forget and routed to the requesting surface only. A surface that cannot
/// show one must say so ("not available on this surface"), never drop it silently. The names are
/// UI-neutral: no literal names a particular UI technology.
///
/// `#[non_exhaustive]`: the contract adds kinds, so match it with a wildcard arm; decoding
/// still refuses a kind not listed here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum CommandUiIntent {
    /// `show-plugin-manager`: the plugin manager.
    ShowPluginManager,
    /// `show-settings`: the settings screen.
    ShowSettings,
    /// `show-session-picker`: the list of sessions to resume.
    ShowSessionPicker,
    /// `show-agent-switcher`: the agent switcher.
    ShowAgentSwitcher,
    /// `show-theme-picker`: the theme picker.
    ShowThemePicker,
}

impl CommandUiIntent {
    /// Every intent, in declaration order.
    pub const ALL: &'static [Self] = &[
        Self::ShowPluginManager,
        Self::ShowSettings,
        Self::ShowSessionPicker,
        Self::ShowAgentSwitcher,
        Self::ShowThemePicker,
    ];

    /// Every wire `type` literal, in [`ALL`](Self::ALL) order.
    pub const LITERALS: &'static [&'static str] = &[
        "show-plugin-manager",
        "show-settings",
        "show-session-picker",
        "show-agent-switcher",
        "show-theme-picker",
    ];

    /// The intent's exact wire `type` literal.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ShowPluginManager => "show-plugin-manager",
            Self::ShowSettings => "show-settings",
            Self::ShowSessionPicker => "show-session-picker",
            Self::ShowAgentSwitcher => "show-agent-switcher",
            Self::ShowThemePicker => "show-theme-picker",
        }
    }

    /// Reads an exact wire `type` literal (case-sensitive); `None` for any other text.
    #[must_use]
    pub fn from_literal(text: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|intent| intent.as_str() == text)
    }
}

impl fmt::Display for CommandUiIntent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

//! Effects a command asks its host to carry out (`TCommandHostAction`).

use alloc::string::String;

use crate::agent_core::SessionEndReason;

use crate::command::appearance::{AppearanceSettingsPatch, StatusLineCommandSettingsPatch};

string_enum! {
    /// The kind of a [`CommandHostAction`]: its wire `type`, without the payload.
    pub enum CommandHostActionKind {
        /// [`CommandHostAction::ProviderHotSwap`].
        ProviderHotSwap = "provider-hot-swap",
        /// [`CommandHostAction::OutputStyleChange`].
        OutputStyleChange = "output-style-change",
        /// [`CommandHostAction::LanguageChange`].
        LanguageChange = "language-change",
        /// [`CommandHostAction::SettingsReset`].
        SettingsReset = "settings-reset",
        /// [`CommandHostAction::SessionExit`].
        SessionExit = "session-exit",
        /// [`CommandHostAction::SessionRestart`].
        SessionRestart = "session-restart",
        /// [`CommandHostAction::SessionRename`].
        SessionRename = "session-rename",
        /// [`CommandHostAction::WorkspaceMove`].
        WorkspaceMove = "workspace-move",
        /// [`CommandHostAction::StatuslineSettingsPatch`].
        StatuslineSettingsPatch = "statusline-settings-patch",
        /// [`CommandHostAction::AppearanceSettingsPatch`].
        AppearanceSettingsPatch = "appearance-settings-patch",
        /// [`CommandHostAction::RemoteControlEnable`].
        RemoteControlEnable = "remote-control-enable",
        /// [`CommandHostAction::RemoteControlStop`].
        RemoteControlStop = "remote-control-stop",
    }
}

/// An effect on the host that a command requests (`TCommandHostAction`), tagged on `type`.
///
/// The session layer carries these out before the command's result returns, whether or not any
/// surface is attached; surfaces only observe the outcome. Every variant is plain data, so a JSON
/// round trip gives back the same value.
///
/// `#[non_exhaustive]`: the contract adds kinds, so match it with a wildcard arm; decoding
/// still refuses a kind not listed here.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "type",
        rename_all = "kebab-case",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum CommandHostAction {
    /// `provider-hot-swap`: switch the session to another provider profile.
    ProviderHotSwap {
        /// The name of the profile to switch to.
        profile_name: String,
    },
    /// `output-style-change`: switch the output style. Only the style id travels; the style's
    /// prompt text stays in the host's registry.
    OutputStyleChange {
        /// The id of the style to switch to.
        style_id: String,
    },
    /// `language-change`: switch the language the assistant answers in.
    LanguageChange {
        /// The language to switch to, as the user named it.
        language: String,
    },
    /// `settings-reset`: reset the settings to their defaults.
    SettingsReset,
    /// `session-exit`: end the session.
    SessionExit {
        /// Why the session ends, when the command says.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        reason: Option<SessionEndReason>,
        /// A parting message, when the command gives one.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        message: Option<String>,
    },
    /// `session-restart`: end the session and start a fresh one.
    SessionRestart {
        /// Why the old session ends.
        reason: SessionEndReason,
        /// The message shown on restart.
        message: String,
    },
    /// `session-rename`: give the session a new name.
    SessionRename {
        /// The new name.
        name: String,
    },
    /// `workspace-move`: move the session to another working directory (`/cd`).
    WorkspaceMove {
        /// The path exactly as the user typed it; the host resolves it.
        path: String,
    },
    /// `statusline-settings-patch`: change some status-line settings.
    StatuslineSettingsPatch {
        /// The fields to change.
        patch: StatusLineCommandSettingsPatch,
    },
    /// `appearance-settings-patch`: change some appearance settings.
    AppearanceSettingsPatch {
        /// The fields to change.
        patch: AppearanceSettingsPatch,
    },
    /// `remote-control-enable`: let remote peers drive the session.
    RemoteControlEnable,
    /// `remote-control-stop`: stop remote control of the session.
    RemoteControlStop,
}

impl CommandHostAction {
    /// The action's kind: its wire `type`.
    #[must_use]
    pub const fn kind(&self) -> CommandHostActionKind {
        match self {
            Self::ProviderHotSwap { .. } => CommandHostActionKind::ProviderHotSwap,
            Self::OutputStyleChange { .. } => CommandHostActionKind::OutputStyleChange,
            Self::LanguageChange { .. } => CommandHostActionKind::LanguageChange,
            Self::SettingsReset => CommandHostActionKind::SettingsReset,
            Self::SessionExit { .. } => CommandHostActionKind::SessionExit,
            Self::SessionRestart { .. } => CommandHostActionKind::SessionRestart,
            Self::SessionRename { .. } => CommandHostActionKind::SessionRename,
            Self::WorkspaceMove { .. } => CommandHostActionKind::WorkspaceMove,
            Self::StatuslineSettingsPatch { .. } => CommandHostActionKind::StatuslineSettingsPatch,
            Self::AppearanceSettingsPatch { .. } => CommandHostActionKind::AppearanceSettingsPatch,
            Self::RemoteControlEnable => CommandHostActionKind::RemoteControlEnable,
            Self::RemoteControlStop => CommandHostActionKind::RemoteControlStop,
        }
    }
}

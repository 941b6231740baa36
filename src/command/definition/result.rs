//! What running a command returns (`ICommandResult`).

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{Value, ValueMap};

use super::host_action::CommandHostAction;
use super::ui_intent::CommandUiIntent;

/// One value of a command result's [`data`](CommandResult::data) (`TCommandResultDataValue`):
/// any JSON value, an object or a list of objects.
///
/// All three TypeScript alternatives are JSON values, so this is [`Value`] itself.
pub type CommandResultDataValue = Value;

/// The outcome of running a command (`ICommandResult`).
///
/// A failed command is a result with `success: false`, never an error: the family declares no
/// error type. Host actions run in the session layer before the result reaches a surface; UI
/// intents go to the surface that issued the command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandResult {
    /// Text for the user: the output, or why the command failed.
    pub message: String,
    /// True when the command did what it was asked.
    pub success: bool,
    /// Command-specific structured diagnostics.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub data: Option<ValueMap>,
    /// Effects on the host the session layer carries out, in order, before the result returns.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub host_actions: Option<Vec<CommandHostAction>>,
    /// Screens the issuing surface should show, in order (fire-and-forget).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub ui_intents: Option<Vec<CommandUiIntent>>,
}

impl CommandResult {
    /// A result with `message` and `success`, and no data, host action or UI intent.
    #[must_use]
    pub fn new(message: impl Into<String>, success: bool) -> Self {
        Self {
            message: message.into(),
            success,
            data: None,
            host_actions: None,
            ui_intents: None,
        }
    }

    /// A successful result with `message` and nothing else.
    #[must_use]
    pub fn success(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            success: true,
            ..Self::default()
        }
    }

    /// A failed result with `message` (why it failed) and nothing else.
    #[must_use]
    pub fn failure(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            success: false,
            ..Self::default()
        }
    }

    /// The host actions, or an empty slice when there are none.
    #[must_use]
    pub fn host_actions(&self) -> &[CommandHostAction] {
        self.host_actions.as_deref().unwrap_or(&[])
    }

    /// The UI intents, or an empty slice when there are none.
    #[must_use]
    pub fn ui_intents(&self) -> &[CommandUiIntent] {
        self.ui_intents.as_deref().unwrap_or(&[])
    }
}

optional_setters!(CommandResult {
    /// The same result with structured diagnostics.
    with_data => data: ValueMap,
    /// The same result with host actions, run in order before it returns.
    with_host_actions => host_actions: Vec<CommandHostAction>,
    /// The same result with UI intents for the issuing surface.
    with_ui_intents => ui_intents: Vec<CommandUiIntent>,
});

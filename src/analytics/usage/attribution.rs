//! Attribution: which execution unit consumed tokens, and which product surface accepted the turn.

use alloc::string::String;

string_enum! {
    /// The kind of execution unit that consumed tokens.
    pub enum UsageSourceScope {
        /// The session's main thread.
        Main = "main",
        /// A subagent run on behalf of the main thread.
        Subagent = "subagent",
        /// A background task.
        Background = "background",
        /// A tool's own model use.
        Tool = "tool",
        /// A command's own model use.
        Command = "command",
        /// A skill's own model use.
        Skill = "skill",
    }
}

string_enum! {
    /// The product surface that accepted a turn.
    pub enum UsageSurface {
        /// The command-line app.
        Cli = "cli",
        /// The desktop app.
        DesktopApp = "desktop-app",
        /// A browser tab.
        Browser = "browser",
        /// A remote client.
        Remote = "remote",
        /// A client attached to a running session (the newest member of the set).
        Attach = "attach",
        /// The surface could not be established.
        Unknown = "unknown",
    }
}

/// Which execution unit consumed the tokens of a turn. Where a record leaves its source out, the
/// main thread is meant.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct UsageSource {
    /// The kind of unit.
    pub scope: UsageSourceScope,
    /// Stable id of the unit (a subagent or background-task id); absent for the main thread.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub id: Option<String>,
    /// Human label of the unit (an agent type, a task title).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub label: Option<String>,
}

impl UsageSource {
    /// A usage source of this scope; the id and label start absent.
    #[must_use]
    pub const fn new(scope: UsageSourceScope) -> Self {
        Self {
            scope,
            id: None,
            label: None,
        }
    }

    /// The main thread: scope `main`, no id, no label.
    #[must_use]
    pub const fn main() -> Self {
        Self {
            scope: UsageSourceScope::Main,
            id: None,
            label: None,
        }
    }
}

optional_setters!(UsageSource {
    /// Sets the stable id of the unit.
    with_id => id: impl Into<String>,
    /// Sets the human label of the unit.
    with_label => label: impl Into<String>,
});

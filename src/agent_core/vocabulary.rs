//! Small closed vocabularies: model effort, permission mode, session end reason, background
//! permission policy, peer reach.

use core::fmt;

string_enum! {
    /// How hard a model is asked to think (`TModelEffort`), in increasing order.
    ///
    /// The newer TypeScript source has seven levels; older snapshots had only `low` to `max`,
    /// which are a subset, so their values still decode.
    pub enum ModelEffort {
        /// No extra reasoning.
        None = "none",
        /// The least reasoning a provider offers.
        Minimal = "minimal",
        /// Low effort.
        Low = "low",
        /// Medium effort.
        Medium = "medium",
        /// High effort.
        High = "high",
        /// Above high.
        Xhigh = "xhigh",
        /// The most a provider offers.
        Max = "max",
    }
}

/// A requested effort (`TModelEffortSelection`): a [`ModelEffort`], or `'auto'` to keep the
/// provider's default.
///
/// The wire form is the bare string (`"auto"`, `"high"`, …); any other string fails to decode
/// with serde's "unknown variant" error listing every accepted literal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ModelEffortSelection {
    /// `'auto'`: send no effort control and let the provider choose.
    #[default]
    Auto,
    /// A concrete effort level.
    Effort(ModelEffort),
}

impl ModelEffortSelection {
    /// Every value of the set: `Auto`, then each effort in [`ModelEffort::ALL`] order.
    pub const ALL: &'static [Self] = &[
        Self::Auto,
        Self::Effort(ModelEffort::None),
        Self::Effort(ModelEffort::Minimal),
        Self::Effort(ModelEffort::Low),
        Self::Effort(ModelEffort::Medium),
        Self::Effort(ModelEffort::High),
        Self::Effort(ModelEffort::Xhigh),
        Self::Effort(ModelEffort::Max),
    ];

    /// Every wire literal of the set, in [`ALL`](Self::ALL) order.
    pub const LITERALS: &'static [&'static str] = &[
        "auto", "none", "minimal", "low", "medium", "high", "xhigh", "max",
    ];

    /// The exact wire literal of this value.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Effort(effort) => effort.as_str(),
        }
    }

    /// Reads an exact wire literal (case-sensitive); `None` for any other text.
    #[must_use]
    pub fn from_literal(text: &str) -> Option<Self> {
        if text == "auto" {
            Some(Self::Auto)
        } else {
            ModelEffort::from_literal(text).map(Self::Effort)
        }
    }

    /// The concrete effort, or `None` for `Auto`.
    #[must_use]
    pub const fn effort(self) -> Option<ModelEffort> {
        match self {
            Self::Auto => None,
            Self::Effort(effort) => Some(effort),
        }
    }
}

impl From<ModelEffort> for ModelEffortSelection {
    fn from(effort: ModelEffort) -> Self {
        Self::Effort(effort)
    }
}

impl fmt::Display for ModelEffortSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ModelEffortSelection {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ModelEffortSelection {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::literal::deserialize(deserializer, Self::LITERALS, Self::from_literal)
    }
}

string_enum! {
    /// How freely tools run without asking (`TPermissionMode`).
    ///
    /// The set is closed today but the contract notes it may grow, so the enum is
    /// `#[non_exhaustive]`: match it with a wildcard arm. Decoding still refuses any literal not
    /// listed here.
    pub enum PermissionMode {
        /// Read-only tools only.
        Plan = "plan",
        /// Reads run; writes and commands ask.
        Default = "default",
        /// Reads and edits run; commands ask.
        AcceptEdits = "acceptEdits",
        /// Every tool runs without asking.
        BypassPermissions = "bypassPermissions",
    }
}

string_enum! {
    /// Why a session ended (`TSessionEndReason`).
    pub enum SessionEndReason {
        /// The conversation was cleared.
        Clear = "clear",
        /// Another session was resumed in its place.
        Resume = "resume",
        /// The user logged out.
        Logout = "logout",
        /// The user left the prompt (exit command or end of input).
        PromptInputExit = "prompt_input_exit",
        /// Bypass-permissions mode was switched off, which ends the session.
        BypassPermissionsDisabled = "bypass_permissions_disabled",
        /// Any other reason.
        Other = "other",
    }
}

string_enum! {
    /// How a background task's privileged tool calls are decided (`TBackgroundPermissionPolicy`).
    pub closed enum BackgroundPermissionPolicy {
        /// Apply the parent's allow/deny rules: matched calls run, unmatched calls are denied
        /// (never asked).
        InheritAllowlist = "inherit-allowlist",
        /// Only the task's own declared allowlist runs; everything else is denied.
        Preapproved = "preapproved",
        /// Ask a human; denied when nobody can answer.
        Prompt = "prompt",
        /// Deny every privileged call (the call is refused; the task is not failed for it).
        Deny = "deny",
    }
}

string_enum! {
    /// Where a peer runs relative to this session, as admission established it (`TPeerReach`).
    pub enum PeerReach {
        /// The peer runs on this machine.
        SameHost = "same-host",
        /// The peer runs on another machine.
        AnotherHost = "another-host",
    }
}

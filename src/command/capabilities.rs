//! Capability descriptors: what the model and the user are told about a command, skill, agent or
//! tool (`capability-contracts` in the TypeScript package).
//!
//! Kinds and safety levels are enums with the exact wire literals, and an unknown literal fails to
//! decode; [`CapabilitySafety`] is closed, so a host can match every level when it gates one.

use alloc::string::String;

string_enum! {
    /// What kind of capability a [`CapabilityDescriptor`] describes (`TCapabilityKind`).
    pub enum CapabilityKind {
        /// A command built into the host.
        BuiltinCommand = "builtin-command",
        /// A skill: instructions loaded from a `SKILL.md`.
        Skill = "skill",
        /// An agent definition the host can run.
        Agent = "agent",
        /// A tool the model calls.
        Tool = "tool",
    }
}

string_enum! {
    /// The strongest effect a capability can have (`TCapabilitySafety`), which decides how
    /// carefully a host gates it.
    pub closed enum CapabilitySafety {
        /// Only reads; changes nothing.
        ReadOnly = "read-only",
        /// Writes files or settings.
        Write = "write",
        /// Starts or controls local processes.
        Process = "process",
        /// Reaches the network.
        Network = "network",
        /// Starts an agent that keeps working in the background.
        BackgroundAgent = "background-agent",
    }
}

/// What a command, skill, agent or tool declares about itself (`ICapabilityDescriptor`).
///
/// Public on purpose: a host's capability layer reads these descriptors to decide what it offers
/// the model and the user.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CapabilityDescriptor {
    /// The capability's name, as it is invoked (no leading slash).
    pub name: String,
    /// What kind of capability this is.
    pub kind: CapabilityKind,
    /// What the capability does, in one line.
    pub description: String,
    /// True when a user may invoke it directly.
    pub user_invocable: bool,
    /// True when the model may invoke it.
    pub model_invocable: bool,
    /// How its arguments are written, shown as a hint (e.g. `<file>`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub argument_hint: Option<String>,
    /// The strongest effect it can have, when declared.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub safety: Option<CapabilitySafety>,
    /// Whether running it needs the user's permission: `Some(false)` means the tool projected
    /// from it is approved without a prompt; absent leaves the decision to the host's policy.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub requires_permission: Option<bool>,
}

impl CapabilityDescriptor {
    /// A descriptor with the required members, in the contract's order, and no optional member set.
    #[must_use]
    pub fn new(
        name: impl Into<String>,
        kind: CapabilityKind,
        description: impl Into<String>,
        user_invocable: bool,
        model_invocable: bool,
    ) -> Self {
        Self {
            name: name.into(),
            kind,
            description: description.into(),
            user_invocable,
            model_invocable,
            argument_hint: None,
            safety: None,
            requires_permission: None,
        }
    }
}

optional_setters!(CapabilityDescriptor {
    /// The same descriptor with an argument hint (e.g. `<file>`).
    with_argument_hint => argument_hint: impl Into<String>,
    /// The same descriptor declaring its strongest effect.
    with_safety => safety: CapabilitySafety,
    /// The same descriptor saying whether running it needs the user's permission.
    with_requires_permission => requires_permission: bool,
});

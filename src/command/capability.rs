//! Capability descriptors: what the model and the user are told about a command, skill, agent or
//! tool (`capability-contracts` in the TypeScript package).

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

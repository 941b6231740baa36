//! The settings screen's typed snapshot and patch (`settings-contracts`).
//!
//! Declared in the session family so a wire carrier can carry the snapshot without depending on
//! the runtime that builds it, and that runtime needs no transport. Every id a choice carries is
//! the id the matching slash command accepts (a language code, an output-style id, a preset id, a
//! permission-mode name), never a screen-only identifier, so applying a patch and running the
//! command are the same action.
//!
//! These contracts are newer than the merged specification; their shapes come from the newest
//! split sources.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;

/// One selectable value in a settings menu (`ISettingsChoice`): a label and a description, never
/// a bare id.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SettingsChoice {
    /// The id the matching slash command accepts.
    pub id: String,
    /// What the menu shows.
    pub label: String,
    /// One line explaining the choice.
    pub description: String,
}

impl SettingsChoice {
    /// A [`SettingsChoice`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        label: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            label: label.into(),
            description: description.into(),
        }
    }
}

string_enum! {
    /// What a permission rule does (the inline `'allow' | 'deny' | 'ask'` of
    /// `ISettingsPermissionRule` and the rule-removal patch).
    pub enum SettingsPermissionRuleKind {
        /// The tool call runs without asking.
        Allow = "allow",
        /// The tool call is refused.
        Deny = "deny",
        /// The user is asked.
        Ask = "ask",
    }
}

/// One configured permission rule, grouped as the permissions command shows it
/// (`ISettingsPermissionRule`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SettingsPermissionRule {
    /// Stable within one snapshot, `<scope>:<kind>:<pattern>`; otherwise opaque to a client.
    pub id: String,
    /// The settings layer the rule came from (`user`, `project`, `project-local`, `managed`).
    pub scope: String,
    /// The file the rule lives in, as a person would find it.
    pub source: String,
    /// What the rule does.
    pub kind: SettingsPermissionRuleKind,
    /// The tool pattern the rule matches.
    pub pattern: String,
    /// False for a rule this host cannot rewrite (no settings store for its scope).
    pub removable: bool,
}

impl SettingsPermissionRule {
    /// A [`SettingsPermissionRule`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        scope: impl Into<String>,
        source: impl Into<String>,
        kind: SettingsPermissionRuleKind,
        pattern: impl Into<String>,
        removable: bool,
    ) -> Self {
        Self {
            id: id.into(),
            scope: scope.into(),
            source: source.into(),
            kind,
            pattern: pattern.into(),
            removable,
        }
    }
}

/// The language section (`ISettingsLanguageSection`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SettingsLanguageSection {
    /// The current language code.
    pub current: String,
    /// The runtime's recommended languages; the control also accepts free text.
    pub recommended: Vec<SettingsChoice>,
    /// One plain sentence on when a change takes effect (this session, or after a restart).
    pub applies_note: String,
}

impl SettingsLanguageSection {
    /// A [`SettingsLanguageSection`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        current: impl Into<String>,
        recommended: Vec<SettingsChoice>,
        applies_note: impl Into<String>,
    ) -> Self {
        Self {
            current: current.into(),
            recommended,
            applies_note: applies_note.into(),
        }
    }
}

/// The output-style section (`ISettingsOutputStyleSection`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SettingsOutputStyleSection {
    /// The current style id.
    pub current: String,
    /// The styles to choose from.
    pub choices: Vec<SettingsChoice>,
}

impl SettingsOutputStyleSection {
    /// A [`SettingsOutputStyleSection`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(current: impl Into<String>, choices: Vec<SettingsChoice>) -> Self {
        Self {
            current: current.into(),
            choices,
        }
    }
}

/// The preset section (`ISettingsPresetSection`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SettingsPresetSection {
    /// The current preset id.
    pub current: String,
    /// The presets to choose from.
    pub choices: Vec<SettingsChoice>,
    /// The preset ids that, once applied, set the permission mode to the one that skips every
    /// check ([`SettingsPermissionModeSection::skips_all_checks_mode`]).
    pub skips_all_checks_preset_ids: Vec<String>,
}

impl SettingsPresetSection {
    /// A [`SettingsPresetSection`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        current: impl Into<String>,
        choices: Vec<SettingsChoice>,
        skips_all_checks_preset_ids: Vec<String>,
    ) -> Self {
        Self {
            current: current.into(),
            choices,
            skips_all_checks_preset_ids,
        }
    }
}

/// The permission-mode section (`ISettingsPermissionModeSection`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SettingsPermissionModeSection {
    /// The current mode's name.
    pub current: String,
    /// The modes to choose from.
    pub choices: Vec<SettingsChoice>,
    /// The mode that skips every permission check, the one that needs its own confirmation.
    pub skips_all_checks_mode: String,
}

impl SettingsPermissionModeSection {
    /// A [`SettingsPermissionModeSection`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        current: impl Into<String>,
        choices: Vec<SettingsChoice>,
        skips_all_checks_mode: impl Into<String>,
    ) -> Self {
        Self {
            current: current.into(),
            choices,
            skips_all_checks_mode: skips_all_checks_mode.into(),
        }
    }
}

/// The sandbox section (`ISettingsSandboxSection`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SettingsSandboxSection {
    /// True when the sandbox is switched on.
    pub enabled: bool,
    /// True when the sandbox can run here.
    pub available: bool,
    /// Why the sandbox cannot run here; absent when it can.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub unavailable_reason: Option<String>,
    /// One plain sentence on what the switch does.
    pub description: String,
}

impl SettingsSandboxSection {
    /// A [`SettingsSandboxSection`] from the members the contract requires, in its order; the
    /// optional ones start absent.
    #[must_use]
    pub fn new(enabled: bool, available: bool, description: impl Into<String>) -> Self {
        Self {
            enabled,
            available,
            description: description.into(),
            unavailable_reason: None,
        }
    }
}

optional_setters!(SettingsSandboxSection {
    /// The same value with `unavailable_reason` set: why the sandbox cannot run here; absent when
    /// it can.
    with_unavailable_reason => unavailable_reason: impl Into<String>,
});

/// A full read of the settings screen (`ISettingsSnapshot`): the six sections.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SettingsSnapshot {
    /// The language section.
    pub language: SettingsLanguageSection,
    /// The output-style section.
    pub output_style: SettingsOutputStyleSection,
    /// The preset section.
    pub preset: SettingsPresetSection,
    /// The permission-mode section.
    pub permission_mode: SettingsPermissionModeSection,
    /// The configured permission rules.
    pub permission_rules: Vec<SettingsPermissionRule>,
    /// The sandbox section.
    pub sandbox: SettingsSandboxSection,
}

impl SettingsSnapshot {
    /// A [`SettingsSnapshot`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        language: SettingsLanguageSection,
        output_style: SettingsOutputStyleSection,
        preset: SettingsPresetSection,
        permission_mode: SettingsPermissionModeSection,
        permission_rules: Vec<SettingsPermissionRule>,
        sandbox: SettingsSandboxSection,
    ) -> Self {
        Self {
            language,
            output_style,
            preset,
            permission_mode,
            permission_rules,
            sandbox,
        }
    }
}

/// A change to exactly one settings field, in the vocabulary of its command (`TSettingsPatch`),
/// tagged on `field`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "field",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum SettingsPatch {
    /// Sets the language (`language`).
    Language {
        /// The language code.
        language: String,
    },
    /// Sets the output style (`outputStyle`).
    OutputStyle {
        /// The style id (wire `styleId`).
        style_id: String,
    },
    /// Applies a preset (`preset`).
    Preset {
        /// The preset id (wire `presetId`).
        preset_id: String,
    },
    /// Sets the permission mode (`permissionMode`).
    PermissionMode {
        /// The mode's name.
        mode: String,
    },
    /// Switches the sandbox on or off (`sandbox`).
    Sandbox {
        /// True to switch it on.
        enabled: bool,
    },
    /// Removes one permission rule (`removePermissionRule`).
    RemovePermissionRule {
        /// The settings layer the rule lives in.
        scope: String,
        /// What the rule does.
        kind: SettingsPermissionRuleKind,
        /// The rule's tool pattern.
        pattern: String,
    },
}

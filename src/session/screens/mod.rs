//! What a surface reads to draw its screens: prompt history, the project panel (status, diff,
//! memory) and the settings screen.
//!
//! # Guarantees
//!
//! - Each is a read contract: a snapshot or a read outcome the session answers, with no
//!   rendering in it; the settings screen changes settings only through a [`SettingsPatch`].

mod project_panel;
mod prompt_history;
mod settings_screen;

pub use project_panel::{
    ProjectDiffRead, ProjectFileStatus, ProjectMemoryRead, ProjectStatusFile, ProjectStatusRead,
};
pub use prompt_history::{
    PromptHistoryBlock, PromptHistoryEntry, PromptHistoryRead, PromptHistoryReadOptions,
    PromptHistorySource, PromptHistoryWriter,
};
pub use settings_screen::{
    SettingsChoice, SettingsLanguageSection, SettingsOutputStyleSection, SettingsPatch,
    SettingsPermissionModeSection, SettingsPermissionRule, SettingsPermissionRuleKind,
    SettingsPresetSection, SettingsSandboxSection, SettingsSnapshot,
};

//! Settings a command writes: the status line and appearance settings, and the patches the
//! corresponding host actions carry.

use alloc::string::String;

use crate::agent_core::ValueMap;

/// The status-line settings (`IStatusLineCommandSettings`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct StatusLineCommandSettings {
    /// True when the status line is shown.
    pub enabled: bool,
    /// True when the status line shows the current git branch.
    pub git_branch: bool,
}

impl StatusLineCommandSettings {
    /// Status-line settings: whether it is shown, and whether it shows the git branch.
    #[must_use]
    pub const fn new(enabled: bool, git_branch: bool) -> Self {
        Self {
            enabled,
            git_branch,
        }
    }
}

/// A change to the status-line settings (`TStatusLineCommandSettingsPatch`): any subset of the
/// known fields, plus any other keys, kept as written.
///
/// A known field that is present must have its declared type, or the patch fails to decode. Keys
/// named `enabled` or `gitBranch` inside [`extra`](Self::extra) are dropped on encoding: the typed
/// fields own them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", into = "StatusLinePatchWire")
)]
#[non_exhaustive]
pub struct StatusLineCommandSettingsPatch {
    /// The new [`StatusLineCommandSettings::enabled`], when it changes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub enabled: Option<bool>,
    /// The new [`StatusLineCommandSettings::git_branch`], when it changes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub git_branch: Option<bool>,
    /// Every other key of the patch, as written.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub extra: ValueMap,
}

impl StatusLineCommandSettingsPatch {
    /// The same patch with these other keys, kept as written.
    #[must_use]
    pub fn with_extra(mut self, extra: ValueMap) -> Self {
        self.extra = extra;
        self
    }

    /// The settings after applying this patch's known fields to `settings` (the extra keys are
    /// not settings of this shape and are ignored).
    #[must_use]
    pub fn apply_to(&self, settings: StatusLineCommandSettings) -> StatusLineCommandSettings {
        StatusLineCommandSettings {
            enabled: self.enabled.unwrap_or(settings.enabled),
            git_branch: self.git_branch.unwrap_or(settings.git_branch),
        }
    }
}

optional_setters!(StatusLineCommandSettingsPatch {
    /// The same patch, changing `enabled`.
    with_enabled => enabled: bool,
    /// The same patch, changing `git_branch`.
    with_git_branch => git_branch: bool,
});

/// The encoded form of [`StatusLineCommandSettingsPatch`], without duplicate keys.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct StatusLinePatchWire {
    #[serde(skip_serializing_if = "Option::is_none")]
    enabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    git_branch: Option<bool>,
    #[serde(flatten)]
    extra: ValueMap,
}

#[cfg(feature = "serde")]
impl From<StatusLineCommandSettingsPatch> for StatusLinePatchWire {
    fn from(patch: StatusLineCommandSettingsPatch) -> Self {
        let mut extra = patch.extra;
        extra.retain(|key, _| !matches!(key.as_str(), "enabled" | "gitBranch"));
        Self {
            enabled: patch.enabled,
            git_branch: patch.git_branch,
            extra,
        }
    }
}

/// The appearance settings (`IAppearanceSettings`): persisted as these three flat keys, never as
/// a colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct AppearanceSettings {
    /// The chosen theme's id. An id the host does not know resolves to its default theme, with
    /// a visible notice.
    pub theme: String,
    /// True when code is syntax-highlighted.
    pub syntax_highlighting: bool,
    /// True when animations are reduced.
    pub reduced_motion: bool,
}

impl AppearanceSettings {
    /// Appearance settings: the theme's id, syntax highlighting and reduced motion.
    #[must_use]
    pub fn new(theme: impl Into<String>, syntax_highlighting: bool, reduced_motion: bool) -> Self {
        Self {
            theme: theme.into(),
            syntax_highlighting,
            reduced_motion,
        }
    }
}

/// A change to the appearance settings (`TAppearanceSettingsPatch`): any subset of the known
/// fields, plus any other keys, kept as written.
///
/// A known field that is present must have its declared type, or the patch fails to decode. Keys
/// named `theme`, `syntaxHighlighting` or `reducedMotion` inside [`extra`](Self::extra) are
/// dropped on encoding: the typed fields own them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", into = "AppearancePatchWire")
)]
#[non_exhaustive]
pub struct AppearanceSettingsPatch {
    /// The new [`AppearanceSettings::theme`], when it changes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub theme: Option<String>,
    /// The new [`AppearanceSettings::syntax_highlighting`], when it changes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub syntax_highlighting: Option<bool>,
    /// The new [`AppearanceSettings::reduced_motion`], when it changes.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reduced_motion: Option<bool>,
    /// Every other key of the patch, as written.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub extra: ValueMap,
}

impl AppearanceSettingsPatch {
    /// The same patch with these other keys, kept as written.
    #[must_use]
    pub fn with_extra(mut self, extra: ValueMap) -> Self {
        self.extra = extra;
        self
    }

    /// The settings after applying this patch's known fields to `settings` (the extra keys are
    /// not settings of this shape and are ignored).
    #[must_use]
    pub fn apply_to(&self, settings: AppearanceSettings) -> AppearanceSettings {
        AppearanceSettings {
            theme: self.theme.clone().unwrap_or(settings.theme),
            syntax_highlighting: self
                .syntax_highlighting
                .unwrap_or(settings.syntax_highlighting),
            reduced_motion: self.reduced_motion.unwrap_or(settings.reduced_motion),
        }
    }
}

optional_setters!(AppearanceSettingsPatch {
    /// The same patch, changing the theme.
    with_theme => theme: impl Into<String>,
    /// The same patch, changing `syntax_highlighting`.
    with_syntax_highlighting => syntax_highlighting: bool,
    /// The same patch, changing `reduced_motion`.
    with_reduced_motion => reduced_motion: bool,
});

/// The encoded form of [`AppearanceSettingsPatch`], without duplicate keys.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct AppearancePatchWire {
    #[serde(skip_serializing_if = "Option::is_none")]
    theme: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    syntax_highlighting: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reduced_motion: Option<bool>,
    #[serde(flatten)]
    extra: ValueMap,
}

#[cfg(feature = "serde")]
impl From<AppearanceSettingsPatch> for AppearancePatchWire {
    fn from(patch: AppearanceSettingsPatch) -> Self {
        let mut extra = patch.extra;
        extra.retain(|key, _| {
            !matches!(
                key.as_str(),
                "theme" | "syntaxHighlighting" | "reducedMotion"
            )
        });
        Self {
            theme: patch.theme,
            syntax_highlighting: patch.syntax_highlighting,
            reduced_motion: patch.reduced_motion,
            extra,
        }
    }
}

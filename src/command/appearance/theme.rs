//! The theme catalogue a command reads (`IThemeCataloguePort`), its entries, and the appearance
//! state with its reduced-motion pin.

use alloc::string::String;
use alloc::vec::Vec;

use super::settings::AppearanceSettings;

string_enum! {
    /// Which tier forces reduced motion over the persisted setting (`TReducedMotionOverride`).
    pub enum ReducedMotionOverride {
        /// A command-line flag.
        Flag = "flag",
        /// An environment variable.
        Environment = "environment",
        /// A detected screen reader.
        ScreenReader = "screen-reader",
    }
}

string_enum! {
    /// Whether a theme is meant for a dark or a light background.
    pub enum ThemeAppearance {
        /// A dark theme.
        Dark = "dark",
        /// A light theme.
        Light = "light",
    }
}

string_enum! {
    /// Where a theme comes from.
    pub enum ThemeSource {
        /// Shipped with the host.
        BuiltIn = "built-in",
        /// Defined by the user.
        User = "user",
        /// Contributed by a plugin.
        Plugin = "plugin",
    }
}

/// One theme of the catalogue (`IThemeCatalogueEntry`): its identity only, never its colours.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ThemeCatalogueEntry {
    /// The id persisted in [`AppearanceSettings::theme`].
    pub id: String,
    /// The name shown to people.
    pub name: String,
    /// Dark or light.
    pub appearance: ThemeAppearance,
    /// Where the theme comes from.
    pub source: ThemeSource,
}

impl ThemeCatalogueEntry {
    /// A catalogue entry: the theme's id, its name, dark or light, and where it comes from.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        appearance: ThemeAppearance,
        source: ThemeSource,
    ) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            appearance,
            source,
        }
    }
}

/// A reduced-motion value forced by a tier above the persisted settings: which tier, and the
/// value it pinned, always together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ReducedMotionPin {
    /// The tier that pins the value.
    pub tier: ReducedMotionOverride,
    /// The value it pins.
    pub reduced_motion: bool,
}

/// The appearance as a command sees it (`IThemeAppearanceState`): what is persisted, and whether
/// a higher tier pins reduced motion.
///
/// The pin is one optional value holding both the tier and what it pinned, so a tier without a
/// value (or a value without a tier) cannot be written down.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ThemeAppearanceState {
    /// The persisted settings.
    pub settings: AppearanceSettings,
    /// The reduced-motion pin, when a tier above the settings forces one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reduced_motion_pin: Option<ReducedMotionPin>,
}

impl ThemeAppearanceState {
    /// The appearance as persisted in `settings`, with no reduced-motion pin.
    #[must_use]
    pub fn new(settings: AppearanceSettings) -> Self {
        Self {
            settings,
            reduced_motion_pin: None,
        }
    }

    /// Whether motion is reduced in effect: the pinned value when a pin exists, the persisted
    /// setting otherwise.
    #[must_use]
    pub fn effective_reduced_motion(&self) -> bool {
        self.reduced_motion_pin
            .map_or(self.settings.reduced_motion, |pin| pin.reduced_motion)
    }
}

optional_setters!(ThemeAppearanceState {
    /// The same state with reduced motion pinned by a higher tier.
    with_reduced_motion_pin => reduced_motion_pin: ReducedMotionPin,
});

/// Read access to the host's themes and appearance (`IThemeCataloguePort`).
pub trait ThemeCataloguePort {
    /// Every theme the host knows (`listThemes()`).
    fn list_themes(&self) -> Vec<ThemeCatalogueEntry>;

    /// The theme with this id, or `None` when the host knows no such theme (`getTheme(id)`).
    fn get_theme(&self, id: &str) -> Option<ThemeCatalogueEntry>;

    /// The current appearance state (`getAppearance()`).
    fn get_appearance(&self) -> ThemeAppearanceState;
}

//! What a command host shows and how it looks: the status-line and appearance settings a command
//! writes, the patches the matching host actions carry, and the theme catalogue a command reads
//! with its appearance state and reduced-motion pin.
//!
//! Appearance settings persist as three flat keys, never as a colour; a patch changes only the
//! known fields it sets ([`AppearanceSettingsPatch::apply_to`]); the catalogue port is
//! synchronous and infallible, as in the TypeScript contract.
//!
//! | file | what it holds |
//! |---|---|
//! | settings | [`StatusLineCommandSettings`], [`AppearanceSettings`] and their patches |
//! | theme | [`ThemeCataloguePort`], [`ThemeCatalogueEntry`], [`ThemeAppearanceState`], [`ReducedMotionPin`] and their literals |

mod settings;
mod theme;

pub use settings::{
    AppearanceSettings, AppearanceSettingsPatch, StatusLineCommandSettings,
    StatusLineCommandSettingsPatch,
};
pub use theme::{
    ReducedMotionOverride, ReducedMotionPin, ThemeAppearance, ThemeAppearanceState,
    ThemeCatalogueEntry, ThemeCataloguePort, ThemeSource,
};

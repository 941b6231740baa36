//! The plugin surface a command host exposes (`ICommandPluginAdapter`) and the records it trades.
//!
//! Every member of the adapter port is asynchronous and fails only with the adapter's own
//! `Error`; the install scope is a set of the exact wire literals, any other fails to decode.

use alloc::string::String;
use alloc::vec::Vec;

string_enum! {
    /// Where a plugin is installed (`TPluginInstallScope`).
    pub enum PluginInstallScope {
        /// For this user, in every project.
        User = "user",
        /// For the current project only.
        Project = "project",
    }
}

/// An installed plugin (`ICommandInstalledPlugin`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandInstalledPlugin {
    /// The plugin's name.
    pub name: String,
    /// What the plugin does.
    pub description: String,
    /// True when the plugin is enabled.
    pub enabled: bool,
}

impl CommandInstalledPlugin {
    /// An installed plugin: its name, what it does, and whether it is enabled.
    #[must_use]
    pub fn new(name: impl Into<String>, description: impl Into<String>, enabled: bool) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            enabled,
        }
    }
}

/// A plugin a marketplace offers (`ICommandAvailablePlugin`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandAvailablePlugin {
    /// The plugin's name.
    pub name: String,
    /// What the plugin does.
    pub description: String,
    /// True when the plugin is already installed.
    pub installed: bool,
}

impl CommandAvailablePlugin {
    /// A plugin a marketplace offers: its name, what it does, and whether it is installed.
    #[must_use]
    pub fn new(name: impl Into<String>, description: impl Into<String>, installed: bool) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            installed,
        }
    }
}

/// A registered marketplace (`ICommandMarketplaceSource`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandMarketplaceSource {
    /// The marketplace's name.
    pub name: String,
    /// What kind of source it is (wire `type`), as an open label such as `"github"` or `"git"`.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: String,
}

impl CommandMarketplaceSource {
    /// A marketplace: its name and what kind of source it is (wire `type`).
    #[must_use]
    pub fn new(name: impl Into<String>, kind: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            kind: kind.into(),
        }
    }
}

/// The outcome of reloading plugins (`ICommandPluginReloadResult`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandPluginReloadResult {
    /// How many plugins are loaded after the reload; a count, so never negative.
    pub loaded_plugin_count: u32,
}

impl CommandPluginReloadResult {
    /// A reload that left `loaded_plugin_count` plugins loaded.
    #[must_use]
    pub const fn new(loaded_plugin_count: u32) -> Self {
        Self {
            loaded_plugin_count,
        }
    }
}

/// Plugin management as a command host offers it (`ICommandPluginAdapter`); every method is
/// asynchronous and may fail with [`Error`](Self::Error).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait CommandPluginAdapter {
    /// Why an operation failed.
    type Error: core::error::Error;

    /// The installed plugins (`listInstalled()`).
    async fn list_installed(&self) -> Result<Vec<CommandInstalledPlugin>, Self::Error>;

    /// The plugins `marketplace` offers (`listAvailablePlugins(marketplace)`).
    async fn list_available_plugins(
        &self,
        marketplace: &str,
    ) -> Result<Vec<CommandAvailablePlugin>, Self::Error>;

    /// Installs a plugin; `None` leaves the scope to the host's default (`install`).
    async fn install(
        &self,
        plugin_id: &str,
        scope: Option<PluginInstallScope>,
    ) -> Result<(), Self::Error>;

    /// Uninstalls a plugin (`uninstall`).
    async fn uninstall(&self, plugin_id: &str) -> Result<(), Self::Error>;

    /// Enables an installed plugin (`enable`).
    async fn enable(&self, plugin_id: &str) -> Result<(), Self::Error>;

    /// Disables an installed plugin (`disable`).
    async fn disable(&self, plugin_id: &str) -> Result<(), Self::Error>;

    /// Registers a marketplace from `source` and returns the name it was registered under
    /// (`marketplaceAdd`).
    async fn marketplace_add(&self, source: &str) -> Result<String, Self::Error>;

    /// Removes a registered marketplace (`marketplaceRemove`).
    async fn marketplace_remove(&self, name: &str) -> Result<(), Self::Error>;

    /// Refreshes a registered marketplace's listing (`marketplaceUpdate`).
    async fn marketplace_update(&self, name: &str) -> Result<(), Self::Error>;

    /// The registered marketplaces (`marketplaceList()`).
    async fn marketplace_list(&self) -> Result<Vec<CommandMarketplaceSource>, Self::Error>;

    /// Reloads every plugin (`reloadPlugins()`).
    async fn reload_plugins(&self) -> Result<CommandPluginReloadResult, Self::Error>;
}

//! The command contract family (feature `command`, layer 0; names only `agent_core`): what a
//! command is, what it returns, how it is listed and invoked, who runs it, the plugin and theme
//! surfaces a command host exposes, the capability descriptors a command declares, and the
//! host's authority over lazily admitted skill content.
//!
//! It mirrors the TypeScript command contracts. A host lists its [`Command`]s, projects them
//! for a picker or a model ([`to_command_list_entry`], [`to_skill_list_entry`]) and runs them
//! through its [`CommandExecutor`]. The family declares what a command *is* and decides nothing
//! about what any command *does*.
//!
//! # Guarantees
//!
//! - **No error type, no panics**: a failed command is a [`CommandResult`] with
//!   `success: false`; what follows a failure is the host's decision.
//! - **Ports are `async fn` traits with no `Send` bound**; fallible ports name an associated
//!   `Error`, synchronous TypeScript members stay synchronous and infallible.
//! - **Host actions and UI intents hold no functions**, so their JSON round trip is identity.
//! - **Closed literal sets are enums** with the exact wire literals; unknown literals, negative
//!   counts and zero where positive is required fail to decode.
//!
//! # Rules as pure functions
//!
//! - [`to_command_list_entry`]: `model_invocable` is `true` only for `Some(true)`; `runner`
//!   defaults to [`CommandRunner::Runtime`]; `subcommands` appears only when non-empty, each
//!   projected by [`to_subcommand_entry`].
//! - [`to_skill_list_entry`]: `model_invocable = disable_model_invocation != Some(true)`,
//!   `user_invocable = user_invocable != Some(false)`.
//! - [`model_may_run`]: once any subcommand of a model-invocable command declares
//!   `model_invocable` ([`narrows_subcommands`]), the model may run only the bare command and the
//!   subcommands flagged `Some(true)`.
//!
//! # Example
//!
//! ```
//! use agent_interface::command::{Command, CommandRunner, model_may_run, to_command_list_entry};
//!
//! let status = Command::new("status", "Show the working tree", "builtin");
//! let push = Command::new("push", "Update the remote", "builtin");
//! let git = Command::new("git", "Run git", "builtin")
//!     .with_model_invocable(true)
//!     .with_subcommands(vec![status.with_model_invocable(true), push]);
//! assert!(model_may_run(&git, "status --short") && model_may_run(&git, ""));
//! assert!(!model_may_run(&git, "push origin"));
//! let entry = to_command_list_entry(&git);
//! assert_eq!((entry.model_invocable, entry.runner), (true, CommandRunner::Runtime));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/command.md`.

mod capability;
mod definition;
mod frontmatter;
mod host_action;
mod invocation;
mod listing;
mod plugin;
mod result;
mod settings;
mod skill;
mod theme;
mod ui_intent;

pub use capability::{CapabilityDescriptor, CapabilityKind, CapabilitySafety};
pub use definition::{Command, CommandExecutor, CommandSource};
pub use frontmatter::{
    DecodedAgentFrontmatter, DecodedFrontmatter, DecodedSkillFrontmatter, FrontmatterContext,
    FrontmatterDecodeOptions, FrontmatterDecodeResult, FrontmatterDiagnostic,
    FrontmatterDiagnosticCode, FrontmatterKind,
};
pub use host_action::{CommandHostAction, CommandHostActionKind};
pub use invocation::{
    CommandInvocationSource, CommandRunner, CommandSurface, CommandSurfaceLocality,
};
pub use listing::{
    CommandListEntry, CommandSkillListEntry, CommandSubcommandEntry, first_argument, model_may_run,
    narrows_subcommands, to_command_list_entry, to_skill_list_entry, to_subcommand_entry,
};
pub use plugin::{
    CommandAvailablePlugin, CommandInstalledPlugin, CommandMarketplaceSource, CommandPluginAdapter,
    CommandPluginReloadResult, PluginInstallScope,
};
pub use result::{CommandResult, CommandResultDataValue};
pub use settings::{
    AppearanceSettings, AppearanceSettingsPatch, StatusLineCommandSettings,
    StatusLineCommandSettingsPatch,
};
pub use skill::{
    SkillContentActivation, SkillExecutionPort, SkillResolutionResult, SkillResolveOptions,
    SkillResource, SkillResourceEntry,
};
pub use theme::{
    ReducedMotionOverride, ReducedMotionPin, ThemeAppearance, ThemeAppearanceState,
    ThemeCatalogueEntry, ThemeCataloguePort, ThemeSource,
};
pub use ui_intent::CommandUiIntent;

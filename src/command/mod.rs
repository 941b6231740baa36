//! The command contract family (layer 0; names only `agent_core`): what a command is, what it
//! returns, how it is listed and invoked, who runs it, the plugin and theme surfaces a command
//! host exposes, the capability descriptors a command declares, and the host's authority over
//! lazily admitted skill content.
//!
//! The family declares what a command *is*; it decides nothing about what any command *does*.
//! It has no error type: a failed command is a [`CommandResult`] with `success: false`, and what
//! follows a failure is the host's decision.
//!
//! # Rust shape
//!
//! * [`Command`] is plain data. The TypeScript `ICommand` has an optional `execute` function;
//!   here running a command is the [`CommandExecutor`] port, whose `execute` returns a
//!   [`CommandResult`] for every outcome, so a failure is reported through the result and never
//!   thrown or panicked.
//! * Ports are traits: [`CommandSource`], [`CommandExecutor`], [`SkillExecutionPort`],
//!   [`SkillContentActivation`], [`ThemeCataloguePort`] and [`CommandPluginAdapter`]. Methods
//!   that return a Promise in TypeScript are `async fn`, with no `Send` bound forced (wasm and
//!   embedded hosts are single-threaded). Fallible ports name an associated `Error` bounded by
//!   [`core::error::Error`]; the synchronous TypeScript members stay synchronous and infallible.
//! * Unions tagged on a field are enums: [`CommandHostAction`] and [`CommandUiIntent`] on
//!   `type`, [`DecodedFrontmatter`] on `kind`, [`FrontmatterDecodeResult`] on `status`. Host
//!   actions and intents hold no functions, so their JSON round trip is identity.
//!   [`CommandHostAction::kind`] gives the payload-free [`CommandHostActionKind`] (12 kinds).
//! * Every closed literal set is an enum with the exact wire literals and no catch-all variant.
//! * [`CommandListEntry::model_invocable`] and [`CommandListEntry::runner`] are required: an
//!   entry without them fails to decode. [`CommandSubcommandEntry`] holds exactly name,
//!   description, display name and argument hint; any other key (a `source`) is not carried.
//! * The settings patches ([`StatusLineCommandSettingsPatch`], [`AppearanceSettingsPatch`]) hold
//!   the known fields as options and every other key in a flattened `extra` map; a known key
//!   with the wrong value type fails to decode.
//! * [`ThemeAppearanceState::reduced_motion_pin`] is one optional [`ReducedMotionPin`] holding
//!   both the tier and the value it pins.
//! * Counts and positions are unsigned: [`CommandPluginReloadResult::loaded_plugin_count`] is a
//!   `u32`, [`FrontmatterDiagnostic::line`] a 1-based `NonZeroU32`,
//!   [`DecodedAgentFrontmatter::max_turns`] a positive `NonZeroU64`; a negative (or zero, where
//!   positive) number fails to decode.
//! * `TCommandResultDataValue` is [`CommandResultDataValue`], an alias of
//!   [`Value`](crate::agent_core::Value): every alternative of the TypeScript union is a JSON
//!   value. [`CommandResult::data`] is a [`ValueMap`](crate::agent_core::ValueMap).
//!
//! # Rules as pure functions
//!
//! * [`to_command_list_entry`]: `model_invocable` is `true` only for `Some(true)`; `runner`
//!   defaults to [`CommandRunner::Runtime`]; `subcommands` appears only when non-empty, each
//!   projected by [`to_subcommand_entry`].
//! * [`to_skill_list_entry`]: `model_invocable = disable_model_invocation != Some(true)`,
//!   `user_invocable = user_invocable != Some(false)`.
//! * [`model_may_run`]: once any subcommand of a model-invocable command declares
//!   `model_invocable` ([`narrows_subcommands`]), the model may run only the bare command and the
//!   subcommands flagged `Some(true)`.
//!
//! # Decisions where the catalog is silent or the shape was not recovered
//!
//! * [`CommandSurface`]: only `'terminal'` is attested. This crate adds `'web'` (the other
//!   rendering surface the contract's owners name) and marks the enum `#[non_exhaustive]`, so
//!   confirming more members is not a breaking change; unknown literals still fail to decode.
//! * [`CommandSurfaceLocality`] is `'local' | 'remote'`.
//! * Lazy skill activation: `ISkillContentActivation` is the [`SkillContentActivation`] port
//!   (validate against current consent and source, list a manifest of [`SkillResourceEntry`]
//!   holding only a `uri`, read one listed resource, close); `ISkillResource` is
//!   [`SkillResource`], `{uri, bytes}`. Only the members a consumer of the contract is seen to
//!   use were modelled; no other field was invented. Cancellation is dropping the future.
//! * The inline literal unions of `IThemeCatalogueEntry` are named [`ThemeAppearance`]
//!   (`'dark' | 'light'`) and [`ThemeSource`] (`'built-in' | 'user' | 'plugin'`); the inline pin
//!   record is [`ReducedMotionPin`]; the `opts` of `resolveSkill` is [`SkillResolveOptions`].
//! * Open labels stay strings: [`Command::source`], [`Command::context`],
//!   [`SkillResolutionResult::mode`] and [`CommandMarketplaceSource::kind`] (wire `type`).
//! * `IDecodedSkillFrontmatter` and `IDecodedAgentFrontmatter` carry their `kind` through
//!   [`DecodedFrontmatter`], the way agent-core's messages carry their `role`.
//! * Subcommand narrowing reads the first whitespace-separated word of the arguments
//!   ([`first_argument`]) and matches subcommand names exactly (case-sensitive); blank arguments
//!   are the bare command.
//! * Small accessors added for convenience: [`Command::effective_runner`],
//!   [`Command::subcommand`], [`Command::model_facing_description`],
//!   [`CommandResult::success`]/[`CommandResult::failure`], the patches' `apply_to`,
//!   [`ThemeAppearanceState::effective_reduced_motion`] (the pinned value wins),
//!   [`SkillResolutionResult::inject_prompt`], [`FrontmatterDecodeResult::value`].
//! * The frontmatter vocabulary is part of the family here, although its export from the
//!   TypeScript entry was not confirmed.

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

//! The command contract family (feature `command`, layer 0; names only `agent_core`): what a
//! command is, what it returns, how it is listed and invoked, who runs it, the plugin and theme
//! surfaces a command host exposes, the capability descriptors a command declares, and the
//! host's authority over lazily admitted skill content.
//!
//! It mirrors the TypeScript command contracts. A host lists its
//! [`Command`](definition::Command)s, projects them for a picker or a model
//! ([`to_command_list_entry`](listing::to_command_list_entry),
//! [`to_skill_list_entry`](listing::to_skill_list_entry)) and runs them through its
//! [`CommandExecutor`](definition::CommandExecutor). The family declares what a command *is* and
//! decides nothing about what any command *does*. One public submodule per area:
//!
//! | module | what it holds |
//! |---|---|
//! | [`definition`] | the command, its source and executor ports, invocation and surfaces, the result with its host actions and UI intents |
//! | [`listing`] | list entries for pickers, autocomplete and the wire, their projections, which invocations the model may make |
//! | [`frontmatter`] | the vocabulary of decoding a skill's or an agent's frontmatter |
//! | [`skills`] | resolving a skill command, and the host's authority over lazily admitted skill content |
//! | [`plugins`] | the plugin surface a command host exposes and the records it trades |
//! | [`appearance`] | status-line and appearance settings with their patches, the theme catalogue |
//! | [`capabilities`] | the capability descriptors told to the model and the user |
//!
//! # Guarantees
//!
//! - **No error type, no panics**: a failed command is a
//!   [`CommandResult`](definition::CommandResult) with `success: false`; what follows a failure
//!   is the host's decision.
//! - **Ports are `async fn` traits with no `Send` bound**; fallible ports name an associated
//!   `Error`, synchronous TypeScript members stay synchronous and infallible.
//! - **Host actions and UI intents hold no functions**, so their JSON round trip is identity.
//! - **Closed literal sets are enums** with the exact wire literals; unknown literals, negative
//!   counts and zero where positive is required fail to decode.
//!
//! # Rules as pure functions
//!
//! In [`listing`]:
//!
//! - [`to_command_list_entry`](listing::to_command_list_entry): `model_invocable` is `true` only
//!   for `Some(true)`; `runner` defaults to
//!   [`CommandRunner::Runtime`](definition::CommandRunner::Runtime); `subcommands` appears only
//!   when non-empty, each projected by [`to_subcommand_entry`](listing::to_subcommand_entry).
//! - [`to_skill_list_entry`](listing::to_skill_list_entry):
//!   `model_invocable = disable_model_invocation != Some(true)`,
//!   `user_invocable = user_invocable != Some(false)`.
//! - [`model_may_run`](listing::model_may_run): once any subcommand of a model-invocable command
//!   declares `model_invocable` ([`narrows_subcommands`](listing::narrows_subcommands)), the
//!   model may run only the bare command and the subcommands flagged `Some(true)`.
//!
//! # Example
//!
//! ```
//! use agent_interface::command::definition::{Command, CommandRunner};
//! use agent_interface::command::listing::{model_may_run, to_command_list_entry};
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

pub mod appearance;
pub mod capabilities;
pub mod definition;
pub mod frontmatter;
pub mod listing;
pub mod plugins;
pub mod skills;

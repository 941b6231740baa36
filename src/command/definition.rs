//! What a command is (`ICommand`), where commands come from (`ICommandSource`) and how one is run
//! (the `execute` member of `ICommand`, here the [`CommandExecutor`] port).

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::ModelEffort;

use super::capability::CapabilitySafety;
use super::invocation::{CommandRunner, CommandSurface};
use super::result::CommandResult;

/// A command as its source declares it (`ICommand`): plain data, with no behaviour attached.
///
/// The TypeScript record carries an optional `execute` function. Here the record stays
/// serializable and comparable, and running a command is the job of a [`CommandExecutor`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Command {
    /// The invocation token, without the leading slash (`compact`, not `/compact`).
    pub name: String,
    /// A friendlier label for menus; hosts fall back to [`name`](Self::name).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub display_name: Option<String>,
    /// What the command does, in one line, for people.
    pub description: String,
    /// A usage example shown in help output.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub example: Option<String>,
    /// Where the command comes from, as an open label (`"builtin"`, `"skill"`, `"plugin"`, …).
    pub source: String,
    /// The command's subcommands, each itself a command; the first argument selects one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub subcommands: Option<Vec<Command>>,
    /// True when choosing the bare command from a menu runs it, instead of opening its
    /// subcommands.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub runs_bare: Option<bool>,
    /// The full `SKILL.md` text, for skill commands.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub skill_content: Option<String>,
    /// How the arguments are written, shown as a hint (e.g. `<file>`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub argument_hint: Option<String>,
    /// `Some(true)` forbids the model to invoke this skill; absent or `false` allows it (the
    /// skill reading, see [`to_skill_list_entry`](super::to_skill_list_entry)).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub disable_model_invocation: Option<bool>,
    /// `Some(true)` lets the model invoke this command; absent means it may not (the command
    /// reading, see [`to_command_list_entry`](super::to_command_list_entry)). On a subcommand,
    /// declaring it at all narrows what the model may run (see
    /// [`model_may_run`](super::model_may_run)).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model_invocable: Option<bool>,
    /// What the model is told about the command; absent means it is told
    /// [`description`](Self::description).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model_description: Option<String>,
    /// `Some(false)` means users cannot invoke the command; absent or `true` means they can.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub user_invocable: Option<bool>,
    /// The strongest effect the command can have, when declared.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub safety: Option<CapabilitySafety>,
    /// The tools a skill may use while it runs.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub allowed_tools: Option<Vec<String>>,
    /// The model a skill asks for.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model: Option<String>,
    /// The reasoning effort a skill asks for.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub effort: Option<ModelEffort>,
    /// Where a skill runs or where it was found, as an open label (e.g. `"project"`, `"fork"`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub context: Option<String>,
    /// The agent a skill runs as.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub agent: Option<String>,
    /// The directory of the plugin that contributed the command.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub plugin_dir: Option<String>,
    /// Who runs the command; absent means the runtime
    /// ([`effective_runner`](Self::effective_runner)).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub runner: Option<CommandRunner>,
    /// The client surfaces a `client`-run command runs on.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub surfaces: Option<Vec<CommandSurface>>,
}

impl Command {
    /// Who runs the command: [`runner`](Self::runner), or [`CommandRunner::Runtime`] when the
    /// command declares none.
    #[must_use]
    pub fn effective_runner(&self) -> CommandRunner {
        self.runner.unwrap_or(CommandRunner::Runtime)
    }

    /// The subcommands, or an empty slice when there are none.
    #[must_use]
    pub fn subcommands(&self) -> &[Command] {
        self.subcommands.as_deref().unwrap_or(&[])
    }

    /// The subcommand with exactly this name (case-sensitive), if any.
    #[must_use]
    pub fn subcommand(&self, name: &str) -> Option<&Command> {
        self.subcommands().iter().find(|sub| sub.name == name)
    }

    /// What the model is told about the command: [`model_description`](Self::model_description),
    /// or [`description`](Self::description) when absent.
    #[must_use]
    pub fn model_facing_description(&self) -> &str {
        self.model_description
            .as_deref()
            .unwrap_or(&self.description)
    }
}

/// A named provider of commands (`ICommandSource`): built-ins, skills found on disk, a plugin.
pub trait CommandSource {
    /// The source's name, for diagnostics and precedence.
    fn name(&self) -> &str;

    /// Every command the source provides now (`getCommands()`).
    fn get_commands(&self) -> Vec<Command>;
}

/// Runs commands: the `execute` member of `ICommand`, as a port.
///
/// Every outcome, failure included, comes back as a [`CommandResult`]: a command that cannot run
/// reports `success: false` with a message (see [`CommandResult::failure`]); it never panics and
/// has no error type. What follows a failure is the host's decision.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait CommandExecutor {
    /// Runs `command` with `args`: everything the user typed after the command name.
    async fn execute(&mut self, command: &Command, args: &str) -> CommandResult;
}

//! What a command is (`ICommand`), where commands come from (`ICommandSource`) and how one is run
//! (the `execute` member of `ICommand`, here the [`CommandExecutor`] port).

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::ModelEffort;

use super::invocation::{CommandRunner, CommandSurface};
use super::result::CommandResult;
use crate::command::capabilities::CapabilitySafety;

/// A command as its source declares it (`ICommand`): plain data, with no behaviour attached.
///
/// The TypeScript record carries an optional `execute` function. Here the record stays
/// serializable and comparable, and running a command is the job of a [`CommandExecutor`].
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
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
    /// skill reading, see [`to_skill_list_entry`](crate::command::listing::to_skill_list_entry)).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub disable_model_invocation: Option<bool>,
    /// `Some(true)` lets the model invoke this command; absent means it may not (the command
    /// reading, see [`to_command_list_entry`](crate::command::listing::to_command_list_entry)). On a subcommand,
    /// declaring it at all narrows what the model may run (see
    /// [`model_may_run`](crate::command::listing::model_may_run)).
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
    /// A command with its invocation token (no leading slash), one-line description and source
    /// label, and no optional member set.
    #[must_use]
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        source: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            source: source.into(),
            ..Self::default()
        }
    }

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

optional_setters!(Command {
    /// The same command with a friendlier label for menus.
    with_display_name => display_name: impl Into<String>,
    /// The same command with a usage example for help output.
    with_example => example: impl Into<String>,
    /// The same command with these subcommands.
    with_subcommands => subcommands: Vec<Command>,
    /// The same command, saying whether choosing it bare from a menu runs it.
    with_runs_bare => runs_bare: bool,
    /// The same command with the full `SKILL.md` text.
    with_skill_content => skill_content: impl Into<String>,
    /// The same command with a hint of how its arguments are written.
    with_argument_hint => argument_hint: impl Into<String>,
    /// The same command with the skill flag that keeps the model from invoking it.
    with_disable_model_invocation => disable_model_invocation: bool,
    /// The same command, saying whether the model may run it.
    with_model_invocable => model_invocable: bool,
    /// The same command with the description the model reads.
    with_model_description => model_description: impl Into<String>,
    /// The same command, saying whether the user may invoke it.
    with_user_invocable => user_invocable: bool,
    /// The same command with the strongest effect it declares.
    with_safety => safety: CapabilitySafety,
    /// The same command with the tools it may use.
    with_allowed_tools => allowed_tools: Vec<String>,
    /// The same command with the model it runs on.
    with_model => model: impl Into<String>,
    /// The same command with the effort it runs at.
    with_effort => effort: ModelEffort,
    /// The same command with the context it runs in.
    with_context => context: impl Into<String>,
    /// The same command with the agent that runs it.
    with_agent => agent: impl Into<String>,
    /// The same command with the directory of the plugin that ships it.
    with_plugin_dir => plugin_dir: impl Into<String>,
    /// The same command with the side that runs it.
    with_runner => runner: CommandRunner,
    /// The same command with the surfaces it is offered on.
    with_surfaces => surfaces: Vec<CommandSurface>,
});

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

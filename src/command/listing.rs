//! How commands and skills are listed to host UIs, autocomplete and the wire
//! (`ICommandListEntry`, `ICommandSubcommandEntry`, `ICommandSkillListEntry`), the projections
//! that build those entries, and which invocations the model may make.
//!
//! The projections are pure and total (the rules are spelled out in the [family
//! docs](crate::command#rules-as-pure-functions)); an entry carries only its contract's keys, and
//! any other key of the JSON is dropped, never written back.

use alloc::string::String;
use alloc::vec::Vec;

use super::definition::{Command, CommandRunner, CommandSurface};

/// A subcommand as a listing shows it (`ICommandSubcommandEntry`): exactly a name, a
/// description, and optionally a display name and an argument hint.
///
/// Nothing else of the subcommand is carried: a `source` or any other key of the JSON is not
/// kept, and is not written back.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandSubcommandEntry {
    /// The subcommand's name: the first argument that selects it.
    pub name: String,
    /// What the subcommand does.
    pub description: String,
    /// A friendlier label for menus.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub display_name: Option<String>,
    /// How the subcommand's arguments are written.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub argument_hint: Option<String>,
}

impl CommandSubcommandEntry {
    /// A subcommand entry with its name and description, and no display name or hint.
    #[must_use]
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            display_name: None,
            argument_hint: None,
        }
    }
}

optional_setters!(CommandSubcommandEntry {
    /// The same entry with a friendlier label for menus.
    with_display_name => display_name: impl Into<String>,
    /// The same entry with an argument hint.
    with_argument_hint => argument_hint: impl Into<String>,
});

/// The minimal projection of a command shown to host UIs, autocomplete and the wire
/// (`ICommandListEntry`).
///
/// `model_invocable` and `runner` are required, so "not invocable" and "not stated" cannot be
/// confused, and an entry without them fails to decode.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandListEntry {
    /// The command's name.
    pub name: String,
    /// A friendlier label; hosts fall back to [`name`](Self::name).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub display_name: Option<String>,
    /// What the command does.
    pub description: String,
    /// A usage example shown in help output.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub example: Option<String>,
    /// True when the model may invoke the command.
    pub model_invocable: bool,
    /// Who runs the command.
    pub runner: CommandRunner,
    /// The client surfaces a `client`-run command runs on.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub surfaces: Option<Vec<CommandSurface>>,
    /// How the arguments are written.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub argument_hint: Option<String>,
    /// The subcommands, for completion; [`to_command_list_entry`] never writes an empty list.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub subcommands: Option<Vec<CommandSubcommandEntry>>,
}

impl CommandListEntry {
    /// A listing entry with the required members, in the contract's order, and no optional member set.
    #[must_use]
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        model_invocable: bool,
        runner: CommandRunner,
    ) -> Self {
        Self {
            name: name.into(),
            display_name: None,
            description: description.into(),
            example: None,
            model_invocable,
            runner,
            surfaces: None,
            argument_hint: None,
            subcommands: None,
        }
    }
}

optional_setters!(CommandListEntry {
    /// The same entry with a friendlier label.
    with_display_name => display_name: impl Into<String>,
    /// The same entry with a usage example.
    with_example => example: impl Into<String>,
    /// The same entry with the client surfaces it runs on.
    with_surfaces => surfaces: Vec<CommandSurface>,
    /// The same entry with an argument hint.
    with_argument_hint => argument_hint: impl Into<String>,
    /// The same entry with its subcommands, for completion.
    with_subcommands => subcommands: Vec<CommandSubcommandEntry>,
});

/// A skill as a listing shows it (`ICommandSkillListEntry`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandSkillListEntry {
    /// The skill's name.
    pub name: String,
    /// What the skill does.
    pub description: String,
    /// Where the skill comes from, as an open label.
    pub source: String,
    /// True when the model may invoke the skill.
    pub model_invocable: bool,
    /// True when a user may invoke the skill.
    pub user_invocable: bool,
    /// How the skill's arguments are written.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub argument_hint: Option<String>,
    /// Where the skill runs, as an open label (e.g. `"fork"`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub context: Option<String>,
    /// The agent the skill runs as.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub agent: Option<String>,
}

impl CommandSkillListEntry {
    /// A skill entry with the required members, in the contract's order, and no optional member set.
    #[must_use]
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        source: impl Into<String>,
        model_invocable: bool,
        user_invocable: bool,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            source: source.into(),
            model_invocable,
            user_invocable,
            argument_hint: None,
            context: None,
            agent: None,
        }
    }
}

optional_setters!(CommandSkillListEntry {
    /// The same entry with an argument hint.
    with_argument_hint => argument_hint: impl Into<String>,
    /// The same entry with where the skill runs (an open label).
    with_context => context: impl Into<String>,
    /// The same entry with the agent the skill runs as.
    with_agent => agent: impl Into<String>,
});

/// Projects a command to its listing entry (`toCommandListEntry`).
///
/// * `model_invocable` is true only when the command says `Some(true)`: absent means the model
///   may not invoke it.
/// * `runner` is the command's, or [`CommandRunner::Runtime`] when it declares none.
/// * `subcommands` is present only when the command has at least one, each projected with
///   [`to_subcommand_entry`].
/// * Everything else the entry has is copied; nothing else of the command is carried.
#[must_use]
pub fn to_command_list_entry(command: &Command) -> CommandListEntry {
    let subcommands = command.subcommands();
    CommandListEntry {
        name: command.name.clone(),
        display_name: command.display_name.clone(),
        description: command.description.clone(),
        example: command.example.clone(),
        model_invocable: command.model_invocable == Some(true),
        runner: command.effective_runner(),
        surfaces: command.surfaces.clone(),
        argument_hint: command.argument_hint.clone(),
        subcommands: if subcommands.is_empty() {
            None
        } else {
            Some(subcommands.iter().map(to_subcommand_entry).collect())
        },
    }
}

/// Projects a subcommand to its listing entry: name, description, display name and argument
/// hint, and nothing else.
#[must_use]
pub fn to_subcommand_entry(subcommand: &Command) -> CommandSubcommandEntry {
    CommandSubcommandEntry {
        name: subcommand.name.clone(),
        description: subcommand.description.clone(),
        display_name: subcommand.display_name.clone(),
        argument_hint: subcommand.argument_hint.clone(),
    }
}

/// Projects a skill command to its listing entry (`toSkillListEntry`).
///
/// * `model_invocable` is true unless the skill says `disable_model_invocation: Some(true)`.
/// * `user_invocable` is true unless the skill says `user_invocable: Some(false)`.
#[must_use]
pub fn to_skill_list_entry(skill: &Command) -> CommandSkillListEntry {
    CommandSkillListEntry {
        name: skill.name.clone(),
        description: skill.description.clone(),
        source: skill.source.clone(),
        model_invocable: skill.disable_model_invocation != Some(true),
        user_invocable: skill.user_invocable != Some(false),
        argument_hint: skill.argument_hint.clone(),
        context: skill.context.clone(),
        agent: skill.agent.clone(),
    }
}

/// True when some subcommand of `command` declares `model_invocable` (either way), which
/// narrows what the model may run to the bare command and the subcommands flagged true.
#[must_use]
pub fn narrows_subcommands(command: &Command) -> bool {
    command
        .subcommands()
        .iter()
        .any(|sub| sub.model_invocable.is_some())
}

/// The first whitespace-separated word of `args`, or `None` when `args` is blank.
#[must_use]
pub fn first_argument(args: &str) -> Option<&str> {
    args.split_whitespace().next()
}

/// May the model run `command` with `args` (everything after the command name)?
///
/// * A command that is not model-invocable (`model_invocable != Some(true)`) is refused
///   whatever the arguments.
/// * When no subcommand declares `model_invocable`, any arguments are allowed.
/// * Otherwise ([`narrows_subcommands`]) only the bare command (blank `args`) and a first
///   argument naming, exactly and case-sensitively, a subcommand flagged `Some(true)` are
///   allowed; every other first argument (an alias, a subcommand flagged false or not flagged,
///   an unknown word) is refused.
#[must_use]
pub fn model_may_run(command: &Command, args: &str) -> bool {
    if command.model_invocable != Some(true) {
        return false;
    }
    if !narrows_subcommands(command) {
        return true;
    }
    match first_argument(args) {
        None => true,
        Some(first) => command
            .subcommand(first)
            .is_some_and(|sub| sub.model_invocable == Some(true)),
    }
}

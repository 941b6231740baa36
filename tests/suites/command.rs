//! Cases of the `command` family: golden round trips of every record and union variant, the
//! original package's assertions, the listing projections and subcommand narrowing, the ports
//! driven by small in-test implementations, and refused JSON. Uses only `core`, `alloc`,
//! serde_json and the crate, so it also runs on the firmware and wasm.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use agent_interface::agent_core::*;
use agent_interface::command::{
    appearance::*, capabilities::*, definition::*, frontmatter::*, listing::*, plugins::*,
    skills::*,
};

use crate::support::{block_on, decode, s};
use crate::support::{golden, json_eq, rejects, to_json};

fn command(name: &str) -> Command {
    Command::new(name, alloc::format!("the {name} command"), "builtin")
}

fn flagged(name: &str, flag: Option<bool>) -> Command {
    let mut command = command(name);
    command.model_invocable = flag;
    command
}

/// A model-invocable `memory` command with subcommands `show` (true), `edit` (false) and
/// `sync` (not flagged).
fn narrowed_memory() -> Command {
    command("memory")
        .with_model_invocable(true)
        .with_subcommands(vec![
            flagged("show", Some(true)),
            flagged("edit", Some(false)),
            flagged("sync", None),
        ])
}

fn host_action(name: &str, text: &str) -> CommandHostAction {
    let action: CommandHostAction = golden(name, text);
    let expected: Value = serde_json::from_str(text).expect("golden file is JSON");
    assert_eq!(
        expected.get("type").and_then(Value::as_str),
        Some(action.kind().as_str()),
        "golden {name}: kind() disagrees with the wire type"
    );
    action
}

fn ui_intent(name: &str, text: &str) -> CommandUiIntent {
    let intent: CommandUiIntent = golden(name, text);
    let expected: Value = serde_json::from_str(text).expect("golden file is JSON");
    assert_eq!(
        expected.get("type").and_then(Value::as_str),
        Some(intent.as_str())
    );
    intent
}

/// Asserts that `value` is an object whose keys are exactly `expected` (in any order).
fn assert_keys(value: &Value, expected: &[&str]) {
    let object = value.as_object().expect("an object");
    assert!(
        object.len() == expected.len() && expected.iter().all(|key| object.contains_key(*key)),
        "keys of {value} are not exactly {expected:?}"
    );
}

/// Every host-action golden file, for the checks that run over the whole set.
const HOST_ACTION_GOLDENS: &[(&str, &str)] = &[
    (
        "host_action_provider_hot_swap",
        include_str!("../golden/command/host_action_provider_hot_swap.json"),
    ),
    (
        "host_action_output_style_change",
        include_str!("../golden/command/host_action_output_style_change.json"),
    ),
    (
        "host_action_language_change",
        include_str!("../golden/command/host_action_language_change.json"),
    ),
    (
        "host_action_settings_reset",
        include_str!("../golden/command/host_action_settings_reset.json"),
    ),
    (
        "host_action_session_exit",
        include_str!("../golden/command/host_action_session_exit.json"),
    ),
    (
        "host_action_session_exit_bare",
        include_str!("../golden/command/host_action_session_exit_bare.json"),
    ),
    (
        "host_action_session_restart",
        include_str!("../golden/command/host_action_session_restart.json"),
    ),
    (
        "host_action_session_rename",
        include_str!("../golden/command/host_action_session_rename.json"),
    ),
    (
        "host_action_workspace_move",
        include_str!("../golden/command/host_action_workspace_move.json"),
    ),
    (
        "host_action_statusline_settings_patch",
        include_str!("../golden/command/host_action_statusline_settings_patch.json"),
    ),
    (
        "host_action_appearance_settings_patch",
        include_str!("../golden/command/host_action_appearance_settings_patch.json"),
    ),
    (
        "host_action_remote_control_enable",
        include_str!("../golden/command/host_action_remote_control_enable.json"),
    ),
    (
        "host_action_remote_control_stop",
        include_str!("../golden/command/host_action_remote_control_stop.json"),
    ),
];

// ---- port doubles -------------------------------------------------------------------------

/// The error every fallible double reports.
#[derive(Debug, PartialEq, Eq)]
struct Refused(&'static str);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl core::error::Error for Refused {}

struct Builtins;

impl CommandSource for Builtins {
    fn name(&self) -> &str {
        "builtin"
    }

    fn get_commands(&self) -> Vec<Command> {
        vec![command("help"), narrowed_memory()]
    }
}

/// Runs `help`; reports every other command as a failed result; counts its runs.
struct HelpOnly {
    runs: u32,
}

impl CommandExecutor for HelpOnly {
    async fn execute(&mut self, command: &Command, args: &str) -> CommandResult {
        self.runs += 1;
        if command.name == "help" {
            CommandResult::success(alloc::format!("help {args}"))
        } else {
            CommandResult::failure(alloc::format!("cannot run {}", command.name))
        }
    }
}

struct Skills;

impl SkillExecutionPort for Skills {
    type Error = Refused;

    fn load_commands(&self) -> Vec<Command> {
        vec![
            Command::new("summarize", "the summarize command", "skill")
                .with_skill_content("Summarize $ARGUMENTS."),
        ]
    }

    async fn resolve_skill(
        &self,
        skill: &Command,
        args: &str,
        options: &SkillResolveOptions,
    ) -> Result<SkillResolutionResult, Refused> {
        if options.session_id.is_none() {
            return Err(Refused("no session"));
        }
        let content = skill
            .skill_content
            .as_deref()
            .ok_or(Refused("not a skill"))?;
        Ok(SkillResolutionResult::new(SkillResolutionResult::INJECT)
            .with_prompt(content.replace("$ARGUMENTS", args)))
    }
}

struct Themes;

impl ThemeCataloguePort for Themes {
    fn list_themes(&self) -> Vec<ThemeCatalogueEntry> {
        vec![
            ThemeCatalogueEntry::new("dark", "Dark", ThemeAppearance::Dark, ThemeSource::BuiltIn),
            ThemeCatalogueEntry::new("mine", "Mine", ThemeAppearance::Light, ThemeSource::User),
        ]
    }

    fn get_theme(&self, id: &str) -> Option<ThemeCatalogueEntry> {
        self.list_themes().into_iter().find(|theme| theme.id == id)
    }

    fn get_appearance(&self) -> ThemeAppearanceState {
        ThemeAppearanceState::new(AppearanceSettings::new("dark", true, false))
            .with_reduced_motion_pin(ReducedMotionPin {
                tier: ReducedMotionOverride::Flag,
                reduced_motion: true,
            })
    }
}

/// A read-only plugin adapter: one marketplace (`community`) and a fixed list of installed plugins.
struct Plugins {
    installed: Vec<CommandInstalledPlugin>,
}

impl CommandPluginAdapter for Plugins {
    type Error = Refused;

    async fn list_installed(&self) -> Result<Vec<CommandInstalledPlugin>, Refused> {
        Ok(self.installed.clone())
    }

    async fn list_available_plugins(
        &self,
        marketplace: &str,
    ) -> Result<Vec<CommandAvailablePlugin>, Refused> {
        if marketplace != "community" {
            return Err(Refused("unknown marketplace"));
        }
        Ok(vec![CommandAvailablePlugin::new(
            "lint-helper",
            "Run linters",
            false,
        )])
    }

    async fn install(
        &self,
        _plugin_id: &str,
        scope: Option<PluginInstallScope>,
    ) -> Result<(), Refused> {
        match scope {
            Some(PluginInstallScope::Project) => Err(Refused("project scope is read-only")),
            _ => Ok(()),
        }
    }

    async fn uninstall(&self, plugin_id: &str) -> Result<(), Refused> {
        self.known(plugin_id)
    }

    async fn enable(&self, plugin_id: &str) -> Result<(), Refused> {
        self.known(plugin_id)
    }

    async fn disable(&self, plugin_id: &str) -> Result<(), Refused> {
        self.known(plugin_id)
    }

    async fn marketplace_add(&self, source: &str) -> Result<String, Refused> {
        source
            .rsplit('/')
            .next()
            .filter(|name| !name.is_empty())
            .map(String::from)
            .ok_or(Refused("empty source"))
    }

    async fn marketplace_remove(&self, name: &str) -> Result<(), Refused> {
        self.marketplace(name)
    }

    async fn marketplace_update(&self, name: &str) -> Result<(), Refused> {
        self.marketplace(name)
    }

    async fn marketplace_list(&self) -> Result<Vec<CommandMarketplaceSource>, Refused> {
        Ok(vec![CommandMarketplaceSource::new("community", "github")])
    }

    async fn reload_plugins(&self) -> Result<CommandPluginReloadResult, Refused> {
        let enabled = self
            .installed
            .iter()
            .filter(|plugin| plugin.enabled)
            .count();
        Ok(CommandPluginReloadResult::new(
            u32::try_from(enabled).map_err(|_| Refused("too many"))?,
        ))
    }
}

impl Plugins {
    fn known(&self, plugin_id: &str) -> Result<(), Refused> {
        if self.installed.iter().any(|plugin| plugin.name == plugin_id) {
            Ok(())
        } else {
            Err(Refused("not installed"))
        }
    }

    fn marketplace(&self, name: &str) -> Result<(), Refused> {
        if name == "community" {
            Ok(())
        } else {
            Err(Refused("unknown marketplace"))
        }
    }
}

/// An activation with a one-entry manifest whose consent can be withdrawn.
struct Activation {
    manifest: Vec<SkillResourceEntry>,
    consented: bool,
    closed: bool,
}

impl SkillContentActivation for Activation {
    type Error = Refused;

    async fn validate(&self) -> Result<(), Refused> {
        if self.consented && !self.closed {
            Ok(())
        } else {
            Err(Refused("consent withdrawn"))
        }
    }

    fn manifest(&self) -> &[SkillResourceEntry] {
        &self.manifest
    }

    async fn read(&self, uri: &str) -> Result<SkillResource, Refused> {
        if self.closed {
            return Err(Refused("closed"));
        }
        if !self.lists(uri) {
            return Err(Refused("outside the manifest"));
        }
        Ok(SkillResource::new(uri, b"# Outline\n".to_vec()))
    }

    fn close(&mut self) -> Result<(), Refused> {
        self.closed = true;
        Ok(())
    }
}

cases! {
    // Capability descriptors, commands, host actions, UI intents and results.
    mod actions {
        // ---- capability descriptors -----------------------------------------------------------

        fn capability_descriptor_round_trips() {
            let descriptor: CapabilityDescriptor = golden(
                "capability_descriptor",
                include_str!("../golden/command/capability_descriptor.json"),
            );
            assert_eq!(descriptor.name, "review");
            assert_eq!(descriptor.kind, CapabilityKind::Skill);
            assert_eq!(descriptor.description, "Review the staged changes");
            assert!(descriptor.user_invocable);
            assert!(descriptor.model_invocable);
            assert_eq!(descriptor.argument_hint.as_deref(), Some("[path]"));
            assert_eq!(descriptor.safety, Some(CapabilitySafety::ReadOnly));
            assert_eq!(descriptor.requires_permission, Some(false));
        }

        fn capability_descriptor_minimal_round_trips() {
            let descriptor: CapabilityDescriptor = golden(
                "capability_descriptor_minimal",
                include_str!("../golden/command/capability_descriptor_minimal.json"),
            );
            assert_eq!(descriptor.kind, CapabilityKind::Tool);
            assert!(!descriptor.user_invocable);
            assert_eq!(descriptor.argument_hint, None);
            assert_eq!(descriptor.safety, None);
            assert_eq!(descriptor.requires_permission, None);
            // The descriptor has a `kind` on the wire (the contract test pins it exported).
            assert_eq!(to_json(&descriptor).get("kind"), Some(&Value::from("tool")));
        }

        fn literal_sets_round_trip() {
            literal_round_trip!(CapabilityKind);
            literal_round_trip!(CapabilitySafety);
            literal_round_trip!(CommandInvocationSource);
            literal_round_trip!(CommandSurfaceLocality);
            literal_round_trip!(CommandRunner);
            literal_round_trip!(CommandSurface);
            literal_round_trip!(CommandHostActionKind);
            literal_round_trip!(ReducedMotionOverride);
            literal_round_trip!(ThemeAppearance);
            literal_round_trip!(ThemeSource);
            literal_round_trip!(PluginInstallScope);
            literal_round_trip!(FrontmatterKind);
            literal_round_trip!(FrontmatterContext);
            literal_round_trip!(FrontmatterDiagnosticCode);
        }

        fn literal_sets_hold_exactly_the_contract_literals() {
            assert_eq!(CapabilityKind::LITERALS, &["builtin-command", "skill", "agent", "tool"]);
            assert_eq!(
                CapabilitySafety::LITERALS,
                &["read-only", "write", "process", "network", "background-agent"]
            );
            assert_eq!(CommandInvocationSource::LITERALS, &["user", "model", "remote"]);
            assert_eq!(CommandSurfaceLocality::LITERALS, &["local", "remote"]);
            assert!(CommandSurface::LITERALS.contains(&"terminal"));
            assert_eq!(ReducedMotionOverride::LITERALS, &["flag", "environment", "screen-reader"]);
            assert_eq!(ThemeSource::LITERALS, &["built-in", "user", "plugin"]);
            assert_eq!(PluginInstallScope::LITERALS, &["user", "project"]);
            assert_eq!(FrontmatterContext::LITERALS, &["inject", "fork"]);
            assert_eq!(FrontmatterDiagnosticCode::LITERALS.len(), 15);
            assert_eq!(
                FrontmatterDiagnosticCode::from_literal("invalid-positive-integer"),
                Some(FrontmatterDiagnosticCode::InvalidPositiveInteger)
            );
        }

        // ---- commands -------------------------------------------------------------------------

        fn command_with_subcommands_round_trips() {
            let memory: Command = golden(
                "command_with_subcommands",
                include_str!("../golden/command/command_with_subcommands.json"),
            );
            assert_eq!(memory.name, "memory");
            assert_eq!(memory.display_name.as_deref(), Some("Memory"));
            assert_eq!(memory.example.as_deref(), Some("/memory show"));
            assert_eq!(memory.source, "builtin");
            assert_eq!(memory.runs_bare, Some(true));
            assert_eq!(memory.argument_hint.as_deref(), Some("<show|edit>"));
            assert_eq!(memory.model_invocable, Some(true));
            assert_eq!(memory.model_facing_description(), "Read or change the project's memory file");
            assert_eq!(memory.user_invocable, Some(true));
            assert_eq!(memory.safety, Some(CapabilitySafety::Write));
            assert_eq!(memory.runner, Some(CommandRunner::Client));
            assert_eq!(memory.effective_runner(), CommandRunner::Client);
            assert_eq!(
                memory.surfaces.as_deref(),
                Some(&[CommandSurface::Terminal, CommandSurface::Web][..])
            );
            let subs = memory.subcommands();
            assert_eq!(subs.len(), 2);
            assert_eq!(subs[0].name, "show");
            assert_eq!(subs[0].model_invocable, Some(true));
            assert_eq!(subs[1].display_name.as_deref(), Some("Edit memory"));
            assert_eq!(subs[1].model_invocable, Some(false));
            assert_eq!(memory.subcommand("edit").map(|sub| sub.name.as_str()), Some("edit"));
            assert_eq!(memory.subcommand("Edit"), None);
        }

        fn skill_command_round_trips() {
            let skill: Command =
                golden("command_skill", include_str!("../golden/command/command_skill.json"));
            assert_eq!(skill.source, "skill");
            assert!(skill.skill_content.as_deref().is_some_and(|text| text.starts_with("---\n")));
            assert_eq!(skill.disable_model_invocation, Some(true));
            assert_eq!(skill.user_invocable, Some(false));
            assert_eq!(skill.allowed_tools, Some(vec![s("read_file"), s("grep")]));
            assert_eq!(skill.model.as_deref(), Some("claude-sonnet"));
            assert_eq!(skill.effort, Some(ModelEffort::High));
            assert_eq!(skill.context.as_deref(), Some("fork"));
            assert_eq!(skill.agent.as_deref(), Some("reader"));
            assert_eq!(skill.plugin_dir.as_deref(), Some("/plugins/docs"));
            assert_eq!(skill.model_facing_description(), "Summarize a document");
        }

        fn minimal_command_leaves_runner_and_surfaces_optional() {
            let help: Command =
                golden("command_minimal", include_str!("../golden/command/command_minimal.json"));
            assert_eq!(help.name, "help");
            assert_eq!(help.runner, None);
            assert_eq!(help.surfaces, None);
            assert_eq!(help.subcommands, None);
            assert!(help.subcommands().is_empty());
            assert_eq!(help.effective_runner(), CommandRunner::Runtime);
            let json = to_json(&help);
            assert_keys(&json, &["description", "name", "source"]);
        }

        fn command_is_plain_data_without_an_execute_member() {
            let memory = narrowed_memory();
            let json = to_json(&memory);
            assert!(json.get("execute").is_none());
            let back: Command = decode(&json);
            assert_eq!(back, memory);
        }

        // ---- host actions ---------------------------------------------------------------------

        fn host_action_provider_hot_swap_round_trips() {
            let action = host_action(HOST_ACTION_GOLDENS[0].0, HOST_ACTION_GOLDENS[0].1);
            assert_eq!(
                action,
                CommandHostAction::ProviderHotSwap { profile_name: s("work-anthropic") }
            );
        }

        fn host_action_output_style_change_round_trips() {
            let action = host_action(HOST_ACTION_GOLDENS[1].0, HOST_ACTION_GOLDENS[1].1);
            assert_eq!(action, CommandHostAction::OutputStyleChange { style_id: s("explanatory") });
        }

        fn host_action_language_change_round_trips() {
            let action = host_action(HOST_ACTION_GOLDENS[2].0, HOST_ACTION_GOLDENS[2].1);
            assert_eq!(action, CommandHostAction::LanguageChange { language: s("ko") });
        }

        fn host_action_settings_reset_round_trips() {
            let action = host_action(HOST_ACTION_GOLDENS[3].0, HOST_ACTION_GOLDENS[3].1);
            assert_eq!(action, CommandHostAction::SettingsReset);
        }

        fn host_action_session_exit_round_trips_with_and_without_payload() {
            let action = host_action(HOST_ACTION_GOLDENS[4].0, HOST_ACTION_GOLDENS[4].1);
            assert_eq!(
                action,
                CommandHostAction::SessionExit {
                    reason: Some(SessionEndReason::PromptInputExit),
                    message: Some(s("Bye.")),
                }
            );
            let bare = host_action(HOST_ACTION_GOLDENS[5].0, HOST_ACTION_GOLDENS[5].1);
            assert_eq!(bare, CommandHostAction::SessionExit { reason: None, message: None });
        }

        fn host_action_session_restart_round_trips() {
            let action = host_action(HOST_ACTION_GOLDENS[6].0, HOST_ACTION_GOLDENS[6].1);
            assert_eq!(
                action,
                CommandHostAction::SessionRestart {
                    reason: SessionEndReason::Clear,
                    message: s("Conversation cleared."),
                }
            );
        }

        fn host_action_session_rename_round_trips() {
            let action = host_action(HOST_ACTION_GOLDENS[7].0, HOST_ACTION_GOLDENS[7].1);
            assert_eq!(action, CommandHostAction::SessionRename { name: s("refactor parser") });
        }

        fn host_action_workspace_move_keeps_the_typed_path() {
            let action = host_action(HOST_ACTION_GOLDENS[8].0, HOST_ACTION_GOLDENS[8].1);
            assert_eq!(action, CommandHostAction::WorkspaceMove { path: s("~/src/../src/app") });
        }

        fn host_action_statusline_patch_keeps_extra_keys() {
            let action = host_action(HOST_ACTION_GOLDENS[9].0, HOST_ACTION_GOLDENS[9].1);
            let CommandHostAction::StatuslineSettingsPatch { patch } = &action else {
                panic!("expected a status-line patch, got {action:?}");
            };
            assert_eq!(patch.enabled, None);
            assert_eq!(patch.git_branch, Some(false));
            assert_eq!(patch.extra.get("showCost"), Some(&Value::Bool(true)));
            assert_eq!(patch.extra.len(), 1);
        }

        fn host_action_appearance_patch_round_trips() {
            let action = host_action(HOST_ACTION_GOLDENS[10].0, HOST_ACTION_GOLDENS[10].1);
            let CommandHostAction::AppearanceSettingsPatch { patch } = &action else {
                panic!("expected an appearance patch, got {action:?}");
            };
            assert_eq!(patch.theme.as_deref(), Some("solarized-light"));
            assert_eq!(patch.reduced_motion, Some(true));
            assert_eq!(patch.syntax_highlighting, None);
            assert!(patch.extra.is_empty());
        }

        fn host_action_remote_control_round_trips() {
            let enable = host_action(HOST_ACTION_GOLDENS[11].0, HOST_ACTION_GOLDENS[11].1);
            assert_eq!(enable, CommandHostAction::RemoteControlEnable);
            let stop = host_action(HOST_ACTION_GOLDENS[12].0, HOST_ACTION_GOLDENS[12].1);
            assert_eq!(stop, CommandHostAction::RemoteControlStop);
        }

        fn host_action_json_round_trip_is_identity() {
            for (name, text) in HOST_ACTION_GOLDENS {
                let input: Value = serde_json::from_str(text).expect("golden file is JSON");
                let action: CommandHostAction = decode(&input);
                let json = to_json(&action);
                assert!(json_eq(&json, &input), "{name}: {json} != {input}");
                let again: CommandHostAction = decode(&json);
                assert_eq!(again, action, "{name}");
            }
        }

        fn host_action_set_has_the_twelve_kinds_of_the_newest_source() {
            assert_eq!(
                CommandHostActionKind::LITERALS,
                &[
                    "provider-hot-swap",
                    "output-style-change",
                    "language-change",
                    "settings-reset",
                    "session-exit",
                    "session-restart",
                    "session-rename",
                    "workspace-move",
                    "statusline-settings-patch",
                    "appearance-settings-patch",
                    "remote-control-enable",
                    "remote-control-stop",
                ]
            );
            // Every kind has a golden file, and the goldens cover nothing else.
            let seen: Vec<CommandHostActionKind> = HOST_ACTION_GOLDENS
                .iter()
                .map(|(_, text)| {
                    serde_json::from_str::<CommandHostAction>(text)
                        .expect("decodes")
                        .kind()
                })
                .collect();
            for kind in CommandHostActionKind::ALL {
                assert!(seen.contains(kind), "no golden file for `{kind}`");
            }
        }

        fn legacy_effect_literals_are_gone() {
            for legacy in [
                "plugin-tui-requested",
                "plugin-registry-reload",
                "plugin-registry-reload-requested",
                "settings-tui-requested",
                "provider-hot-swap-requested",
            ] {
                assert_eq!(CommandHostActionKind::from_literal(legacy), None, "{legacy}");
                assert_eq!(CommandUiIntent::from_literal(legacy), None, "{legacy}");
            }
            for literal in CommandHostActionKind::LITERALS {
                assert!(!literal.ends_with("-requested"), "{literal}");
            }
            // A result carrying the legacy `effects` key keeps nothing of it.
            let result: CommandResult = serde_json::from_str(
                r#"{"message":"ok","success":true,"effects":[{"type":"plugin-tui-requested"}]}"#,
            )
            .expect("decodes");
            assert!(to_json(&result).get("effects").is_none());
        }

        // ---- UI intents -----------------------------------------------------------------------

        fn ui_intents_round_trip() {
            let cases = [
                (
                    ui_intent(
                        "ui_intent_show_plugin_manager",
                        include_str!("../golden/command/ui_intent_show_plugin_manager.json"),
                    ),
                    CommandUiIntent::ShowPluginManager,
                ),
                (
                    ui_intent(
                        "ui_intent_show_settings",
                        include_str!("../golden/command/ui_intent_show_settings.json"),
                    ),
                    CommandUiIntent::ShowSettings,
                ),
                (
                    ui_intent(
                        "ui_intent_show_session_picker",
                        include_str!("../golden/command/ui_intent_show_session_picker.json"),
                    ),
                    CommandUiIntent::ShowSessionPicker,
                ),
                (
                    ui_intent(
                        "ui_intent_show_agent_switcher",
                        include_str!("../golden/command/ui_intent_show_agent_switcher.json"),
                    ),
                    CommandUiIntent::ShowAgentSwitcher,
                ),
                (
                    ui_intent(
                        "ui_intent_show_theme_picker",
                        include_str!("../golden/command/ui_intent_show_theme_picker.json"),
                    ),
                    CommandUiIntent::ShowThemePicker,
                ),
            ];
            for (decoded, expected) in cases {
                assert_eq!(decoded, expected);
            }
            assert_eq!(CommandUiIntent::ALL.len(), cases.len());
        }

        fn ui_intent_literals_match_the_wire_and_round_trip() {
            assert_eq!(CommandUiIntent::ALL.len(), CommandUiIntent::LITERALS.len());
            for (intent, literal) in CommandUiIntent::ALL.iter().zip(CommandUiIntent::LITERALS) {
                assert_eq!(intent.as_str(), *literal);
                assert_eq!(CommandUiIntent::from_literal(literal), Some(*intent));
                assert_eq!(alloc::format!("{intent}"), *literal);
                let json = to_json(intent);
                assert_keys(&json, &["type"]);
                assert_eq!(json.get("type").and_then(Value::as_str), Some(*literal));
                let back: CommandUiIntent = decode(&json);
                assert_eq!(back, *intent);
            }
        }

        fn ui_intent_names_are_ui_neutral() {
            for literal in CommandUiIntent::LITERALS {
                for token in ["tui", "ink", "gui"] {
                    assert!(!literal.contains(token), "intent `{literal}` names `{token}`");
                }
            }
        }

        // ---- results --------------------------------------------------------------------------

        fn command_result_with_actions_intents_and_data_round_trips() {
            let result: CommandResult = golden(
                "command_result_full",
                include_str!("../golden/command/command_result_full.json"),
            );
            assert!(result.success);
            assert_eq!(result.message, "Switched to solarized-light.");
            let data = result.data.as_ref().expect("data");
            assert_eq!(data.get("previous"), Some(&Value::from("dark")));
            assert_eq!(data.get("count"), Some(&Value::from(2)));
            assert_eq!(data.get("note"), Some(&Value::Null));
            let themes: &CommandResultDataValue = data.get("themes").expect("themes");
            assert_eq!(themes.pointer("/1/id"), Some(&Value::from("solarized-light")));
            let actions = result.host_actions();
            assert_eq!(actions.len(), 3);
            assert_eq!(actions[0].kind(), CommandHostActionKind::AppearanceSettingsPatch);
            assert_eq!(actions[1], CommandHostAction::SessionRename { name: s("light mode") });
            assert_eq!(actions[2], CommandHostAction::RemoteControlStop);
            assert_eq!(
                result.ui_intents(),
                &[CommandUiIntent::ShowThemePicker, CommandUiIntent::ShowSettings]
            );
        }

        fn failed_command_result_is_a_result_not_an_error() {
            let result: CommandResult = golden(
                "command_result_failure",
                include_str!("../golden/command/command_result_failure.json"),
            );
            assert!(!result.success);
            assert_eq!(result, CommandResult::failure("Unknown profile: nope"));
            assert!(result.host_actions().is_empty());
            assert!(result.ui_intents().is_empty());
            assert_eq!(result.data, None);
            let ok = CommandResult::success("done");
            assert!(ok.success);
            assert_keys(&to_json(&ok), &["message", "success"]);
        }
    }

    // Listings, projections, subcommand narrowing, settings, themes, plugins and skills.
    mod listings {
        // ---- listings -------------------------------------------------------------------------

        fn command_list_entry_round_trips() {
            let entry: CommandListEntry = golden(
                "command_list_entry",
                include_str!("../golden/command/command_list_entry.json"),
            );
            assert_eq!(entry.name, "memory");
            assert_eq!(entry.display_name.as_deref(), Some("Memory"));
            assert_eq!(entry.example.as_deref(), Some("/memory show"));
            assert!(entry.model_invocable);
            assert_eq!(entry.runner, CommandRunner::Client);
            assert_eq!(entry.surfaces, Some(vec![CommandSurface::Terminal]));
            assert_eq!(entry.argument_hint.as_deref(), Some("<show|edit>"));
            let subs = entry.subcommands.as_deref().expect("subcommands");
            assert_eq!(
                subs[0],
                CommandSubcommandEntry::new("show", "Show the memory file")
            );
            assert_eq!(subs[1].argument_hint.as_deref(), Some("<scope>"));
        }

        fn command_list_entry_minimal_has_only_required_fields() {
            let entry: CommandListEntry = golden(
                "command_list_entry_minimal",
                include_str!("../golden/command/command_list_entry_minimal.json"),
            );
            assert!(!entry.model_invocable);
            assert_eq!(entry.runner, CommandRunner::Runtime);
            assert_eq!(entry.surfaces, None);
            assert_eq!(entry.argument_hint, None);
            assert_eq!(entry.subcommands, None);
            // `modelInvocable: false` is written, never skipped.
            assert_eq!(to_json(&entry).get("modelInvocable"), Some(&Value::Bool(false)));
        }

        fn subcommand_entry_round_trips() {
            let entry: CommandSubcommandEntry = golden(
                "command_subcommand_entry",
                include_str!("../golden/command/command_subcommand_entry.json"),
            );
            assert_eq!(entry.name, "edit");
            assert_eq!(entry.description, "Open the memory file in an editor");
            assert_eq!(entry.display_name.as_deref(), Some("Edit memory"));
            assert_eq!(entry.argument_hint.as_deref(), Some("<scope>"));
        }

        fn subcommand_entry_has_exactly_its_four_keys() {
            // A key a command knows (`source`, `modelInvocable`) is not carried by the entry.
            let entry: CommandSubcommandEntry = serde_json::from_str(
                r#"{"name":"show","description":"d","source":"builtin","modelInvocable":true,
                    "displayName":"Show","argumentHint":"[n]"}"#,
            )
            .expect("decodes");
            assert_keys(&to_json(&entry), &["argumentHint", "description", "displayName", "name"]);
            let minimal: CommandSubcommandEntry =
                serde_json::from_str(r#"{"name":"show","description":"d"}"#).expect("decodes");
            assert_keys(&to_json(&minimal), &["description", "name"]);
        }

        fn skill_list_entry_round_trips() {
            let entry: CommandSkillListEntry = golden(
                "command_skill_list_entry",
                include_str!("../golden/command/command_skill_list_entry.json"),
            );
            assert_eq!(entry.name, "summarize");
            assert_eq!(entry.source, "skill");
            assert!(!entry.model_invocable);
            assert!(entry.user_invocable);
            assert_eq!(entry.argument_hint.as_deref(), Some("<file>"));
            assert_eq!(entry.context.as_deref(), Some("fork"));
            assert_eq!(entry.agent.as_deref(), Some("reader"));
        }

        // ---- projections ----------------------------------------------------------------------

        fn list_projection_of_a_command_with_subcommands() {
            let memory: Command = serde_json::from_str(include_str!(
                "../golden/command/command_with_subcommands.json"
            ))
            .expect("decodes");
            let entry = to_command_list_entry(&memory);
            assert_eq!(
                entry,
                CommandListEntry::new("memory", "Manage project memory", true, CommandRunner::Client)
                    .with_display_name("Memory")
                    .with_example("/memory show")
                    .with_surfaces(vec![CommandSurface::Terminal, CommandSurface::Web])
                    .with_argument_hint("<show|edit>")
                    .with_subcommands(vec![
                        CommandSubcommandEntry::new("show", "Show the memory file"),
                        CommandSubcommandEntry::new("edit", "Open the memory file in an editor")
                            .with_display_name("Edit memory")
                            .with_argument_hint("<scope>"),
                    ])
            );
            // Nothing else of the command crosses: no source, no runsBare, no modelDescription.
            let json = to_json(&entry);
            for absent in ["source", "runsBare", "modelDescription", "safety", "userInvocable"] {
                assert!(json.get(absent).is_none(), "{absent}");
            }
            for sub in json.get("subcommands").and_then(Value::as_array).expect("subcommands") {
                assert!(sub.get("source").is_none());
                assert!(sub.get("modelInvocable").is_none());
            }
        }

        fn list_projection_reads_absent_model_invocable_as_false() {
            assert!(!to_command_list_entry(&flagged("a", None)).model_invocable);
            assert!(!to_command_list_entry(&flagged("b", Some(false))).model_invocable);
            assert!(to_command_list_entry(&flagged("c", Some(true))).model_invocable);
        }

        fn list_projection_defaults_the_runner_to_runtime() {
            assert_eq!(to_command_list_entry(&command("a")).runner, CommandRunner::Runtime);
            let client = command("b").with_runner(CommandRunner::Client);
            assert_eq!(to_command_list_entry(&client).runner, CommandRunner::Client);
            let runtime = command("c").with_runner(CommandRunner::Runtime);
            assert_eq!(to_command_list_entry(&runtime).runner, CommandRunner::Runtime);
        }

        fn list_projection_writes_subcommands_only_when_non_empty() {
            let none = to_command_list_entry(&command("a"));
            assert_eq!(none.subcommands, None);
            let empty = to_command_list_entry(&command("b").with_subcommands(vec![]));
            assert_eq!(empty.subcommands, None);
            assert!(to_json(&empty).get("subcommands").is_none());
            let one = to_command_list_entry(&command("c").with_subcommands(vec![command("x")]));
            assert_eq!(one.subcommands.map(|subs| subs.len()), Some(1));
        }

        fn subcommand_projection_drops_every_other_field() {
            let sub = command("show")
                .with_display_name("Show")
                .with_argument_hint("[n]")
                .with_model_invocable(true)
                .with_runner(CommandRunner::Client)
                .with_subcommands(vec![command("deeper")]);
            assert_eq!(
                to_subcommand_entry(&sub),
                CommandSubcommandEntry::new("show", "the show command")
                    .with_display_name("Show")
                    .with_argument_hint("[n]")
            );
        }

        fn skill_projection_reads_the_invocation_flags() {
            let plain = Command::new("s", "the s command", "skill");
            let entry = to_skill_list_entry(&plain);
            assert!(entry.model_invocable);
            assert!(entry.user_invocable);
            assert_eq!(entry.source, "skill");

            let no_model = plain.clone().with_disable_model_invocation(true);
            assert!(!to_skill_list_entry(&no_model).model_invocable);
            let model_ok = plain.clone().with_disable_model_invocation(false);
            assert!(to_skill_list_entry(&model_ok).model_invocable);

            let no_user = plain.clone().with_user_invocable(false);
            assert!(!to_skill_list_entry(&no_user).user_invocable);
            let user_ok = plain.clone().with_user_invocable(true);
            assert!(to_skill_list_entry(&user_ok).user_invocable);

            // A command's own `modelInvocable` is not the skill reading.
            let flagged_off = plain.with_model_invocable(false);
            assert!(to_skill_list_entry(&flagged_off).model_invocable);
        }

        fn skill_projection_of_the_skill_golden_matches_its_listing_golden() {
            let skill: Command =
                serde_json::from_str(include_str!("../golden/command/command_skill.json"))
                    .expect("decodes");
            let entry = to_skill_list_entry(&skill);
            assert!(!entry.model_invocable);
            assert!(!entry.user_invocable);
            assert_eq!(entry.argument_hint.as_deref(), Some("<file>"));
            assert_eq!(entry.context.as_deref(), Some("fork"));
            assert_eq!(entry.agent.as_deref(), Some("reader"));
            assert_keys(&to_json(&entry), &[
                    "agent",
                    "argumentHint",
                    "context",
                    "description",
                    "modelInvocable",
                    "name",
                    "source",
                    "userInvocable"
                ]);
        }

        // ---- subcommand narrowing -------------------------------------------------------------

        fn narrowing_refuses_a_command_the_model_may_not_invoke() {
            for flag in [None, Some(false)] {
                let mut memory = narrowed_memory();
                memory.model_invocable = flag;
                assert!(!model_may_run(&memory, ""));
                assert!(!model_may_run(&memory, "show"));
                assert!(!model_may_run(&flagged("plain", flag), "anything"));
            }
        }

        fn narrowing_allows_anything_without_subcommands() {
            let plain = flagged("compact", Some(true));
            assert!(!narrows_subcommands(&plain));
            assert!(model_may_run(&plain, ""));
            assert!(model_may_run(&plain, "keep the API notes"));
        }

        fn narrowing_allows_anything_with_an_empty_subcommand_list() {
            let empty = flagged("compact", Some(true)).with_subcommands(vec![]);
            assert!(!narrows_subcommands(&empty));
            assert!(model_may_run(&empty, "whatever"));
        }

        fn narrowing_is_off_while_no_subcommand_declares_the_flag() {
            let loose = flagged("memory", Some(true))
                .with_subcommands(vec![flagged("show", None), flagged("edit", None)]);
            assert!(!narrows_subcommands(&loose));
            assert!(model_may_run(&loose, "edit"));
            assert!(model_may_run(&loose, "alias"));
        }

        fn narrowing_allows_the_bare_command_and_flagged_subcommands() {
            let memory = narrowed_memory();
            assert!(narrows_subcommands(&memory));
            assert!(model_may_run(&memory, ""));
            assert!(model_may_run(&memory, "   "));
            assert!(model_may_run(&memory, "show"));
            assert!(model_may_run(&memory, "  show  --all"));
        }

        fn narrowing_refuses_a_subcommand_flagged_false_or_unflagged() {
            let memory = narrowed_memory();
            assert!(!model_may_run(&memory, "edit"));
            assert!(!model_may_run(&memory, "sync now"));
        }

        fn narrowing_refuses_an_unknown_first_argument() {
            let memory = narrowed_memory();
            assert!(!model_may_run(&memory, "purge"));
            assert!(!model_may_run(&memory, "SHOW"));
            assert!(!model_may_run(&memory, "showall"));
        }

        fn narrowing_starts_with_a_single_subcommand_flagged_false() {
            let only_false = flagged("memory", Some(true))
                .with_subcommands(vec![flagged("edit", Some(false)), flagged("show", None)]);
            assert!(narrows_subcommands(&only_false));
            assert!(model_may_run(&only_false, ""));
            assert!(!model_may_run(&only_false, "edit"));
            assert!(!model_may_run(&only_false, "show"));
        }

        fn first_argument_is_the_first_word() {
            assert_eq!(first_argument(""), None);
            assert_eq!(first_argument(" \t\n"), None);
            assert_eq!(first_argument("show"), Some("show"));
            assert_eq!(first_argument("  show  all "), Some("show"));
        }

        // ---- settings and themes --------------------------------------------------------------

        fn statusline_settings_round_trip() {
            let settings: StatusLineCommandSettings = golden(
                "statusline_settings",
                include_str!("../golden/command/statusline_settings.json"),
            );
            assert_eq!(settings, StatusLineCommandSettings::new(true, false));
        }

        fn statusline_patch_keeps_extra_keys() {
            let patch: StatusLineCommandSettingsPatch = golden(
                "statusline_settings_patch",
                include_str!("../golden/command/statusline_settings_patch.json"),
            );
            assert_eq!(patch.enabled, Some(false));
            assert_eq!(patch.git_branch, None);
            assert_eq!(patch.extra.len(), 3);
            assert_eq!(patch.extra.get("showCost"), Some(&Value::Bool(true)));
            assert_eq!(
                patch.extra.get("segments"),
                Some(&serde_json::json!(["model", "tokens"]))
            );
            assert_eq!(patch.extra.get("refreshMs"), Some(&Value::from(500)));
            assert!(!patch.extra.contains_key("enabled"));
            let applied = patch.apply_to(StatusLineCommandSettings::new(true, true));
            assert_eq!(applied, StatusLineCommandSettings::new(false, true));
        }

        fn statusline_patch_does_not_write_owned_keys_twice() {
            let mut extra = ValueMap::new();
            extra.insert(s("gitBranch"), Value::from("shadow"));
            extra.insert(s("width"), Value::from(80));
            let patch = StatusLineCommandSettingsPatch::default().with_git_branch(true).with_extra(extra);
            assert_eq!(to_json(&patch), serde_json::json!({ "gitBranch": true, "width": 80 }));
            let empty = StatusLineCommandSettingsPatch::default();
            assert_eq!(to_json(&empty), serde_json::json!({}));
        }

        fn appearance_settings_round_trip() {
            let settings: AppearanceSettings = golden(
                "appearance_settings",
                include_str!("../golden/command/appearance_settings.json"),
            );
            assert_eq!(settings.theme, "dark");
            assert!(settings.syntax_highlighting);
            assert!(!settings.reduced_motion);
        }

        fn appearance_patch_keeps_extra_keys() {
            let patch: AppearanceSettingsPatch = golden(
                "appearance_settings_patch",
                include_str!("../golden/command/appearance_settings_patch.json"),
            );
            assert_eq!(patch.theme, None);
            assert_eq!(patch.syntax_highlighting, Some(false));
            assert_eq!(patch.reduced_motion, None);
            assert_eq!(patch.extra.get("fontScale"), Some(&Value::from(1.25)));
            assert_eq!(patch.extra.get("accent"), Some(&serde_json::json!({ "name": "teal" })));
            let applied = patch.apply_to(AppearanceSettings::new("dark", true, true));
            assert_eq!(applied.theme, "dark");
            assert!(!applied.syntax_highlighting);
            assert!(applied.reduced_motion);
        }

        fn appearance_patch_does_not_write_owned_keys_twice() {
            let mut extra = ValueMap::new();
            extra.insert(s("theme"), Value::from("shadow"));
            extra.insert(s("reducedMotion"), Value::from(false));
            let patch = AppearanceSettingsPatch::default()
                .with_theme("light")
                .with_extra(extra);
            assert_eq!(to_json(&patch), serde_json::json!({ "theme": "light" }));
        }

        fn appearance_state_with_pin_round_trips() {
            let state: ThemeAppearanceState = golden(
                "theme_appearance_state_pinned",
                include_str!("../golden/command/theme_appearance_state_pinned.json"),
            );
            assert_eq!(state.settings.theme, "dark");
            assert!(!state.settings.reduced_motion);
            assert_eq!(
                state.reduced_motion_pin,
                Some(ReducedMotionPin {
                    tier: ReducedMotionOverride::ScreenReader,
                    reduced_motion: true,
                })
            );
            assert!(state.effective_reduced_motion());
        }

        fn appearance_state_without_pin_round_trips() {
            let state: ThemeAppearanceState = golden(
                "theme_appearance_state_unpinned",
                include_str!("../golden/command/theme_appearance_state_unpinned.json"),
            );
            assert_eq!(state.reduced_motion_pin, None);
            assert!(state.settings.reduced_motion);
            assert!(state.effective_reduced_motion());
            let mut still = state.clone();
            still.settings.reduced_motion = false;
            assert!(!still.effective_reduced_motion());
            still.reduced_motion_pin = Some(ReducedMotionPin {
                tier: ReducedMotionOverride::Environment,
                reduced_motion: false,
            });
            still.settings.reduced_motion = true;
            assert!(!still.effective_reduced_motion());
        }

        fn theme_catalogue_entry_round_trips() {
            let entry: ThemeCatalogueEntry = golden(
                "theme_catalogue_entry",
                include_str!("../golden/command/theme_catalogue_entry.json"),
            );
            assert_eq!(entry.id, "solarized-light");
            assert_eq!(entry.name, "Solarized Light");
            assert_eq!(entry.appearance, ThemeAppearance::Light);
            assert_eq!(entry.source, ThemeSource::BuiltIn);
            assert_keys(&to_json(&entry), &["appearance", "id", "name", "source"]);
        }

        // ---- plugins and skills ---------------------------------------------------------------

        fn plugin_records_round_trip() {
            let installed: CommandInstalledPlugin =
                golden("installed_plugin", include_str!("../golden/command/installed_plugin.json"));
            assert_eq!(installed.name, "docs-tools");
            assert_eq!(installed.description, "Skills for writing docs");
            assert!(installed.enabled);
            let available: CommandAvailablePlugin =
                golden("available_plugin", include_str!("../golden/command/available_plugin.json"));
            assert_eq!(available.name, "lint-helper");
            assert!(!available.installed);
            let source: CommandMarketplaceSource = golden(
                "marketplace_source",
                include_str!("../golden/command/marketplace_source.json"),
            );
            assert_eq!(source.name, "community");
            assert_eq!(source.kind, "github");
            let reload: CommandPluginReloadResult = golden(
                "plugin_reload_result",
                include_str!("../golden/command/plugin_reload_result.json"),
            );
            assert_eq!(reload.loaded_plugin_count, 3);
        }

        fn skill_records_round_trip() {
            let resolved: SkillResolutionResult = golden(
                "skill_resolution_result",
                include_str!("../golden/command/skill_resolution_result.json"),
            );
            assert_eq!(resolved.mode, "inject");
            assert_eq!(resolved.inject_prompt(), Some("Summarize README.md in five bullet points."));
            let fork: SkillResolutionResult = golden(
                "skill_resolution_result_minimal",
                include_str!("../golden/command/skill_resolution_result_minimal.json"),
            );
            assert_eq!(fork.prompt, None);
            assert_eq!(fork.inject_prompt(), None);
            let wrong_mode = SkillResolutionResult::new("fork").with_prompt("p");
            assert_eq!(wrong_mode.inject_prompt(), None);
            let options: SkillResolveOptions = golden(
                "skill_resolve_options",
                include_str!("../golden/command/skill_resolve_options.json"),
            );
            assert_eq!(options.session_id.as_deref(), Some("session-42"));
            let entry: SkillResourceEntry = golden(
                "skill_resource_entry",
                include_str!("../golden/command/skill_resource_entry.json"),
            );
            assert_eq!(entry.uri, "skill://summarize/templates/outline.md");
            let resource: SkillResource =
                golden("skill_resource", include_str!("../golden/command/skill_resource.json"));
            assert_eq!(resource.uri, entry.uri);
            assert_eq!(resource.bytes, b"# Title\n");
        }
    }

    // Frontmatter, the ports, and refused input.
    mod sources {
        // ---- frontmatter ----------------------------------------------------------------------

        fn frontmatter_decode_options_round_trip() {
            let options: FrontmatterDecodeOptions = golden(
                "frontmatter_decode_options",
                include_str!("../golden/command/frontmatter_decode_options.json"),
            );
            assert_eq!(options.kind, FrontmatterKind::Agent);
            assert_eq!(options.source, ".agents/reviewer.md");
        }

        fn frontmatter_valid_skill_round_trips() {
            let result: FrontmatterDecodeResult = golden(
                "frontmatter_valid_skill",
                include_str!("../golden/command/frontmatter_valid_skill.json"),
            );
            assert!(result.diagnostics().is_empty());
            let value = result.value().expect("valid");
            assert_eq!(value.kind(), FrontmatterKind::Skill);
            assert_eq!(value.name(), "summarize");
            assert_eq!(value.description(), "Summarize a document");
            let DecodedFrontmatter::Skill(skill) = value else {
                panic!("expected a skill, got {value:?}");
            };
            assert_eq!(skill.argument_hint.as_deref(), Some("<file>"));
            assert_eq!(skill.disable_model_invocation, Some(false));
            assert_eq!(skill.user_invocable, Some(true));
            assert_eq!(skill.allowed_tools, Some(vec![s("read_file"), s("grep")]));
            assert_eq!(skill.model.as_deref(), Some("claude-sonnet"));
            assert_eq!(skill.effort, Some(ModelEffort::Medium));
            assert_eq!(skill.context, Some(FrontmatterContext::Inject));
            assert_eq!(skill.agent.as_deref(), Some("reader"));
        }

        fn frontmatter_valid_agent_round_trips() {
            let result: FrontmatterDecodeResult = golden(
                "frontmatter_valid_agent",
                include_str!("../golden/command/frontmatter_valid_agent.json"),
            );
            let value = result.value().expect("valid");
            assert_eq!(value.kind(), FrontmatterKind::Agent);
            let DecodedFrontmatter::Agent(agent) = value else {
                panic!("expected an agent, got {value:?}");
            };
            assert_eq!(agent.name, "reviewer");
            assert_eq!(agent.model.as_deref(), Some("claude-opus"));
            assert_eq!(agent.max_turns.map(core::num::NonZeroU64::get), Some(12));
            assert_eq!(agent.tools, Some(vec![s("read_file"), s("grep")]));
            assert_eq!(agent.disallowed_tools, Some(vec![s("bash")]));
        }

        fn frontmatter_invalid_round_trips_without_a_value() {
            let result: FrontmatterDecodeResult = golden(
                "frontmatter_invalid",
                include_str!("../golden/command/frontmatter_invalid.json"),
            );
            assert_eq!(result.value(), None);
            let diagnostics = result.diagnostics();
            assert_eq!(diagnostics.len(), 3);
            assert_eq!(diagnostics[0].code, FrontmatterDiagnosticCode::UnknownKey);
            assert_eq!(diagnostics[0].source, "skills/summarize/SKILL.md");
            assert_eq!(diagnostics[0].line.map(core::num::NonZeroU32::get), Some(4));
            assert_eq!(diagnostics[0].field.as_deref(), Some("colour"));
            assert_eq!(diagnostics[1].code, FrontmatterDiagnosticCode::MissingRequiredField);
            assert_eq!(diagnostics[1].line, None);
            assert_eq!(diagnostics[2].field, None);
            assert_eq!(diagnostics[2].message, "Frontmatter must begin with ---");
            assert!(to_json(&result).get("value").is_none());
        }

        fn decoded_frontmatter_carries_its_kind_tag() {
            let agent = DecodedFrontmatter::from(DecodedAgentFrontmatter::new("a", "d"));
            assert_eq!(
                to_json(&agent),
                serde_json::json!({ "kind": "agent", "name": "a", "description": "d" })
            );
            let skill = DecodedFrontmatter::from(DecodedSkillFrontmatter::new("s", "d"));
            assert_eq!(to_json(&skill).get("kind"), Some(&Value::from("skill")));
        }

        // ---- ports ----------------------------------------------------------------------------

        fn command_source_lists_its_commands() {
            let source = Builtins;
            assert_eq!(source.name(), "builtin");
            let commands = source.get_commands();
            let listing: Vec<CommandListEntry> = commands.iter().map(to_command_list_entry).collect();
            assert_eq!(listing.len(), 2);
            assert_eq!(listing[0].name, "help");
            assert!(!listing[0].model_invocable);
            assert_eq!(listing[1].subcommands.as_ref().map(Vec::len), Some(3));
        }

        fn executor_reports_a_failure_through_the_result() {
            let mut executor = HelpOnly { runs: 0 };
            let commands = Builtins.get_commands();
            let ok = block_on(executor.execute(&commands[0], "topics"));
            assert!(ok.success);
            assert_eq!(ok.message, "help topics");
            let failed = block_on(executor.execute(&commands[1], "show"));
            assert!(!failed.success);
            assert_eq!(failed.message, "cannot run memory");
            assert_eq!(executor.runs, 2);
        }

        fn skill_port_resolves_and_refuses() {
            let port = Skills;
            let skills = port.load_commands();
            assert_eq!(skills.len(), 1);
            let options = SkillResolveOptions::default().with_session_id("session-1");
            let resolved =
                block_on(port.resolve_skill(&skills[0], "README.md", &options)).expect("resolves");
            assert_eq!(resolved.inject_prompt(), Some("Summarize README.md."));
            let no_session = SkillResolveOptions::default();
            let refused = block_on(port.resolve_skill(&skills[0], "x", &no_session));
            assert_eq!(refused, Err(Refused("no session")));
            let not_skill = block_on(port.resolve_skill(&command("help"), "", &options));
            assert_eq!(not_skill, Err(Refused("not a skill")));
        }

        fn skill_activation_serves_only_its_manifest_until_closed() {
            let mut activation = Activation {
                manifest: vec![SkillResourceEntry::new("skill://s/outline.md")],
                consented: true,
                closed: false,
            };
            assert_eq!(block_on(activation.validate()), Ok(()));
            assert!(activation.lists("skill://s/outline.md"));
            assert!(!activation.lists("skill://s/SKILL.md"));
            let resource = block_on(activation.read("skill://s/outline.md")).expect("reads");
            assert_eq!(resource.bytes, b"# Outline\n");
            assert_eq!(
                block_on(activation.read("skill://s/SKILL.md")),
                Err(Refused("outside the manifest"))
            );
            activation.consented = false;
            assert_eq!(block_on(activation.validate()), Err(Refused("consent withdrawn")));
            activation.close().expect("closes");
            assert_eq!(block_on(activation.read("skill://s/outline.md")), Err(Refused("closed")));
        }

        fn theme_port_reads_the_catalogue() {
            let themes = Themes;
            assert_eq!(themes.list_themes().len(), 2);
            assert_eq!(themes.get_theme("mine").map(|theme| theme.source), Some(ThemeSource::User));
            assert_eq!(themes.get_theme("missing"), None);
            let state = themes.get_appearance();
            assert!(state.effective_reduced_motion());
            assert!(!state.settings.reduced_motion);
        }

        fn plugin_adapter_reloads_and_refuses() {
            let plugins = Plugins {
                installed: vec![
                    CommandInstalledPlugin::new("a", "A", true),
                    CommandInstalledPlugin::new("b", "B", false),
                ],
            };
            let reload = block_on(plugins.reload_plugins()).expect("reloads");
            assert_eq!(reload.loaded_plugin_count, 1);
            assert_eq!(block_on(plugins.list_installed()).map(|list| list.len()), Ok(2));
            assert_eq!(
                block_on(plugins.list_available_plugins("community")).map(|list| list.len()),
                Ok(1)
            );
            assert_eq!(
                block_on(plugins.list_available_plugins("other")),
                Err(Refused("unknown marketplace"))
            );
            assert_eq!(block_on(plugins.install("c", None)), Ok(()));
            assert_eq!(block_on(plugins.install("c", Some(PluginInstallScope::User))), Ok(()));
            assert!(block_on(plugins.install("c", Some(PluginInstallScope::Project))).is_err());
            assert_eq!(block_on(plugins.enable("b")), Ok(()));
            assert_eq!(block_on(plugins.disable("a")), Ok(()));
            assert_eq!(block_on(plugins.uninstall("zzz")), Err(Refused("not installed")));
            assert_eq!(
                block_on(plugins.marketplace_add("github.com/acme/plugins")),
                Ok(s("plugins"))
            );
            assert_eq!(block_on(plugins.marketplace_add("trailing/")), Err(Refused("empty source")));
            assert_eq!(block_on(plugins.marketplace_update("community")), Ok(()));
            assert!(block_on(plugins.marketplace_remove("gone")).is_err());
            let list = block_on(plugins.marketplace_list()).expect("lists");
            assert_eq!(to_json(&list[0]), serde_json::json!({ "name": "community", "type": "github" }));
        }

        // ---- refused input --------------------------------------------------------------------

        fn rejects_unknown_host_action_type() {
            rejects::<CommandHostAction>(r#"{"type":"reboot"}"#, "unknown variant `reboot`");
        }

        fn rejects_legacy_host_action_literal() {
            rejects::<CommandHostAction>(
                r#"{"type":"plugin-tui-requested"}"#,
                "unknown variant `plugin-tui-requested`",
            );
        }

        fn rejects_host_action_without_type() {
            rejects::<CommandHostAction>(r#"{"name":"x"}"#, "missing field `type`");
        }

        fn rejects_host_action_missing_payload() {
            rejects::<CommandHostAction>(r#"{"type":"session-rename"}"#, "missing field `name`");
            rejects::<CommandHostAction>(
                r#"{"type":"session-restart","message":"m"}"#,
                "missing field `reason`",
            );
            rejects::<CommandHostAction>(
                r#"{"type":"statusline-settings-patch"}"#,
                "missing field `patch`",
            );
        }

        fn rejects_host_action_with_wrong_end_reason() {
            rejects::<CommandHostAction>(
                r#"{"type":"session-exit","reason":"crash"}"#,
                "unknown variant `crash`",
            );
        }

        fn rejects_unknown_capability_kind() {
            rejects::<CapabilityDescriptor>(
                r#"{"name":"n","kind":"plugin","description":"d","userInvocable":true,"modelInvocable":true}"#,
                "unknown variant `plugin`",
            );
        }

        fn rejects_unknown_capability_safety() {
            rejects::<CapabilityDescriptor>(
                r#"{"name":"n","kind":"tool","description":"d","userInvocable":true,"modelInvocable":true,"safety":"dangerous"}"#,
                "unknown variant `dangerous`",
            );
        }

        fn rejects_capability_descriptor_without_model_invocable() {
            rejects::<CapabilityDescriptor>(
                r#"{"name":"n","kind":"tool","description":"d","userInvocable":true}"#,
                "missing field `modelInvocable`",
            );
        }

        fn rejects_list_entry_without_runner() {
            rejects::<CommandListEntry>(
                r#"{"name":"help","description":"d","modelInvocable":false}"#,
                "missing field `runner`",
            );
        }

        fn rejects_list_entry_without_model_invocable() {
            rejects::<CommandListEntry>(
                r#"{"name":"help","description":"d","runner":"runtime"}"#,
                "missing field `modelInvocable`",
            );
        }

        fn rejects_list_entry_with_unknown_runner() {
            rejects::<CommandListEntry>(
                r#"{"name":"help","description":"d","modelInvocable":false,"runner":"server"}"#,
                "unknown variant `server`",
            );
        }

        fn rejects_list_entry_with_unknown_surface() {
            rejects::<CommandListEntry>(
                r#"{"name":"h","description":"d","modelInvocable":false,"runner":"client","surfaces":["gui"]}"#,
                "unknown variant `gui`",
            );
        }

        fn rejects_list_entry_with_string_flag() {
            rejects::<CommandListEntry>(
                r#"{"name":"h","description":"d","modelInvocable":"true","runner":"runtime"}"#,
                "invalid type",
            );
        }

        fn rejects_subcommand_entry_without_description() {
            rejects::<CommandSubcommandEntry>(r#"{"name":"show"}"#, "missing field `description`");
        }

        fn rejects_skill_list_entry_without_user_invocable() {
            rejects::<CommandSkillListEntry>(
                r#"{"name":"s","description":"d","source":"skill","modelInvocable":true}"#,
                "missing field `userInvocable`",
            );
        }

        fn rejects_command_without_name() {
            rejects::<Command>(r#"{"description":"d","source":"builtin"}"#, "missing field `name`");
        }

        fn rejects_command_without_source() {
            rejects::<Command>(r#"{"name":"n","description":"d"}"#, "missing field `source`");
        }

        fn rejects_command_with_unknown_effort() {
            rejects::<Command>(
                r#"{"name":"n","description":"d","source":"skill","effort":"turbo"}"#,
                "unknown variant `turbo`",
            );
        }

        fn rejects_command_with_wrong_subcommands_type() {
            rejects::<Command>(
                r#"{"name":"n","description":"d","source":"s","subcommands":{"show":{}}}"#,
                "invalid type",
            );
        }

        fn rejects_unknown_ui_intent() {
            rejects::<CommandUiIntent>(
                r#"{"type":"show-tui-plugins"}"#,
                "unknown variant `show-tui-plugins`",
            );
            rejects::<CommandUiIntent>(r#""show-settings""#, "invalid type");
        }

        fn rejects_result_without_success() {
            rejects::<CommandResult>(r#"{"message":"m"}"#, "missing field `success`");
        }

        fn rejects_result_with_non_object_data() {
            rejects::<CommandResult>(r#"{"message":"m","success":true,"data":[1,2]}"#, "invalid type");
        }

        fn rejects_statusline_patch_with_wrong_value_type() {
            rejects::<StatusLineCommandSettingsPatch>(r#"{"enabled":"yes"}"#, "invalid type");
        }

        fn rejects_appearance_patch_with_wrong_value_type() {
            rejects::<AppearanceSettingsPatch>(r#"{"reducedMotion":1}"#, "invalid type");
            rejects::<AppearanceSettingsPatch>(r#"{"theme":false}"#, "invalid type");
        }

        fn rejects_half_a_reduced_motion_pin() {
            rejects::<ThemeAppearanceState>(
                r#"{"settings":{"theme":"t","syntaxHighlighting":true,"reducedMotion":false},
                    "reducedMotionPin":{"tier":"flag"}}"#,
                "missing field `reducedMotion`",
            );
            rejects::<ThemeAppearanceState>(
                r#"{"settings":{"theme":"t","syntaxHighlighting":true,"reducedMotion":false},
                    "reducedMotionPin":{"reducedMotion":true}}"#,
                "missing field `tier`",
            );
        }

        fn rejects_unknown_reduced_motion_tier() {
            rejects::<ReducedMotionPin>(
                r#"{"tier":"user","reducedMotion":true}"#,
                "unknown variant `user`",
            );
        }

        fn rejects_unknown_theme_appearance() {
            rejects::<ThemeCatalogueEntry>(
                r#"{"id":"i","name":"n","appearance":"sepia","source":"user"}"#,
                "unknown variant `sepia`",
            );
        }

        fn rejects_negative_loaded_plugin_count() {
            rejects::<CommandPluginReloadResult>(r#"{"loadedPluginCount":-1}"#, "integer `-1`");
        }

        fn rejects_fractional_loaded_plugin_count() {
            rejects::<CommandPluginReloadResult>(r#"{"loadedPluginCount":1.5}"#, "invalid type");
        }

        fn rejects_marketplace_source_without_type() {
            rejects::<CommandMarketplaceSource>(r#"{"name":"n"}"#, "missing field `type`");
        }

        fn rejects_unknown_install_scope() {
            rejects::<PluginInstallScope>(r#""global""#, "unknown variant `global`");
        }

        fn rejects_negative_frontmatter_line() {
            rejects::<FrontmatterDiagnostic>(
                r#"{"code":"malformed-line","source":"s","line":-3,"message":"m"}"#,
                "integer `-3`",
            );
        }

        fn rejects_zero_frontmatter_line() {
            rejects::<FrontmatterDiagnostic>(
                r#"{"code":"malformed-line","source":"s","line":0,"message":"m"}"#,
                "expected a nonzero",
            );
        }

        fn rejects_unknown_frontmatter_diagnostic_code() {
            rejects::<FrontmatterDiagnostic>(
                r#"{"code":"bad-yaml","source":"s","message":"m"}"#,
                "unknown variant `bad-yaml`",
            );
        }

        fn rejects_valid_frontmatter_result_without_value() {
            rejects::<FrontmatterDecodeResult>(r#"{"status":"valid"}"#, "missing field `value`");
        }

        fn rejects_invalid_frontmatter_result_without_diagnostics() {
            rejects::<FrontmatterDecodeResult>(
                r#"{"status":"invalid"}"#,
                "missing field `diagnostics`",
            );
        }

        fn rejects_unknown_frontmatter_status() {
            rejects::<FrontmatterDecodeResult>(
                r#"{"status":"partial","diagnostics":[]}"#,
                "unknown variant `partial`",
            );
        }

        fn rejects_unknown_frontmatter_kind() {
            rejects::<FrontmatterDecodeResult>(
                r#"{"status":"valid","value":{"kind":"command","name":"n","description":"d"}}"#,
                "unknown variant `command`",
            );
        }

        fn rejects_zero_or_negative_max_turns() {
            rejects::<DecodedFrontmatter>(
                r#"{"kind":"agent","name":"n","description":"d","maxTurns":0}"#,
                "nonzero",
            );
            rejects::<DecodedFrontmatter>(
                r#"{"kind":"agent","name":"n","description":"d","maxTurns":-2}"#,
                "integer `-2`",
            );
        }

        fn rejects_unknown_skill_context() {
            rejects::<DecodedFrontmatter>(
                r#"{"kind":"skill","name":"n","description":"d","context":"project"}"#,
                "unknown variant `project`",
            );
        }

        fn rejects_skill_frontmatter_without_description() {
            rejects::<DecodedFrontmatter>(
                r#"{"kind":"skill","name":"n"}"#,
                "missing field `description`",
            );
        }
    }
}

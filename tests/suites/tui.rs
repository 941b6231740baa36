//! The `tui` family: the tests of the original `command-interaction.test` (catalog §7.3) plus the
//! wire forms and the inputs a decoder must refuse.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use agent_interface::tui::{
    AnyTuiCommandInteraction, OnMissingArgsAction, TuiCommandInteraction, TuiConfirmInteraction,
    TuiPickerInteraction, TuiPickerItem,
};

use crate::support::{golden, rejects, to_json};

fn models() -> Vec<TuiPickerItem> {
    vec![
        TuiPickerItem::new("Opus", "claude-opus"),
        TuiPickerItem::new("Sonnet", "claude-sonnet").with_description("Balanced model"),
    ]
}

/// The exhaustive narrowing of the original test: picker -> `picker:<count>`,
/// confirm -> `confirm:<message>`. Adding a variant breaks this match at compile time.
fn describe(interaction: &AnyTuiCommandInteraction) -> String {
    match interaction {
        AnyTuiCommandInteraction::Picker(picker) => format!("picker:{}", picker.get_items().len()),
        AnyTuiCommandInteraction::Confirm(confirm) => format!("confirm:{}", confirm.message),
    }
}

cases! {
    fn picker_yields_its_items_and_second_description() {
        let picker = AnyTuiCommandInteraction::Picker(Box::new(models));
        assert_eq!(picker.on_missing_args(), OnMissingArgsAction::Picker);
        let AnyTuiCommandInteraction::Picker(source) = &picker else {
            panic!("built a picker");
        };
        let items = source.get_items();
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].description.as_deref(), Some("Balanced model"));
        assert_eq!(items[0].description, None);
    }

    fn picker_items_are_produced_when_asked() {
        let mut listed = models();
        listed.truncate(1);
        let fixed: Box<dyn TuiPickerInteraction> = Box::new(listed);
        assert_eq!(fixed.get_items().len(), 1);
        assert_eq!(fixed.get_items()[0].value, "claude-opus");
    }

    fn confirm_carries_its_message() {
        let confirm = AnyTuiCommandInteraction::Confirm(TuiConfirmInteraction::new("Clear the conversation?"));
        assert_eq!(confirm.on_missing_args(), OnMissingArgsAction::Confirm);
        assert_eq!(describe(&confirm), "confirm:Clear the conversation?");
    }

    fn exhaustive_narrowing_maps_each_kind() {
        let picker = AnyTuiCommandInteraction::Picker(Box::new(models));
        assert_eq!(describe(&picker), "picker:2");
        let confirm = AnyTuiCommandInteraction::Confirm(TuiConfirmInteraction::new("Sure?"));
        assert_eq!(describe(&confirm), "confirm:Sure?");
    }

    fn action_vocabulary_admits_wizard() {
        assert_eq!(
            OnMissingArgsAction::LITERALS,
            &["picker", "wizard", "confirm"]
        );
        for action in OnMissingArgsAction::ALL {
            assert_eq!(OnMissingArgsAction::from_literal(action.as_str()), Some(*action));
            assert_eq!(to_json(action), serde_json::Value::from(action.as_str()));
            let decoded: OnMissingArgsAction =
                serde_json::from_value(serde_json::Value::from(action.as_str())).unwrap();
            assert_eq!(decoded, *action);
        }
        assert_eq!(OnMissingArgsAction::from_literal("Wizard"), None);
    }

    fn picker_item_round_trips() {
        let item: TuiPickerItem = golden("picker_item", include_str!("../golden/tui/picker_item.json"));
        assert_eq!(item, models()[1]);
        let minimal: TuiPickerItem =
            golden("picker_item_minimal", include_str!("../golden/tui/picker_item_minimal.json"));
        assert_eq!(minimal, models()[0]);
    }

    fn confirm_interaction_round_trips() {
        let confirm: TuiConfirmInteraction = golden(
            "confirm_interaction",
            include_str!("../golden/tui/confirm_interaction.json"),
        );
        assert_eq!(confirm.message, "Clear the conversation?");
    }

    fn command_interaction_round_trips() {
        let wizard: TuiCommandInteraction = golden(
            "command_interaction",
            include_str!("../golden/tui/command_interaction.json"),
        );
        assert_eq!(wizard.on_missing_args, Some(OnMissingArgsAction::Wizard));
        let none: TuiCommandInteraction = golden(
            "command_interaction_empty",
            include_str!("../golden/tui/command_interaction_empty.json"),
        );
        assert_eq!(none, TuiCommandInteraction::default());
    }

    fn unknown_action_literal_is_refused() {
        rejects::<TuiCommandInteraction>(r#"{"onMissingArgs":"dialog"}"#, "unknown variant `dialog`");
        rejects::<OnMissingArgsAction>(r#""Picker""#, "unknown variant `Picker`");
    }

    fn confirm_with_another_action_is_refused() {
        rejects::<TuiConfirmInteraction>(
            r#"{"onMissingArgs":"picker","message":"m"}"#,
            "onMissingArgs `confirm`",
        );
    }

    fn confirm_missing_fields_are_refused() {
        rejects::<TuiConfirmInteraction>(r#"{"onMissingArgs":"confirm"}"#, "missing field `message`");
        rejects::<TuiConfirmInteraction>(r#"{"message":"m"}"#, "missing field `onMissingArgs`");
    }

    fn picker_item_missing_value_is_refused() {
        rejects::<TuiPickerItem>(r#"{"label":"Opus"}"#, "missing field `value`");
        rejects::<TuiPickerItem>(r#"{"label":"Opus","value":7}"#, "invalid type");
    }
}

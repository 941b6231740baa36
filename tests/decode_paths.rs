//! Errors that say where (issue 19, point 5): decoding any family's contract type through the one
//! helper, `agent_core::from_json_str` / `from_json_slice` / `from_json_value`, names the member
//! that failed. Each case takes a golden document of its family, breaks one member deep inside
//! it, and checks the path the error names, from text and from a parsed value alike.

use agent_interface::agent_core::{
    ActionRequest, JsonDecodeError, Value, from_json_slice, from_json_str, from_json_value,
};
use agent_interface::analytics::reports::UsageBySourceReport;
use agent_interface::command::definition::Command;
use agent_interface::execution::groups::BackgroundJobGroupCreateRequest;
use agent_interface::runtime::policy::PutRulesOptions;
use agent_interface::runtime::reconcile::ReconcileReport;
use agent_interface::session::directory::SessionListing;
use agent_interface::session_mobility::handoff::HandoffManifest;
use agent_interface::transport::channels::ChannelDescriptor;
use agent_interface::tui::TuiPickerItem;
use serde::de::DeserializeOwned;

/// `golden` with the member at JSON `pointer` replaced by `bad`, as text.
fn broken(golden: &str, pointer: &str, bad: Value) -> String {
    let mut document: Value = serde_json::from_str(golden).expect("the golden file is JSON");
    *document
        .pointer_mut(pointer)
        .unwrap_or_else(|| panic!("{pointer} is in the golden file")) = bad;
    document.to_string()
}

/// Decodes `text` as a `T` all three ways; each must fail at `path`, with the same message.
fn fails_at<T: DeserializeOwned + core::fmt::Debug>(text: &str, path: &str) -> JsonDecodeError {
    let from_text = from_json_str::<T>(text).expect_err("the broken document is refused");
    let from_bytes = from_json_slice::<T>(text.as_bytes()).expect_err("refused as bytes");
    let value: Value = serde_json::from_str(text).expect("JSON");
    let from_value = from_json_value::<T>(value).expect_err("refused as a value");
    for error in [&from_text, &from_bytes, &from_value] {
        assert_eq!(error.path(), path, "{error}");
        assert!(
            error.to_string().starts_with(&format!("{path}: ")),
            "{error}"
        );
    }
    assert_eq!(from_text.to_string(), from_bytes.to_string());
    assert_eq!(
        from_text.inner().to_string().split(" at line ").next(),
        Some(from_value.inner().to_string().as_str())
    );
    from_text
}

#[test]
fn analytics_names_the_usage_source_scope() {
    let text = broken(
        include_str!("golden/analytics/usage_by_source_report.json"),
        "/bySource/1/source/scope",
        Value::from("galaxy"),
    );
    let error = fails_at::<UsageBySourceReport>(&text, "bySource[1].source.scope");
    assert!(
        error.to_string().contains("unknown variant `galaxy`"),
        "{error}"
    );
}

#[test]
fn agent_core_names_the_option_label() {
    let text = broken(
        include_str!("golden/agent_core/action_request_full.json"),
        "/options/1/label",
        Value::from(7),
    );
    fails_at::<ActionRequest>(&text, "options[1].label");
}

#[test]
fn command_names_the_subcommand_member() {
    let text = broken(
        include_str!("golden/command/command_with_subcommands.json"),
        "/subcommands/1/modelInvocable",
        Value::from("yes"),
    );
    fails_at::<Command>(&text, "subcommands[1].modelInvocable");
}

#[test]
fn execution_names_the_wait_policy() {
    let text = broken(
        include_str!("golden/execution/job_group_create_request.json"),
        "/waitPolicy",
        Value::from("forever"),
    );
    fails_at::<BackgroundJobGroupCreateRequest>(&text, "waitPolicy");
}

#[test]
fn policy_names_the_revision() {
    let text = broken(
        include_str!("golden/policy/put_options.json"),
        "/expectedRev",
        Value::from(-1),
    );
    fails_at::<PutRulesOptions>(&text, "expectedRev");
}

#[test]
fn reconcile_names_the_recovered_entry() {
    let text = broken(
        include_str!("golden/reconcile/report.json"),
        "/recovered/0/entryId",
        Value::from(1),
    );
    fails_at::<ReconcileReport>(&text, "recovered[0].entryId");
}

#[test]
fn session_names_the_unreadable_id() {
    let text = broken(
        include_str!("golden/session/directory/listing.json"),
        "/unreadableSessionIds/0",
        Value::from(5),
    );
    fails_at::<SessionListing>(&text, "unreadableSessionIds[0]");
}

#[test]
fn a_buffered_element_is_named_as_a_whole() {
    // A listing entry keeps its unknown members (a flattened map), so serde buffers the entry
    // and decodes its members from the buffer, where no path is tracked: the path stops at the
    // entry, and the message still says what failed.
    let text = broken(
        include_str!("golden/session/directory/listing.json"),
        "/sessions/1/messageCount",
        Value::from("twelve"),
    );
    let error = fails_at::<SessionListing>(&text, "sessions[1]");
    assert!(
        error
            .to_string()
            .contains(r#"invalid type: string "twelve""#),
        "{error}"
    );
}

#[test]
fn session_mobility_names_the_inventory_entry() {
    let text = broken(
        include_str!("golden/session_mobility/handoff/manifest.json"),
        "/inventory/1/disposition",
        Value::from("teleported"),
    );
    fails_at::<HandoffManifest>(&text, "inventory[1].disposition");
}

#[test]
fn transport_names_the_declared_event() {
    let text = broken(
        include_str!("golden/transport/channel_descriptor.json"),
        "/events/1",
        Value::from(3),
    );
    fails_at::<ChannelDescriptor>(&text, "events[1]");
}

#[test]
fn tui_names_the_picker_value() {
    let text = broken(
        include_str!("golden/tui/picker_item.json"),
        "/value",
        Value::Null,
    );
    fails_at::<TuiPickerItem>(&text, "value");
}

#[test]
fn the_document_itself_has_no_path() {
    let error = from_json_str::<ActionRequest>(r#""ask""#).expect_err("not an object");
    assert_eq!(error.path(), "");
    assert!(
        error.to_string().starts_with("invalid type: string"),
        "{error}"
    );
    let error = from_json_str::<ActionRequest>("{").expect_err("not JSON");
    assert_eq!(error.path(), "");
    assert!(
        error.to_string().starts_with("EOF while parsing"),
        "{error}"
    );
    let error = from_json_slice::<ActionRequest>(b"{\"id\":\"a\",\"title\":\"\xff\"}")
        .expect_err("not UTF-8");
    assert_eq!(error.path(), "title");
    assert!(
        error.to_string().starts_with("title: invalid unicode"),
        "{error}"
    );
    assert!(core::error::Error::source(&error).is_some());
    let error = from_json_slice::<ActionRequest>(b"{\"id\":\"a\",\"title\":\"t\"} trailing")
        .expect_err("text after the document");
    assert_eq!(error.path(), "");
    assert!(
        error.to_string().starts_with("trailing characters"),
        "{error}"
    );
}

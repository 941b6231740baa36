//! Wire-form cases of the `agent_core` family: golden round trips, literal sets, refused JSON.
//! Uses only `core`, `alloc`, serde_json and the crate, so it also runs on the firmware and wasm.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use agent_interface::agent_core::*;

use crate::support::{golden, rejects, to_json};

fn base(message: &UniversalMessage) -> (&str, &str, MessageState) {
    (message.id(), message.timestamp(), message.state())
}

cases! {
    fn user_message_round_trips_with_every_part_kind() {
        let message: UniversalMessage =
            golden("message_user", include_str!("../golden/agent_core/message_user.json"));
        assert_eq!(message.role(), MessageRole::User);
        assert_eq!(
            base(&message),
            ("msg-user-1", "2026-09-24T00:00:59.000Z", MessageState::Complete)
        );
        let metadata = message.metadata().expect("metadata");
        assert_eq!(metadata.get("attempt"), Some(&Value::from(2)));
        let UniversalMessage::User(user) = &message else {
            panic!("expected a user message, got {message:?}");
        };
        assert_eq!(user.content, "What is in these pictures?");
        assert_eq!(user.name.as_deref(), Some("alice"));
        let parts = message.parts().expect("parts");
        assert_eq!(
            parts,
            &[
                UniversalMessagePart::Text { text: String::from("What is in these pictures?") },
                UniversalMessagePart::ImageInline {
                    mime_type: String::from("image/png"),
                    data: String::from("iVBORw0KGgo="),
                },
                UniversalMessagePart::ImageUri {
                    uri: String::from("https://example.com/cat.jpg"),
                    mime_type: Some(String::from("image/jpeg")),
                },
                UniversalMessagePart::ImageUri {
                    uri: String::from("https://example.com/dog"),
                    mime_type: None,
                },
            ]
        );
    }

    fn assistant_message_with_null_content_and_tool_calls_round_trips() {
        let message: UniversalMessage = golden(
            "message_assistant_tool_calls",
            include_str!("../golden/agent_core/message_assistant_tool_calls.json"),
        );
        assert_eq!(message.role(), MessageRole::Assistant);
        assert_eq!(message.state(), MessageState::Interrupted);
        assert_eq!(message.content(), None);
        let UniversalMessage::Assistant(assistant) = &message else {
            panic!("expected an assistant message, got {message:?}");
        };
        let calls = assistant.tool_calls.as_deref().expect("tool calls");
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].id, "call-1");
        assert_eq!(calls[0].call_type(), ToolCallType::Function);
        assert_eq!(calls[0].function.name, "read_file");
        assert_eq!(calls[0].function.arguments, "{\"path\":\"README.md\"}");
        assert_eq!(calls[1].function.name, "list_dir");
        // `None` content is written as an explicit `null`, never skipped.
        let json = to_json(&message);
        assert_eq!(json.get("content"), Some(&Value::Null));
    }

    fn assistant_message_with_text_round_trips() {
        let message: UniversalMessage = golden(
            "message_assistant_text",
            include_str!("../golden/agent_core/message_assistant_text.json"),
        );
        assert_eq!(message.id(), "msg-assistant-2");
        assert_eq!(message.content(), Some("Two animals."));
        assert_eq!(message.parts().map(<[_]>::len), Some(1));
        let UniversalMessage::Assistant(assistant) = &message else {
            panic!("expected an assistant message, got {message:?}");
        };
        assert_eq!(assistant.tool_calls, None);
    }

    fn system_message_round_trips() {
        let message: UniversalMessage =
            golden("message_system", include_str!("../golden/agent_core/message_system.json"));
        assert_eq!(message.role(), MessageRole::System);
        assert_eq!(message.timestamp(), "2026-09-24T00:00:00.000Z");
        assert_eq!(message.content(), Some("You are a careful assistant."));
        let UniversalMessage::System(system) = &message else {
            panic!("expected a system message, got {message:?}");
        };
        assert_eq!(system.name.as_deref(), Some("policy"));
        assert_eq!(system.parts, None);
        assert_eq!(message.metadata(), None);
    }

    fn tool_message_round_trips() {
        let message: UniversalMessage =
            golden("message_tool", include_str!("../golden/agent_core/message_tool.json"));
        assert_eq!(message.role(), MessageRole::Tool);
        let UniversalMessage::Tool(tool) = &message else {
            panic!("expected a tool message, got {message:?}");
        };
        assert_eq!(tool.tool_call_id, "call-1");
        assert_eq!(tool.name.as_deref(), Some("read_file"));
        assert_eq!(tool.content, "# README");
        assert_eq!(tool.base.id, "msg-tool-1");
    }

    fn message_built_in_rust_encodes_with_role_first_class_fields() {
        let mut message = UniversalMessage::tool("t", "2026-01-01T00:00:00.000Z", "c", "ok");
        message.base_mut().state = MessageState::Interrupted;
        let json = to_json(&message);
        let expected = serde_json::json!({
            "role": "tool",
            "id": "t",
            "timestamp": "2026-01-01T00:00:00.000Z",
            "state": "interrupted",
            "content": "ok",
            "toolCallId": "c"
        });
        assert_eq!(json, expected);
    }

    fn history_entry_with_data_round_trips() {
        let entry: HistoryEntry = golden(
            "history_entry_with_data",
            include_str!("../golden/agent_core/history_entry_with_data.json"),
        );
        assert_eq!(entry.id, "canonical");
        assert_eq!(entry.timestamp, "2026-09-24T00:01:00.000Z");
        assert_eq!(entry.category, "event");
        assert_eq!(entry.kind, "usage-observation");
        assert!(!entry.is_chat());
        let data = entry.data.as_ref().expect("data");
        assert_eq!(data.pointer("/usage/promptTokens"), Some(&Value::from(7)));
    }

    fn history_entry_without_data_round_trips() {
        let entry: HistoryEntry = golden(
            "history_entry_without_data",
            include_str!("../golden/agent_core/history_entry_without_data.json"),
        );
        assert_eq!(entry.kind, "user");
        assert!(entry.is_chat());
        assert_eq!(entry.data, None);
        assert!(to_json(&entry).get("data").is_none());
    }

    fn history_entry_keeps_a_null_payload() {
        let text = r#"{"id":"n","timestamp":"t","category":"event","type":"x","data":null}"#;
        let entry: HistoryEntry = golden("history_entry_null_data", text);
        assert_eq!(entry.data, Some(Value::Null));
    }

    fn history_entry_with_a_typed_payload_decodes() {
        let text = include_str!("../golden/agent_core/history_entry_with_data.json");
        let typed: HistoryEntry<TypedPayload> = serde_json::from_str(text).expect("decodes");
        let data = typed.data.expect("data");
        assert_eq!(data.turn_id, "turn-1");
        assert_eq!(data.usage.total_tokens, 9);
        assert_eq!(data.usage.completion_tokens, 2);
    }

    fn tool_schema_round_trips_with_extra_keywords() {
        let schema: ToolSchema =
            golden("tool_schema", include_str!("../golden/agent_core/tool_schema.json"));
        assert_eq!(schema.name, "read_file");
        assert_eq!(schema.description, "Read a file from the workspace.");
        assert_eq!(schema.parameters.kind(), JsonSchemaKind::Object);
        let keys: Vec<&str> = schema.parameters.properties.keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 3);
        assert!(keys.contains(&"path") && keys.contains(&"limit") && keys.contains(&"mode"));
        assert_eq!(schema.parameters.required, Some(vec![String::from("path")]));
        assert_eq!(schema.parameters.extra.get("additionalProperties"), Some(&Value::Bool(false)));
        assert_eq!(
            schema.parameters.extra.get("description"),
            Some(&Value::from("Arguments of read_file."))
        );
        assert!(!schema.parameters.extra.contains_key("type"));
        assert_eq!(schema.output_schema, Some(serde_json::json!({ "type": "string" })));
        assert_eq!(schema.defer_loading, Some(true));
    }

    fn object_schema_does_not_write_owned_keys_twice() {
        let mut extra = ValueMap::new();
        extra.insert(String::from("type"), Value::from("string"));
        extra.insert(String::from("title"), Value::from("Args"));
        let mut schema = ObjectParameterSchema::new(ValueMap::new());
        schema.extra = extra;
        let json = to_json(&schema);
        assert_eq!(json, serde_json::json!({ "type": "object", "properties": {}, "title": "Args" }));
    }

    fn tool_execution_result_round_trips() {
        let result: ToolExecutionResult = golden(
            "tool_execution_result",
            include_str!("../golden/agent_core/tool_execution_result.json"),
        );
        assert!(!result.success);
        assert_eq!(result.tool_name.as_deref(), Some("read_file"));
        assert_eq!(result.error.as_deref(), Some("file is larger than the limit"));
        assert_eq!(result.duration, Some(12.5));
        assert_eq!(result.execution_id.as_deref(), Some("call-1"));
        let value = result.result.as_ref().expect("result");
        assert_eq!(value.pointer("/bytes"), Some(&Value::from(12)));
        let metadata = result.metadata.as_ref().expect("metadata");
        assert_eq!(metadata.get("attempts"), Some(&Value::from(3)));
    }

    fn tool_execution_result_minimal_and_null_result() {
        let minimal: ToolExecutionResult = golden("tool_result_minimal", r#"{"success":true}"#);
        assert!(minimal.success);
        assert_eq!(minimal.result, None);
        let null: ToolExecutionResult =
            golden("tool_result_null", r#"{"success":true,"result":null}"#);
        assert_eq!(null.result, Some(Value::Null));
    }

    fn context_window_round_trips() {
        let state: ContextWindowState =
            golden("context_window", include_str!("../golden/agent_core/context_window.json"));
        assert_eq!(state.max_tokens, 200_000);
        assert_eq!(state.used_tokens, 50_000);
        assert_eq!(state.used_percentage, 25.0);
        assert_eq!(state.remaining_percentage, 75.0);
    }

    fn action_request_with_every_field_round_trips() {
        let request: ActionRequest = golden(
            "action_request_full",
            include_str!("../golden/agent_core/action_request_full.json"),
        );
        assert_eq!(request.id, "ask-1");
        assert_eq!(request.description.as_deref(), Some("Pick one or more."));
        let options = request.options.as_deref().expect("options");
        assert_eq!(options.len(), 2);
        assert_eq!(options[0].value, "a.rs");
        assert_eq!(options[0].description.as_deref(), Some("modified"));
        assert_eq!(options[1].label, "src/b.rs");
        assert_eq!(options[1].description, None);
        assert_eq!(request.min_select, Some(0));
        assert_eq!(request.max_select, Some(2));
        assert_eq!(request.effective_min_select(), 0);
        assert_eq!(request.effective_max_select(), 2);
        assert_eq!(request.allow_free_text, Some(true));
        assert_eq!(request.masked, Some(false));
        assert_eq!(request.allow_empty, Some(true));
        assert_eq!(request.placeholder.as_deref(), Some("or type a path"));
        assert_eq!(request.max_visible, Some(8));
        let default = request.default.as_ref().expect("default");
        assert_eq!(default.values, Some(vec![String::from("a.rs")]));
        assert_eq!(default.text.as_deref(), Some("c.rs"));
    }

    fn minimal_action_request_round_trips() {
        let request: ActionRequest = golden(
            "action_request_minimal",
            include_str!("../golden/agent_core/action_request_minimal.json"),
        );
        assert_eq!(request.id, "r");
        assert_eq!(request.title, "Pick");
        assert_eq!(request.options, None);
        assert_eq!(request.default, None);
        assert_eq!(request.effective_min_select(), ActionRequest::DEFAULT_MIN_SELECT);
        assert_eq!(request.effective_max_select(), 1);
    }

    fn answer_response_round_trips() {
        let response: ActionResponse = golden(
            "action_response_answer",
            include_str!("../golden/agent_core/action_response_answer.json"),
        );
        assert_eq!(
            response,
            ActionResponse::Answer {
                values: vec![String::from("a.rs"), String::from("b.rs")],
                text: Some(String::from("c.rs")),
            }
        );
        let bare: ActionResponse = golden("answer_bare", r#"{"type":"answer","values":[]}"#);
        assert_eq!(bare, ActionResponse::Answer { values: Vec::new(), text: None });
    }

    fn cancelled_response_round_trips() {
        let response: ActionResponse = golden(
            "action_response_cancelled",
            include_str!("../golden/agent_core/action_response_cancelled.json"),
        );
        assert_eq!(response, ActionResponse::Cancelled);
    }

    fn token_usage_round_trips() {
        let usage: SessionUsageTotals =
            golden("token_usage", include_str!("../golden/agent_core/token_usage.json"));
        assert_eq!(
            usage,
            TokenUsage::new(7646, 10, 7656)
        );
    }

    fn destroy_result_round_trips() {
        let result: DestroyResult =
            golden("destroy_result", include_str!("../golden/agent_core/destroy_result.json"));
        assert!(!result.is_clean());
        assert_eq!(result.errors.len(), 2);
        assert_eq!(result.errors[0], ErrorValue::from_message("socket already closed"));
        assert_eq!(result.errors[1].name, "TypeError");
        assert_eq!(result.errors[1].message, "adapter.stop is not a function");
        assert!(result.errors[1].stack.as_deref().is_some_and(|s| s.ends_with("at stopAll")));
        assert!(DestroyResult::default().is_clean());
    }

    fn error_value_prints_like_javascript() {
        let error = ErrorValue::new("TypeError", "x is not a function");
        assert_eq!(alloc::format!("{error}"), "TypeError: x is not a function");
        assert_eq!(alloc::format!("{}", ErrorValue::new("", "only message")), "only message");
        assert_eq!(alloc::format!("{}", ErrorValue::new("RangeError", "")), "RangeError");
        let boxed: alloc::boxed::Box<dyn core::error::Error> = alloc::boxed::Box::new(error);
        assert_eq!(alloc::format!("{boxed}"), "TypeError: x is not a function");
    }

    fn literal_sets_round_trip() {
        literal_round_trip!(MessageRole);
        literal_round_trip!(MessageState);
        literal_round_trip!(ToolCallType);
        literal_round_trip!(JsonSchemaKind);
        literal_round_trip!(ModelEffort);
        literal_round_trip!(ModelEffortSelection);
        literal_round_trip!(PermissionMode);
        literal_round_trip!(SessionEndReason);
        literal_round_trip!(BackgroundPermissionPolicy);
        literal_round_trip!(PeerReach);
    }

    fn literal_sets_hold_the_contract_spelling() {
        assert_eq!(
            ModelEffort::LITERALS,
            &["none", "minimal", "low", "medium", "high", "xhigh", "max"]
        );
        assert_eq!(PermissionMode::AcceptEdits.as_str(), "acceptEdits");
        assert_eq!(PermissionMode::BypassPermissions.as_str(), "bypassPermissions");
        assert_eq!(SessionEndReason::PromptInputExit.as_str(), "prompt_input_exit");
        assert_eq!(
            SessionEndReason::BypassPermissionsDisabled.as_str(),
            "bypass_permissions_disabled"
        );
        assert_eq!(BackgroundPermissionPolicy::InheritAllowlist.as_str(), "inherit-allowlist");
        assert_eq!(PeerReach::AnotherHost.as_str(), "another-host");
        assert_eq!(MessageRole::LITERALS, &["user", "assistant", "system", "tool"]);
    }

    fn model_effort_selection_is_auto_or_an_effort() {
        assert_eq!(ModelEffortSelection::LITERALS[0], "auto");
        assert_eq!(&ModelEffortSelection::LITERALS[1..], ModelEffort::LITERALS);
        assert_eq!(ModelEffortSelection::default(), ModelEffortSelection::Auto);
        assert_eq!(ModelEffortSelection::Auto.effort(), None);
        let high = ModelEffortSelection::from(ModelEffort::High);
        assert_eq!(high.effort(), Some(ModelEffort::High));
        assert_eq!(to_json(&high), Value::from("high"));
        let auto: ModelEffortSelection = serde_json::from_str("\"auto\"").expect("decodes");
        assert_eq!(auto, ModelEffortSelection::Auto);
        let xhigh: ModelEffortSelection = serde_json::from_str("\"xhigh\"").expect("decodes");
        assert_eq!(xhigh, ModelEffortSelection::Effort(ModelEffort::Xhigh));
    }

    fn rejects_unknown_role() {
        rejects::<UniversalMessage>(
            r#"{"role":"robot","id":"m","timestamp":"t","state":"complete","content":"hi"}"#,
            "unknown variant `robot`",
        );
    }

    fn rejects_unknown_part_type() {
        rejects::<UniversalMessagePart>(r#"{"type":"audio_inline","data":"AA=="}"#, "unknown variant");
        rejects::<UniversalMessage>(
            r#"{"role":"user","id":"m","timestamp":"t","state":"complete","content":"hi",
                "parts":[{"type":"video","uri":"u"}]}"#,
            "unknown variant `video`",
        );
    }

    fn rejects_tool_call_type_other_than_function() {
        rejects::<ToolCall>(
            r#"{"id":"c","type":"method","function":{"name":"f","arguments":"{}"}}"#,
            "unknown variant `method`",
        );
        rejects::<ToolCall>(r#"{"id":"c","function":{"name":"f","arguments":"{}"}}"#, "type");
    }

    fn rejects_assistant_message_without_content_key() {
        rejects::<UniversalMessage>(
            r#"{"role":"assistant","id":"m","timestamp":"t","state":"complete"}"#,
            "missing field `content`",
        );
    }

    fn rejects_unknown_message_state() {
        rejects::<UniversalMessage>(
            r#"{"role":"user","id":"m","timestamp":"t","state":"partial","content":"hi"}"#,
            "unknown variant `partial`",
        );
    }

    fn rejects_history_entry_without_category() {
        rejects::<HistoryEntry>(r#"{"id":"e","timestamp":"t","type":"x"}"#, "category");
    }

    fn rejects_message_without_timestamp() {
        rejects::<UniversalMessage>(
            r#"{"role":"system","id":"m","state":"complete","content":"hi"}"#,
            "timestamp",
        );
    }

    fn rejects_parameters_schema_that_is_not_an_object() {
        rejects::<ToolSchema>(
            r#"{"name":"n","description":"d","parameters":{"type":"string","properties":{}}}"#,
            "must have type `object`",
        );
        rejects::<ToolSchema>(
            r#"{"name":"n","description":"d","parameters":{"type":"object"}}"#,
            "properties",
        );
    }

    fn rejects_wrong_model_effort() {
        rejects::<ModelEffort>("\"xhigher\"", "unknown variant `xhigher`");
    }

    fn rejects_wrong_model_effort_selection() {
        rejects::<ModelEffortSelection>("\"Auto\"", "unknown variant `Auto`");
        rejects::<ModelEffortSelection>("\"default\"", "unknown variant");
    }

    fn rejects_wrong_permission_mode() {
        rejects::<PermissionMode>("\"accept_edits\"", "unknown variant `accept_edits`");
    }

    fn rejects_wrong_session_end_reason() {
        rejects::<SessionEndReason>("\"prompt-input-exit\"", "unknown variant");
    }

    fn rejects_wrong_background_permission_policy() {
        rejects::<BackgroundPermissionPolicy>("\"inherit_allowlist\"", "unknown variant");
    }

    fn rejects_wrong_peer_reach() {
        rejects::<PeerReach>("\"same_host\"", "unknown variant `same_host`");
    }

    fn rejects_wrong_message_role_and_schema_kind_literals() {
        rejects::<MessageRole>("\"User\"", "unknown variant `User`");
        rejects::<JsonSchemaKind>("\"float\"", "unknown variant `float`");
        rejects::<ToolCallType>("\"Function\"", "unknown variant `Function`");
    }

    fn rejects_action_response_with_unknown_type() {
        rejects::<ActionResponse>(r#"{"type":"maybe"}"#, "unknown variant `maybe`");
        rejects::<ActionResponse>(r#"{"type":"answer"}"#, "values");
    }

    fn rejects_negative_max_select() {
        rejects::<ActionRequest>(r#"{"id":"r","title":"t","maxSelect":-1}"#, "invalid value");
        rejects::<ActionRequest>(r#"{"id":"r","title":"t","minSelect":1.5}"#, "invalid type");
    }

    fn rejects_negative_token_count() {
        rejects::<TokenUsage>(
            r#"{"promptTokens":-1,"completionTokens":0,"totalTokens":0}"#,
            "invalid value",
        );
    }
}

/// A typed history payload, to show that `HistoryEntry<T>` decodes a record other than `Value`.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct TypedPayload {
    turn_id: String,
    usage: TokenUsage,
}

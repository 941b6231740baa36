//! Cases of reconciling interrupted tool calls, in four parts: `wire` (literal sets, golden JSON
//! of orphans, reports and synthetic results, refused documents), `orphans` (both directions,
//! first-appearance order, the suspended batch, typed refusals of ambiguous transcripts),
//! `closing` (the started-set distinction, texts tuned by effect, metadata, entry ids, the
//! instant, idempotence) and `properties` (seeded random transcripts against a reference model).
//! Uses only `core`, `alloc`, serde_json and the crate, so it also runs on the firmware and wasm.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use agent_interface::agent_core::{
    AssistantMessage, MessageState, ToolCall, ToolCallFunction, ToolMessage, UniversalMessage,
    Value, ValueMap,
};
use agent_interface::runtime::reconcile::{
    CallOrphan, OrphanToolCall, ReconcileError, ReconcileInputs, ReconcileReport,
    ReconciledErrorKind, Reconciliation, RecoveredOrphan, ResultOrphan, ToolCallIds, ToolEffect,
    ToolEffects, TranscriptError, find_orphan_tool_calls, interrupted_text,
    reconcile_interrupted_session, reconciled_error_kind,
};

use crate::support::{decode, golden, json_eq, rejects, s, to_json};

#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

// ---- golden files ----------------------------------------------------------------------

const TRANSCRIPT: &str = include_str!("../golden/reconcile/transcript_interrupted.json");
const TRANSCRIPT_DUPLICATES: &str =
    include_str!("../golden/reconcile/transcript_duplicate_call_ids.json");
const ORPHANS: &str = include_str!("../golden/reconcile/orphans.json");
const REPORT: &str = include_str!("../golden/reconcile/report.json");
const RESULTS: &str = include_str!("../golden/reconcile/synthetic_results.json");

/// 2026-05-01T12:00:00.000Z.
const NOW: u64 = 1_777_636_800_000;

// ---- building transcripts --------------------------------------------------------------

const AT: &str = "2026-05-01T11:00:00.000Z";

fn user(id: &str) -> UniversalMessage {
    UniversalMessage::user(id, AT, "go on")
}

fn system(id: &str) -> UniversalMessage {
    UniversalMessage::system(id, AT, "be careful")
}

/// An assistant message with `(call id, tool name)` calls (`None` calls when the list is empty).
fn assistant(id: &str, calls: &[(&str, &str)]) -> UniversalMessage {
    let tool_calls = calls
        .iter()
        .map(|(call, tool)| ToolCall::new(*call, ToolCallFunction::new(*tool, "{}")))
        .collect::<Vec<_>>();
    let message = AssistantMessage::new(id, AT, None);
    if tool_calls.is_empty() {
        message.into()
    } else {
        message.with_tool_calls(tool_calls).into()
    }
}

fn tool(id: &str, call: &str, name: Option<&str>) -> UniversalMessage {
    let message = ToolMessage::new(id, AT, call, "done");
    match name {
        Some(name) => message.with_name(name).into(),
        None => message.into(),
    }
}

fn call_orphan(call: &str, tool: &str) -> OrphanToolCall {
    OrphanToolCall::Call(CallOrphan {
        tool_call_id: s(call),
        tool_name: s(tool),
    })
}

fn result_orphan(call: &str, tool: Option<&str>) -> OrphanToolCall {
    OrphanToolCall::Result(ResultOrphan {
        tool_call_id: s(call),
        tool_name: tool.map(s),
    })
}

fn find(messages: &[UniversalMessage]) -> Vec<OrphanToolCall> {
    match find_orphan_tool_calls(messages, None) {
        Ok(orphans) => orphans,
        Err(error) => panic!("unexpected refusal: {error}"),
    }
}

fn find_err(messages: &[UniversalMessage]) -> TranscriptError {
    match find_orphan_tool_calls(messages, None) {
        Ok(orphans) => panic!("expected a refusal, found {orphans:?}"),
        Err(error) => error,
    }
}

/// Reconciles with ids `r1`, `r2`, … and `now` = [`NOW`].
fn reconcile(messages: &[UniversalMessage], inputs: &ReconcileInputs<'_>) -> Reconciliation {
    let mut next = 0;
    let minted = reconcile_interrupted_session(messages, inputs, NOW, |_| {
        next += 1;
        format!("r{next}")
    });
    match minted {
        Ok(reconciliation) => reconciliation,
        Err(error) => panic!("unexpected refusal: {error}"),
    }
}

fn reconcile_err(
    messages: &[UniversalMessage],
    now: u64,
    mint: impl FnMut(&CallOrphan) -> String,
) -> ReconcileError {
    match reconcile_interrupted_session(messages, &ReconcileInputs::new(), now, mint) {
        Ok(reconciliation) => panic!("expected a refusal, got {reconciliation:?}"),
        Err(error) => error,
    }
}

/// The transcript with the reconciliation's results appended.
fn appended(
    messages: &[UniversalMessage],
    reconciliation: &Reconciliation,
) -> Vec<UniversalMessage> {
    let mut out = messages.to_vec();
    out.extend(
        reconciliation
            .append()
            .iter()
            .cloned()
            .map(UniversalMessage::Tool),
    );
    out
}

/// The golden scenario's inputs: effects known for four tools (`deploy` is unknown), the
/// `ask_user` call suspended, every call but `call_later` observed starting.
struct Scenario {
    effects: BTreeMap<String, ToolEffect>,
    suspended: Vec<&'static str>,
    started: BTreeSet<&'static str>,
}

fn scenario() -> Scenario {
    Scenario {
        effects: decode(&serde_json::json!({
            "read_file": "read",
            "list_dir": "read",
            "format_code": "idempotent",
            "write_file": "write",
            "ask_user": "read"
        })),
        suspended: vec!["call_wait"],
        started: [
            "call_read",
            "call_list",
            "call_fmt",
            "call_write",
            "call_deploy",
        ]
        .into_iter()
        .collect(),
    }
}

impl Scenario {
    fn inputs(&self) -> ReconcileInputs<'_> {
        ReconcileInputs::new()
            .with_tool_effects(&self.effects)
            .with_suspended_batch(&self.suspended)
            .with_started_tool_call_ids(&self.started)
    }
}

fn transcript() -> Vec<UniversalMessage> {
    golden("transcript_interrupted", TRANSCRIPT)
}

fn metadata_of(message: &ToolMessage) -> &ValueMap {
    match &message.base.metadata {
        Some(metadata) => metadata,
        None => panic!("a synthetic result has metadata: {message:?}"),
    }
}

cases! {
    mod wire {
        fn literal_sets_round_trip() {
            literal_round_trip!(ToolEffect);
            literal_round_trip!(ReconciledErrorKind);
            assert_eq!(ToolEffect::LITERALS, ["read", "idempotent", "write"]);
            assert_eq!(
                ReconciledErrorKind::LITERALS,
                ["interrupted_never_started", "interrupted_outcome_unknown"]
            );
        }

        fn literal_sets_refuse_other_strings() {
            rejects::<ToolEffect>("\"delete\"", "unknown variant `delete`");
            rejects::<ToolEffect>("\"Read\"", "unknown variant `Read`");
            rejects::<ReconciledErrorKind>("\"interrupted\"", "unknown variant");
            rejects::<ReconciledErrorKind>("1", "invalid type");
        }

        fn orphans_golden() {
            let orphans: Vec<OrphanToolCall> = golden("orphans", ORPHANS);
            assert_eq!(
                orphans,
                [
                    call_orphan("call_list", "list_dir"),
                    call_orphan("call_fmt", "format_code"),
                    result_orphan("call_gone", Some("grep")),
                    call_orphan("call_write", "write_file"),
                    call_orphan("call_deploy", "deploy"),
                    call_orphan("call_later", "write_file"),
                    result_orphan("call_old", None),
                ]
            );
            // A call-orphan carries no `kind`; a result-orphan `"result"`.
            let json = to_json(&orphans);
            assert_eq!(json[0].get("kind"), None);
            assert_eq!(json[2]["kind"], "result");
            assert_eq!(json[6].get("toolName"), None);
        }

        fn report_golden() {
            let report: ReconcileReport = golden("report", REPORT);
            assert_eq!(report.recovered.len(), 5);
            assert_eq!(report.recovered[0].entry_id, "r1");
            assert_eq!(
                report.recovered[4].error_kind,
                ReconciledErrorKind::InterruptedNeverStarted
            );
            assert_eq!(to_json(&report.recovered[0]).get("kind"), None);
            assert!(golden::<ReconcileReport>("empty", r#"{"recovered": []}"#).is_empty());
        }

        fn synthetic_results_golden() {
            let results: Vec<UniversalMessage> = golden("synthetic_results", RESULTS);
            let report: ReconcileReport = golden("report", REPORT);
            assert_eq!(results.len(), report.recovered.len());
            for (message, recovered) in results.iter().zip(&report.recovered) {
                let UniversalMessage::Tool(result) = message else {
                    panic!("a synthetic result is a tool message: {message:?}");
                };
                assert_eq!(result.base.id, recovered.entry_id);
                assert_eq!(result.tool_call_id, recovered.tool_call_id);
                assert_eq!(result.content, recovered.text);
                assert_eq!(reconciled_error_kind(result), Some(recovered.error_kind));
                assert_eq!(result.base.timestamp, "2026-05-01T12:00:00.000Z");
            }
        }

        fn orphan_documents_are_refused() {
            // `kind` knows only "result"; a call-orphan is written without it.
            rejects::<OrphanToolCall>(
                r#"{"toolCallId": "c", "toolName": "t", "kind": "call"}"#,
                "unknown variant `call`",
            );
            rejects::<OrphanToolCall>(r#"{"toolCallId": "c"}"#, "must name its tool");
            rejects::<OrphanToolCall>(
                r#"{"toolCallId": "c", "toolName": "t", "entryId": "e"}"#,
                "unknown field `entryId`",
            );
            rejects::<OrphanToolCall>(r#"{"toolCallId": 7, "toolName": "t"}"#, "invalid type");
            rejects::<OrphanToolCall>(r#"{"toolName": "t"}"#, "missing field `toolCallId`");
            rejects::<CallOrphan>(
                r#"{"toolCallId": "c", "toolName": "t", "kind": "result"}"#,
                "unknown field `kind`",
            );
            rejects::<ResultOrphan>(r#"{"toolCallId": "c"}"#, "kind: \"result\"");
            let result: ResultOrphan = decode(&serde_json::json!({
                "toolCallId": "c", "kind": "result"
            }));
            assert_eq!(result.tool_name, None);
            let call: CallOrphan = decode(&serde_json::json!({"toolCallId": "c", "toolName": "t"}));
            assert_eq!(OrphanToolCall::from(call), call_orphan("c", "t"));
        }

        fn report_documents_are_refused() {
            let good = r#"{"toolCallId": "c", "toolName": "t", "entryId": "e", "text": "x",
                "errorKind": "interrupted_outcome_unknown"}"#;
            assert_eq!(
                golden::<RecoveredOrphan>("recovered", good).orphan(),
                CallOrphan {
                    tool_call_id: s("c"),
                    tool_name: s("t")
                }
            );
            rejects::<RecoveredOrphan>(
                &good.replace("\"text\"", "\"kind\": \"result\", \"text\""),
                "unknown field `kind`",
            );
            rejects::<RecoveredOrphan>(
                &good.replace("\"interrupted_outcome_unknown\"", "3"),
                "invalid type",
            );
            rejects::<RecoveredOrphan>(
                &good.replace("interrupted_outcome_unknown", "interrupted"),
                "unknown variant `interrupted`",
            );
            rejects::<RecoveredOrphan>(
                &good.replace("\"entryId\": \"e\",", ""),
                "missing field `entryId`",
            );
            rejects::<RecoveredOrphan>(
                &good.replace("\"text\"", "\"body\""),
                "unknown field `body`",
            );
            rejects::<ReconcileReport>("{}", "missing field `recovered`");
            rejects::<ReconcileReport>(
                r#"{"recovered": [], "unrepaired": []}"#,
                "unknown field `unrepaired`",
            );
            rejects::<ReconcileReport>(r#"{"recovered": {}}"#, "invalid type");
        }

        fn every_wire_form_refuses_a_repeated_member() {
            rejects::<CallOrphan>(
                r#"{"toolCallId": "c", "toolName": "a", "toolName": "b"}"#,
                "duplicate field `toolName`",
            );
            rejects::<OrphanToolCall>(
                r#"{"toolCallId": "c", "toolCallId": "d", "toolName": "t"}"#,
                "duplicate field `toolCallId`",
            );
            rejects::<OrphanToolCall>(
                r#"{"toolCallId": "c", "kind": "result", "kind": "result"}"#,
                "duplicate field `kind`",
            );
            rejects::<ResultOrphan>(
                r#"{"toolCallId": "c", "toolName": "a", "toolName": "b", "kind": "result"}"#,
                "duplicate field `toolName`",
            );
            let good = r#"{"toolCallId": "c", "toolName": "t", "entryId": "e", "text": "x",
                "errorKind": "interrupted_outcome_unknown"}"#;
            for (name, value) in [
                ("toolCallId", "d"),
                ("toolName", "u"),
                ("entryId", "f"),
                ("text", "y"),
                ("errorKind", "interrupted_never_started"),
            ] {
                let repeated = good.replacen('{', &format!(r#"{{"{name}": "{value}", "#), 1);
                rejects::<RecoveredOrphan>(&repeated, &format!("duplicate field `{name}`"));
                rejects::<ReconcileReport>(
                    &format!(r#"{{"recovered": [{repeated}]}}"#),
                    &format!("duplicate field `{name}`"),
                );
            }
            rejects::<ReconcileReport>(
                r#"{"recovered": [], "recovered": []}"#,
                "duplicate field `recovered`",
            );
        }

        fn tool_effect_tables_decode_and_refuse() {
            let effects: BTreeMap<String, ToolEffect> =
                decode(&serde_json::json!({"read_file": "read", "deploy": "write"}));
            assert_eq!(effects.effect_of("read_file"), Some(ToolEffect::Read));
            assert_eq!(effects.effect_of("READ_FILE"), None);
            rejects::<BTreeMap<String, ToolEffect>>(
                r#"{"rm": "destructive"}"#,
                "unknown variant `destructive`",
            );
        }
    }

    mod orphans {
        fn empty_and_clean_transcripts_have_no_orphans() {
            assert!(find(&[]).is_empty());
            let clean = [
                system("e0"),
                user("e1"),
                assistant("e2", &[("c1", "read_file"), ("c2", "write_file")]),
                tool("e3", "c2", Some("write_file")),
                tool("e4", "c1", None),
                assistant("e5", &[]),
                user("e6"),
            ];
            assert!(find(&clean).is_empty());
        }

        fn both_directions_in_first_appearance_order() {
            let messages = transcript();
            let orphans = find(&messages);
            let expected: Vec<OrphanToolCall> =
                decode(&serde_json::from_str(ORPHANS).expect("json"));
            // Without the suspended batch `call_wait` is an orphan too, at its call's position.
            let mut with_wait = expected.clone();
            with_wait.insert(6, call_orphan("call_wait", "ask_user"));
            assert_eq!(orphans, with_wait);
            let suspended = ["call_wait"];
            assert_eq!(
                find_orphan_tool_calls(&messages, Some(&suspended)).expect("valid"),
                expected
            );
        }

        fn order_follows_first_appearance_not_ids() {
            let messages = [
                tool("e0", "z-stray", None),
                assistant("e1", &[("m", "t"), ("a", "t")]),
                tool("e2", "b-stray", Some("t")),
                assistant("e3", &[("b", "t")]),
            ];
            let orphans = find(&messages);
            let ids: Vec<&str> = orphans.iter().map(OrphanToolCall::tool_call_id).collect();
            assert_eq!(ids, ["z-stray", "m", "a", "b-stray", "b"]);
        }

        fn a_result_answers_its_call_wherever_it_follows() {
            let messages = [
                assistant("e1", &[("a", "t"), ("b", "t")]),
                user("e2"),
                assistant("e3", &[("c", "t")]),
                tool("e4", "c", None),
                tool("e5", "a", None),
            ];
            assert_eq!(find(&messages), [call_orphan("b", "t")]);
        }

        fn the_suspended_batch_is_never_an_orphan() {
            let messages = [
                assistant("e1", &[("a", "t"), ("b", "t"), ("c", "t")]),
                tool("e2", "b", None),
                tool("e3", "stray", None),
            ];
            let batch: BTreeSet<String> = [s("a"), s("b"), s("stray")].into_iter().collect();
            // `a` is suspended, `b` answered anyway; a stray result is not a call, so the batch
            // does not hide it.
            assert_eq!(
                find_orphan_tool_calls(&messages, Some(&batch)).expect("valid"),
                [call_orphan("c", "t"), result_orphan("stray", None)]
            );
            assert_eq!(
                find(&messages),
                [
                    call_orphan("a", "t"),
                    call_orphan("c", "t"),
                    result_orphan("stray", None)
                ]
            );
        }

        fn orphan_accessors() {
            let call = call_orphan("c", "t");
            assert!(call.is_call());
            assert_eq!((call.tool_call_id(), call.tool_name()), ("c", Some("t")));
            assert_eq!(call.as_call().map(|c| c.tool_name.as_str()), Some("t"));
            assert_eq!(call.as_result(), None);
            let result = result_orphan("r", None);
            assert!(!result.is_call());
            assert_eq!((result.tool_call_id(), result.tool_name()), ("r", None));
            assert_eq!(result.as_call(), None);
            assert!(result.as_result().is_some());
        }

        fn id_sets_and_effect_tables_of_every_shape() {
            let owned: BTreeSet<String> = [s("a")].into_iter().collect();
            let borrowed: BTreeSet<&str> = ["a"].into_iter().collect();
            let list = vec![s("a")];
            let array = ["a"];
            let sets: [&dyn ToolCallIds; 4] = [&owned, &borrowed, &list, &array];
            for set in sets {
                assert!(set.contains_tool_call_id("a"));
                assert!(!set.contains_tool_call_id("A"));
                assert!(!set.contains_tool_call_id(""));
            }
            assert!(["x", "a"][..].contains_tool_call_id("a"));
            let map: BTreeMap<&str, ToolEffect> =
                [("grep", ToolEffect::Read)].into_iter().collect();
            let pairs = vec![
                (s("grep"), ToolEffect::Read),
                (s("grep"), ToolEffect::Write),
            ];
            let array = [("grep", ToolEffect::Read)];
            let tables: [&dyn ToolEffects; 3] = [&map, &pairs, &array];
            for table in tables {
                assert_eq!(table.effect_of("grep"), Some(ToolEffect::Read));
                assert_eq!(table.effect_of("sed"), None);
            }
        }

        fn duplicate_call_ids_are_refused() {
            let across = [
                assistant("e1", &[("c1", "t")]),
                tool("e2", "c1", None),
                assistant("e3", &[("c1", "t")]),
            ];
            assert_eq!(
                find_err(&across),
                TranscriptError::DuplicateToolCall {
                    tool_call_id: s("c1"),
                    first_entry_id: s("e1"),
                    second_entry_id: s("e3"),
                }
            );
            let within = [assistant("e1", &[("c1", "t"), ("c1", "u")])];
            assert_eq!(
                find_err(&within),
                TranscriptError::DuplicateToolCall {
                    tool_call_id: s("c1"),
                    first_entry_id: s("e1"),
                    second_entry_id: s("e1"),
                }
            );
        }

        fn the_golden_transcript_with_duplicate_call_ids_is_refused() {
            let messages: Vec<UniversalMessage> =
                golden("transcript_duplicate_call_ids", TRANSCRIPT_DUPLICATES);
            let error = find_err(&messages);
            assert_eq!(
                error,
                TranscriptError::DuplicateToolCall {
                    tool_call_id: s("call_1"),
                    first_entry_id: s("e2"),
                    second_entry_id: s("e3"),
                }
            );
            assert_eq!(error.tool_call_id(), "call_1");
            // Reconciling refuses it too, proposes nothing and never asks for an id.
            let mut asked = 0;
            let refused =
                reconcile_interrupted_session(&messages, &ReconcileInputs::new(), NOW, |_| {
                    asked += 1;
                    s("x")
                });
            assert_eq!(refused, Err(ReconcileError::Transcript(error)));
            assert_eq!(asked, 0);
        }

        fn duplicate_results_are_refused() {
            let answered_twice = [
                assistant("e1", &[("c1", "t")]),
                tool("e2", "c1", None),
                tool("e3", "c1", None),
            ];
            assert_eq!(
                find_err(&answered_twice),
                TranscriptError::DuplicateToolResult {
                    tool_call_id: s("c1"),
                    first_entry_id: s("e2"),
                    second_entry_id: s("e3"),
                }
            );
            let stray_twice = [tool("e1", "x", None), user("e2"), tool("e3", "x", None)];
            assert_eq!(
                find_err(&stray_twice),
                TranscriptError::DuplicateToolResult {
                    tool_call_id: s("x"),
                    first_entry_id: s("e1"),
                    second_entry_id: s("e3"),
                }
            );
        }

        fn a_result_before_its_call_is_refused() {
            let messages = [tool("e1", "c1", None), assistant("e2", &[("c1", "t")])];
            assert_eq!(
                find_err(&messages),
                TranscriptError::ResultBeforeCall {
                    tool_call_id: s("c1"),
                    result_entry_id: s("e1"),
                    call_entry_id: s("e2"),
                }
            );
        }

        fn transcript_errors_say_what_and_where() {
            let cases = [
                (
                    TranscriptError::DuplicateToolCall {
                        tool_call_id: s("c1"),
                        first_entry_id: s("e1"),
                        second_entry_id: s("e3"),
                    },
                    "tool call id `c1` is used by two calls (entries `e1` and `e3`)",
                ),
                (
                    TranscriptError::DuplicateToolResult {
                        tool_call_id: s("c1"),
                        first_entry_id: s("e2"),
                        second_entry_id: s("e3"),
                    },
                    "tool call `c1` has two results (entries `e2` and `e3`)",
                ),
                (
                    TranscriptError::ResultBeforeCall {
                        tool_call_id: s("c1"),
                        result_entry_id: s("e1"),
                        call_entry_id: s("e2"),
                    },
                    "the result of tool call `c1` (entry `e1`) comes before the call (entry `e2`)",
                ),
            ];
            for (error, text) in cases {
                assert_eq!(error.to_string(), text);
                let as_error: &dyn core::error::Error = &error;
                assert!(as_error.source().is_none());
            }
        }
    }

    mod closing {
        fn the_golden_scenario() {
            // Compared piece by piece, so that the 40 KiB heap of the firmware suffices.
            let scenario = scenario();
            let messages = transcript();
            let before = messages.clone();
            let reconciliation = reconcile(&messages, &scenario.inputs());
            assert_eq!(messages, before);
            drop((messages, before));
            {
                let expected_results: Value = serde_json::from_str(RESULTS).expect("json");
                let expected_results = expected_results.as_array().expect("an array");
                assert_eq!(reconciliation.append().len(), expected_results.len());
                for (result, expected) in reconciliation.append().iter().zip(expected_results) {
                    let actual = to_json(&UniversalMessage::Tool(result.clone()));
                    assert!(
                        json_eq(&actual, expected),
                        "result differs\n expected: {expected}\n   actual: {actual}"
                    );
                }
            }
            let expected_report: ReconcileReport =
                decode(&serde_json::from_str(REPORT).expect("json"));
            assert_eq!(reconciliation.report(), &expected_report);
            assert_eq!(
                reconciliation.result_orphans(),
                [
                    ResultOrphan {
                        tool_call_id: s("call_gone"),
                        tool_name: Some(s("grep")),
                    },
                    ResultOrphan {
                        tool_call_id: s("call_old"),
                        tool_name: None,
                    },
                ]
            );
        }

        fn the_started_set_decides_the_kind() {
            let messages = [assistant("e1", &[("a", "write_file"), ("b", "write_file")])];
            let kinds = |inputs: &ReconcileInputs<'_>| {
                reconcile(&messages, inputs)
                    .report()
                    .recovered
                    .iter()
                    .map(|r| r.error_kind)
                    .collect::<Vec<_>>()
            };
            use ReconciledErrorKind::{
                InterruptedNeverStarted as Never, InterruptedOutcomeUnknown as Unknown,
            };
            // Not known (the crash path): every orphan's outcome is unknown.
            assert_eq!(kinds(&ReconcileInputs::new()), [Unknown, Unknown]);
            // Known, nothing started.
            let none: [&str; 0] = [];
            assert_eq!(
                kinds(&ReconcileInputs::new().with_started_tool_call_ids(&none)),
                [Never, Never]
            );
            // Known, `b` started.
            let started = ["b"];
            assert_eq!(
                kinds(&ReconcileInputs::new().with_started_tool_call_ids(&started)),
                [Never, Unknown]
            );
            let inputs = ReconcileInputs::new().with_started_tool_call_ids(&started);
            assert_eq!(inputs.error_kind_of("a"), Never);
            assert_eq!(inputs.error_kind_of("b"), Unknown);
        }

        fn texts_are_tuned_by_effect_and_unknown_tools_count_as_writes() {
            let unknown = ReconciledErrorKind::InterruptedOutcomeUnknown;
            let never = ReconciledErrorKind::InterruptedNeverStarted;
            let read = interrupted_text("grep", ToolEffect::Read, unknown);
            let idempotent = interrupted_text("grep", ToolEffect::Idempotent, unknown);
            let write = interrupted_text("grep", ToolEffect::Write, unknown);
            assert!(read != idempotent && idempotent != write && read != write);
            for text in [&read, &idempotent, &write] {
                assert!(text.starts_with("[INTERRUPTED] "), "{text}");
                assert!(text.contains("`grep`"), "{text}");
                assert!(text.contains("outcome is unknown"), "{text}");
            }
            assert!(read.contains("only reads"), "{read}");
            assert!(
                idempotent.contains("safe") && idempotent.contains("partly"),
                "{idempotent}"
            );
            assert!(
                write.contains("check whether the change already happened"),
                "{write}"
            );
            assert!(!write.contains("safe"), "{write}");
            // Never started: safe to re-issue, whatever the effect.
            let never_texts: Vec<String> = ToolEffect::ALL
                .iter()
                .map(|effect| interrupted_text("grep", *effect, never))
                .collect();
            assert!(never_texts.iter().all(|t| t == &never_texts[0]));
            assert!(
                never_texts[0].contains("never ran")
                    && never_texts[0].contains("safe to issue it again")
            );

            // Through reconcile: a described tool gets its effect, an undescribed one `write`.
            let effects = [("grep", ToolEffect::Read)];
            let inputs = ReconcileInputs::new().with_tool_effects(&effects);
            assert_eq!(inputs.effect_of("grep"), ToolEffect::Read);
            assert_eq!(inputs.effect_of("rm"), ToolEffect::Write);
            assert_eq!(ReconcileInputs::new().effect_of("grep"), ToolEffect::Write);
            let messages = [assistant("e1", &[("a", "grep"), ("b", "rm")])];
            let reconciliation = reconcile(&messages, &inputs);
            let texts: Vec<&str> = reconciliation
                .append()
                .iter()
                .map(|m| m.content.as_str())
                .collect();
            assert_eq!(
                texts,
                [
                    read.as_str(),
                    interrupted_text("rm", ToolEffect::Write, unknown).as_str()
                ]
            );
        }

        fn each_result_carries_its_kind_in_metadata() {
            let started = ["b"];
            let inputs = ReconcileInputs::new().with_started_tool_call_ids(&started);
            let messages = [assistant("e1", &[("a", "t"), ("b", "t")])];
            let reconciliation = reconcile(&messages, &inputs);
            let [never, unknown] = reconciliation.append() else {
                panic!("two results: {reconciliation:?}");
            };
            for (message, kind) in [
                (never, "interrupted_never_started"),
                (unknown, "interrupted_outcome_unknown"),
            ] {
                let metadata = metadata_of(message);
                assert_eq!(metadata.get("isError"), Some(&Value::Bool(true)));
                assert_eq!(metadata["details"]["errorKind"], kind);
                assert_eq!(metadata.len(), 2);
                assert_eq!(
                    reconciled_error_kind(message).map(|k| k.as_str()),
                    Some(kind)
                );
            }
        }

        fn only_reconcile_results_have_a_kind() {
            let UniversalMessage::Tool(mut plain) = tool("e1", "c", Some("t")) else {
                panic!("a tool message");
            };
            assert_eq!(reconciled_error_kind(&plain), None);
            for metadata in [
                serde_json::json!({}),
                serde_json::json!({"details": "interrupted_never_started"}),
                serde_json::json!({"details": {"errorKind": 1}}),
                serde_json::json!({"details": {"errorKind": "interrupted"}}),
                serde_json::json!({"errorKind": "interrupted_never_started"}),
            ] {
                plain.base.metadata = Some(decode(&metadata));
                assert_eq!(reconciled_error_kind(&plain), None, "{metadata}");
            }
        }

        fn results_answer_the_calls_in_order_with_the_minted_ids() {
            let messages = [
                assistant("e1", &[("a", "t1"), ("b", "t2")]),
                tool("e2", "a", None),
                assistant("e3", &[("c", "t3")]),
            ];
            let mut seen = Vec::new();
            let reconciliation =
                reconcile_interrupted_session(&messages, &ReconcileInputs::new(), NOW, |orphan| {
                    seen.push(orphan.clone());
                    format!("{}-result", orphan.tool_call_id)
                })
                .expect("valid");
            assert_eq!(
                seen,
                [
                    CallOrphan {
                        tool_call_id: s("b"),
                        tool_name: s("t2")
                    },
                    CallOrphan {
                        tool_call_id: s("c"),
                        tool_name: s("t3")
                    },
                ]
            );
            let (append, report, result_orphans) = reconciliation.into_parts();
            assert!(result_orphans.is_empty());
            assert_eq!(append.len(), 2);
            for ((message, recovered), (call, tool)) in append
                .iter()
                .zip(&report.recovered)
                .zip([("b", "t2"), ("c", "t3")])
            {
                assert_eq!(message.tool_call_id, call);
                assert_eq!(message.name.as_deref(), Some(tool));
                assert_eq!(message.base.id, format!("{call}-result"));
                assert_eq!(message.base.timestamp, "2026-05-01T12:00:00.000Z");
                assert_eq!(message.base.state, MessageState::Complete);
                assert_eq!(message.parts, None);
                assert_eq!(
                    recovered,
                    &RecoveredOrphan {
                        tool_call_id: s(call),
                        tool_name: s(tool),
                        entry_id: message.base.id.clone(),
                        text: message.content.clone(),
                        error_kind: ReconciledErrorKind::InterruptedOutcomeUnknown,
                    }
                );
            }
        }

        fn result_orphans_are_reported_not_repaired() {
            let messages = [user("e1"), tool("e2", "stray", Some("grep"))];
            let mut asked = 0;
            let reconciliation =
                reconcile_interrupted_session(&messages, &ReconcileInputs::new(), NOW, |_| {
                    asked += 1;
                    s("x")
                })
                .expect("valid");
            assert_eq!(asked, 0);
            assert!(reconciliation.is_noop() && reconciliation.report().is_empty());
            assert_eq!(
                reconciliation.result_orphans(),
                [ResultOrphan {
                    tool_call_id: s("stray"),
                    tool_name: Some(s("grep"))
                }]
            );
        }

        fn suspended_calls_are_never_closed() {
            let messages = [assistant(
                "e1",
                &[("wait", "ask_user"), ("crashed", "write_file")],
            )];
            let batch = vec!["wait"];
            let inputs = ReconcileInputs::new().with_suspended_batch(&batch);
            let reconciliation = reconcile(&messages, &inputs);
            let closed: Vec<&str> = reconciliation
                .append()
                .iter()
                .map(|m| m.tool_call_id.as_str())
                .collect();
            assert_eq!(closed, ["crashed"]);
            // Appending that and reconciling again still leaves the suspended call alone.
            let again = reconcile(&appended(&messages, &reconciliation), &inputs);
            assert!(again.is_noop());
            // The batch resumed and answered: nothing to do either.
            let mut resumed = appended(&messages, &reconciliation);
            resumed.push(tool("e9", "wait", None));
            assert!(reconcile(&resumed, &ReconcileInputs::new()).is_noop());
        }

        fn nothing_to_close_never_calls_the_minter() {
            let messages = [
                user("e1"),
                assistant("e2", &[("a", "t")]),
                tool("e3", "a", None),
            ];
            let mut asked = 0;
            let reconciliation =
                reconcile_interrupted_session(&messages, &ReconcileInputs::new(), u64::MAX, |_| {
                    asked += 1;
                    s("x")
                })
                .expect("valid, and `now` is not read when nothing is closed");
            assert_eq!(asked, 0);
            assert_eq!(reconciliation, Reconciliation::default());
        }

        fn bad_minted_ids_are_refused() {
            let messages = [user("e1"), assistant("e2", &[("a", "t"), ("b", "t")])];
            assert_eq!(
                reconcile_err(&messages, NOW, |_| String::new()),
                ReconcileError::EmptyEntryId {
                    tool_call_id: s("a")
                }
            );
            assert_eq!(
                reconcile_err(&messages, NOW, |o| if o.tool_call_id == "a" {
                    s("r")
                } else {
                    s("e1")
                }),
                ReconcileError::EntryIdTaken {
                    tool_call_id: s("b"),
                    entry_id: s("e1")
                }
            );
            assert_eq!(
                reconcile_err(&messages, NOW, |_| s("same")),
                ReconcileError::EntryIdTaken {
                    tool_call_id: s("b"),
                    entry_id: s("same")
                }
            );
        }

        fn the_instant_is_written_as_iso_8601() {
            let messages = [assistant("e1", &[("a", "t")])];
            let stamp = |now: u64| {
                reconcile_interrupted_session(&messages, &ReconcileInputs::new(), now, |_| s("r"))
                    .map(|r| r.append()[0].base.timestamp.clone())
            };
            assert_eq!(stamp(0).as_deref(), Ok("1970-01-01T00:00:00.000Z"));
            assert_eq!(
                stamp(951_868_800_000).as_deref(),
                Ok("2000-03-01T00:00:00.000Z")
            );
            assert_eq!(
                stamp(1_709_251_199_999).as_deref(),
                Ok("2024-02-29T23:59:59.999Z")
            );
            assert_eq!(stamp(NOW).as_deref(), Ok("2026-05-01T12:00:00.000Z"));
            assert_eq!(
                stamp(253_402_300_799_999).as_deref(),
                Ok("9999-12-31T23:59:59.999Z")
            );
            assert_eq!(
                stamp(253_402_300_800_000),
                Err(ReconcileError::InstantOutOfRange {
                    now_ms: 253_402_300_800_000
                })
            );
        }

        fn reconcile_errors_say_what_and_where() {
            let transcript = TranscriptError::ResultBeforeCall {
                tool_call_id: s("c1"),
                result_entry_id: s("e1"),
                call_entry_id: s("e2"),
            };
            let error = ReconcileError::from(transcript.clone());
            assert_eq!(
                error.to_string(),
                format!("the transcript cannot be reconciled: {transcript}")
            );
            let as_error: &dyn core::error::Error = &error;
            assert_eq!(
                as_error.source().map(|e| e.to_string()),
                Some(transcript.to_string())
            );
            let cases = [
                (
                    ReconcileError::EmptyEntryId {
                        tool_call_id: s("a"),
                    },
                    "the entry id minted for the result of tool call `a` is empty",
                ),
                (
                    ReconcileError::EntryIdTaken {
                        tool_call_id: s("a"),
                        entry_id: s("e1"),
                    },
                    "the entry id `e1` minted for the result of tool call `a` is already taken",
                ),
                (
                    ReconcileError::InstantOutOfRange { now_ms: u64::MAX },
                    "now (18446744073709551615 ms since the epoch) is after 253402300799999 ms (year 9999)",
                ),
            ];
            for (error, text) in cases {
                assert_eq!(error.to_string(), text);
                let as_error: &dyn core::error::Error = &error;
                assert!(as_error.source().is_none());
            }
        }

        fn reconciling_twice_changes_nothing() {
            let scenario = scenario();
            let messages = transcript();
            let first = reconcile(&messages, &scenario.inputs());
            assert!(!first.is_noop());
            let extended = appended(&messages, &first);
            let second = reconcile(&extended, &scenario.inputs());
            assert!(second.is_noop() && second.report().is_empty());
            assert_eq!(second.result_orphans(), first.result_orphans());
            // The crash path (no inputs) agrees: only the suspended call, no longer excluded,
            // would be closed.
            // (The helper's ids `r1`… are taken now, so it must mint new ones.)
            assert_eq!(
                reconcile_interrupted_session(&extended, &ReconcileInputs::new(), NOW, |_| s("r1")),
                Err(ReconcileError::EntryIdTaken {
                    tool_call_id: s("call_wait"),
                    entry_id: s("r1")
                })
            );
            let crash =
                reconcile_interrupted_session(&extended, &ReconcileInputs::new(), NOW, |_| s("r6"))
                    .expect("valid");
            let closed: Vec<&str> = crash
                .append()
                .iter()
                .map(|m| m.tool_call_id.as_str())
                .collect();
            assert_eq!(closed, ["call_wait"]);
        }

        fn inputs_debug_says_what_was_given() {
            let effects: [(&str, ToolEffect); 0] = [];
            let text = format!("{:?}", ReconcileInputs::new().with_tool_effects(&effects));
            assert_eq!(
                text,
                "ReconcileInputs { tool_effects: \"given\", suspended_batch: \"none\", \
                 started_tool_call_ids: \"none\" }"
            );
            assert_eq!(
                format!("{:?}", ReconcileInputs::default()),
                format!("{:?}", ReconcileInputs::new())
            );
        }
    }

    mod properties {
        fn orphans_match_a_reference_model() {
            for seed in 0..rounds() {
                let case = random_case(seed);
                let suspended: Option<&dyn ToolCallIds> = Some(&case.suspended);
                let found = find_orphan_tool_calls(&case.messages, suspended)
                    .unwrap_or_else(|e| panic!("seed {seed}: refused a valid transcript: {e}"));
                assert_eq!(found, model_orphans(&case), "seed {seed}");
            }
        }

        fn reconcile_closes_exactly_the_call_orphans_and_a_second_time_nothing() {
            for seed in 0..rounds() {
                let case = random_case(seed);
                let inputs = case.inputs();
                let before = case.messages.clone();
                let first = reconcile(&case.messages, &inputs);
                assert_eq!(case.messages, before, "seed {seed}: the transcript changed");
                let model = model_orphans(&case);
                let calls: Vec<&CallOrphan> =
                    model.iter().filter_map(OrphanToolCall::as_call).collect();
                let results: Vec<&ResultOrphan> =
                    model.iter().filter_map(OrphanToolCall::as_result).collect();
                assert_eq!(first.append().len(), calls.len(), "seed {seed}");
                assert_eq!(
                    first.result_orphans().iter().collect::<Vec<_>>(),
                    results,
                    "seed {seed}"
                );
                for ((message, recovered), call) in first
                    .append()
                    .iter()
                    .zip(&first.report().recovered)
                    .zip(&calls)
                {
                    let kind = if case
                        .started
                        .as_ref()
                        .is_some_and(|s| !s.contains(&call.tool_call_id))
                    {
                        ReconciledErrorKind::InterruptedNeverStarted
                    } else {
                        ReconciledErrorKind::InterruptedOutcomeUnknown
                    };
                    let effect = case
                        .effects
                        .get(&call.tool_name)
                        .copied()
                        .unwrap_or(ToolEffect::Write);
                    assert_eq!(message.tool_call_id, call.tool_call_id, "seed {seed}");
                    assert_eq!(
                        recovered.error_kind, kind,
                        "seed {seed} call {}",
                        call.tool_call_id
                    );
                    assert_eq!(reconciled_error_kind(message), Some(kind), "seed {seed}");
                    assert_eq!(
                        message.content,
                        interrupted_text(&call.tool_name, effect, kind),
                        "seed {seed} call {}",
                        call.tool_call_id
                    );
                    assert_eq!(recovered.entry_id, message.base.id, "seed {seed}");
                    assert!(
                        !case.suspended.contains(&call.tool_call_id),
                        "seed {seed}: closed a suspended call"
                    );
                }
                let extended = appended(&case.messages, &first);
                // Nothing dropped or reordered: the original is a prefix, and only tool results follow.
                assert_eq!(&extended[..before.len()], before.as_slice(), "seed {seed}");
                assert_eq!(
                    calls_of(&extended),
                    calls_of(&before),
                    "seed {seed}: the calls changed"
                );
                let second = reconcile(&extended, &inputs);
                assert!(
                    second.is_noop(),
                    "seed {seed}: the second reconciliation appended {:?}",
                    second.append()
                );
                assert!(second.report().is_empty(), "seed {seed}");
                assert_eq!(
                    second.result_orphans(),
                    first.result_orphans(),
                    "seed {seed}"
                );
            }
        }

        fn injected_duplicates_are_always_refused() {
            for seed in 0..rounds() {
                let case = random_case(seed);
                let mut rng = Seeded::new(seed ^ 0x5EED);
                let calls = calls_of(&case.messages);
                if calls.is_empty() {
                    continue;
                }
                let (entry, id) = rng.pick(&calls).clone();
                let mut messages = case.messages.clone();
                messages.push(assistant("dup", &[(&id, "t")]));
                assert_eq!(
                    find_orphan_tool_calls(&messages, None),
                    Err(TranscriptError::DuplicateToolCall {
                        tool_call_id: id.clone(),
                        first_entry_id: entry,
                        second_entry_id: s("dup"),
                    }),
                    "seed {seed}"
                );
                let mut messages = case.messages.clone();
                messages.push(tool("dup-1", &id, None));
                messages.push(tool("dup-2", &id, None));
                match find_orphan_tool_calls(&messages, None) {
                    Err(TranscriptError::DuplicateToolResult {
                        tool_call_id,
                        second_entry_id,
                        ..
                    }) => {
                        assert_eq!(tool_call_id, id, "seed {seed}");
                        assert!(second_entry_id.starts_with("dup-"), "seed {seed}");
                    }
                    other => panic!("seed {seed}: expected a duplicate result, got {other:?}"),
                }
            }
        }
    }
}

// ---- the property tests' generator and reference model ----------------------------------

/// Fewer, smaller cases on the Cortex-M3 (64 KiB of RAM).
fn rounds() -> u64 {
    if cfg!(target_os = "none") { 24 } else { 400 }
}

const TOOLS: [&str; 5] = ["read_file", "grep", "format_code", "write_file", "deploy"];

struct Case {
    messages: Vec<UniversalMessage>,
    suspended: BTreeSet<String>,
    started: Option<BTreeSet<String>>,
    effects: BTreeMap<String, ToolEffect>,
}

impl Case {
    fn inputs(&self) -> ReconcileInputs<'_> {
        let inputs = ReconcileInputs::new()
            .with_tool_effects(&self.effects)
            .with_suspended_batch(&self.suspended);
        match &self.started {
            Some(started) => inputs.with_started_tool_call_ids(started),
            None => inputs,
        }
    }
}

/// A valid random transcript: turns of user, assistant (0..4 calls) and results that answer
/// some calls (in a shuffled order, some late), stray results, and random inputs.
fn random_case(seed: u64) -> Case {
    let mut rng = Seeded::new(seed);
    let max_turns = if cfg!(target_os = "none") { 4 } else { 10 };
    let turns = rng.below(max_turns) + 1;
    let mut messages = Vec::new();
    let mut open: Vec<String> = Vec::new();
    let mut all_calls: Vec<String> = Vec::new();
    let mut next = 0_u32;
    let mut entry = |prefix: &str| {
        next += 1;
        format!("{prefix}{next}")
    };
    for _ in 0..turns {
        if rng.chance(1, 2) {
            messages.push(if rng.chance(1, 4) {
                system(&entry("s"))
            } else {
                user(&entry("u"))
            });
        }
        let count = rng.below(4);
        let calls: Vec<(String, &str)> = (0..count)
            .map(|_| (entry("call-"), *rng.pick(&TOOLS)))
            .collect();
        let refs: Vec<(&str, &str)> = calls
            .iter()
            .map(|(id, tool)| (id.as_str(), *tool))
            .collect();
        messages.push(assistant(&entry("a"), &refs));
        for (id, _) in &calls {
            open.push(id.clone());
            all_calls.push(id.clone());
        }
        // Answer some open calls, in any order; leave the rest (some answered later, some never).
        let mut index = 0;
        while index < open.len() {
            if rng.chance(2, 3) {
                let id = open.swap_remove(index);
                let name = rng.chance(1, 2).then(|| *rng.pick(&TOOLS));
                messages.push(tool(&entry("t"), &id, name));
            } else {
                index += 1;
            }
        }
        if rng.chance(1, 6) {
            let stray = entry("stray-");
            messages.push(tool(
                &entry("t"),
                &stray,
                rng.chance(1, 2).then_some("grep"),
            ));
        }
    }
    let suspended = all_calls
        .iter()
        .filter(|_| rng.chance(1, 5))
        .cloned()
        .collect();
    let started = rng.chance(1, 2).then(|| {
        all_calls
            .iter()
            .filter(|_| rng.chance(1, 2))
            .cloned()
            .collect()
    });
    let mut effects = BTreeMap::new();
    for tool in TOOLS {
        if rng.chance(3, 4) {
            effects.insert(tool.to_string(), *rng.pick(ToolEffect::ALL));
        }
    }
    Case {
        messages,
        suspended,
        started,
        effects,
    }
}

/// The orphans by brute force: every call with no result anywhere after it (not suspended), and
/// every result with no call anywhere before it, in message order.
fn model_orphans(case: &Case) -> Vec<OrphanToolCall> {
    let mut orphans = Vec::new();
    for (at, message) in case.messages.iter().enumerate() {
        match message {
            UniversalMessage::Assistant(assistant) => {
                for call in assistant.tool_calls.iter().flatten() {
                    let answered = case.messages[at + 1..].iter().any(|later| {
                        matches!(later, UniversalMessage::Tool(t) if t.tool_call_id == call.id)
                    });
                    if !answered && !case.suspended.contains(&call.id) {
                        orphans.push(call_orphan(&call.id, &call.function.name));
                    }
                }
            }
            UniversalMessage::Tool(result) => {
                let called = case.messages[..at].iter().any(|earlier| {
                    matches!(earlier, UniversalMessage::Assistant(a)
                        if a.tool_calls.iter().flatten().any(|c| c.id == result.tool_call_id))
                });
                if !called {
                    orphans.push(result_orphan(&result.tool_call_id, result.name.as_deref()));
                }
            }
            UniversalMessage::User(_) | UniversalMessage::System(_) => {}
        }
    }
    orphans
}

/// Every tool call of the transcript with its message's entry id, in order.
fn calls_of(messages: &[UniversalMessage]) -> Vec<(String, String)> {
    messages
        .iter()
        .filter_map(|message| match message {
            UniversalMessage::Assistant(a) => Some((a.base.id.clone(), a.tool_calls.clone())),
            _ => None,
        })
        .flat_map(|(entry, calls)| {
            calls
                .into_iter()
                .flatten()
                .map(move |call| (entry.clone(), call.id))
        })
        .collect()
}

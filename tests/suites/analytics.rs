//! Cases of the `analytics` family: golden wire forms, the rules of catalog §1.4, and bad JSON.
//! Uses only `core`, `alloc` and serde_json, so it runs on the host, on wasm32-wasip1 and on the
//! Cortex-M3 firmware alike.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use agent_interface::analytics::{content::*, reports::*, schema::*, trace::*, usage::*};
use serde_json::Value;

use crate::support::s;
use crate::support::{golden, rejects, to_json};

/// Every object key reachable from `value`, through objects and arrays.
fn all_keys(value: &Value, keys: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                keys.push(key.clone());
                all_keys(inner, keys);
            }
        }
        Value::Array(items) => {
            for inner in items {
                all_keys(inner, keys);
            }
        }
        _ => {}
    }
}

/// Asserts that the JSON object `value` has every key of `keys` at its top level.
fn assert_has_keys(value: &Value, keys: &[&str]) {
    let Value::Object(map) = value else {
        panic!("expected a JSON object, got {value}");
    };
    for key in keys {
        assert!(map.contains_key(*key), "missing key `{key}` in {value}");
    }
}

fn provider_entry() -> ProviderCallTraceEntry {
    ProviderCallTraceEntry::new(
        "4bf92f3577b34da6a3ce929d0e0e4736",
        "00f067aa0ba902b7",
        "b7ad6b7169203331",
        "2026-09-14T08:12:03.620Z",
        "2026-09-14T08:12:09.112Z",
        UsageOutcome::Success,
        1,
    )
    .with_call_id("pc_1")
    .with_disposition(ProviderCallDisposition::Invoked)
    .with_provider_id("anthropic")
    .with_model_id("claude-sonnet-4-5")
    .with_usage_provenance(UsageProvenance::Complete)
    .with_prompt_tokens(100)
    .with_completion_tokens(20)
    .with_total_tokens(120)
    .with_provider_request_id("req_1")
}

fn tool_entry() -> ToolBodyTraceEntry {
    ToolBodyTraceEntry::new(
        "4bf92f3577b34da6a3ce929d0e0e4736",
        "00f067aa0ba902b7",
        "53995c3f42cd8ad8",
        "2026-09-14T08:12:09.200Z",
        "2026-09-14T08:12:12.875Z",
        UsageOutcome::Interrupted,
    )
    .with_tool_call_id("toolu_1")
    .with_tool_name("Bash")
}

fn permission_entry() -> ToolPermissionDecisionEntry {
    ToolPermissionDecisionEntry::new(
        "4bf92f3577b34da6a3ce929d0e0e4736",
        "00f067aa0ba902b7",
        "2026-09-14T08:12:09.150Z",
        ToolPermissionDecision::Denied,
    )
    .with_tool_call_id("toolu_1")
}

fn full_trace_batch() -> LivePromptTraceBatch {
    LivePromptTraceBatch::new(
        "sess_1",
        "turn_1",
        LivePromptTraceRoot::new(
            "4bf92f3577b34da6a3ce929d0e0e4736",
            "00f067aa0ba902b7",
            "2026-09-14T08:12:03.511Z",
            "2026-09-14T08:12:19.004Z",
            UsageOutcome::Failure,
        ),
        vec![
            LivePromptTraceChild::Provider {
                trace: provider_entry(),
            },
            LivePromptTraceChild::Permission {
                decision: permission_entry(),
            },
            LivePromptTraceChild::Tool {
                trace: tool_entry(),
            },
        ],
        LivePromptTraceOmitted::new(1, 2, 3),
    )
}

fn text_item(partial: bool, truncated: bool) -> LivePromptContentItem {
    LivePromptContentItem::new(
        LivePromptContentSubject::AssistantResponse,
        "Half an ans",
        40,
        truncated,
    )
    .with_partial(partial)
}

const SNAPSHOT_OK: &str = r#"{"kind":"exact","scope":"turn","totalTokens":10,"contextUsedTokens":10,"contextMaxTokens":100,"contextUsedPercentage":10,"costStatus":"unknown"}"#;

cases! {
    // Golden wire forms of every analytics record.
    mod wire_forms {
        // ---- golden wire forms ------------------------------------------------------------------

        fn golden_usage_source() {
            let source: UsageSource =
                golden("usage_source", include_str!("../golden/analytics/usage_source.json"));
            assert_eq!(source.scope, UsageSourceScope::Subagent);
            assert_eq!(source.id.as_deref(), Some("agent_7f3c2a"));
            assert_eq!(source.label.as_deref(), Some("code-reviewer"));
        }

        fn golden_usage_snapshot_unknown_cost() {
            let snapshot: UsageSnapshot = golden(
                "usage_snapshot_unknown",
                include_str!("../golden/analytics/usage_snapshot_unknown.json"),
            );
            assert_eq!(snapshot.kind, UsageSnapshotKind::Estimated);
            assert_eq!(snapshot.scope, UsageSnapshotScope::Turn);
            assert_eq!(snapshot.total_tokens, 5230);
            assert_eq!(snapshot.prompt_tokens, None);
            assert_eq!(snapshot.context_used_tokens, 48210);
            assert_eq!(snapshot.context_max_tokens, 200_000);
            assert_eq!(snapshot.cost, TurnCost::Unknown);
            assert_eq!(snapshot.cost.status(), CostStatus::Unknown);
            assert_eq!(snapshot.cost.usd(), None);
            assert_eq!(snapshot.source, None);
        }

        fn golden_usage_snapshot_estimated_cost() {
            let snapshot: UsageSnapshot = golden(
                "usage_snapshot_estimated",
                include_str!("../golden/analytics/usage_snapshot_estimated.json"),
            );
            assert_eq!(snapshot.kind, UsageSnapshotKind::Exact);
            assert_eq!(snapshot.prompt_tokens, Some(14210));
            assert_eq!(snapshot.completion_tokens, Some(1663));
            assert_eq!(snapshot.total_tokens, 15873);
            assert_eq!(snapshot.context_used_percentage, 31.24);
            assert_eq!(snapshot.cost, TurnCost::Estimated { usd: 0.067575 });
            assert_eq!(snapshot.cost.status(), CostStatus::Estimated);
            let source = snapshot.source.expect("source decoded");
            assert_eq!(source.scope, UsageSourceScope::Background);
            assert_eq!(source.label.as_deref(), Some("Run test suite"));
        }

        fn golden_usage_snapshot_exact_cost() {
            let snapshot: UsageSnapshot = golden(
                "usage_snapshot_exact",
                include_str!("../golden/analytics/usage_snapshot_exact.json"),
            );
            assert_eq!(snapshot.cost, TurnCost::Exact { usd: 9.0 });
            assert_eq!(snapshot.cost.usd(), Some(9.0));
            assert_eq!(snapshot.context_max_tokens, 128_000);
            assert_eq!(snapshot.context_used_percentage, 7.0);
        }

        fn golden_usage_model_share() {
            let share: UsageModelShare = golden(
                "usage_model_share",
                include_str!("../golden/analytics/usage_model_share.json"),
            );
            assert_eq!(share.provider_id, "anthropic");
            assert_eq!(share.model_id, "claude-sonnet-4-5");
            assert_eq!(share.prompt_tokens, 12000);
            assert_eq!(share.completion_tokens, 1500);
            assert_eq!(share.total_tokens, 13500);
            assert_eq!(share.cost, ShareCost::Estimated { usd: 0.0585 });

            let unpriced: UsageModelShare = golden(
                "usage_model_share_unknown",
                include_str!("../golden/analytics/usage_model_share_unknown.json"),
            );
            assert_eq!(unpriced.cost, ShareCost::Unknown);
            assert_eq!(unpriced.cost.status(), CostStatus::Unknown);
            assert_eq!(unpriced.total_tokens, 1110);
        }

        fn golden_usage_observation_single_model() {
            let observation: UsageObservation = golden(
                "usage_observation_single",
                include_str!("../golden/analytics/usage_observation_single.json"),
            );
            assert_eq!(observation.usage_observation_id, "uo_01J9ZK3M8Q");
            assert_eq!(observation.turn_id, "turn_0042");
            assert_eq!(observation.outcome, UsageOutcome::Success);
            assert_eq!(
                observation.prompt_execution_ended_at.as_deref(),
                Some("2026-09-14T08:12:19.004Z")
            );
            assert_eq!(
                observation.prompt_execution_trace_id.as_deref(),
                Some("4bf92f3577b34da6a3ce929d0e0e4736")
            );
            assert_eq!(observation.prompt_execution_span_id.as_deref(), Some("00f067aa0ba902b7"));
            assert_eq!(observation.model, ModelAttribution::Single(s("claude-sonnet-4-5")));
            assert_eq!(observation.model.model_id(), Some("claude-sonnet-4-5"));
            assert_eq!(observation.model.model_shares(), None);
            assert_eq!(observation.provider_id.as_deref(), Some("anthropic"));
            assert_eq!(observation.surface, Some(UsageSurface::Cli));
            assert_eq!(observation.source, Some(UsageSource::main()));
            let usage = observation.usage.expect("usage decoded");
            assert_eq!(usage.total_tokens, 15873);
            assert_eq!(usage.cost.usd(), Some(0.067575));
        }

        fn golden_usage_observation_model_shares() {
            let observation: UsageObservation = golden(
                "usage_observation_shares",
                include_str!("../golden/analytics/usage_observation_shares.json"),
            );
            // The final outcome and the first-callback outcome are kept apart.
            assert_eq!(observation.outcome, UsageOutcome::Interrupted);
            assert_eq!(observation.prompt_execution_outcome, Some(UsageOutcome::Success));
            assert_eq!(observation.model.model_id(), None);
            let shares = observation.model.model_shares().expect("shares decoded");
            assert_eq!(shares.len(), 2);
            assert_eq!(shares[0].model_id, "claude-sonnet-4-5");
            assert_eq!(shares[0].cost.usd(), Some(0.0585));
            assert_eq!(shares[1].provider_id, "openai");
            assert_eq!(shares[1].cost, ShareCost::Unknown);
            assert_eq!(observation.surface, Some(UsageSurface::DesktopApp));
            assert_eq!(observation.prompt_execution_trace_id, None);
            assert_eq!(observation.usage, None);
        }

        fn golden_provider_call_trace_entry() {
            let entry: ProviderCallTraceEntry = golden(
                "provider_call_trace_entry",
                include_str!("../golden/analytics/provider_call_trace_entry.json"),
            );
            assert_eq!(entry.call_id.as_deref(), Some("pc_3"));
            assert_eq!(entry.parent_span_id, "00f067aa0ba902b7");
            assert_eq!(entry.span_id, "b7ad6b7169203331");
            assert_eq!(entry.round, 2);
            assert_eq!(entry.disposition, Some(ProviderCallDisposition::Invoked));
            assert_eq!(entry.usage_provenance, Some(UsageProvenance::Partial));
            assert_eq!(entry.prompt_tokens, Some(14210));
            assert_eq!(entry.total_tokens, Some(15873));
            assert_eq!(entry.provider_request_id.as_deref(), Some("req_011CT8xq2J"));
        }

        fn golden_tool_body_trace_entry() {
            let entry: ToolBodyTraceEntry = golden(
                "tool_body_trace_entry",
                include_str!("../golden/analytics/tool_body_trace_entry.json"),
            );
            assert_eq!(entry.tool_call_id.as_deref(), Some("toolu_01A2B3"));
            assert_eq!(entry.tool_name.as_deref(), Some("Bash"));
            assert_eq!(entry.span_id, "53995c3f42cd8ad8");
            assert_eq!(entry.ended_at, "2026-09-14T08:12:12.875Z");
            assert_eq!(entry.outcome, UsageOutcome::Failure);
        }

        fn golden_tool_permission_decision_entry() {
            let entry: ToolPermissionDecisionEntry = golden(
                "tool_permission_decision_entry",
                include_str!("../golden/analytics/tool_permission_decision_entry.json"),
            );
            assert_eq!(entry.tool_call_id.as_deref(), Some("toolu_01A2B3"));
            assert_eq!(entry.decided_at, "2026-09-14T08:12:09.150Z");
            assert_eq!(entry.decision, ToolPermissionDecision::HookBlocked);
        }

        fn golden_live_prompt_trace_batch() {
            let batch: LivePromptTraceBatch = golden(
                "live_prompt_trace_batch",
                include_str!("../golden/analytics/live_prompt_trace_batch.json"),
            );
            assert_eq!(batch.schema_version.get(), 1);
            assert_eq!(batch.session_id, "sess_9c1e");
            assert_eq!(batch.root.outcome, UsageOutcome::Success);
            assert_eq!(batch.children.len(), 3);
            match &batch.children[0] {
                LivePromptTraceChild::Provider { trace } => {
                    assert_eq!(trace.disposition, Some(ProviderCallDisposition::CacheHit));
                    assert_eq!(trace.total_tokens, Some(640));
                    assert_eq!(trace.provider_request_id, None);
                }
                other => panic!("first child should be a provider round, got {other:?}"),
            }
            match &batch.children[1] {
                LivePromptTraceChild::Permission { decision } => {
                    assert_eq!(decision.decision, ToolPermissionDecision::Allowed);
                }
                other => panic!("second child should be a permission decision, got {other:?}"),
            }
            match &batch.children[2] {
                LivePromptTraceChild::Tool { trace } => {
                    assert_eq!(trace.tool_name.as_deref(), Some("Read"));
                    // The tool-call id joins the body to its permission decision.
                    assert_eq!(trace.tool_call_id.as_deref(), Some("toolu_01A2B3"));
                }
                other => panic!("third child should be a tool body, got {other:?}"),
            }
            assert_eq!(
                batch.omitted_children,
                LivePromptTraceOmitted::new(0, 3, 1)
            );
            assert_eq!(batch.omitted_children.total(), 4);
        }

        fn golden_live_prompt_content_policy() {
            let policy: LivePromptContentPolicy = golden(
                "live_prompt_content_policy",
                include_str!("../golden/analytics/live_prompt_content_policy.json"),
            );
            assert!(policy.user_prompts);
            assert!(policy.assistant_responses);
            assert_eq!(policy.tool_arguments, Some(false));
            assert_eq!(policy.tool_output, None);
            assert_eq!(policy.max_bytes, 16384);
        }

        fn golden_live_prompt_content_items() {
            let text: LivePromptContentItem = golden(
                "live_prompt_content_item_text",
                include_str!("../golden/analytics/live_prompt_content_item_text.json"),
            );
            assert_eq!(text.subject, LivePromptContentSubject::AssistantResponse);
            assert_eq!(text.subject.tool(), None);
            assert_eq!(text.original_bytes, 2048);
            assert!(text.truncated);
            assert!(text.partial);

            let tool: LivePromptContentItem = golden(
                "live_prompt_content_item_tool",
                include_str!("../golden/analytics/live_prompt_content_item_tool.json"),
            );
            assert_eq!(tool.subject.kind(), LivePromptContentKind::ToolOutput);
            let tool_ref = tool.subject.tool().expect("tool reference decoded");
            assert_eq!(tool_ref.call_id, "toolu_01A2B3");
            assert_eq!(tool_ref.name, "Glob");
            assert_eq!(tool_ref.outcome, LivePromptContentToolOutcome::Success);
            assert_eq!(tool_ref.span_id.as_deref(), Some("53995c3f42cd8ad8"));
            assert_eq!(tool.text, "src/lib.rs\nsrc/literal.rs\n");
            assert_eq!(tool.original_bytes, 26);
            assert!(!tool.partial);
        }

        fn golden_live_prompt_content_batch() {
            let batch: LivePromptContentBatch = golden(
                "live_prompt_content_batch",
                include_str!("../golden/analytics/live_prompt_content_batch.json"),
            );
            assert_eq!(batch.root.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
            assert_eq!(batch.root.span_id, "00f067aa0ba902b7");
            let kinds: Vec<LivePromptContentKind> =
                batch.items.iter().map(|item| item.subject.kind()).collect();
            assert_eq!(
                kinds,
                vec![
                    LivePromptContentKind::UserPrompt,
                    LivePromptContentKind::AssistantResponse,
                    LivePromptContentKind::ToolArguments,
                ]
            );
            let denied = batch.items[2].subject.tool().expect("tool item has its reference");
            assert_eq!(denied.outcome, LivePromptContentToolOutcome::Denied);
            assert_eq!(denied.span_id, None);
            let omitted = batch.omitted.expect("omitted decoded");
            assert_eq!(omitted.get(LivePromptContentKind::ToolOutput), 2);
            assert_eq!(omitted.get(LivePromptContentKind::ToolArguments), 1);
            assert_eq!(omitted.get(LivePromptContentKind::UserPrompt), 0);
            assert!(!omitted.is_empty());
        }

        fn golden_personal_usage_request() {
            let request: PersonalUsageRequest = golden(
                "personal_usage_request",
                include_str!("../golden/analytics/personal_usage_request.json"),
            );
            assert_eq!(request.period, PersonalUsagePeriod::ThirtyDays);
            assert_eq!(request.timezone, "Europe/Berlin");
        }

        fn golden_personal_usage_totals() {
            let priced: PersonalUsageTotals = golden(
                "personal_usage_totals",
                include_str!("../golden/analytics/personal_usage_totals.json"),
            );
            assert_eq!(priced.sessions, 12);
            assert_eq!(priced.turns, 148);
            assert_eq!(priced.total_tokens, 2_052_000);
            assert_eq!(priced.cost_usd, 8.69);
            assert_eq!(priced.cost_status, CostStatus::Estimated);
            assert_eq!(priced.unpriced_turns, 0);

            let unpriced: PersonalUsageTotals = golden(
                "personal_usage_totals_unpriced",
                include_str!("../golden/analytics/personal_usage_totals_unpriced.json"),
            );
            assert_eq!(unpriced.cost_status, CostStatus::Unknown);
            assert_eq!(unpriced.cost_usd, 0.0);
            assert_eq!(unpriced.unpriced_turns, 20);
            assert_eq!(unpriced.turns, 20);
        }

        fn golden_personal_usage_report() {
            let report: PersonalUsageReport = golden(
                "personal_usage_report",
                include_str!("../golden/analytics/personal_usage_report.json"),
            );
            assert_eq!(report.schema_version, SchemaVersion);
            assert_eq!(report.generated_at, "2026-09-14T09:00:00.000Z");
            assert_eq!(report.period, PersonalUsagePeriod::SevenDays);
            assert_eq!(report.timezone, "Asia/Seoul");
            assert_eq!(report.interval.start_date, "2026-09-08");
            assert_eq!(report.interval.end_date, "2026-09-14");
            assert_eq!(report.totals.unpriced_turns, 1);
            assert_eq!(report.daily.len(), 2);
            assert!(!report.daily[0].partial);
            assert!(report.daily[1].partial);
            assert_eq!(report.daily[1].totals.unpriced_turns, 1);
            assert_eq!(report.daily[0].session_ids, vec![s("sess_a")]);
            assert_eq!(report.by_model[0].key, "claude-sonnet-4-5");
            assert_eq!(report.by_model[0].session_ids.len(), 2);
            assert_eq!(report.by_provider[0].cost_status, CostStatus::Unknown);
            assert_eq!(report.by_provider[0].unpriced_turns, 1);
            assert!(report.by_surface.is_empty());
            assert_eq!(report.by_activity[0].kind, PersonalUsageActivityKind::Tool);
            assert_eq!(report.by_activity[0].count, 17);
            assert_eq!(report.by_activity[1].kind, PersonalUsageActivityKind::Skill);
            assert_eq!(report.coverage.valid_sessions, 2);
            assert_eq!(report.coverage.duplicate_observations, 3);
            assert_eq!(report.coverage.unknown_surface_observations, 5);
            assert_eq!(report.coverage.corrupt_session_ids, vec![s("sess_x")]);
            let labels = report.session_labels.expect("labels decoded");
            assert_eq!(labels["sess_a"].title, "Fix parser newline");
            assert_eq!(labels["sess_a"].workspace.as_deref(), Some("agent-interface"));
            assert_eq!(labels["sess_b"].title, "Untitled session");
            assert_eq!(labels["sess_b"].workspace, None);
        }

        fn golden_span_entry() {
            let span: SpanEntry =
                golden("span_entry", include_str!("../golden/analytics/span_entry.json"));
            assert_eq!(span.span_id, "53995c3f42cd8ad8");
            assert_eq!(span.op, "Bash");
            assert_eq!(span.duration_ms, 3675.0);
        }

        fn golden_usage_source_totals() {
            let totals: UsageSourceTotals = golden(
                "usage_source_totals",
                include_str!("../golden/analytics/usage_source_totals.json"),
            );
            assert_eq!(totals.key, "subagent:agent_7f3c2a");
            assert_eq!(totals.source.scope, UsageSourceScope::Subagent);
            assert_eq!(totals.turns, 6);
            assert_eq!(totals.total_tokens, 34000);
            assert_eq!(totals.percentage, 33.7);
            assert_eq!(totals.cost_usd, 0.15);
            assert!(!totals.cost_exact);
        }

        fn golden_run_trace_turn() {
            let turn: RunTraceTurn =
                golden("run_trace_turn", include_str!("../golden/analytics/run_trace_turn.json"));
            assert_eq!(turn.turn_index, 3);
            assert_eq!(turn.source, UsageSource::main());
            assert_eq!(turn.spans.len(), 2);
            assert_eq!(turn.spans[1].op, "Bash");
            assert_eq!(turn.spans[1].duration_ms, 3675.5);
            assert_eq!(turn.total_duration_ms, 9167.5);
            assert_eq!(turn.span_duration_sum(), turn.total_duration_ms);
        }

        fn golden_usage_by_source_report() {
            let report: UsageBySourceReport = golden(
                "usage_by_source_report",
                include_str!("../golden/analytics/usage_by_source_report.json"),
            );
            assert_eq!(report.session_id, "sess_9c1e");
            assert_eq!(report.total_tokens, 100_900);
            assert_eq!(report.cost_usd, 0.42);
            assert_eq!(report.by_source.len(), 2);
            assert_eq!(report.by_source[1].source.id.as_deref(), Some("agent_7f3c2a"));
            assert!(report.is_sorted_by_tokens());
            let top = report.top_consumer.as_ref().expect("top consumer decoded");
            assert_eq!(top, &report.by_source[0]);
            assert_eq!(report.timeline.len(), 1);
            assert_eq!(report.timeline[0].turn_index, 0);
            assert_eq!(report.timeline[0].total_duration_ms, 1200.0);
        }
    }

    // The rules of catalog §1.4 (contracts and live-content contracts) and refused JSON.
    mod contracts {
        // ---- catalog §1.4: contracts.test ----------------------------------------------------------

        fn contract_records_carry_their_keys() {
            let snapshot: UsageSnapshot = serde_json::from_str(SNAPSHOT_OK).expect("decodes");
            assert_has_keys(&to_json(&snapshot), &["totalTokens", "costStatus"]);
            assert_has_keys(&to_json(&UsageSource::main()), &["scope"]);

            let report: UsageBySourceReport = serde_json::from_str(include_str!(
                "../golden/analytics/usage_by_source_report.json"
            ))
            .expect("decodes");
            assert_has_keys(&to_json(&report), &["bySource", "timeline"]);
            assert_has_keys(&to_json(&report.by_source[0]), &["key", "costExact"]);
            assert_has_keys(&to_json(&report.timeline[0]), &["spans"]);

            let request = PersonalUsageRequest::new(PersonalUsagePeriod::SevenDays, "UTC");
            assert_has_keys(&to_json(&request), &["period"]);

            let observation = UsageObservation::new("uo_1", "turn_1", UsageOutcome::Success);
            assert_has_keys(&to_json(&observation), &["usageObservationId"]);

            let personal: PersonalUsageReport = serde_json::from_str(include_str!(
                "../golden/analytics/personal_usage_report.json"
            ))
            .expect("decodes");
            let personal_json = to_json(&personal);
            assert_has_keys(&personal_json, &["daily", "coverage", "byActivity", "sessionLabels"]);
            assert_has_keys(&personal_json["byActivity"][0], &["count"]);
            assert_has_keys(&personal_json["sessionLabels"]["sess_a"], &["title"]);
            assert_has_keys(&personal_json["totals"], &["unpricedTurns"]);
        }

        fn unpriced_turns_is_left_out_when_zero() {
            let mut totals = PersonalUsageTotals::new(1, 2, 10, 5, 15, 0.25, CostStatus::Estimated);
            assert!(to_json(&totals).get("unpricedTurns").is_none());
            assert_eq!(to_json(&totals)["costUsd"], serde_json::json!(0.25));
            totals.unpriced_turns = 1;
            assert_eq!(to_json(&totals)["unpricedTurns"], serde_json::json!(1));

            // An explicit zero decodes and is written back without the key.
            let decoded: PersonalUsageTotals = serde_json::from_str(
                r#"{"sessions":1,"turns":2,"promptTokens":10,"completionTokens":5,"totalTokens":15,
                    "costUsd":0,"costStatus":"unknown","unpricedTurns":0}"#,
            )
            .expect("decodes");
            assert_eq!(decoded.unpriced_turns, 0);
            assert!(to_json(&decoded).get("unpricedTurns").is_none());
        }

        fn cost_is_written_as_two_keys() {
            let unknown = to_json(&TurnCost::Unknown);
            assert_eq!(unknown["costStatus"], "unknown");
            assert!(unknown.get("costUsd").is_none());
            let exact = to_json(&TurnCost::Exact { usd: 1.5 });
            assert_eq!(exact["costStatus"], "exact");
            assert_eq!(exact["costUsd"], serde_json::json!(1.5));
            let share = to_json(&ShareCost::Estimated { usd: 0.25 });
            assert_eq!(share["costStatus"], "estimated");
            assert_eq!(share["costUsd"], serde_json::json!(0.25));
            assert_eq!(TurnCost::Exact { usd: 1.5 }.status(), CostStatus::Exact);
            assert_eq!(ShareCost::Unknown.usd(), None);
        }

        fn observation_without_root_identity_stays_valid() {
            let observation: UsageObservation = serde_json::from_str(
                r#"{"usageObservationId":"uo_old","turnId":"turn_7","outcome":"failure"}"#,
            )
            .expect("an older observation decodes");
            assert_eq!(observation.usage_observation_id, "uo_old");
            assert_eq!(observation.outcome, UsageOutcome::Failure);
            assert_eq!(observation.prompt_execution_started_at, None);
            assert_eq!(observation.prompt_execution_trace_id, None);
            assert_eq!(observation.prompt_execution_span_id, None);
            assert_eq!(observation.model, ModelAttribution::Unattributed);
            let json = to_json(&observation);
            assert_eq!(json.as_object().map(|map| map.len()), Some(3));
        }

        // ---- catalog §1.4: live-content-contracts.test ---------------------------------------------

        fn trace_batch_has_no_content_key_anywhere() {
            let json = to_json(&full_trace_batch());
            let mut keys = Vec::new();
            all_keys(&json, &mut keys);
            // The walk did reach the nested entries, so it would see a content key if one existed.
            assert!(keys.iter().any(|key| key == "providerRequestId"));
            assert!(keys.iter().any(|key| key == "decidedAt"));
            assert!(keys.iter().any(|key| key == "toolName"));
            for forbidden in ["text", "body", "content", "items", "prompt", "response"] {
                assert!(
                    !keys.iter().any(|key| key == forbidden),
                    "the live trace batch exposes `{forbidden}`: {json}"
                );
            }
        }

        fn stray_content_never_survives_a_trace_round_trip() {
            let mut json = to_json(&tool_entry());
            json["content"] = serde_json::json!("rm -rf /tmp/scratch");
            json["text"] = serde_json::json!("secret");
            let decoded: ToolBodyTraceEntry = serde_json::from_value(json).expect("decodes");
            assert_eq!(decoded, tool_entry());
            let again = to_json(&decoded);
            assert!(again.get("content").is_none());
            assert!(again.get("text").is_none());
        }

        fn trace_children_are_tagged_on_kind() {
            let json = to_json(&full_trace_batch());
            let children = json["children"].as_array().expect("children is a list");
            let kinds: Vec<&str> = children
                .iter()
                .map(|child| child["kind"].as_str().expect("kind is a string"))
                .collect();
            assert_eq!(kinds, vec!["provider", "permission", "tool"]);
            assert_eq!(children[0]["trace"]["round"], serde_json::json!(1));
            assert_eq!(children[1]["decision"]["decision"], "denied");
            assert_eq!(children[2]["trace"]["outcome"], "interrupted");
            assert_eq!(json["omittedChildren"]["permission"], serde_json::json!(3));
            assert_eq!(json["schemaVersion"], serde_json::json!(1));
        }

        fn content_item_text_is_a_string() {
            let json = to_json(&text_item(false, false));
            assert_eq!(json["text"].as_str(), Some("Half an ans"));
            assert_eq!(json["kind"], "assistant-response");
        }

        fn content_batch_root_has_trace_and_span_ids() {
            let batch = LivePromptContentBatch::new(
                LivePromptContentRoot::new("t1", "s1", "2026-09-14T08:12:19.004Z"),
                vec![text_item(true, false)],
            );
            let json = to_json(&batch);
            assert_has_keys(&json["root"], &["traceId", "spanId"]);
            assert_eq!(json["root"]["traceId"], "t1");
            assert!(json.get("omitted").is_none());
        }

        fn content_policy_has_max_bytes() {
            let policy = LivePromptContentPolicy::new(true, false, 4096).with_tool_output(true);
            let json = to_json(&policy);
            assert_eq!(json["maxBytes"], serde_json::json!(4096));
            assert!(json.get("toolArguments").is_none());
            assert_eq!(json["toolOutput"], serde_json::json!(true));
        }

        fn partial_is_true_or_absent_and_independent_of_truncated() {
            for (partial, truncated) in [(false, false), (true, false), (false, true), (true, true)] {
                let json = to_json(&text_item(partial, truncated));
                assert_eq!(json["truncated"], serde_json::json!(truncated));
                if partial {
                    assert_eq!(json["partial"], serde_json::json!(true));
                } else {
                    assert!(json.get("partial").is_none(), "partial false must be absent: {json}");
                }
                let back: LivePromptContentItem = serde_json::from_value(json).expect("decodes");
                assert_eq!(back.partial, partial);
                assert_eq!(back.truncated, truncated);
            }
        }

        fn tool_reference_present_exactly_on_tool_items() {
            let tool_ref =
                LivePromptContentToolRef::new("toolu_9", "Bash", LivePromptContentToolOutcome::Failure);
            let tool_item = LivePromptContentItem::new(
                LivePromptContentSubject::ToolArguments(tool_ref.clone()),
                "{}",
                2,
                false,
            );
            let json = to_json(&tool_item);
            assert_eq!(json["kind"], "tool-arguments");
            assert_eq!(json["tool"]["callId"], "toolu_9");
            assert!(to_json(&text_item(false, false)).get("tool").is_none());
            for kind in LivePromptContentKind::ALL {
                assert_eq!(
                    kind.is_tool(),
                    matches!(kind, LivePromptContentKind::ToolArguments | LivePromptContentKind::ToolOutput)
                );
            }
            assert_eq!(tool_item.subject.tool(), Some(&tool_ref));
        }

        fn content_omitted_leaves_zero_kinds_out() {
            let omitted = LivePromptContentOmitted::default().with_assistant_response(4);
            let json = to_json(&omitted);
            let keys: Vec<&String> = json.as_object().expect("an object").keys().collect();
            assert_eq!(keys, vec!["assistant-response"]);
            assert_eq!(json["assistant-response"], serde_json::json!(4));
            assert_eq!(to_json(&LivePromptContentOmitted::default()), serde_json::json!({}));
            assert!(LivePromptContentOmitted::default().is_empty());
        }

        fn model_attribution_writes_one_key_at_most() {
            let shares = ModelAttribution::Shares(vec![UsageModelShare::new(
                "anthropic",
                "claude-haiku-4-5",
                1,
                2,
                3,
                ShareCost::Unknown,
            )]);
            let json = to_json(&shares);
            assert!(json.get("modelId").is_none());
            assert_eq!(json["modelShares"][0]["modelId"], "claude-haiku-4-5");
            let single = to_json(&ModelAttribution::Single(s("m")));
            assert_eq!(single["modelId"], "m");
            assert!(single.get("modelShares").is_none());
            assert_eq!(to_json(&ModelAttribution::Unattributed), serde_json::json!({}));
        }

        fn literals_round_trip_exactly() {
            for surface in UsageSurface::ALL {
                let json = to_json(surface);
                assert_eq!(json, serde_json::json!(surface.as_str()));
                let back: UsageSurface = serde_json::from_value(json).expect("decodes");
                assert_eq!(back, *surface);
            }
            assert_eq!(UsageSurface::DesktopApp.as_str(), "desktop-app");
            assert_eq!(ProviderCallDisposition::PreflightRefused.as_str(), "preflight-refused");
            assert_eq!(LivePromptContentKind::UserPrompt.as_str(), "user-prompt");
            assert_eq!(PersonalUsagePeriod::from_literal("7d"), Some(PersonalUsagePeriod::SevenDays));
            assert_eq!(UsageSnapshotScope::LITERALS, &["turn"]);
            assert_eq!(to_json(&SchemaVersion), serde_json::json!(1));
            let labels: BTreeMap<String, PersonalUsageSessionLabel> = BTreeMap::new();
            assert!(to_json(&labels).as_object().is_some_and(|map| map.is_empty()));
        }

        // ---- bad JSON --------------------------------------------------------------------------------

        fn rejects_unknown_child_kind() {
            rejects::<LivePromptTraceChild>(
                r#"{"kind":"file","trace":{"traceId":"t","parentSpanId":"p","spanId":"s","startedAt":"a","endedAt":"b","outcome":"success"}}"#,
                "file",
            );
        }

        fn rejects_snapshot_scope_other_than_turn() {
            rejects::<UsageSnapshot>(
                r#"{"kind":"exact","scope":"session","totalTokens":10,"contextUsedTokens":10,"contextMaxTokens":100,"contextUsedPercentage":10,"costStatus":"unknown"}"#,
                "session",
            );
        }

        fn rejects_schema_version_two() {
            rejects::<LivePromptContentBatch>(
                r#"{"schemaVersion":2,"root":{"traceId":"t","spanId":"s","endedAt":"e"},"items":[]}"#,
                "schemaVersion",
            );
        }

        fn rejects_unknown_cost_status() {
            rejects::<UsageSnapshot>(
                r#"{"kind":"exact","scope":"turn","totalTokens":10,"contextUsedTokens":10,"contextMaxTokens":100,"contextUsedPercentage":10,"costStatus":"priced","costUsd":1}"#,
                "priced",
            );
        }

        fn rejects_partial_false() {
            rejects::<LivePromptContentItem>(
                r#"{"kind":"user-prompt","text":"hi","originalBytes":2,"truncated":false,"partial":false}"#,
                "partial",
            );
        }

        fn rejects_snapshot_without_total_tokens() {
            rejects::<UsageSnapshot>(
                r#"{"kind":"exact","scope":"turn","contextUsedTokens":10,"contextMaxTokens":100,"contextUsedPercentage":10,"costStatus":"unknown"}"#,
                "totalTokens",
            );
        }

        fn rejects_snapshot_without_cost_status() {
            rejects::<UsageSnapshot>(
                r#"{"kind":"exact","scope":"turn","totalTokens":10,"contextUsedTokens":10,"contextMaxTokens":100,"contextUsedPercentage":10}"#,
                "costStatus",
            );
        }

        fn rejects_cost_amount_with_unknown_status() {
            rejects::<UsageSnapshot>(
                r#"{"kind":"exact","scope":"turn","totalTokens":10,"contextUsedTokens":10,"contextMaxTokens":100,"contextUsedPercentage":10,"costStatus":"unknown","costUsd":0.5}"#,
                "costUsd",
            );
        }

        fn rejects_exact_cost_without_amount() {
            rejects::<UsageSnapshot>(
                r#"{"kind":"exact","scope":"turn","totalTokens":10,"contextUsedTokens":10,"contextMaxTokens":100,"contextUsedPercentage":10,"costStatus":"exact"}"#,
                "`exact` requires costUsd",
            );
        }

        fn rejects_estimated_share_without_amount() {
            rejects::<UsageModelShare>(
                r#"{"providerId":"p","modelId":"m","promptTokens":1,"completionTokens":1,"totalTokens":2,"costStatus":"estimated"}"#,
                "`estimated` requires costUsd",
            );
        }

        fn rejects_share_with_exact_cost() {
            rejects::<UsageModelShare>(
                r#"{"providerId":"p","modelId":"m","promptTokens":1,"completionTokens":1,"totalTokens":2,"costStatus":"exact","costUsd":0.01}"#,
                "model share is `unknown` or `estimated`",
            );
        }

        fn rejects_model_id_with_model_shares() {
            rejects::<UsageObservation>(
                r#"{"usageObservationId":"uo","turnId":"t","outcome":"success","modelId":"m","modelShares":[]}"#,
                "modelId and modelShares are exclusive",
            );
        }

        fn rejects_tool_kind_without_tool() {
            rejects::<LivePromptContentItem>(
                r#"{"kind":"tool-output","text":"ok","originalBytes":2,"truncated":false}"#,
                "requires a `tool` reference",
            );
        }

        fn rejects_text_kind_with_tool() {
            rejects::<LivePromptContentItem>(
                r#"{"kind":"user-prompt","text":"hi","originalBytes":2,"truncated":false,"tool":{"callId":"c","name":"Bash","outcome":"success"}}"#,
                "`user-prompt` must not carry a `tool`",
            );
        }

        fn rejects_negative_token_count() {
            rejects::<UsageSnapshot>(
                r#"{"kind":"exact","scope":"turn","totalTokens":-5,"contextUsedTokens":10,"contextMaxTokens":100,"contextUsedPercentage":10,"costStatus":"unknown"}"#,
                "-5",
            );
        }

        fn rejects_fractional_token_count() {
            rejects::<ProviderCallTraceEntry>(
                r#"{"traceId":"t","parentSpanId":"p","spanId":"s","startedAt":"a","endedAt":"b","outcome":"success","round":1,"totalTokens":1.5}"#,
                "1.5",
            );
        }

        fn rejects_unknown_surface() {
            rejects::<UsageObservation>(
                r#"{"usageObservationId":"uo","turnId":"t","outcome":"success","surface":"watch"}"#,
                "watch",
            );
        }

        fn rejects_trace_batch_without_omitted_counts() {
            let mut json = to_json(&full_trace_batch());
            if let Some(map) = json.as_object_mut() {
                map.remove("omittedChildren");
            }
            let text = serde_json::to_string(&json).expect("encodes");
            rejects::<LivePromptTraceBatch>(&text, "omittedChildren");
        }
    }
}

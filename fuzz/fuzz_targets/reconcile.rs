//! Reconciling interrupted tool calls (`runtime::reconcile`) on arbitrary transcripts: calls and
//! results over a tiny alphabet of call ids (so duplicates, results before calls and stray
//! results all occur), suspended batches, started sets, tool effects and minted entry ids that
//! may collide.
//!
//! Properties (module docs):
//! - nothing panics;
//! - `find_orphan_tool_calls` answers exactly the model: the same typed refusal for an ambiguous
//!   transcript, otherwise every unanswered, unsuspended call and every stray result, in
//!   first-appearance order;
//! - each call-orphan gets exactly one result, in call order, answering that call, with the
//!   kind the started set implies, read back from its metadata;
//! - idempotent: appending the results and reconciling again appends nothing and reports the
//!   same stray results; the existing messages are never dropped, changed or reordered;
//! - a refused minted id proposes nothing.
#![no_main]

use std::collections::{BTreeMap, BTreeSet};

use agent_interface::agent_core::UniversalMessage;
use agent_interface::runtime::reconcile::{
    CallOrphan, OrphanToolCall, ReconcileError, ReconcileInputs, ReconciledErrorKind, ResultOrphan,
    ToolEffect, TranscriptError, find_orphan_tool_calls, reconcile_interrupted_session,
    reconciled_error_kind,
};
use agent_interface_fuzz::{assistant_message, tool_message, user_message};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Msg {
    User,
    Calls(Vec<(u8, u8)>),
    Result { call: u8, named: bool },
}

#[derive(Arbitrary, Debug)]
struct Input {
    messages: Vec<Msg>,
    suspended: Option<Vec<u8>>,
    started: Option<Vec<u8>>,
    effects: Vec<(u8, u8)>,
    /// Entry ids the minter hands out in turn (small numbers collide with message ids).
    mint: Vec<u8>,
    now_ms: u64,
}

fn call_id(n: u8) -> String {
    format!("call-{}", n % 8)
}

fn tool(n: u8) -> String {
    ["read_file", "write_file", "bash", "search"][usize::from(n % 4)].to_owned()
}

enum Seen {
    Call {
        entry: String,
        tool: String,
        answered: Option<String>,
    },
    Result {
        entry: String,
        tool: Option<String>,
    },
}

/// The model of `find_orphan_tool_calls`.
fn model(
    messages: &[UniversalMessage],
    suspended: &BTreeSet<String>,
) -> Result<Vec<OrphanToolCall>, TranscriptError> {
    let mut order: Vec<String> = Vec::new();
    let mut seen: BTreeMap<String, Seen> = BTreeMap::new();
    for message in messages {
        match message {
            UniversalMessage::Assistant(assistant) => {
                for call in assistant.tool_calls.iter().flatten() {
                    match seen.get(&call.id) {
                        Some(Seen::Result { entry, .. }) => {
                            return Err(TranscriptError::ResultBeforeCall {
                                tool_call_id: call.id.clone(),
                                result_entry_id: entry.clone(),
                                call_entry_id: assistant.base.id.clone(),
                            });
                        }
                        Some(Seen::Call { entry, .. }) => {
                            return Err(TranscriptError::DuplicateToolCall {
                                tool_call_id: call.id.clone(),
                                first_entry_id: entry.clone(),
                                second_entry_id: assistant.base.id.clone(),
                            });
                        }
                        None => {
                            order.push(call.id.clone());
                            seen.insert(
                                call.id.clone(),
                                Seen::Call {
                                    entry: assistant.base.id.clone(),
                                    tool: call.function.name.clone(),
                                    answered: None,
                                },
                            );
                        }
                    }
                }
            }
            UniversalMessage::Tool(result) => match seen.get_mut(&result.tool_call_id) {
                Some(Seen::Call {
                    answered: answered @ None,
                    ..
                }) => *answered = Some(result.base.id.clone()),
                Some(
                    Seen::Call {
                        answered: Some(first),
                        ..
                    }
                    | Seen::Result { entry: first, .. },
                ) => {
                    return Err(TranscriptError::DuplicateToolResult {
                        tool_call_id: result.tool_call_id.clone(),
                        first_entry_id: first.clone(),
                        second_entry_id: result.base.id.clone(),
                    });
                }
                None => {
                    order.push(result.tool_call_id.clone());
                    seen.insert(
                        result.tool_call_id.clone(),
                        Seen::Result {
                            entry: result.base.id.clone(),
                            tool: result.name.clone(),
                        },
                    );
                }
            },
            UniversalMessage::User(_) | UniversalMessage::System(_) => {}
        }
    }
    Ok(order
        .into_iter()
        .filter_map(|id| match seen.remove(&id)? {
            Seen::Call {
                tool,
                answered: None,
                ..
            } if !suspended.contains(&id) => Some(OrphanToolCall::Call(CallOrphan {
                tool_call_id: id,
                tool_name: tool,
            })),
            Seen::Call { .. } => None,
            Seen::Result { tool, .. } => Some(OrphanToolCall::Result(ResultOrphan {
                tool_call_id: id,
                tool_name: tool,
            })),
        })
        .collect())
}

fuzz_target!(|input: Input| {
    let mut transcript: Vec<UniversalMessage> = Vec::new();
    for (n, message) in input.messages.iter().take(48).enumerate() {
        let entry = format!("entry-{n}");
        transcript.push(match message {
            Msg::User => user_message(&entry, "hello"),
            Msg::Calls(calls) => {
                let calls: Vec<(String, String)> = calls
                    .iter()
                    .take(4)
                    .map(|&(c, t)| (call_id(c), tool(t)))
                    .collect();
                assistant_message(&entry, &calls)
            }
            Msg::Result { call, named } => {
                tool_message(&entry, &call_id(*call), named.then_some("write_file"))
            }
        });
    }
    let suspended: BTreeSet<String> = input
        .suspended
        .iter()
        .flatten()
        .map(|&c| call_id(c))
        .collect();
    let started: Option<BTreeSet<String>> = input
        .started
        .as_ref()
        .map(|s| s.iter().map(|&c| call_id(c)).collect());
    let effects: BTreeMap<String, ToolEffect> = input
        .effects
        .iter()
        .map(|&(t, e)| {
            (
                tool(t),
                ToolEffect::ALL[usize::from(e) % ToolEffect::ALL.len()],
            )
        })
        .collect();
    let mut inputs = ReconcileInputs::new().with_tool_effects(&effects);
    if input.suspended.is_some() {
        inputs = inputs.with_suspended_batch(&suspended);
    }
    if let Some(started) = &started {
        inputs = inputs.with_started_tool_call_ids(started);
    }

    let found = find_orphan_tool_calls(
        &transcript,
        input.suspended.is_some().then_some(&suspended as _),
    );
    assert_eq!(
        found,
        model(&transcript, &suspended),
        "find_orphan_tool_calls differs from the model"
    );

    let original = transcript.clone();
    let mut mint = input.mint.iter().copied().cycle();
    let mut minted = 0_usize;
    let mut mint_id = |_: &CallOrphan| {
        minted += 1;
        match mint.next() {
            Some(n) if n < 16 => format!("entry-{n}"),
            Some(n) if n == 255 => String::new(),
            _ => format!("minted-{minted}"),
        }
    };
    let result = reconcile_interrupted_session(&transcript, &inputs, input.now_ms, &mut mint_id);
    assert_eq!(transcript, original);
    let orphans = match found {
        Err(error) => {
            assert_eq!(result, Err(ReconcileError::Transcript(error)));
            return;
        }
        Ok(orphans) => orphans,
    };
    let calls: Vec<&CallOrphan> = orphans.iter().filter_map(OrphanToolCall::as_call).collect();
    let strays: Vec<ResultOrphan> = orphans
        .iter()
        .filter_map(OrphanToolCall::as_result)
        .cloned()
        .collect();
    let Ok(reconciliation) = result else {
        assert!(
            !calls.is_empty(),
            "refused with nothing to close: {result:?}"
        );
        return;
    };
    assert_eq!(reconciliation.result_orphans(), &strays[..]);
    assert_eq!(
        reconciliation.append().len(),
        calls.len(),
        "one result per call-orphan"
    );
    assert_eq!(reconciliation.report().recovered.len(), calls.len());
    let mut entry_ids = BTreeSet::new();
    for ((appended, recovered), call) in reconciliation
        .append()
        .iter()
        .zip(&reconciliation.report().recovered)
        .zip(&calls)
    {
        assert_eq!(
            appended.tool_call_id, call.tool_call_id,
            "results out of call order"
        );
        assert_eq!(recovered.tool_call_id, call.tool_call_id);
        assert_eq!(appended.name.as_deref(), Some(call.tool_name.as_str()));
        assert_eq!(appended.base.id, recovered.entry_id);
        assert!(!recovered.entry_id.is_empty());
        assert!(
            entry_ids.insert(recovered.entry_id.clone()),
            "an entry id minted twice"
        );
        assert!(
            transcript.iter().all(|m| m.id() != recovered.entry_id),
            "an entry id a message has"
        );
        let kind = match &started {
            Some(started) if !started.contains(&call.tool_call_id) => {
                ReconciledErrorKind::InterruptedNeverStarted
            }
            _ => ReconciledErrorKind::InterruptedOutcomeUnknown,
        };
        assert_eq!(recovered.error_kind, kind);
        assert_eq!(
            reconciled_error_kind(appended),
            Some(kind),
            "the kind does not read back"
        );
        assert_eq!(appended.content, recovered.text);
    }

    // Idempotent: append and reconcile again.
    let (append, _, _) = reconciliation.into_parts();
    transcript.extend(append.into_iter().map(UniversalMessage::Tool));
    assert_eq!(&transcript[..original.len()], &original[..]);
    let again = reconcile_interrupted_session(&transcript, &inputs, input.now_ms, |_| -> String {
        panic!("the second reconciliation minted an id: it had something to close")
    })
    .expect("the second reconciliation is refused");
    assert!(
        again.append().is_empty() && again.report().recovered.is_empty(),
        "reconciling twice closed more"
    );
    assert_eq!(
        again.result_orphans(),
        &strays[..],
        "the second reconciliation reports other stray results"
    );
});

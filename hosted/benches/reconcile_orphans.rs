//! Benchmarks of reconciling interrupted tool calls over transcripts of 1k, 10k and 100k
//! messages, to show the cost per message stays flat as the transcript grows:
//!
//! - `reconcile/find_orphans/<n>`: [`find_orphan_tool_calls`] over a transcript of `n` messages
//!   (turns of user, assistant with two calls, two results; the last assistant message's two
//!   calls are unanswered), with a suspended batch of one id;
//! - `reconcile/reconcile_session/<n>`: [`reconcile_interrupted_session`] on the same transcript:
//!   the scan, the minted-id check and the two synthetic results;
//! - `reconcile/read_ids_baseline/<n>`: no reconciling at all, only reading every call id and
//!   result id of the same transcript (summing their bytes): the floor any scan pays to touch
//!   the messages, which shows how much of the cost is memory rather than the algorithm.
//!
//! Call ids are pseudo-random hex (`call_<16 hex digits>`), like a provider's, so no shared
//! prefix favours the ordered map. Throughput is in messages: criterion prints messages per
//! second, whose inverse is the cost per message.
//!
//! Run, in `hosted/`:
//! `cargo bench --features reconcile --bench reconcile_orphans -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use agent_interface::agent_core::{AssistantMessage, ToolCall, ToolCallFunction, UniversalMessage};
use agent_interface::runtime::reconcile::{
    ReconcileInputs, ToolEffect, find_orphan_tool_calls, reconcile_interrupted_session,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// SplitMix64 of `i`: distinct ids without a common prefix.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const AT: &str = "2026-05-01T12:00:00.000Z";

fn entry(id: usize) -> String {
    format!("entry-{id}")
}

fn call(id: &str, tool: &str) -> ToolCall {
    ToolCall::new(id, ToolCallFunction::new(tool, "{\"path\":\"src/lib.rs\"}"))
}

/// Exactly `n` messages: turns of four, and a last assistant message whose calls are orphans.
fn transcript(n: usize) -> Vec<UniversalMessage> {
    let mut messages = Vec::with_capacity(n);
    let mut next_call = 0_u64;
    let mut call_id = || {
        next_call += 1;
        format!("call_{:016x}", mix(next_call))
    };
    while messages.len() + 5 <= n {
        let (a, b) = (call_id(), call_id());
        let id = messages.len();
        messages.push(UniversalMessage::user(entry(id), AT, "next step"));
        messages.push(
            AssistantMessage::new(entry(id + 1), AT, None)
                .with_tool_calls(vec![call(&a, "read_file"), call(&b, "write_file")])
                .into(),
        );
        for (offset, answered) in [(2, b), (3, a)] {
            messages.push(UniversalMessage::tool(
                entry(id + offset),
                AT,
                answered,
                "ok",
            ));
        }
    }
    while messages.len() < n {
        let id = messages.len();
        let message = AssistantMessage::new(entry(id), AT, None);
        messages.push(if messages.len() + 1 == n {
            message
                .with_tool_calls(vec![
                    call(&call_id(), "write_file"),
                    call(&call_id(), "deploy"),
                ])
                .into()
        } else {
            message.into()
        });
    }
    messages
}

/// Reads every call id and result id, byte by byte: what any scan must at least touch.
fn read_ids(messages: &[UniversalMessage]) -> u64 {
    let sum = |id: &str| id.bytes().map(u64::from).sum::<u64>();
    messages
        .iter()
        .map(|message| match message {
            UniversalMessage::Assistant(a) => {
                a.tool_calls.iter().flatten().map(|c| sum(&c.id)).sum()
            }
            UniversalMessage::Tool(t) => sum(&t.tool_call_id),
            _ => 0,
        })
        .sum()
}

fn orphans(c: &mut Criterion) {
    let effects = [
        ("read_file", ToolEffect::Read),
        ("write_file", ToolEffect::Write),
    ];
    let suspended = ["call_suspended"];
    let inputs = ReconcileInputs::new()
        .with_tool_effects(&effects)
        .with_suspended_batch(&suspended);
    let mut group = c.benchmark_group("reconcile");
    for n in [1_000, 10_000, 100_000] {
        let messages = transcript(n);
        assert_eq!(messages.len(), n);
        let found = find_orphan_tool_calls(&messages, Some(&suspended)).expect("valid");
        assert_eq!(found.len(), 2, "two call-orphans at the tail");
        group.throughput(Throughput::Elements(n as u64));
        group.sample_size(if n >= 100_000 { 20 } else { 50 });
        group.bench_with_input(BenchmarkId::new("find_orphans", n), &messages, |b, m| {
            b.iter(|| find_orphan_tool_calls(black_box(m), Some(&suspended)));
        });
        group.bench_with_input(
            BenchmarkId::new("read_ids_baseline", n),
            &messages,
            |b, m| {
                b.iter(|| read_ids(black_box(m)));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("reconcile_session", n),
            &messages,
            |b, m| {
                b.iter(|| {
                    let mut next = 0;
                    reconcile_interrupted_session(black_box(m), &inputs, 1_777_636_800_000, |_| {
                        next += 1;
                        format!("reconciled-{next}")
                    })
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, orphans);
criterion_main!(benches);

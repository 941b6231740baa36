//! Hostile input on a small stack: every entry point that parses text from outside refuses
//! nesting past the read limit before anything recursive reads it, so it runs within a thread
//! stack of a size a device could give it, however deep the input nests. (The Cortex-M3 image
//! `hostile_input` measures the same entry points' stack on the target; this is the host's
//! guard against a regression, in a debug build whose frames are larger.)
//!
//! Host only: it runs each case on a thread of its own, which wasm32-wasip1 cannot start.
#![cfg(not(target_family = "wasm"))]

use agent_interface::agent_core::{
    ReadLimits, UniversalMessage, Value, from_json_slice, from_json_str_within,
};
use agent_interface::runtime::record_codec::{decode_session_record, decode_session_record_within};
use agent_interface::runtime::transport::channels::{
    ChannelFrameError, decode_channel_frame, decode_event_body, encode_channel_frame,
};
use agent_interface::session::records::SessionRecordDecodeOutcome;
use agent_interface::transport::channels::{ChannelEventFrame, ChannelFrame, ChannelName};

/// The thread stack every case runs in: far less than a host thread's megabytes, so an input
/// that recursed once per level of nesting would overflow it and abort the test binary.
const SMALL_STACK: usize = 128 * 1024;

/// Levels of nesting that would overflow [`SMALL_STACK`] in a debug build, were they parsed.
const HOSTILE: usize = 120;

/// The default nesting bound.
const BOUND: usize = ReadLimits::DEFAULT.depth;

fn on_small_stack<T: Send + 'static>(run: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(run)
        .expect("a thread starts")
        .join()
        .expect("the case neither panics nor overflows its stack")
}

fn nested(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

fn stored(plan: &str) -> Vec<u8> {
    format!(
        r#"{{"schemaVersion":1,"record":{{"id":"s1","cwd":"/w","createdAt":"t","updatedAt":"t","messages":[],"x-any":{plan}}}}}"#
    )
    .into_bytes()
}

fn corrupt_issues(outcome: SessionRecordDecodeOutcome) -> Vec<(String, String)> {
    match outcome {
        SessionRecordDecodeOutcome::Corrupt { issues, .. } => issues
            .into_iter()
            .map(|issue| (issue.path, issue.message))
            .collect(),
        other => panic!("expected corrupt, got {other:?}"),
    }
}

#[test]
fn a_stored_record_nested_past_the_limit_is_corrupt_where_it_passes_it() {
    let issues =
        on_small_stack(|| corrupt_issues(decode_session_record(&stored(&nested(HOSTILE)), "s1")));
    // The envelope and the record are two levels and `x-any`'s array the third: the level past
    // the bound opens x-any's `[0]` number BOUND - 2.
    let path = format!("record.x-any{}", "[0]".repeat(BOUND - 2));
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].0, path);
    assert!(issues[0].1.starts_with(&format!(
        "nesting deeper than {BOUND} levels (the read limit) at byte"
    )));
    // At the limit it is read (`x-any` is any value).
    let at_limit = on_small_stack(|| decode_session_record(&stored(&nested(BOUND - 2)), "s1"));
    assert!(
        matches!(at_limit, SessionRecordDecodeOutcome::Valid { .. }),
        "{at_limit:?}"
    );
    // A host's own bound.
    let limits = ReadLimits::DEFAULT.with_depth(8);
    let issues = corrupt_issues(decode_session_record_within(
        &stored(&nested(7)),
        "s1",
        &limits,
    ));
    assert_eq!(issues[0].0, format!("record.x-any{}", "[0]".repeat(6)));
}

#[test]
fn a_record_that_is_only_brackets_is_corrupt_at_any_depth() {
    for levels in [BOUND + 1, 129, 100_000] {
        let issues = on_small_stack(move || {
            corrupt_issues(decode_session_record(nested(levels).as_bytes(), "s1"))
        });
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].0, "[0]".repeat(BOUND));
        // Unclosed, it is still refused for its depth, not parsed.
        let open = "[".repeat(levels);
        let issues =
            on_small_stack(move || corrupt_issues(decode_session_record(open.as_bytes(), "s1")));
        assert!(
            issues[0]
                .1
                .starts_with(&format!("nesting deeper than {BOUND} levels")),
            "{issues:?}"
        );
    }
}

#[test]
fn an_event_body_nested_past_the_limit_is_refused_before_it_is_parsed() {
    let body = format!(r#"{{"event":"e","payload":{}}}"#, nested(HOSTILE));
    let refused = on_small_stack(move || decode_event_body(body.as_bytes()));
    assert_eq!(refused, Err(ChannelFrameError::TooDeep { limit: BOUND }));
    assert_eq!(
        ChannelFrameError::TooDeep { limit: 32 }.to_string(),
        "channel frame: event body nests deeper than 32 levels"
    );
    // A whole frame, as a peer sends it: the payload at the limit is read, one past is not.
    let frame = |levels: usize| {
        let payload: Value = serde_json::from_str(&nested(levels)).expect("a shallow value parses");
        encode_channel_frame(&ChannelFrame::Event(ChannelEventFrame::new(
            ChannelName::new("c").expect("a name"),
            0,
            "e",
            payload,
        )))
    };
    assert!(decode_channel_frame(&frame(BOUND - 1)).is_ok());
    assert_eq!(
        decode_channel_frame(&frame(BOUND)),
        Err(ChannelFrameError::TooDeep { limit: BOUND })
    );
}

#[test]
fn a_strict_decoder_names_where_the_nesting_passes_the_limit() {
    let text = format!(
        r#"{{"role":"user","id":"m","timestamp":"t","state":"complete","content":"hi","metadata":{{"k":{}}}}}"#,
        nested(HOSTILE)
    );
    let error = on_small_stack(move || {
        from_json_slice::<UniversalMessage>(text.as_bytes())
            .unwrap_err()
            .to_string()
    });
    assert_eq!(
        error,
        // The message, `metadata` and `k`'s array are the first three levels; the `[` past
        // the bound is the (BOUND - 1)th of `k`, which starts at byte 90.
        format!(
            "metadata.k{}: nesting deeper than {BOUND} levels (the read limit) at byte {}",
            "[0]".repeat(BOUND - 2),
            90 + BOUND - 2
        )
    );
    let value = from_json_str_within::<Value>(&nested(3), &ReadLimits::DEFAULT.with_depth(3));
    assert!(value.is_ok());
}

#[test]
fn a_registry_reads_event_bodies_within_the_hosts_limits() {
    use agent_interface::runtime::transport::channels::{
        ChannelRefusal, NotDelivered, PayloadChannelRegistry,
    };
    use agent_interface::transport::channels::ChannelDescriptor;

    let body = |levels: usize| format!(r#"{{"event":"e","payload":{}}}"#, nested(levels));
    let frame = |seq: u32, body: &str| {
        let mut bytes = b"RBF\x01\x02\x01c".to_vec();
        bytes.extend_from_slice(&seq.to_be_bytes());
        bytes.extend_from_slice(body.as_bytes());
        bytes
    };
    let mut registry =
        PayloadChannelRegistry::<8>::new().with_read_limits(ReadLimits::DEFAULT.with_depth(3));
    assert_eq!(registry.read_limits().depth, 3);
    let name = ChannelName::new("c").expect("a name");
    registry
        .register(ChannelDescriptor::new(name, ["e"]))
        .expect("registers");
    // The object and its payload's two arrays: three levels, read.
    let delivered: Vec<_> = registry
        .receive(frame(0, &body(2)), 0)
        .expect("routed")
        .collect();
    assert!(delivered[0].is_ok(), "{delivered:?}");
    // One more, refused in its seq's place; the next seq is still delivered.
    let refused: Vec<_> = registry
        .receive(frame(1, &body(3)), 0)
        .expect("routed")
        .map(|item| {
            item.map(|_| ()).map_err(|error| match error {
                NotDelivered::Refused(refused) => refused.refusal,
                other => panic!("{other:?}"),
            })
        })
        .collect();
    assert_eq!(
        refused,
        [Err(ChannelRefusal::Malformed(ChannelFrameError::TooDeep {
            limit: 3
        }))]
    );
    let next: Vec<_> = registry
        .receive(frame(2, &body(1)), 0)
        .expect("routed")
        .collect();
    assert!(next[0].is_ok(), "{next:?}");
}

#[test]
fn a_long_key_in_an_error_path_is_cut_and_states_its_length() {
    use std::collections::BTreeMap;

    let key = "k".repeat(5000);
    // A member that fails: serde names it by its key.
    let text = format!(r#"{{"{key}": "not a number"}}"#);
    let error =
        agent_interface::agent_core::from_json_str::<BTreeMap<String, u32>>(&text).unwrap_err();
    assert_eq!(error.path(), format!("{}… (5000 bytes)", "k".repeat(64)));
    // Nesting past the bound below it: the nesting pass names it the same way.
    let text = format!(r#"{{"{key}": {}}}"#, nested(40));
    let error = from_json_slice::<Value>(text.as_bytes()).unwrap_err();
    assert!(
        error
            .path()
            .starts_with(&format!("{}… (5000 bytes)[0]", "k".repeat(64)))
    );
    assert!(error.to_string().len() < 400, "{error}");
}

#[test]
fn a_long_literal_in_a_strict_decoders_message_is_cut_where_it_prints() {
    let role = "r".repeat(5000);
    let text =
        format!(r#"{{"role":"{role}","id":"m","timestamp":"t","state":"complete","content":"c"}}"#);
    let error = agent_interface::agent_core::from_json_str::<UniversalMessage>(&text).unwrap_err();
    let shown = error.to_string();
    assert!(
        shown.contains(&format!("`{}… (5000 bytes)`", "r".repeat(64))),
        "{shown}"
    );
    assert!(shown.len() < 400, "{shown}");
    // serde_json's own error is kept whole.
    assert!(error.inner().to_string().contains(&role));
}

//! Shared by the hostile-input images (`hostile_input_wire.rs`, `hostile_input_records.rs`): the
//! fuzz reproducers, the nesting bound, text builders, and the budgets the cases run within.
#![allow(dead_code)]

use alloc::vec::Vec;

use agent_interface::agent_core::ReadLimits;

include!(concat!(env!("OUT_DIR"), "/fuzz_regressions.rs"));

/// The fuzz targets whose reproducers the wire image replays.
pub const WIRE_TARGETS: &[&str] = &[
    "channel_frame",
    "json_transport",
    "policy_path",
    "policy_rules",
];
/// The fuzz targets whose reproducers the records image replays.
pub const RECORD_TARGETS: &[&str] = &["session_decode"];

/// The library's default nesting bound: the deepest arrays and objects nest in text it reads
/// (the document is level 0, `[[1]]` nests 2 deep).
pub const BOUND: usize = ReadLimits::DEFAULT.depth;

/// Stack every case fits in: what is left of the LM3S6965's 64 KiB of SRAM beside a 40 KiB heap
/// and the statics is about 24 KiB, and the inputs at the bound must leave a third of it.
pub const STACK: usize = 16 * 1024;
/// Heap no case may go over: the whole heap the LM3S6965 runner has.
pub const HEAP: usize = agent_interface_firmware::HEAP_BYTES;

/// The reproducers of `target`, after checking that every target with reproducers is replayed by
/// one of the two images (a new target's reproducers fail the run until a replay exists).
pub fn regressions(target: &str) -> impl Iterator<Item = (&'static str, &'static [u8])> + '_ {
    for (known, name, _) in REGRESSIONS {
        assert!(
            WIRE_TARGETS.contains(known) || RECORD_TARGETS.contains(known),
            "fuzz/regressions/{known}/{name}: no hostile-input image replays the `{known}` target"
        );
    }
    let mut found = REGRESSIONS
        .iter()
        .filter(move |(t, _, _)| *t == target)
        .peekable();
    assert!(
        found.peek().is_some(),
        "no reproducers for `{target}` in fuzz/regressions"
    );
    found.map(|(_, name, bytes)| (*name, *bytes))
}

/// `prefix`, then `levels` arrays opened and closed, then `suffix`.
pub fn nested(prefix: &str, levels: usize, suffix: &str) -> Vec<u8> {
    let mut text = Vec::with_capacity(prefix.len() + 2 * levels + suffix.len());
    text.extend_from_slice(prefix.as_bytes());
    text.extend(core::iter::repeat_n(b'[', levels));
    text.extend(core::iter::repeat_n(b']', levels));
    text.extend_from_slice(suffix.as_bytes());
    text
}

/// An event body `{"event":"e","payload":…}` whose text nests `depth` deep (the body object is
/// the first level, the payload's arrays the rest).
pub fn event_body(depth: usize) -> Vec<u8> {
    nested(r#"{"event":"e","payload":"#, depth - 1, "}")
}

/// The bytes of an event frame on `channel` with `seq` and `body`, laid out by hand (magic,
/// version 1, kind 2, name length, name, big-endian seq, body).
pub fn event_frame(channel: &str, seq: u32, body: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(10 + channel.len() + body.len());
    frame.extend_from_slice(b"RBF\x01\x02");
    frame.push(u8::try_from(channel.len()).expect("a short name"));
    frame.extend_from_slice(channel.as_bytes());
    frame.extend_from_slice(&seq.to_be_bytes());
    frame.extend_from_slice(body);
    frame
}

/// The three depths every nested case is tried at: the bound, one past it, and 1000.
pub const AT: usize = BOUND;
/// One level past the bound.
pub const PAST: usize = BOUND + 1;
/// Far past the bound (the report's HardFault came at about 100).
pub const DEEP: usize = 1000;

/// The most issues a corrupt outcome lists by default (then one more says how many were left).
pub const ISSUES: usize = ReadLimits::DEFAULT.issues;
/// The most bytes of an outside value a message echoes by default.
pub const ECHO: usize = ReadLimits::DEFAULT.echo;

/// The words every refusal of the nesting bound carries.
pub const TOO_DEEP: &str = "(the read limit)";

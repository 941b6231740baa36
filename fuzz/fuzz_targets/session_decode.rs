//! The session record decoder on untrusted bytes (`decode_session_record`).
//!
//! Input: `<stored id> NUL <stored bytes>`, or just the stored bytes (stored id `sess-2`, the id
//! of most golden records).
//!
//! Properties:
//! - it never panics, on any bytes and any id;
//! - the fast path and the locating path answer the same outcome (the module's promise; the
//!   locating decoder is exposed by feature `testing`);
//! - `valid` only for a record whose id is the stored id, and such a record encodes and decodes
//!   back equal (`encode_session_record` round trip);
//! - `corrupt` always carries at least one issue.
#![no_main]

use agent_interface::runtime::record_codec::{
    decode_session_record, decode_session_record_by_locating, encode_session_record,
};
use agent_interface::session::SessionRecordDecodeOutcome;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (id, bytes) = match data.iter().take(130).position(|&b| b == 0) {
        Some(at) => (
            String::from_utf8_lossy(&data[..at]).into_owned(),
            &data[at + 1..],
        ),
        None => (String::from("sess-2"), data),
    };
    let outcome = decode_session_record(bytes, &id);
    let located = decode_session_record_by_locating(bytes, &id);
    assert_eq!(
        outcome,
        located,
        "the fast path and the locating path disagree on {:?} stored under {id:?}",
        String::from_utf8_lossy(bytes)
    );
    match &outcome {
        SessionRecordDecodeOutcome::Valid { record } => {
            assert_eq!(record.id, id, "a valid record under another id");
            let encoded = encode_session_record(record)
                .expect("a decoded record holds only finite numbers, so it encodes");
            let again = decode_session_record(&encoded, &id);
            assert_eq!(
                again,
                outcome,
                "a valid record does not decode back equal from its encoding {:?}",
                String::from_utf8_lossy(&encoded)
            );
        }
        SessionRecordDecodeOutcome::Corrupt { issues, .. } => {
            assert!(!issues.is_empty(), "a corrupt outcome without an issue");
        }
        SessionRecordDecodeOutcome::Unsupported { .. } => {}
    }
});

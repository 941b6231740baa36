//! With `record-codec`, the encoder and the decoder are reachable and round-trip a record.
use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::session::records::{InteractiveSessionRecord, SessionRecordDecodeOutcome};

fn main() {
    let record = InteractiveSessionRecord::new("s-1", "", "", "");
    let bytes = encode_session_record(&record).expect("a record without untyped numbers encodes");
    assert!(matches!(
        decode_session_record(&bytes, "s-1"),
        SessionRecordDecodeOutcome::Valid { .. }
    ));
    assert!(matches!(
        decode_session_record(b"not json", "s-1"),
        SessionRecordDecodeOutcome::Corrupt { .. }
    ));
}

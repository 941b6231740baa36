//! Member order on hosts with `std` (issue 19, point 6): serde_json's `preserve_order` keeps the
//! keys of every free-form object in the order they were read, so JSON a TypeScript host wrote
//! comes back byte for byte after a Rust host read and rewrote it. Without `std` the keys of a
//! free-form object come back sorted (docs/decisions/member-order.md); this file only builds with
//! `std`.

use agent_interface::agent_core::{UniversalMessage, Value};
use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::session::records::SessionRecordDecodeOutcome;

/// A user message as the TypeScript SDK writes it: members in the order the message type
/// declares them, `metadata` with keys in no sorted order, nested objects too.
const MESSAGE: &str = concat!(
    r#"{"role":"user","id":"m-1","timestamp":"2026-12-03T10:00:00.000Z","state":"complete","#,
    r#""metadata":{"source":"cli","attempt":2,"zeta":{"y":1,"b":[{"k":true,"a":null}]},"alpha":"last"},"#,
    r#""content":"hello"}"#
);

#[test]
fn a_message_with_unsorted_metadata_round_trips_byte_for_byte() {
    let message: UniversalMessage = serde_json::from_str(MESSAGE).expect("a valid message");
    assert_eq!(serde_json::to_string(&message).expect("encodes"), MESSAGE);
}

#[test]
fn a_free_form_value_keeps_its_order() {
    let text = r#"{"z":1,"a":{"m":2,"b":3},"k":[{"y":0,"x":0}]}"#;
    let value: Value = serde_json::from_str(text).expect("JSON");
    assert_eq!(value.to_string(), text);
}

#[test]
fn a_stored_record_with_unsorted_members_round_trips_byte_for_byte() {
    let stored = concat!(
        r#"{"schemaVersion":1,"record":{"id":"s-1","cwd":"/w","createdAt":"2026-12-03T10:00:00.000Z","#,
        r#""updatedAt":"2026-12-03T10:00:01.000Z","messages":[],"#,
        r#""zebraOption":{"b":1,"a":2},"appExtension":true}}"#
    );
    let SessionRecordDecodeOutcome::Valid { record } =
        decode_session_record(stored.as_bytes(), "s-1")
    else {
        panic!("the record is valid");
    };
    let written = encode_session_record(&record).expect("encodes");
    assert_eq!(String::from_utf8(written).expect("UTF-8"), stored);
}

/// An event frame as the TypeScript peer sends it: members in no sorted order, numbers as
/// JavaScript writes them (`9.9e+24`, `1e-7`, `0.000001`, `1e+21`), a nested object.
#[test]
fn a_peer_event_frame_re_encodes_byte_for_byte() {
    use agent_interface::runtime::transport::channels::{
        decode_channel_frame, encode_channel_frame,
    };

    let body = concat!(
        r#"{"event":"text","payload":{"zeta":"last first","alpha":9.9e+24,"#,
        r#""nested":{"y":[0.1,1e-7,0.000001,1e+21,-1.5,12,123456789012345680000],"b":{"k":true,"a":null}},"#,
        r#""count":3,"neg":-0.25}}"#
    );
    let mut bytes = Vec::from(*b"RBF\x01\x02\x04edge\x00\x00\x00\x07");
    bytes.extend_from_slice(body.as_bytes());
    let frame = decode_channel_frame(&bytes).expect("the peer's frame decodes");
    assert_eq!(encode_channel_frame(&frame), bytes);
}

//! The session protocol's client frame decoder (`decode_client_frame`) on any text.
//!
//! Properties: it never panics, within the default bounds; a frame it reads is the message
//! serde's message decoder reads from the same JSON value (when a strict parse reads the text:
//! the frame decoder skips members no message declares unread, so a number out of range or a
//! lone surrogate escape there does not refuse the frame), and that message writes JSON that
//! reads back as the same message.
#![no_main]

use agent_interface::runtime::session_protocol::{FrameLimits, decode_client_frame};
use agent_interface::session::protocol::ClientMessage;
use libfuzzer_sys::fuzz_target;
use serde::Deserialize as _;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    let Ok(message) = decode_client_frame(text, &FrameLimits::DEFAULT) else {
        return;
    };
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        let read = ClientMessage::deserialize(&value).expect("serde reads a read frame");
        assert_eq!(read, message, "the frame decoder and serde disagree");
    }
    let written = serde_json::to_string(&message).expect("a message writes");
    let again = decode_client_frame(&written, &FrameLimits::DEFAULT);
    assert_eq!(
        again.as_ref(),
        Ok(&message),
        "a written message does not read back"
    );
});

//! The session protocol's client frame decoder (`decode_client_frame`) on any text.
//!
//! Properties: it never panics, within the default bounds; a frame it refuses is refused with
//! one of the reference's refusals, never `Unreadable` (members that passed every check and
//! still did not decode: a disagreement between the checks and the message's decoder); a frame
//! it reads is the message serde reads from the same JSON value, and that message writes JSON
//! that reads back as the same message.
#![no_main]

use agent_interface::runtime::session_protocol::{FrameLimits, FrameRefusal, decode_client_frame};
use agent_interface::session::protocol::ClientMessage;
use libfuzzer_sys::fuzz_target;
use serde::Deserialize as _;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    match decode_client_frame(text, &FrameLimits::DEFAULT) {
        Ok(message) => {
            let value: serde_json::Value =
                serde_json::from_str(text).expect("a read frame is JSON");
            let read = ClientMessage::deserialize(&value).expect("serde reads a read frame");
            assert_eq!(read, message, "the frame decoder and serde disagree");
            let written = serde_json::to_string(&message).expect("a message writes");
            let again = decode_client_frame(&written, &FrameLimits::DEFAULT);
            assert_eq!(
                again.as_ref(),
                Ok(&message),
                "a written message does not read back"
            );
        }
        Err(FrameRefusal::Unreadable(message)) => {
            panic!("a frame passed every check and did not decode: {message}")
        }
        Err(_) => {}
    }
});

//! The session protocol on one connection: the input is client frames separated by NUL bytes.
//! Each is read with `decode_client_frame`; a `resume` or an `ack` goes to a `ResumeBridge`, and
//! every other message, or a refusal, is answered with a server message (what it read, or the
//! `protocol_error`) stamped and kept by the bridge. Session events are not involved.
//!
//! Answer: the bytes sent, and the last seq stamped.
#![no_std]

extern crate alloc;

use alloc::string::ToString;

use agent_interface::runtime::session_protocol::{
    FrameLimits, ResumeBridge, ResumeLimits, decode_client_frame,
};
use agent_interface::session::protocol::{ClientMessage, ServerMessage};

/// Reads the frames of `input` and answers them through one bridge.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let mut bridge = ResumeBridge::new(ResumeLimits::new(32, 8 * 1024));
    bridge.attach(false);
    let mut sent = 0usize;
    for frame in input.split(|byte| *byte == 0) {
        let Ok(text) = core::str::from_utf8(frame) else {
            continue;
        };
        let answer = match decode_client_frame(text, &FrameLimits::DEFAULT) {
            Ok(ClientMessage::Resume { last_seq }) => {
                sent += bridge
                    .resume(last_seq)
                    .iter()
                    .map(|frame| frame.text.len())
                    .sum::<usize>();
                continue;
            }
            Ok(ClientMessage::Ack { seq }) => {
                bridge.ack(seq);
                continue;
            }
            Ok(message) => ServerMessage::Pending {
                pending: Some(message.type_literal().to_string()),
            },
            Err(refusal) => ServerMessage::ProtocolError {
                message: refusal.to_string(),
            },
        };
        if let Ok(Some(frame)) = bridge.outbound(&answer) {
            sent += frame.text.len();
        }
    }
    (sent as u32) ^ (bridge.last_seq() as u32) << 24
}

size_support::wasm_exports!(run);

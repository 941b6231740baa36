//! Channel frames: inbound frames routed through a payload channel registry (decoded, checked
//! against the declared channel, reassembled in sequence order), each delivered frame encoded
//! again, and an answer sent on the channel.
//!
//! Input: frames, each preceded by its length as a big-endian `u16`. Answer: the bytes of the
//! re-encoded delivered frames plus those of the replies, or `u32::MAX - reason` on a refusal.
#![no_std]

extern crate alloc;

use alloc::string::String;
use alloc::vec;

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::{PayloadChannelRegistry, encode_channel_frame};
use agent_interface::transport::{ChannelDescriptor, ChannelName, ChannelReceiveResult};

/// Routes the frames of `input` through a registry with one declared channel.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let mut registry = PayloadChannelRegistry::<8>::new();
    let Ok(name) = ChannelName::new("chat") else {
        return u32::MAX;
    };
    let descriptor = ChannelDescriptor {
        name,
        events: vec![String::from("delta"), String::from("done")],
        binary: Some(true),
    };
    let Ok(channel) = registry.register(descriptor) else {
        return u32::MAX - 1;
    };
    let mut total = 0u32;
    let mut rest = input;
    while let [hi, lo, tail @ ..] = rest {
        let len = usize::from(u16::from_be_bytes([*hi, *lo])).min(tail.len());
        let (frame, after) = tail.split_at(len);
        rest = after;
        match registry.receive(frame) {
            Ok(delivered) => {
                for frame in &delivered {
                    total += encode_channel_frame(frame).len() as u32;
                    let reply = registry.send_event(&channel, "delta", &Value::from(frame.seq()));
                    total += reply.map_or(0, |bytes| bytes.len() as u32);
                }
            }
            // The `{ok: false, error}` answer a host sends back, its text included.
            Err(refusal) => {
                return match refusal.to_receive_result() {
                    ChannelReceiveResult::Refused { error } => u32::MAX - error.len() as u32,
                    ChannelReceiveResult::Accepted { .. } => u32::MAX,
                };
            }
        }
    }
    total
}

size_support::wasm_exports!(run);

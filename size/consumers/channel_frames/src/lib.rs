//! Channel frames: inbound frames routed through a payload channel registry (header read, checked
//! against the declared channel, reassembled in sequence order, event bodies parsed on delivery),
//! each delivered frame encoded again into one reused buffer, and an answer sent on the channel.
//!
//! Input: frames, each preceded by its length as a big-endian `u16`. Answer: the bytes of the
//! re-encoded delivered frames plus those of the replies, or `u32::MAX - reason` on a refusal.
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::channels::{
    Bytes, NotDelivered, PayloadChannelRegistry, encode_channel_frame_into,
};
use agent_interface::transport::channels::{ChannelDescriptor, ChannelName, ChannelReceiveResult};

/// Routes the frames of `input` through a registry with one declared channel.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let mut registry = PayloadChannelRegistry::<8>::new();
    let Ok(name) = ChannelName::new("chat") else {
        return u32::MAX;
    };
    let descriptor = ChannelDescriptor::new(name, ["delta", "done"]).with_binary(true);
    let Ok(channel) = registry.register(descriptor) else {
        return u32::MAX - 1;
    };
    // The `{ok: false, error}` answer a host sends back, its text included.
    let refused = |answer: ChannelReceiveResult| match answer {
        ChannelReceiveResult::Refused { error } => u32::MAX - error.len() as u32,
        ChannelReceiveResult::Accepted { .. } => u32::MAX,
    };
    let input = Bytes::copy_from_slice(input);
    let mut out = Vec::new();
    let mut seqs = Vec::new();
    let mut rest = 0;
    while let [hi, lo, ..] = input[rest..] {
        let start = rest + 2;
        let end = (start + usize::from(u16::from_be_bytes([hi, lo]))).min(input.len());
        rest = end;
        let delivery = match registry.receive(input.slice(start..end), 0) {
            Ok(delivery) => delivery,
            Err(refusal) => return refused(refusal.to_receive_result()),
        };
        for item in delivery {
            let frame = match item {
                Ok(frame) => frame,
                Err(refusal) => return refused(NotDelivered::to_receive_result(&refusal)),
            };
            seqs.push(frame.seq);
            encode_channel_frame_into(&frame.into_frame(), &mut out);
        }
        for seq in seqs.drain(..) {
            let _ = registry.send_event_into(&channel, "delta", &Value::from(seq), &mut out);
        }
    }
    out.len() as u32
}

size_support::wasm_exports!(run);

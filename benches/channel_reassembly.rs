//! Benchmarks of payload channel reassembly: 64 KiB sent as 64 binary frames of 1 KiB on one
//! channel, each iteration registering the channel, receiving the 64 frames (decode, routing,
//! reassembly) and appending the delivered payloads to one 64 KiB buffer, then closing it:
//!
//! - `channel_reassembly/in_order`: the frames arrive by seq;
//! - `channel_reassembly/out_of_order`: a fixed permutation, the reversed order with its two
//!   halves interleaved (63, 31, 62, 30, …, 32, 0), so almost every frame waits for seq 0;
//! - `channel_reassembly/plain_copy`: the baseline, the same 64 slices of 1 KiB appended with
//!   `extend_from_slice` to one buffer.
//!
//! Run:
//! `cargo bench --all-features --bench channel_reassembly -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use agent_interface::runtime::transport::{PayloadChannelRegistry, encode_channel_frame};
use agent_interface::transport::{BinaryFrame, ChannelDescriptor, ChannelFrame, ChannelName};
use criterion::{Criterion, criterion_group, criterion_main};

const FRAMES: usize = 64;
const FRAME_BYTES: usize = 1024;

fn descriptor() -> ChannelDescriptor {
    ChannelDescriptor {
        name: ChannelName::new("bulk").expect("a valid name"),
        events: Vec::new(),
        binary: Some(true),
    }
}

/// The 64 KiB payload, a recognisable pattern.
fn payload() -> Vec<u8> {
    (0..FRAMES * FRAME_BYTES).map(|i| (i % 251) as u8).collect()
}

/// The encoded frames, by seq.
fn frames(payload: &[u8]) -> Vec<Vec<u8>> {
    payload
        .chunks(FRAME_BYTES)
        .zip(0u32..)
        .map(|(chunk, seq)| {
            encode_channel_frame(&ChannelFrame::Binary(BinaryFrame {
                channel: descriptor().name,
                seq,
                payload: chunk.to_vec(),
            }))
        })
        .collect()
}

/// The reversed order with its halves interleaved: 63, 31, 62, 30, …, 32, 0.
fn shuffled() -> Vec<usize> {
    let reversed: Vec<usize> = (0..FRAMES).rev().collect();
    let (high, low) = reversed.split_at(FRAMES / 2);
    high.iter().zip(low).flat_map(|(a, b)| [*a, *b]).collect()
}

/// Receives the frames in `order` on a fresh channel and returns the reassembled bytes.
fn reassemble(
    registry: &mut PayloadChannelRegistry<FRAMES>,
    frames: &[Vec<u8>],
    order: &[usize],
) -> Vec<u8> {
    let channel = registry.register(descriptor()).expect("free name");
    let mut out = Vec::with_capacity(FRAMES * FRAME_BYTES);
    for &index in order {
        for frame in registry.receive(&frames[index]).expect("routed") {
            if let ChannelFrame::Binary(frame) = frame {
                out.extend_from_slice(&frame.payload);
            }
        }
    }
    let held = registry.close(channel).expect("open");
    assert!(held.is_empty());
    out
}

fn benches(c: &mut Criterion) {
    let payload = payload();
    let frames = frames(&payload);
    let in_order: Vec<usize> = (0..FRAMES).collect();
    let out_of_order = shuffled();
    let mut registry = PayloadChannelRegistry::<FRAMES>::new();
    assert_eq!(reassemble(&mut registry, &frames, &in_order), payload);
    assert_eq!(reassemble(&mut registry, &frames, &out_of_order), payload);

    c.bench_function("channel_reassembly/in_order", |b| {
        b.iter(|| black_box(reassemble(&mut registry, black_box(&frames), &in_order)));
    });
    c.bench_function("channel_reassembly/out_of_order", |b| {
        b.iter(|| black_box(reassemble(&mut registry, black_box(&frames), &out_of_order)));
    });
    let slices: Vec<&[u8]> = payload.chunks(FRAME_BYTES).collect();
    c.bench_function("channel_reassembly/plain_copy", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(FRAMES * FRAME_BYTES);
            for slice in black_box(&slices) {
                out.extend_from_slice(slice);
            }
            black_box(out)
        });
    });
}

criterion_group!(channel_reassembly, benches);
criterion_main!(channel_reassembly);

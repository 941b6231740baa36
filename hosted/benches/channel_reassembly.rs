//! Benchmarks of payload channels against a plain copy of the same bytes: 64 KiB sent and
//! received as binary frames on one channel, once in 64 frames of 1 KiB (`channels_1k/…`) and
//! once in 1024 frames of 64 bytes (`channels_64/…`, the per-frame overhead). Per frame size:
//!
//! - `plain_copy`: the baseline, the 64 KiB appended slice by slice (one per frame) to a reused
//!   buffer with `extend_from_slice`;
//! - `encode`: every frame written by `send_binary_into` into a reused buffer (header and
//!   payload, the payload copied once);
//! - `receive_in_order`: every frame received by seq (header read, routed, reassembled), each
//!   delivered payload appended to a reused buffer (the consumer's one copy);
//! - `receive_shuffled`: the same, the frames of each run of 64 arriving reversed with the run's
//!   two halves interleaved (63, 31, 62, 30, …, 32, 0), so almost every frame waits for the run's
//!   first;
//! - `carrier_floor`: what any receiver pays besides the registry, in order: each buffer cloned
//!   as a receive takes it, its payload appended past the header, the buffer released.
//! - `carrier_floor_owned`: the same for a carrier that hands over a buffer of its own per frame
//!   (as a WebSocket library does): each buffer moved in (made before the timing, criterion's
//!   `iter_batched`), its payload appended, the buffer freed. No reference count is touched.
//!
//! A receive iteration runs on a registry where the `bulk` channel was just registered at seq 0
//! (a resume point, so a frame ahead of seq 0 waits for it), beside another channel, as on a live
//! carrier; registering is left out of the time (criterion's
//! `iter_batched_ref`). The frames are `Bytes` the carrier holds; each receive takes a clone (a
//! reference count, no copy).
//!
//! `refusals/…`: 64 stale then 64 duplicate event frames, each with a 1 KiB JSON body, refused on
//! their header (`stale_and_duplicate`), against a plain copy of the same 128 KiB
//! (`plain_copy`) and against decoding the same frames whole (`decode_whole`, what a refusal cost
//! when the body was parsed first).
//!
//! Run, in `hosted/`:
//! `cargo bench --all-features --bench channel_reassembly -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::channels::{
    Bytes, ChannelResumePoint, DeliveredBody, PayloadChannel, PayloadChannelRegistry,
    decode_channel_frame,
};
use agent_interface::transport::channels::{ChannelDescriptor, ChannelName};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

const TOTAL: usize = 64 * 1024;
/// Frames are shuffled in runs of this many, which is also the reassembly window.
const RUN: usize = 64;

type Registry = PayloadChannelRegistry<RUN>;

fn descriptor(name: &str) -> ChannelDescriptor {
    ChannelDescriptor::new(ChannelName::new(name).expect("a valid name"), ["tick"])
        .with_binary(true)
}

/// The 64 KiB payload, a recognisable pattern.
fn payload() -> Vec<u8> {
    (0..TOTAL).map(|i| (i % 251) as u8).collect()
}

/// A receiving registry with the `bulk` channel just registered at seq 0, beside another one.
fn receiver() -> Registry {
    let mut registry = Registry::new();
    registry.register(descriptor("keep")).expect("free name");
    registry
        .register_resuming(descriptor("bulk"), ChannelResumePoint::ZERO)
        .expect("free name");
    registry
}

/// The encoded frames of `payload` in `frame_bytes` pieces, by seq.
fn frames(payload: &[u8], frame_bytes: usize) -> Vec<Bytes> {
    let mut sender = Registry::new();
    let bulk = sender.register(descriptor("bulk")).expect("free name");
    let chunks = payload.chunks(frame_bytes);
    let frames = chunks.map(|chunk| sender.send_binary(&bulk, chunk).expect("binary opted in"));
    frames.map(Bytes::from).collect()
}

/// Each run of 64 reversed with its halves interleaved: 63, 31, 62, 30, …, 32, 0, then 127, …
fn shuffled(frames: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(frames);
    for run in (0..frames).step_by(RUN) {
        let reversed: Vec<usize> = (run..run + RUN).rev().collect();
        let (high, low) = reversed.split_at(RUN / 2);
        order.extend(high.iter().zip(low).flat_map(|(a, b)| [*a, *b]));
    }
    order
}

/// Receives the frames in `order` on the `bulk` channel, appending the delivered payloads to
/// `out`.
fn reassemble(registry: &mut Registry, frames: &[Bytes], order: &[usize], out: &mut Vec<u8>) {
    out.clear();
    for &index in order {
        for item in registry.receive(frames[index].clone(), 0).expect("routed") {
            if let Ok(frame) = item
                && let DeliveredBody::Binary(payload) = &frame.body
            {
                out.extend_from_slice(payload);
            }
        }
    }
}

/// Sends `payload` in `frame_bytes` pieces into `out`.
fn encode(registry: &mut Registry, channel: &PayloadChannel, slices: &[&[u8]], out: &mut Vec<u8>) {
    out.clear();
    for slice in slices {
        registry
            .send_binary_into(channel, slice, out)
            .expect("binary opted in");
    }
}

/// What any receiver of the carrier's buffers pays besides the registry, in order: each buffer
/// taken as a receive takes it (a clone), its payload appended to `out` past the header, then the
/// buffer released.
fn carrier_floor(frames: &[Bytes], header_bytes: usize, out: &mut Vec<u8>) {
    out.clear();
    for frame in frames {
        let frame = frame.clone();
        out.extend_from_slice(&frame[header_bytes..]);
    }
}

/// [`carrier_floor`] for buffers handed over, not shared: each moved in, its payload appended to
/// `out`, then freed.
fn carrier_floor_owned(frames: Vec<Bytes>, header_bytes: usize, out: &mut Vec<u8>) {
    out.clear();
    for frame in frames {
        out.extend_from_slice(&frame[header_bytes..]);
    }
}

fn plain_copy(slices: &[&[u8]], out: &mut Vec<u8>) {
    out.clear();
    for slice in slices {
        out.extend_from_slice(slice);
    }
}

fn frame_size(c: &mut Criterion, group: &str, frame_bytes: usize) {
    let payload = payload();
    let frames = frames(&payload, frame_bytes);
    let slices: Vec<&[u8]> = payload.chunks(frame_bytes).collect();
    let in_order: Vec<usize> = (0..frames.len()).collect();
    let out_of_order = shuffled(frames.len());
    let mut out = Vec::with_capacity(2 * TOTAL);
    for order in [&in_order, &out_of_order] {
        let mut registry = receiver();
        reassemble(&mut registry, &frames, order, &mut out);
        assert_eq!(out, payload);
    }
    let header_bytes = frames[0].len() - frame_bytes;
    let mut sender = Registry::new();
    let bulk = sender.register(descriptor("bulk")).expect("free name");

    c.bench_function(&format!("{group}/plain_copy"), |b| {
        b.iter(|| plain_copy(black_box(&slices), &mut out));
    });
    c.bench_function(&format!("{group}/carrier_floor"), |b| {
        b.iter(|| carrier_floor(black_box(&frames), header_bytes, &mut out));
    });
    c.bench_function(&format!("{group}/carrier_floor_owned"), |b| {
        b.iter_batched(
            || {
                frames
                    .iter()
                    .map(|frame| Bytes::from(frame.to_vec()))
                    .collect()
            },
            |owned| carrier_floor_owned(owned, header_bytes, &mut out),
            BatchSize::SmallInput,
        );
    });
    c.bench_function(&format!("{group}/encode"), |b| {
        // 2^32 frames (the channel's seqs) take far longer than a measurement.
        b.iter(|| encode(&mut sender, &bulk, black_box(&slices), &mut out));
    });
    for (name, order) in [
        ("receive_in_order", &in_order),
        ("receive_shuffled", &out_of_order),
    ] {
        c.bench_function(&format!("{group}/{name}"), |b| {
            b.iter_batched_ref(
                receiver,
                |registry| reassemble(registry, black_box(&frames), order, &mut out),
                BatchSize::SmallInput,
            );
        });
    }
}

fn refusals(c: &mut Criterion) {
    let mut sender = Registry::new();
    let tick = sender.register(descriptor("tick")).expect("free name");
    let body: Value = (0..64)
        .map(|i| (format!("k{i:02}"), Value::from("x".repeat(8))))
        .collect::<serde_json::Map<_, _>>()
        .into();
    let sent: Vec<Bytes> = (0..3)
        .map(|_| sender.send_event(&tick, "tick", &body).expect("declared"))
        .map(Bytes::from)
        .collect();
    let mut registry = Registry::new();
    registry.register(descriptor("tick")).expect("free name");
    registry
        .receive(sent[0].clone(), 0)
        .expect("seq 0")
        .for_each(drop);
    assert_eq!(
        registry.receive(sent[2].clone(), 0).map(Iterator::count),
        Ok(0)
    );
    // 64 stale frames (seq 0), then 64 duplicates of the held seq 2.
    let stream: Vec<Bytes> = [&sent[0], &sent[2]]
        .iter()
        .flat_map(|frame| std::iter::repeat_n(Bytes::clone(frame), RUN))
        .collect();
    let slices: Vec<&[u8]> = stream.iter().map(|frame| &frame[..]).collect();
    let mut out = Vec::with_capacity(2 * stream.len() * sent[0].len());

    c.bench_function("refusals/plain_copy", |b| {
        b.iter(|| plain_copy(black_box(&slices), &mut out));
    });
    c.bench_function("refusals/stale_and_duplicate", |b| {
        b.iter(|| {
            for frame in black_box(&stream) {
                assert!(registry.receive(frame.clone(), 0).is_err());
            }
        });
    });
    c.bench_function("refusals/decode_whole", |b| {
        b.iter(|| {
            for frame in black_box(&stream) {
                assert!(decode_channel_frame(frame).is_ok());
            }
        });
    });
}

fn benches(c: &mut Criterion) {
    frame_size(c, "channels_1k", 1024);
    frame_size(c, "channels_64", 64);
    refusals(c);
}

criterion_group!(channel_reassembly, benches);
criterion_main!(channel_reassembly);

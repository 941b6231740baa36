//! Payload channels allocate at most once per received frame and never per frame encoded into a
//! reused buffer: a counting global allocator watches binary frames received in order and
//! shuffled (held ahead of a gap, then delivered), frames sent into a buffer with room, and
//! stale event frames refused on their header.
//!
//! Host only. The frames are built before counting starts; a receive takes each as the `Vec<u8>`
//! a carrier delivered (converted to `Bytes` without copy) or as a clone of a `Bytes` it holds.
#![cfg(not(any(target_family = "wasm", target_os = "none")))]

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::channels::{
    Bytes, ChannelRefusal, ChannelResumePoint, DeliveredBody, PayloadChannelRegistry,
    SequenceRefusal,
};
use agent_interface::transport::channels::{ChannelDescriptor, ChannelName};

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use counting_allocator::allocations_in;

const FRAMES: usize = 64;
const FRAME_BYTES: usize = 1024;

type Registry = PayloadChannelRegistry<FRAMES>;

fn descriptor(name: &str) -> ChannelDescriptor {
    ChannelDescriptor::new(ChannelName::new(name).expect("a valid name"), ["tick"])
        .with_binary(true)
}

/// The bytes of `FRAMES` binary frames of `FRAME_BYTES` on channel `bulk`, by seq.
fn frames() -> Vec<Vec<u8>> {
    let mut sender = Registry::new();
    let bulk = sender.register(descriptor("bulk")).expect("free name");
    (0..FRAMES)
        .map(|i| {
            let payload = vec![i as u8; FRAME_BYTES];
            sender
                .send_binary(&bulk, &payload)
                .expect("binary opted in")
        })
        .collect()
}

/// Receives `frames` in `order`, checking every delivered payload; returns how many allocations
/// the receives made.
fn receive_counting(frames: Vec<Vec<u8>>, order: &[usize]) -> usize {
    let mut registry = Registry::new();
    // At seq 0 (a resume point), so a shuffled first frame waits rather than sets the base.
    registry
        .register_resuming(descriptor("bulk"), ChannelResumePoint::ZERO)
        .expect("free name");
    let mut frames: Vec<Option<Vec<u8>>> = frames.into_iter().map(Some).collect();
    let mut delivered = 0;
    let allocations = allocations_in(|| {
        for &index in order {
            let frame = frames[index].take().expect("each frame once");
            for item in registry.receive(frame, 0).expect("routed") {
                let frame = item.expect("binary frames always deliver");
                let DeliveredBody::Binary(payload) = &frame.body else {
                    panic!("a binary frame");
                };
                assert_eq!(frame.seq as usize, delivered);
                assert!(payload.iter().all(|byte| usize::from(*byte) == delivered));
                delivered += 1;
            }
        }
    });
    assert_eq!(delivered, FRAMES);
    allocations
}

#[test]
fn a_received_binary_frame_allocates_at_most_once() {
    let in_order: Vec<usize> = (0..FRAMES).collect();
    let in_order_allocations = receive_counting(frames(), &in_order);
    // Every frame waits for seq 0, which comes last.
    let shuffled: Vec<usize> = (1..FRAMES).rev().chain([0]).collect();
    let shuffled_allocations = receive_counting(frames(), &shuffled);
    println!(
        "allocations for {FRAMES} frames received: in order {in_order_allocations}, \
         shuffled {shuffled_allocations}"
    );
    assert!(in_order_allocations <= FRAMES, "{in_order_allocations}");
    assert!(shuffled_allocations <= FRAMES, "{shuffled_allocations}");
    // A frame whose buffer is exactly its bytes is taken over whole: no allocation at all.
    assert_eq!(in_order_allocations, 0);
    assert_eq!(shuffled_allocations, 0);
}

#[test]
fn a_frame_received_as_a_shared_buffer_allocates_nothing() {
    let frames: Vec<Bytes> = frames().into_iter().map(Bytes::from).collect();
    // The carrier keeps its buffers shared (the first clone of each makes it so).
    let kept: Vec<Bytes> = frames.clone();
    let mut registry = Registry::new();
    registry.register(descriptor("bulk")).expect("free name");
    let mut total = 0;
    let allocations = allocations_in(|| {
        for frame in &kept {
            for item in registry.receive(frame.clone(), 0).expect("routed") {
                if let Ok(frame) = item
                    && let DeliveredBody::Binary(payload) = frame.body
                {
                    total += payload.len();
                }
            }
        }
    });
    assert_eq!(total, FRAMES * FRAME_BYTES);
    assert_eq!(allocations, 0);
}

#[test]
fn a_frame_encoded_into_a_reused_buffer_allocates_nothing() {
    let mut registry = Registry::new();
    let bulk = registry.register(descriptor("bulk")).expect("free name");
    let payload = vec![7u8; FRAME_BYTES];
    let tick = Value::from(7);
    let mut out = Vec::with_capacity(FRAMES * (FRAME_BYTES + 64));
    let allocations = allocations_in(|| {
        for _ in 0..FRAMES / 2 {
            registry
                .send_binary_into(&bulk, &payload, &mut out)
                .expect("binary opted in");
            registry
                .send_event_into(&bulk, "tick", &tick, &mut out)
                .expect("declared");
        }
    });
    println!("allocations for {FRAMES} frames encoded into a reused buffer: {allocations}");
    assert_eq!(allocations, 0);
    assert!(out.len() > FRAMES / 2 * FRAME_BYTES);
}

#[test]
fn a_stale_event_frame_is_refused_without_a_parse() {
    let mut sender = Registry::new();
    let tick = sender.register(descriptor("tick")).expect("free name");
    // A large body: a parse would allocate for each of its members.
    let body: Value = (0..64)
        .map(|i| (format!("k{i}"), Value::from(i)))
        .collect::<serde_json::Map<_, _>>()
        .into();
    let first = Bytes::from(sender.send_event(&tick, "tick", &body).expect("declared"));
    let mut registry = Registry::new();
    registry.register(descriptor("tick")).expect("free name");
    assert_eq!(
        registry.receive(first.clone(), 0).map(Iterator::count),
        Ok(1)
    );
    let kept = first.clone();
    let allocations = allocations_in(|| {
        for _ in 0..FRAMES {
            let refused = registry
                .receive(kept.clone(), 0)
                .map(|_| ())
                .expect_err("stale");
            let ChannelRefusal::Sequence { refusal, .. } = refused else {
                panic!("a sequence refusal");
            };
            assert_eq!(refusal, SequenceRefusal::Stale { seq: 0 });
        }
    });
    println!("allocations for {FRAMES} stale event frames refused: {allocations}");
    // The refusal names its channel (one allocation); the body is never parsed.
    assert!(allocations <= FRAMES, "{allocations}");
}

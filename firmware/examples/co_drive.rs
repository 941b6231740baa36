//! The crate on a Cortex-M3 as an application uses it, on an embassy executor: two drivers share
//! one session through the co-drive turn queue, a runner task takes each turn as it comes
//! (`next_turn`, no polling loop of its own), and every reply travels as a payload-channel frame
//! that the receiving side puts back in order although it arrives shuffled.
//!
//! Run under QEMU from `firmware/`: `cargo run --release --example co_drive`. It prints what
//! happened and exits with status 0, or panics (status 1) on a broken expectation.
#![no_std]
#![no_main]

extern crate alloc;

use alloc::vec::Vec;

use agent_interface::agent_core::CriticalSectionRawMutex;
use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::channels::{
    ChannelResumePoint, DeliveredBody, PayloadChannelRegistry,
};
use agent_interface::runtime::turn_queue::{Settled, TurnQueue};
use agent_interface::transport::channels::{ChannelDescriptor, ChannelName};
use cortex_m_semihosting::{debug, hprintln};
use embassy_executor::Spawner;
use embassy_sync::channel::Channel;
use embedded_alloc::LlffHeap as Heap;
use panic_semihosting as _;

/// A turn's input; its result is the number of reply frames it sent.
type Prompt = &'static str;
/// Who submitted: the device's owner or a paired phone.
type Driver = &'static str;

/// One session's queue: at most four submissions wait. `const`-built, so it is a `static`
/// shared by every task (the critical-section mutex makes it `Sync`).
static QUEUE: TurnQueue<CriticalSectionRawMutex, Prompt, usize, Driver, 4> = TurnQueue::new();
/// The reply frames on their way to the other side, as a radio or UART would carry them.
static WIRE: Channel<CriticalSectionRawMutex, Vec<u8>, 8> = Channel::new();

#[global_allocator]
static HEAP: Heap = Heap::empty();

fn replies() -> ChannelDescriptor {
    let name = ChannelName::new("replies").expect("a valid channel name");
    ChannelDescriptor::new(name, ["word"])
}

/// The runner: takes each turn when it can start, answers it word by word on the channel.
#[embassy_executor::task]
async fn runner() {
    let mut channels = PayloadChannelRegistry::<8>::new();
    let channel = channels.register(replies()).expect("registers");
    while let Some(turn) = QUEUE.next_turn().await {
        hprintln!(
            "runner: turn {} from {}: {:?}",
            turn.id,
            turn.driver,
            turn.input
        );
        let mut sent = 0;
        for word in turn.input.split(' ') {
            let payload = Value::String(word.into());
            let frame = channels
                .send_event(&channel, "word", &payload)
                .expect("declared");
            WIRE.send(frame).await;
            sent += 1;
        }
        QUEUE.finish(turn.id, sent).expect("the running turn");
    }
    hprintln!("runner: the queue is shut down");
}

#[embassy_executor::main]
async fn main(spawner: Spawner) {
    // SAFETY: first thing in `main`, before anything allocates.
    #[allow(unsafe_code)]
    unsafe {
        embedded_alloc::init!(HEAP, 16 * 1024);
    }
    spawner.spawn(runner().expect("one runner"));

    // Two drivers: the phone's second message replaces its first while that one still waits.
    let owner = QUEUE.submit("hello device", "owner").expect("open");
    let phone_typo = QUEUE.submit("status plz", "phone").expect("open");
    let phone = QUEUE.submit("status please", "phone").expect("open");
    let (owner, phone_typo, phone) = embassy_futures::join::join3(owner, phone_typo, phone).await;
    // Awaited by value, a ticket returns its outcome once: never `AlreadyRead`.
    let read = |outcome: Result<Settled<usize>, _>| outcome.expect("awaited once");
    let (owner, phone_typo, phone) = (read(owner), read(phone_typo), read(phone));
    assert_eq!(owner, Settled::Complete(2));
    assert_eq!(phone, Settled::Complete(2));
    let coalesced = phone_typo.not_run().map(|not_run| not_run.reason);
    hprintln!(
        "drivers: owner {:?}, phone {:?}, typo {:?}",
        owner,
        phone,
        coalesced
    );
    let _cleared = QUEUE.shutdown();

    // The other side: the frames arrive pairwise swapped and still come out in order.
    let mut frames = Vec::new();
    while let Ok(frame) = WIRE.try_receive() {
        frames.push(frame);
    }
    for pair in frames.chunks_mut(2) {
        pair.reverse();
    }
    // Opened together with the runner's channel: its sequence starts at 0 too, so a frame that
    // overtakes an earlier one waits for it.
    let mut channels = PayloadChannelRegistry::<8>::new();
    let start = ChannelResumePoint::ZERO;
    channels
        .register_resuming(replies(), start)
        .expect("registers");
    let mut words = Vec::new();
    for frame in frames {
        // No clock on this board: no gap deadline is set, so the time passed in is never read.
        for delivered in channels.receive(frame, 0).expect("routable") {
            if let DeliveredBody::Event { payload, .. } = delivered.expect("declared").body {
                words.push(payload);
            }
        }
    }
    let expected = ["hello", "device", "status", "please"].map(|w| Value::String(w.into()));
    assert_eq!(words, expected);
    hprintln!("receiver: {} words in order: {:?}", words.len(), words);
    debug::exit(debug::EXIT_SUCCESS);
}

//! Benchmarks of the co-drive turn queue (depth 32, `u32` inputs and results, `u8` drivers):
//!
//! - `round_trip`: submit → start → finish → the ticket reads its outcome, one turn per
//!   iteration, with `CriticalSectionRawMutex` (the `critical-section/std` host lock) and with
//!   `NoopRawMutex` (the lock itself costs nothing);
//! - `coalesce_heavy_4_drivers`: one submission per iteration from four drivers in bursts of four
//!   (so three in four coalesce into the newest pending entry), the runner starting and finishing
//!   a turn every four submissions, each driver keeping only its latest ticket;
//! - `dropped_at_capacity`: one submission per iteration to a full queue (settled `dropped`);
//! - `round_trip_floor`: the same round trip done by hand with the least a queue could do (one
//!   `NoopRawMutex` critical section over a `RefCell` per step: push the input, pop it, park the
//!   result, take it). It is the baseline of this run: the bench ends by timing
//!   `round_trip_noop_mutex` and the floor in alternating batches and printing their ratio, so a
//!   step such as a runner waker that costs every round trip shows up as a ratio change between
//!   two runs, whatever the machine's load.
//!
//! Run, in `hosted/`:
//! `cargo bench --features turn-queue --bench turn_queue -- --warm-up-time 1 --measurement-time 3`.

use std::cell::RefCell;
use std::hint::black_box;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use agent_interface::runtime::turn_queue::{AlreadyRead, REFERENCE_DEPTH, TurnQueue, TurnTicket};
use criterion::{Criterion, criterion_group, criterion_main};
use embassy_sync::blocking_mutex::Mutex;
use embassy_sync::blocking_mutex::raw::{CriticalSectionRawMutex, NoopRawMutex, RawMutex};
use heapless::Deque;

type Queue<M> = TurnQueue<M, u32, u32, u8, REFERENCE_DEPTH>;

/// Polls a ticket once with the no-op waker, as an executor would.
fn poll<M: RawMutex>(
    ticket: &mut TurnTicket<'_, M, u32, u32, u8, REFERENCE_DEPTH>,
) -> Poll<Result<agent_interface::runtime::turn_queue::Settled<u32>, AlreadyRead>> {
    Pin::new(ticket).poll(&mut Context::from_waker(Waker::noop()))
}

/// The result a polled ticket completed with (`u32::MAX` otherwise), as a host would take it.
/// Handing the whole `Poll<Result<Settled<u32>, _>>` to `black_box` instead measures how the compiler copies
/// that enum through the stack (a store-forwarding stall that moved the round trip by a third
/// between builds of unrelated code).
fn completed<M: RawMutex>(ticket: &mut TurnTicket<'_, M, u32, u32, u8, REFERENCE_DEPTH>) -> u32 {
    match poll(ticket) {
        Poll::Ready(Ok(agent_interface::runtime::turn_queue::Settled::Complete(result))) => result,
        _ => u32::MAX,
    }
}

fn round_trip<M: RawMutex>(c: &mut Criterion, name: &str) {
    // On the heap, as the floor: where the 2 KiB of inline state falls on the stack would
    // otherwise move the figures between runs of one binary.
    let queue = Box::new(Queue::<M>::new());
    let mut i = 0u32;
    c.bench_function(name, |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let mut ticket = queue.submit(black_box(i), (i % 4) as u8).expect("open");
            let turn = queue.start().expect("starts");
            queue.finish(turn.id, turn.input).expect("running");
            black_box(completed(&mut ticket))
        });
    });
}

fn coalesce_heavy(c: &mut Criterion) {
    let queue = Queue::<CriticalSectionRawMutex>::new();
    let mut latest: [Option<TurnTicket<'_, _, u32, u32, u8, REFERENCE_DEPTH>>; 4] =
        [None, None, None, None];
    let mut i = 0u32;
    c.bench_function("turn_queue/coalesce_heavy_4_drivers", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let driver = ((i / 4) % 4) as u8;
            let ticket = queue.submit(black_box(i), driver).expect("open");
            // The driver's previous ticket (coalesced by now, or still waiting) is let go.
            latest[usize::from(driver)] = Some(ticket);
            if i.is_multiple_of(4) {
                if let Some(running) = queue.running() {
                    queue.finish(running, i).expect("running");
                }
                black_box(queue.start().ok());
            }
        });
    });
    drop(latest);
}

fn dropped_at_capacity(c: &mut Criterion) {
    let queue = Queue::<CriticalSectionRawMutex>::new();
    let held: Vec<_> = (0..REFERENCE_DEPTH as u32)
        .map(|i| queue.submit(i, (i % 2) as u8).expect("open"))
        .collect();
    let mut i = 0u32;
    c.bench_function("turn_queue/dropped_at_capacity", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let mut ticket = queue.submit(black_box(i), 7).expect("open");
            black_box(ticket.try_settled())
        });
    });
    drop(held);
}

/// The floor's state: the pending inputs (with their drivers) and the parked result.
type FloorState = (Deque<(u32, u8), REFERENCE_DEPTH>, Option<u32>);

/// The floor: what a round trip costs with the least a queue could do, one lock per step.
struct Floor {
    state: Mutex<NoopRawMutex, RefCell<FloorState>>,
}

impl Floor {
    fn new() -> Self {
        Self {
            state: Mutex::new(RefCell::new((Deque::new(), None))),
        }
    }

    /// Four critical sections, each opaque to the optimiser (as the queue's own are).
    #[inline(never)]
    fn round_trip(&self, i: u32) -> Option<u32> {
        let state = &black_box(self).state;
        state.lock(|state| {
            let _ = state.borrow_mut().0.push_back((i, (i % 4) as u8));
        });
        let turn = black_box(state.lock(|state| state.borrow_mut().0.pop_front()));
        let state = &black_box(self).state;
        state.lock(|state| state.borrow_mut().1 = turn.map(|(input, _)| input));
        let state = &black_box(self).state;
        state.lock(|state| state.borrow_mut().1.take())
    }
}

fn floor(c: &mut Criterion) {
    let floor = Box::new(Floor::new());
    let mut i = 0u32;
    c.bench_function("turn_queue/round_trip_floor", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            black_box(floor.round_trip(i))
        });
    });
}

/// Times `round_trip_noop_mutex` and the floor in alternating batches (the best batch of each)
/// and prints their ratio: the run's own baseline, robust against the machine's load.
fn ratio_to_floor() {
    const BATCH: u32 = 200_000;
    let queue = Box::new(Queue::<NoopRawMutex>::new());
    let floor = Box::new(Floor::new());
    let (mut best_queue, mut best_floor) = (f64::MAX, f64::MAX);
    let mut i = 0u32;
    for _ in 0..15 {
        let start = Instant::now();
        for _ in 0..BATCH {
            i = i.wrapping_add(1);
            let mut ticket = queue.submit(black_box(i), (i % 4) as u8).expect("open");
            let turn = queue.start().expect("starts");
            queue.finish(turn.id, turn.input).expect("running");
            black_box(completed(&mut ticket));
        }
        best_queue = best_queue.min(start.elapsed().as_secs_f64());
        let start = Instant::now();
        for _ in 0..BATCH {
            i = i.wrapping_add(1);
            black_box(floor.round_trip(i));
        }
        best_floor = best_floor.min(start.elapsed().as_secs_f64());
    }
    let per = |seconds: f64| seconds * 1e9 / f64::from(BATCH);
    println!(
        "turn_queue/round_trip_noop_mutex vs round_trip_floor (best of 15 alternating batches): \
         {:.1} ns / {:.1} ns = {:.2}",
        per(best_queue),
        per(best_floor),
        best_queue / best_floor
    );
}

fn benches(c: &mut Criterion) {
    round_trip::<CriticalSectionRawMutex>(c, "turn_queue/round_trip");
    round_trip::<NoopRawMutex>(c, "turn_queue/round_trip_noop_mutex");
    floor(c);
    coalesce_heavy(c);
    dropped_at_capacity(c);
    ratio_to_floor();
}

criterion_group!(turn_queue, benches);
criterion_main!(turn_queue);

//! Benchmarks of the co-drive turn queue (depth 32, `u32` inputs and results, `u8` drivers):
//!
//! - `round_trip`: submit → start → finish → the ticket reads its outcome, one turn per
//!   iteration, with `CriticalSectionRawMutex` (the `critical-section/std` host lock) and with
//!   `NoopRawMutex` (the lock itself costs nothing);
//! - `coalesce_heavy_4_drivers`: one submission per iteration from four drivers in bursts of four
//!   (so three in four coalesce into the newest pending entry), the runner starting and finishing
//!   a turn every four submissions, each driver keeping only its latest ticket;
//! - `dropped_at_capacity`: one submission per iteration to a full queue (settled `dropped`).
//!
//! Run:
//! `cargo bench --features turn-queue --bench turn_queue -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use agent_interface::runtime::turn_queue::{REFERENCE_DEPTH, TurnQueue, TurnTicket};
use criterion::{Criterion, criterion_group, criterion_main};
use embassy_sync::blocking_mutex::raw::{CriticalSectionRawMutex, NoopRawMutex, RawMutex};

type Queue<M> = TurnQueue<M, u32, u32, u8, REFERENCE_DEPTH>;

/// Polls a ticket once with the no-op waker, as an executor would.
fn poll<M: RawMutex>(
    ticket: &mut TurnTicket<'_, M, u32, u32, u8, REFERENCE_DEPTH>,
) -> Poll<agent_interface::runtime::turn_queue::Settled<u32>> {
    Pin::new(ticket).poll(&mut Context::from_waker(Waker::noop()))
}

fn round_trip<M: RawMutex>(c: &mut Criterion, name: &str) {
    let queue = Queue::<M>::new();
    let mut i = 0u32;
    c.bench_function(name, |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let mut ticket = queue.submit(black_box(i), (i % 4) as u8).expect("open");
            let turn = queue.start().expect("starts");
            queue.finish(turn.id, turn.input).expect("running");
            black_box(poll(&mut ticket))
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

fn benches(c: &mut Criterion) {
    round_trip::<CriticalSectionRawMutex>(c, "turn_queue/round_trip");
    round_trip::<NoopRawMutex>(c, "turn_queue/round_trip_noop_mutex");
    coalesce_heavy(c);
    dropped_at_capacity(c);
}

criterion_group!(turn_queue, benches);
criterion_main!(turn_queue);

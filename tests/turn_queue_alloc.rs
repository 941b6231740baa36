//! The turn queue allocates nothing per turn: a counting global allocator watches many
//! submit → start → finish/abort → read cycles, submissions that coalesce, submissions on a
//! full queue (dropped), clears and dropped tickets, after a warm-up, and counts zero
//! allocations.
//!
//! Host only. Inputs, results and drivers are plain numbers, so nothing the test itself hands the
//! queue allocates either; tickets are polled with the no-op waker.
#![cfg(not(any(target_family = "wasm", target_os = "none")))]

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use agent_interface::runtime::turn_queue::{
    AlreadyRead, REFERENCE_DEPTH, Settled, TurnQueue, TurnTicket,
};
use agent_interface::session::turns::TurnNotRunReason;
use embassy_sync::blocking_mutex::raw::CriticalSectionRawMutex;

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use counting_allocator::allocations_in;

type Queue = TurnQueue<CriticalSectionRawMutex, u32, u32, u8, REFERENCE_DEPTH>;
type Ticket<'q> = TurnTicket<'q, CriticalSectionRawMutex, u32, u32, u8, REFERENCE_DEPTH>;

/// Polls a ticket once with the no-op waker (registers it, as an executor would).
fn poll(ticket: &mut Ticket<'_>) -> Poll<Result<Settled<u32>, AlreadyRead>> {
    Pin::new(ticket).poll(&mut Context::from_waker(Waker::noop()))
}

/// One submit → start → finish (or abort) → read cycle; the ticket is awaited as a future.
fn round_trip(queue: &Queue, i: u32) {
    let mut ticket = queue.submit(i, (i % 4) as u8).expect("open");
    assert!(poll(&mut ticket).is_pending());
    let turn = queue.start().expect("starts");
    let settled = if i.is_multiple_of(3) {
        queue.abort(turn.id, i).expect("running");
        Settled::Interrupted(i)
    } else {
        queue.finish(turn.id, i).expect("running");
        Settled::Complete(i)
    };
    assert_eq!(poll(&mut ticket), Poll::Ready(Ok(settled)));
}

/// Fills the queue (two alternating drivers), then submits on the full queue: from the tail's
/// driver (coalesced) and from others (dropped); clears; reads or drops every ticket.
fn full_queue(queue: &Queue, round: u32) {
    let mut held: [Option<Ticket<'_>>; REFERENCE_DEPTH] = std::array::from_fn(|_| None);
    for (i, place) in held.iter_mut().enumerate() {
        *place = Some(queue.submit(i as u32, (i % 2) as u8).expect("open"));
    }
    assert_eq!(queue.pending(), REFERENCE_DEPTH);
    let mut replaced = None;
    for i in 0..64 {
        let mut dropped = queue.submit(round + i, 7).expect("open");
        let not_run = dropped
            .try_settled()
            .ok()
            .flatten()
            .and_then(|s| s.not_run());
        assert_eq!(not_run.map(|n| n.reason), Some(TurnNotRunReason::Dropped));
        assert_eq!(dropped.take_dropped_input(), Some(round + i));
        // The newest entry is driver 1's: this replaces it in place.
        let mut coalescing = queue.submit(round + i, 1).expect("open");
        assert!(poll(&mut coalescing).is_pending());
        replaced = Some(coalescing);
    }
    let turn = queue.start().expect("starts");
    queue.finish(turn.id, round).expect("running");
    assert_eq!(replaced.as_mut().map(poll), Some(Poll::Pending));
    let cleared = queue.clear().expect("not re-entered");
    assert_eq!(cleared.cancelled(), REFERENCE_DEPTH - 1);
    assert_eq!(cleared.drivers().count(), 2);
    for (i, ticket) in held.iter_mut().enumerate() {
        if i.is_multiple_of(5) {
            *ticket = None;
        } else if let Some(ticket) = ticket {
            assert!(poll(ticket).is_ready());
        }
    }
}

#[test]
fn submit_and_settle_allocate_nothing_in_steady_state() {
    let queue = Queue::new();
    // Warm-up: the first critical section may set up the host's lock lazily.
    round_trip(&queue, 1);
    full_queue(&queue, 0);

    let cycles = allocations_in(|| {
        for i in 0..20_000 {
            round_trip(&queue, i);
        }
    });
    assert_eq!(
        cycles, 0,
        "allocations over 20 000 submit/start/settle cycles"
    );

    let full = allocations_in(|| {
        for round in 0..200 {
            full_queue(&queue, round * 1000);
        }
    });
    assert_eq!(
        full, 0,
        "allocations while submitting to and settling a full queue"
    );

    // The counter works: the same window around an allocation counts it.
    let control = allocations_in(|| drop(std::hint::black_box(Box::new(1u64))));
    assert_eq!(control, 1);
}

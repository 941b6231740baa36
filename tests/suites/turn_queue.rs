//! Cases of the `turn-queue` runtime piece: the co-drive rules, the interop vectors of
//! `co-drive-queue.json` that the queue can express (copied here as literal cases, each named
//! after its vector), and a seeded random operation-sequence test against a reference model.
//! Uses only `core`, `alloc`, embassy-sync/-futures and the crate, so it also runs on the
//! firmware and on wasm32-wasip1.

use alloc::collections::VecDeque;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::task::Wake;
use alloc::vec;
use alloc::vec::Vec;
use core::future::Future;
use core::pin::Pin;
use core::sync::atomic::{AtomicUsize, Ordering};
use core::task::{Context, Poll, Waker};

use agent_interface::runtime::turn_queue::*;
use agent_interface::session::turns::{
    ExecutionResult, TurnCompletion, TurnError, TurnNotRun, TurnNotRunReason, TurnOutcome,
};
use embassy_sync::blocking_mutex::raw::CriticalSectionRawMutex as Raw;
use embassy_sync::blocking_mutex::raw::NoopRawMutex;

use TurnNotRunReason::{Cancelled, Coalesced, Dropped};

/// The queue most cases use: `u32` inputs and results, string drivers.
type Queue<const N: usize> = TurnQueue<Raw, u32, u32, &'static str, N>;

/// A waker that counts its wakes.
#[derive(Default)]
struct Counter(AtomicUsize);

impl Wake for Counter {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl Counter {
    fn waker() -> (Arc<Self>, Waker) {
        let counter = Arc::new(Self::default());
        let waker = Waker::from(counter.clone());
        (counter, waker)
    }

    fn wakes(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// Polls `future` once with `waker`.
fn poll_with<F: Future + Unpin>(future: &mut F, waker: &Waker) -> Poll<F::Output> {
    Pin::new(future).poll(&mut Context::from_waker(waker))
}

/// The not-run reason a ticket settled with, taking its outcome; `None` if it has not settled or
/// ran.
fn reason<M, T, R, D, const N: usize>(
    ticket: &mut TurnTicket<'_, M, T, R, D, N>,
) -> Option<TurnNotRunReason>
where
    M: embassy_sync::blocking_mutex::raw::RawMutex,
{
    ticket
        .try_settled()
        .ok()
        .flatten()
        .and_then(|settled| settled.not_run())
        .map(|not_run| not_run.reason)
}

/// True while the ticket has not settled (asks without taking anything).
fn waiting<M, T, R, D, const N: usize>(ticket: &mut TurnTicket<'_, M, T, R, D, N>) -> bool
where
    M: embassy_sync::blocking_mutex::raw::RawMutex,
{
    !ticket.is_terminated() && poll_with(ticket, Waker::noop()).is_pending()
}

/// Runs the next pending turn to completion with `result`; returns what `start` handed out.
fn run_next<T, D, const N: usize>(
    queue: &TurnQueue<Raw, T, u32, D, N>,
    result: u32,
) -> Started<T, D> {
    let turn = queue.start().expect("a pending turn starts");
    queue
        .finish(turn.id, result)
        .expect("the running turn finishes");
    turn
}

/// The whole pool of `2N + 1` slots is free: nothing pending, nothing running, no live ticket
/// holds a slot. Proven by using every slot: `N` cancelled and one finished outcome parked unread,
/// `N` pending, one running; one more submission is then refused (`UnreadTickets`) with fewer
/// than `N` pending.
fn assert_capacity_reusable<const N: usize>(queue: &TurnQueue<Raw, u32, u32, u8, N>) {
    assert_eq!(queue.pending(), 0);
    assert_eq!(queue.running(), None);
    let mut cancelled = Vec::new();
    for i in 0..N {
        cancelled.push(queue.submit(i as u32, 10 + (i % 2) as u8).expect("open"));
    }
    assert_eq!(queue.pending(), N);
    assert_eq!(queue.clear().unwrap().cancelled(), N);
    let mut finished = queue.submit(100, 12).expect("open");
    assert!(waiting(&mut finished));
    let turn = queue.start().expect("starts");
    queue.finish(turn.id, 7).expect("finishes");
    let mut queued = Vec::new();
    for i in 0..N {
        let mut ticket = queue
            .submit(200 + i as u32, 20 + (i % 2) as u8)
            .expect("open");
        assert!(waiting(&mut ticket), "submission {i} of {N} found a slot");
        queued.push(ticket);
    }
    let running = queue.start().expect("starts");
    assert_eq!(queue.pending(), N - 1);
    assert_eq!(
        queue.submit(300, 30).map(|ticket| ticket.id()),
        Err(NotAccepted::UnreadTickets(300)),
        "all 2N+1 slots were in use"
    );
    // Settle and read everything; the pool is free again.
    queue.finish(running.id, 8).expect("finishes");
    queue.clear().unwrap();
    for mut ticket in cancelled {
        assert_eq!(reason(&mut ticket), Some(Cancelled));
    }
    assert_eq!(finished.try_settled(), Ok(Some(Settled::Complete(7))));
    let (first, rest) = queued.split_first_mut().expect("N > 0");
    assert_eq!(first.try_settled(), Ok(Some(Settled::Complete(8))));
    for ticket in rest {
        assert_eq!(reason(ticket), Some(Cancelled));
    }
}

/// A queue whose drivers call back into it from `PartialEq`.
type ReentrantQueue = TurnQueue<Raw, u32, u32, Reentrant, 4>;

/// A driver whose `PartialEq` calls every operation of its own queue (issue 37): what touches
/// the entry being compared is refused with a typed refusal, everything else works.
struct Reentrant {
    queue: &'static ReentrantQueue,
    id: u32,
    /// How many comparisons called back.
    calls: &'static AtomicUsize,
}

impl PartialEq for Reentrant {
    fn eq(&self, other: &Self) -> bool {
        let queue = self.queue;
        self.calls.fetch_add(1, Ordering::SeqCst);
        let pending = queue.pending();
        assert!(pending > 0, "a comparison needs a pending entry");
        assert!(alloc::format!("{queue:?}").contains("pending"));
        let _ = queue.is_shut_down();
        let again = Reentrant {
            queue,
            id: 99,
            calls: self.calls,
        };
        assert_eq!(
            queue.submit(99, again).map(|t| t.id()),
            Err(NotAccepted::Reentered(99))
        );
        assert_eq!(queue.clear().map(|c| c.cancelled()), Err(Reentered));
        assert_eq!(queue.shutdown().map(|c| c.cancelled()), Err(Reentered));
        assert!(!queue.is_shut_down());
        if pending == 1 {
            // A runner cannot take the entry being compared: it is woken to poll again.
            let (counter, waker) = Counter::waker();
            let mut next = core::pin::pin!(queue.next_turn());
            assert!(
                next.as_mut()
                    .poll(&mut Context::from_waker(&waker))
                    .is_pending()
            );
            assert_eq!(counter.wakes(), 1);
        }
        match queue.start() {
            // The oldest entry is the one being compared.
            Err(NotStarted::Reentered) => assert_eq!(pending, 1),
            // An older entry starts, and the runner ends it, from inside the comparison.
            Ok(turn) => queue.finish(turn.id, turn.input * 10).unwrap(),
            Err(other) => panic!("start from a comparison gave {other:?}"),
        }
        assert_eq!(queue.pending(), 1);
        self.id == other.id
    }
}

cases! {
    mod rules {
        fn ids_are_minted_at_acceptance_and_kept() {
            let queue: Queue<4> = TurnQueue::new();
            let a = queue.submit(1, "owner").unwrap();
            let b = queue.submit(2, "phone").unwrap();
            assert_eq!((a.id().get(), b.id().get()), (1, 2));
            assert_eq!(a.id().to_string(), "1");
            assert_eq!(u64::from(b.id()), 2);
            let turn = queue.start().unwrap();
            assert_eq!((turn.id, turn.input, turn.driver), (a.id(), 1, "owner"));
            // A queue whose ids start elsewhere.
            let other: Queue<4> = TurnQueue::with_first_id(1000);
            assert_eq!(other.submit(1, "owner").unwrap().id().to_string(), "1000");
            assert_eq!(other.depth(), 4);
        }

        fn same_driver_coalesces_only_the_newest_pending() {
            let queue: Queue<8> = TurnQueue::new();
            let mut running = queue.submit(1, "owner").unwrap();
            let turn = queue.start().unwrap();
            // The running turn's driver does not coalesce: only pending entries do.
            let mut o2 = queue.submit(2, "owner").unwrap();
            assert!(waiting(&mut o2));
            let mut p1 = queue.submit(3, "phone").unwrap();
            // `owner` is no longer the newest pending entry: appended, nothing coalesces.
            let mut o3 = queue.submit(4, "owner").unwrap();
            assert!(waiting(&mut o2) && waiting(&mut p1));
            let o4 = queue.submit(5, "owner").unwrap();
            assert_eq!(reason(&mut o3), Some(Coalesced));
            assert_eq!(queue.pending(), 3);
            queue.finish(turn.id, 0).unwrap();
            assert_eq!(running.try_settled(), Ok(Some(Settled::Complete(0))));
            // The coalesced entry kept its place; it runs with the newest input and id.
            assert_eq!(run_next(&queue, 0).input, 2);
            assert_eq!(run_next(&queue, 0).input, 3);
            let last = run_next(&queue, 0);
            assert_eq!((last.id, last.input), (o4.id(), 5));
        }

        fn the_coalesce_check_runs_before_the_capacity_check() {
            let queue: Queue<2> = TurnQueue::new();
            let _a = queue.submit(1, "owner").unwrap();
            let mut b = queue.submit(2, "phone").unwrap();
            let mut c = queue.submit(3, "phone").unwrap();
            assert_eq!(reason(&mut b), Some(Coalesced));
            assert!(waiting(&mut c));
            let mut d = queue.submit(4, "owner").unwrap();
            assert_eq!(reason(&mut d), Some(Dropped));
            assert_eq!(queue.pending(), 2);
        }

        fn a_full_queue_drops_the_newcomer_and_hands_its_input_back() {
            let queue: Queue<1> = TurnQueue::new();
            let mut kept = queue.submit(1, "owner").unwrap();
            let mut late = queue.submit(2, "phone").unwrap();
            assert!(!late.is_terminated() && waiting(&mut kept));
            assert_eq!(late.take_dropped_input(), Some(2));
            assert_eq!(late.take_dropped_input(), None);
            let settled = late.try_settled().unwrap().unwrap();
            assert_eq!(settled.not_run(), Some(NotRun { turn_id: late.id(), reason: Dropped }));
            assert!(late.is_terminated());
            assert_eq!(late.try_settled(), Err(AlreadyRead { turn_id: late.id() }));
            // A dropped submission still had its id minted.
            assert_eq!(late.id().get(), 2);
            assert_eq!(queue.submit(3, "agent").unwrap().id().get(), 3);
        }

        fn clear_cancels_everything_pending_and_reports_distinct_drivers() {
            let queue: Queue<8> = TurnQueue::new();
            let mut running = queue.submit(0, "agent").unwrap();
            let turn = queue.start().unwrap();
            let mut tickets = vec![
                queue.submit(1, "owner").unwrap(),
                queue.submit(2, "phone").unwrap(),
                queue.submit(3, "owner").unwrap(),
                queue.submit(4, "laptop").unwrap(),
                queue.submit(5, "phone").unwrap(),
            ];
            let cleared = queue.clear().unwrap();
            assert_eq!(cleared.cancelled(), 5);
            assert!(!cleared.is_empty());
            assert_eq!(cleared.drivers().copied().collect::<Vec<_>>(), ["owner", "phone", "laptop"]);
            let debug = r#"Cleared { cancelled: 5, drivers: ["owner", "phone", "laptop"] }"#;
            assert_eq!(alloc::format!("{cleared:?}"), debug);
            for ticket in &mut tickets {
                assert_eq!(reason(ticket), Some(Cancelled));
            }
            // The running turn is untouched and settles through finish.
            assert_eq!(queue.running(), Some(turn.id));
            assert!(waiting(&mut running));
            queue.finish(turn.id, 9).unwrap();
            assert_eq!(running.try_settled(), Ok(Some(Settled::Complete(9))));
            let again = queue.clear().unwrap();
            assert!(again.is_empty());
            assert_eq!(again.drivers().count(), 0);
        }

        fn shutdown_clears_through_the_cancel_path_and_refuses_later_submissions() {
            let queue: Queue<4> = TurnQueue::new();
            let mut running = queue.submit(1, "owner").unwrap();
            let turn = queue.start().unwrap();
            let mut pending = queue.submit(2, "phone").unwrap();
            let cleared = queue.shutdown().unwrap();
            assert_eq!(cleared.drivers().copied().collect::<Vec<_>>(), ["phone"]);
            assert_eq!(reason(&mut pending), Some(Cancelled));
            assert!(queue.is_shut_down());
            let refused = queue.submit(3, "owner").unwrap_err();
            assert_eq!(refused, NotAccepted::ShutDown(3));
            assert_eq!(refused.to_string(), "the turn queue is shut down and accepts no more submissions");
            assert_eq!(refused.into_inner(), 3);
            assert_eq!(queue.start().unwrap_err(), NotStarted::Running(turn.id));
            // The running turn still settles; then nothing runs any more.
            queue.abort(turn.id, 5).unwrap();
            assert_eq!(running.try_settled(), Ok(Some(Settled::Interrupted(5))));
            assert_eq!(queue.start().unwrap_err(), NotStarted::ShutDown);
            assert!(queue.shutdown().unwrap().is_empty());
            // No id was minted for the refused submission.
            let debug = "TurnQueue { depth: 4, pending: 0, running: None, shut_down: true }";
            assert_eq!(alloc::format!("{queue:?}"), debug);
        }

        fn finish_and_abort_settle_only_the_running_turn() {
            let queue: Queue<4> = TurnQueue::new();
            let mut a = queue.submit(1, "owner").unwrap();
            let mut b = queue.submit(2, "phone").unwrap();
            // Nothing runs yet.
            let idle = queue.finish(a.id(), 10).unwrap_err();
            assert_eq!(idle, NotRunning { requested: a.id(), running: None, result: 10 });
            assert_eq!(idle.to_string(), "turn 1 is not running (nothing is)");
            let turn = queue.start().unwrap();
            // A stale or wrong id is refused and the result handed back.
            let wrong = queue.abort(b.id(), 20).unwrap_err();
            assert_eq!((wrong.running, wrong.into_inner()), (Some(turn.id), 20));
            assert!(waiting(&mut a));
            queue.finish(turn.id, 11).unwrap();
            assert_eq!(queue.finish(turn.id, 12).unwrap_err().running, None);
            let turn = queue.start().unwrap();
            queue.abort(turn.id, 21).unwrap();
            let settled = a.try_settled().unwrap().unwrap();
            assert!(!settled.is_interrupted());
            assert_eq!(settled.into_result(), Ok(11));
            let settled = b.try_settled().unwrap().unwrap();
            assert!(settled.is_interrupted());
            assert_eq!(settled.not_run(), None);
            assert_eq!(settled.into_result(), Ok(21));
        }

        fn start_refuses_while_a_turn_runs_and_when_nothing_is_pending() {
            let queue: Queue<4> = TurnQueue::new();
            assert_eq!(queue.start().unwrap_err(), NotStarted::Empty);
            assert_eq!(NotStarted::Empty.to_string(), "no submission is pending");
            let _a = queue.submit(1, "owner").unwrap();
            let _b = queue.submit(2, "phone").unwrap();
            let turn = queue.start().unwrap();
            let busy = queue.start().unwrap_err();
            assert_eq!(busy, NotStarted::Running(turn.id));
            assert_eq!(busy.to_string(), "turn 1 is still running");
            assert_eq!(queue.pending(), 1);
            queue.finish(turn.id, 0).unwrap();
            assert_eq!(queue.start().unwrap().input, 2);
        }

        fn a_pending_ticket_registers_its_waker_and_each_settle_wakes_it() {
            let queue: Queue<4> = TurnQueue::new();
            let (runs, runs_waker) = Counter::waker();
            let (aborted, aborted_waker) = Counter::waker();
            let (replaced, replaced_waker) = Counter::waker();
            let (cleared, cleared_waker) = Counter::waker();
            let mut run = queue.submit(1, "owner").unwrap();
            let mut abort = queue.submit(2, "phone").unwrap();
            let mut coalesced = queue.submit(3, "owner").unwrap();
            assert!(poll_with(&mut run, &runs_waker).is_pending());
            // Polling again with the same task's waker keeps the registration.
            assert!(poll_with(&mut run, &runs_waker).is_pending());
            assert!(poll_with(&mut abort, &aborted_waker).is_pending());
            assert!(poll_with(&mut coalesced, &replaced_waker).is_pending());
            assert_eq!(runs.wakes() + aborted.wakes() + replaced.wakes(), 0);

            let mut cancelled = queue.submit(4, "owner").unwrap();
            assert_eq!(replaced.wakes(), 1, "coalescing wakes the replaced ticket");
            let polled = poll_with(&mut coalesced, Waker::noop());
            assert_eq!(polled.map(|s| s.unwrap().not_run().map(|n| n.reason)), Poll::Ready(Some(Coalesced)));

            let turn = queue.start().unwrap();
            assert_eq!(runs.wakes(), 0, "starting settles nothing");
            queue.finish(turn.id, 10).unwrap();
            assert_eq!(runs.wakes(), 1);
            assert_eq!(poll_with(&mut run, &runs_waker), Poll::Ready(Ok(Settled::Complete(10))));

            let turn = queue.start().unwrap();
            queue.abort(turn.id, 20).unwrap();
            assert_eq!(aborted.wakes(), 1);
            assert_eq!(poll_with(&mut abort, &aborted_waker), Poll::Ready(Ok(Settled::Interrupted(20))));

            // A second task polling the ticket replaces the first one's waker.
            let (first, first_waker) = Counter::waker();
            assert!(poll_with(&mut cancelled, &first_waker).is_pending());
            assert!(poll_with(&mut cancelled, &cleared_waker).is_pending());
            queue.clear().unwrap();
            assert_eq!((first.wakes(), cleared.wakes()), (0, 1));
            assert_eq!(reason(&mut cancelled), Some(Cancelled));
            // Nothing woke anything twice.
            assert_eq!((runs.wakes(), aborted.wakes(), replaced.wakes()), (1, 1, 1));
        }

        fn next_turn_waits_without_spinning_and_is_woken_when_a_turn_can_start() {
            let queue: Queue<4> = TurnQueue::new();
            let (runner, runner_waker) = Counter::waker();
            let mut next = core::pin::pin!(queue.next_turn());
            let mut poll = |waker: &Waker| next.as_mut().poll(&mut Context::from_waker(waker));
            assert!(poll(&runner_waker).is_pending(), "nothing pending");
            assert_eq!(runner.wakes(), 0);
            let _ticket = queue.submit(5, "owner").unwrap();
            assert_eq!(runner.wakes(), 1, "a queued submission wakes the runner");
            let turn = match poll(&runner_waker) {
                Poll::Ready(Some(turn)) => turn,
                other => panic!("expected a turn, got {:?}", other.map(|t| t.map(|t| t.input))),
            };
            assert_eq!((turn.input, queue.running()), (5, Some(turn.id)));

            // While a turn runs, the next one waits even with submissions pending.
            let mut after = core::pin::pin!(queue.next_turn());
            let mut poll = |waker: &Waker| after.as_mut().poll(&mut Context::from_waker(waker));
            let _second = queue.submit(6, "phone").unwrap();
            let (runner, runner_waker) = Counter::waker();
            assert!(poll(&runner_waker).is_pending(), "a turn is running");
            let _coalesced = queue.submit(7, "phone").unwrap();
            assert_eq!(runner.wakes(), 0, "coalescing queues nothing new");
            queue.finish(turn.id, 0).unwrap();
            assert_eq!(runner.wakes(), 1, "finishing the running turn wakes the runner");
            assert!(matches!(poll(&runner_waker), Poll::Ready(Some(Started { input: 7, .. }))));
        }

        fn next_turn_ends_with_none_once_shut_down_and_nothing_runs() {
            let queue: Queue<4> = TurnQueue::new();
            let (runner, runner_waker) = Counter::waker();
            let mut ticket = queue.submit(1, "owner").unwrap();
            let turn = queue.start().unwrap();
            let mut next = core::pin::pin!(queue.next_turn());
            let mut poll = |waker: &Waker| next.as_mut().poll(&mut Context::from_waker(waker));
            assert!(poll(&runner_waker).is_pending());
            queue.shutdown().unwrap();
            assert_eq!(runner.wakes(), 1, "shutting down wakes the runner");
            assert!(poll(&runner_waker).is_pending(), "the running turn still has to end");
            queue.abort(turn.id, 3).unwrap();
            assert_eq!(runner.wakes(), 2);
            assert!(matches!(poll(&runner_waker), Poll::Ready(None)));
            assert_eq!(ticket.try_settled(), Ok(Some(Settled::Interrupted(3))));
            // A second runner replaces the first one's registration and wakes it.
            let queue: Queue<4> = TurnQueue::new();
            let (first, first_waker) = Counter::waker();
            let (second, second_waker) = Counter::waker();
            let mut a = core::pin::pin!(queue.next_turn());
            let mut b = core::pin::pin!(queue.next_turn());
            assert!(a.as_mut().poll(&mut Context::from_waker(&first_waker)).is_pending());
            assert!(b.as_mut().poll(&mut Context::from_waker(&second_waker)).is_pending());
            assert_eq!((first.wakes(), second.wakes()), (1, 0));
        }

        fn next_turn_is_cancel_safe_a_dropped_wait_takes_nothing() {
            let queue: Queue<4> = TurnQueue::new();
            let (runner, runner_waker) = Counter::waker();
            let mut ticket = {
                // Registered, woken by a submission, then dropped unpolled (a `select!` whose
                // other branch won): nothing is taken off the queue.
                let mut next = core::pin::pin!(queue.next_turn());
                assert!(next.as_mut().poll(&mut Context::from_waker(&runner_waker)).is_pending());
                let ticket = queue.submit(1, "owner").unwrap();
                assert_eq!(runner.wakes(), 1);
                ticket
            };
            assert_eq!((queue.pending(), queue.running()), (1, None));
            assert!(waiting(&mut ticket));
            // The next wait takes the turn the dropped one was woken for.
            let mut again = core::pin::pin!(queue.next_turn());
            let turn = match again.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
                Poll::Ready(Some(turn)) => turn,
                other => panic!("expected a turn, got {:?}", other.map(|t| t.map(|t| t.input))),
            };
            assert_eq!(turn.input, 1);
            queue.finish(turn.id, 10).unwrap();
            assert_eq!(ticket.try_settled(), Ok(Some(Settled::Complete(10))));
        }

        fn a_runner_loop_takes_every_turn_in_order_then_ends() {
            let queue: Queue<4> = TurnQueue::new();
            let runner = async {
                let mut ran = Vec::new();
                while let Some(turn) = queue.next_turn().await {
                    embassy_futures::yield_now().await;
                    ran.push(turn.input);
                    queue.finish(turn.id, turn.input * 10).unwrap();
                }
                ran
            };
            let drivers = async {
                let mut settled = Vec::new();
                for input in 1..=3 {
                    let ticket = queue.submit(input, if input % 2 == 0 { "phone" } else { "owner" }).unwrap();
                    settled.push(ticket.await.unwrap());
                    embassy_futures::yield_now().await;
                }
                queue.shutdown().unwrap();
                settled
            };
            let (ran, settled) = embassy_futures::block_on(embassy_futures::join::join(runner, drivers));
            assert_eq!(ran, vec![1, 2, 3]);
            assert_eq!(settled, vec![Settled::Complete(10), Settled::Complete(20), Settled::Complete(30)]);
        }

        fn block_on_awaits_a_ticket_settled_by_another_future() {
            let queue: Queue<4> = TurnQueue::new();
            let mut ticket = queue.submit(6, "owner").unwrap();
            let mut polls = 0;
            let awaited = core::future::poll_fn(|cx| {
                polls += 1;
                Pin::new(&mut ticket).poll(cx)
            });
            let runner = async {
                embassy_futures::yield_now().await;
                let turn = queue.start().unwrap();
                embassy_futures::yield_now().await;
                queue.finish(turn.id, turn.input * 7).unwrap();
            };
            let (settled, ()) = embassy_futures::block_on(embassy_futures::join::join(awaited, runner));
            assert_eq!(settled, Ok(Settled::Complete(42)));
            assert!(polls >= 3, "the ticket was pending before it settled ({polls} polls)");
            // A ticket that is ready at once needs no executor at all.
            let ready = queue.submit(1, "owner").unwrap();
            queue.shutdown().unwrap();
            assert_eq!(crate::support::block_on(ready).unwrap().not_run().map(|n| n.reason), Some(Cancelled));
        }

        fn a_ticket_settles_once_and_is_terminated_after() {
            let queue: Queue<4> = TurnQueue::new();
            let mut ticket = queue.submit(1, "owner").unwrap();
            assert!(!ticket.is_terminated());
            assert_eq!(alloc::format!("{ticket:?}"), "TurnTicket { id: TurnId(1), stage: \"waiting\" }");
            run_next(&queue, 3);
            assert_eq!(poll_with(&mut ticket, Waker::noop()), Poll::Ready(Ok(Settled::Complete(3))));
            assert!(ticket.is_terminated());
            assert_eq!(alloc::format!("{ticket:?}"), "TurnTicket { id: TurnId(1), stage: \"terminated\" }");
            // Read once: asked again, it answers the typed refusal at once.
            let read = AlreadyRead { turn_id: ticket.id() };
            assert_eq!(poll_with(&mut ticket, Waker::noop()), Poll::Ready(Err(read)));
            assert_eq!(ticket.try_settled(), Err(read));
            assert_eq!(read.to_string(), "turn 1's ticket already returned its outcome");
            assert_eq!(ticket.take_dropped_input(), None);
        }

        fn dropped_tickets_block_nothing_and_leak_no_slot() {
            let queue: TurnQueue<Raw, u32, u32, u8, 4> = TurnQueue::new();
            // Dropped while pending, while running, after settling, after coalescing, at capacity.
            drop(queue.submit(1, 1).unwrap());
            let running = queue.submit(2, 2).unwrap();
            let settled = queue.submit(3, 3).unwrap();
            let replaced = queue.submit(4, 4).unwrap();
            let mut newest = queue.submit(5, 4).unwrap();
            drop(replaced);
            let mut at_capacity = queue.submit(6, 5).unwrap();
            assert_eq!(reason(&mut at_capacity), Some(Dropped));
            drop(at_capacity);
            drop(queue.submit(7, 6).unwrap());
            let turn = queue.start().unwrap();
            assert_eq!(turn.input, 1);
            queue.finish(turn.id, 0).unwrap();
            let turn = queue.start().unwrap();
            drop(running);
            queue.finish(turn.id, 0).unwrap();
            run_next(&queue, 0);
            drop(settled);
            let turn = queue.start().unwrap();
            assert_eq!(turn.id, newest.id());
            queue.finish(turn.id, 5).unwrap();
            assert_eq!(newest.try_settled(), Ok(Some(Settled::Complete(5))));
            drop(newest);
            assert_capacity_reusable(&queue);
            assert_capacity_reusable(&queue);
        }

        fn the_slot_pool_holds_exactly_2n_plus_1() {
            assert_capacity_reusable(&TurnQueue::<Raw, u32, u32, u8, 1>::new());
            assert_capacity_reusable(&TurnQueue::<Raw, u32, u32, u8, 2>::new());
            assert_capacity_reusable(&TurnQueue::<Raw, u32, u32, u8, REFERENCE_DEPTH>::new());
        }

        fn a_queue_can_be_static_and_forces_no_send_bound() {
            // `const fn new` puts a shared queue in a `static` (here with the critical-section
            // mutex); with `NoopRawMutex` inputs, results and drivers need not be `Send`.
            static SHARED: TurnQueue<Raw, u32, u32, u8, 2> = TurnQueue::new();
            let mut ticket = SHARED.submit(1, 0).unwrap();
            let turn = SHARED.start().unwrap();
            SHARED.finish(turn.id, 2).unwrap();
            assert_eq!(ticket.try_settled(), Ok(Some(Settled::Complete(2))));
            use alloc::rc::Rc;
            let local: TurnQueue<NoopRawMutex, Rc<str>, Rc<str>, Rc<str>, 2> = TurnQueue::default();
            let owner: Rc<str> = Rc::from("owner");
            let mut ticket = local.submit(Rc::from("hi"), owner.clone()).unwrap();
            let turn = local.start().unwrap();
            assert!(Rc::ptr_eq(&turn.driver, &owner));
            local.finish(turn.id, turn.input).unwrap();
            assert_eq!(ticket.try_settled().map(|s| s.map(|s| s.into_result().ok())), Ok(Some(Some(Rc::from("hi")))));
        }

        fn a_zero_depth_queue_drops_everything() {
            let queue: Queue<0> = TurnQueue::new();
            let mut ticket = queue.submit(1, "owner").unwrap();
            assert_eq!(reason(&mut ticket), Some(Dropped));
            assert_eq!(queue.start().unwrap_err(), NotStarted::Empty);
            assert!(queue.clear().unwrap().is_empty());
        }

        fn not_run_outcomes_convert_into_the_session_family() {
            let queue: Queue<4> = TurnQueue::with_first_id(7);
            let _a = queue.submit(1, "owner").unwrap();
            let mut b = queue.submit(2, "owner").unwrap();
            drop(queue.submit(3, "owner").unwrap());
            let not_run = b.try_settled().unwrap().unwrap().not_run().unwrap();
            assert_eq!(not_run.to_string(), "turn 8 never ran: coalesced");
            let session: TurnNotRun = not_run.into();
            assert_eq!(session, TurnNotRun::new("8", Coalesced));
            assert_eq!(session.to_string(), not_run.to_string());
        }

        fn tickets_convert_into_session_turn_handles() {
            let queue: TurnQueue<Raw, &str, Result<ExecutionResult, String>, &str, 4> = TurnQueue::new();
            let done = queue.submit("a", "owner").unwrap().into_turn_handle::<String>();
            let failed = queue.submit("b", "phone").unwrap().into_turn_handle::<String>();
            let aborted = queue.submit("c", "owner").unwrap().into_turn_handle::<String>();
            let cancelled = queue.submit("d", "phone").unwrap().into_turn_handle::<String>();
            assert_eq!((done.turn_id.as_str(), cancelled.turn_id.as_str()), ("1", "4"));
            assert_eq!(aborted.completed.id().get(), 3);
            let reply = ExecutionResult::new("done");
            let turn = queue.start().unwrap();
            queue.finish(turn.id, Ok(reply.clone())).unwrap();
            let turn = queue.start().unwrap();
            queue.finish(turn.id, Err("model unavailable".to_string())).unwrap();
            let turn = queue.start().unwrap();
            queue.abort(turn.id, Ok(reply.clone())).unwrap();
            queue.clear().unwrap();
            let block = |handle: agent_interface::session::turns::TurnHandle<_>| {
                crate::support::block_on(core::future::IntoFuture::into_future(handle))
            };
            assert_eq!(block(done), Ok(TurnOutcome::from(reply.clone())));
            assert_eq!(block(failed), Err(TurnError::Failed("model unavailable".to_string())));
            let interrupted: TurnCompletion<String> = block(aborted);
            assert!(interrupted.unwrap().is_interrupted());
            let not_run = block(cancelled).unwrap_err();
            assert!(not_run.is_turn_not_run());
            assert_eq!(not_run.not_run(), Some(&TurnNotRun::new("4", Cancelled)));
        }

        fn plain_execution_results_convert_too() {
            let reply = ExecutionResult::new("partial");
            let complete: TurnCompletion = Settled::Complete(reply.clone()).into();
            assert_eq!(complete.unwrap().into_answer().unwrap(), reply);
            let interrupted: TurnCompletion = Settled::Interrupted(reply.clone()).into();
            let partial = interrupted.unwrap().into_answer().unwrap_err();
            assert_eq!(partial.response(), "partial");
            let queue: TurnQueue<Raw, (), ExecutionResult, u8, 1> = TurnQueue::new();
            let _first = queue.submit((), 1).unwrap();
            let mut dropped = queue.submit((), 2).unwrap();
            let never: TurnCompletion = dropped.try_settled().unwrap().unwrap().into();
            assert_eq!(never.unwrap_err().not_run(), Some(&TurnNotRun::new("2", Dropped)));
        }
    }

    mod misuse {
        // Issue 37, point 6: the misuse promise holds for every input.

        fn a_driver_whose_partial_eq_calls_back_into_the_queue_gets_refusals_not_a_panic() {
            static CALLS: AtomicUsize = AtomicUsize::new(0);
            let queue: &'static ReentrantQueue = alloc::boxed::Box::leak(alloc::boxed::Box::new(TurnQueue::new()));
            let driver = |id| Reentrant { queue, id, calls: &CALLS };
            let mut first = queue.submit(1, driver(1)).unwrap();
            // Compared with driver 1's entry, the only one: starting it is refused meanwhile.
            let mut second = queue.submit(2, driver(2)).unwrap();
            assert_eq!(CALLS.load(Ordering::SeqCst), 1);
            assert_eq!(queue.pending(), 2);
            assert!(waiting(&mut first));
            // Compared with driver 2's entry: the older one starts and finishes meanwhile.
            let mut third = queue.submit(3, driver(2)).unwrap();
            assert_eq!(CALLS.load(Ordering::SeqCst), 2);
            assert_eq!(first.try_settled(), Ok(Some(Settled::Complete(10))));
            assert_eq!(reason(&mut second), Some(Coalesced));
            assert_eq!(queue.pending(), 1);
            // Nothing was left lent out: the queue starts, clears and shuts down as usual.
            let turn = queue.start().unwrap();
            assert_eq!((turn.id, turn.input, turn.driver.id), (third.id(), 3, 2));
            queue.finish(turn.id, 30).unwrap();
            assert_eq!(third.try_settled(), Ok(Some(Settled::Complete(30))));
            let _fourth = queue.submit(4, driver(4)).unwrap();
            assert_eq!(queue.shutdown().map(|c| c.cancelled()), Ok(1));
            assert_eq!(CALLS.load(Ordering::SeqCst), 2);
        }

        fn holding_2n_plus_1_settled_tickets_unread_does_not_drop_submissions_silently() {
            let queue: TurnQueue<Raw, u32, u32, u8, 1> = TurnQueue::new();
            let mut unread = Vec::new();
            for i in 0..3 {
                unread.push(queue.submit(i, 0).unwrap());
                run_next(&queue, i);
            }
            assert_eq!(queue.pending(), 0);
            // 2N + 1 = 3 outcomes parked unread, nothing pending: refused with its own reason.
            let refused = queue.submit(9, 1).map(|ticket| ticket.id()).unwrap_err();
            assert_eq!(refused, NotAccepted::UnreadTickets(9));
            assert_eq!(
                refused.to_string(),
                "every slot of the turn queue parks an outcome its ticket has not read"
            );
            // No id was minted for it, and reading one ticket frees its slot.
            assert_eq!(unread[0].try_settled(), Ok(Some(Settled::Complete(0))));
            let mut next = queue.submit(10, 1).unwrap();
            assert_eq!(next.id().get(), 4);
            assert!(waiting(&mut next));
            // With a slot free again, a full queue (N = 1 pending) is what drops, as `dropped`.
            drop(unread.pop());
            assert_eq!(reason(&mut queue.submit(11, 2).unwrap()), Some(Dropped));
        }

        fn running_out_of_ids_is_an_error_not_a_wrap() {
            let queue: Queue<4> = TurnQueue::with_first_id(u64::MAX);
            let mut last = queue.submit(1, "owner").unwrap();
            assert_eq!(last.id().get(), u64::MAX);
            // Neither an append nor a coalesce mints an id once the last one is gone.
            let refused = queue.submit(2, "phone").unwrap_err();
            assert_eq!(refused, NotAccepted::IdsExhausted(2));
            assert_eq!(refused.to_string(), "the turn queue has minted its last turn id");
            assert_eq!(queue.submit(3, "owner").unwrap_err().into_inner(), 3);
            assert_eq!(queue.pending(), 1);
            // What the queue holds still runs and settles.
            run_next(&queue, 5);
            assert_eq!(last.try_settled(), Ok(Some(Settled::Complete(5))));
            assert_eq!(queue.submit(4, "owner").unwrap_err(), NotAccepted::IdsExhausted(4));
            assert!(queue.shutdown().unwrap().is_empty());
            assert_eq!(queue.submit(5, "owner").unwrap_err(), NotAccepted::ShutDown(5));
        }

        fn a_settled_ticket_polled_again_answers_instead_of_pending_for_ever() {
            let queue: Queue<4> = TurnQueue::new();
            // Read as a future, then polled and asked again: `AlreadyRead`, every time.
            let mut ran = queue.submit(1, "owner").unwrap();
            run_next(&queue, 3);
            assert_eq!(poll_with(&mut ran, Waker::noop()), Poll::Ready(Ok(Settled::Complete(3))));
            let read = AlreadyRead { turn_id: ran.id() };
            for _ in 0..2 {
                assert_eq!(poll_with(&mut ran, Waker::noop()), Poll::Ready(Err(read)));
                assert_eq!(ran.try_settled(), Err(read));
            }
            // Every kind of outcome: coalesced, dropped at capacity, cancelled.
            let queue: Queue<1> = TurnQueue::new();
            let mut coalesced = queue.submit(1, "owner").unwrap();
            let mut cancelled = queue.submit(2, "owner").unwrap();
            let mut dropped = queue.submit(3, "phone").unwrap();
            queue.clear().unwrap();
            for ticket in [&mut coalesced, &mut cancelled, &mut dropped] {
                assert!(ticket.try_settled().unwrap().is_some());
                let read = AlreadyRead { turn_id: ticket.id() };
                assert_eq!(ticket.try_settled(), Err(read));
                assert_eq!(poll_with(ticket, Waker::noop()), Poll::Ready(Err(read)));
            }
            // Through the session family's handle, which has no words for "already read", the
            // same completion is answered again.
            let queue: TurnQueue<Raw, (), ExecutionResult, u8, 1> = TurnQueue::new();
            let mut handle = queue.submit((), 1).unwrap().into_turn_handle::<()>().completed;
            queue.shutdown().unwrap();
            let first = poll_with(&mut handle, Waker::noop());
            assert!(matches!(&first, Poll::Ready(Err(error)) if error.is_turn_not_run()), "{first:?}");
            assert_eq!(poll_with(&mut handle, Waker::noop()), first);
            assert_eq!(poll_with(&mut handle, Waker::noop()), first);
        }
    }

    mod vectors {
        // Literal scenarios of tests/interop/vectors/co-drive-queue.json. Its turn ids `t1`,
        // `t2`, … are the queue's minted ids 1, 2, … in order; "shift" is `start` (plus `finish`,
        // which the vectors do not model). `D = Option<&str>` stands for an optional driver id.

        fn vector_max_pending_queue_depth() {
            // MAX_PENDING_QUEUE_DEPTH/{f545c536e,02dedc745}
            assert_eq!(REFERENCE_DEPTH, 32);
            assert_eq!(TurnQueue::<Raw, u32, u32, u8, REFERENCE_DEPTH>::new().depth(), 32);
        }

        fn vector_same_driver_coalesces_tail() {
            // same-driver-coalesces-tail/{f545c536e,02dedc745}
            let queue: Queue<32> = TurnQueue::new();
            let mut t1 = queue.submit(1, "owner").unwrap();
            let mut t2 = queue.submit(2, "owner").unwrap();
            assert_eq!(reason(&mut t1), Some(Coalesced));
            let t3 = queue.submit(3, "owner").unwrap();
            assert_eq!(reason(&mut t2), Some(Coalesced));
            assert_eq!(queue.pending(), 1);
            let ran = run_next(&queue, 0);
            assert_eq!((ran.id, ran.driver), (t3.id(), "owner"));
            assert_eq!(queue.start().unwrap_err(), NotStarted::Empty);
        }

        fn vector_different_drivers_append() {
            // different-drivers-append/{f545c536e,02dedc745}
            let queue: Queue<32> = TurnQueue::new();
            let t1 = queue.submit(1, "owner").unwrap();
            let t2 = queue.submit(2, "remote:a").unwrap();
            let mut t3 = queue.submit(3, "owner").unwrap();
            assert_eq!(queue.pending(), 3);
            let t4 = queue.submit(4, "owner").unwrap();
            assert_eq!(reason(&mut t3), Some(Coalesced));
            assert_eq!(queue.pending(), 3);
            let ran: Vec<_> = (0..3).map(|_| run_next(&queue, 0)).map(|s| (s.id, s.driver)).collect();
            assert_eq!(ran, [(t1.id(), "owner"), (t2.id(), "remote:a"), (t4.id(), "owner")]);
            assert_eq!(queue.start().unwrap_err(), NotStarted::Empty);
        }

        fn vector_undefined_driver_ids_coalesce_with_each_other() {
            // undefined-driver-ids-coalesce-with-each-other/{f545c536e,02dedc745}
            let queue: TurnQueue<Raw, u32, u32, Option<&str>, 32> = TurnQueue::new();
            let mut t1 = queue.submit(1, None).unwrap();
            let mut t2 = queue.submit(2, None).unwrap();
            assert_eq!(reason(&mut t1), Some(Coalesced));
            let mut t3 = queue.submit(3, Some("owner")).unwrap();
            let mut t4 = queue.submit(4, None).unwrap();
            assert!(waiting(&mut t2) && waiting(&mut t3) && waiting(&mut t4));
            assert_eq!(queue.pending(), 3);
        }

        fn vector_capacity_drops_newest() {
            // capacity-drops-newest/{f545c536e,02dedc745}: x35 carries a wake task, which changes
            // nothing here (its driver `a` is not the tail's); releaseWake is not modelled.
            let queue: Queue<32> = TurnQueue::new();
            let driver = |i: u32| if i.is_multiple_of(2) { "a" } else { "b" };
            let mut fill: Vec<_> = (0..32).map(|i| queue.submit(i, driver(i)).unwrap()).collect();
            assert_eq!(queue.pending(), 32);
            let mut x33 = queue.submit(33, "c").unwrap();
            assert_eq!(reason(&mut x33), Some(Dropped));
            let x34 = queue.submit(34, "b").unwrap();
            assert_eq!(reason(&mut fill[31]), Some(Coalesced));
            let mut x35 = queue.submit(35, "a").unwrap();
            assert_eq!(reason(&mut x35), Some(Dropped));
            let ran = queue.start().unwrap();
            assert_eq!((ran.id, ran.driver), (fill[0].id(), "a"));
            assert_eq!(queue.pending(), 31);
            let mut x36 = queue.submit(36, "c").unwrap();
            assert!(waiting(&mut x36));
            let mut x37 = queue.submit(37, "d").unwrap();
            assert_eq!(reason(&mut x37), Some(Dropped));
            assert_eq!(queue.pending(), 32);
            // queueAfter: f1..f30, x34, x36.
            queue.finish(ran.id, 0).unwrap();
            let order: Vec<_> = (0..32).map(|_| run_next(&queue, 0).id).collect();
            let expected: Vec<_> =
                fill[1..31].iter().map(TurnTicket::id).chain([x34.id(), x36.id()]).collect();
            assert_eq!(order, expected);
        }

        fn vector_clear_cancels_all_and_reports_distinct_drivers() {
            // clear-cancels-all-and-reports-distinct-drivers/{f545c536e,02dedc745}: the driver-less
            // entry is reported as `None`, which the host filters (the vectors report only ids).
            let queue: TurnQueue<Raw, u32, u32, Option<&str>, 32> = TurnQueue::new();
            let mut tickets = vec![
                queue.submit(1, Some("owner")).unwrap(),
                queue.submit(2, Some("remote:a")).unwrap(),
                queue.submit(3, None).unwrap(),
                queue.submit(4, Some("owner")).unwrap(),
                queue.submit(5, Some("remote:a")).unwrap(),
            ];
            let cleared = queue.clear().unwrap();
            let ids: Vec<_> = cleared.drivers().flatten().copied().collect();
            assert_eq!(ids, ["owner", "remote:a"]);
            assert_eq!(cleared.cancelled(), 5);
            for ticket in &mut tickets {
                assert_eq!(reason(ticket), Some(Cancelled));
            }
            assert!(queue.clear().unwrap().is_empty());
            assert_eq!(queue.start().unwrap_err(), NotStarted::Empty);
        }

        fn vector_wake_rules_f545c536e() {
            // wake-same-driver-different-wake, wake-same-driver-same-wake,
            // wake-tail-none-new-has-wake, wake-tail-has-wake-new-none (all /f545c536e): the
            // driver alone decides, so with `D` = the driver id every pair coalesces whatever the
            // wake task ids (the released wake `w1` is not modelled).
            let wakes = [
                (Some("w1"), Some("w2")),
                (Some("w1"), Some("w1")),
                (None, Some("w2")),
                (Some("w1"), None),
            ];
            for (first_wake, second_wake) in wakes {
                let queue: Queue<32> = TurnQueue::new();
                let submit = |input, (driver, _wake): (&'static str, Option<&str>)| {
                    queue.submit(input, driver).unwrap()
                };
                let mut t1 = submit(1, ("agent", first_wake));
                let _t2 = submit(2, ("agent", second_wake));
                assert_eq!(reason(&mut t1), Some(Coalesced));
                assert_eq!(queue.pending(), 1);
            }
        }

        fn vector_wake_rules_02dedc745_with_the_wake_task_in_the_driver() {
            // The same four vectors, /02dedc745 (coalescing needs the same driver AND wake task):
            // expressed by making `D` the pair (driver id, wake task id).
            let cases = [
                ((Some("w1"), Some("w2")), false),
                ((Some("w1"), Some("w1")), true),
                ((None, Some("w2")), false),
                ((Some("w1"), None), false),
            ];
            for ((first, second), coalesces) in cases {
                let queue: TurnQueue<Raw, u32, u32, (Option<&str>, Option<&str>), 32> = TurnQueue::new();
                let mut t1 = queue.submit(1, (Some("agent"), first)).unwrap();
                let _t2 = queue.submit(2, (Some("agent"), second)).unwrap();
                if coalesces {
                    assert_eq!(reason(&mut t1), Some(Coalesced));
                    assert_eq!(queue.pending(), 1);
                } else {
                    assert!(waiting(&mut t1));
                    assert_eq!(queue.pending(), 2);
                }
            }
        }

        fn vector_cancel_one_f545c536e() {
            // cancel-one/f545c536e: `cancel` is absent in that revision; t4 (owner) coalesces the
            // tail t3 (owner).
            let queue: Queue<32> = TurnQueue::new();
            let _t1 = queue.submit(1, "owner").unwrap();
            let _t2 = queue.submit(2, "remote:a").unwrap();
            let mut t3 = queue.submit(3, "owner").unwrap();
            let _t4 = queue.submit(4, "owner").unwrap();
            assert_eq!(reason(&mut t3), Some(Coalesced));
            assert_eq!(queue.pending(), 3);
        }

        fn vector_shift_empty() {
            // shift-empty/{f545c536e,02dedc745}
            let queue: Queue<32> = TurnQueue::new();
            assert_eq!(queue.start().unwrap_err(), NotStarted::Empty);
            let cleared = queue.clear().unwrap();
            assert!(cleared.is_empty() && cleared.drivers().next().is_none());
        }

        fn vector_empty_turn_id_is_accepted() {
            // empty-turnId-is-accepted/{f545c536e,02dedc745}: ids are minted here, never empty;
            // the second same-driver entry still coalesces the first.
            let queue: Queue<32> = TurnQueue::new();
            let mut first = queue.submit(1, "owner").unwrap();
            let second = queue.submit(2, "owner").unwrap();
            assert!(!first.id().to_string().is_empty() && first.id() != second.id());
            assert_eq!(reason(&mut first), Some(Coalesced));
        }

        fn vector_co_drive_interleaving() {
            // co-drive-interleaving/{f545c536e,02dedc745}
            let queue: TurnQueue<Raw, &str, u32, &str, 32> = TurnQueue::new();
            let o1 = queue.submit("fix the bug", "owner").unwrap();
            let mut r1 = queue.submit("also run tests", "remote:phone").unwrap();
            let mut r2 = queue.submit("and lint", "remote:phone").unwrap();
            assert_eq!(reason(&mut r1), Some(Coalesced));
            let ran = queue.start().unwrap();
            assert_eq!((ran.id, ran.driver, ran.input), (o1.id(), "owner", "fix the bug"));
            let mut r3 = queue.submit("never mind", "remote:phone").unwrap();
            assert_eq!(reason(&mut r2), Some(Coalesced));
            let mut o2 = queue.submit("stop", "owner").unwrap();
            assert_eq!(queue.pending(), 2);
            let cleared = queue.clear().unwrap();
            assert_eq!(cleared.drivers().copied().collect::<Vec<_>>(), ["remote:phone", "owner"]);
            assert_eq!((reason(&mut r3), reason(&mut o2)), (Some(Cancelled), Some(Cancelled)));
        }
    }

    mod model {
        fn random_operation_sequences_settle_every_ticket_exactly_once() {
            // Thousands of seeded sequences (3 900) at several depths, the same on every target.
            run_sequences::<1>(0x5eed_0001, 900);
            run_sequences::<2>(0x5eed_0002, 900);
            run_sequences::<3>(0x5eed_0003, 1800);
            run_sequences::<REFERENCE_DEPTH>(0x5eed_0032, 300);
        }

        fn the_model_covers_every_outcome() {
            let mut seen = Coverage::default();
            let mut rng = XorShift(0x00c0_ffee);
            for _ in 0..200 {
                run_sequence::<3>(&mut rng, &mut seen);
            }
            assert!(seen.complete > 0 && seen.interrupted > 0, "{seen:?}");
            assert!(seen.coalesced > 0 && seen.dropped > 0 && seen.cancelled > 0, "{seen:?}");
            assert!(seen.refused > 0 && seen.refused_for_unread_tickets > 0, "{seen:?}");
            assert!(seen.abandoned > 0 && seen.capacity_checks > 0, "{seen:?}");
        }
    }
}

/// A tiny xorshift64 generator (no rand crate): deterministic per seed on every target.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number below `bound` (> 0).
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// How often each path was taken (to show the sequences reach them all).
#[derive(Debug, Default)]
struct Coverage {
    complete: usize,
    interrupted: usize,
    coalesced: usize,
    dropped: usize,
    refused_for_unread_tickets: usize,
    cancelled: usize,
    refused: usize,
    abandoned: usize,
    capacity_checks: usize,
}

/// What the reference model says a submission settles with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expected {
    Complete(u32),
    Interrupted(u32),
    NotRun(TurnNotRunReason),
}

/// The model's view of one accepted submission.
struct Record {
    id: TurnId,
    input: u32,
    outcome: Option<Expected>,
    /// Its ticket still exists.
    alive: bool,
    /// Its ticket returned the outcome.
    read: bool,
    /// A pending poll registered this counter's waker (not yet settled).
    registered: bool,
    counter: Arc<Counter>,
    waker: Waker,
    wakes: usize,
}

/// The reference model: the rules written plainly, over a `VecDeque` and a `Vec`.
struct Model<const N: usize> {
    pending: VecDeque<(usize, u8)>,
    running: Option<usize>,
    open: bool,
    records: Vec<Record>,
}

impl<const N: usize> Model<N> {
    /// Slots in use: pending and running chains, and outcomes parked for live, unread tickets
    /// (coalesced and dropped outcomes need no slot).
    fn slots_in_use(&self) -> usize {
        let parked = self
            .records
            .iter()
            .filter(|r| r.alive && !r.read)
            .filter(|r| {
                matches!(
                    r.outcome,
                    Some(
                        Expected::Complete(_)
                            | Expected::Interrupted(_)
                            | Expected::NotRun(Cancelled)
                    )
                )
            })
            .count();
        self.pending.len() + usize::from(self.running.is_some()) + parked
    }

    /// Settles `key`: exactly once, and a registered live ticket is owed one wake.
    fn decide(&mut self, key: usize, outcome: Expected, seen: &mut Coverage) {
        let record = &mut self.records[key];
        assert_eq!(record.outcome, None, "turn {} settled twice", record.id);
        record.outcome = Some(outcome);
        if record.alive && record.registered {
            record.wakes += 1;
            record.registered = false;
        }
        match outcome {
            Expected::Complete(_) => seen.complete += 1,
            Expected::Interrupted(_) => seen.interrupted += 1,
            Expected::NotRun(Coalesced) => seen.coalesced += 1,
            Expected::NotRun(Dropped) => seen.dropped += 1,
            Expected::NotRun(Cancelled) => seen.cancelled += 1,
            Expected::NotRun(reason) => panic!("the model never decides {reason}"),
        }
    }

    fn clear(&mut self, seen: &mut Coverage) -> Vec<u8> {
        let mut drivers = Vec::new();
        while let Some((key, driver)) = self.pending.pop_front() {
            self.decide(key, Expected::NotRun(Cancelled), seen);
            if !drivers.contains(&driver) {
                drivers.push(driver);
            }
        }
        drivers
    }
}

/// Compares what a ticket returns with what the model expects, and marks it read.
fn check_poll<const N: usize>(
    model: &mut Model<N>,
    key: usize,
    ticket: &mut TurnTicket<'_, Raw, u32, u32, u8, N>,
    with_waker: bool,
) {
    let record = &mut model.records[key];
    let polled = if with_waker {
        poll_with(ticket, &record.waker)
    } else {
        match ticket.try_settled() {
            Ok(Some(settled)) => Poll::Ready(Ok(settled)),
            Ok(None) => Poll::Pending,
            Err(read) => Poll::Ready(Err(read)),
        }
    };
    match (record.outcome, record.read, polled) {
        (Some(expected), false, Poll::Ready(Ok(settled))) => {
            let actual = match settled {
                Settled::Complete(result) => Expected::Complete(result),
                Settled::Interrupted(result) => Expected::Interrupted(result),
                Settled::NotRun(not_run) => {
                    assert_eq!(not_run.turn_id, record.id);
                    Expected::NotRun(not_run.reason)
                }
            };
            assert_eq!(actual, expected, "turn {}", record.id);
            if expected == Expected::NotRun(Dropped) {
                assert_eq!(ticket.take_dropped_input(), Some(record.input));
            }
            record.read = true;
            assert!(ticket.is_terminated());
        }
        (Some(_), true, Poll::Ready(Err(read))) => {
            assert_eq!(read.turn_id, record.id);
            assert!(ticket.is_terminated());
        }
        (None, _, Poll::Pending) => {
            record.registered |= with_waker;
        }
        (expected, read, polled) => panic!(
            "turn {}: expected {expected:?} (read: {read}), the ticket gave {:?}",
            record.id,
            polled.map(|s| alloc::format!("{s:?}"))
        ),
    }
}

fn run_sequences<const N: usize>(seed: u64, count: usize) {
    let mut rng = XorShift(seed);
    let mut seen = Coverage::default();
    for _ in 0..count {
        run_sequence::<N>(&mut rng, &mut seen);
    }
}

/// One random sequence over a fresh queue: every step is checked against the model; at the end
/// everything is settled and read, and (unless shut down) the whole slot pool is reused.
fn run_sequence<const N: usize>(rng: &mut XorShift, seen: &mut Coverage) {
    let queue: TurnQueue<Raw, u32, u32, u8, N> = TurnQueue::new();
    let mut model = Model::<N> {
        pending: VecDeque::new(),
        running: None,
        open: true,
        records: Vec::new(),
    };
    let mut tickets: Vec<Option<TurnTicket<'_, Raw, u32, u32, u8, N>>> = Vec::new();
    let drivers = 1 + rng.below(4);
    let steps = 10 + rng.below(70);
    for _ in 0..steps {
        let roll = rng.below(100);
        match roll {
            // submit
            0..=34 => {
                let driver = rng.below(drivers) as u8;
                let input = rng.next() as u32;
                let coalesces = matches!(model.pending.back(), Some(&(_, tail)) if tail == driver);
                let unread = model.open
                    && !coalesces
                    && model.pending.len() < N
                    && model.slots_in_use() == 2 * N + 1;
                match queue.submit(input, driver) {
                    Err(NotAccepted::ShutDown(refused)) => {
                        assert!(!model.open);
                        assert_eq!(refused, input);
                        seen.refused += 1;
                    }
                    Err(NotAccepted::UnreadTickets(refused)) => {
                        assert!(unread, "refused for unread tickets with a slot free");
                        assert_eq!(refused, input);
                        seen.refused_for_unread_tickets += 1;
                    }
                    Err(refused) => panic!("the model never refuses with {refused:?}"),
                    Ok(ticket) => {
                        assert!(model.open, "submit after shutdown was accepted");
                        assert!(
                            !unread,
                            "accepted with every slot parking an unread outcome"
                        );
                        let key = model.records.len();
                        let (counter, waker) = Counter::waker();
                        model.records.push(Record {
                            id: ticket.id(),
                            input,
                            outcome: None,
                            alive: true,
                            read: false,
                            registered: false,
                            counter,
                            waker,
                            wakes: 0,
                        });
                        if key > 0 {
                            assert_eq!(ticket.id().get(), model.records[key - 1].id.get() + 1);
                        }
                        tickets.push(Some(ticket));
                        let tail = model.pending.back().copied();
                        match tail {
                            Some((old, tail_driver)) if tail_driver == driver => {
                                model.decide(old, Expected::NotRun(Coalesced), seen);
                                if let Some(back) = model.pending.back_mut() {
                                    *back = (key, driver);
                                }
                            }
                            _ if model.pending.len() == N => {
                                model.decide(key, Expected::NotRun(Dropped), seen);
                            }
                            _ => model.pending.push_back((key, driver)),
                        }
                    }
                }
            }
            // start
            35..=49 => match (queue.start(), model.running) {
                (Err(NotStarted::Running(id)), Some(key)) => assert_eq!(id, model.records[key].id),
                (Ok(started), None) => {
                    let (key, driver) = model
                        .pending
                        .pop_front()
                        .expect("the model has a pending entry");
                    let record = &model.records[key];
                    assert_eq!(
                        (started.id, started.input, started.driver),
                        (record.id, record.input, driver)
                    );
                    model.running = Some(key);
                }
                (Err(NotStarted::Empty), None) => assert!(model.pending.is_empty() && model.open),
                (Err(NotStarted::ShutDown), None) => {
                    assert!(model.pending.is_empty() && !model.open)
                }
                (actual, running) => panic!("start gave {actual:?}; the model runs {running:?}"),
            },
            // finish or abort, sometimes naming the wrong turn
            50..=64 => {
                let abort = roll >= 60;
                let result = rng.next() as u32;
                let stale = rng.below(5) == 0 || model.running.is_none();
                let id = match model.running {
                    Some(key) if !stale => model.records[key].id,
                    _ if model.records.is_empty() => TurnQueue::<Raw, u32, u32, u8, 1>::new()
                        .submit(0, 0)
                        .map(|t| t.id())
                        .unwrap(),
                    _ => {
                        let key = rng.below(model.records.len());
                        model.records[key].id
                    }
                };
                let ended = if abort {
                    queue.abort(id, result)
                } else {
                    queue.finish(id, result)
                };
                match model.running {
                    Some(key) if model.records[key].id == id => {
                        assert_eq!(ended, Ok(()));
                        model.running = None;
                        let outcome = if abort {
                            Expected::Interrupted(result)
                        } else {
                            Expected::Complete(result)
                        };
                        model.decide(key, outcome, seen);
                    }
                    running => {
                        let refused = ended.unwrap_err();
                        assert_eq!(refused.result, result);
                        assert_eq!(refused.running, running.map(|key| model.records[key].id));
                    }
                }
            }
            // clear, rarely shutdown
            65..=69 => {
                let shutdown = roll == 69 && rng.below(3) == 0;
                let cleared = if shutdown {
                    queue.shutdown().unwrap()
                } else {
                    queue.clear().unwrap()
                };
                if shutdown {
                    model.open = false;
                }
                let cancelled = model.pending.len();
                let drivers = model.clear(seen);
                assert_eq!(cleared.cancelled(), cancelled);
                assert_eq!(cleared.drivers().copied().collect::<Vec<_>>(), drivers);
            }
            // drop a ticket
            70..=77 => {
                let alive: Vec<usize> = (0..tickets.len())
                    .filter(|&k| tickets[k].is_some())
                    .collect();
                if !alive.is_empty() {
                    let key = alive[rng.below(alive.len())];
                    tickets[key] = None;
                    let record = &mut model.records[key];
                    record.alive = false;
                    record.registered = false;
                    seen.abandoned += 1;
                }
            }
            // poll a ticket (with a waker, or without)
            _ => {
                let alive: Vec<usize> = (0..tickets.len())
                    .filter(|&k| tickets[k].is_some())
                    .collect();
                if !alive.is_empty() {
                    let key = alive[rng.below(alive.len())];
                    let with_waker = rng.below(4) != 0;
                    if let Some(ticket) = tickets[key].as_mut() {
                        check_poll(&mut model, key, ticket, with_waker);
                    }
                }
            }
        }
        // The queue agrees with the model after every step, and every owed wake happened once.
        assert_eq!(queue.pending(), model.pending.len());
        assert_eq!(
            queue.running(),
            model.running.map(|key| model.records[key].id)
        );
        assert_eq!(queue.is_shut_down(), !model.open);
        for record in &model.records {
            assert_eq!(
                record.counter.wakes(),
                record.wakes,
                "wakes of turn {}",
                record.id
            );
        }
    }

    // Settle everything: clear (or shut down), finish the running turn, read every ticket.
    let shut = !model.open || rng.below(4) == 0;
    if shut {
        queue.shutdown().unwrap();
        model.open = false;
    } else {
        queue.clear().unwrap();
    }
    model.clear(seen);
    if let Some(key) = model.running.take() {
        queue.finish(model.records[key].id, 1).unwrap();
        model.decide(key, Expected::Complete(1), seen);
    }
    for (key, ticket) in tickets.iter_mut().enumerate() {
        if let Some(ticket) = ticket {
            check_poll(&mut model, key, ticket, true);
            check_poll(&mut model, key, ticket, false);
        }
    }
    for record in &model.records {
        assert!(record.outcome.is_some(), "turn {} never settled", record.id);
        assert!(record.read || !record.alive);
        assert_eq!(
            record.counter.wakes(),
            record.wakes,
            "wakes of turn {}",
            record.id
        );
    }
    drop(tickets);
    if !shut {
        assert_capacity_reusable(&queue);
        seen.capacity_checks += 1;
    }
}

/// Keeps `String` in use on every target (the suite formats ids through it).
#[allow(dead_code)]
fn id_text(id: TurnId) -> String {
    id.to_string()
}

//! Two driver threads co-drive one session through the turn queue while a runner thread takes
//! each turn as it comes: the shape of a std host (a terminal and a paired phone submitting to
//! one agent). The runner awaits `next_turn`, which parks its thread until there is work; no
//! thread spins.
//!
//! Run, in `hosted/`: `cargo run --example co_drive_threads --features turn-queue`.
//!
//! The queue is shared across threads, so its mutex is `CriticalSectionRawMutex`, which needs a
//! `critical-section` implementation in the binary: a std host adds
//! `critical-section = { version = "1", features = ["std"] }` to its dependencies (this crate has
//! it as a dev-dependency). The futures are driven by `futures_executor::block_on`, which parks
//! the thread until its waker is woken; any executor does.

use std::thread;
use std::time::Duration;

use agent_interface::runtime::turn_queue::{CriticalSectionRawMutex, Settled, TurnQueue};
use futures_executor::block_on;

/// One session's queue: four submissions may wait behind the running turn. `Sync`, so the
/// threads share it by reference.
type Queue = TurnQueue<CriticalSectionRawMutex, String, String, &'static str, 4>;

fn main() {
    let queue = Queue::new();
    let outcomes = thread::scope(|scope| {
        let runner = scope.spawn(|| block_on(run_turns(&queue)));
        let terminal = scope.spawn(|| {
            drive(
                &queue,
                "terminal",
                &["fix the failing test", "run the tests"],
            )
        });
        let phone = scope.spawn(|| drive(&queue, "phone", &["what is the status?"]));
        let mut outcomes = terminal.join().expect("the terminal thread");
        outcomes.extend(phone.join().expect("the phone thread"));
        // Every driver has its answer: close the queue, which ends the runner's loop.
        queue
            .shutdown()
            .expect("no driver's comparison is calling back");
        let ran = runner.join().expect("the runner thread");
        assert_eq!(ran, 3, "every submission ran exactly once");
        outcomes
    });
    for (driver, input, settled) in &outcomes {
        match settled {
            Settled::Complete(reply) => println!("{driver}: {input:?} -> {reply}"),
            Settled::Interrupted(partial) => println!("{driver}: {input:?} interrupted: {partial}"),
            Settled::NotRun(not_run) => println!("{driver}: {input:?} not run: {not_run}"),
        }
    }
    let complete = outcomes
        .iter()
        .filter(|(_, _, settled)| matches!(settled, Settled::Complete(_)))
        .count();
    assert_eq!(complete, 3);
}

/// The runner: one turn at a time, until the queue is shut down. Returns how many turns ran.
async fn run_turns(queue: &Queue) -> usize {
    let mut ran = 0;
    while let Some(turn) = queue.next_turn().await {
        // The model call would go here; the queue holds later inputs meanwhile.
        thread::sleep(Duration::from_millis(20));
        let reply = format!("turn {} done for {}", turn.id, turn.driver);
        queue.finish(turn.id, reply).expect("the running turn");
        ran += 1;
    }
    ran
}

/// A driver thread: submits each input, waits for it to settle, then sends the next.
fn drive(
    queue: &Queue,
    driver: &'static str,
    inputs: &[&str],
) -> Vec<(&'static str, String, Settled<String>)> {
    inputs
        .iter()
        .map(|input| {
            let ticket = queue
                .submit((*input).into(), driver)
                .expect("the queue is open");
            println!("{driver}: submitted {input:?} as turn {}", ticket.id());
            // Awaited by value, so never `AlreadyRead`.
            let settled = block_on(ticket).expect("awaited once");
            (driver, (*input).into(), settled)
        })
        .collect()
}

//! The turn queue: a `TurnQueue` of the reference depth (32) over embassy-sync's `NoopRawMutex`
//! (single-threaded, needs nothing from the target), driven by the input: each byte is an
//! operation (`submit` from one of four drivers, `start`, `finish`, `abort`, `clear`), then every
//! ticket is polled once for its outcome and the queue shut down.
//!
//! Answer: a checksum of the settled outcomes.
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use agent_interface::runtime::turn_queue::{REFERENCE_DEPTH, Settled, TurnQueue};
use embassy_sync::blocking_mutex::raw::NoopRawMutex;

type Queue = TurnQueue<NoopRawMutex, u32, u32, u8, REFERENCE_DEPTH>;

/// Runs the operations of `input` on a fresh queue.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let queue = Queue::new();
    let mut tickets = Vec::new();
    let mut running = None;
    let mut sum = 0u32;
    for (at, op) in input.iter().enumerate() {
        match op % 8 {
            0..=3 => match queue.submit(at as u32, op % 4) {
                Ok(ticket) => tickets.push(ticket),
                Err(refused) => sum = sum.wrapping_add(refused.into_inner()),
            },
            4 => {
                if let Ok(turn) = queue.start() {
                    running = Some(turn.id);
                    sum = sum.wrapping_add(turn.input ^ u32::from(turn.driver));
                }
            }
            5 => {
                if let Some(id) = running.take()
                    && let Err(refused) = queue.finish(id, at as u32)
                {
                    sum = sum.wrapping_add(refused.result);
                }
            }
            6 => {
                if let Some(id) = running.take()
                    && let Err(refused) = queue.abort(id, at as u32)
                {
                    sum = sum.wrapping_add(refused.result);
                }
            }
            _ => {
                if let Ok(cleared) = queue.clear() {
                    sum = sum.wrapping_add(cleared.drivers().count() as u32);
                }
            }
        }
    }
    if let Ok(cleared) = queue.shutdown() {
        sum = sum.wrapping_add(cleared.drivers().count() as u32);
    }
    for ticket in &mut tickets {
        let outcome = match ticket.try_settled() {
            Ok(Some(Settled::Complete(result))) => result,
            Ok(Some(Settled::Interrupted(partial))) => partial << 1,
            Ok(Some(Settled::NotRun(not_run))) => not_run.reason as u32 + 7,
            Ok(None) => 3,
            Err(_) => 5,
        };
        sum = sum
            .wrapping_mul(31)
            .wrapping_add(outcome ^ ticket.id().get() as u32);
    }
    sum
}

size_support::wasm_exports!(run);

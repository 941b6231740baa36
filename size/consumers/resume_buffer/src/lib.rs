//! The session protocol's resume buffer (`ResumeBuffer`), driven by the input: each byte is a
//! move. Below 160 it stamps a frame of that many bytes (the frame is its size), below 208 it
//! acks through the last seq less the byte's low bits, and otherwise it resumes after the last
//! seq less those bits, summing the frames of the tail or counting an overrun.
//!
//! Input: the moves. Answer: the sum of the frames replayed, the overruns and the last seq.
#![no_std]

extern crate alloc;

use agent_interface::runtime::session_protocol::{ResumeBuffer, ResumeLimits};

/// Drives one resume buffer through the moves of `input`.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let mut buffer = ResumeBuffer::new(ResumeLimits::new(64, 4096));
    let mut replayed = 0u32;
    let mut overruns = 0u32;
    for &step in input {
        let back = u64::from(step & 0x0f);
        match step {
            0..160 => {
                buffer.append(u32::from(step), usize::from(step));
            }
            160..208 => buffer.ack_through(buffer.last_seq().saturating_sub(back)),
            _ => match buffer.tail_after(buffer.last_seq().saturating_sub(back)) {
                Ok(tail) => {
                    replayed = tail.fold(replayed, |sum, (_, frame)| sum.wrapping_add(*frame))
                }
                Err(_) => overruns += 1,
            },
        }
    }
    replayed ^ overruns << 16 ^ (buffer.last_seq() as u32) << 24
}

size_support::wasm_exports!(run);

//! The hand-off machine: one ownership transaction (`HandoffTransaction`), begun from a manifest
//! and moved by the input: each byte is a move (`0` transferring, `1` staged, `2` abandoned with a
//! refusal) or a commit (`3` with this hand-off's acknowledgement, `4` with another's).
//!
//! Input: the hand-off id, a NUL byte, then the moves. Answer: the final phase, the count of
//! refused moves and whether the source still owns the session.
#![no_std]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use agent_interface::session_mobility::handoff::{
    HandoffAdvance, HandoffCommitAck, HandoffIntegrity, HandoffManifest, HandoffPhase,
    HandoffRefusal, HandoffTransaction, HandoffTransitionDetail,
};

/// Drives one hand-off transaction through the moves of `input`.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let (handoff_id, moves) = size_support::split_text(input);
    let manifest = HandoffManifest::new(
        handoff_id,
        "session_1",
        "laptop",
        "desktop",
        Vec::new(),
        HandoffIntegrity::new(String::new(), input.len() as u64),
        1000,
    );
    let mut tx = HandoffTransaction::begin(&manifest);
    let mut refused = 0u32;
    for (at, step) in moves.iter().enumerate() {
        let accepted = match step % 5 {
            0 => tx
                .advance(
                    HandoffAdvance::Transferring,
                    HandoffTransitionDetail::none(),
                )
                .is_accepted(),
            1 => tx
                .advance(HandoffAdvance::Staged, HandoffTransitionDetail::none())
                .is_accepted(),
            2 => tx
                .advance(
                    HandoffAdvance::Abandoned,
                    HandoffTransitionDetail::refusal(HandoffRefusal::IntegrityFailed)
                        .with_detail("abandoned by the host"),
                )
                .is_accepted(),
            3 => tx
                .commit(&HandoffCommitAck::new(handoff_id, "desktop", at as u64))
                .is_accepted(),
            _ => tx
                .commit(&HandoffCommitAck::new("another", "desktop", at as u64))
                .is_accepted(),
        };
        refused += u32::from(!accepted);
    }
    let phase = match tx.outcome().phase {
        HandoffPhase::Offered => 0,
        HandoffPhase::Transferring => 1,
        HandoffPhase::Staged => 2,
        HandoffPhase::Committed => 3,
        HandoffPhase::Abandoned => 4,
    };
    phase | refused << 8 | u32::from(tx.source_still_owns()) << 31
}

size_support::wasm_exports!(run);

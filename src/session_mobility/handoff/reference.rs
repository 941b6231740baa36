//! Reference host effects a host may plug into its composition: cutting a payload into frames,
//! reassembling them, and judging a payload against its integrity with the host's digest. The
//! machines never call these on their own; a host that needs another policy writes its own.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::num::NonZeroUsize;

use super::composition::{
    AssembleOutcome, HandoffAssembler, HandoffChunkFrame, IntegrityFailure, IntegrityOutcome,
};
use super::contracts::HandoffIntegrity;

/// The refusal an [`OrderedChunkAssembler`] gives a chunk of another hand-off.
pub const WRONG_HANDOFF_REJECTION: &str = "wrong-handoff";

/// The refusal an [`OrderedChunkAssembler`] gives a chunk whose total differs from the first
/// chunk's.
pub const TOTAL_CHANGED_REJECTION: &str = "total-changed";

/// Cuts `serialized` into the frames of `handoff_id`, in order, each carrying at most
/// `max_chars` characters (a frame never splits a UTF-8 sequence). An empty payload is one empty
/// frame, so every transfer has at least one chunk.
///
/// A payload of more than `u32::MAX` frames cannot be indexed; it yields the frames that can be
/// (a host never seals such a payload: it would be terabytes).
#[must_use]
pub fn split_into_chunks(
    handoff_id: &str,
    serialized: &str,
    max_chars: NonZeroUsize,
) -> Vec<HandoffChunkFrame> {
    let mut pieces: Vec<&str> = Vec::new();
    let mut rest = serialized;
    loop {
        let cut = rest
            .char_indices()
            .nth(max_chars.get())
            .map_or(rest.len(), |(at, _)| at);
        let (piece, tail) = rest.split_at(cut);
        pieces.push(piece);
        rest = tail;
        if rest.is_empty() {
            break;
        }
    }
    let total = u32::try_from(pieces.len()).unwrap_or(u32::MAX);
    (0..total)
        .zip(pieces)
        .filter_map(|(index, piece)| HandoffChunkFrame::new(handoff_id, index, total, piece).ok())
        .collect()
}

/// A reassembler of one transfer's chunks in any order: the first chunk fixes the total, a
/// repeated index changes nothing ([`AssembleOutcome::Duplicate`]), another hand-off's chunk or a
/// changed total is refused ([`WRONG_HANDOFF_REJECTION`], [`TOTAL_CHANGED_REJECTION`]), and the
/// last missing piece completes the payload, pieces joined by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderedChunkAssembler {
    handoff_id: String,
    total: Option<u32>,
    pieces: BTreeMap<u32, String>,
}

impl OrderedChunkAssembler {
    /// An assembler for the chunks of `handoff_id`, holding none.
    #[must_use]
    pub fn new(handoff_id: impl Into<String>) -> Self {
        Self {
            handoff_id: handoff_id.into(),
            total: None,
            pieces: BTreeMap::new(),
        }
    }

    fn received(&self) -> u32 {
        u32::try_from(self.pieces.len()).unwrap_or(u32::MAX)
    }
}

impl HandoffAssembler for OrderedChunkAssembler {
    fn accept(&mut self, chunk: &HandoffChunkFrame) -> AssembleOutcome {
        let (received, expected) = (self.received(), self.total);
        let rejection = if chunk.handoff_id() != self.handoff_id {
            WRONG_HANDOFF_REJECTION
        } else if expected.is_some_and(|total| total != chunk.total()) {
            TOTAL_CHANGED_REJECTION
        } else {
            let expected = Some(chunk.total());
            self.total = expected;
            if self.pieces.contains_key(&chunk.index()) {
                return AssembleOutcome::Duplicate { received, expected };
            }
            self.pieces.insert(chunk.index(), chunk.data().into());
            let received = self.received();
            if received < chunk.total() {
                return AssembleOutcome::Accepted { received, expected };
            }
            let serialized = self.pieces.values().map(String::as_str).collect();
            return AssembleOutcome::Complete {
                serialized,
                received,
                expected,
            };
        };
        AssembleOutcome::Refused {
            rejection: rejection.into(),
            received,
            expected,
        }
    }
}

impl HandoffIntegrity {
    /// Judges `serialized` against this integrity: [`IntegrityFailure::Truncated`] when its byte
    /// length differs, else [`IntegrityFailure::DigestMismatch`] when `digest(serialized)` is not
    /// [`digest`](Self::digest), else intact. `digest` is the host's (the sealing's) and runs only
    /// when the lengths agree.
    #[must_use]
    pub fn check(&self, serialized: &str, digest: impl FnOnce(&str) -> String) -> IntegrityOutcome {
        let actual_bytes = serialized.len() as u64;
        let failure = if actual_bytes != self.byte_length {
            IntegrityFailure::Truncated
        } else if digest(serialized) != self.digest {
            IntegrityFailure::DigestMismatch
        } else {
            return IntegrityOutcome::Intact;
        };
        IntegrityOutcome::Failed {
            failure,
            expected_bytes: self.byte_length,
            actual_bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn chars(n: usize) -> NonZeroUsize {
        NonZeroUsize::new(n).expect("non-zero")
    }

    #[test]
    fn split_keeps_every_character_and_never_splits_a_sequence() {
        for text in ["", "a", "héllo wörld ✓ 😀 done", "abcdef"] {
            for max in 1..8 {
                let frames = split_into_chunks("h", text, chars(max));
                assert!(!frames.is_empty());
                let total = frames.len() as u32;
                for (i, frame) in frames.iter().enumerate() {
                    assert_eq!((frame.index(), frame.total()), (i as u32, total));
                    assert!(frame.data().chars().count() <= max);
                }
                let joined: String = frames.iter().map(HandoffChunkFrame::data).collect();
                assert_eq!(joined, text);
            }
        }
    }

    #[test]
    fn the_assembler_completes_in_any_order_and_refuses_what_is_not_its_own() {
        let text = "a payload of a few characters";
        let mut frames = split_into_chunks("h1", text, chars(4));
        frames.reverse();
        let mut assembler = OrderedChunkAssembler::new("h1");
        let other = HandoffChunkFrame::new("h2", 0, 1, "x").expect("valid");
        let refused = assembler.accept(&other);
        assert!(
            matches!(refused, AssembleOutcome::Refused { ref rejection, .. } if rejection == WRONG_HANDOFF_REJECTION)
        );
        let last = frames.len() - 1;
        for (n, frame) in frames.iter().enumerate() {
            let outcome = assembler.accept(frame);
            if n == 0 {
                assert_eq!(
                    assembler.accept(frame),
                    AssembleOutcome::Duplicate {
                        received: 1,
                        expected: Some(frames.len() as u32)
                    }
                );
                let changed = HandoffChunkFrame::new("h1", 0, 99, "x").expect("valid");
                let refused = assembler.accept(&changed);
                assert!(
                    matches!(refused, AssembleOutcome::Refused { ref rejection, .. } if rejection == TOTAL_CHANGED_REJECTION)
                );
            }
            match outcome {
                AssembleOutcome::Complete { serialized, .. } => {
                    assert_eq!(n, last);
                    assert_eq!(serialized, text);
                }
                AssembleOutcome::Accepted { received, .. } => assert_eq!(received, n as u32 + 1),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    #[test]
    fn integrity_checks_length_before_the_digest() {
        let integrity = HandoffIntegrity::new("d", 3);
        let digest_of = |text: &str| if text == "abc" { "d" } else { "x" }.to_string();
        assert_eq!(integrity.check("abc", digest_of), IntegrityOutcome::Intact);
        let truncated = integrity.check("ab", |_| unreachable!("no digest of a short payload"));
        assert!(matches!(
            truncated,
            IntegrityOutcome::Failed {
                failure: IntegrityFailure::Truncated,
                expected_bytes: 3,
                actual_bytes: 2
            }
        ));
        assert!(matches!(
            integrity.check("abd", digest_of),
            IntegrityOutcome::Failed {
                failure: IntegrityFailure::DigestMismatch,
                ..
            }
        ));
    }
}

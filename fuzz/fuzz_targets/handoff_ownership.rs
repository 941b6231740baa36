//! The hand-off ownership machine (`session_mobility::handoff::ownership`), driven by arbitrary
//! sequences of advances and commits and checked against a model of the transition table.
//!
//! Properties:
//! - every answer is the model's: the table (offered → transferring | abandoned, transferring →
//!   staged | abandoned, staged → committed | abandoned, nothing out of committed or abandoned),
//!   `committed` only through a commit with this hand-off's acknowledgement, a re-delivered
//!   acknowledgement answered as a duplicate, an acknowledgement for another hand-off refused;
//! - a refusal changes nothing (the whole transaction compares equal);
//! - the source owns in every phase but `committed`; a committed transaction holds the
//!   acknowledgement that committed it and no refusal;
//! - the wire form round-trips after every step.
#![no_main]

use agent_interface::session_mobility::handoff::{
    HandoffAdvance, HandoffCommitAck, HandoffCommitResult, HandoffPhase, HandoffRefusal,
    HandoffTransaction, HandoffTransition, HandoffTransitionDetail, HandoffTransitionRefusal,
};
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    Advance {
        to: u8,
        refusal: Option<u8>,
        detail: Option<u8>,
    },
    Commit {
        other_handoff: bool,
        device: u8,
        at: u64,
    },
}

#[derive(Clone, Debug, PartialEq)]
struct Model {
    phase: HandoffPhase,
    refusal: Option<HandoffRefusal>,
    detail: Option<String>,
    ack: Option<HandoffCommitAck>,
}

fn allowed(from: HandoffPhase, to: HandoffPhase) -> bool {
    use HandoffPhase::*;
    matches!(
        (from, to),
        (Offered, Transferring | Abandoned)
            | (Transferring, Staged | Abandoned)
            | (Staged, Committed | Abandoned)
    )
}

fuzz_target!(|ops: Vec<Op>| {
    let mut transaction: HandoffTransaction =
        serde_json::from_str(r#"{"handoffId":"handoff-1","sessionId":"sess-1","phase":"offered"}"#)
            .unwrap();
    let mut model = Model {
        phase: HandoffPhase::Offered,
        refusal: None,
        detail: None,
        ack: None,
    };
    for op in ops.into_iter().take(64) {
        let before = transaction.clone();
        match op {
            Op::Advance {
                to,
                refusal,
                detail,
            } => {
                let next = HandoffAdvance::ALL[usize::from(to) % HandoffAdvance::ALL.len()];
                let refusal = refusal
                    .map(|r| HandoffRefusal::ALL[usize::from(r) % HandoffRefusal::ALL.len()]);
                let detail = detail.map(|d| format!("detail {d}"));
                let mut given = HandoffTransitionDetail::none();
                given.refusal = refusal;
                given.detail = detail.clone();
                let answer = transaction.advance(next, given);
                if allowed(model.phase, next.phase()) {
                    assert_eq!(answer, HandoffTransition::Accepted);
                    model.phase = next.phase();
                    if refusal.is_some() {
                        model.refusal = refusal;
                    }
                    if detail.is_some() {
                        model.detail = detail;
                    }
                } else {
                    assert_eq!(
                        answer,
                        HandoffTransition::Refused(HandoffTransitionRefusal::IllegalTransition {
                            from: model.phase,
                            to: next.phase(),
                        })
                    );
                    assert_eq!(
                        transaction, before,
                        "a refused advance changed the transaction"
                    );
                }
            }
            Op::Commit {
                other_handoff,
                device,
                at,
            } => {
                let handoff = if other_handoff {
                    "handoff-2"
                } else {
                    "handoff-1"
                };
                let ack = HandoffCommitAck::new(handoff, format!("device-{}", device % 3), at);
                let answer = transaction.commit(&ack);
                if other_handoff {
                    assert!(matches!(
                        answer,
                        HandoffCommitResult::Refused(
                            HandoffTransitionRefusal::AckForAnotherHandoff { .. }
                        )
                    ));
                    assert_eq!(transaction, before);
                } else if model.phase == HandoffPhase::Committed {
                    assert_eq!(answer, HandoffCommitResult::Duplicate);
                    assert_eq!(
                        transaction, before,
                        "a duplicate acknowledgement changed the transaction"
                    );
                } else if model.phase == HandoffPhase::Staged {
                    assert_eq!(answer, HandoffCommitResult::Committed);
                    model.phase = HandoffPhase::Committed;
                    model.refusal = None;
                    model.ack = Some(ack);
                } else {
                    assert!(matches!(
                        answer,
                        HandoffCommitResult::Refused(
                            HandoffTransitionRefusal::IllegalTransition { .. }
                        )
                    ));
                    assert_eq!(
                        transaction, before,
                        "a refused commit changed the transaction"
                    );
                }
            }
        }
        let seen = Model {
            phase: transaction.phase(),
            refusal: transaction.refusal(),
            detail: transaction.detail().map(str::to_owned),
            ack: transaction.ack().cloned(),
        };
        assert_eq!(seen, model, "the transaction differs from the model");
        assert_eq!(transaction.handoff_id(), "handoff-1");
        assert_eq!(transaction.session_id(), "sess-1");
        assert_eq!(
            transaction.source_still_owns(),
            model.phase != HandoffPhase::Committed
        );
        let outcome = transaction.outcome();
        assert_eq!(
            (outcome.phase, outcome.refusal),
            (model.phase, model.refusal)
        );
        let wire = serde_json::to_string(&transaction).unwrap();
        let back: HandoffTransaction = serde_json::from_str(&wire).expect("the wire form decodes");
        assert_eq!(
            back, transaction,
            "the wire form does not round-trip: {wire}"
        );
    }
});

//! The hand-off ownership machine (`handoff-ownership`): one transaction per transfer, the
//! transition table, and the commit that alone moves authority.
//!
//! A [`HandoffTransaction`] starts `offered` ([`begin_handoff`]) and moves only along the table of
//! [`HandoffPhase::allowed_next`]. [`advance_handoff`] takes the moves that need no evidence
//! (to `transferring`, `staged` or `abandoned`); [`commit_handoff`] is the only way to
//! `committed`, and it needs the destination's acknowledgement of durable persistence. Every
//! refusal is returned, never ignored, and leaves the transaction exactly as it was: an ignored
//! transition would let two machines each believe they own the session.
//!
//! # Rules (catalog §10 items 1-3)
//!
//! - A move the table does not list is refused with
//!   [`HandoffTransitionRefusal::IllegalTransition`], whose text names the current phase and
//!   says `cannot move to '<next>'`.
//! - [`commit_handoff`] checks, in order: the acknowledgement is for another hand-off → refused
//!   ([`HandoffTransitionRefusal::AckForAnotherHandoff`]); the transaction is already committed →
//!   accepted as a [`HandoffCommitResult::Duplicate`] with no change; (the acknowledgement does
//!   not assert durable persistence → refused: unrepresentable here, see
//!   [`DurablyPersisted`](super::DurablyPersisted)); otherwise only `staged` may become
//!   `committed`, and the transaction keeps the acknowledgement to answer duplicates.
//! - The source is authoritative in every phase but `committed` ([`source_still_owns`]), so a
//!   connection lost before a matching acknowledgement arrives leaves the source authoritative.
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::string::String;

use super::contracts::{
    HandoffCommitAck, HandoffManifest, HandoffOutcome, HandoffPhase, HandoffRefusal,
};

string_enum! {
    /// Where [`advance_handoff`] may be asked to move a transaction: every phase but `offered`
    /// (where a transaction only starts) and `committed` (which only [`commit_handoff`] reaches).
    pub enum HandoffAdvance {
        /// `'transferring'`.
        Transferring = "transferring",
        /// `'staged'`.
        Staged = "staged",
        /// `'abandoned'`.
        Abandoned = "abandoned",
    }
}

impl HandoffAdvance {
    /// The phase this move targets.
    #[must_use]
    pub const fn phase(self) -> HandoffPhase {
        match self {
            Self::Transferring => HandoffPhase::Transferring,
            Self::Staged => HandoffPhase::Staged,
            Self::Abandoned => HandoffPhase::Abandoned,
        }
    }

    /// The move targeting `phase`; `None` for `offered` and `committed`.
    #[must_use]
    pub const fn from_phase(phase: HandoffPhase) -> Option<Self> {
        match phase {
            HandoffPhase::Transferring => Some(Self::Transferring),
            HandoffPhase::Staged => Some(Self::Staged),
            HandoffPhase::Abandoned => Some(Self::Abandoned),
            HandoffPhase::Offered | HandoffPhase::Committed => None,
        }
    }
}

/// What an accepted move records on the transaction (the `detail` argument of
/// `advanceHandoff`): each member is copied only when given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct HandoffTransitionDetail {
    /// The refusal to record (typically with a move to `abandoned`).
    pub refusal: Option<HandoffRefusal>,
    /// The explanation to record.
    pub detail: Option<String>,
}

impl HandoffTransitionDetail {
    /// Nothing to record.
    #[must_use]
    pub const fn none() -> Self {
        Self {
            refusal: None,
            detail: None,
        }
    }

    /// Record `refusal`.
    #[must_use]
    pub const fn refusal(refusal: HandoffRefusal) -> Self {
        Self {
            refusal: Some(refusal),
            detail: None,
        }
    }

    /// The same, recording `refusal` as well.
    #[must_use]
    pub const fn with_refusal(mut self, refusal: HandoffRefusal) -> Self {
        self.refusal = Some(refusal);
        self
    }
}

optional_setters!(HandoffTransitionDetail {
    /// The same, recording `detail` as well.
    with_detail => detail: impl Into<String>,
});

/// Why a move or a commit was refused. `Display` gives the reference's reason text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum HandoffTransitionRefusal {
    /// The table does not list `from → to`.
    #[error(
        "a hand-off in phase '{from}' cannot move to '{to}'. Refused rather than ignored: an \
         ignored transition leaves the caller believing it happened, and in an ownership \
         protocol that means two machines can each believe they are authoritative."
    )]
    IllegalTransition {
        /// The phase the transaction is in (and stays in).
        from: HandoffPhase,
        /// The phase that was asked for.
        to: HandoffPhase,
    },
    /// The acknowledgement is for another hand-off: an ack from another transfer never moves
    /// this one.
    #[error(
        "acknowledgement is for hand-off '{acknowledged}', not '{handoff_id}'. An ack from \
         another transfer must never move this one."
    )]
    AckForAnotherHandoff {
        /// The hand-off the acknowledgement names.
        acknowledged: String,
        /// This transaction's hand-off.
        handoff_id: String,
    },
}

/// The answer of [`advance_handoff`] (`ITransitionResult` without the transaction, which the
/// caller holds).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HandoffTransition {
    /// The transaction moved (and recorded the given refusal and detail).
    Accepted,
    /// Nothing was written; the reason says why.
    Refused(HandoffTransitionRefusal),
}

impl HandoffTransition {
    /// True when the move happened.
    #[must_use]
    pub const fn is_accepted(&self) -> bool {
        matches!(self, Self::Accepted)
    }

    /// Why the move was refused, when it was.
    #[must_use]
    pub const fn refusal(&self) -> Option<&HandoffTransitionRefusal> {
        match self {
            Self::Accepted => None,
            Self::Refused(refusal) => Some(refusal),
        }
    }
}

/// The answer of [`commit_handoff`] (`ICommitResult`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HandoffCommitResult {
    /// `staged` became `committed`; the source is now read-only.
    Committed,
    /// The transaction was already committed for this hand-off: accepted, nothing changed (a
    /// re-delivered acknowledgement).
    Duplicate,
    /// Nothing was written; the reason says why.
    Refused(HandoffTransitionRefusal),
}

impl HandoffCommitResult {
    /// True for [`Committed`](Self::Committed) and [`Duplicate`](Self::Duplicate).
    #[must_use]
    pub const fn is_accepted(&self) -> bool {
        !matches!(self, Self::Refused(_))
    }

    /// True only for [`Duplicate`](Self::Duplicate).
    #[must_use]
    pub const fn is_duplicate(&self) -> bool {
        matches!(self, Self::Duplicate)
    }

    /// Why the commit was refused, when it was.
    #[must_use]
    pub const fn refusal(&self) -> Option<&HandoffTransitionRefusal> {
        match self {
            Self::Refused(refusal) => Some(refusal),
            Self::Committed | Self::Duplicate => None,
        }
    }
}

/// The phase with what only `committed` holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Stage {
    Offered,
    Transferring,
    Staged,
    Committed(HandoffCommitAck),
    Abandoned,
}

impl Stage {
    const fn phase(&self) -> HandoffPhase {
        match self {
            Self::Offered => HandoffPhase::Offered,
            Self::Transferring => HandoffPhase::Transferring,
            Self::Staged => HandoffPhase::Staged,
            Self::Committed(_) => HandoffPhase::Committed,
            Self::Abandoned => HandoffPhase::Abandoned,
        }
    }
}

/// One transfer's authority transaction (`IHandoffTransaction`): which hand-off and session
/// (fixed), the phase, the last recorded refusal and detail, and, once committed, the
/// acknowledgement that committed it.
///
/// One object per transfer (it is also the `IHandoffTransactionPort`): its methods only ever
/// compare an acknowledgement with its own hand-off id, so one transaction cannot be committed
/// with another's acknowledgement. `PartialEq` compares everything, which is how a test shows
/// that a refusal changed nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::TransactionWire", into = "wire::TransactionWire")
)]
pub struct HandoffTransaction {
    handoff_id: String,
    session_id: String,
    stage: Stage,
    refusal: Option<HandoffRefusal>,
    detail: Option<String>,
}

impl HandoffTransaction {
    /// A new transaction for `manifest`, in phase `offered` (`beginHandoff`).
    #[must_use]
    pub fn begin(manifest: &HandoffManifest) -> Self {
        Self {
            handoff_id: manifest.handoff_id.clone(),
            session_id: manifest.session_id.clone(),
            stage: Stage::Offered,
            refusal: None,
            detail: None,
        }
    }

    /// The transfer (fixed).
    #[must_use]
    pub fn handoff_id(&self) -> &str {
        &self.handoff_id
    }

    /// The session (fixed).
    #[must_use]
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// The current phase.
    #[must_use]
    pub const fn phase(&self) -> HandoffPhase {
        self.stage.phase()
    }

    /// The last refusal an accepted move recorded.
    #[must_use]
    pub const fn refusal(&self) -> Option<HandoffRefusal> {
        self.refusal
    }

    /// The last detail an accepted move recorded.
    #[must_use]
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// The acknowledgement that committed the transaction; present exactly when it is
    /// committed.
    #[must_use]
    pub const fn ack(&self) -> Option<&HandoffCommitAck> {
        match &self.stage {
            Stage::Committed(ack) => Some(ack),
            _ => None,
        }
    }

    /// Moves to `next` if the table allows it, recording the given refusal and detail (only the
    /// members given); otherwise refuses and changes nothing (`advanceHandoff`).
    pub fn advance(
        &mut self,
        next: HandoffAdvance,
        detail: HandoffTransitionDetail,
    ) -> HandoffTransition {
        let from = self.phase();
        let to = next.phase();
        if !super::is_handoff_transition_allowed(from, to) {
            return HandoffTransition::Refused(HandoffTransitionRefusal::IllegalTransition {
                from,
                to,
            });
        }
        self.stage = match next {
            HandoffAdvance::Transferring => Stage::Transferring,
            HandoffAdvance::Staged => Stage::Staged,
            HandoffAdvance::Abandoned => Stage::Abandoned,
        };
        if detail.refusal.is_some() {
            self.refusal = detail.refusal;
        }
        if detail.detail.is_some() {
            self.detail = detail.detail;
        }
        HandoffTransition::Accepted
    }

    /// Commits on `ack` (`commitHandoff`), checking in order: an ack for another hand-off is
    /// refused; an already committed transaction answers [`HandoffCommitResult::Duplicate`] and
    /// changes nothing; otherwise only `staged` becomes `committed`, keeping a copy of `ack` and
    /// clearing an earlier refusal. A refusal changes nothing.
    pub fn commit(&mut self, ack: &HandoffCommitAck) -> HandoffCommitResult {
        if ack.handoff_id != self.handoff_id {
            return HandoffCommitResult::Refused(HandoffTransitionRefusal::AckForAnotherHandoff {
                acknowledged: ack.handoff_id.clone(),
                handoff_id: self.handoff_id.clone(),
            });
        }
        match self.stage {
            Stage::Committed(_) => HandoffCommitResult::Duplicate,
            Stage::Staged => {
                self.stage = Stage::Committed(ack.clone());
                self.refusal = None;
                HandoffCommitResult::Committed
            }
            Stage::Offered | Stage::Transferring | Stage::Abandoned => {
                HandoffCommitResult::Refused(HandoffTransitionRefusal::IllegalTransition {
                    from: self.phase(),
                    to: HandoffPhase::Committed,
                })
            }
        }
    }

    /// The outcome to report (`handoffOutcome`): id and phase, plus the refusal and detail when
    /// set.
    #[must_use]
    pub fn outcome(&self) -> HandoffOutcome {
        HandoffOutcome {
            handoff_id: self.handoff_id.clone(),
            phase: self.phase(),
            refusal: self.refusal,
            detail: self.detail.clone(),
        }
    }

    /// Whether the source still holds authority (`sourceStillOwns`): every phase but
    /// `committed`.
    #[must_use]
    pub const fn source_still_owns(&self) -> bool {
        self.phase().source_retains_authority()
    }
}

/// A new transaction for `manifest`, in phase `offered` (`beginHandoff`).
#[must_use]
pub fn begin_handoff(manifest: &HandoffManifest) -> HandoffTransaction {
    HandoffTransaction::begin(manifest)
}

/// Moves `transaction` to `next` if the table allows it (`advanceHandoff`); see
/// [`HandoffTransaction::advance`].
pub fn advance_handoff(
    transaction: &mut HandoffTransaction,
    next: HandoffAdvance,
    detail: HandoffTransitionDetail,
) -> HandoffTransition {
    transaction.advance(next, detail)
}

/// Commits `transaction` on `ack` (`commitHandoff`); see [`HandoffTransaction::commit`].
pub fn commit_handoff(
    transaction: &mut HandoffTransaction,
    ack: &HandoffCommitAck,
) -> HandoffCommitResult {
    transaction.commit(ack)
}

/// The outcome of `transaction` (`handoffOutcome`).
#[must_use]
pub fn handoff_outcome(transaction: &HandoffTransaction) -> HandoffOutcome {
    transaction.outcome()
}

/// Whether the source still owns the session of `transaction` (`sourceStillOwns`).
#[must_use]
pub const fn source_still_owns(transaction: &HandoffTransaction) -> bool {
    transaction.source_still_owns()
}

/// Why a wire transaction was refused: the acknowledgement and the phase disagree.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum InvalidHandoffTransaction {
    /// Phase `committed` without the acknowledgement that committed it.
    #[error("a committed hand-off transaction holds the acknowledgement that committed it")]
    CommittedWithoutAck,
    /// An acknowledgement in a phase that is not `committed`.
    #[error("a hand-off transaction in phase '{phase}' holds no acknowledgement")]
    AckOutsideCommitted {
        /// The phase declared.
        phase: HandoffPhase,
    },
    /// The acknowledgement names another hand-off.
    #[error("the acknowledgement is for hand-off '{acknowledged}', not '{handoff_id}'")]
    AckForAnotherHandoff {
        /// The hand-off the acknowledgement names.
        acknowledged: String,
        /// The transaction's hand-off.
        handoff_id: String,
    },
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{
        HandoffCommitAck, HandoffPhase, HandoffRefusal, HandoffTransaction,
        InvalidHandoffTransaction, Stage,
    };

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(super) struct TransactionWire {
        handoff_id: String,
        session_id: String,
        phase: HandoffPhase,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refusal: Option<HandoffRefusal>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ack: Option<HandoffCommitAck>,
    }

    impl TryFrom<TransactionWire> for HandoffTransaction {
        type Error = InvalidHandoffTransaction;

        fn try_from(wire: TransactionWire) -> Result<Self, Self::Error> {
            let stage = match (wire.phase, wire.ack) {
                (HandoffPhase::Committed, None) => {
                    return Err(InvalidHandoffTransaction::CommittedWithoutAck);
                }
                (HandoffPhase::Committed, Some(ack)) if ack.handoff_id != wire.handoff_id => {
                    return Err(InvalidHandoffTransaction::AckForAnotherHandoff {
                        acknowledged: ack.handoff_id,
                        handoff_id: wire.handoff_id,
                    });
                }
                (HandoffPhase::Committed, Some(ack)) => Stage::Committed(ack),
                (phase, Some(_)) => {
                    return Err(InvalidHandoffTransaction::AckOutsideCommitted { phase });
                }
                (HandoffPhase::Offered, None) => Stage::Offered,
                (HandoffPhase::Transferring, None) => Stage::Transferring,
                (HandoffPhase::Staged, None) => Stage::Staged,
                (HandoffPhase::Abandoned, None) => Stage::Abandoned,
            };
            Ok(Self {
                handoff_id: wire.handoff_id,
                session_id: wire.session_id,
                stage,
                refusal: wire.refusal,
                detail: wire.detail,
            })
        }
    }

    impl From<HandoffTransaction> for TransactionWire {
        fn from(transaction: HandoffTransaction) -> Self {
            let phase = transaction.phase();
            let ack = match transaction.stage {
                Stage::Committed(ack) => Some(ack),
                _ => None,
            };
            Self {
                handoff_id: transaction.handoff_id,
                session_id: transaction.session_id,
                phase,
                refusal: transaction.refusal,
                detail: transaction.detail,
                ack,
            }
        }
    }
}

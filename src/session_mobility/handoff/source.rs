//! The source half of a hand-off (`handoff-source`): the machine that holds the session offers
//! it, pushes it, and gives up authority only on a matching acknowledgement of durable
//! persistence.
//!
//! # Rules (catalog §10 item 8)
//!
//! - [`HandoffSource::offer`] checks readiness **before** sealing (a busy session is never
//!   serialized), then seals through the host, builds the manifest with the seal's integrity and
//!   begins the transaction. A refusal is an outcome `{handoffId, phase: abandoned, refusal,
//!   detail}`; nothing is opened.
//! - [`HandoffSource::transfer`] moves the transaction to `transferring` **before** the first
//!   frame leaves, then sends the manifest and every chunk in order. A refused move reports
//!   `refusal: cancelled` with the reason and sends nothing.
//! - [`HandoffSource::apply_ack`] moves `transferring → staged` and then commits; when the commit
//!   is accepted the read-only switch fires, exactly once over the source's life (a duplicate
//!   acknowledgement never fires it again).
//! - [`HandoffSource::is_authoritative`] is true before any offer and afterwards whenever the
//!   transaction is not committed: a connection lost before the acknowledgement arrives leaves
//!   the source authoritative.
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::string::{String, ToString};
use core::fmt;

use super::composition::{HandoffChunkFrame, HandoffManifestRequest, HandoffSourceComposition};
use super::contracts::{
    HandoffCommitAck, HandoffManifest, HandoffOutcome, HandoffPhase, HandoffRefusal,
};
use super::offer::{
    HandoffOfferResult, HandoffReadiness, PrepareHandoffOfferInput, assess_handoff_readiness,
    prepare_handoff_offer,
};
use super::ownership::{
    HandoffAdvance, HandoffCommitResult, HandoffTransaction, HandoffTransition,
    HandoffTransitionDetail,
};

/// Carries the source's frames to the destination (`IHandoffCarrier`). Delivery, ordering and
/// retries are the host's; a send that fails is reported, never retried here.
#[allow(async_fn_in_trait)]
pub trait HandoffCarrier {
    /// Why a send failed.
    type Error;

    /// Sends the manifest.
    async fn send_manifest(&self, manifest: &HandoffManifest) -> Result<(), Self::Error>;

    /// Sends one chunk.
    async fn send_chunk(&self, chunk: &HandoffChunkFrame) -> Result<(), Self::Error>;
}

impl<T: HandoffCarrier + ?Sized> HandoffCarrier for &T {
    type Error = T::Error;

    async fn send_manifest(&self, manifest: &HandoffManifest) -> Result<(), Self::Error> {
        (**self).send_manifest(manifest).await
    }

    async fn send_chunk(&self, chunk: &HandoffChunkFrame) -> Result<(), Self::Error> {
        (**self).send_chunk(chunk).await
    }
}

string_enum! {
    /// Why a source gives a hand-off up (`TSourceAbandonReason`).
    pub enum SourceAbandonReason {
        /// `'cancelled'`.
        Cancelled = "cancelled",
        /// `'timed-out'`.
        TimedOut = "timed-out",
        /// `'destination-cannot-resume'`.
        DestinationCannotResume = "destination-cannot-resume",
    }
}

impl SourceAbandonReason {
    /// The refusal the abandoned transaction records.
    #[must_use]
    pub const fn refusal(self) -> HandoffRefusal {
        match self {
            Self::Cancelled => HandoffRefusal::Cancelled,
            Self::TimedOut => HandoffRefusal::TimedOut,
            Self::DestinationCannotResume => HandoffRefusal::DestinationCannotResume,
        }
    }
}

/// What a source is built from (`IHandoffSourceOptions`).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HandoffSourceOptions<C, K, F> {
    /// Sealing and chunking.
    pub composition: C,
    /// Where the frames go.
    pub carrier: K,
    /// The session's read-only switch: called once, when the commit is accepted.
    pub on_read_only: F,
}

impl<C, K, F> HandoffSourceOptions<C, K, F> {
    /// A source that seals and chunks with `composition`, sends on `carrier` and calls
    /// `on_read_only` when the commit is accepted.
    #[must_use]
    pub const fn new(composition: C, carrier: K, on_read_only: F) -> Self {
        Self {
            composition,
            carrier,
            on_read_only,
        }
    }
}

/// The answer of [`HandoffSource::offer`] (`TOfferOutcome`).
///
/// Wire form: `{"started": true}` | `{"started": false, "outcome"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::OfferOutcomeWire", into = "wire::OfferOutcomeWire")
)]
pub enum SourceOfferOutcome {
    /// The record is sealed and the transaction is `offered`.
    Started,
    /// Nothing was opened; the outcome (phase `abandoned`) says why.
    Refused {
        /// `{handoffId, phase: abandoned, refusal, detail}`.
        outcome: HandoffOutcome,
    },
}

/// A call that needs an open hand-off came before any offer (the reference throws
/// `handoff: no transfer is open — offer() must run first.`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("handoff: no transfer is open \u{2014} offer() must run first.")]
pub struct NoHandoffOpen;

/// Why [`HandoffSource::offer`] failed (rather than answering).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum HandoffSourceOfferError<E> {
    /// The host's sealing failed; nothing was opened.
    #[error("handoff: sealing the record failed: {0}")]
    Seal(#[source] E),
    /// This source already handed the session off (its transaction is committed): offering it
    /// again would make two machines authoritative.
    #[error(
        "handoff: this session was already handed off (hand-off '{handoff_id}' is committed); \
         this machine is read-only for it"
    )]
    AlreadyCommitted {
        /// The committed hand-off.
        handoff_id: String,
    },
}

/// Why [`HandoffSource::transfer`] failed (rather than answering).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum HandoffTransferError<E> {
    /// No offer was made.
    #[error("{}", NoHandoffOpen)]
    NoHandoffOpen,
    /// The carrier failed; the transaction stays `transferring` and the source authoritative.
    #[error("handoff: the carrier failed: {0}")]
    Carrier(#[source] E),
}

/// The open transfer: its transaction, the manifest sent, and the sealed payload.
#[derive(Clone, Debug)]
struct OpenHandoff {
    transaction: HandoffTransaction,
    manifest: HandoffManifest,
    serialized: String,
}

/// The source of a hand-off (`HandoffSource`); see the module docs.
pub struct HandoffSource<C, K, F> {
    composition: C,
    carrier: K,
    on_read_only: F,
    open: Option<OpenHandoff>,
    switched_read_only: bool,
}

impl<C, K, F> fmt::Debug for HandoffSource<C, K, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HandoffSource")
            .field(
                "transaction",
                &self.open.as_ref().map(|open| &open.transaction),
            )
            .field("switched_read_only", &self.switched_read_only)
            .finish_non_exhaustive()
    }
}

impl<C, K, F> HandoffSource<C, K, F>
where
    C: HandoffSourceComposition,
    K: HandoffCarrier,
    F: FnMut(),
{
    /// A source with nothing offered (authoritative).
    pub fn new(options: HandoffSourceOptions<C, K, F>) -> Self {
        Self {
            composition: options.composition,
            carrier: options.carrier,
            on_read_only: options.on_read_only,
            open: None,
            switched_read_only: false,
        }
    }

    /// Offers the session (`offer`): readiness first, then sealing, the manifest and a new
    /// transaction in `offered`. A busy session answers [`SourceOfferOutcome::Refused`] and
    /// nothing is sealed or opened.
    ///
    /// # Errors
    ///
    /// [`HandoffSourceOfferError::AlreadyCommitted`] once this source has handed the session
    /// off; [`HandoffSourceOfferError::Seal`] when the host's sealing fails. Either way nothing
    /// changes.
    pub fn offer(
        &mut self,
        request: HandoffManifestRequest,
    ) -> Result<SourceOfferOutcome, HandoffSourceOfferError<C::SealError>> {
        if let Some(open) = &self.open
            && !open.transaction.source_still_owns()
        {
            return Err(HandoffSourceOfferError::AlreadyCommitted {
                handoff_id: String::from(open.transaction.handoff_id()),
            });
        }
        if let HandoffReadiness::NotReady { refusal, detail } =
            assess_handoff_readiness(&request.runtime)
        {
            return Ok(refused(request.handoff_id, refusal, detail));
        }
        let sealed = self
            .composition
            .seal_record(&request.record)
            .map_err(HandoffSourceOfferError::Seal)?;
        let handoff_id = request.handoff_id.clone();
        let input = PrepareHandoffOfferInput::new(request, sealed.integrity);
        match prepare_handoff_offer(input) {
            HandoffOfferResult::Refused { refusal, detail } => {
                Ok(refused(handoff_id, refusal, detail))
            }
            HandoffOfferResult::Built { manifest } => {
                self.open = Some(OpenHandoff {
                    transaction: HandoffTransaction::begin(&manifest),
                    manifest,
                    serialized: sealed.serialized,
                });
                Ok(SourceOfferOutcome::Started)
            }
        }
    }

    /// Pushes the offered session (`transfer`): `transferring` first, then the manifest and
    /// every chunk in order. Answers the outcome (still `transferring`); a refused move (already
    /// transferring, abandoned, committed) answers the unchanged outcome with
    /// `refusal: cancelled` and the reason, and sends nothing.
    ///
    /// # Errors
    ///
    /// [`HandoffTransferError::NoHandoffOpen`] before any offer;
    /// [`HandoffTransferError::Carrier`] when a send fails (the transaction stays
    /// `transferring`).
    pub async fn transfer(&mut self) -> Result<HandoffOutcome, HandoffTransferError<K::Error>> {
        let open = self
            .open
            .as_mut()
            .ok_or(HandoffTransferError::NoHandoffOpen)?;
        if let HandoffTransition::Refused(reason) = open.transaction.advance(
            HandoffAdvance::Transferring,
            HandoffTransitionDetail::none(),
        ) {
            let mut outcome = open.transaction.outcome();
            outcome.refusal = Some(HandoffRefusal::Cancelled);
            outcome.detail = Some(reason.to_string());
            return Ok(outcome);
        }
        self.carrier
            .send_manifest(&open.manifest)
            .await
            .map_err(HandoffTransferError::Carrier)?;
        let chunks = self
            .composition
            .chunk(&open.manifest.handoff_id, &open.serialized);
        for chunk in &chunks {
            self.carrier
                .send_chunk(chunk)
                .await
                .map_err(HandoffTransferError::Carrier)?;
        }
        Ok(open.transaction.outcome())
    }

    /// Applies the destination's acknowledgement (`applyAck`): from `transferring` it first
    /// moves to `staged`, then commits. An accepted commit fires the read-only switch (once over
    /// this source's life); a duplicate answers `committed` without firing it; a refusal answers
    /// the unchanged outcome with the reason as its detail and changes nothing.
    ///
    /// # Errors
    ///
    /// [`NoHandoffOpen`] before any offer.
    pub fn apply_ack(&mut self, ack: &HandoffCommitAck) -> Result<HandoffOutcome, NoHandoffOpen> {
        let open = self.open.as_mut().ok_or(NoHandoffOpen)?;
        let mut candidate = open.transaction.clone();
        if candidate.phase() == HandoffPhase::Transferring {
            // Accepted by the table from `transferring`; kept only if the commit is.
            let _ = candidate.advance(HandoffAdvance::Staged, HandoffTransitionDetail::none());
        }
        match candidate.commit(ack) {
            HandoffCommitResult::Refused(reason) => {
                let mut outcome = open.transaction.outcome();
                outcome.detail = Some(reason.to_string());
                Ok(outcome)
            }
            HandoffCommitResult::Duplicate => Ok(open.transaction.outcome()),
            HandoffCommitResult::Committed => {
                open.transaction = candidate;
                let outcome = open.transaction.outcome();
                if !self.switched_read_only {
                    self.switched_read_only = true;
                    (self.on_read_only)();
                }
                Ok(outcome)
            }
        }
    }

    /// Gives the hand-off up (`abandon`) with `reason` (and `detail`): the transaction moves to
    /// `abandoned` and the source stays authoritative. Refused after a commit (or a second
    /// time), answering the unchanged outcome.
    ///
    /// # Errors
    ///
    /// [`NoHandoffOpen`] before any offer.
    pub fn abandon(
        &mut self,
        reason: SourceAbandonReason,
        detail: Option<String>,
    ) -> Result<HandoffOutcome, NoHandoffOpen> {
        let open = self.open.as_mut().ok_or(NoHandoffOpen)?;
        let record = HandoffTransitionDetail {
            refusal: Some(reason.refusal()),
            detail,
        };
        // A refusal (committed, or already abandoned) changes nothing and answers the same.
        let _ = open.transaction.advance(HandoffAdvance::Abandoned, record);
        Ok(open.transaction.outcome())
    }
}

impl<C, K, F> HandoffSource<C, K, F> {
    /// Whether this machine is authoritative for the session (`isAuthoritative`): true before
    /// any offer, then until a matching acknowledgement commits the transaction.
    #[must_use]
    pub fn is_authoritative(&self) -> bool {
        self.open
            .as_ref()
            .is_none_or(|open| open.transaction.source_still_owns())
    }

    /// The open transaction, if an offer was made.
    #[must_use]
    pub fn transaction(&self) -> Option<&HandoffTransaction> {
        self.open.as_ref().map(|open| &open.transaction)
    }

    /// The manifest of the open transaction, if an offer was made.
    #[must_use]
    pub fn manifest(&self) -> Option<&HandoffManifest> {
        self.open.as_ref().map(|open| &open.manifest)
    }

    /// The outcome of the open transaction, if an offer was made.
    #[must_use]
    pub fn outcome(&self) -> Option<HandoffOutcome> {
        self.open.as_ref().map(|open| open.transaction.outcome())
    }

    /// Whether the read-only switch has fired (it fires at most once).
    #[must_use]
    pub const fn has_switched_read_only(&self) -> bool {
        self.switched_read_only
    }

    /// The host's sealing and chunking.
    pub const fn composition(&self) -> &C {
        &self.composition
    }

    /// The carrier.
    pub const fn carrier(&self) -> &K {
        &self.carrier
    }
}

fn refused(handoff_id: String, refusal: HandoffRefusal, detail: String) -> SourceOfferOutcome {
    SourceOfferOutcome::Refused {
        outcome: HandoffOutcome {
            handoff_id,
            phase: HandoffPhase::Abandoned,
            refusal: Some(refusal),
            detail: Some(detail),
        },
    }
}

#[cfg(feature = "serde")]
mod wire {
    use super::{HandoffOutcome, SourceOfferOutcome};

    #[derive(serde::Serialize, serde::Deserialize)]
    pub(super) struct OfferOutcomeWire {
        started: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<HandoffOutcome>,
    }

    /// The refusal of an offer answer whose members do not match `started`.
    #[derive(Debug, thiserror::Error)]
    #[error(
        "{}",
        if *.0 { "`started: true` carries no outcome" } else { "`started: false` needs the outcome" }
    )]
    pub(super) struct OfferOutcomeShapeMismatch(bool);

    impl TryFrom<OfferOutcomeWire> for SourceOfferOutcome {
        type Error = OfferOutcomeShapeMismatch;

        fn try_from(wire: OfferOutcomeWire) -> Result<Self, Self::Error> {
            match (wire.started, wire.outcome) {
                (true, None) => Ok(Self::Started),
                (false, Some(outcome)) => Ok(Self::Refused { outcome }),
                (started, _) => Err(OfferOutcomeShapeMismatch(started)),
            }
        }
    }

    impl From<SourceOfferOutcome> for OfferOutcomeWire {
        fn from(outcome: SourceOfferOutcome) -> Self {
            match outcome {
                SourceOfferOutcome::Started => Self {
                    started: true,
                    outcome: None,
                },
                SourceOfferOutcome::Refused { outcome } => Self {
                    started: false,
                    outcome: Some(outcome),
                },
            }
        }
    }
}

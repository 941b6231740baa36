//! Peer messaging between live sessions (`peer-message-contracts`): who a message came from,
//! what admission established about its sender, the message, its acknowledgement, and the narrow
//! port a session exposes for it.
//!
//! A peer message is not a remote-driver message: driving is asymmetric (one party operates the
//! other), peer messaging is symmetric (two sessions, each with its own agent, neither driving the
//! other). A message carries no authority: what its turn may do is decided by the receiving
//! session's ordinary permissions.
//!
//! # Two axes that must not collapse
//!
//! Admission answers two independent questions, carried separately in
//! [`PeerAdmissionEvidence`]: what the peer *presented* ([`PeerPresentation`]: a token, or the
//! host's explicit decision to run open: possession, which is copyable) and where it *came from*
//! ([`PeerEnvironmentProof`]: evidence the operating system enforces, with nothing to copy). The
//! resulting classification, [`PeerTrust`], keeps `same-user-same-host` (a kernel-enforced
//! rendezvous) apart from `token-only` (a credential, origin unproven); the two are never
//! interchangeable. A [`PeerAdmission`] is never a bare boolean: it is
//! [`Admitted`](PeerAdmission::Admitted) with a trust and an origin, or
//! [`Refused`](PeerAdmission::Refused) with a reason (and the trust `unproven`).
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::rc::Rc;
use alloc::string::String;

use crate::session::turns::DriverId;

string_enum! {
    /// How much was established about a peer (`TPeerTrust`). None of these is interchangeable
    /// with another.
    pub closed enum PeerTrust {
        /// `'same-user-same-host'`: a kernel-enforced rendezvous proved the same machine and the
        /// same user account.
        SameUserSameHost = "same-user-same-host",
        /// `'same-user-different-host'`: a verified device grant (the user's root key signed the
        /// device certificate) proved the user, on a machine that is not this one.
        SameUserDifferentHost = "same-user-different-host",
        /// `'token-only'`: a credential was presented; nothing about origin was proven.
        TokenOnly = "token-only",
        /// `'unproven'`: nothing was established. It accompanies every refusal.
        Unproven = "unproven",
    }
}

string_enum! {
    /// The trust of an admitted peer: every [`PeerTrust`] but `unproven`, which belongs to
    /// refusals only.
    pub closed enum AdmittedPeerTrust {
        /// `'same-user-same-host'`.
        SameUserSameHost = "same-user-same-host",
        /// `'same-user-different-host'`.
        SameUserDifferentHost = "same-user-different-host",
        /// `'token-only'`.
        TokenOnly = "token-only",
    }
}

impl From<AdmittedPeerTrust> for PeerTrust {
    fn from(trust: AdmittedPeerTrust) -> Self {
        match trust {
            AdmittedPeerTrust::SameUserSameHost => Self::SameUserSameHost,
            AdmittedPeerTrust::SameUserDifferentHost => Self::SameUserDifferentHost,
            AdmittedPeerTrust::TokenOnly => Self::TokenOnly,
        }
    }
}

/// Who a message came from (`IPeerOrigin`).
///
/// `driver_id` is display and attribution only: it is never an admission, authentication or
/// authorization input (a peer claiming the driver id `owner` is not the owner). It sits beside
/// the trust so the difference is visible at every read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PeerOrigin {
    /// The peer session's own id, stable for the life of that session.
    pub session_id: String,
    /// Display attribution only.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub driver_id: Option<DriverId>,
}

impl PeerOrigin {
    /// The origin of the peer session `session_id`, with no display attribution.
    #[must_use]
    pub fn new(session_id: impl Into<String>) -> Self {
        Self {
            session_id: session_id.into(),
            driver_id: None,
        }
    }
}

optional_setters!(PeerOrigin {
    /// The same origin displayed as `driver_id` (attribution only).
    with_driver_id => driver_id: impl Into<DriverId>,
});

/// What the peer presented: possession, which is copyable. Only what the host verified counts
/// (a token that matched, or the host's own explicit decision to run open); the credential
/// itself is never held here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PeerPresentation {
    /// The peer presented the credential the host expected.
    Token,
    /// The host explicitly decided to admit without a credential.
    Open,
}

/// Where the peer came from: evidence the operating system (or a verified device grant)
/// enforces, with nothing a peer could copy to another machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PeerEnvironmentProof {
    /// A kernel-enforced rendezvous proved the same machine and the same user account.
    SameUserSameHost,
    /// A verified device grant proved the same user on another machine.
    SameUserDifferentHost,
}

/// The two independent axes of a peer admission, carried separately: what was presented and
/// where the peer came from. Neither is collapsed into the other; [`trust`](Self::trust)
/// classifies them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PeerAdmissionEvidence {
    /// What the peer presented, as the host verified it (`None`: nothing valid).
    pub presented: Option<PeerPresentation>,
    /// What the environment proved (`None`: nothing).
    pub environment: Option<PeerEnvironmentProof>,
}

impl PeerAdmissionEvidence {
    /// The classification of this evidence: the environment proof when there is one; otherwise
    /// `token-only` when something was presented (origin unproven); otherwise `unproven`.
    #[must_use]
    pub const fn trust(&self) -> PeerTrust {
        match (self.environment, self.presented) {
            (Some(PeerEnvironmentProof::SameUserSameHost), _) => PeerTrust::SameUserSameHost,
            (Some(PeerEnvironmentProof::SameUserDifferentHost), _) => {
                PeerTrust::SameUserDifferentHost
            }
            (None, Some(_)) => PeerTrust::TokenOnly,
            (None, None) => PeerTrust::Unproven,
        }
    }

    /// The admitted trust, or `None` when this evidence admits nobody.
    #[must_use]
    pub const fn admitted_trust(&self) -> Option<AdmittedPeerTrust> {
        match self.trust() {
            PeerTrust::SameUserSameHost => Some(AdmittedPeerTrust::SameUserSameHost),
            PeerTrust::SameUserDifferentHost => Some(AdmittedPeerTrust::SameUserDifferentHost),
            PeerTrust::TokenOnly => Some(AdmittedPeerTrust::TokenOnly),
            PeerTrust::Unproven => None,
        }
    }
}

/// What a messaging feature receives from an admission port (`IPeerAdmission`): never a bare
/// boolean.
///
/// Admitted with what was established and who the peer is, or refused with why (its trust is
/// `unproven`). Wire form: `{admitted: true, trust, origin}` or `{admitted: false, trust:
/// 'unproven', reason}`; the decoder refuses every other combination ([`PeerAdmissionError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::PeerAdmissionWire", into = "wire::PeerAdmissionWire")
)]
pub enum PeerAdmission {
    /// The peer was admitted.
    Admitted {
        /// What was established.
        trust: AdmittedPeerTrust,
        /// Who the peer is.
        origin: PeerOrigin,
    },
    /// The peer was refused.
    Refused {
        /// Why, for the operator.
        reason: String,
    },
}

impl PeerAdmission {
    /// The admission the `evidence` supports for the peer `origin`: admitted at the trust it
    /// classifies to, or refused (`unproven`) when it proves and presents nothing.
    #[must_use]
    pub fn from_evidence(evidence: PeerAdmissionEvidence, origin: PeerOrigin) -> Self {
        match evidence.admitted_trust() {
            Some(trust) => Self::Admitted { trust, origin },
            None => Self::Refused {
                reason: String::from(Self::NOTHING_ESTABLISHED),
            },
        }
    }

    /// The reason [`from_evidence`](Self::from_evidence) gives when the peer presented nothing
    /// and proved no environment.
    pub const NOTHING_ESTABLISHED: &'static str =
        "the peer presented no credential and proved no environment";

    /// A refusal for `reason`.
    #[must_use]
    pub fn refused(reason: impl Into<String>) -> Self {
        Self::Refused {
            reason: reason.into(),
        }
    }

    /// True for an admitted peer.
    #[must_use]
    pub const fn is_admitted(&self) -> bool {
        matches!(self, Self::Admitted { .. })
    }

    /// What was established: the admitted trust, or `unproven` for a refusal.
    #[must_use]
    pub fn trust(&self) -> PeerTrust {
        match self {
            Self::Admitted { trust, .. } => (*trust).into(),
            Self::Refused { .. } => PeerTrust::Unproven,
        }
    }

    /// The admitted peer's origin; `None` for a refusal.
    #[must_use]
    pub const fn origin(&self) -> Option<&PeerOrigin> {
        match self {
            Self::Admitted { origin, .. } => Some(origin),
            Self::Refused { .. } => None,
        }
    }

    /// Why the peer was refused; `None` when admitted.
    #[must_use]
    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Admitted { .. } => None,
            Self::Refused { reason } => Some(reason),
        }
    }

    /// The origin of a peer that shares this machine and user account (admitted at
    /// `same-user-same-host`), `None` otherwise: the narrowing form of
    /// [`is_same_environment_peer`].
    #[must_use]
    pub const fn same_environment_origin(&self) -> Option<&PeerOrigin> {
        match self {
            Self::Admitted {
                trust: AdmittedPeerTrust::SameUserSameHost,
                origin,
            } => Some(origin),
            _ => None,
        }
    }
}

/// Did admission establish that the peer shares this machine and user account
/// (`isSameEnvironmentPeer`)? True iff admitted, at `same-user-same-host`, with an origin (which
/// every admitted peer has). The driver id never changes the answer.
///
/// Named for what it proves, not "trusted": it grants nothing by itself.
#[must_use]
pub const fn is_same_environment_peer(admission: &PeerAdmission) -> bool {
    admission.same_environment_origin().is_some()
}

/// Why a peer admission's wire form was refused: a combination the contract's own rules forbid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PeerAdmissionError {
    /// Admitted with the trust `unproven`, which accompanies refusals only.
    #[error("an admitted peer cannot be `unproven` (it accompanies refusals)")]
    AdmittedUnproven,
    /// Admitted with no origin: an admitted peer whose origin is missing is not a peer anything
    /// can vouch for.
    #[error("an admitted peer must have an `origin`")]
    AdmittedWithoutOrigin,
    /// Admitted with a `reason`, which only a refusal has.
    #[error("an admitted peer has no `reason`")]
    AdmittedWithReason,
    /// Refused with a trust other than `unproven`.
    #[error("a refused peer is `unproven`, not `{0}`")]
    RefusedWithTrust(PeerTrust),
    /// Refused with an origin, which only an admitted peer has.
    #[error("a refused peer has no `origin`")]
    RefusedWithOrigin,
    /// Refused without saying why.
    #[error("a refused peer needs a `reason`")]
    RefusedWithoutReason,
}

string_enum! {
    /// Delivery state as the sender observes it (`TPeerDeliveryState`). Every state but
    /// `pending` is terminal; `duplicate` is its own terminal state, distinct from `delivered`,
    /// so a sender can tell a re-delivery from a first delivery.
    pub enum PeerDeliveryState {
        /// `'pending'`: nothing final yet.
        Pending = "pending",
        /// `'delivered'`: the receiver took responsibility for it.
        Delivered = "delivered",
        /// `'acknowledged'`: the receiving session acknowledged it.
        Acknowledged = "acknowledged",
        /// `'duplicate'`: a retry of a message already delivered (same id).
        Duplicate = "duplicate",
        /// `'refused'`: the receiver would not take it.
        Refused = "refused",
        /// `'failed'`: it could not be delivered.
        Failed = "failed",
    }
}

impl PeerDeliveryState {
    /// True for every state but `pending`: there is nothing further to wait for.
    #[must_use]
    pub const fn is_terminal(self) -> bool {
        !matches!(self, Self::Pending)
    }
}

/// Is this delivery state terminal (`isTerminalPeerDelivery`)? True for every state but
/// `pending`.
#[must_use]
pub const fn is_terminal_peer_delivery(state: PeerDeliveryState) -> bool {
    state.is_terminal()
}

/// One message between peers (`IPeerMessage`).
///
/// `id` is stable across retries (it is what makes a duplicate recognisable) while `sequence`
/// orders one origin's messages; a retry repeats both ([`retry`](Self::retry)). `sent_at` is
/// stamped by the sender and never used for ordering.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PeerMessage {
    /// Stable across retries.
    pub id: String,
    /// Orders the messages of one origin; repeated by a retry.
    pub sequence: u64,
    /// Who sent it.
    pub origin: PeerOrigin,
    /// The message text: data from a third party, never an instruction with authority.
    pub text: String,
    /// When the sender stamped it, in milliseconds since the epoch.
    pub sent_at: u64,
}

impl PeerMessage {
    /// Message `id`, number `sequence` of `origin`, saying `text`, stamped `sent_at` (ms since
    /// the epoch).
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        sequence: u64,
        origin: PeerOrigin,
        text: impl Into<String>,
        sent_at: u64,
    ) -> Self {
        Self {
            id: id.into(),
            sequence,
            origin,
            text: text.into(),
            sent_at,
        }
    }

    /// The retry of this message sent at `sent_at`: the same id, sequence, origin and text.
    #[must_use]
    pub fn retry(&self, sent_at: u64) -> Self {
        Self {
            sent_at,
            ..self.clone()
        }
    }
}

/// The delivery outcome an acknowledgement reports: a [`PeerDeliveryState`], with a reason only
/// in the states that have one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerDelivery {
    /// `pending`.
    Pending,
    /// `delivered`.
    Delivered,
    /// `acknowledged`.
    Acknowledged,
    /// `duplicate`.
    Duplicate,
    /// `refused`, perhaps with why.
    Refused {
        /// Why the receiver refused it.
        reason: Option<String>,
    },
    /// `failed`, perhaps with why.
    Failed {
        /// Why delivery failed.
        reason: Option<String>,
    },
}

impl PeerDelivery {
    /// The state this outcome reports.
    #[must_use]
    pub const fn state(&self) -> PeerDeliveryState {
        match self {
            Self::Pending => PeerDeliveryState::Pending,
            Self::Delivered => PeerDeliveryState::Delivered,
            Self::Acknowledged => PeerDeliveryState::Acknowledged,
            Self::Duplicate => PeerDeliveryState::Duplicate,
            Self::Refused { .. } => PeerDeliveryState::Refused,
            Self::Failed { .. } => PeerDeliveryState::Failed,
        }
    }

    /// The reason of a refused or failed delivery, when one was given.
    #[must_use]
    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Refused { reason } | Self::Failed { reason } => reason.as_deref(),
            _ => None,
        }
    }

    /// The outcome of `state` with `reason`, refusing a reason on a state that has none.
    ///
    /// # Errors
    ///
    /// [`PeerAckReasonOnState`] when `reason` is given for a state other than `refused` or
    /// `failed`.
    pub fn from_state(
        state: PeerDeliveryState,
        reason: Option<String>,
    ) -> Result<Self, PeerAckReasonOnState> {
        match (state, reason) {
            (PeerDeliveryState::Refused, reason) => Ok(Self::Refused { reason }),
            (PeerDeliveryState::Failed, reason) => Ok(Self::Failed { reason }),
            (state, Some(_)) => Err(PeerAckReasonOnState(state)),
            (PeerDeliveryState::Pending, None) => Ok(Self::Pending),
            (PeerDeliveryState::Delivered, None) => Ok(Self::Delivered),
            (PeerDeliveryState::Acknowledged, None) => Ok(Self::Acknowledged),
            (PeerDeliveryState::Duplicate, None) => Ok(Self::Duplicate),
        }
    }
}

/// The refusal of a reason on a delivery state that has none (only `refused` and `failed` do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("an acknowledgement in state `{0}` has no `reason` (only `refused` and `failed` do)")]
pub struct PeerAckReasonOnState(pub PeerDeliveryState);

/// What the receiver returns for a message it has taken responsibility for (`IPeerMessageAck`).
///
/// Wire form: `{id, sequence, state, reason?}`, `reason` only with `refused` or `failed`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "wire::PeerMessageAckWire",
        into = "wire::PeerMessageAckWire"
    )
)]
#[non_exhaustive]
pub struct PeerMessageAck {
    /// The acknowledged message's id.
    pub id: String,
    /// The acknowledged message's sequence.
    pub sequence: u64,
    /// What became of it.
    pub delivery: PeerDelivery,
}

impl PeerMessageAck {
    /// The acknowledgement of `message` with `delivery`.
    #[must_use]
    pub fn of(message: &PeerMessage, delivery: PeerDelivery) -> Self {
        Self {
            id: message.id.clone(),
            sequence: message.sequence,
            delivery,
        }
    }

    /// The delivery state.
    #[must_use]
    pub const fn state(&self) -> PeerDeliveryState {
        self.delivery.state()
    }

    /// True when the state is terminal (not `pending`).
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        self.state().is_terminal()
    }
}

/// A peer message as the receiving runtime sees it (`IPeerMessageIngress`): the message and what
/// was proven about its sender, delivered together so the decision never precedes the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct PeerMessageIngress {
    /// The message.
    pub message: PeerMessage,
    /// What admission established about its sender.
    pub admission: PeerAdmission,
}

impl PeerMessageIngress {
    /// `message`, delivered with what `admission` established about its sender.
    #[must_use]
    pub const fn new(message: PeerMessage, admission: PeerAdmission) -> Self {
        Self { message, admission }
    }
}

/// A listener of incoming peer messages, shared so that
/// [`off_peer_message`](SessionPeerMessagingPort::off_peer_message) can name the very listener
/// registered: two listeners are the same when [`Rc::ptr_eq`] says so.
pub type PeerMessageListener = Rc<dyn Fn(&PeerMessageIngress)>;

/// The narrow port a session exposes for peer messaging (`ISessionPeerMessagingPort`): sending,
/// and being told when something arrived. No discovery, pairing or carrier lifecycle: those
/// belong to the shell and the carrier.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionPeerMessagingPort {
    /// Sends `text` to the peer and resolves with its acknowledgement; a message that could not
    /// be delivered resolves with state `failed` (never an error).
    async fn send(&self, text: &str) -> PeerMessageAck;

    /// Calls `listener` with every message that arrives, with its admission, until it is removed.
    fn on_peer_message(&self, listener: PeerMessageListener);

    /// Removes `listener` (the same `Rc` that was registered); removing an unknown listener does
    /// nothing.
    fn off_peer_message(&self, listener: &PeerMessageListener);
}

string_enum! {
    /// How a peer's claimed workspace relates to this session's (`TWorkspaceRelation`), as this
    /// session judged it from what it read at the claimed path.
    ///
    /// Display and routing information only, never an authorization input; computed by the
    /// receiver (a relation a sender put on the wire is discarded) and never carried by an
    /// admission. The literals were not recovered: these follow the texts the reference shows
    /// the operator.
    pub enum WorkspaceRelation {
        /// `'same-worktree'`: the same working tree.
        SameWorktree = "same-worktree",
        /// `'same-repo'`: another working tree of the same repository.
        SameRepo = "same-repo",
        /// `'different-repo'`: another repository.
        DifferentRepo = "different-repo",
        /// `'unknown'`: no claim, or a claim that disagreed with what was read (not believed).
        Unknown = "unknown",
    }
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{
        AdmittedPeerTrust, PeerAckReasonOnState, PeerAdmission, PeerAdmissionError, PeerDelivery,
        PeerDeliveryState, PeerMessageAck, PeerOrigin, PeerTrust,
    };

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct PeerAdmissionWire {
        admitted: bool,
        trust: PeerTrust,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        origin: Option<PeerOrigin>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    }

    impl TryFrom<PeerAdmissionWire> for PeerAdmission {
        type Error = PeerAdmissionError;

        fn try_from(wire: PeerAdmissionWire) -> Result<Self, PeerAdmissionError> {
            if wire.admitted {
                let trust = match wire.trust {
                    PeerTrust::SameUserSameHost => AdmittedPeerTrust::SameUserSameHost,
                    PeerTrust::SameUserDifferentHost => AdmittedPeerTrust::SameUserDifferentHost,
                    PeerTrust::TokenOnly => AdmittedPeerTrust::TokenOnly,
                    PeerTrust::Unproven => return Err(PeerAdmissionError::AdmittedUnproven),
                };
                if wire.reason.is_some() {
                    return Err(PeerAdmissionError::AdmittedWithReason);
                }
                let origin = wire
                    .origin
                    .ok_or(PeerAdmissionError::AdmittedWithoutOrigin)?;
                Ok(Self::Admitted { trust, origin })
            } else {
                if wire.trust != PeerTrust::Unproven {
                    return Err(PeerAdmissionError::RefusedWithTrust(wire.trust));
                }
                if wire.origin.is_some() {
                    return Err(PeerAdmissionError::RefusedWithOrigin);
                }
                let reason = wire
                    .reason
                    .ok_or(PeerAdmissionError::RefusedWithoutReason)?;
                Ok(Self::Refused { reason })
            }
        }
    }

    impl From<PeerAdmission> for PeerAdmissionWire {
        fn from(admission: PeerAdmission) -> Self {
            match admission {
                PeerAdmission::Admitted { trust, origin } => Self {
                    admitted: true,
                    trust: trust.into(),
                    origin: Some(origin),
                    reason: None,
                },
                PeerAdmission::Refused { reason } => Self {
                    admitted: false,
                    trust: PeerTrust::Unproven,
                    origin: None,
                    reason: Some(reason),
                },
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct PeerMessageAckWire {
        id: String,
        sequence: u64,
        state: PeerDeliveryState,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    }

    impl TryFrom<PeerMessageAckWire> for PeerMessageAck {
        type Error = PeerAckReasonOnState;

        fn try_from(wire: PeerMessageAckWire) -> Result<Self, PeerAckReasonOnState> {
            Ok(Self {
                id: wire.id,
                sequence: wire.sequence,
                delivery: PeerDelivery::from_state(wire.state, wire.reason)?,
            })
        }
    }

    impl From<PeerMessageAck> for PeerMessageAckWire {
        fn from(ack: PeerMessageAck) -> Self {
            let state = ack.delivery.state();
            let reason = match ack.delivery {
                PeerDelivery::Refused { reason } | PeerDelivery::Failed { reason } => reason,
                _ => None,
            };
            Self {
                id: ack.id,
                sequence: ack.sequence,
                state,
                reason,
            }
        }
    }
}

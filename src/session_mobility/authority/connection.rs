//! Per-connection authority (`connection-authority`): what a connected device may do here,
//! decided per connection and never beyond what this session's operator allows.
//!
//! Admission says who the peer is and which capabilities its certificate and local policy leave
//! it ([`ConnectionPeer`]). That is necessary, not sufficient: some capabilities also need the
//! receiving operator's yes ([`capability_approval`]):
//!
//! | capability | approval |
//! |---|---|
//! | `presence`, `message` | never: allowed with no question |
//! | `delegate`, `file`, `handoff` | every request: asked each time, with a summary |
//! | `observe`, `drive` | every connection: asked once, the answer shared and kept |
//!
//! Without an operator to ask the answer is `no-approver`; a no, a failing approver or an abort
//! is `declined`. The operator ([`OperatorApprover`]) must be someone no connected surface can
//! speak for, or one device could approve the next. A connection's authority ends when the
//! carrier closes, replaces or revokes it ([`ConnectionAuthority::end`]).
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use core::cell::{Cell, RefCell};
use core::fmt;
use core::future::{Future, poll_fn};
use core::pin::pin;
use core::task::{Poll, Waker};

use embassy_sync::waitqueue::MultiWakerRegistration;

use crate::agent_core::AbortSignal;
use crate::agent_core::{ErrorValue, PeerReach};
use crate::session::turns::{DriverId, PeerTurnContext, SubmitOptions};

use crate::session_mobility::files::FileOffer;
use crate::session_mobility::mesh::{MeshAdmission, MeshCapabilities, MeshCapability};

string_enum! {
    /// How often the receiving operator must approve a capability (`TCapabilityApproval`).
    pub closed enum CapabilityApproval {
        /// `'never'`: allowed whenever granted, with no question.
        Never = "never",
        /// `'every-request'`: asked for every request, with a summary of it.
        EveryRequest = "every-request",
        /// `'every-connection'`: asked once per connection; the answer is shared and kept.
        EveryConnection = "every-connection",
    }
}

impl CapabilityApproval {
    /// The scope of the question this approval asks, `None` for [`Never`](Self::Never).
    #[must_use]
    pub const fn scope(self) -> Option<CapabilityApprovalScope> {
        match self {
            Self::Never => None,
            Self::EveryRequest => Some(CapabilityApprovalScope::Request),
            Self::EveryConnection => Some(CapabilityApprovalScope::Connection),
        }
    }
}

/// How often the receiving operator must approve `capability` (`capabilityApproval`): the fixed
/// table of the contract.
#[must_use]
pub const fn capability_approval(capability: MeshCapability) -> CapabilityApproval {
    match capability {
        MeshCapability::Presence | MeshCapability::Message => CapabilityApproval::Never,
        MeshCapability::Delegate | MeshCapability::File | MeshCapability::Handoff => {
            CapabilityApproval::EveryRequest
        }
        MeshCapability::Observe | MeshCapability::Drive => CapabilityApproval::EveryConnection,
    }
}

string_enum! {
    /// What one approval question covers (`scope` of `ICapabilityApprovalRequest`).
    pub closed enum CapabilityApprovalScope {
        /// `'connection'`: this connection, for as long as it lasts.
        Connection = "connection",
        /// `'request'`: this one request.
        Request = "request",
    }
}

/// The connected peer, as admission established it (`IConnectionPeer`). A [`MeshAdmission`]
/// converts into one (its trust and workspace stay behind: the authority decides from the
/// capabilities alone).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ConnectionPeer {
    /// Shown to the operator. Absent when the carrier learned no stable id.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub device_id: Option<String>,
    /// The peer's session: where the answer to a delegated task goes. Without it nothing can be
    /// delegated.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub session_id: Option<String>,
    /// Where the carrier established the peer runs (shown in the questions; never decides).
    pub locality: PeerReach,
    /// What admission granted. A capability outside it is refused without asking.
    pub capabilities: MeshCapabilities,
}

impl From<&MeshAdmission> for ConnectionPeer {
    fn from(admission: &MeshAdmission) -> Self {
        Self {
            device_id: Some(String::from(admission.device_id())),
            session_id: Some(String::from(admission.session_id())),
            locality: admission.locality(),
            capabilities: admission.capabilities(),
        }
    }
}

impl From<MeshAdmission> for ConnectionPeer {
    fn from(admission: MeshAdmission) -> Self {
        Self::from(&admission)
    }
}

/// One question to the receiving operator (`ICapabilityApprovalRequest`).
///
/// Its scope is always the one its capability's approval needs, and only a request-scoped
/// question carries a summary (what the peer asks for, in its own words: untrusted text). The
/// question carries the device id only when it is known, and always the locality. Wire form:
/// `{capability, scope, deviceId?, locality, summary?}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "wire::ApprovalRequestWire",
        into = "wire::ApprovalRequestWire"
    )
)]
pub struct CapabilityApprovalRequest {
    capability: MeshCapability,
    scope: CapabilityApprovalScope,
    device_id: Option<String>,
    locality: PeerReach,
    summary: Option<String>,
}

impl CapabilityApprovalRequest {
    /// The question about `capability` from the peer `device_id` at `locality`; its scope is the
    /// one the capability's approval needs, and `summary` is kept only for a request-scoped one.
    ///
    /// # Errors
    ///
    /// [`ApprovalRequestError::NotAsked`] for a capability that needs no approval, and
    /// [`ApprovalRequestError::SummaryOnConnectionScope`] for a summary on a connection-scoped
    /// question.
    pub fn new(
        capability: MeshCapability,
        device_id: Option<String>,
        locality: PeerReach,
        summary: Option<String>,
    ) -> Result<Self, ApprovalRequestError> {
        let scope = capability_approval(capability)
            .scope()
            .ok_or(ApprovalRequestError::NotAsked(capability))?;
        if scope == CapabilityApprovalScope::Connection && summary.is_some() {
            return Err(ApprovalRequestError::SummaryOnConnectionScope);
        }
        Ok(Self {
            capability,
            scope,
            device_id,
            locality,
            summary,
        })
    }

    /// The question this authority asks: the scope from the table, the peer's id and locality,
    /// the summary only for a request. `None` for a capability nobody is asked about.
    fn about(
        capability: MeshCapability,
        peer: &ConnectionPeer,
        summary: Option<&str>,
    ) -> Option<Self> {
        let scope = capability_approval(capability).scope()?;
        Some(Self {
            capability,
            scope,
            device_id: peer.device_id.clone(),
            locality: peer.locality,
            summary: match scope {
                CapabilityApprovalScope::Request => summary.map(String::from),
                CapabilityApprovalScope::Connection => None,
            },
        })
    }

    /// The capability asked about.
    #[must_use]
    pub const fn capability(&self) -> MeshCapability {
        self.capability
    }

    /// What the answer covers.
    #[must_use]
    pub const fn scope(&self) -> CapabilityApprovalScope {
        self.scope
    }

    /// The peer's device id, when the carrier learned one.
    #[must_use]
    pub fn device_id(&self) -> Option<&str> {
        self.device_id.as_deref()
    }

    /// Where the carrier established the peer runs.
    #[must_use]
    pub const fn locality(&self) -> PeerReach {
        self.locality
    }

    /// What the peer asks for, in its own words (untrusted text; request scope only).
    #[must_use]
    pub fn summary(&self) -> Option<&str> {
        self.summary.as_deref()
    }
}

/// Why an approval question is malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ApprovalRequestError {
    /// Nobody is ever asked about this capability (its approval is `never`).
    #[error("`{0}` needs no approval: nobody is asked about it")]
    NotAsked(MeshCapability),
    /// The scope is not the one the capability's approval needs.
    #[error(
        "`{capability}` is approved {}, not with the scope `{scope}`",
        capability_approval(*capability)
    )]
    ScopeMismatch {
        /// The capability asked about.
        capability: MeshCapability,
        /// The scope the question claimed.
        scope: CapabilityApprovalScope,
    },
    /// A connection-scoped question with a summary (only a request has one).
    #[error("a connection-scoped question carries no `summary`")]
    SummaryOnConnectionScope,
}

/// The operator of the receiving session (`IOperatorApprover`): someone no connected surface can
/// speak for.
///
/// Only `Ok(true)` (an explicit yes) allows; `Ok(false)` is a no and an `Err` (the TypeScript
/// "throws" or "rejects") counts as a no. When `signal` reports an abort the peer is gone: the
/// approver withdraws its question and resolves (any answer it gives then is ignored).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait OperatorApprover {
    /// Asks the operator `request`; `signal` is the caller's, when it gave one.
    async fn approve(
        &self,
        request: &CapabilityApprovalRequest,
        signal: Option<&dyn AbortSignal>,
    ) -> Result<bool, ErrorValue>;
}

impl<A: OperatorApprover + ?Sized> OperatorApprover for &A {
    async fn approve(
        &self,
        request: &CapabilityApprovalRequest,
        signal: Option<&dyn AbortSignal>,
    ) -> Result<bool, ErrorValue> {
        (**self).approve(request, signal).await
    }
}

/// The approver of a connection with no operator (a headless process, no terminal): it has no
/// value, so [`ConnectionAuthority::unattended`] can never ask it, and every capability that
/// needs a yes is refused `no-approver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoOperator {}

impl OperatorApprover for NoOperator {
    async fn approve(
        &self,
        _request: &CapabilityApprovalRequest,
        _signal: Option<&dyn AbortSignal>,
    ) -> Result<bool, ErrorValue> {
        match *self {}
    }
}

/// The options of one [`ConnectionAuthority::authorize`] call (`IAuthorizeOptions`).
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct AuthorizeOptions<'a> {
    /// What the peer asks for, shown to the operator in a request-scoped question (ignored for
    /// a connection-scoped one).
    pub summary: Option<&'a str>,
    /// Raised when the connection goes away: the question is withdrawn and this call is
    /// declined (nothing is kept for the connection).
    pub signal: Option<&'a dyn AbortSignal>,
}

impl<'a> AuthorizeOptions<'a> {
    /// No summary and no signal (the same as [`Default`]).
    #[must_use]
    pub const fn new() -> Self {
        Self {
            summary: None,
            signal: None,
        }
    }

    /// The same options with `summary` (`AuthorizeOptions::default().with_summary(…)`).
    #[must_use]
    pub const fn with_summary(mut self, summary: &'a str) -> Self {
        self.summary = Some(summary);
        self
    }

    /// The same options with `signal`.
    #[must_use]
    pub const fn with_signal(mut self, signal: &'a dyn AbortSignal) -> Self {
        self.signal = Some(signal);
        self
    }
}

impl fmt::Debug for AuthorizeOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthorizeOptions")
            .field("summary", &self.summary)
            .field(
                "signal",
                &self.signal.map(|signal| {
                    if signal.is_aborted() {
                        "aborted"
                    } else {
                        "live"
                    }
                }),
            )
            .finish()
    }
}

string_enum! {
    /// Why a capability was refused (`TCapabilityRefusal`).
    pub enum CapabilityRefusal {
        /// `'not-granted'`: admission did not grant it (or the connection has ended); nobody was
        /// asked.
        NotGranted = "not-granted",
        /// `'no-approver'`: it needs the operator and there is nobody to ask.
        NoApprover = "no-approver",
        /// `'declined'`: the operator said no, asking failed, or the call was aborted.
        Declined = "declined",
    }
}

/// Whether the peer may use a capability now (`TCapabilityDecision`).
///
/// Wire form: `{allowed: true}` or `{allowed: false, reason}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::DecisionWire", into = "wire::DecisionWire")
)]
pub enum CapabilityDecision {
    /// Allowed.
    Allowed,
    /// Refused, and why.
    Refused(CapabilityRefusal),
}

impl CapabilityDecision {
    /// True when allowed.
    #[must_use]
    pub const fn is_allowed(self) -> bool {
        matches!(self, Self::Allowed)
    }

    /// Why it was refused; `None` when allowed.
    #[must_use]
    pub const fn refusal(self) -> Option<CapabilityRefusal> {
        match self {
            Self::Allowed => None,
            Self::Refused(refusal) => Some(refusal),
        }
    }
}

/// A task another device asks this session to run (`IDelegationRequest`). Only these two fields
/// exist, so nothing else on the request (a permission mode, tools, a claimed reach, turn source
/// or driver) can be read; the decoder ignores other members.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct DelegationRequest {
    /// The request's id: the delegated turn answers it (its `messageId`).
    pub request_id: String,
    /// The task, in the peer's words: the turn's input, and the operator's summary.
    pub task: String,
}

impl DelegationRequest {
    /// Request `request_id`, asking for `task`.
    #[must_use]
    pub fn new(request_id: impl Into<String>, task: impl Into<String>) -> Self {
        Self {
            request_id: request_id.into(),
            task: task.into(),
        }
    }
}

/// An approved delegated task, as the turn this session submits for it (`IDelegatedTurn`).
///
/// Built only from stored data: `driver_id` is `peer:` followed by the admitted device id (or
/// the session id when none is known), the peer context answers `messageId` = the request id and
/// replies to the admitted session id, with no reach (departure 7). Its turn source is always
/// `'peer'`. Submit it with [`submit_options`](Self::submit_options): the session family's peer
/// submission, decided by the receiver's ordinary permissions. Wire form: `{input, options:
/// {turnSource: 'peer', driverId, peer}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::DelegatedTurnWire", into = "wire::DelegatedTurnWire")
)]
pub struct DelegatedTurn {
    input: String,
    driver_id: DriverId,
    peer: PeerTurnContext,
}

impl DelegatedTurn {
    /// The prefix of every delegated turn's driver id.
    pub const DRIVER_PREFIX: &'static str = "peer:";

    /// What the model gets: the task.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }

    /// Who the turn is attributed to: `peer:<deviceId or sessionId>`.
    #[must_use]
    pub fn driver_id(&self) -> &str {
        &self.driver_id
    }

    /// The reply route: the request it answers and the session the answer goes to.
    #[must_use]
    pub const fn peer(&self) -> &PeerTurnContext {
        &self.peer
    }

    /// The session family's submission options for this turn: a peer turn with this driver id
    /// and peer context (they pass [`SubmitOptions::validate`]).
    #[must_use]
    pub fn submit_options(&self) -> SubmitOptions {
        SubmitOptions::peer(self.driver_id.clone(), self.peer.clone())
    }

    /// The turn's input and submission options.
    #[must_use]
    pub fn into_submission(self) -> (String, SubmitOptions) {
        (self.input, SubmitOptions::peer(self.driver_id, self.peer))
    }
}

/// Why a delegated turn's wire form was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DelegatedTurnError {
    /// The turn source is not `'peer'` (the literal found).
    #[error("a delegated turn's `turnSource` is `peer`, not `{0}`")]
    NotPeerTurn(String),
    /// The driver id does not start with `peer:`.
    #[error(
        "a delegated turn's `driverId` starts with `{}`",
        DelegatedTurn::DRIVER_PREFIX
    )]
    DriverNotPeer,
}

/// The answer to a delegation (`TDelegationDecision`): the turn to submit, or why not.
///
/// Wire form: `{allowed: true, turn}` or `{allowed: false, reason}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "wire::DelegationDecisionWire",
        into = "wire::DelegationDecisionWire"
    )
)]
pub enum DelegationDecision {
    /// Approved: submit this turn.
    Allowed {
        /// The peer turn that runs the task.
        turn: DelegatedTurn,
    },
    /// Refused, and why.
    Refused(CapabilityRefusal),
}

impl DelegationDecision {
    /// The turn to submit, when approved.
    #[must_use]
    pub const fn turn(&self) -> Option<&DelegatedTurn> {
        match self {
            Self::Allowed { turn } => Some(turn),
            Self::Refused(_) => None,
        }
    }

    /// Why it was refused; `None` when approved.
    #[must_use]
    pub const fn refusal(&self) -> Option<CapabilityRefusal> {
        match self {
            Self::Allowed { .. } => None,
            Self::Refused(refusal) => Some(*refusal),
        }
    }
}

/// How a connection's authority ended: the carrier closed it, replaced it with another, or
/// revoked it. After any of them every call is refused `not-granted`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ConnectionEnd {
    /// The carrier closed the connection.
    Closed,
    /// The carrier replaced it with a new connection (which gets its own authority).
    Replaced,
    /// The connection's authority was revoked.
    Revoked,
}

impl fmt::Display for ConnectionEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Closed => "closed",
            Self::Replaced => "replaced",
            Self::Revoked => "revoked",
        })
    }
}

/// The state of an every-connection capability's one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ConnectionAnswer {
    /// A call is asking the operator; others wait.
    Asking,
    /// The operator's answer, kept for the connection (allowed or declined).
    Settled(CapabilityDecision),
}

/// What one question came to.
enum Asked {
    /// The operator said yes and nothing interrupted it.
    Yes,
    /// The operator said no, or asking failed: an answer to keep.
    No,
    /// The signal was raised before or during the question: this call only is declined.
    Interrupted,
    /// There is no operator.
    NoApprover,
    /// The connection ended.
    Ended,
}

/// The authority one connection holds (`ConnectionAuthority`). Construct one per connection: a
/// new connection asks again, however recently the same device was allowed.
///
/// Guarantees (catalog §10 items 9–12):
/// * a capability outside the peer's grant is `not-granted` and nobody is asked;
/// * `presence` and `message` are allowed with no question;
/// * `delegate`, `handoff` and `file` ask with scope `request` on every call;
/// * `observe` and `drive` ask once per connection with scope `connection`: concurrent callers
///   share the one answer, and a declined answer stays declined;
/// * no approver is `no-approver`; a no, a failing approver or an abort is `declined`; an abort
///   and `no-approver` are never kept (departure 6);
/// * after [`end`](Self::end) every call is `not-granted`, pending ones included, and nobody is
///   asked.
///
/// Single-threaded (`RefCell`), no clock. `A` is the operator; [`unattended`](Self::unattended)
/// builds one with nobody to ask.
pub struct ConnectionAuthority<A = NoOperator> {
    peer: ConnectionPeer,
    approver: Option<A>,
    answers: RefCell<BTreeMap<MeshCapability, ConnectionAnswer>>,
    ended: Cell<Option<ConnectionEnd>>,
    wakers: Wakers,
}

impl ConnectionAuthority<NoOperator> {
    /// The authority of a connection with no operator: every capability that needs a yes is
    /// refused `no-approver`.
    #[must_use]
    pub fn unattended(peer: ConnectionPeer) -> Self {
        Self::new(peer, None)
    }
}

impl<A: OperatorApprover> ConnectionAuthority<A> {
    /// The authority of one connection to `peer`, asking `approver` (`None`: nobody to ask).
    #[must_use]
    pub fn new(peer: ConnectionPeer, approver: Option<A>) -> Self {
        Self {
            peer,
            approver,
            answers: RefCell::new(BTreeMap::new()),
            ended: Cell::new(None),
            wakers: RefCell::new(MultiWakerRegistration::new()),
        }
    }

    /// The connected peer.
    #[must_use]
    pub const fn peer(&self) -> &ConnectionPeer {
        &self.peer
    }

    /// True when there is an operator to ask.
    #[must_use]
    pub const fn has_approver(&self) -> bool {
        self.approver.is_some()
    }

    /// Ends this connection's authority: the carrier closed, replaced or revoked it. Every later
    /// call, and every pending one (woken now), is refused `not-granted`. Ending twice keeps the
    /// first reason.
    pub fn end(&self, how: ConnectionEnd) {
        if self.ended.get().is_none() {
            self.ended.set(Some(how));
        }
        self.wake_all();
    }

    /// How the connection ended, or `None` while it lasts.
    #[must_use]
    pub fn ended(&self) -> Option<ConnectionEnd> {
        self.ended.get()
    }

    /// The kept answer of an every-connection capability: `Some` once the operator answered it
    /// on this connection (allowed, or declined for good), `None` before, while it is being
    /// asked, and for every other capability.
    #[must_use]
    pub fn connection_answer(&self, capability: MeshCapability) -> Option<CapabilityDecision> {
        match self.answers.borrow().get(&capability) {
            Some(ConnectionAnswer::Settled(decision)) => Some(*decision),
            _ => None,
        }
    }

    /// Whether the peer may use `capability` now (`authorize`); see the type's guarantees. The
    /// summary is shown in a request-scoped question; the signal withdraws the question.
    pub async fn authorize(
        &self,
        capability: MeshCapability,
        options: AuthorizeOptions<'_>,
    ) -> CapabilityDecision {
        if self.ended.get().is_some() || !self.peer.capabilities.contains(capability) {
            return CapabilityDecision::Refused(CapabilityRefusal::NotGranted);
        }
        let Some(question) =
            CapabilityApprovalRequest::about(capability, &self.peer, options.summary)
        else {
            return CapabilityDecision::Allowed;
        };
        match question.scope {
            CapabilityApprovalScope::Request => match self.ask(question, options.signal).await {
                Asked::Yes => CapabilityDecision::Allowed,
                Asked::No | Asked::Interrupted => {
                    CapabilityDecision::Refused(CapabilityRefusal::Declined)
                }
                Asked::NoApprover => CapabilityDecision::Refused(CapabilityRefusal::NoApprover),
                Asked::Ended => CapabilityDecision::Refused(CapabilityRefusal::NotGranted),
            },
            CapabilityApprovalScope::Connection => self.ask_once(question, options.signal).await,
        }
    }

    /// Asks about a delegated task and, on yes, builds the peer turn that runs it
    /// (`authorizeDelegation`): `not-granted` for a peer without a session id (there is nowhere
    /// to answer), otherwise [`authorize`](Self::authorize) of `delegate` with the task as the
    /// summary. Only the request's id and task are read; the attribution comes from the
    /// admitted peer.
    pub async fn authorize_delegation(
        &self,
        request: &DelegationRequest,
        signal: Option<&dyn AbortSignal>,
    ) -> DelegationDecision {
        let Some(reply_to) = self.peer.session_id.as_deref() else {
            return DelegationDecision::Refused(CapabilityRefusal::NotGranted);
        };
        let options = AuthorizeOptions {
            summary: Some(&request.task),
            signal,
        };
        match self.authorize(MeshCapability::Delegate, options).await {
            CapabilityDecision::Refused(refusal) => DelegationDecision::Refused(refusal),
            CapabilityDecision::Allowed => {
                let attributed = self.peer.device_id.as_deref().unwrap_or(reply_to);
                DelegationDecision::Allowed {
                    turn: DelegatedTurn {
                        input: request.task.clone(),
                        driver_id: format!("{}{attributed}", DelegatedTurn::DRIVER_PREFIX),
                        peer: PeerTurnContext {
                            reach: None,
                            message_id: request.request_id.clone(),
                            reply_to: String::from(reply_to),
                        },
                    },
                }
            }
        }
    }

    /// Asks about one incoming file (`authorizeFile`): [`authorize`](Self::authorize) of `file`
    /// with the summary naming it exactly as offered ([`FileOffer::approval_summary`]), so the yes
    /// is for exactly the content the receiver then verifies.
    pub async fn authorize_file(
        &self,
        offer: &FileOffer,
        signal: Option<&dyn AbortSignal>,
    ) -> CapabilityDecision {
        let summary = offer.approval_summary();
        let options = AuthorizeOptions {
            summary: Some(&summary),
            signal,
        };
        self.authorize(MeshCapability::File, options).await
    }

    /// Asks `question` once: nobody to ask, an abort before asking, the operator's answer, an
    /// abort or an end while asking.
    async fn ask(
        &self,
        question: CapabilityApprovalRequest,
        signal: Option<&dyn AbortSignal>,
    ) -> Asked {
        let Some(approver) = self.approver.as_ref() else {
            return Asked::NoApprover;
        };
        if is_aborted(signal) {
            return Asked::Interrupted;
        }
        let mut answer = pin!(approver.approve(&question, signal));
        poll_fn(|cx| {
            if self.ended.get().is_some() {
                return Poll::Ready(Asked::Ended);
            }
            let Poll::Ready(answer) = answer.as_mut().poll(cx) else {
                // Woken by the approver, or by `end`.
                self.register(cx.waker());
                return Poll::Pending;
            };
            Poll::Ready(if self.ended.get().is_some() {
                Asked::Ended
            } else if is_aborted(signal) {
                Asked::Interrupted
            } else if matches!(answer, Ok(true)) {
                Asked::Yes
            } else {
                Asked::No
            })
        })
        .await
    }

    /// The every-connection path: the kept answer, or wait while another call asks, or ask.
    async fn ask_once(
        &self,
        question: CapabilityApprovalRequest,
        signal: Option<&dyn AbortSignal>,
    ) -> CapabilityDecision {
        let capability = question.capability;
        let refused = CapabilityDecision::Refused;
        let claimed = poll_fn(|cx| {
            if self.ended.get().is_some() {
                return Poll::Ready(Err(refused(CapabilityRefusal::NotGranted)));
            }
            let mut answers = self.answers.borrow_mut();
            match answers.get(&capability) {
                Some(ConnectionAnswer::Settled(decision)) => Poll::Ready(Err(*decision)),
                _ if self.approver.is_none() => {
                    Poll::Ready(Err(refused(CapabilityRefusal::NoApprover)))
                }
                _ if is_aborted(signal) => Poll::Ready(Err(refused(CapabilityRefusal::Declined))),
                Some(ConnectionAnswer::Asking) => {
                    drop(answers);
                    self.register(cx.waker());
                    Poll::Pending
                }
                None => {
                    answers.insert(capability, ConnectionAnswer::Asking);
                    Poll::Ready(Ok(()))
                }
            }
        })
        .await;
        if let Err(decision) = claimed {
            return decision;
        }
        // This call drives the question. If it is dropped before settling, the guard frees the
        // slot and wakes the waiting calls, one of which asks again.
        let guard = Driving {
            answers: &self.answers,
            wakers: &self.wakers,
            capability,
        };
        match self.ask(question, signal).await {
            Asked::Yes => guard.settle(CapabilityDecision::Allowed),
            Asked::No => guard.settle(refused(CapabilityRefusal::Declined)),
            Asked::Interrupted => refused(CapabilityRefusal::Declined),
            Asked::NoApprover => refused(CapabilityRefusal::NoApprover),
            Asked::Ended => refused(CapabilityRefusal::NotGranted),
        }
    }

    fn register(&self, waker: &Waker) {
        self.wakers.borrow_mut().register(waker);
    }

    fn wake_all(&self) {
        wake_all(&self.wakers);
    }
}

impl<A> fmt::Debug for ConnectionAuthority<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectionAuthority")
            .field("peer", &self.peer)
            .field("has_approver", &self.approver.is_some())
            .field("answers", &self.answers.borrow())
            .field("ended", &self.ended.get())
            .finish_non_exhaustive()
    }
}

/// The wakers of the calls waiting on this connection. Past `WAITERS` tasks, registering wakes
/// them all early; every waiting call checks its condition again when polled.
type Wakers = RefCell<MultiWakerRegistration<WAITERS>>;

const WAITERS: usize = 4;

/// Wakes every kept waker and forgets them (the set is taken first, so a waker that polls at
/// once finds it free).
fn wake_all(wakers: &Wakers) {
    wakers.replace(MultiWakerRegistration::new()).wake();
}

fn is_aborted(signal: Option<&dyn AbortSignal>) -> bool {
    signal.is_some_and(AbortSignal::is_aborted)
}

/// The one call asking an every-connection question. Settling keeps the answer; dropping it
/// unsettled (the call was dropped, interrupted, or the connection ended) frees the slot. Either
/// way every waiting call is woken.
struct Driving<'a> {
    answers: &'a RefCell<BTreeMap<MeshCapability, ConnectionAnswer>>,
    wakers: &'a Wakers,
    capability: MeshCapability,
}

impl Driving<'_> {
    fn settle(self, decision: CapabilityDecision) -> CapabilityDecision {
        self.answers
            .borrow_mut()
            .insert(self.capability, ConnectionAnswer::Settled(decision));
        // `Drop` now wakes the waiting calls and leaves the settled answer alone.
        decision
    }
}

impl Drop for Driving<'_> {
    fn drop(&mut self) {
        let mut answers = self.answers.borrow_mut();
        if answers.get(&self.capability) == Some(&ConnectionAnswer::Asking) {
            answers.remove(&self.capability);
        }
        drop(answers);
        wake_all(self.wakers);
    }
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::{String, ToString};

    use crate::agent_core::PeerReach;
    use crate::session::turns::{DriverId, PeerTurnContext, TurnSource};

    use super::{
        ApprovalRequestError, CapabilityApprovalRequest, CapabilityApprovalScope,
        CapabilityDecision, CapabilityRefusal, DelegatedTurn, DelegatedTurnError,
        DelegationDecision, MeshCapability, capability_approval,
    };

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ApprovalRequestWire {
        capability: MeshCapability,
        scope: CapabilityApprovalScope,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        device_id: Option<String>,
        locality: PeerReach,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        summary: Option<String>,
    }

    impl TryFrom<ApprovalRequestWire> for CapabilityApprovalRequest {
        type Error = ApprovalRequestError;

        fn try_from(wire: ApprovalRequestWire) -> Result<Self, ApprovalRequestError> {
            let expected = capability_approval(wire.capability).scope();
            if expected.is_some() && expected != Some(wire.scope) {
                return Err(ApprovalRequestError::ScopeMismatch {
                    capability: wire.capability,
                    scope: wire.scope,
                });
            }
            Self::new(wire.capability, wire.device_id, wire.locality, wire.summary)
        }
    }

    impl From<CapabilityApprovalRequest> for ApprovalRequestWire {
        fn from(request: CapabilityApprovalRequest) -> Self {
            Self {
                capability: request.capability,
                scope: request.scope,
                device_id: request.device_id,
                locality: request.locality,
                summary: request.summary,
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct DecisionWire {
        allowed: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<CapabilityRefusal>,
    }

    impl TryFrom<DecisionWire> for CapabilityDecision {
        type Error = &'static str;

        fn try_from(wire: DecisionWire) -> Result<Self, &'static str> {
            match (wire.allowed, wire.reason) {
                (true, None) => Ok(Self::Allowed),
                (false, Some(reason)) => Ok(Self::Refused(reason)),
                (true, Some(_)) => Err("an allowed decision has no `reason`"),
                (false, None) => Err("a refused decision needs a `reason`"),
            }
        }
    }

    impl From<CapabilityDecision> for DecisionWire {
        fn from(decision: CapabilityDecision) -> Self {
            Self {
                allowed: decision.is_allowed(),
                reason: decision.refusal(),
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct DelegatedTurnOptionsWire {
        turn_source: TurnSource,
        driver_id: DriverId,
        peer: PeerTurnContext,
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct DelegatedTurnWire {
        input: String,
        options: DelegatedTurnOptionsWire,
    }

    impl TryFrom<DelegatedTurnWire> for DelegatedTurn {
        type Error = DelegatedTurnError;

        fn try_from(wire: DelegatedTurnWire) -> Result<Self, DelegatedTurnError> {
            let options = wire.options;
            if options.turn_source != TurnSource::Peer {
                return Err(DelegatedTurnError::NotPeerTurn(
                    options.turn_source.to_string(),
                ));
            }
            if !options.driver_id.starts_with(Self::DRIVER_PREFIX) {
                return Err(DelegatedTurnError::DriverNotPeer);
            }
            Ok(Self {
                input: wire.input,
                driver_id: options.driver_id,
                peer: options.peer,
            })
        }
    }

    impl From<DelegatedTurn> for DelegatedTurnWire {
        fn from(turn: DelegatedTurn) -> Self {
            Self {
                input: turn.input,
                options: DelegatedTurnOptionsWire {
                    turn_source: TurnSource::Peer,
                    driver_id: turn.driver_id,
                    peer: turn.peer,
                },
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct DelegationDecisionWire {
        allowed: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<DelegatedTurn>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<CapabilityRefusal>,
    }

    impl TryFrom<DelegationDecisionWire> for DelegationDecision {
        type Error = &'static str;

        fn try_from(wire: DelegationDecisionWire) -> Result<Self, &'static str> {
            match (wire.allowed, wire.turn, wire.reason) {
                (true, Some(turn), None) => Ok(Self::Allowed { turn }),
                (false, None, Some(reason)) => Ok(Self::Refused(reason)),
                (true, None, _) => Err("an allowed delegation needs its `turn`"),
                (true, Some(_), Some(_)) => Err("an allowed delegation has no `reason`"),
                (false, Some(_), _) => Err("a refused delegation has no `turn`"),
                (false, None, None) => Err("a refused delegation needs a `reason`"),
            }
        }
    }

    impl From<DelegationDecision> for DelegationDecisionWire {
        fn from(decision: DelegationDecision) -> Self {
            match decision {
                DelegationDecision::Allowed { turn } => Self {
                    allowed: true,
                    turn: Some(turn),
                    reason: None,
                },
                DelegationDecision::Refused(reason) => Self {
                    allowed: false,
                    turn: None,
                    reason: Some(reason),
                },
            }
        }
    }
}

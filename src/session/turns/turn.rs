//! Turn identity: who a turn is attributed to, where it came from, how a host submits it, the
//! handle it gets back, and the outcome of a submission that never ran (`turn-contracts`,
//! `driver-contracts`, `tool-summary`).
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;

use crate::agent_core::{AbortSignal, ErrorValue, NeverAborted, PeerReach};
use crate::analytics::usage::UsageSurface;
use crate::command::definition::CommandUiIntent;

use super::execution_result::TurnOutcome;

/// A co-drive attribution id (`TDriverId`): who a turn, prompt or intent is attributed to.
///
/// It is for display and attribution only, never an authentication or authorization input: a
/// remote driver's id is its device id, the local operator is [`OWNER_DRIVER_ID`], an autonomous
/// turn is [`AGENT_DRIVER_ID`].
pub type DriverId = String;

/// The driver id of the local operator: the default for a human turn that names no driver.
pub const OWNER_DRIVER_ID: &str = "owner";

/// The driver id reserved for autonomous turns (a wake, a goal iteration, anything the agent
/// starts itself). It is never the owner.
pub const AGENT_DRIVER_ID: &str = "agent";

string_enum! {
    /// Where a turn came from (`TTurnSource`).
    ///
    /// This is attribution, not proof of admission: a value says what the submitter claims, and
    /// the runtime that owns the session must authenticate an external turn in a way specific to
    /// its source *before* submitting it. Nothing here checks the claim.
    pub enum TurnSource {
        /// `'user'`: the operator typed it.
        User = "user",
        /// `'agent-wakeup'`: an autonomous wake (a schedule, a self-paced loop, a goal).
        AgentWakeup = "agent-wakeup",
        /// `'peer'`: another session sent it as a peer message; needs a driver id to be accepted.
        Peer = "peer",
        /// An admitted external event. The literal was not recovered; `'external-event'` is the
        /// likely spelling and the one this crate writes and reads.
        ExternalEvent = "external-event",
    }
}

/// The driver id a turn is attributed to when its submitter names none.
///
/// A user turn (and a submission with no source, which is a user turn) is the owner's; an
/// autonomous wake is the agent's. A peer or external-event turn has no default: the host that
/// admitted it must name the driver, so this returns `None`.
#[must_use]
pub const fn default_driver_id(source: Option<TurnSource>) -> Option<&'static str> {
    match source {
        None | Some(TurnSource::User) => Some(OWNER_DRIVER_ID),
        Some(TurnSource::AgentWakeup) => Some(AGENT_DRIVER_ID),
        Some(TurnSource::Peer | TurnSource::ExternalEvent) => None,
    }
}

/// What the host that admitted a peer message tells the turn it becomes (`IPeerTurnContext`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PeerTurnContext {
    /// Where the peer runs, as admission established it (never as the peer claims). Optional: the
    /// newest delegation code builds the context without it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reach: Option<PeerReach>,
    /// The peer message this turn answers.
    pub message_id: String,
    /// The sender's session id, where the answer goes.
    pub reply_to: String,
}

impl PeerTurnContext {
    /// A [`PeerTurnContext`] from the members the contract requires, in its order; the optional
    /// ones start absent.
    #[must_use]
    pub fn new(message_id: impl Into<String>, reply_to: impl Into<String>) -> Self {
        Self {
            message_id: message_id.into(),
            reply_to: reply_to.into(),
            reach: None,
        }
    }
}

optional_setters!(PeerTurnContext {
    /// The same value with `reach` set: where the peer runs, as admission established it (never as
    /// the peer claims).
    with_reach => reach: PeerReach,
});

/// How a caller submits one turn (`ISubmitOptions`), generic over its abort signal `S`.
///
/// These options are local to one call and never serialized. There is no `onAccepted` callback:
/// the [`TurnHandle`] the submission returns is the acceptance notice. A session must call
/// [`validate`](Self::validate) before accepting the options (it refuses a peer turn that names no
/// driver).
///
/// `#[non_exhaustive]`, so the contract can add options: build it with [`new`](SubmitOptions::new)
/// (or `Default`), [`peer`](SubmitOptions::peer) and the `with_*` setters.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SubmitOptions<S = NeverAborted> {
    /// Cancels this submission only, including while it is queued or being prepared.
    pub signal: Option<S>,
    /// Who the turn is attributed to; see [`default_driver_id`] for the default.
    pub driver_id: Option<DriverId>,
    /// The trusted product surface that accepted the turn (for usage attribution).
    pub surface: Option<UsageSurface>,
    /// Where the turn came from; absent means a user turn.
    pub turn_source: Option<TurnSource>,
    /// The admitted peer message this turn answers; only for peer turns.
    pub peer: Option<PeerTurnContext>,
}

impl<S> Default for SubmitOptions<S> {
    fn default() -> Self {
        Self {
            signal: None,
            driver_id: None,
            surface: None,
            turn_source: None,
            peer: None,
        }
    }
}

impl SubmitOptions {
    /// Options for a user turn with no signal and nothing named: the same as
    /// [`Default::default`], with the signal type fixed to [`NeverAborted`] (so no annotation is
    /// needed before [`with_signal`](Self::with_signal)).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Options for a peer turn: source [`TurnSource::Peer`], the peer's driver id and the context
    /// its admitting host built. Still [`validate`](Self::validate) it: an empty driver id is
    /// refused.
    #[must_use]
    pub fn peer(driver_id: impl Into<DriverId>, peer: PeerTurnContext) -> Self {
        Self {
            driver_id: Some(driver_id.into()),
            turn_source: Some(TurnSource::Peer),
            peer: Some(peer),
            ..Self::default()
        }
    }
}

impl<S> SubmitOptions<S> {
    /// The same options with `signal` as the abort signal.
    #[must_use]
    pub fn with_signal<T>(self, signal: T) -> SubmitOptions<T> {
        SubmitOptions {
            signal: Some(signal),
            driver_id: self.driver_id,
            surface: self.surface,
            turn_source: self.turn_source,
            peer: self.peer,
        }
    }

    /// The same options attributing the turn to `driver_id`.
    #[must_use]
    pub fn with_driver_id(mut self, driver_id: impl Into<DriverId>) -> Self {
        self.driver_id = Some(driver_id.into());
        self
    }

    /// The same options naming the trusted product surface that accepted the turn.
    #[must_use]
    pub fn with_surface(mut self, surface: UsageSurface) -> Self {
        self.surface = Some(surface);
        self
    }

    /// The same options with `turn_source` as where the turn came from.
    #[must_use]
    pub fn with_turn_source(mut self, turn_source: TurnSource) -> Self {
        self.turn_source = Some(turn_source);
        self
    }

    /// The same options carrying the admitted peer message the turn answers (only valid on a
    /// peer turn; see [`validate`](Self::validate)).
    #[must_use]
    pub fn with_peer(mut self, peer: PeerTurnContext) -> Self {
        self.peer = Some(peer);
        self
    }

    /// Checks the rules a session enforces before accepting a submission: a peer turn must name a
    /// non-empty driver id, and only a peer turn may carry peer context.
    ///
    /// # Errors
    ///
    /// [`SubmitRefusal::PeerWithoutDriver`] or [`SubmitRefusal::PeerContextOnNonPeerTurn`].
    pub fn validate(&self) -> Result<(), SubmitRefusal> {
        let names_driver = self.driver_id.as_deref().is_some_and(|id| !id.is_empty());
        match (self.turn_source, &self.peer) {
            (Some(TurnSource::Peer), _) if !names_driver => Err(SubmitRefusal::PeerWithoutDriver),
            (Some(TurnSource::Peer), _) | (_, None) => Ok(()),
            (_, Some(_)) => Err(SubmitRefusal::PeerContextOnNonPeerTurn),
        }
    }

    /// The driver the turn is attributed to: the named driver id, else the default for its source
    /// ([`default_driver_id`]); `None` for a peer or external turn that names nobody.
    #[must_use]
    pub fn attributed_driver_id(&self) -> Option<&str> {
        match self.driver_id.as_deref() {
            Some(id) if !id.is_empty() => Some(id),
            _ => default_driver_id(self.turn_source),
        }
    }
}

impl<S: AbortSignal> SubmitOptions<S> {
    /// True when a signal was given and it reports an abort.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.signal.as_ref().is_some_and(AbortSignal::is_aborted)
    }
}

/// Why a session refuses a submission's options before accepting it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SubmitRefusal {
    /// A `'peer'` turn that names no driver id (or an empty one): a peer turn must be attributed
    /// to the peer.
    #[error("a peer turn must name the peer's driver id")]
    PeerWithoutDriver,
    /// Peer context on a turn whose source is not `'peer'`.
    #[error("peer context is only for peer turns")]
    PeerContextOnNonPeerTurn,
}

/// What one submission's completion settles with: the turn's outcome, or why there is none.
///
/// `E` is the failure type of a turn that ran and failed (by default the error carried as data).
pub type TurnCompletion<E = ErrorValue> = Result<TurnOutcome, TurnError<E>>;

/// The handle of one accepted submission (`ITurnHandle`): its id and its completion.
///
/// The id is minted when the session accepts the submission and stays the same while it waits in
/// the queue: one submission, one identity. `completed` is a future whose output is a
/// [`TurnCompletion`]; it always settles, with this submission's outcome or a [`TurnNotRun`].
/// Awaiting the handle itself awaits `completed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnHandle<C> {
    /// The turn id minted at acceptance.
    pub turn_id: String,
    /// The completion: a future resolving to a [`TurnCompletion`].
    pub completed: C,
}

impl<C> TurnHandle<C> {
    /// A handle for the turn `turn_id` settling through `completed`.
    #[must_use]
    pub fn new(turn_id: impl Into<String>, completed: C) -> Self {
        Self {
            turn_id: turn_id.into(),
            completed,
        }
    }
}

impl<C: core::future::Future> core::future::IntoFuture for TurnHandle<C> {
    type Output = C::Output;
    type IntoFuture = C;

    fn into_future(self) -> C {
        self.completed
    }
}

string_enum! {
    /// Why an accepted submission never ran (`TTurnNotRunReason`).
    ///
    /// Exactly three reasons; there is deliberately no `shutdown` reason: a shutdown clears the
    /// queue through the cancel path, so it reports `cancelled` (`"shutdown"` fails to decode).
    pub enum TurnNotRunReason {
        /// A later input from the same driver replaced it in the queue.
        Coalesced = "coalesced",
        /// The queue was full when it arrived.
        Dropped = "dropped",
        /// The queue was cleared (cancel, abort or shutdown) before it ran.
        Cancelled = "cancelled",
    }
}

/// The outcome of an accepted submission that never ran (`ITurnNotRunError`): the turn id it was
/// given and why.
///
/// At a transport boundary this is an outcome to report to the caller, never a failure. It prints
/// as `turn <id> never ran: <reason>`, the TypeScript message, and its error name is
/// [`NAME`](Self::NAME).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "TurnNotRunWire", into = "TurnNotRunWire")
)]
#[error("turn {turn_id} never ran: {reason}")]
pub struct TurnNotRun {
    /// The id the submission was given at acceptance.
    pub turn_id: String,
    /// Why it never ran.
    pub reason: TurnNotRunReason,
}

impl TurnNotRun {
    /// The error name of the TypeScript shape, written on the wire as `name`.
    pub const NAME: &'static str = "TurnNotRunError";

    /// The not-run outcome of turn `turn_id` for `reason`.
    #[must_use]
    pub fn new(turn_id: impl Into<String>, reason: TurnNotRunReason) -> Self {
        Self {
            turn_id: turn_id.into(),
            reason,
        }
    }

    /// The outcome as an error carried as data: name [`NAME`](Self::NAME) and the message
    /// `turn <id> never ran: <reason>`. The conversion is one-way: the predicate does not accept
    /// the result (see [`is_turn_not_run`]).
    #[must_use]
    pub fn to_error_value(&self) -> ErrorValue {
        ErrorValue::new(Self::NAME, alloc::format!("{self}"))
    }
}

/// The wire form of [`TurnNotRun`], with its fixed `name`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct TurnNotRunWire {
    name: String,
    turn_id: String,
    reason: TurnNotRunReason,
}

/// Refuses a not-run record whose `name` is not exactly `TurnNotRunError`.
#[cfg(feature = "serde")]
#[derive(Debug, thiserror::Error)]
#[error("a not-run outcome has `name` `{name}`, found `{0}`", name = TurnNotRun::NAME)]
struct WrongErrorName(String);

#[cfg(feature = "serde")]
impl TryFrom<TurnNotRunWire> for TurnNotRun {
    type Error = WrongErrorName;

    fn try_from(wire: TurnNotRunWire) -> Result<Self, WrongErrorName> {
        if wire.name == Self::NAME {
            Ok(Self {
                turn_id: wire.turn_id,
                reason: wire.reason,
            })
        } else {
            Err(WrongErrorName(wire.name))
        }
    }
}

#[cfg(feature = "serde")]
impl From<TurnNotRun> for TurnNotRunWire {
    fn from(outcome: TurnNotRun) -> Self {
        Self {
            name: String::from(TurnNotRun::NAME),
            turn_id: outcome.turn_id,
            reason: outcome.reason,
        }
    }
}

/// Why a completion did not yield an outcome: the turn never ran, or it failed while running.
///
/// The two must stay apart. [`NotRun`](Self::NotRun) is a routine queue decision to report;
/// [`Failed`](Self::Failed) is a real failure inside the turn and must keep surfacing as one.
/// [`is_turn_not_run`](Self::is_turn_not_run) tells them apart.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError<E = ErrorValue> {
    /// The submission was accepted but never ran.
    #[error("{0}")]
    NotRun(#[from] TurnNotRun),
    /// The turn ran and failed.
    #[error("the turn failed: {0}")]
    Failed(#[source] E),
}

impl<E> TurnError<E> {
    /// True exactly for [`NotRun`](Self::NotRun): the error is an outcome to report, not a
    /// failure (`isTurnNotRunError`).
    #[must_use]
    pub const fn is_turn_not_run(&self) -> bool {
        matches!(self, Self::NotRun(_))
    }

    /// The not-run outcome, when that is what this is.
    #[must_use]
    pub const fn not_run(&self) -> Option<&TurnNotRun> {
        match self {
            Self::NotRun(outcome) => Some(outcome),
            Self::Failed(_) => None,
        }
    }

    /// The failure inside the turn, when that is what this is.
    #[must_use]
    pub const fn failure(&self) -> Option<&E> {
        match self {
            Self::NotRun(_) => None,
            Self::Failed(error) => Some(error),
        }
    }
}

/// The predicate of the contract (`isTurnNotRunError`) over any error value: true exactly when the
/// error is this crate's [`TurnNotRun`], or a [`TurnError`] (with the default failure type) that
/// holds one.
///
/// A look-alike never satisfies it: an [`ErrorValue`] named `TurnNotRunError`, or any other type,
/// is a failure. For a [`TurnError`] with another failure type, call
/// [`TurnError::is_turn_not_run`].
#[must_use]
pub fn is_turn_not_run(error: &(dyn core::error::Error + 'static)) -> bool {
    error.downcast_ref::<TurnNotRun>().is_some()
        || error
            .downcast_ref::<TurnError>()
            .is_some_and(TurnError::is_turn_not_run)
}

/// One tool call of a turn in brief (`IToolSummary`), for a result's summary line.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolSummary {
    /// The tool called.
    pub name: String,
    /// Its arguments, as display text.
    pub args: String,
}

impl ToolSummary {
    /// A [`ToolSummary`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(name: impl Into<String>, args: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            args: args.into(),
        }
    }
}

/// The `ui_intent` event (`IUiIntentEvent`): a command asks the surface that issued it to show a
/// screen.
///
/// It goes to the requesting surface only; other surfaces ignore it; it expects no answer and is
/// never parked.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct UiIntentEvent {
    /// The screen to show.
    pub intent: CommandUiIntent,
    /// The surface to show it on: stamped from the driver the command came from (the active
    /// turn's driver only as a fallback, for commands the model invoked).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub requester_driver_id: Option<DriverId>,
}

impl UiIntentEvent {
    /// A [`UiIntentEvent`] from the members the contract requires, in its order; the optional ones
    /// start absent.
    #[must_use]
    pub fn new(intent: CommandUiIntent) -> Self {
        Self {
            intent,
            requester_driver_id: None,
        }
    }
}

optional_setters!(UiIntentEvent {
    /// The same value with `requester_driver_id` set: the surface to show it on: stamped from the
    /// driver the command came from (the active turn's driver only as a fallback, for commands the
    /// model invoked).
    with_requester_driver_id => requester_driver_id: impl Into<String>,
});

/// The `session_renamed` event (`ISessionRenamedEvent`), sent to every surface.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SessionRenamedEvent {
    /// The session's new name.
    pub name: String,
}

impl SessionRenamedEvent {
    /// A [`SessionRenamedEvent`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(name: impl Into<String>) -> Self {
        Self { name: name.into() }
    }
}

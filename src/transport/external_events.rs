//! External events (`external-event`): the grant that admits them, the message event and its
//! delivery, the verdict, and the audit record. Shapes and their validation only; checking a
//! delivery against a grant is runtime.
//!
//! Refusals and audit records never carry the token, a claim, event content, a conversation id
//! or a peer address. The records that do hold such text ([`ExternalEventDelivery`],
//! [`ExternalMessageEvent`]) print it as `<redacted>` in `Debug`.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::agent_core::Value;

use super::admission::{AccessTokenRefusal, AccessTokenVerifierConfig};

string_enum! {
    /// The kinds of external event a grant may admit; only `'message'` exists.
    pub enum ExternalEventKind {
        /// `'message'`.
        Message = "message",
    }
}

/// A grant's operator label (`grantId`): 1 to 64 characters from `[a-zA-Z0-9_-]`, checked when
/// built. It is the attribution every admitted event carries.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct GrantId(String);

impl GrantId {
    /// The longest id, in characters.
    pub const MAX_LEN: usize = 64;

    /// `id` as a grant id; refuses an empty id, one longer than 64 characters, or one with a
    /// character outside `[a-zA-Z0-9_-]`.
    pub fn new(id: impl Into<String>) -> Result<Self, InvalidGrantId> {
        let id = id.into();
        let allowed = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
        if (1..=Self::MAX_LEN).contains(&id.len()) && id.bytes().all(allowed) {
            Ok(Self(id))
        } else {
            Err(InvalidGrantId)
        }
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GrantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for GrantId {
    type Error = InvalidGrantId;
    fn try_from(id: String) -> Result<Self, InvalidGrantId> {
        Self::new(id)
    }
}

impl From<GrantId> for String {
    fn from(id: GrantId) -> Self {
        id.0
    }
}

/// The refusal of [`GrantId::new`]. It does not keep the refused text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("a grant id must be 1 to 64 characters from [a-zA-Z0-9_-]")]
pub struct InvalidGrantId;

/// A rate window for external events (`IExternalEventRateWindow`); the host enforces it.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExternalEventRateWindow {
    /// The window's length in milliseconds.
    pub window_ms: u64,
    /// The most turns admitted within one window.
    pub max_turns: u32,
}

impl ExternalEventRateWindow {
    /// A window of `window_ms` milliseconds admitting at most `max_turns` turns.
    #[must_use]
    pub const fn new(window_ms: u64, max_turns: u32) -> Self {
        Self {
            window_ms,
            max_turns,
        }
    }
}

/// A grant admitting external events from exactly one principal (`IExternalEventGrant`),
/// validated when built: its verifier names one entry in one allow-list and none in the other,
/// and its kinds are exactly `["message"]` (the only value [`kinds`](Self::kinds) returns).
///
/// Wire form: `{grantId, verifier, kinds: ["message"], rate?}`; decoding refuses a bad id, a
/// verifier that does not pin one principal, and any other `kinds`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::GrantWire", into = "wire::GrantWire")
)]
pub struct ExternalEventGrant {
    grant_id: GrantId,
    verifier: AccessTokenVerifierConfig,
    rate: Option<Vec<ExternalEventRateWindow>>,
}

impl ExternalEventGrant {
    /// The admitted kinds, always exactly `["message"]`.
    pub const KINDS: &'static [ExternalEventKind] = &[ExternalEventKind::Message];

    /// A grant; refuses a verifier that does not name exactly one principal.
    pub fn new(
        grant_id: GrantId,
        verifier: AccessTokenVerifierConfig,
        rate: Option<Vec<ExternalEventRateWindow>>,
    ) -> Result<Self, ExternalEventGrantError> {
        if verifier.pins_one_principal() {
            Ok(Self {
                grant_id,
                verifier,
                rate,
            })
        } else {
            Err(ExternalEventGrantError::NotOnePrincipal)
        }
    }

    /// The operator's label, the attribution of every admitted event.
    #[must_use]
    pub fn grant_id(&self) -> &GrantId {
        &self.grant_id
    }

    /// The verifier, naming exactly one principal.
    #[must_use]
    pub fn verifier(&self) -> &AccessTokenVerifierConfig {
        &self.verifier
    }

    /// The admitted kinds: [`Self::KINDS`].
    #[must_use]
    pub fn kinds(&self) -> &'static [ExternalEventKind] {
        Self::KINDS
    }

    /// The rate windows; `None` means the host's defaults.
    #[must_use]
    pub fn rate(&self) -> Option<&[ExternalEventRateWindow]> {
        self.rate.as_deref()
    }
}

/// Why an [`ExternalEventGrant`] cannot be built or read (a bad id is [`InvalidGrantId`], a bad
/// verifier its own error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ExternalEventGrantError {
    /// The verifier does not name exactly one principal (one entry in one allow-list, none in
    /// the other).
    #[error(
        "an external-event grant's verifier must name exactly one principal (one entry in one \
         allow-list, none in the other)"
    )]
    NotOnePrincipal,
    /// The `kinds` read are not exactly `["message"]`.
    #[error("an external-event grant's kinds must be exactly [\"message\"]")]
    KindsNotMessageOnly,
}

/// A message from outside (`IExternalMessageEvent`): `claimed_name` is shown as claimed, never
/// trusted as identity (the grant is the identity).
///
/// Wire form: `{"kind": "message", conversationId, content, claimedName?}`; members other than
/// these are ignored. `Debug` prints the conversation id, content and claimed name as
/// `<redacted>`.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and
/// the `with_*` setters.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExternalMessageEvent {
    /// The conversation the message belongs to.
    pub conversation_id: String,
    /// The message text.
    pub content: String,
    /// The sender's name as the sender claims it.
    pub claimed_name: Option<String>,
}

impl ExternalMessageEvent {
    /// A message `content` in the conversation `conversation_id`, with no claimed name.
    #[must_use]
    pub fn new(conversation_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            conversation_id: conversation_id.into(),
            content: content.into(),
            claimed_name: None,
        }
    }

    /// Reads a message event from a delivery's `event`; refuses anything that is not an object
    /// with `kind: "message"`, string `conversationId` and `content`, and an absent or string
    /// `claimedName`. The error names the member, never its value.
    pub fn from_value(event: &Value) -> Result<Self, InvalidExternalMessageEvent> {
        let member = |name: &str, refusal| match event.get(name) {
            Some(Value::String(text)) => Ok(Some(text.clone())),
            None => Ok(None),
            Some(_) => Err(refusal),
        };
        let required = |name, refusal| member(name, refusal)?.ok_or(refusal);
        if event.get("kind").and_then(Value::as_str) != Some(ExternalEventKind::Message.as_str()) {
            return Err(InvalidExternalMessageEvent::NotAMessage);
        }
        Ok(Self {
            conversation_id: required(
                "conversationId",
                InvalidExternalMessageEvent::BadConversationId,
            )?,
            content: required("content", InvalidExternalMessageEvent::BadContent)?,
            claimed_name: member("claimedName", InvalidExternalMessageEvent::BadClaimedName)?,
        })
    }
}

optional_setters!(ExternalMessageEvent {
    /// Sets the sender's name as the sender claims it.
    with_claimed_name => claimed_name: impl Into<String>,
});

impl fmt::Debug for ExternalMessageEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalMessageEvent")
            .field("conversation_id", &"<redacted>")
            .field("content", &"<redacted>")
            .field(
                "claimed_name",
                &self.claimed_name.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

/// Why [`ExternalMessageEvent::from_value`] refused an event: the member at fault, never its
/// value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum InvalidExternalMessageEvent {
    /// Not an object, or its `kind` is not `"message"`.
    #[error("an external event must be an object with `kind: \"message\"`")]
    NotAMessage,
    /// `conversationId` is absent or not a string.
    #[error("an external message needs a string `conversationId`")]
    BadConversationId,
    /// `content` is absent or not a string.
    #[error("an external message needs a string `content`")]
    BadContent,
    /// `claimedName` is present but not a string.
    #[error("an external message's `claimedName` must be a string")]
    BadClaimedName,
}

/// An external event as it arrived (`IExternalEventDelivery`): the token as presented, if any,
/// and the event, unvalidated.
///
/// Wire form: `{token?, event}` (`event` is required). `Debug` prints neither the token nor the
/// event.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExternalEventDelivery {
    /// The token as presented; `None` when none was.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub token: Option<String>,
    /// The event; [`ExternalMessageEvent::from_value`] reads it.
    pub event: Value,
}

impl fmt::Debug for ExternalEventDelivery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalEventDelivery")
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("event", &"<redacted>")
            .finish()
    }
}

/// Why an external event was refused (`TExternalEventRefusal`): a token refusal, or one of the
/// delivery refusals. `oversize` is the token refusal [`AccessTokenRefusal::Oversize`].
///
/// Wire form: the bare literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ExternalEventRefusal {
    /// The token was refused.
    Token(AccessTokenRefusal),
    /// `'missing-token'`.
    MissingToken,
    /// `'unknown-grant'`.
    UnknownGrant,
    /// `'grant-revoked'`.
    GrantRevoked,
    /// `'source-closed'`.
    SourceClosed,
    /// `'malformed-event'`.
    MalformedEvent,
    /// `'rate-limited'`.
    RateLimited,
    /// `'queue-full'`.
    QueueFull,
    /// `'shutting-down'`.
    ShuttingDown,
    /// `'session-unavailable'`.
    SessionUnavailable,
}

impl ExternalEventRefusal {
    const OWN: &'static [(Self, &'static str)] = &[
        (Self::MissingToken, "missing-token"),
        (Self::UnknownGrant, "unknown-grant"),
        (Self::GrantRevoked, "grant-revoked"),
        (Self::SourceClosed, "source-closed"),
        (Self::MalformedEvent, "malformed-event"),
        (Self::RateLimited, "rate-limited"),
        (Self::QueueFull, "queue-full"),
        (Self::ShuttingDown, "shutting-down"),
        (Self::SessionUnavailable, "session-unavailable"),
    ];

    /// The exact wire literal.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Token(refusal) => refusal.as_str(),
            own => Self::OWN
                .iter()
                .find(|(value, _)| *value == own)
                .map_or("", |(_, literal)| literal),
        }
    }

    /// Reads an exact wire literal; `None` for any other text.
    #[must_use]
    pub fn from_literal(text: &str) -> Option<Self> {
        AccessTokenRefusal::from_literal(text)
            .map(Self::Token)
            .or_else(|| {
                Self::OWN
                    .iter()
                    .find(|(_, literal)| *literal == text)
                    .map(|(value, _)| *value)
            })
    }
}

impl From<AccessTokenRefusal> for ExternalEventRefusal {
    fn from(refusal: AccessTokenRefusal) -> Self {
        Self::Token(refusal)
    }
}

impl fmt::Display for ExternalEventRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ExternalEventRefusal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ExternalEventRefusal {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let text = String::deserialize(deserializer)?;
        Self::from_literal(&text).ok_or_else(|| D::Error::unknown_variant(&text, &[]))
    }
}

/// The verdict on an external event (`TExternalEventAdmission`): admitted as a turn, or refused.
///
/// Wire form: `{"admitted": true, "turnId": …}` or `{"admitted": false, "refusal": …}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::EventVerdictWire", into = "wire::EventVerdictWire")
)]
pub enum ExternalEventAdmission {
    /// Admitted; names the turn, nothing the turn produced.
    Admitted {
        /// The id of the admitted turn.
        turn_id: String,
    },
    /// Refused for this reason.
    Refused(ExternalEventRefusal),
}

string_enum! {
    /// How an admitted external event's turn settled (`TExternalEventSettlementOutcome`).
    pub enum ExternalEventSettlementOutcome {
        /// `'completed'`.
        Completed = "completed",
        /// `'interrupted'`.
        Interrupted = "interrupted",
        /// `'not-run'`.
        NotRun = "not-run",
        /// `'failed'`.
        Failed = "failed",
    }
}

string_enum! {
    /// Where a delivery came from, as a class, never an address (`TExternalEventRemoteClass`).
    pub enum ExternalEventRemoteClass {
        /// `'loopback'`.
        Loopback = "loopback",
        /// `'private'`.
        Private = "private",
        /// `'public'`.
        Public = "public",
        /// `'unknown'`.
        Unknown = "unknown",
    }
}

/// What an audit record reports: a refusal or a settlement, never both, never neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ExternalEventAuditOutcome {
    /// A delivery was refused (`refusal`).
    Refused(ExternalEventRefusal),
    /// An admitted event's turn settled (`settlement`).
    Settled(ExternalEventSettlementOutcome),
}

/// One audit record per refusal and per settlement (`TExternalEventAuditRecord`). It holds no
/// content and nothing identifying a person: no token, claim, conversation id or peer address.
///
/// Wire form: `{at, grantId?, remote?, throttled?}` plus exactly one of `refusal` and
/// `settlement`; decoding refuses both, neither, and any other member.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::AuditWire", into = "wire::AuditWire")
)]
#[non_exhaustive]
pub struct ExternalEventAuditRecord {
    /// When it happened (ISO-8601, carried as written).
    pub at: String,
    /// The grant, absent when refused before a grant was identified.
    pub grant_id: Option<GrantId>,
    /// The class of the remote peer.
    pub remote: Option<ExternalEventRemoteClass>,
    /// Whether the delivery was throttled.
    pub throttled: Option<bool>,
    /// The refusal or the settlement.
    pub outcome: ExternalEventAuditOutcome,
}

impl ExternalEventAuditRecord {
    /// The record of `outcome` at `at` (ISO-8601, carried as written), with no grant, remote
    /// class or throttling reported.
    #[must_use]
    pub fn new(at: impl Into<String>, outcome: ExternalEventAuditOutcome) -> Self {
        Self {
            at: at.into(),
            grant_id: None,
            remote: None,
            throttled: None,
            outcome,
        }
    }
}

optional_setters!(ExternalEventAuditRecord {
    with_grant_id => grant_id: GrantId,
    with_remote => remote: ExternalEventRemoteClass,
    with_throttled => throttled: bool,
});

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::{
        AccessTokenVerifierConfig, ExternalEventAdmission, ExternalEventAuditOutcome,
        ExternalEventAuditRecord, ExternalEventGrant, ExternalEventGrantError, ExternalEventKind,
        ExternalEventRateWindow, ExternalEventRefusal, ExternalEventRemoteClass,
        ExternalEventSettlementOutcome, GrantId,
    };

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct GrantWire {
        grant_id: GrantId,
        verifier: AccessTokenVerifierConfig,
        kinds: Vec<ExternalEventKind>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rate: Option<Vec<ExternalEventRateWindow>>,
    }

    impl From<ExternalEventGrant> for GrantWire {
        fn from(grant: ExternalEventGrant) -> Self {
            Self {
                grant_id: grant.grant_id,
                verifier: grant.verifier,
                kinds: Vec::from(ExternalEventGrant::KINDS),
                rate: grant.rate,
            }
        }
    }

    impl TryFrom<GrantWire> for ExternalEventGrant {
        type Error = ExternalEventGrantError;
        fn try_from(wire: GrantWire) -> Result<Self, ExternalEventGrantError> {
            if wire.kinds != Self::KINDS {
                return Err(ExternalEventGrantError::KindsNotMessageOnly);
            }
            Self::new(wire.grant_id, wire.verifier, wire.rate)
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct EventVerdictWire {
        admitted: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refusal: Option<ExternalEventRefusal>,
    }

    impl From<ExternalEventAdmission> for EventVerdictWire {
        fn from(verdict: ExternalEventAdmission) -> Self {
            match verdict {
                ExternalEventAdmission::Admitted { turn_id } => Self {
                    admitted: true,
                    turn_id: Some(turn_id),
                    refusal: None,
                },
                ExternalEventAdmission::Refused(refusal) => Self {
                    admitted: false,
                    turn_id: None,
                    refusal: Some(refusal),
                },
            }
        }
    }

    impl TryFrom<EventVerdictWire> for ExternalEventAdmission {
        type Error = &'static str;
        fn try_from(wire: EventVerdictWire) -> Result<Self, &'static str> {
            match (wire.admitted, wire.turn_id, wire.refusal) {
                (true, Some(turn_id), None) => Ok(Self::Admitted { turn_id }),
                (false, None, Some(refusal)) => Ok(Self::Refused(refusal)),
                _ => Err("an admission has a `turnId` only, a refusal a `refusal` only"),
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct AuditWire {
        at: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        grant_id: Option<GrantId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        remote: Option<ExternalEventRemoteClass>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        throttled: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refusal: Option<ExternalEventRefusal>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        settlement: Option<ExternalEventSettlementOutcome>,
    }

    impl From<ExternalEventAuditRecord> for AuditWire {
        fn from(record: ExternalEventAuditRecord) -> Self {
            let (refusal, settlement) = match record.outcome {
                ExternalEventAuditOutcome::Refused(refusal) => (Some(refusal), None),
                ExternalEventAuditOutcome::Settled(settlement) => (None, Some(settlement)),
            };
            Self {
                at: record.at,
                grant_id: record.grant_id,
                remote: record.remote,
                throttled: record.throttled,
                refusal,
                settlement,
            }
        }
    }

    impl TryFrom<AuditWire> for ExternalEventAuditRecord {
        type Error = &'static str;
        fn try_from(wire: AuditWire) -> Result<Self, &'static str> {
            let outcome = match (wire.refusal, wire.settlement) {
                (Some(refusal), None) => ExternalEventAuditOutcome::Refused(refusal),
                (None, Some(settlement)) => ExternalEventAuditOutcome::Settled(settlement),
                _ => return Err("an audit record has exactly one of `refusal` and `settlement`"),
            };
            Ok(Self {
                at: wire.at,
                grant_id: wire.grant_id,
                remote: wire.remote,
                throttled: wire.throttled,
                outcome,
            })
        }
    }
}

#[cfg(feature = "serde")]
mod message_wire {
    use alloc::string::String;

    use serde::de::Error;

    use super::{ExternalEventKind, ExternalMessageEvent};
    use crate::agent_core::Value;

    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct MessageWire<'a> {
        kind: ExternalEventKind,
        conversation_id: &'a str,
        content: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        claimed_name: Option<&'a String>,
    }

    impl serde::Serialize for ExternalMessageEvent {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            MessageWire {
                kind: ExternalEventKind::Message,
                conversation_id: &self.conversation_id,
                content: &self.content,
                claimed_name: self.claimed_name.as_ref(),
            }
            .serialize(serializer)
        }
    }

    impl<'de> serde::Deserialize<'de> for ExternalMessageEvent {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let event = Value::deserialize(deserializer)?;
            Self::from_value(&event).map_err(D::Error::custom)
        }
    }
}

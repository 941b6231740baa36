//! Admission (`admission`), access-token verdicts (`access-token`) and external-event grants
//! (`external-event`). Declarations only: resolving, minting and verifying are the host's.
//!
//! No verdict or refusal here holds token text or a claim value; the records that do hold a
//! credential ([`TransportAdmission`], [`TransportAdmissionConfig`]) print it as `<redacted>`.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

string_enum! {
    /// A signature algorithm a verifier may accept (`TAccessTokenAlgorithm`); `none` and HMAC
    /// are deliberately absent.
    pub enum AccessTokenAlgorithm {
        /// `'RS256'`.
        Rs256 = "RS256",
        /// `'ES256'`.
        Es256 = "ES256",
        /// `'EdDSA'`.
        EdDsa = "EdDSA",
    }
}

string_enum! {
    /// Why an access token was refused (`TAccessTokenRefusal`, 15 reasons).
    pub enum AccessTokenRefusal {
        /// Longer than the verifier's fixed bound; nothing was parsed.
        Oversize = "oversize",
        /// Not a compact JWS with a JSON claim set, a required claim missing, or replayed.
        Malformed = "malformed",
        /// Header `typ` is not `at+jwt`.
        WrongType = "wrong-type",
        /// The algorithm is not one the verifier accepts.
        UnsupportedAlgorithm = "unsupported-algorithm",
        /// No `kid` and more than one key.
        AmbiguousKey = "ambiguous-key",
        /// No key with that `kid`, even after a refetch.
        UnknownKey = "unknown-key",
        /// The key's type, curve, algorithm or use disagree.
        KeyMismatch = "key-mismatch",
        /// The signature does not verify.
        BadSignature = "bad-signature",
        /// `iss` is not exactly the configured issuer.
        WrongIssuer = "wrong-issuer",
        /// `aud` does not name this resource.
        WrongAudience = "wrong-audience",
        /// Past `exp`, after the allowed skew.
        Expired = "expired",
        /// Before `nbf`, after the allowed skew.
        NotYetValid = "not-yet-valid",
        /// A required scope is missing.
        MissingScope = "missing-scope",
        /// Neither `sub` nor `client_id` is allow-listed.
        PrincipalNotAllowed = "principal-not-allowed",
        /// No fresh enough key set could be obtained (fail closed).
        KeysUnavailable = "keys-unavailable",
    }
}

/// The verdict on an access token (`TAccessTokenAdmission`): admitted, or refused for one
/// reason. There is no third state, and it never holds token text or a claim value.
///
/// Wire form: `{"admitted": true}` or `{"admitted": false, "refusal": …}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::VerdictWire", into = "wire::VerdictWire")
)]
pub enum AccessTokenAdmission {
    /// `admitted: true`.
    Admitted,
    /// `admitted: false` with the reason.
    Refused(AccessTokenRefusal),
}

impl fmt::Display for AccessTokenAdmission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Admitted => f.write_str("admitted"),
            Self::Refused(refusal) => write!(f, "refused: {refusal}"),
        }
    }
}

/// How an access-token verifier is configured (`IAccessTokenVerifierConfig`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct AccessTokenVerifierConfig {
    /// The issuer URL `iss` must equal exactly.
    pub issuer: String,
    /// This resource server's public URL, which `aud` must name.
    pub resource: String,
    /// The accepted algorithms (at least one).
    pub algorithms: Vec<AccessTokenAlgorithm>,
    /// The scopes a token must carry.
    pub required_scopes: Vec<String>,
    /// The allow-listed subjects (`sub`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub allowed_subjects: Option<Vec<String>>,
    /// The allow-listed clients (`client_id`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub allowed_clients: Option<Vec<String>>,
}

impl AccessTokenVerifierConfig {
    fn principal_counts(&self) -> (usize, usize) {
        (
            self.allowed_subjects.as_ref().map_or(0, Vec::len),
            self.allowed_clients.as_ref().map_or(0, Vec::len),
        )
    }

    /// True when a verifier may be built from it: at least one algorithm and at least one
    /// allow-listed subject or client (single-tenant by design).
    #[must_use]
    pub fn is_single_tenant(&self) -> bool {
        let (subjects, clients) = self.principal_counts();
        !self.algorithms.is_empty() && subjects + clients > 0
    }

    /// True when it names exactly one principal: one entry in one allow-list, none in the other
    /// (what an external-event grant requires).
    #[must_use]
    pub fn pins_one_principal(&self) -> bool {
        !self.algorithms.is_empty() && matches!(self.principal_counts(), (1, 0) | (0, 1))
    }
}

/// Verifies access tokens whose signatures the host checks (`IAccessTokenVerifier`).
#[allow(async_fn_in_trait)]
pub trait AccessTokenVerifier {
    /// The verdict on `token`; never fails otherwise.
    async fn verify(&self, token: &str) -> AccessTokenAdmission;
}

/// A resolved admission (`ITransportAdmission`): a credential, or explicitly open with a reason.
///
/// Wire form: `{"token": "…"}` or `{"token": null, "openReason": "…"}`. `Debug` prints the
/// token as `<redacted>`.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::AdmissionWire", into = "wire::AdmissionWire")
)]
pub enum TransportAdmission {
    /// Peers must present this credential.
    Token(String),
    /// Explicitly open (`token: null`), never "unset".
    Open {
        /// The written reason for running open (non-blank).
        reason: String,
    },
}

impl fmt::Debug for TransportAdmission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Token(_) => f.write_str("Token(<redacted>)"),
            Self::Open { reason } => f.debug_struct("Open").field("reason", reason).finish(),
        }
    }
}

/// What a host asks for (`ITransportAdmissionConfig`). `Debug` prints the token as
/// `<redacted>`.
#[derive(Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TransportAdmissionConfig {
    /// A host-chosen credential; empty means "mint one".
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub token: Option<String>,
    /// Run with no credential (requires `open_reason`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub open: Option<bool>,
    /// Why running open is acceptable.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub open_reason: Option<String>,
}

impl fmt::Debug for TransportAdmissionConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TransportAdmissionConfig")
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("open", &self.open)
            .field("open_reason", &self.open_reason)
            .finish()
    }
}

string_enum! {
    /// The kinds of external event a grant may admit; only `'message'` exists.
    pub enum ExternalEventKind {
        /// `'message'`.
        Message = "message",
    }
}

/// A rate window for external events (`IExternalEventRateWindow`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ExternalEventRateWindow {
    /// The window's length in milliseconds.
    pub window_ms: u64,
    /// The most turns admitted within one window.
    pub max_turns: u32,
}

/// A grant admitting external events from exactly one principal (`IExternalEventGrant`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ExternalEventGrant {
    /// The operator's label (`[a-zA-Z0-9_-]{1,64}`), the attribution of every admitted event.
    pub grant_id: String,
    /// The verifier, naming exactly one principal.
    pub verifier: AccessTokenVerifierConfig,
    /// The admitted kinds: exactly `["message"]`.
    pub kinds: Vec<ExternalEventKind>,
    /// Rate windows (host defaults when absent).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub rate: Option<Vec<ExternalEventRateWindow>>,
}

impl ExternalEventGrant {
    /// True when the grant id matches `[a-zA-Z0-9_-]{1,64}`.
    #[must_use]
    pub fn has_valid_id(&self) -> bool {
        (1..=64).contains(&self.grant_id.len())
            && self
                .grant_id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    }

    /// True when the grant is usable: a valid id, exactly one principal, kinds `["message"]`.
    #[must_use]
    pub fn is_well_formed(&self) -> bool {
        self.has_valid_id()
            && self.verifier.pins_one_principal()
            && self.kinds == [ExternalEventKind::Message]
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

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{
        AccessTokenAdmission, AccessTokenRefusal, ExternalEventAdmission, ExternalEventRefusal,
        TransportAdmission,
    };

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct VerdictWire {
        admitted: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refusal: Option<AccessTokenRefusal>,
    }

    impl From<AccessTokenAdmission> for VerdictWire {
        fn from(verdict: AccessTokenAdmission) -> Self {
            match verdict {
                AccessTokenAdmission::Admitted => Self {
                    admitted: true,
                    refusal: None,
                },
                AccessTokenAdmission::Refused(refusal) => Self {
                    admitted: false,
                    refusal: Some(refusal),
                },
            }
        }
    }

    impl TryFrom<VerdictWire> for AccessTokenAdmission {
        type Error = &'static str;
        fn try_from(wire: VerdictWire) -> Result<Self, &'static str> {
            match (wire.admitted, wire.refusal) {
                (true, None) => Ok(Self::Admitted),
                (false, Some(refusal)) => Ok(Self::Refused(refusal)),
                (true, Some(_)) => Err("an admitted verdict has no `refusal`"),
                (false, None) => Err("a refused verdict needs a `refusal`"),
            }
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
    #[serde(rename_all = "camelCase")]
    pub struct AdmissionWire {
        token: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        open_reason: Option<String>,
    }

    impl From<TransportAdmission> for AdmissionWire {
        fn from(admission: TransportAdmission) -> Self {
            match admission {
                TransportAdmission::Token(token) => Self {
                    token: Some(token),
                    open_reason: None,
                },
                TransportAdmission::Open { reason } => Self {
                    token: None,
                    open_reason: Some(reason),
                },
            }
        }
    }

    impl TryFrom<AdmissionWire> for TransportAdmission {
        type Error = &'static str;
        fn try_from(wire: AdmissionWire) -> Result<Self, &'static str> {
            match (wire.token, wire.open_reason) {
                (Some(token), None) if !token.is_empty() => Ok(Self::Token(token)),
                (None, Some(reason)) if !reason.trim().is_empty() => Ok(Self::Open { reason }),
                _ => Err(
                    "an admission is a non-empty `token`, or `token: null` with a non-blank `openReason`",
                ),
            }
        }
    }
}

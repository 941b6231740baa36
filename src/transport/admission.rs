//! Admission (`admission`) and access-token verdicts (`access-token`): the shapes, and the
//! validation of those shapes. Resolving, minting, comparing and verifying are runtime.
//!
//! No verdict or refusal here holds token text or a claim value. What does hold a credential
//! ([`TransportToken`], so [`TransportAdmission`]; [`TransportAdmissionConfig`]) prints it as
//! `<redacted>`, and [`AccessTokenVerifierConfig`] prints its allow-lists as counts.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// A transport credential: text with at least one non-whitespace character, kept exactly as
/// given (never trimmed).
///
/// `Debug` prints `<redacted>` and there is no `Display`: the text comes out only through
/// [`expose`](Self::expose). Its `==` is an ordinary comparison; check a presented credential
/// with the runtime's constant-time `credential_matches` instead.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct TransportToken(String);

impl TransportToken {
    /// `text` as a credential; refuses text that is empty or only whitespace (`str::trim`).
    pub fn new(text: impl Into<String>) -> Result<Self, BlankTransportToken> {
        let text = text.into();
        if text.trim().is_empty() {
            Err(BlankTransportToken)
        } else {
            Ok(Self(text))
        }
    }

    /// How many random bytes a minted token is written from.
    pub const MINTED_BYTES: usize = 32;

    /// The token minted from `bytes` of host entropy: 64 lower-case hex characters (never
    /// blank, so this cannot fail). The runtime fills `bytes` from a cryptographic RNG.
    #[must_use]
    pub fn from_random_bytes(bytes: &[u8; Self::MINTED_BYTES]) -> Self {
        Self(format!("{:x}", base16ct::HexDisplay(bytes)))
    }

    /// The credential's text, for handing to the peers that must present it.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for TransportToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TransportToken(<redacted>)")
    }
}

impl TryFrom<String> for TransportToken {
    type Error = BlankTransportToken;
    fn try_from(text: String) -> Result<Self, BlankTransportToken> {
        Self::new(text)
    }
}

impl From<TransportToken> for String {
    fn from(token: TransportToken) -> Self {
        token.0
    }
}

/// The refusal of [`TransportToken::new`]: the text is empty or only whitespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("a transport token must contain a non-whitespace character")]
pub struct BlankTransportToken;

/// The written reason for running open: trimmed text, never empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct OpenReason(String);

impl OpenReason {
    /// `text` trimmed; refuses text that is empty after trimming (`str::trim`).
    pub fn new(text: &str) -> Result<Self, BlankOpenReason> {
        match text.trim() {
            "" => Err(BlankOpenReason),
            reason => Ok(Self(String::from(reason))),
        }
    }

    /// The reason as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for OpenReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for OpenReason {
    type Error = BlankOpenReason;
    fn try_from(text: String) -> Result<Self, BlankOpenReason> {
        Self::new(&text)
    }
}

impl From<OpenReason> for String {
    fn from(reason: OpenReason) -> Self {
        reason.0
    }
}

/// The refusal of [`OpenReason::new`]: no reason was written (empty or only whitespace).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("an open reason must be non-blank text")]
pub struct BlankOpenReason;

/// A resolved admission (`ITransportAdmission`): a credential, or explicitly open with a
/// written reason. Both halves are validated types, so a resolved admission is always usable.
///
/// Wire form: `{"token": "…"}` or `{"token": null, "openReason": "…"}`. `token` must be
/// present (`null` means "explicitly opened", never "unset"); an `openReason` is trimmed when
/// read. `Debug` prints the token as `<redacted>`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::AdmissionWire", into = "wire::AdmissionWire")
)]
pub enum TransportAdmission {
    /// Peers must present this credential.
    Token(TransportToken),
    /// Explicitly open (`token: null`).
    Open {
        /// Why running open is acceptable.
        reason: OpenReason,
    },
}

/// What a host asks for (`ITransportAdmissionConfig`), unvalidated: the runtime's resolution
/// checks it. `Debug` prints the token as `<redacted>`.
#[derive(Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TransportAdmissionConfig {
    /// A host-chosen credential; empty means "mint one". On the wire it is absent or a
    /// string: `null` (an already-resolved open admission) is refused, never read as "mint".
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            deserialize_with = "wire::some_string",
            skip_serializing_if = "Option::is_none"
        )
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

/// An already-resolved admission as the config that resolves to it again: a token as `token`,
/// an open admission as `open: true` with its reason (so resolution is idempotent).
impl From<TransportAdmission> for TransportAdmissionConfig {
    fn from(admission: TransportAdmission) -> Self {
        match admission {
            TransportAdmission::Token(token) => Self {
                token: Some(token.into()),
                ..Self::default()
            },
            TransportAdmission::Open { reason } => Self {
                token: None,
                open: Some(true),
                open_reason: Some(reason.into()),
            },
        }
    }
}

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
        /// Not a compact JWS with a JSON claim set, a required claim missing, or (for external
        /// events) replayed or without `jti`.
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

/// How an access-token verifier is configured (`IAccessTokenVerifierConfig`), validated when
/// built: an `https://` issuer, at least one algorithm, and at least one allow-listed subject or
/// client (single-tenant by design), none of them blank.
///
/// Wire form: `{issuer, resource, algorithms, requiredScopes, allowedSubjects?,
/// allowedClients?}`; an empty allow-list is written as absent. `Debug` prints the allow-lists
/// as counts (they name people and clients).
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "wire::VerifierConfigWire",
        into = "wire::VerifierConfigWire"
    )
)]
pub struct AccessTokenVerifierConfig {
    issuer: String,
    resource: String,
    algorithms: Vec<AccessTokenAlgorithm>,
    required_scopes: Vec<String>,
    allowed_subjects: Vec<String>,
    allowed_clients: Vec<String>,
}

impl AccessTokenVerifierConfig {
    /// A verifier configuration; refuses an issuer that is not an `https://` URL, an empty
    /// algorithm list, allow-lists without any entry, and a blank allow-list entry.
    pub fn new(
        issuer: impl Into<String>,
        resource: impl Into<String>,
        algorithms: Vec<AccessTokenAlgorithm>,
        required_scopes: Vec<String>,
        allowed_subjects: Vec<String>,
        allowed_clients: Vec<String>,
    ) -> Result<Self, AccessTokenVerifierConfigError> {
        let issuer = issuer.into();
        let principals = || allowed_subjects.iter().chain(&allowed_clients);
        if issuer.strip_prefix("https://").is_none_or(str::is_empty) {
            Err(AccessTokenVerifierConfigError::IssuerNotHttps)
        } else if algorithms.is_empty() {
            Err(AccessTokenVerifierConfigError::NoAlgorithm)
        } else if principals().next().is_none() {
            Err(AccessTokenVerifierConfigError::NoAllowedPrincipal)
        } else if principals().any(|entry| entry.trim().is_empty()) {
            Err(AccessTokenVerifierConfigError::BlankPrincipal)
        } else {
            Ok(Self {
                issuer,
                resource: resource.into(),
                algorithms,
                required_scopes,
                allowed_subjects,
                allowed_clients,
            })
        }
    }

    /// The issuer URL `iss` must equal exactly.
    #[must_use]
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// This resource server's public URL, which `aud` must name.
    #[must_use]
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The accepted algorithms (never empty).
    #[must_use]
    pub fn algorithms(&self) -> &[AccessTokenAlgorithm] {
        &self.algorithms
    }

    /// The scopes a token must carry.
    #[must_use]
    pub fn required_scopes(&self) -> &[String] {
        &self.required_scopes
    }

    /// The allow-listed subjects (`sub`).
    #[must_use]
    pub fn allowed_subjects(&self) -> &[String] {
        &self.allowed_subjects
    }

    /// The allow-listed clients (`client_id`).
    #[must_use]
    pub fn allowed_clients(&self) -> &[String] {
        &self.allowed_clients
    }

    /// True when it names exactly one principal: one entry in one allow-list, none in the other
    /// (what an external-event grant requires).
    #[must_use]
    pub fn pins_one_principal(&self) -> bool {
        matches!(
            (self.allowed_subjects.len(), self.allowed_clients.len()),
            (1, 0) | (0, 1)
        )
    }
}

impl fmt::Debug for AccessTokenVerifierConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccessTokenVerifierConfig")
            .field("issuer", &self.issuer)
            .field("resource", &self.resource)
            .field("algorithms", &self.algorithms)
            .field("required_scopes", &self.required_scopes)
            .field("allowed_subjects", &self.allowed_subjects.len())
            .field("allowed_clients", &self.allowed_clients.len())
            .finish()
    }
}

/// Why an [`AccessTokenVerifierConfig`] cannot be built. It names the rule, never an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AccessTokenVerifierConfigError {
    /// The issuer is not an `https://` URL.
    #[error("an access-token issuer must be an https:// URL")]
    IssuerNotHttps,
    /// No algorithm is accepted.
    #[error("an access-token verifier must accept at least one algorithm")]
    NoAlgorithm,
    /// Neither allow-list has an entry (the verifier would be multi-tenant).
    #[error(
        "an access-token verifier must allow-list at least one subject or client \
         (single-tenant by design)"
    )]
    NoAllowedPrincipal,
    /// An allow-list entry is empty or only whitespace.
    #[error("an allow-listed subject or client must not be blank")]
    BlankPrincipal,
}

/// Verifies access tokens whose signatures the host checks (`IAccessTokenVerifier`).
///
/// The time is passed in, as everywhere in the crate: `now_ms` is milliseconds since the epoch,
/// read by the host (the reference reads its own clock; a sans-IO verifier cannot).
#[allow(async_fn_in_trait)]
pub trait AccessTokenVerifier {
    /// The verdict on `token` at `now_ms`; never fails otherwise.
    async fn verify(&self, token: &str, now_ms: u64) -> AccessTokenAdmission;
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::{
        AccessTokenAdmission, AccessTokenAlgorithm, AccessTokenRefusal, AccessTokenVerifierConfig,
        AccessTokenVerifierConfigError, OpenReason, TransportAdmission, TransportToken,
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

    /// Reads a member that, when present, must be a string (not `null`).
    pub fn some_string<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<String>, D::Error> {
        <String as serde::Deserialize>::deserialize(deserializer).map(Some)
    }

    /// Reads an `Option` that must be present (`null` allowed): serde treats a field with
    /// `deserialize_with` and no `default` as required.
    fn present<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<TransportToken>, D::Error> {
        serde::Deserialize::deserialize(deserializer)
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct AdmissionWire {
        #[serde(deserialize_with = "present")]
        token: Option<TransportToken>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        open_reason: Option<OpenReason>,
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
                (Some(token), None) => Ok(Self::Token(token)),
                (None, Some(reason)) => Ok(Self::Open { reason }),
                (Some(_), Some(_)) => Err("a token admission has no `openReason`"),
                (None, None) => Err("an open admission (`token: null`) needs an `openReason`"),
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct VerifierConfigWire {
        issuer: String,
        resource: String,
        algorithms: Vec<AccessTokenAlgorithm>,
        required_scopes: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        allowed_subjects: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        allowed_clients: Vec<String>,
    }

    impl From<AccessTokenVerifierConfig> for VerifierConfigWire {
        fn from(config: AccessTokenVerifierConfig) -> Self {
            Self {
                issuer: config.issuer,
                resource: config.resource,
                algorithms: config.algorithms,
                required_scopes: config.required_scopes,
                allowed_subjects: config.allowed_subjects,
                allowed_clients: config.allowed_clients,
            }
        }
    }

    impl TryFrom<VerifierConfigWire> for AccessTokenVerifierConfig {
        type Error = AccessTokenVerifierConfigError;
        fn try_from(wire: VerifierConfigWire) -> Result<Self, Self::Error> {
            Self::new(
                wire.issuer,
                wire.resource,
                wire.algorithms,
                wire.required_scopes,
                wire.allowed_subjects,
                wire.allowed_clients,
            )
        }
    }
}

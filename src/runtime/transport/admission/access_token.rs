//! Access-token verdicts over claims the host has verified cryptographically: the claim rules
//! (issuer, audience, expiry, scopes, allow-listed principal), the host's signature and clock
//! ports, and a verifier implementing the contract's [`AccessTokenVerifier`] port.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::transport::admission::{
    AccessTokenAdmission, AccessTokenAlgorithm, AccessTokenRefusal, AccessTokenVerifier,
    AccessTokenVerifierConfig,
};

/// The most bytes of token text a verifier reads: a longer token is refused `oversize` before
/// anything is parsed or handed to the host.
pub const MAX_ACCESS_TOKEN_BYTES: usize = 8 * 1024;

string_enum! {
    /// What the host's signature check may refuse (the form, header, key and signature
    /// members of the contract's 15 refusals); each maps to the same
    /// [`AccessTokenRefusal`].
    pub enum AccessTokenSignatureRefusal {
        /// Not a compact JWS with a JSON claim set, or a required claim missing.
        Malformed = "malformed",
        /// Header `typ` is not `at+jwt`.
        WrongType = "wrong-type",
        /// The header's algorithm is not one of those passed in.
        UnsupportedAlgorithm = "unsupported-algorithm",
        /// No `kid` and more than one key.
        AmbiguousKey = "ambiguous-key",
        /// No key with that `kid`, even after a refetch.
        UnknownKey = "unknown-key",
        /// The key's type, curve, algorithm or use disagree.
        KeyMismatch = "key-mismatch",
        /// The signature does not verify.
        BadSignature = "bad-signature",
        /// No key set younger than the age limit could be obtained (fail closed).
        KeysUnavailable = "keys-unavailable",
    }
}

impl From<AccessTokenSignatureRefusal> for AccessTokenRefusal {
    fn from(refusal: AccessTokenSignatureRefusal) -> Self {
        match refusal {
            AccessTokenSignatureRefusal::Malformed => Self::Malformed,
            AccessTokenSignatureRefusal::WrongType => Self::WrongType,
            AccessTokenSignatureRefusal::UnsupportedAlgorithm => Self::UnsupportedAlgorithm,
            AccessTokenSignatureRefusal::AmbiguousKey => Self::AmbiguousKey,
            AccessTokenSignatureRefusal::UnknownKey => Self::UnknownKey,
            AccessTokenSignatureRefusal::KeyMismatch => Self::KeyMismatch,
            AccessTokenSignatureRefusal::BadSignature => Self::BadSignature,
            AccessTokenSignatureRefusal::KeysUnavailable => Self::KeysUnavailable,
        }
    }
}

/// An `aud` claim: one audience or a list. `Debug` prints `<redacted>`.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum AccessTokenAudience {
    /// `"aud": "…"`.
    One(String),
    /// `"aud": ["…", …]`.
    Many(Vec<String>),
}

impl AccessTokenAudience {
    /// True when it names `resource` exactly.
    #[must_use]
    pub fn names(&self, resource: &str) -> bool {
        match self {
            Self::One(audience) => audience == resource,
            Self::Many(audiences) => audiences.iter().any(|audience| audience == resource),
        }
    }
}

impl fmt::Debug for AccessTokenAudience {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessTokenAudience(<redacted>)")
    }
}

/// The claims of an access token whose signature the host has verified: what the verdict is
/// decided on. `iss`, `aud` and `exp` are required (a claim set without them is `malformed` on
/// the host's side); times are NumericDate seconds. With `serde`, it reads a JWT claim set
/// (unknown claims ignored).
///
/// `Debug` prints `<redacted>`: a claim value never reaches a log through this crate.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct AccessTokenClaims {
    /// The issuer.
    pub iss: String,
    /// The audience(s).
    pub aud: AccessTokenAudience,
    /// Expiry, seconds since the epoch.
    pub exp: u64,
    /// Not before, seconds since the epoch.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub nbf: Option<u64>,
    /// The subject (a user).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub sub: Option<String>,
    /// The client.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub client_id: Option<String>,
    /// Granted scopes, space-separated.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub scope: Option<String>,
    /// The token's unique id (required for external events).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub jti: Option<String>,
}

impl AccessTokenClaims {
    /// The claims of a token issued by `iss` for `aud`, expiring at `exp` (seconds since the
    /// epoch), with no optional claim.
    #[must_use]
    pub fn new(iss: impl Into<String>, aud: AccessTokenAudience, exp: u64) -> Self {
        Self {
            iss: iss.into(),
            aud,
            exp,
            nbf: None,
            sub: None,
            client_id: None,
            scope: None,
            jti: None,
        }
    }
}

optional_setters!(AccessTokenClaims {
    with_nbf => nbf: u64,
    with_sub => sub: impl Into<String>,
    with_client_id => client_id: impl Into<String>,
    with_scope => scope: impl Into<String>,
    with_jti => jti: impl Into<String>,
});

impl fmt::Debug for AccessTokenClaims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessTokenClaims(<redacted>)")
    }
}

/// The host's signature check (a port): it parses the compact JWS, checks `typ: at+jwt` and
/// that the algorithm is one of `algorithms`, selects and checks the key, verifies the
/// signature, and returns the claims, or the one refusal that applies. The crate does no
/// cryptography and holds no keys. A shared reference is one too, so several verifiers and
/// gates can share one key set.
#[allow(async_fn_in_trait)]
pub trait AccessTokenSignatures {
    /// The verified claims of `token`, or why its form, key or signature was refused.
    async fn verified_claims(
        &self,
        token: &str,
        algorithms: &[AccessTokenAlgorithm],
    ) -> Result<AccessTokenClaims, AccessTokenSignatureRefusal>;
}

impl<S: AccessTokenSignatures + ?Sized> AccessTokenSignatures for &S {
    async fn verified_claims(
        &self,
        token: &str,
        algorithms: &[AccessTokenAlgorithm],
    ) -> Result<AccessTokenClaims, AccessTokenSignatureRefusal> {
        (**self).verified_claims(token, algorithms).await
    }
}

/// The claim rules of one verifier: a validated (single-tenant) configuration plus the clock
/// skew allowed on `exp` and `nbf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessTokenRules {
    config: AccessTokenVerifierConfig,
    skew_ms: u64,
}

impl AccessTokenRules {
    /// Rules over `config`, allowing `skew_ms` of clock skew either way.
    #[must_use]
    pub fn new(config: AccessTokenVerifierConfig, skew_ms: u64) -> Self {
        Self { config, skew_ms }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &AccessTokenVerifierConfig {
        &self.config
    }

    /// The allowed clock skew, in milliseconds.
    #[must_use]
    pub fn skew_ms(&self) -> u64 {
        self.skew_ms
    }

    /// True when a token expiring at `exp` (seconds) is expired at `now_ms`: `now` is at or
    /// past `exp` plus the skew.
    #[must_use]
    pub fn is_expired(&self, exp: u64, now_ms: u64) -> bool {
        now_ms >= exp.saturating_mul(1000).saturating_add(self.skew_ms)
    }

    /// Checks verified claims at `now_ms`, in this order: `iss` equals the issuer exactly,
    /// `aud` names the resource, not expired, not before `nbf` (both with the skew), every
    /// required scope in the space-separated `scope`, and `sub` or `client_id` allow-listed.
    pub fn check(&self, claims: &AccessTokenClaims, now_ms: u64) -> Result<(), AccessTokenRefusal> {
        let config = &self.config;
        let granted = || claims.scope.iter().flat_map(|scope| scope.split(' '));
        let listed = |claim: &Option<String>, list: &[String]| {
            claim.as_ref().is_some_and(|value| list.contains(value))
        };
        let refusal = if claims.iss != config.issuer() {
            AccessTokenRefusal::WrongIssuer
        } else if !claims.aud.names(config.resource()) {
            AccessTokenRefusal::WrongAudience
        } else if self.is_expired(claims.exp, now_ms) {
            AccessTokenRefusal::Expired
        } else if claims
            .nbf
            .is_some_and(|nbf| nbf.saturating_mul(1000) > now_ms.saturating_add(self.skew_ms))
        {
            AccessTokenRefusal::NotYetValid
        } else if !config
            .required_scopes()
            .iter()
            .all(|required| granted().any(|scope| scope == required))
        {
            AccessTokenRefusal::MissingScope
        } else if !listed(&claims.sub, config.allowed_subjects())
            && !listed(&claims.client_id, config.allowed_clients())
        {
            AccessTokenRefusal::PrincipalNotAllowed
        } else {
            return Ok(());
        };
        Err(refusal)
    }

    /// The whole check of `token` at `now_ms` (milliseconds since the epoch, passed in by the
    /// host): `oversize` beyond [`MAX_ACCESS_TOKEN_BYTES`] before anything is parsed, then the
    /// host's signature check, then [`check`](Self::check). Returns the verified claims when
    /// admitted.
    pub async fn verify<S>(
        &self,
        signatures: &S,
        token: &str,
        now_ms: u64,
    ) -> Result<AccessTokenClaims, AccessTokenRefusal>
    where
        S: AccessTokenSignatures + ?Sized,
    {
        if token.len() > MAX_ACCESS_TOKEN_BYTES {
            return Err(AccessTokenRefusal::Oversize);
        }
        let claims = signatures
            .verified_claims(token, self.config.algorithms())
            .await?;
        self.check(&claims, now_ms)?;
        Ok(claims)
    }
}

/// An [`AccessTokenVerifier`] over the host's signature check: the verdict of
/// [`AccessTokenRules::verify`] at the time the host passes in. It never fails otherwise and
/// never holds a token.
pub struct SignedAccessTokenVerifier<S> {
    rules: AccessTokenRules,
    signatures: S,
}

impl<S: AccessTokenSignatures> SignedAccessTokenVerifier<S> {
    /// A verifier applying `rules` to what `signatures` verified.
    pub fn new(rules: AccessTokenRules, signatures: S) -> Self {
        Self { rules, signatures }
    }

    /// The rules it applies.
    #[must_use]
    pub fn rules(&self) -> &AccessTokenRules {
        &self.rules
    }
}

impl<S: AccessTokenSignatures> AccessTokenVerifier for SignedAccessTokenVerifier<S> {
    async fn verify(&self, token: &str, now_ms: u64) -> AccessTokenAdmission {
        verdict(self.rules.verify(&self.signatures, token, now_ms).await)
    }
}

impl<S> fmt::Debug for SignedAccessTokenVerifier<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignedAccessTokenVerifier")
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

fn verdict(checked: Result<AccessTokenClaims, AccessTokenRefusal>) -> AccessTokenAdmission {
    checked.map_or_else(AccessTokenAdmission::Refused, |_| {
        AccessTokenAdmission::Admitted
    })
}

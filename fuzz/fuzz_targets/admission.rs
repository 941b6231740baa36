//! The admission readers of the transport runtime: the `Authorization: Bearer` header reader,
//! credential comparison, and access-token claims (decoded from JSON, checked by the rules and
//! by a verifier whose signature check hands the decoded claims back).
//!
//! Input: `<header line> LF <token / claims JSON>`, plus a time picked from the input's length.
//!
//! Properties:
//! - nothing panics;
//! - `bearer_credential` answers exactly the documented grammar (scheme `Bearer` in any case,
//!   at least one space or tab, leading spaces and tabs skipped, non-empty rest kept as sent);
//! - `credential_matches` is string equality, and an absent credential never matches;
//! - claims that decode round-trip (strict decoder), and the rules' verdict is the documented
//!   one: issuer, audience, expiry (`now >= exp + skew`), not-before (`nbf > now + skew`),
//!   scopes, principal, checked in that order; the verifier's verdict agrees, and a token over
//!   8 KiB is `oversize` before anything is read;
//! - expiry is monotonic in time.
#![no_main]

use agent_interface::runtime::transport::admission::{
    AccessTokenClaims, AccessTokenRules, AccessTokenSignatureRefusal, AccessTokenSignatures,
    MAX_ACCESS_TOKEN_BYTES, SignedAccessTokenVerifier, admission_admits, bearer_credential,
    credential_matches,
};
use agent_interface::transport::admission::{
    AccessTokenAdmission, AccessTokenAlgorithm, AccessTokenRefusal, AccessTokenVerifier,
    AccessTokenVerifierConfig, OpenReason, TransportAdmission, TransportToken,
};
use agent_interface_fuzz::{block_on, json_round_trip};
use libfuzzer_sys::fuzz_target;

const SKEW_MS: u64 = 30_000;
const EXPECTED: &str = "secret-token-4711";

/// The host's signature check, stubbed: the token is the claim set itself.
struct JsonClaims;

impl AccessTokenSignatures for JsonClaims {
    async fn verified_claims(
        &self,
        token: &str,
        _algorithms: &[AccessTokenAlgorithm],
    ) -> Result<AccessTokenClaims, AccessTokenSignatureRefusal> {
        serde_json::from_str(token).map_err(|_| AccessTokenSignatureRefusal::Malformed)
    }
}

fn config() -> AccessTokenVerifierConfig {
    AccessTokenVerifierConfig::new(
        "https://issuer.example",
        "https://api.example",
        vec![AccessTokenAlgorithm::Rs256, AccessTokenAlgorithm::EdDsa],
        vec!["agent:write".to_owned()],
        vec!["user-1".to_owned(), "subject-4711".to_owned()],
        vec!["cli".to_owned()],
    )
    .unwrap()
}

/// The documented bearer grammar.
fn bearer_model(header: &str) -> Option<&str> {
    let scheme = header.get(..6)?;
    if !scheme.eq_ignore_ascii_case("Bearer") {
        return None;
    }
    let rest = &header[6..];
    let credential = rest.trim_start_matches([' ', '\t']);
    (credential.len() < rest.len() && !credential.is_empty()).then_some(credential)
}

/// The documented claim checks, in order.
fn check_model(
    config: &AccessTokenVerifierConfig,
    claims: &AccessTokenClaims,
    now: u64,
) -> Result<(), AccessTokenRefusal> {
    if claims.iss != config.issuer() {
        return Err(AccessTokenRefusal::WrongIssuer);
    }
    if !claims.aud.names(config.resource()) {
        return Err(AccessTokenRefusal::WrongAudience);
    }
    // Times in milliseconds, saturating at u64::MAX as the rules compute them.
    if now >= claims.exp.saturating_mul(1000).saturating_add(SKEW_MS) {
        return Err(AccessTokenRefusal::Expired);
    }
    if let Some(nbf) = claims.nbf
        && nbf.saturating_mul(1000) > now.saturating_add(SKEW_MS)
    {
        return Err(AccessTokenRefusal::NotYetValid);
    }
    let granted: Vec<&str> = claims
        .scope
        .as_deref()
        .map(|s| s.split(' ').collect())
        .unwrap_or_default();
    if !config
        .required_scopes()
        .iter()
        .all(|r| granted.contains(&r.as_str()))
    {
        return Err(AccessTokenRefusal::MissingScope);
    }
    let listed =
        |claim: &Option<String>, list: &[String]| claim.as_ref().is_some_and(|v| list.contains(v));
    if !listed(&claims.sub, config.allowed_subjects())
        && !listed(&claims.client_id, config.allowed_clients())
    {
        return Err(AccessTokenRefusal::PrincipalNotAllowed);
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (header, token) = text.split_once('\n').unwrap_or((text, ""));

    // The bearer reader.
    let credential = bearer_credential(header);
    assert_eq!(
        credential,
        bearer_model(header),
        "bearer_credential({header:?})"
    );
    if let Some(credential) = credential {
        assert!(header.ends_with(credential));
    }
    assert_eq!(
        credential_matches(EXPECTED, credential),
        credential == Some(EXPECTED)
    );
    assert!(!credential_matches(EXPECTED, None));
    assert!(credential_matches(header, Some(header)));
    if let Ok(token) = TransportToken::new(EXPECTED) {
        let admission = TransportAdmission::Token(token);
        assert_eq!(
            admission_admits(&admission, credential),
            credential == Some(EXPECTED)
        );
    }
    if let Ok(reason) = OpenReason::new("local development") {
        assert!(admission_admits(
            &TransportAdmission::Open { reason },
            credential
        ));
    }

    // The claims.
    let config = config();
    let rules = AccessTokenRules::new(config.clone(), SKEW_MS);
    let verifier = SignedAccessTokenVerifier::new(rules.clone(), JsonClaims);
    let claims = json_round_trip::<AccessTokenClaims>("AccessTokenClaims", token.as_bytes());
    let picks = match &claims {
        Some(claims) => {
            let exp = claims.exp.saturating_mul(1000);
            let nbf = claims.nbf.unwrap_or(0).saturating_mul(1000);
            vec![
                0,
                exp.saturating_sub(1),
                exp,
                exp.saturating_add(SKEW_MS),
                nbf,
                nbf.saturating_sub(SKEW_MS + 1),
                u64::MAX,
                data.len() as u64 * 1_000_003,
            ]
        }
        None => vec![0, u64::MAX],
    };
    let mut expired_before = false;
    let mut times = picks.clone();
    times.sort_unstable();
    for now in times {
        let verdict = block_on(verifier.verify(token, now));
        let expected = if token.len() > MAX_ACCESS_TOKEN_BYTES {
            AccessTokenAdmission::Refused(AccessTokenRefusal::Oversize)
        } else {
            match &claims {
                None => AccessTokenAdmission::Refused(AccessTokenRefusal::Malformed),
                Some(claims) => {
                    let checked = rules.check(claims, now);
                    assert_eq!(
                        checked,
                        check_model(&config, claims, now),
                        "the claim checks at {now}"
                    );
                    let expired = rules.is_expired(claims.exp, now);
                    assert!(
                        !expired_before || expired,
                        "expired, then not expired later"
                    );
                    expired_before = expired;
                    checked.map_or_else(AccessTokenAdmission::Refused, |()| {
                        AccessTokenAdmission::Admitted
                    })
                }
            }
        };
        assert_eq!(verdict, expected, "the verifier's verdict at {now}");
    }
});

//! Presented credentials: the constant-time comparison and the `Authorization: Bearer` parser.

use subtle::ConstantTimeEq;

use crate::transport::admission::TransportAdmission;

/// True when `presented` is exactly `expected`, byte for byte (`credentialMatches`): through
/// [`subtle::ConstantTimeEq`] on the bytes, which compares the lengths first (a length is not
/// secret) and equal-length contents in constant time. An absent presented credential is a
/// mismatch.
#[must_use]
pub fn credential_matches(expected: &str, presented: Option<&str>) -> bool {
    presented.is_some_and(|presented| bool::from(expected.as_bytes().ct_eq(presented.as_bytes())))
}

/// True when `admission` lets a peer presenting `presented` in: an open admission admits
/// anyone, a token admission exactly its credential ([`credential_matches`]).
#[must_use]
pub fn admission_admits(admission: &TransportAdmission, presented: Option<&str>) -> bool {
    match admission {
        TransportAdmission::Open { .. } => true,
        TransportAdmission::Token(token) => credential_matches(token.expose(), presented),
    }
}

/// The credential of an `Authorization` header value (`bearerCredential`): the scheme `Bearer`
/// in any case, then at least one space or tab, then the credential with leading spaces and
/// tabs skipped (the rest, trailing spaces included, is kept as sent). `None` for another
/// scheme, a missing separator, or an empty credential.
#[must_use]
pub fn bearer_credential(header: &str) -> Option<&str> {
    let (scheme, rest) = header.split_at_checked("Bearer".len())?;
    let credential = rest.trim_start_matches([' ', '\t']);
    let separated = credential.len() < rest.len();
    (scheme.eq_ignore_ascii_case("Bearer") && separated && !credential.is_empty())
        .then_some(credential)
}

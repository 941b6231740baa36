//! Admission at runtime (catalog §6.4–6.5): resolving what a host asked for into an admission
//! and minting tokens from a host-supplied RNG ([`resolve_admission`],
//! [`mint_transport_token`]); checking presented credentials in constant time and reading
//! bearer headers ([`credential_matches`], [`admission_admits`], [`bearer_credential`]);
//! access-token verdicts over claims the host verified cryptographically
//! ([`AccessTokenRules`], [`SignedAccessTokenVerifier`]); and external events against their
//! grant ([`ExternalEventGate`]).
//!
//! Sans-IO: no clock (time is passed in as `now_ms`), no
//! entropy of its own (a `rand_core::TryCryptoRng` is passed in; its failure is an error, never
//! an open admission), no cryptography and no keys (the host's [`AccessTokenSignatures`]).
//!
//! No verdict, refusal or error here holds token text or a claim value, and nothing that holds
//! them prints them: [`AccessTokenClaims`] and [`AccessTokenAudience`] print `<redacted>`.
//!
//! # Decisions where the catalog is silent
//!
//! * Resolution takes `impl Into<TransportAdmissionConfig>`; a resolved admission converts
//!   into the config that resolves to it, so `resolve(resolve(x)) == resolve(x)`. A token made
//!   only of whitespace is refused ([`AdmissionResolutionError::BlankToken`], departure 13);
//!   the RNG's own error is kept ([`AdmissionResolutionError::Entropy`]).
//! * The bearer parser skips spaces and tabs only (HTTP's whitespace), so `Bearer\nabc` has
//!   no credential.
//! * Tokens longer than [`MAX_ACCESS_TOKEN_BYTES`] (8 KiB) are `oversize`. Claims use
//!   NumericDate seconds as `u64`; the checks run in the order issuer, audience, expiry
//!   (`now >= exp + skew`), not-before (`nbf > now + skew`), scopes, principal. Claim values
//!   are compared exactly; only credentials need constant time.
//! * The external-event gate needs a `jti` (`malformed` without one), refuses an empty
//!   presented token as `missing-token`, reads the event as a message before spending the
//!   token, and remembers at most `SPENT` live tokens (then `rate-limited`, never forgetting a
//!   live one). Rate windows, queues, routing to a grant and revocation stay with the host.
//!
//! [`TransportAdmissionConfig`]: crate::transport::TransportAdmissionConfig

mod access_token;
mod credential;
mod external_event;
mod resolution;

pub use access_token::{
    AccessTokenAudience, AccessTokenClaims, AccessTokenRules, AccessTokenSignatureRefusal,
    AccessTokenSignatures, MAX_ACCESS_TOKEN_BYTES, SignedAccessTokenVerifier,
};
pub use credential::{admission_admits, bearer_credential, credential_matches};
pub use external_event::{DEFAULT_SPENT_TOKEN_CAPACITY, ExternalEventGate, GrantedExternalEvent};
pub use resolution::{AdmissionResolutionError, mint_transport_token, resolve_admission};

/// The `rand_core` crate whose [`TryCryptoRng`](rand_core::TryCryptoRng) minting takes,
/// re-exported so a host names the very version this crate implements against.
pub use rand_core;

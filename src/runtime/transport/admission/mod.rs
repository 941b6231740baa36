//! Admission at runtime (catalog §6.4–6.5): resolving what a host asked for into an admission
//! and minting tokens from a host-supplied RNG ([`resolve_admission`],
//! [`mint_transport_token`]); checking presented credentials in constant time and reading
//! bearer headers ([`credential_matches`], [`admission_admits`], [`bearer_credential`]);
//! the decision on a WebSocket upgrade request, before it completes, with the token read where
//! the TypeScript transport reads it ([`admit_upgrade`], [`query_token`], [`subprotocol_token`]),
//! and a client's side of it ([`url_with_token`], [`token_subprotocols`]);
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
//! # Guarantees
//!
//! - **Secure by default**: a request that states nothing resolves to a token admission, and an
//!   RNG failure is an [`AdmissionResolutionError`], never an open admission.
//! - **Constant time**: a presented credential is compared with [`credential_matches`], which
//!   reveals at most its length.
//! - **Refusals are typed and redacted**: every refusal names its reason and none holds a secret.
//!
//! # Example
//!
//! ```
//! use agent_interface::runtime::transport::admission::{bearer_credential, credential_matches};
//!
//! let presented = bearer_credential("Bearer s3cret");
//! assert_eq!(presented, Some("s3cret"));
//! assert!(credential_matches("s3cret", presented));
//! assert!(!credential_matches("s3cret", bearer_credential("Basic s3cret")));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/transport-runtime.md`.

mod access_token;
mod credential;
mod external_event;
mod resolution;
mod upgrade;

pub use access_token::{
    AccessTokenAudience, AccessTokenClaims, AccessTokenRules, AccessTokenSignatureRefusal,
    AccessTokenSignatures, MAX_ACCESS_TOKEN_BYTES, SignedAccessTokenVerifier,
};
pub use credential::{admission_admits, bearer_credential, credential_matches};
pub use external_event::{DEFAULT_SPENT_TOKEN_CAPACITY, ExternalEventGate, GrantedExternalEvent};
pub use resolution::{
    AdmissionResolutionError, NoEntropySource, mint_transport_token, resolve_admission,
    resolve_stated_admission,
};
pub use upgrade::{
    TokenPresentationError, UpgradeAccepted, UpgradeAllowList, UpgradeRefusal, UpgradeRequest,
    admit_upgrade, query_token, subprotocol_token, token_subprotocols, url_with_token,
};

// The transport family's admission and external-event vocabulary: an admission host's imports
// name this one module; each item is documented where it is defined.
#[doc(no_inline)]
pub use crate::transport::admission::{
    AccessTokenAdmission, AccessTokenAlgorithm, AccessTokenRefusal, AccessTokenVerifier,
    AccessTokenVerifierConfig, AccessTokenVerifierConfigError, BlankOpenReason,
    BlankTransportToken, OpenReason, TransportAdmission, TransportAdmissionConfig, TransportToken,
};
#[doc(no_inline)]
pub use crate::transport::external_events::{
    ExternalEventAdmission, ExternalEventAuditOutcome, ExternalEventAuditRecord,
    ExternalEventDelivery, ExternalEventGrant, ExternalEventGrantError, ExternalEventRateWindow,
    ExternalEventRefusal, ExternalMessageEvent, GrantId, InvalidExternalMessageEvent,
    InvalidGrantId,
};

/// The `rand_core` crate whose [`TryCryptoRng`](rand_core::TryCryptoRng) minting takes,
/// re-exported so a host names the very version this crate implements against.
pub use rand_core;

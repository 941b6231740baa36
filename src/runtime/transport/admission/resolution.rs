//! Admission resolution and token minting (catalog §6.5, "Admission"): secure by default, an
//! explicit token wins, running open needs a written reason, and a failing RNG is an error,
//! never an open admission.

use rand_core::TryCryptoRng;

use crate::transport::admission::{
    OpenReason, TransportAdmission, TransportAdmissionConfig, TransportToken,
};

/// Mints a credential: [`TransportToken::MINTED_BYTES`] (32) bytes from the host's
/// cryptographic RNG, written as 64 lower-case hex characters. The RNG's error is handed back
/// unchanged; nothing weaker is ever substituted.
pub fn mint_transport_token<R: TryCryptoRng + ?Sized>(
    rng: &mut R,
) -> Result<TransportToken, R::Error> {
    let mut bytes = [0; TransportToken::MINTED_BYTES];
    rng.try_fill_bytes(&mut bytes)?;
    Ok(TransportToken::from_random_bytes(&bytes))
}

/// Resolves what a host asked for into an admission (`resolveAdmission`). It accepts a
/// [`TransportAdmissionConfig`] or an already-resolved [`TransportAdmission`] (which converts
/// into the config that resolves to it), so resolving twice gives the same admission.
///
/// In order: a non-empty `token` together with `open: true` is refused; a non-empty token is
/// used as given, except one that is only whitespace, which is refused (departure 13: the
/// reference accepts it); `open: true` needs an `open_reason` that is not blank (trimmed);
/// otherwise (no token, or `""`, which means "mint") a token is minted from `rng`. The RNG is
/// touched only in that last case.
pub fn resolve_admission<R: TryCryptoRng + ?Sized>(
    request: impl Into<TransportAdmissionConfig>,
    rng: &mut R,
) -> Result<TransportAdmission, AdmissionResolutionError<R::Error>> {
    resolve(request.into(), || mint_transport_token(rng))
}

/// Resolves an admission the host stated in full (a token, or `open: true` with a reason) with
/// no RNG at all, by the rules of [`resolve_admission`]. Where that function would mint, this
/// one refuses with [`AdmissionResolutionError::Entropy`]`(`[`NoEntropySource`]`)`: call it on
/// a host that has no entropy source, or that must never mint, and pass the token it was given.
pub fn resolve_stated_admission(
    request: impl Into<TransportAdmissionConfig>,
) -> Result<TransportAdmission, AdmissionResolutionError<NoEntropySource>> {
    resolve(request.into(), || Err(NoEntropySource))
}

/// The one resolution both entry points share; `mint` runs only when no token and no open
/// admission was asked for.
fn resolve<E>(
    config: TransportAdmissionConfig,
    mint: impl FnOnce() -> Result<TransportToken, E>,
) -> Result<TransportAdmission, AdmissionResolutionError<E>> {
    let token = config.token.filter(|token| !token.is_empty());
    match (token, config.open == Some(true)) {
        (Some(_), true) => Err(AdmissionResolutionError::TokenAndOpen),
        (Some(token), false) => TransportToken::new(token)
            .map(TransportAdmission::Token)
            .map_err(|_| AdmissionResolutionError::BlankToken),
        (None, true) => config
            .open_reason
            .as_deref()
            .and_then(|reason| OpenReason::new(reason).ok())
            .map(|reason| TransportAdmission::Open { reason })
            .ok_or(AdmissionResolutionError::MissingOpenReason),
        (None, false) => mint()
            .map(TransportAdmission::Token)
            .map_err(AdmissionResolutionError::Entropy),
    }
}

/// The error of [`resolve_stated_admission`] where a token would have to be minted: the request
/// named no token and did not ask to run open, and there is no RNG to mint one with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error(
    "no token was given and no entropy source was supplied to mint one: pass the token, or \
     resolve with an RNG (resolve_admission)"
)]
pub struct NoEntropySource;

/// Why [`resolve_admission`] refused; `E` is the RNG's error. None of them holds the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AdmissionResolutionError<E> {
    /// A token and `open: true` at once: one needs a credential, the other none.
    #[error(
        "transport admission: a token and `open: true` are contradictory \u{2014} one requires \
         a credential and the other requires none. Asking for both means one of the two beliefs \
         behind the call is wrong; say which is intended."
    )]
    TokenAndOpen,
    /// The token is only whitespace: not a credential (departure 13 from the reference).
    #[error(
        "transport admission: a token made only of whitespace is not a credential; pass a real \
         token, or an empty one (or none) to mint one."
    )]
    BlankToken,
    /// Running open without a written (non-blank) reason.
    #[error(
        "transport admission: an open transport requires `openReason`. An open transport is a \
         decision, and a decision nobody wrote down is indistinguishable from an oversight."
    )]
    MissingOpenReason,
    /// Minting failed because the RNG failed.
    #[error("transport admission: could not mint a credential: {0}")]
    Entropy(#[source] E),
}

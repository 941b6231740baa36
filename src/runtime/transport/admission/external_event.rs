//! External events against their grant: the gate that admits a delivery for exactly the
//! grant's principal, spends its token, and reads its message event.

use alloc::string::String;
use core::cell::{Cell, RefCell};
use core::fmt;

use heapless::Vec;

use super::{AccessTokenRules, AccessTokenSignatures};
use crate::transport::{
    admission::AccessTokenRefusal,
    external_events::{
        ExternalEventDelivery, ExternalEventGrant, ExternalEventRefusal, ExternalMessageEvent,
        GrantId,
    },
};

/// How many spent tokens an [`ExternalEventGate`] remembers unless told otherwise.
pub const DEFAULT_SPENT_TOKEN_CAPACITY: usize = 64;

/// A delivery the gate admitted: the grant it is attributed to (the only identity it has) and
/// its message event. The host turns it into a turn and answers
/// `ExternalEventAdmission::Admitted` with that turn's id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrantedExternalEvent {
    /// The grant the event is attributed to.
    pub grant_id: GrantId,
    /// The event (its `Debug` redacts the content).
    pub event: ExternalMessageEvent,
}

struct SpentToken {
    jti: String,
    exp: u64,
}

/// Admits external events for one grant (catalog §6.5): a delivery without a token is
/// `missing-token`; the token must pass the grant's verifier (which names exactly one
/// principal, so only that principal is admitted) and carry a `jti`; a token already spent on
/// an admitted event is refused `malformed`; the event must be a message
/// (`malformed-event`). Only an admission spends the token.
///
/// Replay memory is bounded by `SPENT`: the `jti` of every admitted token is kept until the
/// token has expired (past `exp` plus the skew, when it would be refused `expired` anyway).
/// When `SPENT` live tokens are remembered, a further delivery is refused `rate-limited` rather
/// than forgetting a live token (fail closed). Time never runs backwards for the gate: it uses
/// the latest `now_ms` it was given.
///
/// Routing a delivery to its grant (`unknown-grant`), revocation (drop the gate:
/// `grant-revoked`), rate windows, queueing and shutdown are the host's.
pub struct ExternalEventGate<S, const SPENT: usize = DEFAULT_SPENT_TOKEN_CAPACITY> {
    grant: ExternalEventGrant,
    rules: AccessTokenRules,
    signatures: S,
    latest_ms: Cell<u64>,
    spent: RefCell<Vec<SpentToken, SPENT>>,
}

impl<S: AccessTokenSignatures, const SPENT: usize> ExternalEventGate<S, SPENT> {
    /// A gate for `grant`, allowing `skew_ms` of clock skew, over the host's signature check.
    pub fn new(grant: ExternalEventGrant, skew_ms: u64, signatures: S) -> Self {
        const { assert!(SPENT > 0, "a gate must remember at least one spent token") };
        Self {
            rules: AccessTokenRules::new(grant.verifier().clone(), skew_ms),
            grant,
            signatures,
            latest_ms: Cell::new(0),
            spent: RefCell::new(Vec::new()),
        }
    }

    /// The grant.
    #[must_use]
    pub fn grant(&self) -> &ExternalEventGrant {
        &self.grant
    }

    /// How many spent tokens are remembered now (at most `SPENT`).
    #[must_use]
    pub fn spent_tokens(&self) -> usize {
        self.spent.borrow().len()
    }

    /// Admits `delivery` at `now_ms`, or says why not. Refusals carry nothing from the
    /// delivery.
    pub async fn admit(
        &self,
        delivery: &ExternalEventDelivery,
        now_ms: u64,
    ) -> Result<GrantedExternalEvent, ExternalEventRefusal> {
        let token = delivery
            .token
            .as_deref()
            .filter(|token| !token.is_empty())
            .ok_or(ExternalEventRefusal::MissingToken)?;
        let now_ms = now_ms.max(self.latest_ms.get());
        self.latest_ms.set(now_ms);
        let claims = self.rules.verify(&self.signatures, token, now_ms).await?;
        let malformed = ExternalEventRefusal::Token(AccessTokenRefusal::Malformed);
        let jti = claims.jti.filter(|jti| !jti.is_empty()).ok_or(malformed)?;
        // From here to the end nothing awaits, so no other delivery can interleave.
        let mut spent = self.spent.borrow_mut();
        spent.retain(|token| !self.rules.is_expired(token.exp, now_ms));
        if spent.iter().any(|token| token.jti == jti) {
            return Err(malformed);
        }
        if spent.is_full() {
            return Err(ExternalEventRefusal::RateLimited);
        }
        let event = ExternalMessageEvent::from_value(&delivery.event)
            .map_err(|_| ExternalEventRefusal::MalformedEvent)?;
        // Not full (checked above), so the token is kept.
        let _ = spent.push(SpentToken {
            jti,
            exp: claims.exp,
        });
        Ok(GrantedExternalEvent {
            grant_id: self.grant.grant_id().clone(),
            event,
        })
    }
}

impl<S, const SPENT: usize> fmt::Debug for ExternalEventGate<S, SPENT> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalEventGate")
            .field("grant", &self.grant)
            .field("skew_ms", &self.rules.skew_ms())
            .field("spent_tokens", &self.spent.borrow().len())
            .finish_non_exhaustive()
    }
}

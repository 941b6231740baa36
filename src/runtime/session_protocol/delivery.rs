//! The outbound delivery boundary of one connection: every server message it sends goes
//! through one latch, so a carrier's failure is reported once and the connection then sends
//! nothing more.

use crate::session::protocol::ServerMessage;

use super::resume_bridge::BridgeFrame;

/// A message a connection sends, as the delivery boundary sees it: its `type`, which labels a
/// failure. A [`ServerMessage`] is one, and so is a stamped frame the
/// [`ResumeBridge`](super::ResumeBridge) hands back, so a replayed text goes through the same
/// boundary without being read back.
pub trait OutboundMessage {
    /// The message's `type` literal (`text_delta`, `resume_gap`, …).
    fn type_literal(&self) -> &'static str;
}

impl OutboundMessage for ServerMessage {
    fn type_literal(&self) -> &'static str {
        Self::type_literal(self)
    }
}

impl OutboundMessage for BridgeFrame<'_> {
    fn type_literal(&self) -> &'static str {
        self.event
    }
}

/// What one delivery came to.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Delivery<E> {
    /// The carrier took the message.
    Sent,
    /// The carrier failed with `error` on a message of type `event`: the first and only failure
    /// this boundary reports. The boundary is latched from now on; the host closes the
    /// connection (the reference's carriers all treat it as terminal).
    Failed {
        /// The carrier's error.
        error: E,
        /// The `type` of the message that could not be delivered.
        event: &'static str,
    },
    /// The boundary is latched: the message was dropped and the carrier not called.
    Dropped,
}

/// One connection's outbound delivery boundary (the reference's `createOutboundDelivery`, its
/// latch): session events and replies alike go through [`deliver`](Self::deliver), which calls
/// the carrier, reports its first failure and drops everything after it.
///
/// Build one per connection: a latched boundary stays latched, and a reconnection gets a fresh
/// one. A failure is handed back to the caller, never raised, so a reply that settles after a
/// disconnect cannot fail the session operation that produced it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutboundDelivery {
    latched: bool,
}

impl OutboundDelivery {
    /// A boundary that has not failed.
    #[must_use]
    pub const fn new() -> Self {
        Self { latched: false }
    }

    /// True once a delivery failed: every later message is dropped.
    #[must_use]
    pub const fn is_latched(&self) -> bool {
        self.latched
    }

    /// Delivers `message` through the carrier's `send`, unless the boundary is latched (then
    /// `send` is not called).
    pub fn deliver<M: OutboundMessage + ?Sized, E>(
        &mut self,
        message: &M,
        send: impl FnOnce(&M) -> Result<(), E>,
    ) -> Delivery<E> {
        if self.latched {
            return Delivery::Dropped;
        }
        match send(message) {
            Ok(()) => Delivery::Sent,
            Err(error) => {
                self.latched = true;
                Delivery::Failed {
                    error,
                    event: message.type_literal(),
                }
            }
        }
    }
}

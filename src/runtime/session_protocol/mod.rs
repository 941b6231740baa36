//! The WebSocket session protocol of the reference's own clients, as sans-IO pieces (feature
//! `session-protocol`).
//!
//! The messages are the session family's vocabulary
//! ([`session::protocol`](crate::session::protocol)); this piece runs the protocol. When to
//! call what, for one connection:
//!
//! - a frame arrives: [`decode_client_frame`] (within [`FrameLimits`]; a [`FrameRefusal`]'s text
//!   is the `protocol_error` to answer), then `resume` and `ack` to the [`ResumeBridge`] and
//!   every other message to [`handle_client_message`], which calls the session's roles
//!   ([`ProtocolSession`]) and says what to answer ([`Handled`]);
//! - the session emits an event: [`event_message`] for the connection's surface (routed by
//!   [`EventRoute`], the active driver stamped where the reference stamps it);
//! - every server message goes through the [`ResumeBridge`], which stamps its seq, keeps it in a
//!   [`ResumeBuffer`] within [`ResumeLimits`] and says what to send now; a resume from a seq
//!   whose successors are gone is a [`ResumeOverrun`] (`resume_gap`), never a tail with a hole;
//! - what is sent (a [`ServerMessage`](crate::session::protocol::ServerMessage) or a
//!   [`BridgeFrame`], both an [`OutboundMessage`]) goes through the connection's
//!   [`OutboundDelivery`], which reports the
//!   carrier's first failure ([`Delivery::Failed`]) and drops everything after it.
//!
//! Where it departs from the reference, and why: `docs/decisions/session-protocol.md`.

mod client_frame;
mod delivery;
mod events;
mod handler;
mod resume_bridge;
mod resume_buffer;

pub use client_frame::{FrameLimits, FrameRefusal, decode_client_frame};
pub use delivery::{Delivery, OutboundDelivery, OutboundMessage};
pub use events::{EventRoute, delivers_ui_intent, event_message};
pub use handler::{Handled, ProtocolSession, handle_client_message};
pub use resume_bridge::{BridgeFrame, ResumeBridge};
pub use resume_buffer::{ResumeBuffer, ResumeLimits, ResumeOverrun};

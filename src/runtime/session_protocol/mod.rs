//! The WebSocket session protocol of the reference's own clients, as sans-IO pieces (feature
//! `session-protocol`).
//!
//! The messages are the session family's vocabulary
//! ([`session::protocol`](crate::session::protocol)); this piece runs the protocol. Built so
//! far: [`decode_client_frame`], which reads a client's frame within [`FrameLimits`] (its
//! length and nesting) and refuses a wrong-shaped one in the reference's words
//! ([`FrameRefusal`], the text of the `protocol_error` answer); [`handle_client_message`], which
//! turns a message into calls on a [`ProtocolSession`]'s role ports and says what to answer
//! ([`Handled`]); [`event_message`], which turns
//! a session event into the server message a surface receives, routed ([`EventRoute`]) and
//! stamped with the active driver where the reference stamps it; and the [`ResumeBuffer`],
//! which stamps every outbound frame with a monotonic seq and keeps the frames a reconnecting
//! client may still ask for, within a frame count and a byte budget ([`ResumeLimits`]); a
//! resume from a seq whose successors are gone is a [`ResumeOverrun`], never a tail with a hole
//! in it. Where it departs from the reference, and
//! why: `docs/decisions/session-protocol.md`.

mod client_frame;
mod events;
mod handler;
mod resume_buffer;

pub use client_frame::{FrameLimits, FrameRefusal, decode_client_frame};
pub use events::{EventRoute, delivers_ui_intent, event_message};
pub use handler::{Handled, ProtocolSession, handle_client_message};
pub use resume_buffer::{ResumeBuffer, ResumeLimits, ResumeOverrun};

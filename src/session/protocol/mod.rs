//! The messages of the WebSocket session protocol the reference's own clients speak (the web
//! client, the GUI, the CLI): what a client sends ([`ClientMessage`]) and what the host sends
//! back ([`ServerMessage`]), each tagged on `type` with the reference's literals.
//!
//! Vocabulary only: turning a client's frame into a message within bounds, dispatching it onto
//! a session, stamping and replaying outbound frames are the `session-protocol` runtime piece.

mod client;
mod server;

pub use client::ClientMessage;
pub use server::{BackgroundControlAction, ServerMessage};

//! The in-process interaction channel: the display events a framework pushes to a surface, the
//! channel port a surface implements, the agent driver that is its dual, the terminal hand-off
//! capability, and the pure readers over an event stream.
//!
//! # Guarantees
//!
//! - A channel's `write` is mandatory ([`InteractionChannel`]).
//! - The readers ([`read_assistant_replies`], [`read_errors`], [`read_last_assistant_text`],
//!   [`read_tool_calls`]) are pure functions of the events they are given.
//! - This is not the universal transport contract: headless and remote transports use the
//!   session's [`capabilities`](super::capabilities) instead.

mod channel;

pub use channel::{
    AgentDriver, AgentDriverObservations, CommandInfo, InteractionChannel, InteractionEvent,
    TerminalHandoff, ToolCallObservation, read_assistant_replies, read_errors,
    read_last_assistant_text, read_tool_calls,
};

//! With `session-mobility` on, transport does not exist: handoff and peers name no transport.
use agent_interface::transport::TransportRunOutcome;

fn main() {}

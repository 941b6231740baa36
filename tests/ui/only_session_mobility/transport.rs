//! With `session-mobility` on, transport does not exist: handoff and peers name no transport.
use agent_interface::transport::outcomes::TransportRunOutcome;

fn main() {}

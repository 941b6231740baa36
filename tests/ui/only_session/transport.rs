//! With `session` on, transport does not exist: session never names it.
use agent_interface::transport::outcomes::TransportRunOutcome;

fn main() {}

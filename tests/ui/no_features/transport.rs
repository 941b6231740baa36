//! With no feature on, transport does not exist.
use agent_interface::transport::outcomes::TransportRunOutcome;

fn main() {}

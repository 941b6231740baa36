//! With no feature on, transport does not exist.
use agent_interface::transport::TransportRunOutcome;

fn main() {}

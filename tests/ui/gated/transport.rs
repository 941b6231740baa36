//! Without `transport`, the transport family does not exist, and the error names the feature.
use agent_interface::transport::outcomes::TransportRunOutcome;

fn main() {}

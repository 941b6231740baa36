//! Without `transport-runtime`, the transport runtime does not exist, and the error names the feature.
use agent_interface::runtime::transport::TransportRegistry;

fn main() {}

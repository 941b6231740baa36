//! With every piece on but `testing`, the transport conformance kit does not exist, and the error names the feature.
use agent_interface::transport::testing::LifecycleCase;

fn main() {}

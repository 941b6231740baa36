//! With `transport` but not `testing`, the conformance suite does not exist.
use agent_interface::transport::testing::LifecycleCase;

fn main() {}

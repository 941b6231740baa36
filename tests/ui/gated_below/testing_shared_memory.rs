//! With every piece on but `testing`, the shared-memory conformance kit does not exist, and the error names the feature.
use agent_interface::runtime::shared_memory::testing;

fn main() {}

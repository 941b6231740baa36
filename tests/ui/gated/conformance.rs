//! Without `testing`, the conformance kits does not exist, and the error names the feature.
use agent_interface::conformance;

fn main() {}

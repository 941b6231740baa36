//! Without `testing`, the common conformance-suite shape does not exist.
use agent_interface::conformance;

fn main() {}

//! Without `shared-memory`, the shared-memory piece does not exist, and the error names the feature.
use agent_interface::runtime::shared_memory;

fn main() {}

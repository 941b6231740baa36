//! Without `agent-core`, the base vocabulary does not exist, and the error names the feature.
use agent_interface::agent_core::Value;

fn main() {}

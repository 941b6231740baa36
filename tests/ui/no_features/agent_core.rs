//! Without `agent-core`, the base vocabulary does not exist.
use agent_interface::agent_core::Value;

fn main() {}

//! Without `session-cache`, the session cache does not exist, and the error names the feature.
use agent_interface::runtime::session_cache;

fn main() {}

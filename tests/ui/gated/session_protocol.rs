//! Without `session-protocol`, the protocol does not exist, and the error names the feature.
use agent_interface::runtime::session_protocol;

fn main() {}

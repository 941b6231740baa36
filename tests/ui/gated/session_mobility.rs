//! Without `session-mobility`, the session-mobility family does not exist, and the error names the feature.
use agent_interface::session_mobility::handoff::HandoffPhase;

fn main() {}

//! Without `session`, the session family does not exist, and the error names the feature.
use agent_interface::session::turns::TurnNotRun;

fn main() {}

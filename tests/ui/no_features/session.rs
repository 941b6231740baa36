//! Without `session`, the family does not exist.
use agent_interface::session::turns::TurnNotRun;

fn main() {}

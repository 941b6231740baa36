//! With every family below `session` on but not `session`, session does not exist.
use agent_interface::session::turns::TurnNotRun;

fn main() {}

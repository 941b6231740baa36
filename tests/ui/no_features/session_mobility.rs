//! With no feature on, session-mobility does not exist.
use agent_interface::session_mobility;

fn main() {}

//! With only `transport`, session does not exist.
use agent_interface::session::turns::TurnHandle;

fn main() {}

//! With only `transport`, session does not exist.
use agent_interface::session::TurnHandle;

fn main() {}

//! With only `command`, session does not exist: it is a layer above.
use agent_interface::session::turns::TurnHandle;

fn main() {}

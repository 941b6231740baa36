//! With `transport-runtime`, session still does not exist: the runtime names only transport and
//! agent-core.
use agent_interface::session::turns::TurnHandle;

fn main() {}

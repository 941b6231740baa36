//! With only `reconcile`, session does not exist: the transcript is agent-core messages.
use agent_interface::session::turns::TurnHandle;

fn main() {}

//! With only `policy`, session does not exist: the rules name only the base vocabulary.
use agent_interface::session::turns::TurnHandle;

fn main() {}

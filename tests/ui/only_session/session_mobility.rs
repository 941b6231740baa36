//! With `session` on, session_mobility (the layer above) does not exist.
use agent_interface::session_mobility::handoff::HandoffPhase;

fn main() {}

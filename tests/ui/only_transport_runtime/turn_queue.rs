//! With `transport-runtime`, the turn queue (another runtime piece) does not exist.
use agent_interface::runtime::turn_queue::TurnId;

fn main() {}

//! With `session-mobility` on, no runtime piece exists: the family has no runtime dependency.
use agent_interface::runtime::turn_queue::TurnQueue;

fn main() {}

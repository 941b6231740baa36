//! Without `turn-queue`, the turn queue does not exist, and the error names the feature.
use agent_interface::runtime::turn_queue::TurnId;

fn main() {}

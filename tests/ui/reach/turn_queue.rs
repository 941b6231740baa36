//! With `turn-queue`, the co-drive queue and its turn ids are reachable.
use agent_interface::runtime::turn_queue::{REFERENCE_DEPTH, TurnId};

fn main() {
    assert!(REFERENCE_DEPTH > 0);
    let _ = core::mem::size_of::<TurnId>();
}

//! With `shared-memory`, the read-only seam and its in-memory provider are reachable.
use agent_interface::runtime::shared_memory::{CancelSignal, NeverCancelled, SharedMemoryState};

fn main() {
    assert!(!NeverCancelled.is_cancelled());
    let state = SharedMemoryState {
        revision: 1,
        taken_at_ms: None,
    };
    assert_eq!(state.revision, 1);
}

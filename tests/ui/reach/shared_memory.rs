//! With `shared-memory`, the read-only seam and its in-memory provider are reachable.
use agent_interface::agent_core::{AbortSignal, NeverAborted};
use agent_interface::runtime::shared_memory::SharedMemoryState;

fn main() {
    assert!(!NeverAborted.is_aborted());
    let state = SharedMemoryState {
        revision: 1,
        taken_at_ms: None,
    };
    assert_eq!(state.revision, 1);
}

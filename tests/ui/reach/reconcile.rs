//! With `reconcile`, the piece and the base vocabulary it reads are reachable.
use agent_interface::agent_core::UniversalMessage;
use agent_interface::runtime::reconcile::{ReconcileInputs, ToolEffect, find_orphan_tool_calls};

fn main() {
    let none: [UniversalMessage; 0] = [];
    assert!(find_orphan_tool_calls(&none, None).is_ok_and(|orphans| orphans.is_empty()));
    assert_eq!(ToolEffect::Write.as_str(), "write");
    let _ = ReconcileInputs::new();
}

//! With `session-mobility`, the family and the session vocabulary it names are reachable.
use agent_interface::session::turns::DriverId;
use agent_interface::session_mobility::{handoff::{HandoffPhase, source_retains_authority}, mesh::MeshCapability};

fn main() {
    assert!(source_retains_authority(HandoffPhase::Staged));
    assert!(!source_retains_authority(HandoffPhase::Committed));
    let _ = MeshCapability::Observe;
    let _: DriverId = String::from("peer:laptop");
}

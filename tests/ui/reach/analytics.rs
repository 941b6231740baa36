//! With `analytics`, the family is reachable through its submodules.
use agent_interface::analytics::usage::{CostStatus, UsageSnapshot};

fn main() {
    let _ = core::mem::size_of::<UsageSnapshot>();
    assert_eq!(CostStatus::Unknown.as_str(), "unknown");
}

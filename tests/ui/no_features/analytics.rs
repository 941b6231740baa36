//! Without `analytics`, the family does not exist.
use agent_interface::analytics::UsageSnapshot;

fn main() {}

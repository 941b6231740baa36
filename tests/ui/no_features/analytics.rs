//! Without `analytics`, the family does not exist.
use agent_interface::analytics::usage::UsageSnapshot;

fn main() {}

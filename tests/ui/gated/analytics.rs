//! Without `analytics`, the analytics family does not exist, and the error names the feature.
use agent_interface::analytics::usage::UsageSnapshot;

fn main() {}

//! With only `execution`, analytics does not exist.
use agent_interface::analytics::usage::UsageSnapshot;

fn main() {}

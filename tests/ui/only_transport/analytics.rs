//! With only `transport`, analytics does not exist.
use agent_interface::analytics::UsageSnapshot;

fn main() {}

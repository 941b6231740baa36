//! With only `tui`, analytics does not exist.
use agent_interface::analytics::usage::UsageSnapshot;

fn main() {}

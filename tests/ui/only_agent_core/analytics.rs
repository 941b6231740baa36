//! `agent-core` turns on no family: analytics does not exist.
use agent_interface::analytics::usage::UsageSnapshot;

fn main() {}

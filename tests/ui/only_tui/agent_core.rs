//! With only `tui`, agent_core does not exist: tui needs nothing.
use agent_interface::agent_core::Value;

fn main() {}

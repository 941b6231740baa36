//! With only `analytics`, agent_core does not exist: analytics needs nothing.
use agent_interface::agent_core::Value;

fn main() {}

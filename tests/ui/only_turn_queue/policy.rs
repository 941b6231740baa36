//! With only `turn-queue`, the policy piece does not exist.
use agent_interface::runtime::policy;

fn main() {}

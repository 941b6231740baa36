//! With only `shared-memory`, the policy piece does not exist.
use agent_interface::runtime::policy;

fn main() {}

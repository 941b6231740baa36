//! With `policy` but not `testing`, the store conformance suite does not exist.
use agent_interface::runtime::policy::testing;

fn main() {}

//! With every piece on but `testing`, the policy conformance kit does not exist, and the error names the feature.
use agent_interface::runtime::policy::testing;

fn main() {}

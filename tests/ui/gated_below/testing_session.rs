//! With every piece on but `testing`, the session conformance kit does not exist, and the error names the feature.
use agent_interface::session::testing;

fn main() {}

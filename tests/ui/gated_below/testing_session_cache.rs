//! With every piece on but `testing`, the session-cache conformance kit does not exist, and the error names the feature.
use agent_interface::runtime::session_cache::testing;

fn main() {}

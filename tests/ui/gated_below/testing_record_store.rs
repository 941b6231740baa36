//! With every piece on but `testing`, the record-store conformance kit does not exist, and the error names the feature.
use agent_interface::runtime::record_store::testing;

fn main() {}

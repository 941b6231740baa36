//! Without `testing`, the record store conformance suite does not exist.
use agent_interface::runtime::record_store::testing;

fn main() {}

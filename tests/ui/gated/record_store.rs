//! Without `record-store`, the record store does not exist, and the error names the feature.
use agent_interface::runtime::record_store;

fn main() {}

//! With every piece on but `record-store-fs`, the file medium of the record store does not exist, and the error names the feature.
use agent_interface::runtime::record_store::FileMedium;

fn main() {}

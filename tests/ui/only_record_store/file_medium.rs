//! With only `record-store`, the file medium (`record-store-fs`, std) does not exist.
use agent_interface::runtime::record_store::FileMedium;

fn main() {}

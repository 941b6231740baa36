//! With `sealing`, the file medium (`record-store-fs`, std) still does not exist.
use agent_interface::runtime::record_store::FileMedium;

fn main() {}

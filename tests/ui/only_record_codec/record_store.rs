//! With only `record-codec`, the record stores (`record-store`) do not exist.
use agent_interface::runtime::record_store;

fn main() {}

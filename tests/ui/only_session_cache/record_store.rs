//! With only `session-cache`, no record store exists: the cache sits over the store port.
use agent_interface::runtime::record_store;

fn main() {}

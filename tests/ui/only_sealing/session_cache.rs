//! With `sealing`, the session cache does not exist.
use agent_interface::runtime::session_cache;

fn main() {}

//! With only `shared-memory`, the session family does not exist.
use agent_interface::session;

fn main() {}

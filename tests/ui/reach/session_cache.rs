//! With `session-cache`, the cache's declarations are reachable.
use agent_interface::runtime::session_cache::{EvictPolicy, SESSION_DEFAULT_TTL_DAYS};

fn main() {
    assert_eq!(EvictPolicy::Forget.as_str(), "forget");
    assert_eq!(SESSION_DEFAULT_TTL_DAYS, 7);
}

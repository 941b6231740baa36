//! With `agent-core`, the base vocabulary is reachable through its root.
use agent_interface::agent_core::{ModelEffort, Value};

fn main() {
    let _ = Value::Null;
    assert_eq!(ModelEffort::High.as_str(), "high");
}

//! `agent-core` turns on no family: execution does not exist.
use agent_interface::execution::BackgroundTaskStatus;

fn main() {}

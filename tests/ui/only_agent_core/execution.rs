//! `agent-core` turns on no family: execution does not exist.
use agent_interface::execution::task_vocabulary::BackgroundTaskStatus;

fn main() {}

//! With only `command`, execution does not exist: layer 0 families do not name each other.
use agent_interface::execution::task_vocabulary::BackgroundTaskStatus;

fn main() {}

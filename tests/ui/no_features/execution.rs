//! Without `execution`, the family does not exist.
use agent_interface::execution::task_vocabulary::BackgroundTaskStatus;

fn main() {}

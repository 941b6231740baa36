//! Without `execution`, the execution family does not exist, and the error names the feature.
use agent_interface::execution::task_vocabulary::BackgroundTaskStatus;

fn main() {}

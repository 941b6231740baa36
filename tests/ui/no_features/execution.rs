//! Without `execution`, the family does not exist.
use agent_interface::execution::BackgroundTaskStatus;

fn main() {}

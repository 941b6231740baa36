//! With only `analytics`, execution does not exist.
use agent_interface::execution::BackgroundTaskStatus;

fn main() {}

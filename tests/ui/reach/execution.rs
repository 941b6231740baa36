//! With `execution`, the family and the base vocabulary it names are reachable.
use agent_interface::agent_core::TokenUsage;
use agent_interface::execution::task_vocabulary::BackgroundTaskStatus;

fn main() {
    let _ = core::mem::size_of::<TokenUsage>();
    assert_eq!(BackgroundTaskStatus::Queued.as_str(), "queued");
}

//! With `transport`, the family and the base vocabulary it names are reachable.
use agent_interface::agent_core::ActionResponse;
use agent_interface::transport::outcomes::TransportRunOutcome;

fn main() {
    assert_eq!(TransportRunOutcome::Succeeded.exit_code(), 0);
    let _ = core::mem::size_of::<ActionResponse>();
}

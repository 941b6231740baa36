//! With `command`, the family and the base vocabulary it names are reachable.
use agent_interface::agent_core::ModelEffort;
use agent_interface::command::definition::CommandResult;

fn main() {
    let _ = core::mem::size_of::<CommandResult>();
    let _ = ModelEffort::Low;
}

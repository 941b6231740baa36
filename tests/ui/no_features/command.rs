//! Without `command`, the family does not exist.
use agent_interface::command::CommandResult;

fn main() {}

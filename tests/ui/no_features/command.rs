//! Without `command`, the family does not exist.
use agent_interface::command::definition::CommandResult;

fn main() {}

//! With only `tui`, command does not exist.
use agent_interface::command::definition::CommandResult;

fn main() {}

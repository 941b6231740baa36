//! With only `tui`, command does not exist.
use agent_interface::command::CommandResult;

fn main() {}

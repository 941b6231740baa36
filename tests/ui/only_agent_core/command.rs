//! `agent-core` turns on no family: command does not exist.
use agent_interface::command::definition::CommandResult;

fn main() {}

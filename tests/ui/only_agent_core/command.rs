//! `agent-core` turns on no family: command does not exist.
use agent_interface::command::CommandResult;

fn main() {}

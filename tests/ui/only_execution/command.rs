//! With only `execution`, command does not exist: layer 0 families do not name each other.
use agent_interface::command::definition::CommandResult;

fn main() {}

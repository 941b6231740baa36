//! Without `command`, the command family does not exist, and the error names the feature.
use agent_interface::command::definition::CommandResult;

fn main() {}

//! With only `command`, tui does not exist.
use agent_interface::tui::OnMissingArgsAction;

fn main() {}

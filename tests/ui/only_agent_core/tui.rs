//! `agent-core` turns on no family: tui does not exist.
use agent_interface::tui::OnMissingArgsAction;

fn main() {}

//! With only `analytics`, tui does not exist.
use agent_interface::tui::OnMissingArgsAction;

fn main() {}

//! Without `tui`, the family does not exist.
use agent_interface::tui::OnMissingArgsAction;

fn main() {}

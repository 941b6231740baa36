//! Without `tui`, the terminal-interaction family does not exist, and the error names the feature.
use agent_interface::tui::OnMissingArgsAction;

fn main() {}

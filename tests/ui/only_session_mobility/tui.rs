//! With `session-mobility` on, tui does not exist: no family below names it.
use agent_interface::tui::OnMissingArgsAction;

fn main() {}

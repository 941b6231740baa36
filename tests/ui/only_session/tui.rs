//! With `session` on, tui does not exist: session never names it.
use agent_interface::tui::OnMissingArgsAction;

fn main() {}

//! With `session`, the family and the lower families it names are reachable.
use agent_interface::analytics::usage::UsageSurface;
use agent_interface::command::definition::CommandUiIntent;
use agent_interface::execution::task_vocabulary::BackgroundTaskStatus;
use agent_interface::session::turns::{OWNER_DRIVER_ID, TurnNotRunReason};

fn main() {
    assert_eq!(OWNER_DRIVER_ID, "owner");
    assert_eq!(TurnNotRunReason::Coalesced.as_str(), "coalesced");
    let _ = (UsageSurface::Cli, CommandUiIntent::ShowSettings, BackgroundTaskStatus::Queued);
}

//! With `tui`, the family is reachable through its root.
use agent_interface::tui::{OnMissingArgsAction, TuiPickerItem};

fn main() {
    let _ = core::mem::size_of::<TuiPickerItem>();
    assert_eq!(OnMissingArgsAction::Confirm.as_str(), "confirm");
}

//! With `record-store-fs`, the file medium is reachable.
use agent_interface::runtime::record_store::{FileMedium, FileMediumError};

fn main() {
    let none: Option<Result<FileMedium, FileMediumError>> = None;
    assert!(none.is_none());
}

//! With only `policy`, the reconcile piece does not exist.
use agent_interface::runtime::reconcile;

fn main() {}

//! Without `reconcile`, the reconcile piece does not exist, and the error names the feature.
use agent_interface::runtime::reconcile;

fn main() {}

//! Without `policy`, the policy piece does not exist, and the error names the feature.
use agent_interface::runtime::policy;

fn main() {}

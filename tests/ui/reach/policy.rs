//! With `policy`, the rules, the in-memory store and enforcement are reachable.
use agent_interface::runtime::policy::{
    InMemorySessionPolicyStore, SessionPermissionRules, ToolAccess, ToolInvocation, Verdict,
};

fn main() {
    let rules = SessionPermissionRules::default();
    let verdict = rules.check(&ToolInvocation::new("read_file", ToolAccess::ReadOnly));
    assert_eq!(verdict, Verdict::Allow);
    let _ = InMemorySessionPolicyStore::new();
}

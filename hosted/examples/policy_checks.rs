//! Per-session permission rules on a std host: a first write narrows a session's rules; tool
//! calls are checked against them (a write climbing out with `..` and a denied command are
//! refused while writes are confined); a non-operator write that would widen the confinement is
//! refused with its reasons and nothing is stored; an operator's write may loosen.
//!
//! Run, in `hosted/`: `cargo run --example policy_checks --features policy,serde`.
//!
//! Not a sandbox: the checks are lexical and see only what the host declares about each call.
//! The in-memory store's futures are ready on their first poll; any `block_on` drives them.

use agent_interface::runtime::policy::{
    InMemorySessionPolicyStore, PutRulesError, PutRulesOptions, SessionPermissionRules,
    SessionPolicyStore, ToolAccess, ToolInvocation, Verdict,
};
use futures_executor::block_on;

fn main() -> Result<(), serde_json::Error> {
    session_rules()
}

fn session_rules() -> Result<(), serde_json::Error> {
    println!("== per-session permission rules");
    let store = InMemorySessionPolicyStore::new();
    let narrowed = SessionPermissionRules {
        tool_deny: Some(vec!["delete_file".into()]),
        allow_dirs: Some(vec!["/work/project/./src/".into()]),
        command_deny: Some(vec!["rm".into()]),
        ..SessionPermissionRules::default()
    };
    // A first write has no prior rules, so it only narrows; the store normalises and stamps rev 1.
    let stored =
        block_on(store.put_rules("session-7", None, narrowed, PutRulesOptions::expecting(0)))
            .expect("a first write only narrows");
    println!("stored: {}", serde_json::to_string(&stored)?);

    let calls = [
        (
            "write_file",
            ToolAccess::WritePath("/work/project/src/lib.rs"),
        ),
        (
            "write_file",
            ToolAccess::WritePath("/work/project/src/../../../etc/passwd"),
        ),
        ("bash", ToolAccess::Command("rm")),
        ("delete_file", ToolAccess::ReadOnly),
        ("read_file", ToolAccess::ReadOnly),
    ];
    for (tool, access) in calls {
        match stored.rules.check(&ToolInvocation::new(tool, access)) {
            Verdict::Allow => println!("{tool} {access:?}: allowed"),
            Verdict::Deny { reason } => {
                println!("{tool} {access:?}: denied, {reason} ({})", reason.message());
            }
        }
    }

    // The session (not an operator) tries to widen its confinement with a `..`: refused.
    let widened = SessionPermissionRules {
        allow_dirs: Some(vec!["/work/project/src/../..".into()]),
        ..stored.rules.clone()
    };
    let attempt = block_on(store.put_rules(
        "session-7",
        None,
        widened.clone(),
        PutRulesOptions::expecting(stored.rev()),
    ));
    match attempt {
        Err(PutRulesError::Refused(refusal)) => {
            println!("refused: {refusal}");
            println!("on the wire: {}", serde_json::to_string(&refusal)?);
        }
        other => println!("unexpected: {other:?}"),
    }
    assert_eq!(
        store.get("session-7", None),
        Some(stored.clone()),
        "nothing was stored"
    );

    // An operator (the host froze the flag from a verified principal) may loosen.
    let loosened = block_on(store.put_rules(
        "session-7",
        None,
        widened,
        PutRulesOptions::expecting(stored.rev()).as_operator(),
    ))
    .expect("an operator may loosen");
    println!("operator write: {}", serde_json::to_string(&loosened)?);
    Ok(())
}

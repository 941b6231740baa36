//! The policy rules decoder (`SessionPermissionRules` from JSON) and the tighten-only write gate
//! of `runtime::policy`.
//!
//! Input: `<prior rules document> NUL <next rules document>` (the second is optional).
//!
//! Properties:
//! - decoding never panics; the decoder is strict (an accepted document is an object whose keys
//!   are the five fields or `rev`, each once, each field a list of strings, `rev` a non-negative
//!   integer); a document with a repeated member is refused; otherwise the serde decoder and
//!   `from_json` agree; rules, stored rules and rules records round-trip;
//! - `decide_put`: a conflict is refused first, an operator's write always lands, a
//!   non-operator's write lands exactly when `loosen_reasons` is empty, and revisions grow by one;
//! - the gate never under-reports: when a non-operator write over the prior rules lands, every
//!   call the prior rules denied is denied by the new ones too (probed with the tools, commands
//!   and directories the documents name, paths beneath and beside them, and escapes with `..`).
#![no_main]

use agent_interface::agent_core::Value;
use agent_interface::runtime::policy::{
    PutRulesOptions, SessionPermissionRules, SessionPolicyError, SessionRulesRecord,
    StoredSessionRules, ToolAccess, ToolInvocation, decide_put, loosen_reasons, normalize_rules,
};
use agent_interface_fuzz::{json_round_trip, object_keys};
use libfuzzer_sys::fuzz_target;

const FIELDS: [&str; 5] = [
    "toolAllow",
    "toolDeny",
    "allowDirs",
    "commandAllow",
    "commandDeny",
];

fn decode(document: &[u8]) -> Option<SessionPermissionRules> {
    let rules = json_round_trip::<SessionPermissionRules>("SessionPermissionRules", document);
    let _ = json_round_trip::<StoredSessionRules>("StoredSessionRules", document);
    let _ = json_round_trip::<SessionRulesRecord>("SessionRulesRecord", document);
    let value: Option<Value> = serde_json::from_slice(document).ok();
    let repeated = object_keys(document).is_some_and(|keys| {
        let unique: std::collections::BTreeSet<&String> = keys.iter().collect();
        unique.len() < keys.len()
    });
    if repeated {
        // The text decoder is the strict one: a member written twice is refused (a parsed
        // `Value` keeps only the last, so `from_json` cannot tell).
        assert!(
            rules.is_none(),
            "a rules document with a repeated member was accepted"
        );
    } else if let Some(value) = &value {
        assert_eq!(
            SessionPermissionRules::from_json(value).ok(),
            rules,
            "from_json and the serde decoder disagree"
        );
    }
    if rules.is_some() {
        let object = value
            .as_ref()
            .and_then(Value::as_object)
            .expect("accepted, so an object");
        for (key, member) in object {
            if key == "rev" {
                assert!(
                    member.as_u64().is_some(),
                    "accepted a rev that is not a u64: {member}"
                );
            } else {
                assert!(
                    FIELDS.contains(&key.as_str()),
                    "accepted an unknown key {key:?}"
                );
                let list = member
                    .as_array()
                    .expect("accepted a field that is not a list");
                assert!(
                    list.iter().all(Value::is_string),
                    "accepted a non-string entry"
                );
            }
        }
    }
    rules
}

/// The calls to probe two rule sets with: every name and directory either names, plus the
/// tool and command that neither does, and paths within, beside and escaping each directory.
fn probes(
    a: &SessionPermissionRules,
    b: &SessionPermissionRules,
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut tools = vec!["other_tool".to_owned()];
    let mut commands = vec!["other-cmd".to_owned(), "/bin/sh".to_owned()];
    let mut paths = vec![
        "/".to_owned(),
        "relative/file".to_owned(),
        "C:\\x".to_owned(),
    ];
    for rules in [a, b] {
        tools.extend(
            rules
                .tool_allow
                .iter()
                .chain(&rules.tool_deny)
                .flatten()
                .cloned(),
        );
        for command in rules
            .command_allow
            .iter()
            .chain(&rules.command_deny)
            .flatten()
        {
            commands.push(command.clone());
            commands.push(format!("/usr/bin/{command}"));
        }
        for dir in rules.allow_dirs.iter().flatten() {
            for suffix in ["", "/a", "\\a", "/../x", "/./a/..", "x", "/..", "/a/b"] {
                paths.push(format!("{dir}{suffix}"));
            }
        }
    }
    tools.truncate(24);
    commands.truncate(24);
    paths.truncate(48);
    (tools, commands, paths)
}

fuzz_target!(|data: &[u8]| {
    let (prior, next) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], Some(&data[at + 1..])),
        None => (data, None),
    };
    let Some(prior) = decode(prior) else {
        return;
    };
    let current =
        decide_put(None, prior.clone(), PutRulesOptions::expecting(0)).expect("a first write");
    assert_eq!(current.rev(), 1);
    assert_eq!(
        current.rules,
        normalize_rules(prior.clone()),
        "stored rules are the normalised ones"
    );
    assert_eq!(
        decide_put(Some(&current), prior.clone(), PutRulesOptions::expecting(7)),
        Err(SessionPolicyError::Conflict {
            expected_rev: 7,
            current_rev: 1
        })
    );
    let Some(next) = next.and_then(decode) else {
        return;
    };
    let operator = decide_put(
        Some(&current),
        next.clone(),
        PutRulesOptions::expecting(1).as_operator(),
    );
    assert_eq!(
        operator.map(|stored| stored.rev()),
        Ok(2),
        "an operator's write always lands"
    );
    let reasons = loosen_reasons(&current.rules, &normalize_rules(next.clone()));
    let put = decide_put(Some(&current), next.clone(), PutRulesOptions::expecting(1));
    match &put {
        Ok(stored) => {
            assert!(reasons.is_empty(), "a loosening write landed: {reasons:?}");
            assert_eq!(stored.rev(), 2);
        }
        Err(SessionPolicyError::LoosenForbidden { reasons: refused }) => {
            assert_eq!(
                refused, &reasons,
                "refused with other reasons than loosen_reasons"
            );
            assert!(!reasons.is_empty());
        }
        Err(other) => panic!("unexpected refusal {other:?}"),
    }
    let Ok(stored) = put else {
        return;
    };
    let (tools, commands, paths) = probes(&current.rules, &stored.rules);
    let mut calls: Vec<ToolInvocation<'_>> = Vec::new();
    for tool in &tools {
        calls.push(ToolInvocation::new(tool, ToolAccess::ReadOnly));
        calls.push(ToolInvocation::new(tool, ToolAccess::UnconfinedWrite));
        for path in &paths {
            calls.push(ToolInvocation::new(tool, ToolAccess::WritePath(path)));
        }
        for command in &commands {
            calls.push(ToolInvocation::new(tool, ToolAccess::Command(command)));
        }
    }
    for call in &calls {
        let before = current.rules.check(call);
        let after = stored.rules.check(call);
        assert!(
            before.is_allowed() || !after.is_allowed(),
            "a write without loosen reasons allows what the prior rules denied ({:?}): {call:?}\n  prior: {:?}\n  next:  {:?}",
            before.deny_reason(),
            current.rules,
            stored.rules
        );
    }
});

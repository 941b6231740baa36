//! Checking a tool call allocates nothing: a counting global allocator watches thousands of
//! checks of every access kind (allowed and denied, paths with `.`, `..`, `//`, `\`, drive
//! letters, UNC and opaque paths, commands by path) against rules with every field set, and
//! counts zero allocations. `lex_within` on its own allocates nothing either.
//!
//! Host only: the rules are built before counting starts, and the calls borrow static text.
#![cfg(not(any(target_family = "wasm", target_os = "none")))]

use agent_interface::runtime::policy::{
    DenyReason, SessionPermissionRules, ToolAccess, ToolInvocation, Verdict, lex_within,
};

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use counting_allocator::allocations_in;

fn names(items: &[&str]) -> Option<Vec<String>> {
    Some(items.iter().map(|item| String::from(*item)).collect())
}

/// Calls of every kind, with the verdict each must get under [`rules`].
const CALLS: &[(&str, ToolAccess<'static>, Option<DenyReason>)] = &[
    ("read_file", ToolAccess::ReadOnly, None),
    (
        "delete_file",
        ToolAccess::ReadOnly,
        Some(DenyReason::ToolDenied),
    ),
    (
        "web_fetch",
        ToolAccess::ReadOnly,
        Some(DenyReason::ToolNotAllowed),
    ),
    (
        "write_file",
        ToolAccess::WritePath("/work/project/src/main.rs"),
        None,
    ),
    (
        "write_file",
        ToolAccess::WritePath("/work//project/./src/../lib.rs"),
        None,
    ),
    (
        "write_file",
        ToolAccess::WritePath("c:/Users/me/src/lib.rs"),
        None,
    ),
    (
        "write_file",
        ToolAccess::WritePath("\\\\srv\\share\\out\\..\\out\\a"),
        None,
    ),
    (
        "write_file",
        ToolAccess::WritePath("/work/project/../../etc/passwd"),
        Some(DenyReason::WriteOutsideAllowDirs),
    ),
    (
        "write_file",
        ToolAccess::WritePath("C:\\Users\\me\\src\\..\\..\\x"),
        Some(DenyReason::WriteOutsideAllowDirs),
    ),
    (
        "write_file",
        ToolAccess::WritePath("/work/project/..\\..\\etc"),
        Some(DenyReason::WriteOutsideAllowDirs),
    ),
    (
        "write_file",
        ToolAccess::WritePath("\\\\?\\C:\\Users\\me\\src"),
        Some(DenyReason::WriteOutsideAllowDirs),
    ),
    (
        "bash",
        ToolAccess::Command("/bin/rm"),
        Some(DenyReason::CommandDenied),
    ),
    (
        "bash",
        ToolAccess::Command("wget"),
        Some(DenyReason::CommandNotAllowed),
    ),
    (
        "bash",
        ToolAccess::Command("git"),
        Some(DenyReason::UnconfinableWrite),
    ),
    (
        "write_file",
        ToolAccess::UnconfinedWrite,
        Some(DenyReason::UnconfinableWrite),
    ),
];

fn rules() -> SessionPermissionRules {
    SessionPermissionRules {
        tool_allow: names(&["read_file", "write_file", "bash"]),
        tool_deny: names(&["delete_file"]),
        allow_dirs: names(&["/work/project", "C:\\Users\\me\\src", "\\\\srv\\share\\out"]),
        command_allow: names(&["git", "ls"]),
        command_deny: names(&["rm", "curl"]),
    }
}

#[test]
fn checking_a_tool_call_allocates_nothing() {
    let rules = rules();
    let mut denied = 0usize;
    let count = allocations_in(|| {
        for _ in 0..2_000 {
            for (tool, access, expected) in CALLS {
                let verdict = rules.check(&ToolInvocation::new(tool, *access));
                assert_eq!(verdict.deny_reason(), *expected, "{tool} {access:?}");
                if verdict != Verdict::Allow {
                    denied += 1;
                }
            }
        }
    });
    assert_eq!(count, 0, "allocations over 30 000 checks");
    assert_eq!(denied, 2_000 * 10, "the checks ran");

    let count = allocations_in(|| {
        for _ in 0..2_000 {
            assert!(lex_within("/work/project", "/work/project/a/../b/./c"));
            assert!(!lex_within("/work/project", "/work/project/../x"));
            assert!(lex_within("C:\\Work", "c:/Work/x"));
        }
    });
    assert_eq!(count, 0, "allocations over 6 000 containment checks");

    // The counter works: the same window around an allocation counts it.
    let control = allocations_in(|| drop(std::hint::black_box(Box::new(1u64))));
    assert_eq!(control, 1);
}

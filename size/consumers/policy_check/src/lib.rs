//! Policy check: one tool call enforced against per-session permission rules with every field
//! set (`SessionPermissionRules::check`), the rules as a host holds them in memory.
//!
//! Input: the tool name, a NUL byte, an access kind byte (`r` read-only, `w` write, `c` command,
//! anything else an unconfined write), then its path or program. Answer: 0 when allowed, else
//! the length of the deny reason's message.
#![no_std]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use agent_interface::runtime::policy::{SessionPermissionRules, ToolAccess, ToolInvocation};

fn names(items: &[&str]) -> Option<Vec<String>> {
    Some(items.iter().map(|item| String::from(*item)).collect())
}

/// Checks the tool call of `input`.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let rules = SessionPermissionRules {
        tool_allow: names(&["read_file", "write_file", "bash"]),
        tool_deny: names(&["delete_file"]),
        allow_dirs: names(&["/work/project", "C:\\Users\\me\\src", "\\\\srv\\share\\out"]),
        command_allow: names(&["git", "ls"]),
        command_deny: names(&["rm", "curl"]),
    };
    let (tool_name, rest) = size_support::split_text(input);
    let (kind, target) = rest.split_first().unwrap_or((&0, &[]));
    let target = core::str::from_utf8(target).unwrap_or("");
    let access = match kind {
        b'r' => ToolAccess::ReadOnly,
        b'w' => ToolAccess::WritePath(target),
        b'c' => ToolAccess::Command(target),
        _ => ToolAccess::UnconfinedWrite,
    };
    let verdict = rules.check(&ToolInvocation::new(tool_name, access));
    verdict
        .deny_reason()
        .map_or(0, |reason| reason.message().len() as u32)
}

size_support::wasm_exports!(run);

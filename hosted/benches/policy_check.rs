//! Benchmarks of enforcing the per-session permission rules, per check of one tool call:
//!
//! - `check/<kind>`: one call against rules with every field set (3 tools allowed, 1 denied,
//!   3 `allowDirs` of the POSIX, drive and UNC forms, 2 commands allowed, 2 denied): a read, a
//!   write inside a dir, a write whose `..` climbs out, a Windows write, a denied command by
//!   path, an unconfinable command;
//! - `check/mixed_15`: 15 calls of every kind per iteration (divide by 15 for one check);
//! - `check/write_64_dirs`: a write matching none of 64 `allowDirs` (the linear worst case);
//! - `lex_within`: containment alone, inside and escaping;
//! - `loosen_reasons` and `decide_put`: the gate a write runs (these allocate: the reasons and
//!   the normalised copy).
//!
//! Run, in `hosted/`:
//! `cargo bench --features policy --bench policy_check -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use agent_interface::runtime::policy::{
    PutRulesOptions, SessionPermissionRules, StoredSessionRules, ToolAccess, ToolInvocation,
    decide_put, lex_within, loosen_reasons,
};
use criterion::{Criterion, criterion_group, criterion_main};

fn names(items: &[&str]) -> Option<Vec<String>> {
    Some(items.iter().map(|item| String::from(*item)).collect())
}

fn rules() -> SessionPermissionRules {
    SessionPermissionRules {
        tool_allow: names(&["read_file", "write_file", "bash"]),
        tool_deny: names(&["delete_file"]),
        allow_dirs: names(&["/work/project", "C:\\Users\\me\\src", "\\\\srv\\share\\out"]),
        command_allow: names(&["git", "ls"]),
        command_deny: names(&["rm", "curl"]),
    }
}

const CALLS: &[(&str, &str, ToolAccess<'static>)] = &[
    ("read", "read_file", ToolAccess::ReadOnly),
    (
        "write_inside",
        "write_file",
        ToolAccess::WritePath("/work/project/src/module/file.rs"),
    ),
    (
        "write_climbing_out",
        "write_file",
        ToolAccess::WritePath("/work/project/src/../../../etc/passwd"),
    ),
    (
        "write_windows",
        "write_file",
        ToolAccess::WritePath("c:/Users/me/src/lib.rs"),
    ),
    ("command_denied", "bash", ToolAccess::Command("/usr/bin/rm")),
    ("command_unconfinable", "bash", ToolAccess::Command("git")),
];

const MIXED: &[(&str, ToolAccess<'static>)] = &[
    ("read_file", ToolAccess::ReadOnly),
    ("delete_file", ToolAccess::ReadOnly),
    ("web_fetch", ToolAccess::ReadOnly),
    (
        "write_file",
        ToolAccess::WritePath("/work/project/src/main.rs"),
    ),
    (
        "write_file",
        ToolAccess::WritePath("/work//project/./src/../lib.rs"),
    ),
    (
        "write_file",
        ToolAccess::WritePath("c:/Users/me/src/lib.rs"),
    ),
    (
        "write_file",
        ToolAccess::WritePath("\\\\srv\\share\\out\\a"),
    ),
    (
        "write_file",
        ToolAccess::WritePath("/work/project/../../etc/passwd"),
    ),
    (
        "write_file",
        ToolAccess::WritePath("C:\\Users\\me\\src\\..\\..\\x"),
    ),
    (
        "write_file",
        ToolAccess::WritePath("/work/project/..\\..\\etc"),
    ),
    (
        "write_file",
        ToolAccess::WritePath("\\\\?\\C:\\Users\\me\\src"),
    ),
    ("bash", ToolAccess::Command("/bin/rm")),
    ("bash", ToolAccess::Command("wget")),
    ("bash", ToolAccess::Command("git")),
    ("write_file", ToolAccess::UnconfinedWrite),
];

fn check(c: &mut Criterion) {
    let rules = rules();
    for (label, tool, access) in CALLS {
        let call = ToolInvocation::new(tool, *access);
        c.bench_function(&format!("check/{label}"), |b| {
            b.iter(|| black_box(&rules).check(black_box(&call)));
        });
    }
    let calls: Vec<ToolInvocation<'_>> = MIXED
        .iter()
        .map(|(tool, access)| ToolInvocation::new(tool, *access))
        .collect();
    c.bench_function("check/mixed_15", |b| {
        b.iter(|| {
            for call in &calls {
                black_box(black_box(&rules).check(call).is_allowed());
            }
        });
    });
    let wide = SessionPermissionRules {
        allow_dirs: Some((0..64).map(|i| format!("/srv/tenant-{i}/work")).collect()),
        ..SessionPermissionRules::default()
    };
    let call = ToolInvocation::new("write_file", ToolAccess::WritePath("/srv/tenant-99/work/a"));
    c.bench_function("check/write_64_dirs", |b| {
        b.iter(|| black_box(&wide).check(black_box(&call)));
    });
}

fn containment(c: &mut Criterion) {
    c.bench_function("lex_within/inside", |b| {
        b.iter(|| {
            lex_within(
                black_box("/work/project"),
                black_box("/work/project/a/./b/c.rs"),
            )
        });
    });
    c.bench_function("lex_within/escaping", |b| {
        b.iter(|| {
            lex_within(
                black_box("/work/project"),
                black_box("/work/project/../../etc"),
            )
        });
    });
}

fn gate(c: &mut Criterion) {
    let prior = rules();
    let next = SessionPermissionRules {
        tool_deny: names(&["delete_file", "web_fetch"]),
        allow_dirs: names(&["/work/project/src", "c:/Users/me/src/x"]),
        ..rules()
    };
    c.bench_function("loosen_reasons/tightening", |b| {
        b.iter(|| loosen_reasons(black_box(&prior), black_box(&next)));
    });
    let current = StoredSessionRules {
        rev: std::num::NonZeroU64::MIN,
        rules: prior.clone(),
    };
    c.bench_function("decide_put/tightening", |b| {
        b.iter(|| {
            decide_put(
                Some(black_box(&current)),
                next.clone(),
                PutRulesOptions::expecting(1),
            )
        });
    });
}

criterion_group!(benches, check, containment, gate);
criterion_main!(benches);

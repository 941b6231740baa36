//! Feature isolation, proven by compiling against the crate: a family is unreachable unless its
//! feature is on, and reachable when it is. trybuild builds each case with exactly the features
//! of the `cargo test` invocation, so the test command runs this target once per feature set:
//!
//! ```text
//! cargo test --no-default-features --test isolation
//! cargo test --no-default-features --features analytics --test isolation
//! cargo test --no-default-features --features tui --test isolation
//! cargo test --no-default-features --features agent-core --test isolation
//! cargo test --no-default-features --features command --test isolation
//! cargo test --no-default-features --features execution --test isolation
//! cargo test --no-default-features --features agent-core,analytics,command,execution --test isolation
//! cargo test --no-default-features --features session --test isolation
//! cargo test --no-default-features --features transport --test isolation
//! cargo test --no-default-features --features transport-runtime --test isolation
//! cargo test --no-default-features --features session-mobility --test isolation
//! cargo test --no-default-features --features turn-queue --test isolation
//! cargo test --no-default-features --features policy --test isolation
//! cargo test --no-default-features --features reconcile --test isolation
//! cargo test --no-default-features --features record-codec --test isolation
//! cargo test --no-default-features --features record-store --test isolation
//! cargo test --no-default-features --features record-store-fs --test isolation
//! cargo test --no-default-features --features sealing --test isolation
//! cargo test --no-default-features --features session-cache --test isolation
//! cargo test --no-default-features --features shared-memory --test isolation
//! cargo test --all-features --test isolation
//! ```
//!
//! The test reads which family features are on and picks the cases of that set; a feature set
//! with no cases of its own (say `analytics,tui`) is covered by the sets above and says so.
//!
//! Features that are not families can make an item reachable too: `testing` turns on the
//! conformance suites. A compile-fail case that expects such an item out of reach is named after
//! the feature that brings it in ([`MODIFIERS`]), and is left out when that feature is on, so a
//! family's tests run with its suites (`--features shared-memory,testing`) are green as well.
//! `serde` and `std` bring in no item a case expects out of reach: every `serde`-gated item also
//! needs its family, and the file medium needs `record-store-fs`, not `std` alone.
//!
//! Each compile-fail case has a `.stderr` snapshot naming the gate ("the item is gated behind the
//! `analytics` feature"), so a case that fails for another reason fails the test. Snapshots hold
//! rustc's wording: they are made with the toolchain of `rust-toolchain.toml`.
#![cfg(not(target_family = "wasm"))]

/// Every family feature (and the runtime piece of a family), and whether this build has it on.
const FAMILIES: &[(&str, bool)] = &[
    ("agent-core", cfg!(feature = "agent-core")),
    ("analytics", cfg!(feature = "analytics")),
    ("tui", cfg!(feature = "tui")),
    ("command", cfg!(feature = "command")),
    ("execution", cfg!(feature = "execution")),
    ("session", cfg!(feature = "session")),
    ("session-mobility", cfg!(feature = "session-mobility")),
    ("turn-queue", cfg!(feature = "turn-queue")),
    ("transport", cfg!(feature = "transport")),
    ("transport-runtime", cfg!(feature = "transport-runtime")),
    ("policy", cfg!(feature = "policy")),
    ("reconcile", cfg!(feature = "reconcile")),
    ("record-codec", cfg!(feature = "record-codec")),
    ("record-store", cfg!(feature = "record-store")),
    ("record-store-fs", cfg!(feature = "record-store-fs")),
    ("sealing", cfg!(feature = "sealing")),
    ("session-cache", cfg!(feature = "session-cache")),
    ("shared-memory", cfg!(feature = "shared-memory")),
];

/// Features that are not families but make items reachable, each with the compile-fail cases
/// (file names, in any folder) that expect those items out of reach and so need it off.
const MODIFIERS: &[(&str, bool, &[&str])] = &[(
    "testing",
    cfg!(feature = "testing"),
    &["testing.rs", "conformance.rs"],
)];

/// The compile-fail folder and reachability cases of each feature set that has cases.
/// `command` and `execution` turn `agent-core` on, so "only command" is `agent-core,command`.
const SETS: &[(&[&str], &str, &[&str])] = &[
    (&[], "tests/ui/no_features/*.rs", &[]),
    (
        &["analytics"],
        "tests/ui/only_analytics/*.rs",
        &["tests/ui/reach/analytics.rs"],
    ),
    (
        &["tui"],
        "tests/ui/only_tui/*.rs",
        &["tests/ui/reach/tui.rs"],
    ),
    (
        &["agent-core"],
        "tests/ui/only_agent_core/*.rs",
        &["tests/ui/reach/agent_core.rs"],
    ),
    (
        &["agent-core", "command"],
        "tests/ui/only_command/*.rs",
        &["tests/ui/reach/command.rs"],
    ),
    (
        &["agent-core", "analytics", "command", "execution"],
        "tests/ui/session_lower/*.rs",
        &[],
    ),
    (
        &["agent-core", "analytics", "command", "execution", "session"],
        "tests/ui/only_session/*.rs",
        &["tests/ui/reach/session.rs"],
    ),
    (
        &[
            "agent-core",
            "analytics",
            "command",
            "execution",
            "session",
            "turn-queue",
        ],
        "tests/ui/only_turn_queue/*.rs",
        &["tests/ui/reach/session.rs", "tests/ui/reach/turn_queue.rs"],
    ),
    (
        &["agent-core", "execution"],
        "tests/ui/only_execution/*.rs",
        &["tests/ui/reach/execution.rs"],
    ),
    (
        &["agent-core", "transport"],
        "tests/ui/only_transport/*.rs",
        &["tests/ui/reach/transport.rs"],
    ),
    (
        &["agent-core", "transport", "transport-runtime"],
        "tests/ui/only_transport_runtime/*.rs",
        &[
            "tests/ui/reach/transport.rs",
            "tests/ui/reach/transport_runtime.rs",
        ],
    ),
    (
        &[
            "agent-core",
            "analytics",
            "command",
            "execution",
            "session",
            "session-mobility",
        ],
        "tests/ui/only_session_mobility/*.rs",
        &[
            "tests/ui/reach/session.rs",
            "tests/ui/reach/session_mobility.rs",
        ],
    ),
    (
        &["agent-core", "policy"],
        "tests/ui/only_policy/*.rs",
        &["tests/ui/reach/policy.rs"],
    ),
    (
        &["agent-core", "reconcile"],
        "tests/ui/only_reconcile/*.rs",
        &["tests/ui/reach/reconcile.rs"],
    ),
    (
        &[
            "agent-core",
            "analytics",
            "command",
            "execution",
            "session",
            "record-codec",
        ],
        "tests/ui/only_record_codec/*.rs",
        &[
            "tests/ui/reach/session.rs",
            "tests/ui/reach/record_codec.rs",
        ],
    ),
    (
        &[
            "agent-core",
            "analytics",
            "command",
            "execution",
            "session",
            "record-codec",
            "record-store",
        ],
        "tests/ui/only_record_store/*.rs",
        &[
            "tests/ui/reach/session.rs",
            "tests/ui/reach/record_codec.rs",
            "tests/ui/reach/record_store.rs",
        ],
    ),
    (
        &[
            "agent-core",
            "analytics",
            "command",
            "execution",
            "session",
            "record-codec",
            "record-store",
            "record-store-fs",
        ],
        "tests/ui/only_record_store_fs/*.rs",
        &[
            "tests/ui/reach/record_store.rs",
            "tests/ui/reach/record_store_fs.rs",
        ],
    ),
    (
        &[
            "agent-core",
            "analytics",
            "command",
            "execution",
            "session",
            "record-codec",
            "record-store",
            "sealing",
        ],
        "tests/ui/only_sealing/*.rs",
        &[
            "tests/ui/reach/record_store.rs",
            "tests/ui/reach/sealing.rs",
        ],
    ),
    (
        &[
            "agent-core",
            "analytics",
            "command",
            "execution",
            "session",
            "reconcile",
            "session-cache",
        ],
        "tests/ui/only_session_cache/*.rs",
        &[
            "tests/ui/reach/reconcile.rs",
            "tests/ui/reach/session_cache.rs",
        ],
    ),
    (
        &["agent-core", "shared-memory"],
        "tests/ui/only_shared_memory/*.rs",
        &["tests/ui/reach/shared_memory.rs"],
    ),
];

#[test]
fn each_family_is_reachable_exactly_with_its_feature() {
    let on: Vec<&str> = FAMILIES
        .iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| *name)
        .collect();
    let cases = trybuild::TestCases::new();
    if on.len() == FAMILIES.len() {
        cases.pass("tests/ui/reach/*.rs");
        return;
    }
    match SETS.iter().find(|(set, _, _)| *set == on.as_slice()) {
        Some((_, unreachable, reachable)) => {
            for case in compile_fail_cases(unreachable) {
                cases.compile_fail(case);
            }
            for case in *reachable {
                cases.pass(*case);
            }
        }
        None => eprintln!("isolation: no cases for the feature set {on:?}; see the sets in SETS"),
    }
}

/// The files of a compile-fail folder pattern (`tests/ui/<set>/*.rs`), without the cases of the
/// modifiers that are on.
fn compile_fail_cases(pattern: &str) -> Vec<std::path::PathBuf> {
    let folder = pattern
        .strip_suffix("/*.rs")
        .expect("compile-fail folders are given as <folder>/*.rs");
    let skipped: Vec<&str> = MODIFIERS
        .iter()
        .filter(|(_, on, _)| *on)
        .flat_map(|(_, _, cases)| cases.iter().copied())
        .collect();
    let mut cases: Vec<std::path::PathBuf> = std::fs::read_dir(folder)
        .unwrap_or_else(|error| panic!("cannot list {folder}: {error}"))
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "rs"))
        .filter(|path| {
            let name = path
                .file_name()
                .and_then(|name| name.to_str())
                .unwrap_or("");
            !skipped.contains(&name)
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn the_modifier_cases_exist_where_the_modifier_gates_something() {
    // A case list that names no file would silently skip nothing: every modifier case name
    // must be a compile-fail case somewhere, and must name the modifier in its snapshot.
    for (feature, _, names) in MODIFIERS {
        for name in *names {
            let snapshots: Vec<String> = std::fs::read_dir("tests/ui")
                .expect("tests/ui")
                .map(|entry| {
                    entry
                        .expect("entry")
                        .path()
                        .join(name)
                        .with_extension("stderr")
                })
                .filter(|path| path.exists())
                .map(|path| std::fs::read_to_string(path).expect("a readable snapshot"))
                .collect();
            assert!(
                !snapshots.is_empty(),
                "no compile-fail case is named {name}"
            );
            for snapshot in snapshots {
                assert!(
                    snapshot.contains(&format!("`{feature}`")),
                    "a case named {name} does not fail for want of `{feature}`:\n{snapshot}"
                );
            }
        }
    }
}

/// Every compile-fail snapshot shows rustc's note naming the feature the case lacks, so a user
/// who hits the same error is told what to enable (explicit, `cfg`-gated re-exports everywhere).
#[test]
fn every_compile_fail_snapshot_names_the_missing_feature() {
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut checked = 0;
    for folder in std::fs::read_dir(&ui).expect("tests/ui") {
        let folder = folder.expect("an entry").path();
        let Ok(files) = std::fs::read_dir(&folder) else {
            continue;
        };
        for file in files {
            let file = file.expect("an entry").path();
            if file.extension().is_some_and(|ext| ext == "stderr") {
                let text = std::fs::read_to_string(&file).expect("a snapshot");
                assert!(
                    text.contains("the item is gated behind the `"),
                    "{} names no feature",
                    file.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no snapshot found under {}", ui.display());
}

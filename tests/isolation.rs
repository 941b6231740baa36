//! Feature isolation, proven by compiling against the crate: an item of a family or piece whose
//! feature is off does not exist, and rustc's error names the feature to enable; with every
//! feature on, every family and piece is reachable by its public paths. trybuild builds each case
//! with exactly the features of the `cargo test` invocation, so the test script runs this target
//! once per feature set that has cases (`scripts/test.sh isolation`):
//!
//! ```text
//! cargo test --no-default-features --test isolation -- --include-ignored   # tests/ui/gated
//! cargo test --no-default-features --features agent-core,analytics,tui,command,execution,transport,session,session-mobility,turn-queue,transport-runtime,policy,reconcile,record-codec,record-store,session-cache,session-protocol,shared-memory --test isolation -- --include-ignored
//!                                                          # tests/ui/gated_below: the gates inside pieces
//! cargo test --all-features --test isolation -- --include-ignored   # tests/ui/reach
//! ```
//!
//! The case run is ignored otherwise: the host tests (`cargo test --all-features`) would build
//! the crate and its dev-dependencies once more for it.
//!
//! One case per gated module and feature: which features a feature turns on, and what each
//! module may name, is the layering check's (`tests/layering.rs`, against the feature graph);
//! that each feature builds alone is `cargo hack --each-feature`'s. Only trybuild shows what a
//! user sees when a feature is missing. Another feature set runs no case and says so.
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
    ("session-cache", cfg!(feature = "session-cache")),
    ("session-protocol", cfg!(feature = "session-protocol")),
    ("shared-memory", cfg!(feature = "shared-memory")),
];

/// The features that gate items inside other pieces: off in the `gated_below` set.
const LEAVES: &[(&str, bool)] = &[
    ("sealing", cfg!(feature = "sealing")),
    ("record-store-fs", cfg!(feature = "record-store-fs")),
    ("testing", cfg!(feature = "testing")),
];

#[test]
#[ignore = "builds the crate once more for each feature set: run by `scripts/test.sh isolation`"]
fn each_gated_item_names_its_feature_and_each_family_is_reachable() {
    let families_on = FAMILIES.iter().filter(|(_, on)| *on).count();
    let leaves_on = LEAVES.iter().filter(|(_, on)| *on).count();
    let cases = trybuild::TestCases::new();
    match (families_on, leaves_on) {
        (0, 0) => cases.compile_fail("tests/ui/gated/*.rs"),
        (all, 0) if all == FAMILIES.len() => cases.compile_fail("tests/ui/gated_below/*.rs"),
        (all, leaves) if all == FAMILIES.len() && leaves == LEAVES.len() => {
            cases.pass("tests/ui/reach/*.rs");
        }
        _ => eprintln!("isolation: no cases for this feature set; see the sets in the module docs"),
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

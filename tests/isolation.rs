//! Feature isolation, proven by compiling against the crate: a family is unreachable unless its
//! feature is on, and reachable when it is. trybuild builds each case with exactly the features
//! of the `cargo test` invocation, so the test command runs this target once per feature set:
//!
//! ```text
//! cargo test --no-default-features --test isolation
//! cargo test --no-default-features --features analytics --test isolation
//! cargo test --no-default-features --features tui --test isolation
//! cargo test --no-default-features --features agent-core --test isolation
//! cargo test --all-features --test isolation
//! ```
//!
//! Each compile-fail case has a `.stderr` snapshot naming the gate ("the item is gated behind the
//! `analytics` feature"), so a case that fails for another reason fails the test. Snapshots hold
//! rustc's wording: they are made with the toolchain of `rust-toolchain.toml`.
#![cfg(not(target_family = "wasm"))]

#[cfg(not(any(feature = "agent-core", feature = "analytics", feature = "tui")))]
#[test]
fn without_features_no_family_exists() {
    trybuild::TestCases::new().compile_fail("tests/ui/no_features/*.rs");
}

#[cfg(all(
    feature = "analytics",
    not(feature = "agent-core"),
    not(feature = "tui")
))]
#[test]
fn with_only_analytics_nothing_else_exists() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/only_analytics/*.rs");
    cases.pass("tests/ui/reach/analytics.rs");
}

#[cfg(all(
    feature = "tui",
    not(feature = "agent-core"),
    not(feature = "analytics")
))]
#[test]
fn with_only_tui_nothing_else_exists() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/only_tui/*.rs");
    cases.pass("tests/ui/reach/tui.rs");
}

#[cfg(all(
    feature = "agent-core",
    not(feature = "analytics"),
    not(feature = "tui")
))]
#[test]
fn with_only_agent_core_no_family_exists() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/only_agent_core/*.rs");
    cases.pass("tests/ui/reach/agent_core.rs");
}

#[cfg(all(feature = "agent-core", feature = "analytics", feature = "tui"))]
#[test]
fn with_every_family_each_is_reachable() {
    trybuild::TestCases::new().pass("tests/ui/reach/*.rs");
}

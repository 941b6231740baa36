//! The build script: one job, refusing a feature the target cannot carry, before any of the
//! crate compiles, with a message a person can act on.
//!
//! - **`std` and `record-store-fs` need an operating system.** On a bare-metal target
//!   (`target_os = "none"`: Cortex-M, RISC-V `*-none-elf`, `wasm32v1-none`) there is no `std`,
//!   and rustc alone would stop at an obscure "can't find crate for `std`". The script says
//!   which feature needs `std` and what to use instead.
//! - **`record-store-fs` needs a file system.** `wasm32-unknown-unknown` has a `std` whose every
//!   file operation fails at run time; the file medium is refused there (at build time, not at
//!   the first save) and `wasm32-wasip1` named instead. The feature `std` alone is allowed there.
//!
//! Nothing else needs a build script: cargo declares `cfg(docsrs)` itself (the only custom cfg
//! in the crate), and the one counter that needs compare-and-swap picks its implementation with
//! the stable `cfg(target_has_atomic = "32")`.
//!
//! `tests/build_script.rs` includes this file as a module and checks [`instructions`] for each
//! case, then runs one real `cargo check` for a bare-metal target.
use std::env;

fn main() {
    let triple = env::var("TARGET").unwrap_or_default();
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let family = env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let features: Vec<String> = env::vars()
        .filter_map(|(name, _)| {
            name.strip_prefix("CARGO_FEATURE_")
                .map(|f| f.to_ascii_lowercase().replace('_', "-"))
        })
        .collect();
    let features: Vec<&str> = features.iter().map(String::as_str).collect();
    for line in instructions(&triple, &os, &family, &features) {
        println!("{line}");
    }
}

/// What the script tells cargo for a target (its triple, `target_os` and comma-separated
/// `target_family`) and the enabled features (names as in Cargo.toml).
pub(crate) fn instructions(triple: &str, os: &str, family: &str, features: &[&str]) -> Vec<String> {
    let mut lines = vec![String::from("cargo::rerun-if-changed=build.rs")];
    if let Some(refusal) = refusal(triple, os, family, features) {
        lines.push(format!("cargo::error={refusal}"));
    }
    lines
}

/// Why the enabled features cannot be built for the target, if they cannot.
fn refusal(triple: &str, os: &str, family: &str, features: &[&str]) -> Option<String> {
    let on = |feature: &str| features.contains(&feature);
    let bare_metal = os == "none";
    let wasm_without_files = family.split(',').any(|f| f == "wasm") && os == "unknown";
    if on("record-store-fs") && bare_metal {
        Some(format!(
            "the feature `record-store-fs` (the file medium) needs an operating system (std), \
             and target {triple} has none: turn `record-store-fs` off and use `record-store` \
             with its in-memory medium (MemoryMedium) or your own RecordMedium over the \
             board's storage"
        ))
    } else if on("record-store-fs") && wasm_without_files {
        Some(format!(
            "the feature `record-store-fs` (the file medium) needs a file system, and target \
             {triple} has none (its std fails every file operation at run time): build for \
             wasm32-wasip1, or turn `record-store-fs` off and use `record-store` with its \
             in-memory medium (MemoryMedium) or your own RecordMedium over the host's storage"
        ))
    } else if on("std") && bare_metal {
        Some(format!(
            "the feature `std` needs an operating system, and target {triple} has none: turn \
             `std` off; every family and runtime piece but the file medium \
             (`record-store-fs`) is no_std + alloc"
        ))
    } else {
        None
    }
}

//! The build script's job: refusing a feature the target cannot carry with a message a person can
//! act on. Its decisions are checked case by case through the script itself (included as a
//! module), and one real `cargo check` for a bare-metal target proves cargo shows the message and
//! stops before rustc's "can't find crate for `std`".
//!
//! Host only: it spawns cargo.
#![cfg(not(target_family = "wasm"))]

use std::path::Path;
use std::process::Command;

#[allow(dead_code)]
#[path = "../build.rs"]
mod build_script;

use build_script::instructions;

const RERUN: &str = "cargo::rerun-if-changed=build.rs";

/// The `cargo::error=` lines of the script's answer.
fn errors(triple: &str, os: &str, family: &str, features: &[&str]) -> Vec<String> {
    let lines = instructions(triple, os, family, features);
    assert_eq!(lines[0], RERUN, "the script reruns only when it changes");
    lines
        .into_iter()
        .filter_map(|l| l.strip_prefix("cargo::error=").map(str::to_owned))
        .collect()
}

#[test]
fn the_file_medium_on_a_bare_metal_target_is_refused_with_what_to_use_instead() {
    let errors = errors(
        "thumbv7em-none-eabihf",
        "none",
        "",
        &["record-store-fs", "record-store", "std", "session", "serde"],
    );
    assert_eq!(
        errors,
        [
            "the feature `record-store-fs` (the file medium) needs an operating system (std), and \
             target thumbv7em-none-eabihf has none: turn `record-store-fs` off and use \
             `record-store` with its in-memory medium (MemoryMedium) or your own RecordMedium \
             over the board's storage"
        ]
    );
}

#[test]
fn std_alone_on_a_bare_metal_target_is_refused() {
    for triple in [
        "thumbv6m-none-eabi",
        "riscv32imc-unknown-none-elf",
        "wasm32v1-none",
    ] {
        let family = if triple.starts_with("wasm") {
            "wasm"
        } else {
            ""
        };
        let errors = errors(triple, "none", family, &["std"]);
        assert_eq!(errors.len(), 1, "{triple}: {errors:?}");
        assert!(
            errors[0].starts_with(&format!(
                "the feature `std` needs an operating system, and target {triple} has none: turn \
                 `std` off;"
            )),
            "{triple}: {}",
            errors[0]
        );
    }
}

#[test]
fn the_file_medium_on_wasm_without_wasi_is_refused_and_wasip1_named() {
    let errors = errors(
        "wasm32-unknown-unknown",
        "unknown",
        "wasm",
        &["record-store-fs", "record-store", "std"],
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(
            "the feature `record-store-fs` (the file medium) needs a file system, and target \
             wasm32-unknown-unknown has none"
        ),
        "{}",
        errors[0]
    );
    assert!(
        errors[0].contains("build for wasm32-wasip1"),
        "{}",
        errors[0]
    );
    // Its std builds (the feature `std` alone is kept there).
    assert!(self::errors("wasm32-unknown-unknown", "unknown", "wasm", &["std"]).is_empty());
}

#[test]
fn targets_with_an_operating_system_take_every_feature() {
    let every = ["full", "record-store-fs", "std", "testing", "defmt"];
    for (triple, os, family) in [
        ("x86_64-unknown-linux-gnu", "linux", "unix"),
        ("aarch64-apple-darwin", "macos", "unix"),
        ("x86_64-pc-windows-msvc", "windows", "windows"),
        ("wasm32-wasip1", "wasi", "wasm"),
        ("wasm32-unknown-emscripten", "emscripten", "unix,wasm"),
    ] {
        assert!(errors(triple, os, family, &every).is_empty(), "{triple}");
    }
}

#[test]
fn no_std_features_build_everywhere() {
    let no_std = ["full", "testing", "defmt"];
    for (triple, os, family) in [
        ("thumbv7em-none-eabihf", "none", ""),
        ("wasm32-unknown-unknown", "unknown", "wasm"),
    ] {
        assert!(errors(triple, os, family, &no_std).is_empty(), "{triple}");
    }
}

/// One real build: the feature `std` (no dependency, so only the script compiles) for a
/// Cortex-M4F. The target's standard library need not be installed: the script stops the build
/// before anything is compiled for the target.
#[test]
fn cargo_shows_the_refusal_and_stops_before_rustc() {
    let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("build-script-check");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| String::from("cargo"));
    let output = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", &target_dir)
        .args([
            "check",
            "--quiet",
            "--lib",
            "--target",
            "thumbv7em-none-eabihf",
            "--no-default-features",
            "--features",
            "std",
        ])
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "the check passed:\n{stderr}");
    assert!(
        stderr.contains(
            "the feature `std` needs an operating system, and target thumbv7em-none-eabihf has \
             none: turn `std` off"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("can't find crate"), "{stderr}");
}

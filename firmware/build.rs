//! Puts the board's memory layout where the linker looks for it as `memory.x`, so cortex-m-rt's
//! link.x finds it: the LM3S6965 (256 KiB flash, 64 KiB SRAM) by default, the MPS2 AN385 budget
//! (1 MiB flash, 256 KiB SRAM) with feature `mps2-an385`.
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let layout = if env::var_os("CARGO_FEATURE_MPS2_AN385").is_some() {
        "memory-mps2-an385.x"
    } else {
        "memory-lm3s6965.x"
    };
    fs::copy(layout, out.join("memory.x")).expect("the memory layout is readable");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory-lm3s6965.x");
    println!("cargo:rerun-if-changed=memory-mps2-an385.x");
}

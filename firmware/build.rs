//! Puts the board's memory layout where the linker looks for it as `memory.x`, so cortex-m-rt's
//! link.x finds it: the LM3S6965 (256 KiB flash, 64 KiB SRAM) by default, the MPS2 AN385 budget
//! (1 MiB flash, 256 KiB SRAM) with feature `mps2-an385`.
//!
//! It also lists the fuzz targets' checked-in reproducers (`../fuzz/regressions/<target>/*`) as
//! `$OUT_DIR/fuzz_regressions.rs`, each embedded with `include_bytes!`, for the hostile-input
//! images to replay: a reproducer added there is replayed on the board without a change here.
use std::{env, fs, path::Path, path::PathBuf};

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
    regressions(&out);
}

/// Writes `fuzz_regressions.rs`: `REGRESSIONS`, every `(target, file name, bytes)` under
/// `../fuzz/regressions`, sorted by target then name.
fn regressions(out: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    for target in fs::read_dir(&root).expect("fuzz/regressions is readable") {
        let target = target.expect("a directory entry").path();
        if !target.is_dir() {
            continue;
        }
        // A file added to or removed from a target's directory changes the list.
        println!("cargo:rerun-if-changed={}", target.display());
        for file in fs::read_dir(&target).expect("a target's regressions are readable") {
            let file = file.expect("a directory entry").path();
            if file.is_file() {
                println!("cargo:rerun-if-changed={}", file.display());
                files.push(file);
            }
        }
    }
    files.sort();
    let mut text = String::from(
        "/// Every fuzz reproducer: `(fuzz target, file name, bytes)`.\n\
         pub const REGRESSIONS: &[(&str, &str, &[u8])] = &[\n",
    );
    for file in &files {
        let name = |path: &Path| path.file_name().and_then(|n| n.to_str()).map(String::from);
        let target = file.parent().and_then(name).expect("a UTF-8 target name");
        let file_name = name(file).expect("a UTF-8 file name");
        let path = file.canonicalize().expect("the file exists");
        text += &format!("    ({target:?}, {file_name:?}, include_bytes!({path:?})),\n");
    }
    text += "];\n";
    fs::write(out.join("fuzz_regressions.rs"), text).expect("OUT_DIR is writable");
}

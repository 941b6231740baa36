//! Lexical paths of `runtime::policy`: `normalize_path` and `lex_within`.
//!
//! Input: up to three paths separated by NUL bytes (UTF-8, lossily).
//!
//! Properties (documented on the two functions and in the module docs):
//! - nothing panics;
//! - normalising twice changes nothing;
//! - `lex_within(r, p) == lex_within(normalize(r), normalize(p))`;
//! - a path not within itself is opaque, and an opaque path normalises to itself;
//! - never says yes where the normalised path escapes the normalised root: the normalised path
//!   is the root or lies under it component by component (Windows-family names fold ASCII
//!   case, POSIX names compare exactly);
//! - containment is transitive.
#![no_main]

use agent_interface::runtime::policy::{lex_within, normalize_path};
use libfuzzer_sys::fuzz_target;

/// True when the normalised `path` is the normalised `root` or lies under it by whole
/// components (the textual face of "never under-reports"). Windows-family forms (a drive
/// letter or a leading `\`) compare ASCII case-insensitively, POSIX forms exactly.
fn textually_within(root: &str, path: &str) -> bool {
    let windows = root.starts_with('\\') || root.as_bytes().get(1) == Some(&b':');
    let (root, path) = if windows {
        (root.to_ascii_lowercase(), path.to_ascii_lowercase())
    } else {
        (root.to_owned(), path.to_owned())
    };
    let (root, path) = (root.as_str(), path.as_str());
    if root == "." {
        // The relative root with no component: every relative path that does not climb.
        return path != ".." && !path.starts_with("../");
    }
    if path == root {
        return true;
    }
    let Some(rest) = path.strip_prefix(root) else {
        return false;
    };
    root.ends_with(['/', '\\', ':']) || rest.starts_with(['/', '\\'])
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\0');
    let root = parts.next().unwrap_or_default();
    let path = parts.next().unwrap_or(root);
    let third = parts.next().unwrap_or(path);

    for p in [root, path, third] {
        let once = normalize_path(p);
        let twice = normalize_path(&once);
        assert_eq!(twice, once, "normalize is not idempotent on {p:?}");
        if !lex_within(p, p) {
            assert_eq!(once, p, "an opaque path {p:?} is normalised to {once:?}");
        }
    }

    let within = lex_within(root, path);
    let (n_root, n_path) = (normalize_path(root), normalize_path(path));
    assert_eq!(
        within,
        lex_within(&n_root, &n_path),
        "lex_within({root:?}, {path:?}) differs from lex_within({n_root:?}, {n_path:?})"
    );
    if within {
        assert!(
            textually_within(&n_root, &n_path),
            "lex_within({root:?}, {path:?}) but {n_path:?} is not under {n_root:?}"
        );
    }
    if within && lex_within(path, third) {
        assert!(
            lex_within(root, third),
            "not transitive: {root:?} ⊇ {path:?} ⊇ {third:?}"
        );
    }
});

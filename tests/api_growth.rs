//! The room-to-grow rule of `docs/decisions/api-growth.md`, checked on the tree: every public
//! struct or enum with a wire form (a serde derive: it mirrors a contract, and contracts gain
//! members) is `#[non_exhaustive]`, or the decisions document names it among the types kept
//! exhaustive on purpose. A new wire type therefore either can grow or says why it cannot.
//!
//! The check reads `src/` as text: the attributes and doc lines right above each
//! `pub struct`/`pub enum`. Private wire shapes (names ending in `Wire`, which only convert to and
//! from a public type) are not public API and are skipped, and so are structs whose fields are
//! all private (validated newtypes and records built only through constructors can already grow). Types a macro declares
//! (`string_enum!`) are non-exhaustive unless declared `closed`, and are not seen here.
#![cfg(not(target_family = "wasm"))]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// A public struct or enum declared in `text` with its attribute and doc lines.
struct Declared {
    name: String,
    line: usize,
    attributes: String,
    /// A struct whose fields are all private: it can gain fields without `#[non_exhaustive]`.
    sealed: bool,
}

/// Whether the struct declared at `lines[index]` has no public field.
fn fields_private(lines: &[&str], index: usize) -> bool {
    let line = lines[index];
    if let Some(open) = line.find('(') {
        // A tuple struct: its fields are between the parentheses.
        return !line[open..].contains("pub ");
    }
    if !line.trim_end().ends_with('{') {
        return true; // a unit struct
    }
    let indent = line.len() - line.trim_start().len();
    for body in &lines[index + 1..] {
        let trimmed = body.trim_start();
        if trimmed.starts_with('}') && body.len() - trimmed.len() == indent {
            return true;
        }
        if trimmed.starts_with("pub ") {
            return false;
        }
    }
    true
}

fn declarations(text: &str) -> Vec<Declared> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let (rest, is_struct) = match (
            trimmed.strip_prefix("pub struct "),
            trimmed.strip_prefix("pub enum "),
        ) {
            (Some(rest), _) => (rest, true),
            (None, Some(rest)) => (rest, false),
            (None, None) => continue,
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // The lines above up to the previous item: attributes (also across lines) and docs.
        let mut attributes = String::new();
        for above in lines[..index].iter().rev() {
            let above = above.trim();
            let item_boundary = above.is_empty()
                || above.ends_with('}')
                || above.ends_with(';')
                || ["pub ", "fn ", "impl", "mod ", "use ", "struct ", "enum "]
                    .iter()
                    .any(|start| above.starts_with(start));
            if item_boundary {
                break;
            }
            attributes.push_str(above);
            attributes.push('\n');
        }
        found.push(Declared {
            name,
            line: index + 1,
            attributes,
            sealed: is_struct && fields_private(&lines, index),
        });
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The names the decisions document mentions in code spans (`Name`, `Name::new`, …).
fn documented(doc: &str) -> BTreeSet<String> {
    doc.split('`')
        .skip(1)
        .step_by(2)
        .map(|span| {
            span.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// The wire types of `text` that are neither non-exhaustive nor named in `allowed`.
fn undecided(text: &str, allowed: &BTreeSet<String>) -> Vec<(usize, String)> {
    declarations(text)
        .into_iter()
        .filter(|item| {
            let wire =
                item.attributes.contains("Serialize") || item.attributes.contains("Deserialize");
            wire && !item.attributes.contains("non_exhaustive")
                && !item.sealed
                && !item.name.ends_with("Wire")
                && !allowed.contains(&item.name)
        })
        .map(|item| (item.line, item.name))
        .collect()
}

#[test]
fn every_wire_type_can_grow_or_is_documented_as_closed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/decisions/api-growth.md"))
        .expect("the decisions document");
    let allowed = documented(&doc);
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(
        files.len() > 100,
        "the tree was read ({} files)",
        files.len()
    );
    let mut problems = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("a source file");
        for (line, name) in undecided(&text, &allowed) {
            let file = file.strip_prefix(root).unwrap_or(file).display();
            problems.push(format!("{file}:{line}: {name}"));
        }
    }
    assert!(
        problems.is_empty(),
        "public wire types that are neither #[non_exhaustive] nor named in \
         docs/decisions/api-growth.md as exhaustive on purpose:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_check_sees_what_it_must() {
    let allowed: BTreeSet<String> = ["Closed".to_string()].into_iter().collect();
    let text = r#"
/// Grows.
#[derive(Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Grows {
    pub a: u8,
}

/// Forgotten.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize)
)]
pub enum Forgotten {
    A,
}

#[derive(serde::Serialize)]
pub struct Closed;

#[derive(serde::Deserialize)]
pub struct AuditWire {}

#[derive(serde::Serialize)]
pub struct Private(String);

#[derive(serde::Serialize)]
pub struct Open(pub String);

#[derive(serde::Serialize)]
pub struct Fields {
    inner: u8,
}

/// No wire form.
#[derive(Clone)]
pub struct Plain;
"#;
    let found: Vec<String> = undecided(text, &allowed)
        .into_iter()
        .map(|(_, name)| name)
        .collect();
    assert_eq!(found, ["Forgotten", "Open"]);
    let names = documented("keeps `Closed` and `Other::new(a)` exhaustive");
    assert!(names.contains("Closed") && names.contains("Other"));
}

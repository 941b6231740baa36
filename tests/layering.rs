//! The layering check: every module root of `src/` (a contract family, or a runtime piece under
//! `src/runtime/`) may name only the module roots its row of [`EDGES`] allows, and only through
//! their root (`crate::session::turns::TurnHandle`, never `crate::session::turn::TurnHandle`).
//!
//! The check reads the source as text (comments and string literals stripped), follows `crate::`,
//! `$crate::` and `super::` paths including `{…}` groups, and reports each violation as
//! `file:line: <from> names <to> …`. It runs on the real tree and on a fixture with planted leaks,
//! and the table itself is checked against the feature graph in `Cargo.toml`, so that a family can
//! only name what its feature enables.
#![cfg(not(target_family = "wasm"))]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The one table of allowed edges, direct edges only: module root -> the module roots it names
/// directly (exactly the module features its Cargo feature lists). A module may name what its
/// rows reach transitively (`closure`). A new family or runtime piece declares its row here
/// (and its feature in Cargo.toml); the README's and lib.rs's layering tables are checked
/// against it.
#[rustfmt::skip]
const EDGES: &[(&str, &[&str])] = &[
    // base
    ("agent_core", &[]),
    // layer 0
    ("analytics",  &[]),
    ("tui",        &[]),
    ("command",    &["agent_core"]),
    ("execution",  &["agent_core"]),
    ("transport",  &["agent_core"]),
    // layer 1
    ("session",    &["agent_core", "analytics", "command", "execution"]),
    // layer 2
    ("session_mobility", &["session"]),
    // runtime pieces
    ("runtime::policy",     &["agent_core"]),
    ("runtime::reconcile",  &["agent_core"]),
    ("runtime::record_codec", &["session"]),
    ("runtime::record_store", &["runtime::record_codec"]),
    ("runtime::session_cache", &["runtime::reconcile", "session"]),
    ("runtime::session_protocol", &["runtime::transport", "session"]),
    ("runtime::shared_memory", &["agent_core"]),
    ("runtime::transport",  &["transport"]),
    ("runtime::turn_queue", &["session"]),
];

/// Every module root `root` may name through `edges`: its direct edges and theirs, transitively.
fn closure(edges: &[(&str, &[&str])], root: &str) -> BTreeSet<String> {
    let table: BTreeMap<&str, &[&str]> = edges.iter().copied().collect();
    let mut reached = BTreeSet::new();
    let mut stack: Vec<&str> = table.get(root).copied().unwrap_or_default().to_vec();
    while let Some(next) = stack.pop() {
        if reached.insert(next.to_string()) {
            stack.extend(table.get(next).copied().unwrap_or_default());
        }
    }
    reached
}

/// Crate-private support modules (no family): any module may name them, they name no family.
const SUPPORT: &[&str] = &["conformance", "instant", "literal", "setters"];

#[derive(Debug, Clone, PartialEq, Eq)]
struct Violation {
    file: String,
    line: usize,
    message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// Replaces comments, string and char literals by spaces, keeping every newline.
fn strip(source: &str) -> String {
    let b: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !prev_is_ident(&b, i) {
            // raw string r"…", r#"…"#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < b.len() {
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &b[i..j.min(b.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            for &ch in &b[i..(j + 1).min(b.len())] {
                out.push(blank(ch));
            }
            i = j + 1;
        } else if c == '\'' {
            // a char literal ('x', '\n', '\u{1F600}'), not a lifetime ('a)
            let close = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&j| b[j] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(j) => {
                    for _ in i..=j {
                        out.push(' ');
                    }
                    i = j + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prev_is_ident(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Sep, // ::
    Open,
    Close,
    Comma,
    Other,
}

fn tokenize(stripped: &str) -> Vec<(Tok, usize)> {
    let mut toks = Vec::new();
    for (n, line) in stripped.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_alphabetic() || c == '_' || c == '$' {
                let start = i;
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                toks.push((Tok::Ident(chars[start..i].iter().collect()), n + 1));
                continue;
            }
            let tok = match c {
                ':' if chars.get(i + 1) == Some(&':') => {
                    i += 1;
                    Tok::Sep
                }
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                c if c.is_whitespace() => {
                    i += 1;
                    continue;
                }
                _ => Tok::Other,
            };
            toks.push((tok, n + 1));
            i += 1;
        }
    }
    toks
}

/// Collects every absolute path (segments from the crate root) that a path starting at token
/// `i` names, expanding `{…}` groups. `base` is the absolute prefix the path starts from.
fn expand(
    toks: &[(Tok, usize)],
    mut i: usize,
    base: Vec<String>,
    out: &mut Vec<(Vec<String>, usize)>,
) {
    let line = toks[i.saturating_sub(1)].1;
    let mut path = base;
    while let Some((Tok::Sep, _)) = toks.get(i) {
        i += 1;
        match toks.get(i) {
            Some((Tok::Ident(name), _)) if name == "super" => {
                path.pop();
                i += 1;
            }
            Some((Tok::Ident(name), _)) => {
                path.push(name.clone());
                i += 1;
            }
            Some((Tok::Open, _)) => {
                i += 1;
                let mut depth = 0;
                let mut item_start = true;
                while let Some((tok, _)) = toks.get(i) {
                    match tok {
                        Tok::Ident(name) if depth == 0 && item_start => {
                            item_start = false;
                            if name != "self" {
                                let mut sub = path.clone();
                                sub.push(name.clone());
                                expand(toks, i + 1, sub, out);
                            }
                        }
                        Tok::Open => depth += 1,
                        Tok::Close if depth == 0 => break,
                        Tok::Close => depth -= 1,
                        Tok::Comma if depth == 0 => item_start = true,
                        _ => {}
                    }
                    i += 1;
                }
                out.push((path, line));
                return;
            }
            _ => break,
        }
    }
    out.push((path, line));
}

/// The module root a path (from the crate root) names: `session`, or `runtime::turn_queue`.
fn root_of(path: &[String]) -> Option<String> {
    match path.first().map(String::as_str) {
        None => None,
        Some("runtime") => path.get(1).map(|piece| format!("runtime::{piece}")),
        Some(first) => Some(first.to_string()),
    }
}

/// The module path of a file below `src/`: `src/session/turn.rs` -> [session, turn].
fn module_path(relative: &Path) -> Vec<String> {
    let mut segments: Vec<String> = relative
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let file = segments.pop().unwrap_or_default();
    let stem = file.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        segments.push(stem.to_string());
    }
    segments
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The inner modules of a module (its files and folders other than `mod.rs`), by module path.
fn inner_modules(src: &Path, module: &str) -> BTreeSet<String> {
    let dir = src.join(module.replace("::", "/"));
    let Ok(entries) = fs::read_dir(dir) else {
        return BTreeSet::new();
    };
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|stem| stem != "mod")
        .collect()
}

/// The public submodules a module declares in its `mod.rs` (`pub mod turns;`): part of its face,
/// so a path may pass through them.
fn public_modules(src: &Path, module: &str) -> BTreeSet<String> {
    let file = src.join(module.replace("::", "/")).join("mod.rs");
    let Ok(source) = fs::read_to_string(file) else {
        return BTreeSet::new();
    };
    strip(&source)
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub mod "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(|name| name.trim().to_string())
        .collect()
}

/// The first inner file a path (from the crate root) passes into below the module root `target`
/// (whose path has `depth` pieces): the piece after the root and its public submodules, when that
/// piece is a private file or folder of the module it follows (`agent_core::value`).
fn inner_file_of(src: &Path, target: &str, depth: usize, path: &[String]) -> Option<String> {
    let mut module = target.to_string();
    let mut at = depth;
    while let Some(piece) = path.get(at) {
        if public_modules(src, &module).contains(piece) {
            module = format!("{module}::{piece}");
            at += 1;
        } else if inner_modules(src, &module).contains(piece) {
            return Some(format!("{module}::{piece}"));
        } else {
            return None;
        }
    }
    None
}

/// Checks the tree below `crate_dir/src` against `edges`; returns every violation.
fn check(crate_dir: &Path, edges: &[(&str, &[&str])]) -> Vec<Violation> {
    let src = crate_dir.join("src");
    let table: BTreeMap<&str, &[&str]> = edges.iter().copied().collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).expect("below src");
        let shown = format!("src/{}", relative.display()).replace('\\', "/");
        let own_path = module_path(relative);
        let Some(own_root) = root_of(&own_path) else {
            continue;
        };
        if SUPPORT.contains(&own_root.as_str()) {
            continue;
        }
        if !table.contains_key(own_root.as_str()) {
            violations.push(Violation {
                file: shown.clone(),
                line: 1,
                message: format!("module root `{own_root}` has no row in the layering table"),
            });
            continue;
        }
        let allowed = closure(edges, own_root.as_str());
        let source = fs::read_to_string(&file).expect("readable source");
        let toks = tokenize(&strip(&source));
        let mut paths = Vec::new();
        for (i, (tok, _)) in toks.iter().enumerate() {
            let Tok::Ident(name) = tok else { continue };
            let follows_sep = i > 0 && toks[i - 1].0 == Tok::Sep;
            if follows_sep {
                continue;
            }
            match name.as_str() {
                "crate" | "$crate" => expand(&toks, i + 1, Vec::new(), &mut paths),
                "super" => {
                    let mut base = own_path.clone();
                    base.pop();
                    expand(&toks, i + 1, base, &mut paths);
                }
                _ => {}
            }
        }
        let mut seen = BTreeSet::new();
        for (path, line) in paths {
            let Some(target) = root_of(&path) else {
                continue;
            };
            if target == own_root || SUPPORT.contains(&target.as_str()) {
                continue;
            }
            let message = if !allowed.contains(target.as_str()) {
                let list = if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed.iter().cloned().collect::<Vec<_>>().join(", ")
                };
                format!(
                    "{own_root} names {target}: missing edge {own_root} -> {target} (allowed: {list})"
                )
            } else {
                let depth = target.split("::").count();
                match inner_file_of(&src, &target, depth, &path) {
                    Some(inner) => {
                        let (module, _) = inner.rsplit_once("::").expect("a piece below a module");
                        format!(
                            "{own_root} names {inner}, an inner file of {target}: name it through `crate::{module}`"
                        )
                    }
                    None => continue,
                }
            };
            if seen.insert((line, message.clone())) {
                violations.push(Violation {
                    file: shown.clone(),
                    line,
                    message,
                });
            }
        }
    }
    violations
}

/// The `[features]` table of a manifest: feature -> what it enables (text-level parse).
fn features(manifest: &str) -> BTreeMap<String, Vec<String>> {
    let mut map = BTreeMap::new();
    let mut in_features = false;
    let mut pending: Option<(String, String)> = None;
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') && pending.is_none() {
            in_features = line == "[features]";
            continue;
        }
        if !in_features || line.is_empty() {
            continue;
        }
        let (name, mut body) = match pending.take() {
            Some((name, body)) => (name, body + line),
            None => match line.split_once('=') {
                Some((name, body)) => (name.trim().to_string(), body.trim().to_string()),
                None => continue,
            },
        };
        if !body.ends_with(']') {
            pending = Some((name, body));
            continue;
        }
        body.retain(|c| c != '[' && c != ']');
        let list = body
            .split(',')
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect();
        map.insert(name, list);
    }
    map
}

/// The feature that switches a module root on: its last path piece in kebab case
/// (`runtime::turn_queue` -> `turn-queue`), or `<family>-runtime` for a runtime piece named
/// like a family (`runtime::transport` -> `transport-runtime`).
fn feature_of(module_root: &str) -> String {
    // A runtime piece named like the family it implements takes the `-runtime` suffix.
    if let Some(piece) = module_root.strip_prefix("runtime::")
        && EDGES.iter().any(|(root, _)| *root == piece)
    {
        return format!("{}-runtime", piece.replace('_', "-"));
    }
    module_root
        .rsplit("::")
        .next()
        .unwrap_or(module_root)
        .replace('_', "-")
}

#[test]
fn the_real_tree_keeps_the_layering() {
    let violations = check(Path::new(env!("CARGO_MANIFEST_DIR")), EDGES);
    let report: Vec<String> = violations.iter().map(ToString::to_string).collect();
    assert!(
        report.is_empty(),
        "layering violations:\n{}",
        report.join("\n")
    );
}

#[test]
fn every_module_root_of_src_has_a_row() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let roots: BTreeSet<String> = files
        .iter()
        .filter_map(|f| root_of(&module_path(f.strip_prefix(&src).unwrap())))
        .filter(|r| !SUPPORT.contains(&r.as_str()))
        .collect();
    let rows: BTreeSet<String> = EDGES.iter().map(|(r, _)| r.to_string()).collect();
    assert_eq!(
        roots, rows,
        "module roots in src/ and rows of the table differ"
    );
}

#[test]
fn the_table_matches_the_feature_graph() {
    let graph = features(&manifest());
    let by_feature: BTreeMap<String, &str> = EDGES
        .iter()
        .map(|(root, _)| (feature_of(root), *root))
        .collect();
    for (root, direct) in EDGES {
        let feature = feature_of(root);
        let Some(enables) = graph.get(&feature) else {
            panic!("module root `{root}` has no feature `{feature}` in Cargo.toml");
        };
        // The module roots the feature switches on itself (not through another module's
        // feature): the row lists exactly these.
        let enabled: BTreeSet<String> = enables
            .iter()
            .filter_map(|f| by_feature.get(f).map(|target| target.to_string()))
            .collect();
        let direct: BTreeSet<String> = direct.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            direct, enabled,
            "`{root}`'s row lists {direct:?} but its feature `{feature}` enables {enabled:?}"
        );
    }
}

fn manifest() -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("Cargo.toml")
}

/// The rows of the markdown table that follows the line `header` in `text`: cells trimmed.
fn table_after(text: &str, header: &str) -> Vec<Vec<String>> {
    let mut lines = text.lines().skip_while(|line| line.trim() != header);
    assert!(lines.next().is_some(), "no table with header `{header}`");
    lines
        .skip(1) // the |---| line
        .map(str::trim)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

/// The backticked words of a cell: `session`, `runtime::record_codec`.
fn ticked(cell: &str) -> BTreeSet<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// Checks one layering table (module in column `module`, feature in `feature`, the roots it
/// names directly in the last column) against [`EDGES`] and the feature names.
fn check_layering_table(source: &str, rows: &[Vec<String>], module: usize, feature: usize) {
    let table: BTreeMap<&str, &[&str]> = EDGES.iter().copied().collect();
    let mut seen = BTreeSet::new();
    for row in rows {
        let root = ticked(&row[module]).into_iter().next().expect("a module");
        let Some(direct) = table.get(root.as_str()) else {
            panic!("{source}: `{root}` is not a row of the layering table");
        };
        assert_eq!(
            ticked(&row[feature]),
            BTreeSet::from([feature_of(&root)]),
            "{source}: the feature of `{root}`"
        );
        let names = ticked(row.last().expect("cells"));
        let direct: BTreeSet<String> = direct.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, direct, "{source}: what `{root}` names directly");
        seen.insert(root);
    }
    let all: BTreeSet<String> = EDGES.iter().map(|(root, _)| root.to_string()).collect();
    assert_eq!(
        seen, all,
        "{source}: the layering table lists every module root"
    );
}

#[test]
fn the_readme_layering_table_is_the_table() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let rows = table_after(&readme, "| layer | module | feature | names directly |");
    check_layering_table("README.md", &rows, 1, 2);
}

#[test]
fn the_crate_docs_layering_table_is_the_table() {
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    let docs: String = lib
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n");
    let rows = table_after(&docs, "| layer | module | feature | names directly |");
    check_layering_table("src/lib.rs", &rows, 1, 2);
}

/// Every crate a feature switches on, through the features it enables: `dep:x` and `x/feature`
/// entries (weak `x?/feature` entries switch nothing on).
fn dependencies_of(graph: &BTreeMap<String, Vec<String>>, feature: &str) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    let mut visited = BTreeSet::new();
    let mut stack = vec![feature.to_string()];
    while let Some(next) = stack.pop() {
        if !visited.insert(next.clone()) {
            continue;
        }
        for entry in graph.get(&next).cloned().unwrap_or_default() {
            match entry.strip_prefix("dep:") {
                Some(dep) => {
                    deps.insert(dep.to_string());
                }
                None => match entry.split_once('/') {
                    None => stack.push(entry),
                    Some((dep, _)) if !dep.ends_with('?') => {
                        deps.insert(dep.to_string());
                    }
                    Some(_) => {}
                },
            }
        }
    }
    deps
}

#[test]
fn the_readme_features_table_is_the_manifest() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let graph = features(&manifest());
    let rows = table_after(&readme, "| feature | turns on | dependencies |");
    let listed: BTreeSet<String> = rows
        .iter()
        .map(|row| ticked(&row[0]).into_iter().next().expect("a feature"))
        .collect();
    let declared: BTreeSet<String> = graph
        .keys()
        .filter(|feature| *feature != "default")
        .cloned()
        .collect();
    assert_eq!(
        listed, declared,
        "README features table vs Cargo.toml [features]"
    );
    for row in &rows {
        let feature = ticked(&row[0]).into_iter().next().expect("a feature");
        let expected = dependencies_of(&graph, &feature);
        let cell = &row[2];
        let named: BTreeSet<String> = if cell == "none" {
            BTreeSet::new()
        } else {
            cell.split(',')
                .map(|entry| {
                    // `portable-atomic (thumbv6m, riscv32imc)`: the crate is the first word.
                    let name = entry.split_whitespace().next().unwrap_or("");
                    name.to_string()
                })
                .filter(|name| !name.is_empty())
                .collect()
        };
        assert_eq!(
            named, expected,
            "README: the dependencies `{feature}` switches on (cell: {cell:?})"
        );
    }
}

#[test]
fn a_planted_leak_is_reported_with_file_line_and_edge() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/layering_leak");
    let report: Vec<String> = check(&fixture, EDGES)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        report,
        [
            "src/analytics/mod.rs:5: analytics names agent_core: missing edge analytics -> agent_core (allowed: none)",
            "src/analytics/mod.rs:9: analytics names tui: missing edge analytics -> tui (allowed: none)",
            "src/tui/picker.rs:3: tui names analytics: missing edge tui -> analytics (allowed: none)",
            "src/tui/picker.rs:6: tui names agent_core: missing edge tui -> agent_core (allowed: none)",
            "src/widgets/mod.rs:1: module root `widgets` has no row in the layering table",
        ]
    );
}

#[test]
fn a_path_into_an_inner_file_is_reported() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/layering_inner");
    let edges: &[(&str, &[&str])] = &[("agent_core", &[]), ("session", &["agent_core"])];
    let report: Vec<String> = check(&fixture, edges)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        report,
        [
            "src/session/mod.rs:4: session names agent_core::value, an inner file of agent_core: name it through `crate::agent_core`",
            "src/session/mod.rs:8: session names agent_core::values::number, an inner file of agent_core: name it through `crate::agent_core::values`",
        ]
    );
}

#[test]
fn comments_and_strings_do_not_count() {
    let stripped =
        strip("let a = \"crate::x\"; // crate::y\n/* crate::z */ let b = r#\"crate::w\"#; 'c';");
    assert!(!stripped.contains("crate"), "{stripped}");
    assert_eq!(stripped.lines().count(), 2);
    let lifetimes = strip("fn f<'a>(x: &'a str) -> crate::k::T {}");
    assert!(lifetimes.contains("crate::k::T"), "{lifetimes}");
}

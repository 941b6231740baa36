//! Seeded property tests of the lexical paths of the per-session permission rules (feature
//! `policy`, host only: the firmware and wasm runs take the cases of `suites/policy.rs`).
//!
//! Paths come from an alphabet rich in the parts that have broken the rules before: `.`, `..`,
//! `/`, `\`, empty components, drive-like names (`c:`, `C:`, `c:tmp`) at the start and inside a
//! POSIX path, UNC prefixes (`\\server\share`), device and verbatim prefixes (`\\?\`, `\\.\`),
//! `Work`/`work`/`WORK`/`Workshop`, non-ASCII letters and names Windows strips. Over thousands of
//! cases each:
//!
//! - normalising is idempotent and changes no answer of [`lex_within`], on either side;
//! - a Windows-family path answers the same in any ASCII case;
//! - [`SessionPermissionRules::check`] gives rules as written, [`normalize_rules`] of them and
//!   the rules a store keeps ([`decide_put`]) the same verdict for every call;
//! - the tighten gate and enforcement agree about containment, and a dir the gate accepts
//!   allows no write the prior dirs deny.
//!
//! - containment and checking allocate nothing on any of these paths.
//!
//! A failure prints the seed of its case; `POLICY_PATHS_SEED=<seed>` replays that case alone.
#![cfg(not(any(target_family = "wasm", target_os = "none")))]

#[path = "common/counting_allocator.rs"]
mod counting_allocator;
#[path = "suites/seeded.rs"]
mod seeded;

use agent_interface::runtime::policy::{
    PutRulesOptions, SessionPermissionRules, StoredSessionRules, ToolAccess, ToolInvocation,
    Verdict, decide_put, lex_within, loosen_reasons, normalize_path, normalize_rules,
};
use counting_allocator::allocations_in;
use seeded::Seeded;

// ---- the alphabet ---------------------------------------------------------------------------

const STARTS: &[&str] = &[
    "",
    "/",
    "//",
    ".",
    "./",
    "..",
    "../",
    "x/../",
    "c:",
    "C:",
    "c:/",
    "C:\\",
    "d:",
    "\\",
    "\\\\",
    "\\\\server\\share",
    "\\\\SERVER\\Share\\",
    "\\\\server/share/",
    "//server/share/",
    "\\\\?\\",
    "\\\\?\\C:\\",
    "\\\\.\\",
];
const PARTS: &[&str] = &[
    "Work", "work", "WORK", "Workshop", "workshop", "a", "A", "tmp", "etc", ".", "..", "..", "",
    "c:", "C:", "c:tmp", "d:",
];
/// Parts that make most paths opaque (or, inside a POSIX path, a name with `\`), picked less.
const RARE_PARTS: &[&str] = &["\\\\server\\share", "\\\\?\\", "É", "é", "a.", "b "];
const SEPARATORS: &[&str] = &["/", "/", "\\", "\\", "//", "\\\\", "/./", ""];
/// A POSIX path mostly keeps to `/`: a `\` in it makes it opaque.
const POSIX_SEPARATORS: &[&str] = &["/", "/", "//", "/./", ""];

/// Appends `count` parts, each after a separator unless `out` is empty.
fn parts(rng: &mut Seeded, out: &mut String, count: u64) {
    for _ in 0..count {
        if !out.is_empty() {
            let mixed = is_windows_family(out) || rng.chance(1, 6);
            let pool = if mixed { SEPARATORS } else { POSIX_SEPARATORS };
            out.push_str(rng.pick::<&str>(pool));
        }
        let pool = if rng.chance(1, 6) { RARE_PARTS } else { PARTS };
        out.push_str(rng.pick::<&str>(pool));
    }
}

fn random_path(rng: &mut Seeded) -> String {
    let mut path = String::from(*rng.pick::<&str>(STARTS));
    let count = rng.below(6);
    parts(rng, &mut path, count);
    path
}

/// `path` with some ASCII letters in the other case.
fn recase(rng: &mut Seeded, path: &str) -> String {
    path.chars()
        .map(|c| match c {
            _ if !c.is_ascii_alphabetic() || !rng.chance(1, 3) => c,
            _ if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
            _ => c.to_ascii_uppercase(),
        })
        .collect()
}

/// A root and a path: the path is often the root (in another case, sometimes), the root with
/// more parts, or a normalised root with more parts, so containment is often yes, and the
/// extra parts often climb out.
fn random_pair(rng: &mut Seeded) -> (String, String) {
    let root = random_path(rng);
    let mut path = match rng.below(6) {
        0 => return (root, random_path(rng)),
        1 => recase(rng, &root),
        2 => normalize_path(&root),
        _ => root.clone(),
    };
    let count = rng.below(4);
    parts(rng, &mut path, count);
    (root, path)
}

fn is_windows_family(path: &str) -> bool {
    match path.as_bytes() {
        [b'\\', ..] => true,
        [letter, b':', ..] => letter.is_ascii_alphabetic(),
        _ => false,
    }
}

// ---- rules and calls ------------------------------------------------------------------------

fn random_names(rng: &mut Seeded, pool: &[&str]) -> Option<Vec<String>> {
    if rng.chance(1, 2) {
        return None;
    }
    let count = rng.below(3);
    Some((0..count).map(|_| String::from(*rng.pick(pool))).collect())
}

fn random_dirs(rng: &mut Seeded, count: u64) -> Vec<String> {
    (0..count).map(|_| random_path(rng)).collect()
}

fn random_rules(rng: &mut Seeded) -> SessionPermissionRules {
    const TOOLS: &[&str] = &["write_file", "read_file", "bash"];
    const COMMANDS: &[&str] = &["git", "rm"];
    let allow_dirs = if rng.chance(1, 5) {
        None
    } else {
        let count = rng.below(4);
        Some(random_dirs(rng, count))
    };
    SessionPermissionRules {
        tool_allow: random_names(rng, TOOLS),
        tool_deny: random_names(rng, TOOLS),
        allow_dirs,
        command_allow: random_names(rng, COMMANDS),
        command_deny: random_names(rng, COMMANDS),
    }
}

/// A write target: often under one of `dirs` (in another case, sometimes), else anywhere.
fn random_target(rng: &mut Seeded, dirs: Option<&[String]>) -> String {
    match dirs {
        Some(dirs) if !dirs.is_empty() && rng.chance(2, 3) => {
            let dir = rng.pick(dirs).clone();
            let mut path = if rng.chance(1, 3) {
                recase(rng, &dir)
            } else {
                dir
            };
            let count = rng.below(4);
            parts(rng, &mut path, count);
            path
        }
        _ => random_path(rng),
    }
}

fn dirs(dirs: &[&str]) -> SessionPermissionRules {
    SessionPermissionRules {
        allow_dirs: Some(dirs.iter().map(|dir| String::from(*dir)).collect()),
        ..SessionPermissionRules::default()
    }
}

fn write(rules: &SessionPermissionRules, path: &str) -> Verdict {
    rules.check(&ToolInvocation::new(
        "write_file",
        ToolAccess::WritePath(path),
    ))
}

/// The rules a store keeps after a first write of `rules`.
fn stored(rules: SessionPermissionRules) -> StoredSessionRules {
    decide_put(None, rules, PutRulesOptions::expecting(0)).expect("a first write is never refused")
}

// ---- the runner -----------------------------------------------------------------------------

/// Runs `body` once per case, each case with its own generator seeded `base + i`, or only the
/// case `POLICY_PATHS_SEED` names. Returns how many cases ran.
fn cases(base: u64, count: u64, mut body: impl FnMut(u64, &mut Seeded)) -> u64 {
    if let Ok(seed) = std::env::var("POLICY_PATHS_SEED") {
        let digits = seed.trim_start_matches("0x");
        let seed = u64::from_str_radix(digits, 16).expect("POLICY_PATHS_SEED is a hex seed");
        body(seed, &mut Seeded::new(seed));
        return 1;
    }
    for i in 0..count {
        let seed = base.wrapping_add(i);
        body(seed, &mut Seeded::new(seed));
    }
    count
}

fn replaying() -> bool {
    std::env::var_os("POLICY_PATHS_SEED").is_some()
}

// ---- the properties -------------------------------------------------------------------------

#[test]
fn normalising_is_idempotent_and_changes_no_containment_answer() {
    let (mut within, mut folded, mut drive_like, mut opaque) = (0u32, 0u32, 0u32, 0u32);
    let ran = cases(0x5EED_0003_0000_0000, 30_000, |seed, rng| {
        let (root, path) = random_pair(rng);
        let (n_root, n_path) = (normalize_path(&root), normalize_path(&path));
        for (raw, normalised) in [(&root, &n_root), (&path, &n_path)] {
            assert_eq!(
                normalize_path(normalised),
                *normalised,
                "seed {seed:#x}: normalising {raw:?} gave {normalised:?}, which normalises again"
            );
        }
        let answer = lex_within(&root, &path);
        for (r, p) in [(&n_root, &path), (&root, &n_path), (&n_root, &n_path)] {
            assert_eq!(
                lex_within(r, p),
                answer,
                "seed {seed:#x}: {root:?} ⊇ {path:?} is {answer}, but {r:?} ⊇ {p:?} is not"
            );
        }
        within += u32::from(answer);
        folded += u32::from(answer && is_windows_family(&path) && !path.starts_with(&root));
        drive_like += u32::from(n_root.starts_with("./"));
        opaque += u32::from(n_root == root && !lex_within(&root, &root));
    });
    println!(
        "{ran} pairs: {within} within, {folded} in another case, {drive_like} `./`, {opaque} opaque"
    );
    if !replaying() {
        assert!(within > 5_000, "only {within} of {ran} pairs were within");
        assert!(
            folded > 500,
            "only {folded} pairs were within in another case"
        );
        assert!(drive_like > 500, "only {drive_like} roots kept a `./`");
        assert!(opaque > 1_000, "only {opaque} roots were opaque");
    }
}

#[test]
fn windows_paths_answer_the_same_in_any_ascii_case() {
    let mut compared = 0u32;
    let ran = cases(0x5EED_0003_0001_0000, 20_000, |seed, rng| {
        let (root, path) = random_pair(rng);
        if !is_windows_family(&root) || !is_windows_family(&path) {
            return;
        }
        compared += 1;
        let (other_root, other_path) = (recase(rng, &root), recase(rng, &path));
        assert_eq!(
            lex_within(&root, &path),
            lex_within(&other_root, &other_path),
            "seed {seed:#x}: {root:?} ⊇ {path:?} vs {other_root:?} ⊇ {other_path:?}"
        );
    });
    println!("{ran} pairs: {compared} Windows pairs recased");
    if !replaying() {
        assert!(
            compared > 4_000,
            "only {compared} of {ran} pairs were Windows"
        );
    }
}

#[test]
fn rules_as_written_normalised_and_stored_give_the_same_verdicts() {
    const CALLS_PER_RULES: u64 = 8;
    let (mut allowed, mut outside) = (0u32, 0u32);
    let ran = cases(0x5EED_0003_0002_0000, 10_000, |seed, rng| {
        let rules = random_rules(rng);
        let normalised = normalize_rules(rules.clone());
        let kept = stored(rules.clone()).rules;
        assert_eq!(
            normalize_rules(normalised.clone()),
            normalised,
            "seed {seed:#x}: normalising {rules:?} twice"
        );
        for _ in 0..CALLS_PER_RULES {
            let target;
            let access = match rng.below(6) {
                0 => ToolAccess::ReadOnly,
                1 => ToolAccess::Command(if rng.chance(1, 2) { "git" } else { "/bin/rm" }),
                2 => ToolAccess::UnconfinedWrite,
                _ => {
                    target = random_target(rng, rules.allow_dirs.as_deref());
                    ToolAccess::WritePath(&target)
                }
            };
            let tool = *rng.pick(&["write_file", "read_file", "bash"]);
            let call = ToolInvocation::new(tool, access);
            let verdict = rules.check(&call);
            assert_eq!(
                normalised.check(&call),
                verdict,
                "seed {seed:#x}: {call:?} under {rules:?} and normalised {normalised:?}"
            );
            assert_eq!(
                kept.check(&call),
                verdict,
                "seed {seed:#x}: {call:?} under {rules:?} and as stored {kept:?}"
            );
            if let ToolAccess::WritePath(_) = access {
                allowed += u32::from(verdict.is_allowed() && rules.allow_dirs.is_some());
                outside += u32::from(!verdict.is_allowed());
            }
        }
    });
    println!("{ran} rule sets: {allowed} confined writes allowed, {outside} writes denied");
    if !replaying() {
        assert!(
            allowed > 2_000,
            "only {allowed} confined writes of {ran} rule sets were allowed"
        );
        assert!(outside > 2_000, "only {outside} writes were denied");
    }
}

#[test]
fn the_gate_and_enforcement_agree_about_containment() {
    let (mut accepted, mut refused) = (0u32, 0u32);
    let ran = cases(0x5EED_0003_0003_0000, 30_000, |seed, rng| {
        let (root, path) = random_pair(rng);
        let prior = dirs(&[&root]);
        let next = dirs(&[&path]);
        let gate = loosen_reasons(&prior, &next).is_empty();
        let enforced = write(&prior, &path).is_allowed();
        assert_eq!(
            gate, enforced,
            "seed {seed:#x}: adding {path:?} under {root:?}: the gate says {gate}, \
             a write to it is allowed: {enforced}"
        );
        // The same through a store: the prior rules stored, the next ones a non-operator write.
        let kept = stored(prior);
        let put = decide_put(Some(&kept), next, PutRulesOptions::expecting(1)).is_ok();
        let enforced_kept = write(&kept.rules, &path).is_allowed();
        assert_eq!(
            put, gate,
            "seed {seed:#x}: a store decided {put} on adding {path:?} under {root:?}"
        );
        assert_eq!(
            enforced_kept, gate,
            "seed {seed:#x}: the stored {kept:?} allows {path:?}: {enforced_kept}"
        );
        if gate {
            accepted += 1;
        } else {
            refused += 1;
        }
    });
    println!("{ran} pairs: {accepted} accepted, {refused} refused");
    if !replaying() {
        assert!(
            accepted > 5_000,
            "only {accepted} of {ran} dirs were accepted"
        );
        assert!(refused > 5_000, "only {refused} of {ran} dirs were refused");
    }
}

#[test]
fn a_dir_the_gate_accepts_allows_no_write_the_prior_dirs_deny() {
    const TARGETS_PER_CASE: u64 = 8;
    let mut confirmed = 0u32;
    let ran = cases(0x5EED_0003_0004_0000, 10_000, |seed, rng| {
        let prior_count = 1 + rng.below(3);
        let prior = SessionPermissionRules {
            allow_dirs: Some(random_dirs(rng, prior_count)),
            ..SessionPermissionRules::default()
        };
        let prior_dirs = prior.allow_dirs.clone().unwrap_or_default();
        // Next dirs: mostly a prior dir, recased or extended, so the gate often accepts.
        let next_count = 1 + rng.below(2);
        let next_dirs: Vec<String> = (0..next_count)
            .map(|_| random_target(rng, Some(&prior_dirs)))
            .collect();
        let next = SessionPermissionRules {
            allow_dirs: Some(next_dirs.clone()),
            ..SessionPermissionRules::default()
        };
        if !loosen_reasons(&prior, &next).is_empty() {
            return;
        }
        for _ in 0..TARGETS_PER_CASE {
            let target = random_target(rng, Some(&next_dirs));
            if write(&next, &target).is_allowed() {
                confirmed += 1;
                assert!(
                    write(&prior, &target).is_allowed(),
                    "seed {seed:#x}: {next_dirs:?} passed the gate over {prior_dirs:?}, and \
                     allows {target:?}, which the prior dirs deny"
                );
            }
        }
    });
    println!("{ran} cases: {confirmed} writes allowed by accepted dirs");
    if !replaying() {
        assert!(
            confirmed > 3_000,
            "only {confirmed} writes of {ran} cases were allowed by accepted dirs"
        );
    }
}

#[test]
fn containment_and_checks_allocate_nothing_on_the_alphabet() {
    let mut rng = Seeded::new(0x5EED_0003_0005_0000);
    let pairs: Vec<(String, String)> = (0..2_000).map(|_| random_pair(&mut rng)).collect();
    let rules: Vec<SessionPermissionRules> = pairs
        .iter()
        .map(|(root, _)| dirs(&[root, "C:\\Work", "\\\\Server\\Share"]))
        .collect();
    let mut within = 0usize;
    let count = allocations_in(|| {
        for ((root, path), rules) in pairs.iter().zip(&rules) {
            within += usize::from(lex_within(root, path));
            within += usize::from(write(rules, path).is_allowed());
        }
    });
    assert_eq!(count, 0, "allocations over {} pairs", pairs.len());
    assert!(within > 500, "only {within} answers were yes");
}

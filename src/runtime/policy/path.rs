//! Lexical paths: how the rules read a directory or a write target without a file system.
//!
//! Every path is first classified, then compared component by component after `.`, `..` and
//! repeated separators are resolved. Nothing here allocates except [`normalize_path`], which
//! builds the stored form.
//!
//! # Families
//!
//! - **Windows**: a path that starts with a drive letter (`C:`, `c:`) or with `\`. Both `\` and
//!   `/` separate components, and the whole path folds ASCII case (`C:\Work` and `c:/work` are
//!   one directory; `C:\Workshop` is not within `C:\Work`). Non-ASCII letters do not fold:
//!   a volume's own upper-case table may not fold them, and a fold it lacks would say "within"
//!   for another directory (docs/decisions/policy.md).
//!   - `\\server\share\…` (UNC): server and share are part of the prefix and fold case too;
//!     `..` never climbs above the share.
//!   - `\dir`: rooted at the current drive; it is never within a drive path, nor the reverse.
//! - **POSIX**: any other path; only `/` separates, a leading `/` roots it, `..` never climbs
//!   above the root, and names compare exactly (case-sensitive).
//!
//! Paths of different families, or with different prefixes or rootedness, never contain one
//! another. A relative path is read against the same (unknown) working directory as any other
//! relative path, so `work` contains `work/a`, `..` is kept at its start, and a relative path is
//! never within an absolute one.
//!
//! One comparison ([`lex_within`]) serves the tighten gate and enforcement alike, and
//! [`normalize_path`] never moves a path to another family, prefix or rootedness: normalising is
//! idempotent and changes no answer.
//!
//! # Opaque paths
//!
//! Some paths mean different things to different readers, or to Windows and to this lexer. They
//! are *opaque*: an opaque path is within nothing, nothing is within it, and [`normalize_path`]
//! leaves it as written. So an opaque target is denied while `allowDirs` is set, an opaque
//! `allowDirs` entry allows no write, and a non-operator write that adds one loosens.
//!
//! - A POSIX-family path containing `\` (to a POSIX file system `a\..\b` is one name, to a
//!   Windows runtime reading forward-slash paths it climbs out).
//! - Windows device and verbatim paths (`\\?\…`, `\\.\…`), and a UNC path without a server or
//!   share.
//! - A Windows path with a component that ends in `.` or a space, other than `.` and `..`
//!   (Windows strips those characters, so `work.` is `work` and `... ` may climb).
//! - A Windows path with a component holding `?` (no Win32 name may; `\??\C:\x` is the NT
//!   namespace's drive C, not a folder `??` of the current drive).

use alloc::string::String;
use alloc::vec::Vec;

/// Which reader a path was written for (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Posix,
    Windows,
}

/// What comes before the rooted or relative part. Compared with [`same_prefix`], never with
/// `==` (server and share names fold case).
#[derive(Clone, Copy, Debug)]
enum Prefix<'a> {
    /// No prefix: a POSIX path, or a Windows path rooted at the current drive.
    None,
    /// A drive letter, lowercased.
    Drive(u8),
    /// `\\server\share`.
    Unc { server: &'a str, share: &'a str },
}

/// A classified, non-opaque path: the part after the prefix is `rest` (its leading separators
/// are empty components, which resolve away).
#[derive(Clone, Copy, Debug)]
struct Parsed<'a> {
    family: Family,
    prefix: Prefix<'a>,
    rooted: bool,
    rest: &'a str,
}

fn is_windows_separator(c: char) -> bool {
    c == '/' || c == '\\'
}

/// The drive letter, lowercased, when `path` starts with one (`C:`, `c:`): the test that puts a
/// path in the Windows family, and the one [`normalize_path`] keeps a POSIX path from passing.
fn drive_letter(path: &str) -> Option<u8> {
    match path.as_bytes() {
        [letter, b':', ..] if letter.is_ascii_alphabetic() => Some(letter.to_ascii_lowercase()),
        _ => None,
    }
}

/// Whether two components (or server or share names) of `family` name the same thing: the one
/// comparison behind [`lex_within`], so the tighten gate and enforcement cannot disagree.
/// Windows names fold ASCII case (`Work` is `WORK`; `É` is not `é`); POSIX names compare exactly.
fn same_name(family: Family, a: &str, b: &str) -> bool {
    match family {
        Family::Posix => a == b,
        Family::Windows => a.eq_ignore_ascii_case(b),
    }
}

/// Whether two prefixes are the same (drive letters are stored lowercased).
fn same_prefix(a: Prefix<'_>, b: Prefix<'_>) -> bool {
    match (a, b) {
        (Prefix::None, Prefix::None) => true,
        (Prefix::Drive(a), Prefix::Drive(b)) => a == b,
        (
            Prefix::Unc { server, share },
            Prefix::Unc {
                server: other_server,
                share: other_share,
            },
        ) => {
            same_name(Family::Windows, server, other_server)
                && same_name(Family::Windows, share, other_share)
        }
        _ => false,
    }
}

/// The components of `rest` from the last to the first, split the way `family` splits.
fn parts_rev(rest: &str, family: Family) -> RevParts<'_> {
    RevParts {
        rest: Some(rest),
        windows: family == Family::Windows,
    }
}

/// Splits on the ASCII separators from the end, byte-wise (a separator byte never occurs inside
/// a multi-byte UTF-8 sequence, so every cut is on a character boundary).
struct RevParts<'a> {
    rest: Option<&'a str>,
    windows: bool,
}

impl<'a> Iterator for RevParts<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        let windows = self.windows;
        let cut = rest
            .as_bytes()
            .iter()
            .rposition(|&b| b == b'/' || (windows && b == b'\\'));
        match cut {
            Some(at) => {
                self.rest = rest.get(..at);
                rest.get(at + 1..)
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// True when Windows would strip a trailing character from this component.
fn strippable(component: &str) -> bool {
    component != "." && component != ".." && (component.ends_with('.') || component.ends_with(' '))
}

/// True when a Windows-family component cannot be read lexically: Windows strips its trailing
/// character, or it holds a `?`, which no Win32 file name may hold and which marks the NT and
/// verbatim namespaces (`\??\C:\x` is drive C, not a folder `??` of the current drive).
fn unreadable(component: &str) -> bool {
    strippable(component) || component.contains('?')
}

/// Classifies `path`; `None` when it is opaque.
fn parse(path: &str) -> Option<Parsed<'_>> {
    let parsed = match (drive_letter(path), path.as_bytes()) {
        (Some(letter), _) => {
            let rest = path.get(2..)?;
            Parsed {
                family: Family::Windows,
                prefix: Prefix::Drive(letter),
                rooted: rest.starts_with(is_windows_separator),
                rest,
            }
        }
        (None, [b'\\', b'\\' | b'/', ..]) => parse_unc(path.get(2..)?)?,
        (None, [b'\\', ..]) => Parsed {
            family: Family::Windows,
            prefix: Prefix::None,
            rooted: true,
            rest: path,
        },
        _ if path.contains('\\') => return None,
        _ => Parsed {
            family: Family::Posix,
            prefix: Prefix::None,
            rooted: path.starts_with('/'),
            rest: path,
        },
    };
    if parsed.family == Family::Windows && parts_rev(parsed.rest, Family::Windows).any(unreadable) {
        return None;
    }
    Some(parsed)
}

/// Reads `server\share\rest` after the leading `\\`; device, verbatim and malformed UNC paths
/// are opaque.
fn parse_unc(body: &str) -> Option<Parsed<'_>> {
    let mut pieces = body.splitn(3, is_windows_separator);
    let server = pieces.next()?;
    let share = pieces.next()?;
    let rest = pieces.next().unwrap_or("");
    let named = |name: &str| !name.is_empty() && name != "." && name != ".." && !strippable(name);
    if server == "?" || !named(server) || !named(share) {
        return None;
    }
    Some(Parsed {
        family: Family::Windows,
        prefix: Prefix::Unc { server, share },
        rooted: true,
        rest,
    })
}

/// The components that survive resolving `.`, `..` and empty components, from the last to the
/// first. Once exhausted, `ups` is how many `..` climbed above the first surviving component.
struct Kept<I> {
    parts: I,
    ups: usize,
}

impl<'a, I: Iterator<Item = &'a str>> Iterator for Kept<I> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        for part in self.parts.by_ref() {
            match part {
                "" | "." => {}
                ".." => self.ups = self.ups.saturating_add(1),
                _ if self.ups > 0 => self.ups -= 1,
                _ => return Some(part),
            }
        }
        None
    }
}

impl<'a> Parsed<'a> {
    fn kept(&self) -> Kept<RevParts<'a>> {
        Kept {
            parts: parts_rev(self.rest, self.family),
            ups: 0,
        }
    }

    /// How many components survive, and how many leading `..` remain (none when rooted: `..`
    /// stops at the root).
    fn shape(&self) -> (usize, usize) {
        let mut kept = self.kept();
        let count = kept.by_ref().count();
        let ups = if self.rooted { 0 } else { kept.ups };
        (count, ups)
    }
}

/// Lexical containment (the tighten gate's `lexWithin`): true when `path` is `root` or lies
/// under it once both are normalised.
///
/// Both paths are resolved first (`.`, `..`, repeated separators), so `<root>/../etc` is not
/// within `<root>`; Windows-family paths fold `\` into `/` and ASCII case (POSIX paths are
/// case-sensitive); opaque paths (see the module docs) are never within anything and contain
/// nothing. It never says yes where the normalised `path` escapes the normalised `root`, and
/// normalising either argument changes no answer: `lex_within(root, path)` equals
/// `lex_within(&normalize_path(root), path)` and `lex_within(root, &normalize_path(path))`.
///
/// The tighten gate ([`loosen_reasons`](super::loosen_reasons)) and enforcement
/// ([`SessionPermissionRules::check`](super::SessionPermissionRules::check)) both decide
/// containment here, so they agree.
///
/// It is lexical: it cannot see symlinks. A directory whose last component is a symlink to
/// elsewhere is "within" here and resolves elsewhere at run time.
///
/// Allocation-free and linear in the lengths of both paths.
#[must_use]
pub fn lex_within(root: &str, path: &str) -> bool {
    Target::new(path).is_some_and(|target| target.within(root))
}

/// True when `path` is [`lex_within`] at least one of `roots`; the path is read once.
pub(super) fn lex_within_any(roots: &[String], path: &str) -> bool {
    Target::new(path).is_some_and(|target| roots.iter().any(|root| target.within(root)))
}

/// A non-opaque path, read once, to compare with several roots.
struct Target<'a> {
    parsed: Parsed<'a>,
    count: usize,
    ups: usize,
}

impl<'a> Target<'a> {
    fn new(path: &'a str) -> Option<Self> {
        let parsed = parse(path)?;
        let (count, ups) = parsed.shape();
        Some(Self { parsed, count, ups })
    }

    fn within(&self, root: &str) -> bool {
        let Some(root) = parse(root) else {
            return false;
        };
        let path = &self.parsed;
        if root.family != path.family
            || root.rooted != path.rooted
            || !same_prefix(root.prefix, path.prefix)
        {
            return false;
        }
        let (root_count, root_ups) = root.shape();
        if root_ups != self.ups || self.count < root_count {
            return false;
        }
        path.kept()
            .skip(self.count - root_count)
            .zip(root.kept())
            .all(|(a, b)| same_name(path.family, a, b))
    }
}

/// The normalised form of a path (`normalizeRules` applies it to every `allowDirs` entry).
///
/// `.`, `..` and repeated separators are resolved and a trailing separator dropped; a POSIX
/// path becomes `/a/b`, `../a` or `.` (the empty path too); a Windows-family path gets an
/// upper-case drive letter and `\` separators (`C:\a\b`, `C:a`, `\\server\share\a`, `\a`) and
/// otherwise keeps its case. A relative POSIX path whose first component would read as a drive
/// keeps a leading `./` (`x/../c:/tmp` becomes `./c:/tmp`, not drive C's `c:/tmp`). Opaque paths
/// (see the module docs) are returned as written. Normalising twice changes nothing, and
/// [`lex_within`] answers the same for a path and its normalised form.
#[must_use]
pub fn normalize_path(path: &str) -> String {
    let Some(parsed) = parse(path) else {
        return String::from(path);
    };
    let mut kept = parsed.kept();
    let mut components: Vec<&str> = kept.by_ref().collect();
    components.reverse();
    let ups = if parsed.rooted { 0 } else { kept.ups };
    let separator = match parsed.family {
        Family::Posix => '/',
        Family::Windows => '\\',
    };

    let mut out = String::with_capacity(path.len().saturating_add(2));
    let mut need_separator = false;
    match parsed.prefix {
        // A relative POSIX path that would start `c:` keeps `./`, or it would read as drive C.
        Prefix::None
            if parsed.family == Family::Posix
                && !parsed.rooted
                && ups == 0
                && components
                    .first()
                    .is_some_and(|first| drive_letter(first).is_some()) =>
        {
            out.push('.');
            need_separator = true;
        }
        Prefix::None => {}
        Prefix::Drive(letter) => {
            out.push(char::from(letter.to_ascii_uppercase()));
            out.push(':');
        }
        Prefix::Unc { server, share } => {
            out.push_str("\\\\");
            out.push_str(server);
            out.push('\\');
            out.push_str(share);
            need_separator = true;
        }
    }
    if parsed.rooted && !need_separator {
        out.push(separator);
    }
    for component in core::iter::repeat_n("..", ups).chain(components) {
        if need_separator {
            out.push(separator);
        }
        out.push_str(component);
        need_separator = true;
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let parsed = parse("/a/./b/../c/").expect("posix");
        assert_eq!(parsed.shape(), (2, 0));
        let parsed = parse("../../a").expect("relative");
        assert_eq!(parsed.shape(), (1, 2));
        assert!(parse("\\\\?\\C:\\x").is_none());
        assert!(parse("/a\\b").is_none());
    }

    #[test]
    fn normalised_forms_keep_their_family_prefix_and_rootedness() {
        for path in [
            "./c:",
            "x/../c:/tmp",
            "a/../Z:b",
            "../c:",
            "/c:",
            "c:",
            r"C:x\..\d:",
            r"\\Srv\Share\..",
            r"\x\..\..",
            "",
            "a/..",
        ] {
            let before = parse(path).expect("not opaque");
            let normalised = normalize_path(path);
            let after = parse(&normalised).expect("still not opaque");
            assert_eq!(before.family, after.family, "{path:?} → {normalised:?}");
            assert_eq!(before.rooted, after.rooted, "{path:?} → {normalised:?}");
            assert!(
                same_prefix(before.prefix, after.prefix),
                "{path:?} → {normalised:?}"
            );
            assert_eq!(before.shape(), after.shape(), "{path:?} → {normalised:?}");
        }
    }

    #[test]
    fn names_fold_only_in_the_windows_family_and_only_ascii() {
        assert!(same_name(Family::Windows, "Work", "wORK"));
        assert!(!same_name(Family::Windows, "Work", "Workshop"));
        assert!(!same_name(Family::Windows, "É", "é"));
        assert!(!same_name(Family::Posix, "Work", "work"));
        assert!(same_prefix(
            Prefix::Unc {
                server: "SRV",
                share: "Share"
            },
            Prefix::Unc {
                server: "srv",
                share: "sHARE"
            }
        ));
        assert!(!same_prefix(Prefix::Drive(b'c'), Prefix::None));
    }
}

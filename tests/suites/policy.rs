//! Cases of the per-session permission rules (`policy`): the rules type and its strict decoder,
//! golden JSON, lexical paths, the loosen gate, the write decision and the in-memory store (with
//! the conformance suite, and stores with one defect each failing it), enforcement of one tool
//! call, and the property tests. Uses only `core`, `alloc`, serde_json and the crate, so it
//! also runs on the firmware and wasm.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt;
use core::num::NonZeroU64;

use agent_interface::agent_core::{ErrorValue, ToolCall, ToolCallFunction, Value};
use agent_interface::conformance::{EveryCase, StopAtFirst, SuiteCase};
use agent_interface::runtime::policy::testing::{
    PolicyStoreCase, PolicyStoreConformanceFailure, PolicyStoreFixture, PolicyStoreProblem,
    run_policy_store_case, run_policy_store_conformance,
};
use agent_interface::runtime::policy::*;

use crate::support::{block_on, golden, rejects, s, to_json};

#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

fn names(items: &[&str]) -> Option<Vec<String>> {
    Some(items.iter().map(|item| s(item)).collect())
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("test JSON")
}

fn full_rules() -> SessionPermissionRules {
    SessionPermissionRules {
        tool_allow: names(&["read_file", "write_file", "bash"]),
        tool_deny: names(&["delete_file"]),
        allow_dirs: names(&["/work/project", "C:\\Users\\me\\src"]),
        command_allow: names(&["git", "ls"]),
        command_deny: names(&["rm", "curl"]),
    }
}

fn rev(n: u64) -> NonZeroU64 {
    NonZeroU64::new(n).expect("non-zero")
}

// ---- an independent model of lexical paths, for the property tests ----------------------

/// A path read the simple way: fold `\` into `/`, lowercase a Windows path (one that starts with
/// a drive letter or `\`) in ASCII, take `//server/share` as a prefix, resolve `.`/`..` with a
/// stack. `None` for the prefix kinds the model does not read (device paths).
#[derive(Debug, PartialEq)]
struct Model {
    prefix: String,
    rooted: bool,
    ups: usize,
    components: Vec<String>,
}

fn model(path: &str) -> Option<Model> {
    let raw = path.as_bytes();
    let windows = path.starts_with('\\')
        || (raw.len() >= 2 && raw[1] == b':' && raw[0].is_ascii_alphabetic());
    let folded: String = path
        .chars()
        .map(|c| match c {
            '\\' => '/',
            _ if windows => c.to_ascii_lowercase(),
            _ => c,
        })
        .collect();
    let bytes = folded.as_bytes();
    let (prefix, rest) = if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        (folded[..2].to_ascii_lowercase(), &folded[2..])
    } else if let Some(unc) = folded.strip_prefix("//").filter(|_| path.starts_with('\\')) {
        let mut pieces = unc.splitn(3, '/');
        let server = pieces.next().unwrap_or("");
        let share = pieces.next().unwrap_or("");
        if server == "?" || server == "." {
            return None;
        }
        (format!("//{server}/{share}"), pieces.next().unwrap_or(""))
    } else {
        (String::new(), folded.as_str())
    };
    let rooted = prefix.starts_with("//") || rest.starts_with('/');
    let mut stack: Vec<String> = Vec::new();
    let mut ups = 0;
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if stack.pop().is_none() && !rooted {
                    ups += 1;
                }
            }
            _ => stack.push(s(part)),
        }
    }
    Some(Model {
        prefix,
        rooted,
        ups,
        components: stack,
    })
}

/// True when the model reads `path` as `root` or under it.
fn model_within(root: &str, path: &str) -> bool {
    let (Some(root), Some(path)) = (model(root), model(path)) else {
        return false;
    };
    root.prefix == path.prefix
        && root.rooted == path.rooted
        && root.ups == path.ups
        && path.components.len() >= root.components.len()
        && root
            .components
            .iter()
            .zip(&path.components)
            .all(|(a, b)| a == b)
}

const STARTS: &[&str] = &[
    "",
    "/",
    "//",
    "./",
    "../",
    "C:\\",
    "c:/",
    "D:",
    "\\",
    "\\\\srv\\share\\",
    "//srv/share/",
    "\\\\?\\C:\\",
];
const SEGMENTS: &[&str] = &[
    "a", "b", "work", "etc", "..", "..", ".", "", "a.", "x y ", "C:", "Work",
];
const SEPARATORS: &[&str] = &["/", "/", "\\", "//", "\\\\"];

fn segments(rng: &mut Seeded, out: &mut String, count: u64) {
    for i in 0..count {
        if i > 0 || (!out.is_empty() && !out.ends_with(['/', '\\', ':'])) {
            out.push_str(rng.pick::<&str>(SEPARATORS));
        }
        out.push_str(rng.pick::<&str>(SEGMENTS));
    }
}

fn random_path(rng: &mut Seeded) -> String {
    let mut path = s(rng.pick::<&str>(STARTS));
    let count = rng.below(5);
    segments(rng, &mut path, count);
    path
}

/// A prior dir and a path, the path often built under the dir so that containment is often
/// yes, and often smuggles a `..` out of it.
fn random_pair(rng: &mut Seeded) -> (String, String) {
    let root = random_path(rng);
    let path = if rng.chance(2, 3) {
        let mut path = root.clone();
        let count = 1 + rng.below(4);
        segments(rng, &mut path, count);
        path
    } else {
        random_path(rng)
    };
    (root, path)
}

// ---- rule sets for the gate property ------------------------------------------------------

const TOOLS: &[&str] = &["read_file", "write_file", "bash", "edit_file"];
const COMMANDS: &[&str] = &["git", "rm", "ls"];
const DIRS: &[&str] = &[
    "/w",
    "/w/a",
    "/w/a/b",
    "/x",
    "/w/../x",
    "/w/a/..",
    "/w//a/./b/",
    "C:\\w",
    "c:/w/a",
    "/w/odd\\name",
];

fn random_list(rng: &mut Seeded, pool: &[&str]) -> Option<Vec<String>> {
    if rng.chance(1, 3) {
        return None;
    }
    let count = rng.below(4);
    Some((0..count).map(|_| s(rng.pick::<&str>(pool))).collect())
}

/// A rule set near `prior`: one field kept, narrowed, widened, dropped or replaced, the others
/// as they were.
fn nearby_rules(rng: &mut Seeded, prior: &SessionPermissionRules) -> SessionPermissionRules {
    let mut next = prior.clone();
    let (list, pool) = match rng.below(5) {
        0 => (&mut next.tool_allow, TOOLS),
        1 => (&mut next.tool_deny, TOOLS),
        2 => (&mut next.allow_dirs, DIRS),
        3 => (&mut next.command_allow, COMMANDS),
        _ => (&mut next.command_deny, COMMANDS),
    };
    *list = match rng.below(5) {
        0 => list
            .as_ref()
            .map(|list| list.iter().skip(1).cloned().collect()),
        1 => {
            let mut grown = list.clone().unwrap_or_default();
            grown.push(s(rng.pick::<&str>(pool)));
            Some(grown)
        }
        2 => None,
        3 => list.clone(),
        _ => random_list(rng, pool),
    };
    next
}

/// A rule set that only tightens `prior`: more denies, smaller allowlists, deeper dirs.
fn tighter_rules(rng: &mut Seeded, prior: &SessionPermissionRules) -> SessionPermissionRules {
    let mut deny = |list: &Option<Vec<String>>, pool: &[&str]| {
        let mut grown = list.clone().unwrap_or_default();
        if rng.chance(1, 2) {
            grown.push(s(rng.pick::<&str>(pool)));
        }
        Some(grown)
    };
    let tool_deny = deny(&prior.tool_deny, TOOLS);
    let command_deny = deny(&prior.command_deny, COMMANDS);
    let mut allow = |list: &Option<Vec<String>>, pool: &[&str]| match list {
        Some(list) => Some(list.iter().skip(rng.below(2) as usize).cloned().collect()),
        None if rng.chance(1, 2) => random_list(rng, pool),
        None => None,
    };
    let tool_allow = allow(&prior.tool_allow, TOOLS);
    let command_allow = allow(&prior.command_allow, COMMANDS);
    let allow_dirs = match &prior.allow_dirs {
        Some(dirs) => Some(
            dirs.iter()
                .map(|dir| match rng.below(3) {
                    0 => dir.clone(),
                    1 => format!("{dir}/sub"),
                    _ => format!("{dir}/./x/../y"),
                })
                .collect(),
        ),
        None => random_list(rng, DIRS),
    };
    SessionPermissionRules {
        tool_allow,
        tool_deny,
        allow_dirs,
        command_allow,
        command_deny,
    }
}

fn random_rules(rng: &mut Seeded) -> SessionPermissionRules {
    SessionPermissionRules {
        tool_allow: random_list(rng, TOOLS),
        tool_deny: random_list(rng, TOOLS),
        allow_dirs: random_list(rng, DIRS),
        command_allow: random_list(rng, COMMANDS),
        command_deny: random_list(rng, COMMANDS),
    }
}

/// The gate as sets: true when `next` loosens `prior` (directories through `lex_within`).
fn model_loosens(prior: &SessionPermissionRules, next: &SessionPermissionRules) -> bool {
    let deny_loosens = |prior: &Option<Vec<String>>, next: &Option<Vec<String>>| match prior {
        None => false,
        Some(prior) => prior
            .iter()
            .any(|name| !next.as_ref().is_some_and(|next| next.contains(name))),
    };
    let allow_loosens =
        |prior: &Option<Vec<String>>, next: &Option<Vec<String>>| match (prior, next) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(prior), Some(next)) => next.iter().any(|name| !prior.contains(name)),
        };
    let dirs_loosen = match (&prior.allow_dirs, &next.allow_dirs) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(prior), Some(next)) => next
            .iter()
            .any(|dir| !prior.iter().any(|root| lex_within(root, dir))),
    };
    deny_loosens(&prior.tool_deny, &next.tool_deny)
        || deny_loosens(&prior.command_deny, &next.command_deny)
        || allow_loosens(&prior.tool_allow, &next.tool_allow)
        || allow_loosens(&prior.command_allow, &next.command_allow)
        || dirs_loosen
}

// ---- a second store, built on `decide_put`, with one defect at a time ----------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defect {
    None,
    IgnoresExpectedRev,
    AlwaysOperator,
    KeepsRawDirs,
    RevSkips,
    LoosenBeforeConflict,
    FallsBackToDefault,
    ListsOnlyDefault,
    DeleteKeepsPrincipals,
    RevSurvivesDelete,
    Unreachable,
}

#[derive(Debug)]
struct Unreachable;

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("connection refused")
    }
}

impl core::error::Error for Unreachable {}

type Key = (String, Option<String>);

/// A flat-map store the way a durable backend is written: read the row, `decide_put`, write.
struct FlatStore {
    defect: Defect,
    rows: RefCell<BTreeMap<Key, StoredSessionRules>>,
    deleted: RefCell<BTreeMap<Key, u64>>,
}

impl FlatStore {
    fn new(defect: Defect) -> Self {
        Self {
            defect,
            rows: RefCell::new(BTreeMap::new()),
            deleted: RefCell::new(BTreeMap::new()),
        }
    }

    fn up(&self) -> Result<(), Unreachable> {
        if self.defect == Defect::Unreachable {
            Err(Unreachable)
        } else {
            Ok(())
        }
    }
}

fn key(session: &str, principal: Option<&str>) -> Key {
    (s(session), principal.map(s))
}

impl SessionPolicyStore for FlatStore {
    type Error = Unreachable;

    async fn get_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
    ) -> Result<Option<StoredSessionRules>, Unreachable> {
        self.up()?;
        let rows = self.rows.borrow();
        let found = rows.get(&key(session_id, principal)).cloned();
        if found.is_none() && self.defect == Defect::FallsBackToDefault {
            return Ok(rows.get(&key(session_id, None)).cloned());
        }
        Ok(found)
    }

    async fn put_rules(
        &self,
        session_id: &str,
        principal: Option<&str>,
        rules: SessionPermissionRules,
        mut options: PutRulesOptions,
    ) -> Result<StoredSessionRules, PutRulesError<Unreachable>> {
        self.up().map_err(PutRulesError::Backend)?;
        let k = key(session_id, principal);
        let current = self.rows.borrow().get(&k).cloned();
        let raw_dirs = rules.allow_dirs.clone();
        match self.defect {
            Defect::IgnoresExpectedRev => options.expected_rev = None,
            Defect::AlwaysOperator => options.operator = true,
            Defect::LoosenBeforeConflict if !options.operator => {
                if let Some(current) = &current {
                    let reasons = loosen_reasons(&current.rules, &normalize_rules(rules.clone()));
                    if !reasons.is_empty() {
                        return Err(SessionPolicyError::LoosenForbidden { reasons }.into());
                    }
                }
            }
            _ => {}
        }
        let mut stored = decide_put(current.as_ref(), rules, options)?;
        match self.defect {
            Defect::KeepsRawDirs => stored.rules.allow_dirs = raw_dirs,
            Defect::RevSkips if current.is_some() => stored.rev = stored.rev.saturating_add(1),
            Defect::RevSurvivesDelete if current.is_none() => {
                if let Some(old) = self.deleted.borrow().get(&k) {
                    stored.rev = rev(old + 1);
                }
            }
            _ => {}
        }
        self.rows.borrow_mut().insert(k, stored.clone());
        Ok(stored)
    }

    async fn list_by_session(
        &self,
        session_id: &str,
    ) -> Result<Vec<SessionRulesRecord>, Unreachable> {
        self.up()?;
        Ok(self
            .rows
            .borrow()
            .iter()
            .filter(|((session, principal), _)| {
                session == session_id
                    && (principal.is_none() || self.defect != Defect::ListsOnlyDefault)
            })
            .map(|((_, principal), rules)| {
                let mut record = SessionRulesRecord::new(rules.clone());
                record.principal = principal.clone();
                record
            })
            .collect())
    }

    async fn delete_by_session(&self, session_id: &str) -> Result<(), Unreachable> {
        self.up()?;
        let mut rows = self.rows.borrow_mut();
        let doomed: Vec<Key> = rows
            .keys()
            .filter(|(session, principal)| {
                session == session_id
                    && (principal.is_none() || self.defect != Defect::DeleteKeepsPrincipals)
            })
            .cloned()
            .collect();
        for k in doomed {
            if let Some(old) = rows.remove(&k) {
                self.deleted.borrow_mut().insert(k, old.rev());
            }
        }
        Ok(())
    }
}

/// A fixture that cannot make a store.
struct BrokenFixture;

impl PolicyStoreFixture for BrokenFixture {
    type Store = InMemorySessionPolicyStore;

    async fn create(&mut self) -> Result<InMemorySessionPolicyStore, ErrorValue> {
        Err(ErrorValue::new("Error", "no database"))
    }
}

fn conformance_of(defect: Defect) -> Result<(), PolicyStoreConformanceFailure> {
    block_on(run_policy_store_conformance(
        &mut || FlatStore::new(defect),
        &mut StopAtFirst,
    ))
}

fn check(rules: &SessionPermissionRules, tool: &str, access: ToolAccess<'_>) -> Verdict {
    rules.check(&ToolInvocation::new(tool, access))
}

fn deny(reason: DenyReason) -> Verdict {
    Verdict::Deny { reason }
}

cases! {
    mod rules {
        fn golden_rules_round_trip() {
            let rules: SessionPermissionRules =
                golden("rules", include_str!("../golden/policy/rules.json"));
            assert_eq!(rules, full_rules());
            let empty: SessionPermissionRules = golden(
                "rules_empty",
                include_str!("../golden/policy/rules_empty.json"),
            );
            assert_eq!(empty, SessionPermissionRules::unrestricted());
            assert!(empty.is_unrestricted());
            assert!(!rules.is_unrestricted());
        }

        fn golden_stored_rules_and_records_round_trip() {
            let stored: StoredSessionRules = golden(
                "stored_rules",
                include_str!("../golden/policy/stored_rules.json"),
            );
            assert_eq!(stored.rev(), 7);
            assert_eq!(stored.rules.tool_deny, names(&["bash"]));
            assert_eq!(stored.rules.allow_dirs, names(&["/work/project"]));
            assert_eq!(stored.rules.tool_allow, None);
            let record: SessionRulesRecord =
                golden("record", include_str!("../golden/policy/record.json"));
            assert_eq!(record.principal.as_deref(), Some("alice"));
            assert_eq!(record.rules.rev(), 2);
            assert_eq!(record.rules.rules.command_deny, names(&["rm"]));
            let default: SessionRulesRecord = golden(
                "record_default",
                include_str!("../golden/policy/record_default.json"),
            );
            assert_eq!(default.principal, None);
            assert_eq!(default.rules.rules.tool_allow, Some(vec![]));
        }

        fn golden_options_and_refusals_round_trip() {
            let options: PutRulesOptions = golden(
                "put_options",
                include_str!("../golden/policy/put_options.json"),
            );
            assert_eq!(options, PutRulesOptions::expecting(3).as_operator());
            let empty: PutRulesOptions = golden(
                "put_options_empty",
                include_str!("../golden/policy/put_options_empty.json"),
            );
            assert_eq!(empty, PutRulesOptions::default());
            let conflict: SessionPolicyError = golden(
                "error_conflict",
                include_str!("../golden/policy/error_conflict.json"),
            );
            assert_eq!(
                conflict,
                SessionPolicyError::Conflict {
                    expected_rev: 3,
                    current_rev: 4
                }
            );
            assert_eq!(conflict.code(), SessionPolicyErrorCode::Conflict);
            let loosen: SessionPolicyError = golden(
                "error_loosen_forbidden",
                include_str!("../golden/policy/error_loosen_forbidden.json"),
            );
            assert_eq!(loosen.code(), SessionPolicyErrorCode::LoosenForbidden);
            let SessionPolicyError::LoosenForbidden { reasons } = loosen else {
                panic!("a loosen_forbidden refusal");
            };
            assert_eq!(
                reasons,
                vec![
                    LoosenReason::AllowlistRemoved {
                        list: AllowList::Tool
                    },
                    LoosenReason::DenyRemoved {
                        list: DenyList::Tool,
                        name: s("bash")
                    },
                    LoosenReason::DirOutside { dir: s("/etc") },
                    LoosenReason::AllowAdded {
                        list: AllowList::Command,
                        name: s("curl")
                    },
                    LoosenReason::ConfinementRemoved,
                ]
            );
        }

        fn golden_verdicts_round_trip() {
            let verdicts: Vec<Verdict> =
                golden("verdicts", include_str!("../golden/policy/verdicts.json"));
            let mut expected = vec![Verdict::Allow];
            expected.extend(DenyReason::ALL.iter().map(|reason| deny(*reason)));
            assert_eq!(verdicts, expected);
            assert!(verdicts[0].is_allowed());
            assert_eq!(verdicts[0].deny_reason(), None);
            assert_eq!(verdicts[1].deny_reason(), Some(DenyReason::ToolDenied));
        }

        fn literal_sets_round_trip() {
            literal_round_trip!(RulesField);
            literal_round_trip!(DenyList);
            literal_round_trip!(AllowList);
            literal_round_trip!(DenyReason);
            literal_round_trip!(SessionPolicyErrorCode);
            assert_eq!(RulesField::from(DenyList::Command), RulesField::CommandDeny);
            assert_eq!(RulesField::from(AllowList::Tool), RulesField::ToolAllow);
            for reason in DenyReason::ALL {
                assert!(!reason.message().is_empty());
            }
        }

        fn absent_fields_are_not_written() {
            let rules = SessionPermissionRules {
                tool_deny: names(&["bash"]),
                allow_dirs: Some(vec![]),
                ..SessionPermissionRules::default()
            };
            assert_eq!(
                to_json(&rules),
                json(r#"{"toolDeny":["bash"],"allowDirs":[]}"#)
            );
            let stored = StoredSessionRules {
                rev: rev(1),
                rules: SessionPermissionRules::default(),
            };
            assert_eq!(to_json(&stored), json(r#"{"rev":1}"#));
        }

        fn a_caller_passed_rev_is_stripped() {
            let document = json(r#"{"toolDeny":["bash"],"rev":41}"#);
            let rules = SessionPermissionRules::from_json(&document).expect("decodes");
            assert_eq!(rules.tool_deny, names(&["bash"]));
            assert_eq!(to_json(&rules), json(r#"{"toolDeny":["bash"]}"#));
            let stored = StoredSessionRules::from_json(&document).expect("decodes");
            assert_eq!(stored.rev(), 41);
            let stripped = strip_rev(stored.clone());
            assert_eq!(stripped, rules);
            assert_eq!(SessionPermissionRules::from(stored), rules);
            // Through serde too: the same decoder.
            let rules: SessionPermissionRules =
                serde_json::from_str(r#"{"rev":3,"commandDeny":["rm"]}"#).expect("decodes");
            assert_eq!(rules.command_deny, names(&["rm"]));
        }

        fn bad_rules_documents_get_typed_errors() {
            let decode = |text: &str| SessionPermissionRules::from_json(&json(text));
            assert_eq!(decode("[]"), Err(RulesDocumentError::NotAnObject));
            assert_eq!(decode("null"), Err(RulesDocumentError::NotAnObject));
            assert_eq!(
                decode(r#"{"toolDeny":["a"],"toolsDeny":["b"]}"#),
                Err(RulesDocumentError::UnknownField(s("toolsDeny")))
            );
            assert_eq!(
                decode(r#"{"tool_deny":["b"]}"#),
                Err(RulesDocumentError::UnknownField(s("tool_deny")))
            );
            assert_eq!(
                decode(r#"{"allowDirs":"/work"}"#),
                Err(RulesDocumentError::NotAList(RulesField::AllowDirs))
            );
            assert_eq!(
                decode(r#"{"toolAllow":null}"#),
                Err(RulesDocumentError::NotAList(RulesField::ToolAllow))
            );
            assert_eq!(
                decode(r#"{"commandAllow":{"git":true}}"#),
                Err(RulesDocumentError::NotAList(RulesField::CommandAllow))
            );
            assert_eq!(
                decode(r#"{"commandDeny":["rm",7]}"#),
                Err(RulesDocumentError::NotAString {
                    field: RulesField::CommandDeny,
                    index: 1
                })
            );
            assert_eq!(
                decode(r#"{"toolDeny":[null]}"#),
                Err(RulesDocumentError::NotAString {
                    field: RulesField::ToolDeny,
                    index: 0
                })
            );
            assert_eq!(
                decode(r#"{"rev":"3"}"#),
                Err(RulesDocumentError::InvalidRev)
            );
            assert_eq!(decode(r#"{"rev":-1}"#), Err(RulesDocumentError::InvalidRev));
            assert_eq!(
                decode(r#"{"rev":1.5}"#),
                Err(RulesDocumentError::InvalidRev)
            );
            let stored = |text: &str| StoredSessionRules::from_json(&json(text));
            assert_eq!(
                stored(r#"{"toolDeny":[]}"#),
                Err(RulesDocumentError::MissingRev)
            );
            assert_eq!(stored(r#"{"rev":0}"#), Err(RulesDocumentError::InvalidRev));
            assert_eq!(
                stored(r#"{"rev":1,"x":1}"#),
                Err(RulesDocumentError::UnknownField(s("x")))
            );
            assert_eq!(stored("true"), Err(RulesDocumentError::NotAnObject));
            // Every error says what is wrong.
            let message = format!(
                "{}",
                RulesDocumentError::NotAString {
                    field: RulesField::CommandDeny,
                    index: 1,
                }
            );
            assert_eq!(message, "`commandDeny[1]` must be a string");
            // And says where, as a path like every other decoder's.
            let at = |text: &str| decode(text).map_err(|error| error.path());
            assert_eq!(at(r#"{"toolDeny":["a",7]}"#), Err(s("toolDeny[1]")));
            assert_eq!(at(r#"{"allowDirs":"/w"}"#), Err(s("allowDirs")));
            assert_eq!(at(r#"{"rev":-1}"#), Err(s("rev")));
            assert_eq!(at(r#"{"x":1}"#), Err(s("x")));
            assert_eq!(at("[]"), Err(s("")));
            assert!(format!("{}", RulesDocumentError::MissingRev).contains("rev"));
            assert!(format!("{}", RulesDocumentError::NotAnObject).contains("object"));
        }

        fn serde_refuses_what_the_decoder_refuses() {
            rejects::<SessionPermissionRules>(r#"{"toolsDeny":["b"]}"#, "toolsDeny");
            rejects::<SessionPermissionRules>(r#"{"allowDirs":"/w"}"#, "allowDirs");
            rejects::<SessionPermissionRules>(r#"{"toolDeny":[1]}"#, "toolDeny");
            rejects::<SessionPermissionRules>("[]", "object");
            rejects::<StoredSessionRules>(r#"{"toolDeny":[]}"#, "rev");
            rejects::<StoredSessionRules>(r#"{"rev":0}"#, "rev");
            rejects::<SessionRulesRecord>(
                r#"{"principal":"a","rules":{"rev":1},"extra":1}"#,
                "unknown field",
            );
            rejects::<SessionRulesRecord>(r#"{"principal":1,"rules":{"rev":1}}"#, "invalid type");
            rejects::<SessionRulesRecord>(r#"{"rules":{"rev":1,"toolDeny":"x"}}"#, "toolDeny");
            rejects::<PutRulesOptions>(r#"{"expectedRev":1,"force":true}"#, "unknown field");
            rejects::<PutRulesOptions>(r#"{"expectedRev":"1"}"#, "invalid type");
            rejects::<PutRulesOptions>(r#"{"expectedRev":-1}"#, "invalid value");
            rejects::<PutRulesOptions>(r#"{"operator":"yes"}"#, "invalid type");
            rejects::<SessionPolicyError>(r#"{"code":"forbidden"}"#, "unknown variant");
            rejects::<SessionPolicyError>(
                r#"{"code":"conflict","expectedRev":1,"currentRev":2,"x":0}"#,
                "unknown field",
            );
            rejects::<LoosenReason>(
                r#"{"kind":"deny_removed","list":"allowDirs","name":"x"}"#,
                "unknown variant",
            );
            rejects::<LoosenReason>(
                r#"{"kind":"confinement_removed","dir":"/"}"#,
                "unknown field",
            );
            rejects::<Verdict>(
                r#"{"decision":"deny","reason":"because"}"#,
                "unknown variant",
            );
            rejects::<Verdict>(r#"{"decision":"maybe"}"#, "unknown variant");
            rejects::<Verdict>(
                r#"{"decision":"allow","reason":"tool_denied"}"#,
                "unknown field",
            );
        }

        fn regression_a_repeated_rules_member_is_refused() {
            // Defect 5: the rules decoders read the text into a `Value`, whose map keeps the last
            // of a repeated member, so `{"toolDeny":["bash"],"toolDeny":[]}` lifted the deny and
            // `{"allowDirs":["/w"],"allowDirs":["/"]}` widened the confinement to `/`.
            let duplicate = |key: &str| format!("{}", RulesDocumentError::DuplicateField(s(key)));
            assert_eq!(
                duplicate("toolDeny"),
                "duplicate rules field `toolDeny`: a member may appear only once"
            );
            for (text, key) in [
                (r#"{"toolDeny":["bash"],"toolDeny":[]}"#, "toolDeny"),
                (r#"{"allowDirs":["/w"],"allowDirs":["/"]}"#, "allowDirs"),
                (r#"{"toolAllow":[],"commandDeny":["rm"],"toolAllow":["bash"]}"#, "toolAllow"),
                (r#"{"commandAllow":["git"],"commandAllow":["git","curl"]}"#, "commandAllow"),
                (r#"{"commandDeny":["rm"],"commandDeny":["rm"]}"#, "commandDeny"),
                (r#"{"rev":1,"rev":2}"#, "rev"),
                // Found while reading, before any member is checked.
                (r#"{"toolDeny":[7],"toolDeny":[]}"#, "toolDeny"),
                (r#"{"x":1,"x":2}"#, "x"),
            ] {
                let message = rejects::<SessionPermissionRules>(text, &duplicate(key));
                assert!(message.contains(&format!("`{key}`")), "{message}");
                // From bytes too (host only: a second reader instance costs flash on the firmware).
                #[cfg(not(target_os = "none"))]
                {
                    let slice = serde_json::from_slice::<SessionPermissionRules>(text.as_bytes());
                    let message = format!("{}", slice.expect_err("from_slice refuses it too"));
                    assert!(message.contains(&duplicate(key)), "{message}");
                }
                let stored = format!(r#"{{"rev":3,{}"#, &text[1..]);
                let stored_key = if text.contains(r#""rev""#) { "rev" } else { key };
                rejects::<StoredSessionRules>(&stored, &duplicate(stored_key));
                let record = format!(r#"{{"principal":"a","rules":{stored}}}"#);
                rejects::<SessionRulesRecord>(&record, &duplicate(stored_key));
            }
            rejects::<StoredSessionRules>(r#"{"rev":1,"rev":2,"toolDeny":[]}"#, "`rev`");
            rejects::<SessionRulesRecord>(
                r#"{"principal":"a","principal":"b","rules":{"rev":1}}"#,
                "duplicate field `principal`",
            );
            rejects::<SessionRulesRecord>(
                r#"{"rules":{"rev":1},"rules":{"rev":2}}"#,
                "duplicate field `rules`",
            );
            // The other refusals keep their texts.
            rejects::<SessionPermissionRules>("[]", "a rules document must be a JSON object");
            rejects::<SessionPermissionRules>("null", "a rules document must be a JSON object");
            rejects::<SessionPermissionRules>(r#""{}""#, "a rules document must be a JSON object");
            rejects::<StoredSessionRules>("7", "a rules document must be a JSON object");
            rejects::<SessionPermissionRules>(
                r#"{"toolDeny":[],"toolsDeny":[]}"#,
                "unknown rules field `toolsDeny`",
            );
            rejects::<StoredSessionRules>(r#"{"toolDeny":[]}"#, "stored rules need a `rev`");
            // Distinct members still decode, and a member once is not a repeat.
            let rules: SessionPermissionRules =
                serde_json::from_str(r#"{"toolDeny":["bash"],"allowDirs":["/w"],"rev":2}"#)
                    .expect("decodes");
            assert_eq!(rules.tool_deny, names(&["bash"]));
            assert_eq!(rules.allow_dirs, names(&["/w"]));
            // A parsed `Value` has already lost the repeat: `from_json` cannot see it, which is
            // why the text entry point above is the strict one.
            let lossy = SessionPermissionRules::from_json(&json(
                r#"{"toolDeny":["bash"],"toolDeny":[]}"#,
            ));
            assert_eq!(lossy.map(|rules| rules.tool_deny), Ok(Some(vec![])));
        }

        fn a_long_unknown_or_repeated_key_is_quoted_cut() {
            // A key is the peer's: the message and the path quote 64 bytes of it and its length,
            // however long it is; the error still holds the key as written.
            let key = "k".repeat(1_000);
            let cut = format!("{}… (1000 bytes)", &key[..64]);
            let unknown = RulesDocumentError::UnknownField(key.clone());
            let message = format!("{unknown}");
            assert!(message.contains(&format!("`{cut}`")), "{message}");
            assert!(message.len() < 250, "{message}");
            assert_eq!(unknown.path(), cut);
            let repeated = RulesDocumentError::DuplicateField(key.clone());
            assert!(format!("{repeated}").contains(&format!("`{cut}`")), "{repeated}");
            assert_eq!(repeated.path(), cut);
            // Through the decoders, from a parsed value and from the text.
            let text = format!(r#"{{"{key}":1}}"#);
            let from_value = SessionPermissionRules::from_json(&json(&text));
            assert_eq!(from_value, Err(unknown));
            let repeated_text = format!(r#"{{"{key}":[],"{key}":[]}}"#);
            let message = rejects::<SessionPermissionRules>(&repeated_text, &format!("`{cut}`"));
            assert!(message.len() < 300, "{message}");
        }

        fn put_options_refuse_a_repeated_member() {
            rejects::<PutRulesOptions>(
                r#"{"expectedRev":1,"expectedRev":0}"#,
                "duplicate field `expectedRev`",
            );
            rejects::<PutRulesOptions>(
                r#"{"operator":false,"expectedRev":1,"operator":true}"#,
                "duplicate field `operator`",
            );
        }

        fn policy_errors_refuse_a_repeated_member() {
            rejects::<SessionPolicyError>(
                r#"{"code":"conflict","expectedRev":1,"currentRev":2,"currentRev":3}"#,
                "duplicate field `currentRev`",
            );
            rejects::<SessionPolicyError>(
                r#"{"code":"conflict","code":"loosen_forbidden","expectedRev":1,"currentRev":2,"reasons":[]}"#,
                "duplicate field `code`",
            );
            rejects::<SessionPolicyError>(
                r#"{"code":"loosen_forbidden","reasons":[],"reasons":[{"kind":"confinement_removed"}]}"#,
                "duplicate field `reasons`",
            );
            rejects::<SessionPolicyError>(
                r#"{"code":"loosen_forbidden","reasons":[{"kind":"dir_outside","dir":"/a","dir":"/"}]}"#,
                "duplicate field `dir`",
            );
        }

        fn loosen_reasons_refuse_a_repeated_member() {
            rejects::<LoosenReason>(
                r#"{"kind":"deny_removed","list":"toolDeny","name":"a","name":"b"}"#,
                "duplicate field `name`",
            );
            rejects::<LoosenReason>(
                r#"{"kind":"allow_added","list":"toolAllow","list":"commandAllow","name":"a"}"#,
                "duplicate field `list`",
            );
            rejects::<LoosenReason>(
                r#"{"kind":"dir_outside","kind":"confinement_removed","dir":"/"}"#,
                "duplicate field `kind`",
            );
            rejects::<LoosenReason>(
                r#"{"kind":"confinement_removed","kind":"confinement_removed"}"#,
                "duplicate field `kind`",
            );
        }

        fn verdicts_refuse_a_repeated_member() {
            rejects::<Verdict>(
                r#"{"decision":"deny","reason":"tool_denied","reason":"command_denied"}"#,
                "duplicate field `reason`",
            );
            rejects::<Verdict>(
                r#"{"decision":"deny","decision":"allow","reason":"tool_denied"}"#,
                "duplicate field `decision`",
            );
            rejects::<Verdict>(
                r#"{"decision":"allow","decision":"allow"}"#,
                "duplicate field `decision`",
            );
        }

        fn normalize_rules_touches_only_allow_dirs() {
            let raw = SessionPermissionRules {
                tool_deny: names(&["./bash"]),
                allow_dirs: names(&["/work/./a/../b/", "c:\\x\\..\\y", "/odd\\x"]),
                command_allow: names(&["../git"]),
                ..SessionPermissionRules::default()
            };
            let normalised = normalize_rules(raw.clone());
            assert_eq!(
                normalised.allow_dirs,
                names(&["/work/b", "C:\\y", "/odd\\x"])
            );
            assert_eq!(normalised.tool_deny, raw.tool_deny);
            assert_eq!(normalised.command_allow, raw.command_allow);
            assert_eq!(normalize_rules(normalised.clone()), normalised);
            assert_eq!(
                normalize_rules(SessionPermissionRules::default()),
                SessionPermissionRules::default()
            );
        }

        fn field_reads_each_list() {
            let rules = full_rules();
            for field in RulesField::ALL {
                let expected = match field {
                    RulesField::ToolAllow => &rules.tool_allow,
                    RulesField::ToolDeny => &rules.tool_deny,
                    RulesField::AllowDirs => &rules.allow_dirs,
                    RulesField::CommandAllow => &rules.command_allow,
                    RulesField::CommandDeny => &rules.command_deny,
                };
                assert_eq!(rules.field(*field), expected.as_deref(), "{field}");
            }
            assert_eq!(
                SessionPermissionRules::default().field(RulesField::AllowDirs),
                None
            );
        }
    }

    mod paths {
        fn containment_resolves_before_comparing() {
            assert!(lex_within("/work", "/work"));
            assert!(lex_within("/work", "/work/a/b.txt"));
            assert!(lex_within("/work/", "/work//a/./b"));
            assert!(lex_within("/work/a/..", "/work/b"));
            assert!(lex_within("/", "/etc/passwd"));
            assert!(!lex_within("/work", "/work/../etc"));
            assert!(!lex_within("/work", "/work/a/../../etc/passwd"));
            assert!(!lex_within("/work", "/workshop/a"));
            assert!(!lex_within("/work/a", "/work"));
            assert!(!lex_within("/work", "/etc"));
            // `..` stops at the root.
            assert!(lex_within("/etc", "/../../etc/x"));
        }

        fn relative_paths_compare_with_relative_paths() {
            assert!(lex_within("work", "work/a"));
            assert!(lex_within(".", "a/b"));
            assert!(lex_within("", "a"));
            assert!(!lex_within(".", "../a"));
            assert!(!lex_within("work", "work/../../x"));
            assert!(lex_within("../w", "../w/x"));
            assert!(!lex_within("..", "../../x"));
            assert!(!lex_within("/work", "work/a"));
            assert!(!lex_within("work", "/work/a"));
        }

        fn windows_paths_fold_separators_and_drive_case() {
            assert!(lex_within("C:\\Work", "c:/Work/a.txt"));
            assert!(lex_within("c:/Work", "C:\\Work\\sub\\a.txt"));
            assert!(!lex_within("C:\\Work", "C:\\Work\\..\\Windows"));
            assert!(
                lex_within("C:\\Work", "C:\\work\\a"),
                "the whole Windows path folds case"
            );
            assert!(!lex_within("C:\\Work", "D:\\Work\\a"));
            assert!(
                !lex_within("C:\\Work", "C:Work\\a"),
                "drive-relative is not rooted"
            );
            assert!(lex_within("C:Work", "C:Work\\a"));
            assert!(
                !lex_within("C:\\Work", "\\Work\\a"),
                "current-drive root is another prefix"
            );
            assert!(lex_within("\\Work", "\\Work\\a"));
            assert!(!lex_within("/Work", "\\Work\\a"), "families never mix");
            assert!(!lex_within("C:\\", "/etc"));
        }

        fn unc_paths_keep_server_and_share() {
            assert!(lex_within("\\\\srv\\share", "\\\\srv\\share\\a"));
            assert!(
                lex_within("\\\\srv\\share\\x", "\\\\srv\\share\\..\\x\\y"),
                "`..` stops at the share"
            );
            assert!(!lex_within(
                "\\\\srv\\other",
                "\\\\srv\\share\\..\\other\\x"
            ));
            assert!(!lex_within("\\\\srv\\share", "\\\\srv2\\share\\a"));
            assert!(
                lex_within("//srv/share", "//srv/share/a"),
                "POSIX `//` is `/`"
            );
            assert!(lex_within("/srv/share", "//srv//share/a"));
        }

        fn opaque_paths_contain_nothing_and_are_within_nothing() {
            let opaque = [
                "/work/..\\etc",
                "/srv/a\\b",
                "work\\a",
                "\\\\?\\C:\\work",
                "\\\\.\\pipe\\x",
                "\\\\srv",
                "\\\\srv\\\\share",
                "C:\\work.\\a",
                "C:\\work\\... \\x",
                "C:\\work\\a ",
            ];
            for path in opaque {
                assert_eq!(
                    normalize_path(path),
                    path,
                    "opaque {path} normalises to itself"
                );
                assert!(!lex_within(path, path), "{path} is not within itself");
                assert!(!lex_within("/", path), "{path} is within nothing");
                assert!(!lex_within("C:\\", path), "{path} is within nothing");
                assert!(!lex_within(path, "/work/a"), "{path} contains nothing");
            }
            // POSIX dots are names, and Windows `.`/`..` are not stripped characters.
            assert!(lex_within("/work", "/work/a./b..."));
            assert!(lex_within("C:\\work", "C:\\work\\.\\a\\..\\b"));
        }

        fn normalize_path_gives_the_stored_form() {
            let cases = [
                ("/work/./a//b/../c/", "/work/a/c"),
                ("/", "/"),
                ("//", "/"),
                ("/..", "/"),
                ("", "."),
                (".", "."),
                ("./", "."),
                ("a/..", "."),
                ("../a/./b/..", "../a"),
                ("a/../../b", "../b"),
                ("c:/Work\\x\\..", "C:\\Work"),
                ("C:", "C:"),
                ("c:a/../b", "C:b"),
                ("C:\\..", "C:\\"),
                ("\\a\\.\\b", "\\a\\b"),
                ("\\", "\\"),
                ("\\\\srv\\share\\a\\..\\..\\b", "\\\\srv\\share\\b"),
                ("//srv/share/", "/srv/share"),
                ("\\\\srv/share", "\\\\srv\\share"),
            ];
            for (raw, normalised) in cases {
                assert_eq!(normalize_path(raw), normalised, "normalising {raw:?}");
                assert_eq!(
                    normalize_path(normalised),
                    normalised,
                    "normalising {normalised:?} again"
                );
            }
        }

        fn regression_a_posix_path_never_normalises_into_a_drive() {
            // Defect 3: `./c:` is a POSIX directory named `c:`. Its stored form used to be `c:`,
            // then `C:` (the current directory of drive C), and `x/../c:/tmp` became `c:/tmp`.
            for (raw, normalised) in [
                ("./c:", "./c:"),
                ("x/../c:/tmp", "./c:/tmp"),
                ("./c:etc", "./c:etc"),
                ("a/./../Z:/b/..", "./Z:"),
                ("../c:", "../c:"),
                ("/c:", "/c:"),
                ("./c", "c"),
                ("./1:", "1:"),
                ("./:c", ":c"),
                // The fuzzer's reproducer (fuzz/regressions/policy_path).
                ("re/a//../../b:a", "./b:a"),
            ] {
                assert_eq!(normalize_path(raw), normalised, "normalising {raw:?}");
                assert_eq!(
                    normalize_path(normalised),
                    normalised,
                    "normalising {normalised:?} again"
                );
            }
            for root in ["x/../c:/tmp", "./c:/tmp"] {
                let stored = normalize_path(root);
                for (path, within) in [
                    ("c:/tmp/a", false),
                    ("C:\\tmp\\a", false),
                    ("./c:/tmp/a", true),
                    ("c:/tmp", false),
                ] {
                    assert_eq!(lex_within(root, path), within, "{root:?} contains {path:?}");
                    assert_eq!(
                        lex_within(&stored, path),
                        within,
                        "{stored:?} (stored {root:?}) contains {path:?}"
                    );
                }
            }
            assert!(!lex_within("C:\\tmp", "x/../c:/tmp/a"));
            assert!(!lex_within("C:\\tmp", &normalize_path("x/../c:/tmp/a")));
        }

        fn regression_windows_paths_fold_case_throughout() {
            // Defect 4: on Windows `c:/work/sub` and `C:\Work\sub` name one directory.
            assert!(lex_within("C:\\Work", "c:/work/sub"));
            assert!(lex_within("c:/work", "C:\\WORK\\Sub\\x"));
            assert!(lex_within("C:Work", "c:wORK\\a"));
            assert!(lex_within("\\Work", "\\wOrK\\a"));
            assert!(!lex_within("C:\\Work", "C:\\Workshop"), "a prefix is not containment");
            assert!(!lex_within("C:\\Work", "c:/workshop/x"));
            assert!(!lex_within("C:\\Work", "C:\\work\\..\\Workshop"));
            // UNC server and share names fold too.
            assert!(lex_within("\\\\Server\\Share\\Out", "\\\\server\\SHARE\\out\\a"));
            assert!(!lex_within("\\\\Server\\Share", "\\\\server2\\share\\a"));
            // POSIX paths stay case-sensitive.
            assert!(!lex_within("/Work", "/work/a"));
            assert!(!lex_within("work", "Work/a"));
            // The fold is ASCII only (docs/decisions/policy.md): it errs towards "not within".
            assert!(!lex_within("C:\\Été", "C:\\été\\x"));
            assert!(lex_within("C:\\Été", "c:\\Été\\x"));
            // The stored form keeps the case as written, except the drive letter.
            assert_eq!(normalize_path("c:/work/Sub/"), "C:\\work\\Sub");
            assert_eq!(normalize_path("\\\\Srv\\sHare\\X"), "\\\\Srv\\sHare\\X");
        }

        fn property_containment_never_says_yes_when_the_path_escapes() {
            const SEED: u64 = 0x5EED_0008_0001;
            let mut rng = Seeded::new(SEED);
            let (mut yes, mut escapes) = (0u32, 0u32);
            for i in 0..600 {
                let (root, path) = random_pair(&mut rng);
                let within = lex_within(&root, &path);
                if within {
                    yes += 1;
                    assert!(
                        model_within(&root, &path),
                        "seed {SEED:#x}, pair {i}: {path:?} escapes {root:?} once normalised, \
                         yet lex_within says yes"
                    );
                } else if path.starts_with(root.as_str()) && !model_within(&root, &path) {
                    // A naive prefix test says yes; the normalised path escapes; lex_within
                    // said no.
                    escapes += 1;
                }
            }
            assert!(
                yes > 100,
                "seed {SEED:#x}: only {yes} pairs were within, the property is vacuous"
            );
            assert!(
                escapes > 50,
                "seed {SEED:#x}: only {escapes} prefixed pairs escaped"
            );
        }

        fn property_normalising_changes_no_answer() {
            const SEED: u64 = 0x5EED_0008_0002;
            let mut rng = Seeded::new(SEED);
            for i in 0..400 {
                let (root, path) = random_pair(&mut rng);
                let (n_root, n_path) = (normalize_path(&root), normalize_path(&path));
                assert_eq!(
                    normalize_path(&n_root),
                    n_root,
                    "seed {SEED:#x}, pair {i}: normalising {root:?} twice"
                );
                assert_eq!(
                    lex_within(&root, &path),
                    lex_within(&n_root, &n_path),
                    "seed {SEED:#x}, pair {i}: {root:?} ⊇ {path:?} vs {n_root:?} ⊇ {n_path:?}"
                );
                assert_eq!(
                    lex_within(&root, &path),
                    lex_within(&root, &n_path),
                    "seed {SEED:#x}, pair {i}: {root:?} ⊇ {path:?} vs ⊇ {n_path:?}"
                );
            }
        }
    }

    mod gate {
        fn loosen_reasons_lists_every_kind_in_order() {
            let prior = full_rules();
            assert_eq!(loosen_reasons(&prior, &prior), vec![]);
            let next = SessionPermissionRules {
                tool_allow: None,
                tool_deny: names(&[]),
                allow_dirs: names(&["/work/project/a", "/etc", "/work/project/../x"]),
                command_allow: names(&["git", "curl", "ls"]),
                command_deny: None,
            };
            assert_eq!(
                loosen_reasons(&prior, &next),
                vec![
                    LoosenReason::AllowlistRemoved {
                        list: AllowList::Tool
                    },
                    LoosenReason::DenyRemoved {
                        list: DenyList::Tool,
                        name: s("delete_file")
                    },
                    LoosenReason::DirOutside { dir: s("/etc") },
                    LoosenReason::DirOutside {
                        dir: s("/work/project/../x")
                    },
                    LoosenReason::AllowAdded {
                        list: AllowList::Command,
                        name: s("curl")
                    },
                    LoosenReason::DenyRemoved {
                        list: DenyList::Command,
                        name: s("rm")
                    },
                    LoosenReason::DenyRemoved {
                        list: DenyList::Command,
                        name: s("curl")
                    },
                ]
            );
            let unconfined = SessionPermissionRules {
                allow_dirs: None,
                ..full_rules()
            };
            assert_eq!(
                loosen_reasons(&prior, &unconfined),
                vec![LoosenReason::ConfinementRemoved]
            );
            let message = format!(
                "{}",
                LoosenReason::DenyRemoved {
                    list: DenyList::Tool,
                    name: s("bash")
                }
            );
            assert!(
                message.contains("bash") && message.contains("toolDeny"),
                "{message}"
            );
        }

        fn tightening_and_no_prior_rules_give_no_reasons() {
            let prior = full_rules();
            let tighter = SessionPermissionRules {
                tool_allow: names(&["read_file"]),
                tool_deny: names(&["delete_file", "bash"]),
                allow_dirs: names(&["/work/project/src", "c:/Users/me/src/x"]),
                command_allow: names(&[]),
                command_deny: names(&["curl", "rm", "dd"]),
            };
            assert_eq!(loosen_reasons(&prior, &tighter), vec![]);
            let nothing = SessionPermissionRules::unrestricted();
            assert_eq!(loosen_reasons(&nothing, &full_rules()), vec![]);
            assert_eq!(loosen_reasons(&nothing, &nothing), vec![]);
            // An empty allowDirs confines to nothing: any dir is outside it.
            let nowhere = SessionPermissionRules {
                allow_dirs: Some(vec![]),
                ..nothing.clone()
            };
            assert_eq!(
                loosen_reasons(
                    &nowhere,
                    &SessionPermissionRules {
                        allow_dirs: names(&["/"]),
                        ..nothing
                    }
                ),
                vec![LoosenReason::DirOutside { dir: s("/") }]
            );
        }

        fn regression_the_gate_folds_windows_case() {
            let dirs = |dirs: &[&str]| SessionPermissionRules {
                allow_dirs: names(dirs),
                ..SessionPermissionRules::default()
            };
            // Defect 4: a narrower Windows dir in another case tightens.
            let prior = dirs(&["C:\\Work"]);
            assert_eq!(loosen_reasons(&prior, &dirs(&["c:/work/sub"])), vec![]);
            assert_eq!(
                loosen_reasons(&prior, &dirs(&["C:\\Workshop"])),
                vec![LoosenReason::DirOutside {
                    dir: s("C:\\Workshop")
                }]
            );
            let stored = decide_put(None, prior, PutRulesOptions::expecting(0)).expect("first");
            let narrowed = decide_put(
                Some(&stored),
                dirs(&["c:/work/sub"]),
                PutRulesOptions::expecting(1),
            )
            .expect("a narrower dir in another case tightens");
            assert_eq!(narrowed.rules.allow_dirs, names(&["C:\\work\\sub"]));
        }

        fn regression_the_gate_keeps_a_posix_dir_named_like_a_drive_apart() {
            let dirs = |dirs: &[&str]| SessionPermissionRules {
                allow_dirs: names(dirs),
                ..SessionPermissionRules::default()
            };
            // Defect 3: a POSIX dir named `c:` is not drive C, before or after storing.
            let stored = decide_put(None, dirs(&["./c:"]), PutRulesOptions::expecting(0))
                .expect("first");
            let put = |dir| decide_put(Some(&stored), dirs(&[dir]), PutRulesOptions::expecting(1));
            assert_eq!(
                put("c:etc"),
                Err(SessionPolicyError::LoosenForbidden {
                    reasons: vec![LoosenReason::DirOutside { dir: s("C:etc") }],
                }),
                "drive C is outside the POSIX dir `./c:`"
            );
            assert!(put("c:/etc").is_err());
            assert!(put("./c:/etc").is_ok());
            assert_eq!(stored.rules.allow_dirs, names(&["./c:"]));
        }

        fn decide_put_checks_conflict_then_loosening() {
            let current = StoredSessionRules {
                rev: rev(4),
                rules: full_rules(),
            };
            let stored = decide_put(Some(&current), full_rules(), PutRulesOptions::expecting(4))
                .expect("a no-op write");
            assert_eq!(stored.rev(), 5);
            assert_eq!(
                decide_put(Some(&current), full_rules(), PutRulesOptions::expecting(3)),
                Err(SessionPolicyError::Conflict {
                    expected_rev: 3,
                    current_rev: 4
                })
            );
            assert_eq!(
                decide_put(
                    Some(&current),
                    SessionPermissionRules::default(),
                    PutRulesOptions::expecting(3)
                ),
                Err(SessionPolicyError::Conflict {
                    expected_rev: 3,
                    current_rev: 4
                })
            );
            let refused = decide_put(
                Some(&current),
                SessionPermissionRules::default(),
                PutRulesOptions::default(),
            );
            let Err(SessionPolicyError::LoosenForbidden { reasons }) = refused else {
                panic!("a loosening is refused: {refused:?}");
            };
            assert_eq!(
                reasons,
                loosen_reasons(&full_rules(), &SessionPermissionRules::default())
            );
            let operator = decide_put(
                Some(&current),
                SessionPermissionRules::default(),
                PutRulesOptions::default().as_operator(),
            )
            .expect("an operator loosens");
            assert_eq!(operator.rev(), 5);
            assert!(operator.rules.is_unrestricted());
            let first = decide_put(None, full_rules(), PutRulesOptions::expecting(0))
                .expect("a first write");
            assert_eq!(first.rev(), 1);
            assert_eq!(
                decide_put(None, full_rules(), PutRulesOptions::expecting(1)),
                Err(SessionPolicyError::Conflict {
                    expected_rev: 1,
                    current_rev: 0
                })
            );
        }

        fn a_record_at_the_last_rev_takes_no_write() {
            let current = StoredSessionRules {
                rev: NonZeroU64::MAX,
                rules: full_rules(),
            };
            assert_eq!(
                decide_put(Some(&current), full_rules(), PutRulesOptions::default()),
                Err(SessionPolicyError::Conflict {
                    expected_rev: u64::MAX,
                    current_rev: u64::MAX
                })
            );
        }

        fn refusals_say_what_happened() {
            let conflict = SessionPolicyError::Conflict {
                expected_rev: 2,
                current_rev: 3,
            };
            let text = format!("{conflict}");
            assert!(
                text.starts_with("conflict") && text.contains('2') && text.contains('3'),
                "{text}"
            );
            let loosen = SessionPolicyError::LoosenForbidden {
                reasons: vec![
                    LoosenReason::ConfinementRemoved,
                    LoosenReason::DirOutside { dir: s("/etc") },
                ],
            };
            let text = format!("{loosen}");
            assert!(
                text.starts_with("loosen_forbidden")
                    && text.contains("allowDirs")
                    && text.contains("/etc"),
                "{text}"
            );
            let error: PutRulesError<Unreachable> = PutRulesError::Backend(Unreachable);
            assert!(format!("{error}").contains("connection refused"));
            assert_eq!(error.refusal(), None);
            let refused: PutRulesError<Unreachable> = conflict.clone().into();
            assert_eq!(refused.refusal(), Some(&conflict));
            assert!(core::error::Error::source(&refused).is_some());
        }

        fn property_a_non_operator_put_succeeds_exactly_when_nothing_loosens() {
            const SEED: u64 = 0x5EED_0008_0003;
            let mut rng = Seeded::new(SEED);
            let (mut accepted, mut refused) = (0u32, 0u32);
            for i in 0..300 {
                let store = InMemorySessionPolicyStore::new();
                let prior = random_rules(&mut rng);
                let next = match rng.below(3) {
                    0 => random_rules(&mut rng),
                    1 => nearby_rules(&mut rng, &prior),
                    _ => tighter_rules(&mut rng, &prior),
                };
                let stored_prior = store
                    .put("s", None, prior, PutRulesOptions::default().as_operator())
                    .expect("an operator write");
                let reasons = loosen_reasons(&stored_prior.rules, &next);
                let normalised_reasons =
                    loosen_reasons(&stored_prior.rules, &normalize_rules(next.clone()));
                let outcome =
                    block_on(store.put_rules("s", None, next.clone(), PutRulesOptions::default()));
                assert_eq!(
                    outcome.is_ok(),
                    reasons.is_empty(),
                    "seed {SEED:#x}, case {i}: prior {stored_prior:?}, next {next:?}, \
                     reasons {reasons:?}, outcome {outcome:?}"
                );
                assert_eq!(
                    model_loosens(&stored_prior.rules, &next),
                    !reasons.is_empty(),
                    "seed {SEED:#x}, case {i}: the set model disagrees on \
                     {stored_prior:?} → {next:?}"
                );
                match outcome {
                    Ok(stored) => {
                        accepted += 1;
                        assert_eq!(stored.rev(), 2, "seed {SEED:#x}, case {i}");
                        assert_eq!(
                            stored.rules,
                            normalize_rules(next),
                            "seed {SEED:#x}, case {i}"
                        );
                        assert_eq!(
                            store.get("s", None),
                            Some(stored),
                            "seed {SEED:#x}, case {i}"
                        );
                    }
                    Err(error) => {
                        refused += 1;
                        assert_eq!(
                            error,
                            PutRulesError::Refused(SessionPolicyError::LoosenForbidden {
                                reasons: normalised_reasons
                            }),
                            "seed {SEED:#x}, case {i}"
                        );
                        assert_eq!(
                            store.get("s", None),
                            Some(stored_prior),
                            "seed {SEED:#x}, case {i}: unchanged"
                        );
                    }
                }
            }
            assert!(
                accepted > 30 && refused > 30,
                "seed {SEED:#x}: {accepted} accepted, {refused} refused"
            );
        }
    }

    mod store {
        fn the_in_memory_store_passes_the_conformance_suite() {
            let outcome = block_on(run_policy_store_conformance(
                &mut InMemorySessionPolicyStore::new,
                &mut StopAtFirst,
            ));
            assert_eq!(outcome, Ok(()));
            for &case in PolicyStoreCase::ALL {
                let outcome = block_on(run_policy_store_case(
                    &mut InMemorySessionPolicyStore::new,
                    case,
                ));
                assert_eq!(outcome, Ok(()), "{case:?}");
            }
        }

        fn a_store_built_on_decide_put_passes_the_suite() {
            assert_eq!(conformance_of(Defect::None), Ok(()));
        }

        fn each_defect_fails_its_case() {
            let expected = [
                (Defect::IgnoresExpectedRev, PolicyStoreCase::CompareAndSet),
                (Defect::AlwaysOperator, PolicyStoreCase::TightenOnly),
                (Defect::KeepsRawDirs, PolicyStoreCase::FirstWrite),
                (Defect::RevSkips, PolicyStoreCase::RevisionsGrowByOne),
                (
                    Defect::LoosenBeforeConflict,
                    PolicyStoreCase::ConflictBeforeLoosen,
                ),
                (
                    Defect::FallsBackToDefault,
                    PolicyStoreCase::KeysAreIndependent,
                ),
                (Defect::ListsOnlyDefault, PolicyStoreCase::ListBySession),
                (
                    Defect::DeleteKeepsPrincipals,
                    PolicyStoreCase::DeleteBySession,
                ),
                (Defect::RevSurvivesDelete, PolicyStoreCase::DeleteBySession),
                (Defect::Unreachable, PolicyStoreCase::EmptyStore),
            ];
            for (defect, case) in expected {
                let failure = conformance_of(defect).expect_err("a defective store fails");
                assert_eq!(failure.case, case, "{defect:?}: {failure}");
                let text = format!("{failure}");
                assert!(
                    text.contains(&format!("{case:?}")) && text.contains(failure.check),
                    "{text}"
                );
            }
        }

        fn every_case_harness_reports_each_case_of_the_policy_suite() {
            let mut every = EveryCase::new();
            let outcome = block_on(run_policy_store_conformance(
                &mut InMemorySessionPolicyStore::new,
                &mut every,
            ));
            assert_eq!(outcome, Ok(()));
            let ran: Vec<PolicyStoreCase> = every.results.iter().map(|(case, _)| *case).collect();
            assert_eq!(ran, PolicyStoreCase::ALL);
            assert!(every.all_passed());

            let mut every = EveryCase::new();
            let outcome = block_on(run_policy_store_conformance(
                &mut || FlatStore::new(Defect::IgnoresExpectedRev),
                &mut every,
            ));
            assert_eq!(outcome, Ok(()), "EveryCase records failures and goes on");
            assert_eq!(every.results.len(), PolicyStoreCase::ALL.len());
            let failed: Vec<PolicyStoreCase> = every.failures().map(|(case, _)| *case).collect();
            assert!(failed.contains(&PolicyStoreCase::CompareAndSet), "{failed:?}");
            assert!(
                every
                    .result_of(PolicyStoreCase::EmptyStore)
                    .is_some_and(Result::is_ok)
            );
        }

        fn failures_say_which_check_and_why() {
            let failure = conformance_of(Defect::IgnoresExpectedRev).expect_err("fails");
            assert_eq!(
                failure.check,
                "expecting rev 0 once rules exist is a conflict"
            );
            assert!(matches!(
                *failure.problem,
                PolicyStoreProblem::NotRefused {
                    expected: SessionPolicyErrorCode::Conflict,
                    ..
                }
            ));
            let failure = conformance_of(Defect::AlwaysOperator).expect_err("fails");
            assert!(matches!(
                *failure.problem,
                PolicyStoreProblem::NotRefused {
                    expected: SessionPolicyErrorCode::LoosenForbidden,
                    ..
                }
            ));
            let failure = conformance_of(Defect::LoosenBeforeConflict).expect_err("fails");
            assert!(
                matches!(*failure.problem, PolicyStoreProblem::WrongRefusal { .. }),
                "{failure}"
            );
            let failure = conformance_of(Defect::KeepsRawDirs).expect_err("fails");
            assert!(
                matches!(*failure.problem, PolicyStoreProblem::WrongWrite { .. }),
                "{failure}"
            );
            let failure = conformance_of(Defect::FallsBackToDefault).expect_err("fails");
            assert!(
                matches!(*failure.problem, PolicyStoreProblem::WrongRead { .. }),
                "{failure}"
            );
            let failure = conformance_of(Defect::ListsOnlyDefault).expect_err("fails");
            assert!(
                matches!(*failure.problem, PolicyStoreProblem::WrongList { .. }),
                "{failure}"
            );
            let failure = conformance_of(Defect::Unreachable).expect_err("fails");
            assert_eq!(
                *failure.problem,
                PolicyStoreProblem::Backend(ErrorValue::new("Error", "connection refused"))
            );
            let failure = block_on(run_policy_store_conformance(
                &mut BrokenFixture,
                &mut StopAtFirst,
            ))
            .expect_err("fails");
            assert_eq!(failure.case, PolicyStoreCase::EmptyStore);
            assert_eq!(
                *failure.problem,
                PolicyStoreProblem::Fixture(ErrorValue::new("Error", "no database"))
            );
            assert!(format!("{failure}").contains("no database"));
        }

        fn the_in_memory_store_keeps_keys_apart() {
            let store = InMemorySessionPolicyStore::default();
            let alice = store
                .put(
                    "s1",
                    Some("alice"),
                    full_rules(),
                    PutRulesOptions::default(),
                )
                .expect("first write");
            store
                .put(
                    "s1",
                    None,
                    SessionPermissionRules::default(),
                    PutRulesOptions::default(),
                )
                .expect("first write");
            store
                .put(
                    "s2",
                    Some("alice"),
                    full_rules(),
                    PutRulesOptions::default(),
                )
                .expect("first write");
            assert_eq!(
                block_on(store.get_rules("s1", Some("alice"))),
                Ok(Some(alice.clone()))
            );
            assert_eq!(block_on(store.get_rules("s1", Some("bob"))), Ok(None));
            let listed = block_on(store.list_by_session("s1")).expect("lists");
            assert_eq!(listed.len(), 2);
            assert_eq!(listed[0].principal, None, "the default first");
            assert_eq!(listed[1].principal.as_deref(), Some("alice"));
            assert_eq!(block_on(store.delete_by_session("s1")), Ok(()));
            assert_eq!(store.list("s1"), vec![]);
            assert_eq!(store.list("s2").len(), 1);
            // Deleting erases the gate with the rules: the next write has no prior.
            let fresh = store
                .put(
                    "s1",
                    Some("alice"),
                    SessionPermissionRules::default(),
                    PutRulesOptions::expecting(0),
                )
                .expect("no prior rules");
            assert_eq!(fresh.rev(), 1);
        }
    }

    mod enforce {
        fn an_absent_field_imposes_nothing() {
            let rules = SessionPermissionRules::unrestricted();
            for access in [
                ToolAccess::ReadOnly,
                ToolAccess::WritePath("/anywhere"),
                ToolAccess::Command("rm"),
                ToolAccess::UnconfinedWrite,
            ] {
                assert_eq!(check(&rules, "any", access), Verdict::Allow, "{access:?}");
            }
        }

        fn tool_lists_deny_wins() {
            let rules = full_rules();
            assert_eq!(
                check(&rules, "read_file", ToolAccess::ReadOnly),
                Verdict::Allow
            );
            assert_eq!(
                check(&rules, "delete_file", ToolAccess::ReadOnly),
                deny(DenyReason::ToolDenied)
            );
            assert_eq!(
                check(&rules, "web_fetch", ToolAccess::ReadOnly),
                deny(DenyReason::ToolNotAllowed)
            );
            let both = SessionPermissionRules {
                tool_allow: names(&["bash"]),
                tool_deny: names(&["bash"]),
                ..SessionPermissionRules::default()
            };
            assert_eq!(
                check(&both, "bash", ToolAccess::ReadOnly),
                deny(DenyReason::ToolDenied)
            );
            let none = SessionPermissionRules {
                tool_allow: Some(vec![]),
                ..SessionPermissionRules::default()
            };
            assert_eq!(
                check(&none, "read_file", ToolAccess::ReadOnly),
                deny(DenyReason::ToolNotAllowed)
            );
            assert_eq!(
                check(&rules, "Read_File", ToolAccess::ReadOnly),
                deny(DenyReason::ToolNotAllowed),
                "names compare exactly"
            );
        }

        fn writes_are_confined_to_allow_dirs() {
            let rules = full_rules();
            let write = |path| check(&rules, "write_file", ToolAccess::WritePath(path));
            assert_eq!(write("/work/project/src/main.rs"), Verdict::Allow);
            assert_eq!(write("/work/project"), Verdict::Allow);
            assert_eq!(write("c:/Users/me/src/lib.rs"), Verdict::Allow);
            let outside = deny(DenyReason::WriteOutsideAllowDirs);
            assert_eq!(write("/work/project/../../etc/passwd"), outside);
            assert_eq!(write("/work/projects/x"), outside);
            assert_eq!(write("/etc/passwd"), outside);
            assert_eq!(
                write("src/main.rs"),
                outside,
                "a relative target is not within an absolute dir"
            );
            assert_eq!(write("/work/project/..\\..\\etc"), outside, "opaque");
            assert_eq!(write("C:\\Users\\me\\src\\..\\..\\Public\\x"), outside);
            let nowhere = SessionPermissionRules {
                allow_dirs: Some(vec![]),
                ..SessionPermissionRules::default()
            };
            assert_eq!(
                check(&nowhere, "write_file", ToolAccess::WritePath("/tmp/x")),
                outside
            );
            // Without allowDirs a write goes anywhere.
            let open = SessionPermissionRules {
                allow_dirs: None,
                ..full_rules()
            };
            assert_eq!(
                check(&open, "write_file", ToolAccess::WritePath("/etc/passwd")),
                Verdict::Allow
            );
        }

        fn regression_stored_rules_answer_as_written() {
            // Defect 3: `allowDirs: ["./c:"]` denied `c:etc/passwd` as written and allowed it as
            // stored.
            let rules = SessionPermissionRules {
                allow_dirs: names(&["./c:"]),
                ..SessionPermissionRules::default()
            };
            let stored = decide_put(None, rules.clone(), PutRulesOptions::expecting(0))
                .expect("first write")
                .rules;
            for (path, verdict) in [
                ("c:etc/passwd", deny(DenyReason::WriteOutsideAllowDirs)),
                ("C:\\etc\\passwd", deny(DenyReason::WriteOutsideAllowDirs)),
                ("./c:/etc/passwd", Verdict::Allow),
                ("x/../c:/passwd", Verdict::Allow),
            ] {
                let access = ToolAccess::WritePath(path);
                assert_eq!(check(&rules, "write_file", access), verdict, "{path:?} as written");
                assert_eq!(
                    check(&normalize_rules(rules.clone()), "write_file", access),
                    verdict,
                    "{path:?} normalised"
                );
                assert_eq!(check(&stored, "write_file", access), verdict, "{path:?} stored");
            }
        }

        fn regression_windows_writes_fold_case() {
            // Defect 4: `C:\work\x` is within `C:\Work` on Windows.
            let rules = SessionPermissionRules {
                allow_dirs: names(&["C:\\Work", "\\\\Server\\Share\\Out", "/Data"]),
                ..SessionPermissionRules::default()
            };
            let write = |path| check(&rules, "write_file", ToolAccess::WritePath(path));
            let outside = deny(DenyReason::WriteOutsideAllowDirs);
            assert_eq!(write("C:\\work\\x"), Verdict::Allow);
            assert_eq!(write("c:/WORK/a/b"), Verdict::Allow);
            assert_eq!(write("\\\\server\\SHARE\\out\\a"), Verdict::Allow);
            assert_eq!(write("C:\\Workshop"), outside, "a prefix is not containment");
            assert_eq!(write("C:\\Workshop\\x"), outside);
            assert_eq!(write("c:\\work\\..\\Workshop\\x"), outside);
            assert_eq!(write("/data/x"), outside, "POSIX paths stay case-sensitive");
            assert_eq!(write("/Data/x"), Verdict::Allow);
        }

        fn regression_nt_namespace_paths_are_opaque() {
            // `\??\C:\x` is drive C to Windows, not a folder `??` of the current drive: it must
            // not be within `\`, written directly or reached through `..`, before or after the
            // rules are normalised.
            let rules = SessionPermissionRules {
                allow_dirs: names(&["\\"]),
                ..SessionPermissionRules::default()
            };
            let stored = normalize_rules(rules.clone());
            let outside = deny(DenyReason::WriteOutsideAllowDirs);
            for target in ["\\??\\C:\\x", "\\a\\..\\??\\C:\\x", "\\a?b"] {
                for rules in [&rules, &stored] {
                    let verdict = check(rules, "write_file", ToolAccess::WritePath(target));
                    assert_eq!(verdict, outside, "{target}");
                }
                assert_eq!(normalize_path(target), target, "an opaque path is kept as written");
            }
            assert_eq!(
                check(&rules, "write_file", ToolAccess::WritePath("\\work\\x")),
                Verdict::Allow
            );
        }

        fn unconfinable_tools_are_denied_while_allow_dirs_is_set() {
            let confined = SessionPermissionRules {
                allow_dirs: names(&["/work"]),
                ..SessionPermissionRules::default()
            };
            assert_eq!(
                check(&confined, "bash", ToolAccess::Command("ls")),
                deny(DenyReason::UnconfinableWrite)
            );
            assert_eq!(
                check(&confined, "sync_drive", ToolAccess::UnconfinedWrite),
                deny(DenyReason::UnconfinableWrite)
            );
            assert_eq!(
                check(&confined, "read_file", ToolAccess::ReadOnly),
                Verdict::Allow
            );
            let open = SessionPermissionRules::default();
            assert_eq!(
                check(&open, "sync_drive", ToolAccess::UnconfinedWrite),
                Verdict::Allow
            );
        }

        fn commands_match_argv0() {
            let rules = SessionPermissionRules {
                command_allow: names(&["git", "ls", "rm"]),
                command_deny: names(&["rm"]),
                ..SessionPermissionRules::default()
            };
            let run = |argv0| check(&rules, "bash", ToolAccess::Command(argv0));
            assert_eq!(run("git"), Verdict::Allow);
            assert_eq!(run("rm"), deny(DenyReason::CommandDenied), "deny wins");
            assert_eq!(
                run("/bin/rm"),
                deny(DenyReason::CommandDenied),
                "deny matches the program name"
            );
            assert_eq!(run("C:\\bin\\rm"), deny(DenyReason::CommandDenied));
            assert_eq!(run("curl"), deny(DenyReason::CommandNotAllowed));
            assert_eq!(
                run("/tmp/evil/git"),
                deny(DenyReason::CommandNotAllowed),
                "allow matches argv[0] exactly"
            );
            assert_eq!(run(""), deny(DenyReason::CommandNotAllowed));
            // Not a sandbox: a wrapper's argv[0] is all the rules see.
            let deny_only = SessionPermissionRules {
                command_deny: names(&["rm"]),
                ..SessionPermissionRules::default()
            };
            assert_eq!(
                check(&deny_only, "bash", ToolAccess::Command("sudo")),
                Verdict::Allow
            );
            // Command rules do not apply to other tools.
            assert_eq!(
                check(&deny_only, "write_file", ToolAccess::WritePath("rm")),
                Verdict::Allow
            );
        }

        fn the_first_denying_rule_is_the_reason() {
            let rules = SessionPermissionRules {
                tool_allow: names(&["bash"]),
                tool_deny: names(&["edit_file"]),
                allow_dirs: names(&["/work"]),
                command_allow: names(&["git"]),
                command_deny: names(&["rm"]),
            };
            assert_eq!(
                check(&rules, "edit_file", ToolAccess::WritePath("/etc")),
                deny(DenyReason::ToolDenied)
            );
            assert_eq!(
                check(&rules, "write_file", ToolAccess::WritePath("/etc")),
                deny(DenyReason::ToolNotAllowed)
            );
            assert_eq!(
                check(&rules, "bash", ToolAccess::Command("rm")),
                deny(DenyReason::CommandDenied)
            );
            assert_eq!(
                check(&rules, "bash", ToolAccess::Command("curl")),
                deny(DenyReason::CommandNotAllowed)
            );
            assert_eq!(
                check(&rules, "bash", ToolAccess::Command("git")),
                deny(DenyReason::UnconfinableWrite)
            );
        }

        fn a_model_tool_call_is_checked_by_name() {
            let call = ToolCall::new(
                "call-1",
                ToolCallFunction::new("write_file", r#"{"path":"/etc/passwd"}"#),
            );
            let invocation = ToolInvocation::of(&call, ToolAccess::WritePath("/etc/passwd"));
            assert_eq!(invocation.tool_name, "write_file");
            let verdict = full_rules().check(&invocation);
            assert_eq!(verdict, deny(DenyReason::WriteOutsideAllowDirs));
            assert_eq!(
                to_json(&verdict),
                json(r#"{"decision":"deny","reason":"write_outside_allow_dirs"}"#)
            );
        }
    }
}

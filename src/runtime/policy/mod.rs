//! Per-session permission rules (`policy`): the rules, the tighten-only gate, the store port
//! with an in-memory store, and enforcement of one tool call.
//!
//! # This is not a sandbox
//!
//! These rules are a policy fold over the tool calls a host is about to run, nothing more. They
//! match names and compare paths as text. Command rules see only `argv[0]`, so a wrapper
//! (`sh -c`, `sudo`, `env`, `xargs`, an interpreter) runs anything behind an allowed name. Path
//! rules are lexical and cannot see symlinks or hard links. A tool that misdeclares what it
//! does ([`ToolAccess`]) is not caught. The isolation boundary of a deployment is its
//! execution environment (a container, a VM, an account with few rights), never these rules.
//!
//! # The rules
//!
//! [`SessionPermissionRules`] are stored per (session id, principal); principal `None` is the
//! session-wide default. Every field is optional and an absent field imposes nothing:
//! `toolAllow` (if set, only these tools), `toolDeny` (deny wins), `allowDirs` (write tools may
//! only target paths within these; a write-capable tool that cannot be confined to a path, such
//! as a shell, is denied while it is set), `commandAllow` and `commandDeny` (by `argv[0]`).
//! [`SessionPermissionRules::check`] decides one [`ToolInvocation`] ([`Verdict`], with a
//! [`DenyReason`]), allocating nothing.
//!
//! # Writing rules
//!
//! - **Tighten-only.** A write may add denies, narrow allowlists and narrow `allowDirs`.
//!   [`loosen_reasons`] lists every way a write loosens the rules in force (removing a deny,
//!   dropping an allowlist or adding an entry outside it, dropping confinement, adding a
//!   directory not within a prior one). A write with reasons is refused with
//!   [`SessionPolicyError::LoosenForbidden`] unless [`PutRulesOptions::operator`] is set. The
//!   crate has no roles: the caller sets the flag only from a verified principal.
//! - **Compare-and-set.** A write whose `expectedRev` is not the stored revision is refused with
//!   [`SessionPolicyError::Conflict`], so two replicas never lose an update. The store alone
//!   stamps revisions ([`StoredSessionRules`]): the rules type has no revision field, and
//!   [`strip_rev`] and the document decoder drop one a caller passes.
//! - **Normalised.** Stored `allowDirs` are normalised ([`normalize_rules`]).
//! - [`decide_put`] is the whole write decision as a pure function. The in-memory store
//!   ([`InMemorySessionPolicyStore`]) is that function over a map; a durable backend runs the
//!   same function inside its own compare-and-set, and proves it with the conformance suite
//!   (`testing`, feature `testing`).
//!
//! # Paths
//!
//! [`lex_within`] normalises both paths first (`.`, `..`, repeated separators), so
//! `<prior>/../etc` is not within `<prior>`, and [`normalize_path`] gives the stored form (a
//! relative POSIX path that would start like a drive keeps `./`, so storing never changes an
//! answer).
//!
//! - **Windows family**: a path that starts with a drive letter or `\`. Both `\` and `/`
//!   separate, and the whole path folds ASCII case (`C:\Work` is `c:/work`; `C:\Workshop` is not
//!   within it; non-ASCII letters do not fold). In `\\server\share\…` the server and share
//!   (case folded) are the prefix and `..` stops at the share.
//! - **POSIX family**: any other path; only `/` separates.
//! - Paths of different families, prefixes or rootedness never contain one another; relative
//!   paths compare with relative paths (`work` contains `work/a`, not `../work/a`).
//! - **Opaque paths** mean different things to different readers, so they are within nothing,
//!   contain nothing and normalise to themselves: a POSIX-family path containing `\` (one name
//!   on POSIX, a climb on Windows), Windows device and verbatim paths (`\\?\`, `\\.\`), a
//!   UNC path without server or share, and a Windows path with a component ending in `.` or a
//!   space (Windows strips those). An opaque target is denied while `allowDirs` is set; adding
//!   an opaque directory loosens.
//!
//! Residual, by design: the check is lexical. A stored directory whose last component is a
//! symlink to elsewhere is "within" here and resolves elsewhere at run time. While `allowDirs`
//! is set a confined non-operator cannot run a shell (it is unconfinable), so it cannot create
//! such a link itself; keep `allowDirs` to real directories, and pass
//! [`ToolAccess::WritePath`] targets with symlinks resolved where the host can.
//!
//! # Guarantees
//!
//! - **Checking allocates nothing.** [`SessionPermissionRules::check`] and [`lex_within`] borrow
//!   their input and never touch the heap (`tests/policy_alloc.rs` counts); a check is linear in
//!   the size of the rules and the call.
//! - **The gate never under-reports.** [`lex_within`] never says yes where the normalised path
//!   escapes the normalised root (a seeded property test over paths built from segments, `.`,
//!   `..`, `//`, `\` and drive letters), and a non-operator write succeeds exactly when
//!   [`loosen_reasons`] is empty (a seeded property test over random rule sets).
//! - **A refused write stores nothing**, and a stored revision only grows, by one per write.
//! - **No panics, no unsafe code, no clock, no I/O, no `Send` bound.** Bad input is a typed
//!   error ([`RulesDocumentError`], [`SessionPolicyError`]).
//!
//! # Example
//!
//! ```
//! use agent_interface::runtime::policy::{
//!     DenyReason, InMemorySessionPolicyStore, LoosenReason, PutRulesOptions,
//!     SessionPermissionRules, SessionPolicyError, ToolAccess, ToolInvocation, Verdict,
//! };
//!
//! let store = InMemorySessionPolicyStore::new();
//! let narrowed = SessionPermissionRules {
//!     allow_dirs: Some(vec!["/work/./src/".into()]),
//!     ..SessionPermissionRules::default()
//! };
//! let stored = store.put("s1", None, narrowed, PutRulesOptions::expecting(0)).unwrap();
//! assert_eq!(stored.rules.allow_dirs, Some(vec!["/work/src".into()]));
//!
//! let write = |path| ToolInvocation::new("write_file", ToolAccess::WritePath(path));
//! assert_eq!(stored.rules.check(&write("/work/src/lib.rs")), Verdict::Allow);
//! let escape = stored.rules.check(&write("/work/src/../../etc/passwd"));
//! assert_eq!(escape.deny_reason(), Some(DenyReason::WriteOutsideAllowDirs));
//! let shell = stored.rules.check(&ToolInvocation::new("bash", ToolAccess::Command("ls")));
//! assert_eq!(shell.deny_reason(), Some(DenyReason::UnconfinableWrite));
//!
//! // Widening the confinement needs an operator.
//! let wider = SessionPermissionRules {
//!     allow_dirs: Some(vec!["/work".into()]),
//!     ..SessionPermissionRules::default()
//! };
//! let refused = store.put("s1", None, wider.clone(), PutRulesOptions::expecting(1));
//! assert_eq!(
//!     refused,
//!     Err(SessionPolicyError::LoosenForbidden {
//!         reasons: vec![LoosenReason::DirOutside { dir: "/work".into() }],
//!     })
//! );
//! let operator = PutRulesOptions::expecting(1).as_operator();
//! assert_eq!(store.put("s1", None, wider, operator).unwrap().rev(), 2);
//! ```
//!
//! # Decisions where the seed is silent
//!
//! - The store port is async (a database backend needs it) with no `Send` bound; listing and
//!   deleting are required members, not optional ones.
//! - A tool call is described by the host ([`ToolAccess`]): read-only, a write to one path, a
//!   command with its `argv[0]`, or an unconfinable write. The crate does not parse arguments.
//! - `commandDeny` matches `argv[0]` or its program name (`/bin/rm` is `rm`); `commandAllow`
//!   matches `argv[0]` exactly. Both are the conservative direction.
//! - Revisions start at 1; `expectedRev` 0 means "no stored rules". A conflict is checked before
//!   the loosen gate. After `delete_by_session`, a key starts again at revision 1, so a writer
//!   holding a revision read before the delete can match a recreated record (the usual ABA of
//!   counters that restart); an importer that overwrites a session deletes, then writes.
//! - `get_rules` reads exactly one key: it does not fall back from a principal to the session
//!   default.
//! - Loosen reasons and refusals are typed ([`LoosenReason`], [`SessionPolicyError`]) with wire
//!   forms tagged on `kind` and `code`.
//! - The rules document decoder is strict: unknown keys, `null` and non-string entries are
//!   refused ([`RulesDocumentError`]); `rev` is stripped. The `serde` decoders of the rules and
//!   stored rules read the object member by member (each value as a JSON value) and then apply
//!   that decoder, so they are JSON-only; they also refuse a member written twice
//!   ([`RulesDocumentError::DuplicateField`]), which a parsed JSON value can no longer show, so
//!   the text entry point (`serde_json::from_str`/`from_slice`) is the strict one. See
//!   `docs/decisions/strict-decoding.md`.
//! - Windows-family paths, opaque paths and the relative-path reading above are this crate's
//!   (the seed names only the drive-letter and separator fold; the whole-path ASCII fold is
//!   this crate's, see `docs/decisions/policy.md`); each errs towards "not within".

mod enforce;
mod loosen;
mod path;
mod rules;
mod store;

#[cfg(feature = "testing")]
pub mod testing;

pub use enforce::{DenyReason, ToolAccess, ToolInvocation, Verdict};
pub use loosen::{LoosenReason, loosen_reasons};
pub use path::{lex_within, normalize_path};
pub use rules::{
    AllowList, DenyList, RulesDocumentError, RulesField, SessionPermissionRules,
    SessionRulesRecord, StoredSessionRules, normalize_rules, strip_rev,
};
pub use store::{
    InMemorySessionPolicyStore, PutRulesError, PutRulesOptions, SessionPolicyError,
    SessionPolicyErrorCode, SessionPolicyStore, decide_put,
};

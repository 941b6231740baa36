//! Per-session permission rules (feature `policy`): the rules, the tighten-only gate, the store
//! port with an in-memory store, and enforcement of one tool call.
//!
//! A host stores [`SessionPermissionRules`] per (session id, principal; `None` is the
//! session-wide default) and asks [`SessionPermissionRules::check`] for a [`Verdict`] on each
//! [`ToolInvocation`] before running it. Every field is optional and an absent one imposes
//! nothing: `toolAllow`, `toolDeny` (deny wins), `allowDirs` (write tools only within these; an
//! unconfinable write such as a shell is denied while it is set), `commandAllow` and
//! `commandDeny` (by `argv[0]`).
//!
//! **This is not a sandbox.** The rules match names and compare paths as text: command rules
//! see only `argv[0]` (`sh -c`, `sudo`, `env`, `xargs` or an interpreter run anything behind an
//! allowed name), path rules cannot see symlinks or hard links, and a tool that misdeclares its
//! [`ToolAccess`] is not caught. Isolation is the execution environment's (container, VM,
//! account with few rights).
//!
//! # Guarantees
//!
//! - **Tighten-only writes.** [`loosen_reasons`] lists every way a write loosens the rules in
//!   force; a write with reasons is refused ([`SessionPolicyError::LoosenForbidden`]) unless
//!   [`PutRulesOptions::operator`] is set (the caller sets it only from a verified principal; the
//!   crate has no roles). A non-operator write succeeds exactly when the reasons are empty.
//! - **Compare-and-set.** A write whose `expectedRev` is not the stored revision is refused
//!   ([`SessionPolicyError::Conflict`]). Only the store stamps revisions
//!   ([`StoredSessionRules`]; [`strip_rev`] and the document decoder drop a caller's); a stored
//!   revision only grows, by one per write, and a refused write stores nothing.
//! - **One decision for every backend.** [`decide_put`] is the whole write decision as a pure
//!   function; [`InMemorySessionPolicyStore`] is it over a map, a durable backend runs it inside
//!   its own compare-and-set and proves it with the conformance suite (`testing`).
//! - **Paths never under-report.** [`lex_within`] normalises both sides (`.`, `..`, repeated
//!   separators) and never says yes where the path escapes the root; stored `allowDirs` are
//!   normalised ([`normalize_rules`], [`normalize_path`]) and storing never changes an answer.
//!   Windows-family paths (drive or leading `\`) take `\` and `/` and fold ASCII case; POSIX
//!   paths take `/` only; different families, prefixes or rootedness never contain one another.
//!   Opaque paths (see `path.rs`) are within nothing: an opaque target is denied while
//!   `allowDirs` is set. The check is lexical: keep `allowDirs` to real directories.
//! - **Checking allocates nothing** and is linear in the rules and the call
//!   (`tests/policy_alloc.rs`).
//! - **No panics, no unsafe code, no clock, no I/O, no `Send` bound**; bad input is a typed
//!   error ([`RulesDocumentError`], [`SessionPolicyError`]).
//! - **Shared across threads when asked**: [`InMemorySessionPolicyStore::new`] is
//!   single-threaded; `InMemorySessionPolicyStore::<CriticalSectionRawMutex>::with_lock()` is
//!   `Send + Sync` with `Send` futures, and a read-check-write stays atomic across threads.
//!
//! # Example
//!
//! ```
//! use agent_interface::runtime::policy::*;
//!
//! let store = InMemorySessionPolicyStore::new();
//! let rules = SessionPermissionRules {
//!     allow_dirs: Some(vec!["/work/./src/".into()]),
//!     ..SessionPermissionRules::default()
//! };
//! let stored = store.put("s1", None, rules, PutRulesOptions::expecting(0)).unwrap();
//! assert_eq!(stored.rules.allow_dirs, Some(vec!["/work/src".into()]));
//!
//! let write = |path| ToolInvocation::new("write_file", ToolAccess::WritePath(path));
//! assert_eq!(stored.rules.check(&write("/work/src/lib.rs")), Verdict::Allow);
//! let escape = stored.rules.check(&write("/work/src/../../etc/passwd"));
//! assert_eq!(escape.deny_reason(), Some(DenyReason::WriteOutsideAllowDirs));
//!
//! // Widening the confinement needs an operator.
//! let wider = SessionPermissionRules { allow_dirs: Some(vec!["/work".into()]), ..Default::default() };
//! assert!(store.put("s1", None, wider.clone(), PutRulesOptions::expecting(1)).is_err());
//! let operator = PutRulesOptions::expecting(1).as_operator();
//! assert_eq!(store.put("s1", None, wider, operator).unwrap().rev(), 2);
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/policy.md`.

mod enforce;
mod loosen;
mod path;
mod rules;
mod store;

#[cfg(feature = "testing")]
pub mod testing;

// The locks this piece is generic over (embassy-sync's, from `agent_core`): a host's imports
// name this one module.
#[doc(no_inline)]
pub use crate::agent_core::{CriticalSectionRawMutex, NoopRawMutex, RawMutex};
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

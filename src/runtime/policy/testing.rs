//! The policy store conformance suite: the cases any [`SessionPolicyStore`] backend runs against
//! itself, with no test harness assumed. It is the cross-backend contract: a durable backend
//! that passes it has the in-memory store's compare-and-set, tighten-only, operator,
//! normalisation, listing and deletion semantics.
//!
//! - **A fresh store per case**, from the host's [`PolicyStoreFixture`] (a closure returning a
//!   store is one). A durable backend hands out an empty schema, table or key prefix.
//! - **Every case is mandatory.** [`run_policy_store_conformance`] runs every case
//!   ([`SuiteCase::ALL`] of [`PolicyStoreCase`]) through a [`CaseHarness`]: with
//!   [`StopAtFirst`](crate::conformance::StopAtFirst) it stops at the first failure, with
//!   [`EveryCase`](crate::conformance::EveryCase) it keeps one result per case. There is no
//!   skip list, so a passing run means every case passed. [`run_policy_store_case`] runs one.
//!   This is the crate's common suite shape ([`crate::conformance`]).
//! - **A typed failure** names the case, the check within it, and what went wrong
//!   ([`PolicyStoreConformanceFailure`]).
//!
//! The suite uses session ids `s1`, `s2`, `s3`, `s9` and principals `alice` and `bob`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::agent_core::ErrorValue;
use crate::conformance::{self, CaseHarness, SuiteCase};

use super::{
    LoosenReason, PutRulesError, PutRulesOptions, SessionPermissionRules, SessionPolicyError,
    SessionPolicyErrorCode, SessionPolicyStore, SessionRulesRecord, StoredSessionRules,
    loosen_reasons, normalize_rules, strip_rev,
};

/// The host's harness for one backend: a fresh, empty store per case.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design.
pub trait PolicyStoreFixture {
    /// The store under test.
    type Store: SessionPolicyStore;

    /// A fresh store holding no records; called once per case.
    ///
    /// # Errors
    /// Why the fixture could not make one (the case fails with
    /// [`PolicyStoreProblem::Fixture`]).
    async fn create(&mut self) -> Result<Self::Store, ErrorValue>;
}

/// Any closure that makes a store is a fixture.
impl<S: SessionPolicyStore, F: FnMut() -> S> PolicyStoreFixture for F {
    type Store = S;

    async fn create(&mut self) -> Result<S, ErrorValue> {
        Ok(self())
    }
}

/// One case of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PolicyStoreCase {
    /// A fresh store reads nothing, lists nothing, and deleting an empty session succeeds.
    EmptyStore,
    /// A first write stores the normalised rules at revision 1 and reads back the same.
    FirstWrite,
    /// Every accepted write (a no-op too) stamps the next revision, exactly one more.
    RevisionsGrowByOne,
    /// A stale, early or ahead `expectedRev` is a conflict naming both revisions, leaves the
    /// record as it was, and binds operators too; a matching one, or none, writes.
    CompareAndSet,
    /// Each kind of loosening by a non-operator is refused with exactly the loosen reasons,
    /// leaving the record as it was; a tightening write succeeds.
    TightenOnly,
    /// An operator write may loosen.
    OperatorLoosening,
    /// A stale write that would also loosen is a conflict, not a loosening.
    ConflictBeforeLoosen,
    /// Stored `allowDirs` are normalised, and a `..` that climbs out of a prior directory is a
    /// loosening.
    Normalisation,
    /// (session, principal) keys are independent: no fallback from a principal to the session
    /// default, and each key has its own revisions and gate.
    KeysAreIndependent,
    /// Listing a session returns every principal's record of that session and nothing else,
    /// and the records replay into another session.
    ListBySession,
    /// Deleting a session removes all of its records and nothing else, is idempotent, and a
    /// key written afterwards starts again at revision 1 with no prior rules.
    DeleteBySession,
}

/// Every case, in run order; all are mandatory.
impl SuiteCase for PolicyStoreCase {
    const ALL: &'static [Self] = &[
        Self::EmptyStore,
        Self::FirstWrite,
        Self::RevisionsGrowByOne,
        Self::CompareAndSet,
        Self::TightenOnly,
        Self::OperatorLoosening,
        Self::ConflictBeforeLoosen,
        Self::Normalisation,
        Self::KeysAreIndependent,
        Self::ListBySession,
        Self::DeleteBySession,
    ];
}

/// What went wrong in a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyStoreProblem {
    /// The fixture could not make a store.
    Fixture(ErrorValue),
    /// The backend failed (its error, as text).
    Backend(ErrorValue),
    /// A write that must succeed was refused.
    Refused(SessionPolicyError),
    /// A write that must be refused with `expected` was stored.
    NotRefused {
        /// The refusal the contract requires.
        expected: SessionPolicyErrorCode,
        /// What the store stored.
        stored: StoredSessionRules,
    },
    /// A write was refused otherwise than the contract requires (another code, other
    /// revisions, other reasons).
    WrongRefusal {
        /// The refusal the contract requires.
        expected: SessionPolicyError,
        /// The store's refusal.
        received: SessionPolicyError,
    },
    /// An accepted write returned other stored rules than the contract requires.
    WrongWrite {
        /// What the contract requires.
        expected: StoredSessionRules,
        /// What the store returned.
        received: StoredSessionRules,
    },
    /// A read returned other rules than the contract requires.
    WrongRead {
        /// What the contract requires.
        expected: Option<StoredSessionRules>,
        /// What the store returned.
        received: Option<StoredSessionRules>,
    },
    /// A listing (sorted by principal, the default first, before comparing) differs.
    WrongList {
        /// What the contract requires.
        expected: Vec<SessionRulesRecord>,
        /// What the store returned, sorted.
        received: Vec<SessionRulesRecord>,
    },
}

/// A failed case: which, where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("policy store conformance {case:?}, {check}: {}", Problem(problem))]
pub struct PolicyStoreConformanceFailure {
    /// The case that failed.
    pub case: PolicyStoreCase,
    /// The check within the case, in words.
    pub check: &'static str,
    /// Why (boxed: a problem carries whole rule sets, a failure stays small).
    pub problem: Box<PolicyStoreProblem>,
}

/// A [`PolicyStoreProblem`] as a [`PolicyStoreConformanceFailure`] prints it.
struct Problem<'a>(&'a PolicyStoreProblem);

impl fmt::Display for Problem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            PolicyStoreProblem::Fixture(error) => write!(f, "the fixture failed: {error}"),
            PolicyStoreProblem::Backend(error) => write!(f, "the backend failed: {error}"),
            PolicyStoreProblem::Refused(refusal) => write!(f, "refused: {refusal}"),
            PolicyStoreProblem::NotRefused { expected, stored } => write!(
                f,
                "expected {expected}, but the write was stored at rev {}",
                stored.rev
            ),
            PolicyStoreProblem::WrongRefusal { expected, received } => {
                write!(f, "expected `{expected}`, received `{received}`")
            }
            PolicyStoreProblem::WrongWrite { expected, received } => {
                write!(f, "expected to store {expected:?}, stored {received:?}")
            }
            PolicyStoreProblem::WrongRead { expected, received } => {
                write!(f, "expected to read {expected:?}, read {received:?}")
            }
            PolicyStoreProblem::WrongList { expected, received } => {
                write!(f, "expected the records {expected:?}, listed {received:?}")
            }
        }
    }
}

/// Runs every case, each on a fresh store, through `harness`.
///
/// # Errors
/// The failure the harness ended the run with (with
/// [`StopAtFirst`](crate::conformance::StopAtFirst), the first case that failed).
pub async fn run_policy_store_conformance<F: PolicyStoreFixture>(
    fixture: &mut F,
    harness: &mut impl CaseHarness<PolicyStoreCase, PolicyStoreConformanceFailure>,
) -> Result<(), PolicyStoreConformanceFailure> {
    conformance::run_suite(harness, async |case| {
        run_policy_store_case(fixture, case).await
    })
    .await
}

/// Runs one case on a fresh store.
///
/// # Errors
/// Why the case failed.
pub async fn run_policy_store_case<F: PolicyStoreFixture>(
    fixture: &mut F,
    case: PolicyStoreCase,
) -> Result<(), PolicyStoreConformanceFailure> {
    let store = fixture
        .create()
        .await
        .map_err(|error| PolicyStoreConformanceFailure {
            case,
            check: "creating a fresh store",
            problem: Box::new(PolicyStoreProblem::Fixture(error)),
        })?;
    let run = Run { store: &store };
    let outcome = match case {
        PolicyStoreCase::EmptyStore => run.empty_store().await,
        PolicyStoreCase::FirstWrite => run.first_write().await,
        PolicyStoreCase::RevisionsGrowByOne => run.revisions_grow_by_one().await,
        PolicyStoreCase::CompareAndSet => run.compare_and_set().await,
        PolicyStoreCase::TightenOnly => run.tighten_only().await,
        PolicyStoreCase::OperatorLoosening => run.operator_loosening().await,
        PolicyStoreCase::ConflictBeforeLoosen => run.conflict_before_loosen().await,
        PolicyStoreCase::Normalisation => run.normalisation().await,
        PolicyStoreCase::KeysAreIndependent => run.keys_are_independent().await,
        PolicyStoreCase::ListBySession => run.list_by_session().await,
        PolicyStoreCase::DeleteBySession => run.delete_by_session().await,
    };
    outcome.map_err(|(check, problem)| PolicyStoreConformanceFailure {
        case,
        check,
        problem: Box::new(problem),
    })
}

type Checked<T = ()> = Result<T, (&'static str, PolicyStoreProblem)>;

fn list(names: &[&str]) -> Option<Vec<String>> {
    Some(names.iter().map(|name| String::from(*name)).collect())
}

/// The rules every case starts from: every field set.
fn baseline() -> SessionPermissionRules {
    SessionPermissionRules {
        tool_allow: list(&["read_file", "write_file", "bash"]),
        tool_deny: list(&["delete_file"]),
        allow_dirs: list(&["/work"]),
        command_allow: list(&["git", "ls"]),
        command_deny: list(&["rm"]),
    }
}

/// The normalised `rules` at revision `rev` (at least 1), as a read expects them.
fn at(rev: u64, rules: SessionPermissionRules) -> Option<StoredSessionRules> {
    Some(StoredSessionRules {
        rev: core::num::NonZeroU64::new(rev)?,
        rules: normalize_rules(rules),
    })
}

fn backend<E: fmt::Display>(check: &'static str, error: &E) -> (&'static str, PolicyStoreProblem) {
    (
        check,
        PolicyStoreProblem::Backend(ErrorValue::new(
            ErrorValue::GENERIC_NAME,
            format!("{error}"),
        )),
    )
}

fn sorted(mut records: Vec<SessionRulesRecord>) -> Vec<SessionRulesRecord> {
    records.sort_by(|a, b| a.principal.cmp(&b.principal));
    records
}

/// The records a listing expects (a record for each `Some`).
fn records<const N: usize>(
    entries: [(Option<&str>, Option<StoredSessionRules>); N],
) -> Vec<SessionRulesRecord> {
    entries
        .into_iter()
        .filter_map(|(principal, rules)| {
            Some(SessionRulesRecord {
                principal: principal.map(String::from),
                rules: rules?,
            })
        })
        .collect()
}

struct Run<'s, S> {
    store: &'s S,
}

impl<S: SessionPolicyStore> Run<'_, S> {
    async fn put(
        &self,
        check: &'static str,
        key: (&str, Option<&str>),
        rules: SessionPermissionRules,
        options: PutRulesOptions,
    ) -> Checked<Result<StoredSessionRules, SessionPolicyError>> {
        match self.store.put_rules(key.0, key.1, rules, options).await {
            Ok(stored) => Ok(Ok(stored)),
            Err(PutRulesError::Refused(refusal)) => Ok(Err(refusal)),
            Err(PutRulesError::Backend(error)) => Err(backend(check, &error)),
        }
    }

    /// A write that must store exactly `expected`.
    async fn write(
        &self,
        check: &'static str,
        key: (&str, Option<&str>),
        rules: SessionPermissionRules,
        options: PutRulesOptions,
        expected: Option<StoredSessionRules>,
    ) -> Checked {
        match self.put(check, key, rules, options).await? {
            Err(refusal) => Err((check, PolicyStoreProblem::Refused(refusal))),
            Ok(received) => match expected {
                Some(expected) if expected == received => Ok(()),
                Some(expected) => {
                    Err((check, PolicyStoreProblem::WrongWrite { expected, received }))
                }
                None => Ok(()),
            },
        }
    }

    /// A write that must be refused with exactly `expected`, leaving the key as it was.
    async fn refused(
        &self,
        check: &'static str,
        key: (&str, Option<&str>),
        rules: SessionPermissionRules,
        options: PutRulesOptions,
        expected: SessionPolicyError,
    ) -> Checked {
        let before = self.get(check, key).await?;
        match self.put(check, key, rules, options).await? {
            Ok(stored) => {
                return Err((
                    check,
                    PolicyStoreProblem::NotRefused {
                        expected: expected.code(),
                        stored,
                    },
                ));
            }
            Err(received) if received != expected => {
                return Err((
                    check,
                    PolicyStoreProblem::WrongRefusal { expected, received },
                ));
            }
            Err(_) => {}
        }
        self.read(check, key, before).await
    }

    async fn get(
        &self,
        check: &'static str,
        key: (&str, Option<&str>),
    ) -> Checked<Option<StoredSessionRules>> {
        self.store
            .get_rules(key.0, key.1)
            .await
            .map_err(|error| backend(check, &error))
    }

    /// A read that must return exactly `expected`.
    async fn read(
        &self,
        check: &'static str,
        key: (&str, Option<&str>),
        expected: Option<StoredSessionRules>,
    ) -> Checked {
        let received = self.get(check, key).await?;
        if received == expected {
            Ok(())
        } else {
            Err((check, PolicyStoreProblem::WrongRead { expected, received }))
        }
    }

    async fn list(
        &self,
        check: &'static str,
        session: &str,
        expected: Vec<SessionRulesRecord>,
    ) -> Checked<Vec<SessionRulesRecord>> {
        let received = self
            .store
            .list_by_session(session)
            .await
            .map_err(|error| backend(check, &error))?;
        let received = sorted(received);
        let expected = sorted(expected);
        if received == expected {
            Ok(received)
        } else {
            Err((check, PolicyStoreProblem::WrongList { expected, received }))
        }
    }

    async fn delete(&self, check: &'static str, session: &str) -> Checked {
        self.store
            .delete_by_session(session)
            .await
            .map_err(|error| backend(check, &error))
    }

    async fn empty_store(&self) -> Checked {
        self.read("a fresh store reads nothing", ("s1", None), None)
            .await?;
        self.read(
            "a fresh store reads nothing for a principal",
            ("s1", Some("alice")),
            None,
        )
        .await?;
        self.list("a fresh store lists nothing", "s1", vec![])
            .await?;
        self.delete("deleting a session with no records succeeds", "s1")
            .await?;
        self.list("a deleted empty session lists nothing", "s1", vec![])
            .await?;
        Ok(())
    }

    async fn first_write(&self) -> Checked {
        let rules = SessionPermissionRules {
            allow_dirs: list(&["/work/./src/", "/work//docs"]),
            ..baseline()
        };
        let expected = at(1, rules.clone());
        let check = "a first write stores the normalised rules at rev 1";
        self.write(
            check,
            ("s1", None),
            rules,
            PutRulesOptions::default(),
            expected.clone(),
        )
        .await?;
        self.read("a first write reads back", ("s1", None), expected)
            .await?;
        let check = "a first write expecting rev 0 is stored at rev 1";
        self.write(
            check,
            ("s1", Some("alice")),
            SessionPermissionRules::unrestricted(),
            PutRulesOptions::expecting(0),
            at(1, SessionPermissionRules::unrestricted()),
        )
        .await
    }

    async fn revisions_grow_by_one(&self) -> Checked {
        let key = ("s1", None);
        let mut rules = baseline();
        let options = PutRulesOptions::default();
        self.write("rev 1", key, rules.clone(), options, at(1, rules.clone()))
            .await?;
        rules.tool_deny = list(&["delete_file", "web_fetch"]);
        self.write(
            "a tightening write stamps rev 2",
            key,
            rules.clone(),
            options,
            at(2, rules.clone()),
        )
        .await?;
        self.write(
            "a write that changes nothing stamps rev 3",
            key,
            rules.clone(),
            options,
            at(3, rules.clone()),
        )
        .await?;
        self.read("reads the last write", key, at(3, rules)).await
    }

    async fn compare_and_set(&self) -> Checked {
        let key = ("s1", None);
        let rules = baseline();
        let conflict = |expected_rev, current_rev| SessionPolicyError::Conflict {
            expected_rev,
            current_rev,
        };
        self.write(
            "expecting rev 0 creates",
            key,
            rules.clone(),
            PutRulesOptions::expecting(0),
            at(1, rules.clone()),
        )
        .await?;
        self.refused(
            "expecting rev 0 once rules exist is a conflict",
            key,
            rules.clone(),
            PutRulesOptions::expecting(0),
            conflict(0, 1),
        )
        .await?;
        self.write(
            "expecting the stored rev writes",
            key,
            rules.clone(),
            PutRulesOptions::expecting(1),
            at(2, rules.clone()),
        )
        .await?;
        self.refused(
            "a stale expectedRev is a conflict",
            key,
            rules.clone(),
            PutRulesOptions::expecting(1),
            conflict(1, 2),
        )
        .await?;
        self.refused(
            "an expectedRev ahead of the store is a conflict",
            key,
            rules.clone(),
            PutRulesOptions::expecting(7),
            conflict(7, 2),
        )
        .await?;
        self.refused(
            "an operator write is bound by compare-and-set too",
            key,
            SessionPermissionRules::unrestricted(),
            PutRulesOptions::expecting(1).as_operator(),
            conflict(1, 2),
        )
        .await?;
        self.write(
            "no expectedRev skips the check",
            key,
            rules.clone(),
            PutRulesOptions::default(),
            at(3, rules.clone()),
        )
        .await?;
        self.refused(
            "expecting a rev where nothing is stored is a conflict",
            ("s2", None),
            rules,
            PutRulesOptions::expecting(1),
            conflict(1, 0),
        )
        .await
    }

    async fn tighten_only(&self) -> Checked {
        let key = ("s1", None);
        let prior = baseline();
        self.write(
            "the prior rules",
            key,
            prior.clone(),
            PutRulesOptions::default().as_operator(),
            at(1, prior.clone()),
        )
        .await?;
        let loosenings: [(&'static str, SessionPermissionRules); 8] = [
            (
                "removing a tool deny is refused",
                SessionPermissionRules {
                    tool_deny: list(&[]),
                    ..baseline()
                },
            ),
            (
                "dropping the tool allowlist is refused",
                SessionPermissionRules {
                    tool_allow: None,
                    ..baseline()
                },
            ),
            (
                "adding a tool outside the allowlist is refused",
                SessionPermissionRules {
                    tool_allow: list(&["read_file", "web_fetch"]),
                    ..baseline()
                },
            ),
            (
                "dropping allowDirs is refused",
                SessionPermissionRules {
                    allow_dirs: None,
                    ..baseline()
                },
            ),
            (
                "adding a dir outside allowDirs is refused",
                SessionPermissionRules {
                    allow_dirs: list(&["/work/a", "/etc"]),
                    ..baseline()
                },
            ),
            (
                "adding a command outside the allowlist is refused",
                SessionPermissionRules {
                    command_allow: list(&["git", "curl"]),
                    ..baseline()
                },
            ),
            (
                "dropping the command deny-list is refused",
                SessionPermissionRules {
                    command_deny: None,
                    ..baseline()
                },
            ),
            (
                "several loosenings are all reported, in order",
                SessionPermissionRules::unrestricted(),
            ),
        ];
        for (check, next) in loosenings {
            let reasons = loosen_reasons(
                &normalize_rules(prior.clone()),
                &normalize_rules(next.clone()),
            );
            self.refused(
                check,
                key,
                next,
                PutRulesOptions::default(),
                SessionPolicyError::LoosenForbidden { reasons },
            )
            .await?;
        }
        let tighter = SessionPermissionRules {
            tool_allow: list(&["read_file", "write_file"]),
            tool_deny: list(&["delete_file", "bash"]),
            allow_dirs: list(&["/work/src", "/work/docs"]),
            command_allow: list(&[]),
            command_deny: list(&["rm", "curl"]),
        };
        self.write(
            "a tightening write succeeds",
            key,
            tighter.clone(),
            PutRulesOptions::expecting(1),
            at(2, tighter),
        )
        .await
    }

    async fn operator_loosening(&self) -> Checked {
        let key = ("s1", Some("alice"));
        let prior = baseline();
        self.write(
            "the prior rules",
            key,
            prior.clone(),
            PutRulesOptions::default(),
            at(1, prior),
        )
        .await?;
        let looser = SessionPermissionRules {
            tool_allow: None,
            allow_dirs: list(&["/work", "/srv/data"]),
            ..SessionPermissionRules::unrestricted()
        };
        self.write(
            "an operator write may loosen",
            key,
            looser.clone(),
            PutRulesOptions::expecting(1).as_operator(),
            at(2, looser.clone()),
        )
        .await?;
        self.read("the loosened rules are in force", key, at(2, looser))
            .await?;
        self.write(
            "an operator write may lift every rule",
            key,
            SessionPermissionRules::unrestricted(),
            PutRulesOptions::default().as_operator(),
            at(3, SessionPermissionRules::unrestricted()),
        )
        .await
    }

    async fn conflict_before_loosen(&self) -> Checked {
        let key = ("s1", None);
        let prior = baseline();
        self.write(
            "the prior rules",
            key,
            prior.clone(),
            PutRulesOptions::default(),
            at(1, prior),
        )
        .await?;
        self.refused(
            "a stale loosening write is a conflict",
            key,
            SessionPermissionRules::unrestricted(),
            PutRulesOptions::expecting(0),
            SessionPolicyError::Conflict {
                expected_rev: 0,
                current_rev: 1,
            },
        )
        .await
    }

    async fn normalisation(&self) -> Checked {
        let key = ("s1", None);
        let raw = SessionPermissionRules {
            allow_dirs: list(&[
                "/work/./a//b/../c/",
                "c:/Data\\.\\x\\..",
                "\\\\host\\share\\logs\\..\\out",
                "/srv/odd\\name",
            ]),
            ..baseline()
        };
        let normalised = SessionPermissionRules {
            allow_dirs: list(&[
                "/work/a/c",
                "C:\\Data",
                "\\\\host\\share\\out",
                "/srv/odd\\name",
            ]),
            ..baseline()
        };
        let expected = StoredSessionRules {
            rev: core::num::NonZeroU64::MIN,
            rules: normalised,
        };
        self.write(
            "allowDirs are stored normalised",
            key,
            raw,
            PutRulesOptions::default(),
            Some(expected.clone()),
        )
        .await?;
        let smuggled = SessionPermissionRules {
            allow_dirs: list(&["/work/a/c/../../../etc"]),
            ..baseline()
        };
        self.refused(
            "a `..` that climbs out of the prior dir loosens",
            key,
            smuggled,
            PutRulesOptions::default(),
            SessionPolicyError::LoosenForbidden {
                reasons: vec![LoosenReason::DirOutside {
                    dir: String::from("/etc"),
                }],
            },
        )
        .await?;
        let inside = SessionPermissionRules {
            allow_dirs: list(&["/work/a/c/./d/../e", "C:/DATA/../Data/sub"]),
            ..baseline()
        };
        let expected = SessionPermissionRules {
            allow_dirs: list(&["/work/a/c/e", "C:\\Data\\sub"]),
            ..baseline()
        };
        self.write(
            "a raw dir that normalises inside a prior dir tightens",
            key,
            inside,
            PutRulesOptions::expecting(1),
            at(2, expected),
        )
        .await
    }

    async fn keys_are_independent(&self) -> Checked {
        let default = baseline();
        let alice = SessionPermissionRules {
            tool_deny: list(&["bash"]),
            ..SessionPermissionRules::unrestricted()
        };
        let other = SessionPermissionRules {
            command_deny: list(&["curl"]),
            ..SessionPermissionRules::unrestricted()
        };
        let options = PutRulesOptions::expecting(0);
        let writes = [
            (("s1", None), default.clone()),
            (("s1", Some("alice")), alice.clone()),
            (("s2", None), other.clone()),
        ];
        for (key, rules) in writes {
            let check = "each key starts at rev 1";
            self.write(check, key, rules.clone(), options, at(1, rules))
                .await?;
        }
        self.read(
            "the default reads its own rules",
            ("s1", None),
            at(1, default),
        )
        .await?;
        self.read(
            "a principal reads its own rules",
            ("s1", Some("alice")),
            at(1, alice),
        )
        .await?;
        self.read(
            "another session reads its own rules",
            ("s2", None),
            at(1, other),
        )
        .await?;
        self.read(
            "a principal without rules reads nothing (no fallback)",
            ("s1", Some("bob")),
            None,
        )
        .await?;
        self.read("an unknown session reads nothing", ("s3", None), None)
            .await?;
        self.write(
            "a key without rules is gated against nothing",
            ("s1", Some("bob")),
            SessionPermissionRules::unrestricted(),
            PutRulesOptions::default(),
            at(1, SessionPermissionRules::unrestricted()),
        )
        .await
    }

    async fn list_by_session(&self) -> Checked {
        let alice = SessionPermissionRules {
            tool_deny: list(&["bash"]),
            ..SessionPermissionRules::unrestricted()
        };
        let bob = SessionPermissionRules {
            allow_dirs: list(&["/home/bob/./src"]),
            ..SessionPermissionRules::unrestricted()
        };
        let writes = [
            (("s1", None), baseline()),
            (("s1", Some("alice")), alice.clone()),
            (("s1", Some("bob")), bob.clone()),
            (("s2", Some("alice")), baseline()),
        ];
        for (key, rules) in writes {
            self.write("the records", key, rules, PutRulesOptions::default(), None)
                .await?;
        }
        self.write(
            "a second write to alice",
            ("s1", Some("alice")),
            alice.clone(),
            PutRulesOptions::default(),
            at(2, alice.clone()),
        )
        .await?;
        let expected = records([
            (None, at(1, baseline())),
            (Some("alice"), at(2, alice)),
            (Some("bob"), at(1, bob)),
        ]);
        let listed = self
            .list("lists every principal of the session", "s1", expected)
            .await?;
        self.list(
            "lists only the session's records",
            "s2",
            records([(Some("alice"), at(1, baseline()))]),
        )
        .await?;
        self.list("an unknown session lists nothing", "s3", vec![])
            .await?;
        let mut replayed = Vec::new();
        for record in listed {
            let rules = strip_rev(record.rules);
            let principal = record.principal.as_deref();
            self.write(
                "a listed record replays into another session",
                ("s3", principal),
                rules.clone(),
                PutRulesOptions::default().as_operator(),
                at(1, rules.clone()),
            )
            .await?;
            replayed.extend(records([(principal, at(1, rules))]));
        }
        self.list("the replayed session lists the same rules", "s3", replayed)
            .await
            .map(|_| ())
    }

    async fn delete_by_session(&self) -> Checked {
        let writes = [
            (("s1", None), baseline()),
            (("s1", Some("alice")), baseline()),
            (("s2", None), baseline()),
        ];
        for (key, rules) in writes {
            self.write("the records", key, rules, PutRulesOptions::default(), None)
                .await?;
        }
        self.delete("deleting a session", "s1").await?;
        self.list("a deleted session lists nothing", "s1", vec![])
            .await?;
        self.read("a deleted default reads nothing", ("s1", None), None)
            .await?;
        self.read(
            "a deleted principal reads nothing",
            ("s1", Some("alice")),
            None,
        )
        .await?;
        self.read(
            "another session keeps its rules",
            ("s2", None),
            at(1, baseline()),
        )
        .await?;
        self.delete("deleting the session again succeeds", "s1")
            .await?;
        self.delete("deleting a session that never existed succeeds", "s9")
            .await?;
        self.write(
            "after a delete a key starts at rev 1 with no prior rules",
            ("s1", None),
            SessionPermissionRules::unrestricted(),
            PutRulesOptions::expecting(0),
            at(1, SessionPermissionRules::unrestricted()),
        )
        .await
    }
}

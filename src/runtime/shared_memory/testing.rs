//! The shared-memory provider conformance suite (feature `testing`): the cases a third-party
//! provider runs against itself, with no test harness, executor or clock assumed.
//!
//! - **Fixtures are handed in.** The seam has no write port, so the suite cannot seed a
//!   provider through it: the host's [`SharedMemoryHooks::make`] receives the contents
//!   ([`SharedMemoryFixture`]) and returns a provider that reads them back. A durable provider
//!   loads them into an empty schema, table or key prefix of its own.
//! - **A fresh provider per case**, and every case is mandatory: [`SharedMemoryCase`] is the
//!   whole list, with no skip hook, so a passing run never means "most of it passed". The suite
//!   has the crate's common shape ([`crate::conformance`]): [`run_shared_memory_case`] runs one
//!   case, [`run_shared_memory_conformance`] runs them all through a [`CaseHarness`]
//!   (`&mut StopAtFirst` for the default, [`EveryCase`](crate::conformance::EveryCase) for one
//!   result per case).
//! - **Only the provider's own obligations are asserted**: faithfulness, absence as a value,
//!   prefix completeness, cancellation and isolation. Rendering, pagination and wording are the
//!   engine's, and are not asserted here.
//! - **No compare-and-set case**, by declaration: such a case covers a write race, and a seam
//!   with no write channel has none.
//! - **A typed failure** names the case, the check within it, and what went wrong
//!   ([`SharedMemoryConformanceFailure`]).
//!
//! The suite's contents use store ids `notes`, `team`, `empty`, `only-a`, `only-b` and
//! `shared`, keys with multibyte characters (`é`, `ê`, `e` + U+0301, `日本/…`, `🙂`), keys that
//! are prefixes of other keys, and values with CR LF, tabs, trailing blanks, a NUL, a
//! byte-order mark and an empty value. A provider must keep all of them byte for byte.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;
use core::fmt;

use crate::agent_core::ErrorValue;
use crate::conformance::{self, CaseHarness, SuiteCase};

use crate::agent_core::{AbortSignal, NeverAborted};

use super::{
    SharedMemoryEntry, SharedMemoryFixture, SharedMemoryProvider, SharedMemoryReadError,
    SharedMemorySnapshot, SharedMemoryState, SharedMemoryStoreFixture, SharedMemoryStoreInfo,
};

/// The host's harness for one provider type: a fresh provider over handed-in contents.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design.
pub trait SharedMemoryHooks {
    /// The provider under test.
    type Provider: SharedMemoryProvider;

    /// A fresh provider that reads back exactly `contents` and nothing else; called once per
    /// provider the suite needs (twice in the isolation case).
    ///
    /// # Errors
    /// Why the host could not make one (the case fails with [`SharedMemoryProblem::Fixture`]).
    async fn make(&mut self, contents: SharedMemoryFixture) -> Result<Self::Provider, ErrorValue>;
}

/// Any closure that makes a provider from contents is a harness
/// (`&mut InMemorySharedMemory::new` is one).
impl<P: SharedMemoryProvider, F: FnMut(SharedMemoryFixture) -> P> SharedMemoryHooks for F {
    type Provider = P;

    async fn make(&mut self, contents: SharedMemoryFixture) -> Result<P, ErrorValue> {
        Ok(self(contents))
    }
}

/// One case of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SharedMemoryCase {
    /// What was loaded is what is read, byte for byte: the snapshot (state and every store's
    /// info, in id order), each store's info and each entry's value.
    Faithfulness,
    /// An unknown store, an unknown key and a prefix matching nothing are values (`None`, or an
    /// empty list in a known store), never errors.
    AbsenceIsAValue,
    /// A prefix read returns every entry under the prefix, in key order, and nothing else: the
    /// empty prefix, prefixes that are themselves keys, multibyte prefixes, a prefix sharing
    /// only a leading byte with a key, prefixes matching nothing.
    PrefixCompleteness,
    /// A read whose signal is set before it starts returns the cancellation outcome; a read
    /// whose signal is set while it runs returns the cancellation outcome or the whole answer,
    /// never part of it; and a later read with a clear signal answers in full.
    Cancellation,
    /// Two providers made from two contents each read only their own, also for a store id both
    /// contain.
    Isolation,
}

/// Every case, in run order; all are mandatory.
impl SuiteCase for SharedMemoryCase {
    const ALL: &'static [Self] = &[
        Self::Faithfulness,
        Self::AbsenceIsAValue,
        Self::PrefixCompleteness,
        Self::Cancellation,
        Self::Isolation,
    ];
}

/// What went wrong in a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SharedMemoryProblem {
    /// The host could not make a provider.
    Fixture(ErrorValue),
    /// A read that must answer failed.
    ReadFailed(SharedMemoryReadError),
    /// A read of something absent failed instead of answering `None` (or an empty list).
    AbsenceReportedAsError(SharedMemoryReadError),
    /// The snapshot differs from the one loaded.
    WrongSnapshot {
        /// The snapshot loaded.
        expected: SharedMemorySnapshot,
        /// The snapshot read.
        received: SharedMemorySnapshot,
    },
    /// A store's info differs from the one loaded (or is present when it must be absent).
    WrongInfo {
        /// The store read.
        store: String,
        /// The info loaded.
        expected: Option<SharedMemoryStoreInfo>,
        /// The info read.
        received: Option<SharedMemoryStoreInfo>,
    },
    /// An entry's value differs from the one loaded (or is present when it must be absent).
    WrongValue {
        /// The store read.
        store: String,
        /// The key read.
        key: String,
        /// The value loaded.
        expected: Option<String>,
        /// The value read.
        received: Option<String>,
    },
    /// A prefix read returned other entries than those under the prefix, in key order.
    WrongEntries {
        /// The store read.
        store: String,
        /// The prefix read.
        prefix: String,
        /// The entries loaded under the prefix.
        expected: Option<Vec<SharedMemoryEntry>>,
        /// The entries read.
        received: Option<Vec<SharedMemoryEntry>>,
    },
    /// A read whose signal was set before it started answered.
    NotCancelled,
    /// A cancelled read failed otherwise than with the cancellation outcome.
    WrongCancellation(SharedMemoryReadError),
    /// A read whose signal was set while it ran answered with part of the answer (counts of
    /// entries, or of stores for a snapshot).
    PartialAnswer {
        /// How many the whole answer has.
        expected: usize,
        /// How many were returned.
        received: usize,
    },
}

/// A failed case: which, where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shared-memory conformance {case:?}, {check}: {}", Problem(problem))]
pub struct SharedMemoryConformanceFailure {
    /// The case that failed.
    pub case: SharedMemoryCase,
    /// The check within the case, in words.
    pub check: &'static str,
    /// Why (boxed: a problem can carry whole snapshots, a failure stays small).
    pub problem: Box<SharedMemoryProblem>,
}

/// A [`SharedMemoryProblem`] as a [`SharedMemoryConformanceFailure`] prints it.
struct Problem<'a>(&'a SharedMemoryProblem);

impl fmt::Display for Problem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            SharedMemoryProblem::Fixture(error) => write!(f, "the host failed: {error}"),
            SharedMemoryProblem::ReadFailed(error) => write!(f, "the read failed: {error}"),
            SharedMemoryProblem::AbsenceReportedAsError(error) => {
                write!(f, "absence was reported as an error: {error}")
            }
            SharedMemoryProblem::WrongSnapshot { expected, received } => {
                write!(f, "expected the snapshot {expected:?}, read {received:?}")
            }
            SharedMemoryProblem::WrongInfo {
                store,
                expected,
                received,
            } => write!(
                f,
                "store {store:?}: expected the info {expected:?}, read {received:?}"
            ),
            SharedMemoryProblem::WrongValue {
                store,
                key,
                expected,
                received,
            } => write!(
                f,
                "store {store:?}, key {key:?}: expected {expected:?}, read {received:?}"
            ),
            SharedMemoryProblem::WrongEntries {
                store,
                prefix,
                expected,
                received,
            } => write!(
                f,
                "store {store:?}, prefix {prefix:?}: expected {expected:?}, read {received:?}"
            ),
            SharedMemoryProblem::NotCancelled => {
                f.write_str("the read answered although its signal was set")
            }
            SharedMemoryProblem::WrongCancellation(error) => {
                write!(f, "expected the cancellation outcome, received `{error}`")
            }
            SharedMemoryProblem::PartialAnswer { expected, received } => write!(
                f,
                "a cancelled read returned {received} of {expected} items instead of the \
                 cancellation outcome"
            ),
        }
    }
}

/// A signal that stays clear for the first `clear_checks` times it is asked, then is set: a
/// cancellation that arrives while a read runs.
#[derive(Debug)]
pub struct CancelAfter {
    clear_checks: Cell<u32>,
}

impl CancelAfter {
    /// A signal that answers "not cancelled" `clear_checks` times, then "cancelled".
    #[must_use]
    pub const fn new(clear_checks: u32) -> Self {
        Self {
            clear_checks: Cell::new(clear_checks),
        }
    }
}

impl AbortSignal for CancelAfter {
    fn is_aborted(&self) -> bool {
        match self.clear_checks.get().checked_sub(1) {
            Some(left) => {
                self.clear_checks.set(left);
                false
            }
            None => true,
        }
    }
}

/// Runs every case, each on a fresh provider, through `harness`.
///
/// # Errors
/// The failure the harness ended the run with (with
/// [`StopAtFirst`](crate::conformance::StopAtFirst), the first case that failed).
pub async fn run_shared_memory_conformance<H: SharedMemoryHooks>(
    hooks: &mut H,
    harness: &mut impl CaseHarness<SharedMemoryCase, SharedMemoryConformanceFailure>,
) -> Result<(), SharedMemoryConformanceFailure> {
    conformance::run_suite(harness, async |case| {
        run_shared_memory_case(hooks, case).await
    })
    .await
}

/// Runs one case on a fresh provider (two, for [`SharedMemoryCase::Isolation`]).
///
/// # Errors
/// Why the case failed.
pub async fn run_shared_memory_case<H: SharedMemoryHooks>(
    hooks: &mut H,
    case: SharedMemoryCase,
) -> Result<(), SharedMemoryConformanceFailure> {
    let outcome = match case {
        SharedMemoryCase::Faithfulness => faithfulness(hooks).await,
        SharedMemoryCase::AbsenceIsAValue => absence_is_a_value(hooks).await,
        SharedMemoryCase::PrefixCompleteness => prefix_completeness(hooks).await,
        SharedMemoryCase::Cancellation => cancellation(hooks).await,
        SharedMemoryCase::Isolation => isolation(hooks).await,
    };
    outcome.map_err(|(check, problem)| SharedMemoryConformanceFailure {
        case,
        check,
        problem,
    })
}

/// A failed check: its words and the problem (boxed, so every step's result stays small).
type Miss = (&'static str, Box<SharedMemoryProblem>);
type Checked<T = ()> = Result<T, Miss>;
/// How a check reports a read's error: as a failed read, or as absence reported as an error.
type OnError<T> = fn(&'static str, Result<T, SharedMemoryReadError>) -> Checked<T>;

fn miss(check: &'static str, problem: SharedMemoryProblem) -> Miss {
    (check, Box::new(problem))
}

fn info(id: &str, description: Option<&str>, updated_at_ms: Option<u64>) -> SharedMemoryStoreInfo {
    SharedMemoryStoreInfo {
        id: String::from(id),
        description: description.map(String::from),
        updated_at_ms,
    }
}

fn contents(
    state: SharedMemoryState,
    stores: Vec<SharedMemoryStoreFixture>,
) -> Checked<SharedMemoryFixture> {
    // The suite's own contents are valid; a failure here is a bug in the suite, reported as the
    // fixture's rather than a panic.
    SharedMemoryFixture::new(state, stores).map_err(|error| {
        miss(
            "building the suite's contents",
            SharedMemoryProblem::Fixture(ErrorValue::new("Error", alloc::format!("{error}"))),
        )
    })
}

/// The contents of every case but isolation.
fn main_contents() -> Checked<SharedMemoryFixture> {
    let long: String = "0123456789abcdef".repeat(64);
    let notes = SharedMemoryStoreFixture::new(
        info(
            "notes",
            Some("Team notes\r\n  kept verbatim "),
            Some(1_699_999_999_999),
        ),
        [
            ("a", "alpha"),
            ("a/", ""),
            ("a/b", "line one\r\nline two\n"),
            ("a/b/c", "  padded\t "),
            ("ab", "nul\u{0}inside"),
            ("b", "\u{e9} composed"),
            ("e", "plain e"),
            ("e\u{301}", "e\u{301} decomposed"),
            ("\u{e9}", "\u{e9}"),
            ("\u{e9}/1", "under \u{e9}"),
            ("\u{ea}", "circumflex"),
            ("\u{65e5}\u{672c}/\u{8a9e}", "\u{65e5}\u{672c}\u{8a9e}"),
            ("\u{65e5}\u{672c}/\u{6771}\u{4eac}", "\u{1f642}"),
            ("\u{1f642}", "\u{feff}bom first"),
            ("z", long.as_str()),
        ],
    );
    let team = SharedMemoryStoreFixture::new(
        info("team", None, None),
        [("a", "team's a"), ("owner", "alice")],
    );
    let empty = SharedMemoryStoreFixture::new(
        info("empty", Some("nothing yet"), Some(0)),
        core::iter::empty::<(&str, &str)>(),
    );
    contents(
        SharedMemoryState {
            revision: 7,
            taken_at_ms: Some(1_700_000_000_000),
        },
        alloc::vec![notes, team, empty],
    )
}

/// The two contents of the isolation case: each has a store of its own and a store `shared`
/// with its own info and values.
fn isolation_contents() -> Checked<(SharedMemoryFixture, SharedMemoryFixture)> {
    let first = contents(
        SharedMemoryState {
            revision: 1,
            taken_at_ms: Some(10),
        },
        alloc::vec![
            SharedMemoryStoreFixture::new(info("only-a", None, None), [("k", "from a")]),
            SharedMemoryStoreFixture::new(
                info("shared", Some("a's"), None),
                [("k", "a's value"), ("x", "only in a")],
            ),
        ],
    )?;
    let second = contents(
        SharedMemoryState {
            revision: 2,
            taken_at_ms: None,
        },
        alloc::vec![
            SharedMemoryStoreFixture::new(info("only-b", None, Some(20)), [("k", "from b")]),
            SharedMemoryStoreFixture::new(
                info("shared", Some("b's"), Some(21)),
                [("k", "b's value"), ("y", "only in b")],
            ),
        ],
    )?;
    Ok((first, second))
}

async fn make<H: SharedMemoryHooks>(
    hooks: &mut H,
    contents: SharedMemoryFixture,
) -> Checked<H::Provider> {
    hooks
        .make(contents)
        .await
        .map_err(|error| miss("making a provider", SharedMemoryProblem::Fixture(error)))
}

fn present<T>(check: &'static str, answer: Result<T, SharedMemoryReadError>) -> Checked<T> {
    answer.map_err(|error| miss(check, SharedMemoryProblem::ReadFailed(error)))
}

fn absent<T>(check: &'static str, answer: Result<T, SharedMemoryReadError>) -> Checked<T> {
    answer.map_err(|error| miss(check, SharedMemoryProblem::AbsenceReportedAsError(error)))
}

async fn expect_snapshot<P: SharedMemoryProvider>(
    provider: &P,
    contents: &SharedMemoryFixture,
    check: &'static str,
) -> Checked {
    let received = present(check, provider.snapshot(&NeverAborted).await)?;
    let expected = contents.snapshot();
    if received == expected {
        Ok(())
    } else {
        Err(miss(
            check,
            SharedMemoryProblem::WrongSnapshot { expected, received },
        ))
    }
}

/// Every store's info and every entry's value, as loaded.
async fn expect_every_store<P: SharedMemoryProvider>(
    provider: &P,
    contents: &SharedMemoryFixture,
    check: &'static str,
) -> Checked {
    for store in contents.store_ids() {
        let expected = contents.store_info(store).cloned();
        let received = present(check, provider.store_info(store, &NeverAborted).await)?;
        if received != expected {
            return Err(miss(
                check,
                SharedMemoryProblem::WrongInfo {
                    store: String::from(store),
                    expected,
                    received,
                },
            ));
        }
        for (key, value) in contents.entries(store).into_iter().flatten() {
            expect_value(provider, store, key, Some(value), check, present).await?;
        }
    }
    Ok(())
}

async fn expect_value<P: SharedMemoryProvider>(
    provider: &P,
    store: &str,
    key: &str,
    expected: Option<&str>,
    check: &'static str,
    on_error: OnError<Option<String>>,
) -> Checked {
    let received = on_error(check, provider.read_entry(store, key, &NeverAborted).await)?;
    if received.as_deref() == expected {
        Ok(())
    } else {
        Err(miss(
            check,
            SharedMemoryProblem::WrongValue {
                store: String::from(store),
                key: String::from(key),
                expected: expected.map(String::from),
                received,
            },
        ))
    }
}

fn expected_entries(
    contents: &SharedMemoryFixture,
    store: &str,
    prefix: &str,
) -> Option<Vec<SharedMemoryEntry>> {
    contents.prefixed(store, prefix).map(|entries| {
        entries
            .map(|(key, value)| SharedMemoryEntry::new(key, value))
            .collect()
    })
}

async fn expect_prefix<P: SharedMemoryProvider>(
    provider: &P,
    contents: &SharedMemoryFixture,
    store: &str,
    prefix: &str,
    check: &'static str,
    on_error: OnError<Option<Vec<SharedMemoryEntry>>>,
) -> Checked {
    let expected = expected_entries(contents, store, prefix);
    let received = on_error(
        check,
        provider.read_prefix(store, prefix, &NeverAborted).await,
    )?;
    if received == expected {
        Ok(())
    } else {
        Err(miss(
            check,
            SharedMemoryProblem::WrongEntries {
                store: String::from(store),
                prefix: String::from(prefix),
                expected,
                received,
            },
        ))
    }
}

async fn faithfulness<H: SharedMemoryHooks>(hooks: &mut H) -> Checked {
    let contents = main_contents()?;
    let provider = make(hooks, contents.clone()).await?;
    expect_snapshot(
        &provider,
        &contents,
        "the snapshot is the state loaded and every store's info, in id order",
    )
    .await?;
    expect_every_store(
        &provider,
        &contents,
        "each store's info and each entry's value read back byte for byte",
    )
    .await
}

async fn absence_is_a_value<H: SharedMemoryHooks>(hooks: &mut H) -> Checked {
    let contents = main_contents()?;
    let provider = make(hooks, contents.clone()).await?;
    let check = "an unknown store has no info";
    let received = absent(check, provider.store_info("missing", &NeverAborted).await)?;
    if received.is_some() {
        return Err(miss(
            check,
            SharedMemoryProblem::WrongInfo {
                store: String::from("missing"),
                expected: None,
                received,
            },
        ));
    }
    expect_value(
        &provider,
        "missing",
        "a",
        None,
        "a key of an unknown store is absent",
        absent,
    )
    .await?;
    for (store, key) in [
        ("notes", "E"),
        ("notes", "\u{e9}/"),
        ("notes", "a/b/c/d"),
        ("notes", "e\u{301}\u{301}"),
        ("notes", "owner"),
        ("team", "a/"),
        ("empty", "a"),
    ] {
        expect_value(
            &provider,
            store,
            key,
            None,
            "an unknown key of a known store is absent",
            absent,
        )
        .await?;
    }
    expect_prefix(
        &provider,
        &contents,
        "missing",
        "",
        "a prefix read of an unknown store is absent",
        absent,
    )
    .await?;
    for (store, prefix) in [("notes", "q"), ("notes", "A"), ("empty", "")] {
        expect_prefix(
            &provider,
            &contents,
            store,
            prefix,
            "a prefix matching nothing in a known store is an empty list",
            absent,
        )
        .await?;
    }
    Ok(())
}

/// The prefixes the completeness case reads in every store.
const PREFIXES: &[&str] = &[
    "",
    "a",
    "a/",
    "a/b",
    "a/b/c",
    "ab",
    "b",
    "e",
    "e\u{301}",
    "\u{e9}",
    "\u{e9}/",
    "\u{ea}",
    "\u{65e5}",
    "\u{65e5}\u{672c}/",
    "\u{1f642}",
    "o",
    "z",
];

async fn prefix_completeness<H: SharedMemoryHooks>(hooks: &mut H) -> Checked {
    let contents = main_contents()?;
    let provider = make(hooks, contents.clone()).await?;
    for store in contents.store_ids() {
        for prefix in PREFIXES {
            expect_prefix(
                &provider,
                &contents,
                store,
                prefix,
                "every entry under the prefix, in key order, and nothing else",
                present,
            )
            .await?;
        }
    }
    Ok(())
}

fn cancelled<T>(check: &'static str, answer: Result<T, SharedMemoryReadError>) -> Checked {
    match answer {
        Err(SharedMemoryReadError::Cancelled) => Ok(()),
        Err(error) => Err(miss(check, SharedMemoryProblem::WrongCancellation(error))),
        Ok(_) => Err(miss(check, SharedMemoryProblem::NotCancelled)),
    }
}

/// A read cancelled while it ran: the cancellation outcome or the whole answer.
fn whole_or_cancelled<T: PartialEq>(
    check: &'static str,
    answer: Result<T, SharedMemoryReadError>,
    whole: &T,
    count: fn(&T) -> usize,
) -> Checked {
    match answer {
        Err(SharedMemoryReadError::Cancelled) => Ok(()),
        Err(error) => Err(miss(check, SharedMemoryProblem::WrongCancellation(error))),
        Ok(answer) if answer == *whole => Ok(()),
        Ok(answer) => Err(miss(
            check,
            SharedMemoryProblem::PartialAnswer {
                expected: count(whole),
                received: count(&answer),
            },
        )),
    }
}

async fn cancellation<H: SharedMemoryHooks>(hooks: &mut H) -> Checked {
    let contents = main_contents()?;
    let provider = make(hooks, contents.clone()).await?;
    let set = &true;
    let check = "a read whose signal is set before it starts is cancelled";
    cancelled(check, provider.snapshot(set).await)?;
    cancelled(check, provider.store_info("notes", set).await)?;
    cancelled(check, provider.read_entry("notes", "a", set).await)?;
    cancelled(check, provider.read_prefix("notes", "", set).await)?;
    cancelled(check, provider.read_prefix("notes", "a", set).await)?;

    // The whole answers are the provider's own clear-signal reads, so this case asserts only
    // cancellation (whether those answers are right is the other cases' business).
    let check = "a read with a clear signal answers";
    let whole_snapshot = present(check, provider.snapshot(&NeverAborted).await)?;
    let whole_notes = present(
        check,
        provider.read_prefix("notes", "", &NeverAborted).await,
    )?;
    let check = "a read cancelled while it runs returns no part of its answer";
    let longest = whole_notes
        .as_ref()
        .map_or(0, Vec::len)
        .max(whole_snapshot.stores.len());
    for clear_checks in 1..=u32::try_from(longest).unwrap_or(u32::MAX) {
        let signal = CancelAfter::new(clear_checks);
        whole_or_cancelled(
            check,
            provider.snapshot(&signal).await,
            &whole_snapshot,
            |snapshot| snapshot.stores.len(),
        )?;
        let signal = CancelAfter::new(clear_checks);
        whole_or_cancelled(
            check,
            provider.read_prefix("notes", "", &signal).await,
            &whole_notes,
            |entries| entries.as_ref().map_or(0, Vec::len),
        )?;
    }

    let check = "after a cancelled read, a read with a clear signal answers as before";
    let again = present(check, provider.snapshot(&NeverAborted).await)?;
    if again != whole_snapshot {
        return Err(miss(
            check,
            SharedMemoryProblem::WrongSnapshot {
                expected: whole_snapshot,
                received: again,
            },
        ));
    }
    let again = present(
        check,
        provider.read_prefix("notes", "", &NeverAborted).await,
    )?;
    if again == whole_notes {
        Ok(())
    } else {
        Err(miss(
            check,
            SharedMemoryProblem::WrongEntries {
                store: String::from("notes"),
                prefix: String::new(),
                expected: whole_notes,
                received: again,
            },
        ))
    }
}

async fn isolation<H: SharedMemoryHooks>(hooks: &mut H) -> Checked {
    let (first_contents, second_contents) = isolation_contents()?;
    let first = make(hooks, first_contents.clone()).await?;
    let second = make(hooks, second_contents.clone()).await?;
    let check = "a provider's snapshot holds only its own contents";
    expect_snapshot(&first, &first_contents, check).await?;
    expect_snapshot(&second, &second_contents, check).await?;
    let check = "a provider reads only its own stores and values";
    expect_every_store(&first, &first_contents, check).await?;
    expect_every_store(&second, &second_contents, check).await
}

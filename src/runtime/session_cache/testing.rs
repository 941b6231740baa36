//! The session cache conformance suite (feature `testing`): the cases any
//! [`SessionCachePort`] runs against itself, in the crate's one suite shape
//! ([`crate::conformance`]): a closed case list ([`SessionCacheCase`], every case mandatory),
//! [`run_session_cache_case`] for one case on a fresh cache, and
//! [`run_session_cache_conformance`] for all of them through a [`CaseHarness`].
//!
//! - **A fresh cache over a fresh store per case**, from the host's [`SessionCacheFixture`],
//!   given a [`CaseSetup`]: the evict policy, the idle TTL, and records to plant in the store
//!   before the cache is made (valid ones, and corrupt or unsupported bytes, which only the
//!   fixture knows how to write into its store). A case may ask for more than one cache (one
//!   per evict policy).
//! - **Only the cache's obligations are asserted**, through the port alone: acquire, TTL,
//!   pins, forget, release, listing, ownership rows, fork, damaged records, reconcile on wake,
//!   declarations. A minted id is never predicted, only checked to be fresh.
//! - **No executor and no clock.** Concurrent acquires are two futures polled in turn by the
//!   suite's own join; times are fixed instants from 2026-05-01T00:00:00Z.
//! - **A typed failure** names the case, the check, and what went wrong
//!   ([`SessionCacheConformanceFailure`]).
//!
//! The suite uses session ids `s1`…`s6`, `p1`, `n1`, `u`, `v`, `w`, `w1`, `w2`, `c1`, `u1`,
//! `src`, `ghost` and principals `alice` and `bob`, and tool call ids `call_1`, `call_2`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::future::{Future, poll_fn};
use core::pin::pin;
use core::task::Poll;

use crate::agent_core::{
    AssistantMessage, BaseMessage, ErrorValue, MessageState, ToolCall, ToolCallFunction,
    UniversalMessage, UserMessage,
};
use crate::conformance::{CaseHarness, SuiteCase, run_suite};
use crate::runtime::reconcile::{ReconcileInputs, ReconciledErrorKind};
use crate::session::records::{InteractiveSessionRecord, SessionLoadStatus};

use super::cache::{AcquireOptions, Acquired, Acquisition, Released, SessionHandle};
use super::config::{EvictPolicy, Retention};
use super::error::SessionCacheError;
use super::ownership::{ForkOwner, OwnerRow, Principal, Registration};
use super::port::SessionCachePort;
use embassy_sync::blocking_mutex::raw::RawMutex;

/// 2026-05-01T00:00:00.000Z: the suite's first instant.
const T0: u64 = 1_777_593_600_000;
/// The idle TTL every case asks for: one minute.
const TTL: u64 = 60_000;

/// What a planted store entry holds.
#[derive(Clone, Debug, PartialEq)]
pub enum PlantedContent {
    /// A valid session record (stored under its own id).
    Record(Box<InteractiveSessionRecord>),
    /// Bytes that are not a session record: a load must say `corrupt`.
    Corrupt,
    /// A record written by a build this one does not read (a future schema version): a load
    /// must say `unsupported`.
    Unsupported,
}

/// One entry the fixture writes into the fresh store before it makes the cache.
#[derive(Clone, Debug, PartialEq)]
pub struct Planted {
    /// The id it is stored under.
    pub id: String,
    /// What is stored.
    pub content: PlantedContent,
}

/// What a case asks the fixture for.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseSetup {
    /// The evict policy the cache must have.
    pub evict: EvictPolicy,
    /// The idle TTL the cache must have, in milliseconds.
    pub ttl_ms: u64,
    /// What the fresh store holds before the cache is made.
    pub planted: Vec<Planted>,
}

/// The host's harness for one cache implementation: a fresh cache over a fresh store per call.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design.
pub trait SessionCacheFixture {
    /// The cache under test.
    type Cache: SessionCachePort;

    /// A fresh cache as `setup` describes, over a fresh store holding exactly `setup.planted`.
    ///
    /// # Errors
    /// Why the fixture could not make one (the case fails with
    /// [`SessionCacheProblem::Fixture`]).
    async fn create(&mut self, setup: &CaseSetup) -> Result<Self::Cache, ErrorValue>;
}

/// Any closure that makes a cache from a setup is a fixture.
impl<C: SessionCachePort, F: FnMut(&CaseSetup) -> C> SessionCacheFixture for F {
    type Cache = C;

    async fn create(&mut self, setup: &CaseSetup) -> Result<C, ErrorValue> {
        Ok(self(setup))
    }
}

/// One case of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SessionCacheCase {
    /// A new id is created, a cached id is the same live session, a stored record is resumed
    /// as it was, and an acquire without an id mints a fresh one.
    AcquireCreatesAndResumes,
    /// `require_existing` on a missing id fails with `not_found` and creates nothing; without it
    /// the id is created; a stored id resumes under it.
    RequireExistingNotFound,
    /// Two acquires of one id polled in turn share one live session (one resumes or creates, the
    /// other gets it cached).
    ConcurrentAcquiresShareOne,
    /// A sweep evicts only sessions idle for longer than the TTL, never a pinned one, deletes
    /// history under `delete` and keeps it under `forget`; an acquire sweeps others but spares
    /// its own id.
    TtlSweepAndPins,
    /// `forget` drops only the cached view: the committed history resumes, even under policy
    /// `delete`; a pin and an ownership row survive it.
    ForgetKeepsHistory,
    /// `release` deletes history and then the ownership row under `delete`, and keeps both under
    /// `forget`.
    ReleaseFollowsPolicy,
    /// Noted task runs and activity order the listing newest-first, with the last task id; a
    /// note on an uncached id does nothing.
    TaskRunsAndListing,
    /// The ownership lookup has three states, acquire writes no row, and `register` is
    /// first-write-wins without failing.
    OwnerRows,
    /// A fork copies the committed history (never the uncommitted turn) under a fresh id, is
    /// cached and stored, is independent of its source, and a missing source forks to `None`.
    ForkCopiesCommittedHistory,
    /// A fork's ownership row is never weaker than its source's, for every source row and
    /// every owner argument.
    ForkOwnership,
    /// Corrupt and unsupported records are typed errors carrying the outcome, for acquire (with
    /// and without `require_existing`) and fork; nothing is created over them.
    DamagedRecordsAreErrors,
    /// Resuming a record with an interrupted tool call closes it with a synthetic result, reports
    /// it, and saves it back (a second wake finds nothing); a suspended batch is never closed.
    ReconcileOnWake,
    /// The evict policy is the declared one and retention is declared `none`.
    Declarations,
}

impl SuiteCase for SessionCacheCase {
    const ALL: &'static [Self] = &[
        Self::AcquireCreatesAndResumes,
        Self::RequireExistingNotFound,
        Self::ConcurrentAcquiresShareOne,
        Self::TtlSweepAndPins,
        Self::OwnerRows,
        Self::ForgetKeepsHistory,
        Self::ReleaseFollowsPolicy,
        Self::TaskRunsAndListing,
        Self::ForkCopiesCommittedHistory,
        Self::ForkOwnership,
        Self::DamagedRecordsAreErrors,
        Self::ReconcileOnWake,
        Self::Declarations,
    ];
}

/// What went wrong in a case.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionCacheProblem {
    /// The fixture could not make a cache.
    #[error("the fixture failed: {0}")]
    Fixture(ErrorValue),
    /// An operation that must succeed failed (its error, as text).
    #[error("failed: {0}")]
    Failed(String),
    /// An operation gave another answer than the contract requires (both as debug text).
    #[error("expected {expected}, received {received}")]
    Mismatch {
        /// What the contract requires.
        expected: String,
        /// What the cache answered.
        received: String,
    },
}

/// A failed case: which, where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("session cache conformance {case:?}, {check}: {problem}")]
pub struct SessionCacheConformanceFailure {
    /// The case that failed.
    pub case: SessionCacheCase,
    /// The check within the case, in words.
    pub check: &'static str,
    /// Why.
    pub problem: SessionCacheProblem,
}

/// Runs every case of [`SessionCacheCase::ALL`] through `harness`, each on fresh caches.
///
/// # Errors
/// The failure the harness ended the run with (with
/// [`StopAtFirst`](crate::conformance::StopAtFirst), the first failed case).
pub async fn run_session_cache_conformance<F: SessionCacheFixture>(
    fixture: &mut F,
    harness: &mut impl CaseHarness<SessionCacheCase, SessionCacheConformanceFailure>,
) -> Result<(), SessionCacheConformanceFailure>
where
    <F::Cache as SessionCachePort>::StoreError: fmt::Display,
{
    run_suite(harness, async |case| {
        run_session_cache_case(fixture, case).await
    })
    .await
}

/// Runs one case on fresh caches.
///
/// # Errors
/// Why the case failed.
pub async fn run_session_cache_case<F: SessionCacheFixture>(
    fixture: &mut F,
    case: SessionCacheCase,
) -> Result<(), SessionCacheConformanceFailure>
where
    <F::Cache as SessionCachePort>::StoreError: fmt::Display,
{
    let mut run = Run { fixture };
    // Each case's state lives on the heap: a microcontroller's stack holds only the poll frames.
    let outcome = match case {
        SessionCacheCase::AcquireCreatesAndResumes => {
            Box::pin(run.acquire_creates_and_resumes()).await
        }
        SessionCacheCase::RequireExistingNotFound => {
            Box::pin(run.require_existing_not_found()).await
        }
        SessionCacheCase::ConcurrentAcquiresShareOne => Box::pin(run.concurrent_acquires()).await,
        SessionCacheCase::TtlSweepAndPins => Box::pin(run.ttl_sweep_and_pins()).await,
        SessionCacheCase::ForgetKeepsHistory => Box::pin(run.forget_keeps_history()).await,
        SessionCacheCase::ReleaseFollowsPolicy => Box::pin(run.release_follows_policy()).await,
        SessionCacheCase::TaskRunsAndListing => Box::pin(run.task_runs_and_listing()).await,
        SessionCacheCase::OwnerRows => Box::pin(run.owner_rows()).await,
        SessionCacheCase::ForkCopiesCommittedHistory => Box::pin(run.fork_copies_committed()).await,
        SessionCacheCase::ForkOwnership => Box::pin(run.fork_ownership()).await,
        SessionCacheCase::DamagedRecordsAreErrors => Box::pin(run.damaged_records()).await,
        SessionCacheCase::ReconcileOnWake => Box::pin(run.reconcile_on_wake()).await,
        SessionCacheCase::Declarations => Box::pin(run.declarations()).await,
    };
    outcome.map_err(|(check, problem)| SessionCacheConformanceFailure {
        case,
        check,
        problem,
    })
}

type Checked<T = ()> = Result<T, (&'static str, SessionCacheProblem)>;

/// The principals the suite registers.
fn principal(name: &'static str) -> Checked<Principal> {
    Principal::new(name).map_err(|blank| {
        (
            "naming a principal",
            SessionCacheProblem::Failed(format!("{blank}")),
        )
    })
}

fn alice() -> Checked<Principal> {
    principal("alice")
}

fn bob() -> Checked<Principal> {
    principal("bob")
}

fn mismatch(
    check: &'static str,
    expected: impl fmt::Debug,
    received: impl fmt::Debug,
) -> (&'static str, SessionCacheProblem) {
    (
        check,
        SessionCacheProblem::Mismatch {
            expected: format!("{expected:?}"),
            received: format!("{received:?}"),
        },
    )
}

fn same<T: PartialEq + fmt::Debug>(check: &'static str, expected: T, received: T) -> Checked {
    if expected == received {
        Ok(())
    } else {
        Err(mismatch(check, expected, received))
    }
}

fn holds(check: &'static str, condition: bool, received: impl fmt::Debug) -> Checked {
    if condition {
        Ok(())
    } else {
        Err(mismatch(check, check, received))
    }
}

fn failed(check: &'static str, error: impl fmt::Display) -> (&'static str, SessionCacheProblem) {
    (check, SessionCacheProblem::Failed(error.to_string()))
}

fn base(id: &str) -> BaseMessage {
    BaseMessage {
        id: id.to_string(),
        timestamp: "2026-05-01T00:00:00.000Z".to_string(),
        state: MessageState::Complete,
        metadata: None,
    }
}

fn user(id: &str, text: &str) -> UniversalMessage {
    UniversalMessage::User(UserMessage {
        base: base(id),
        content: text.to_string(),
        parts: None,
        name: None,
    })
}

fn tool_call(id: &str, call_id: &str, tool: &str) -> UniversalMessage {
    UniversalMessage::Assistant(AssistantMessage {
        base: base(id),
        content: None,
        parts: None,
        tool_calls: Some(vec![ToolCall {
            id: call_id.to_string(),
            function: ToolCallFunction {
                name: tool.to_string(),
                arguments: "{}".to_string(),
            },
        }]),
    })
}

fn record(id: &str, messages: Vec<UniversalMessage>) -> InteractiveSessionRecord {
    let mut record = InteractiveSessionRecord::new(
        id,
        "/work/project",
        "2026-04-30T00:00:00.000Z",
        "2026-04-30T00:00:00.000Z",
    );
    record.messages = messages;
    record
}

fn planted(id: &str, content: PlantedContent) -> Planted {
    Planted {
        id: id.to_string(),
        content,
    }
}

fn planted_record(id: &str, messages: Vec<UniversalMessage>) -> Planted {
    planted(id, PlantedContent::Record(Box::new(record(id, messages))))
}

fn messages_of<L: RawMutex>(handle: &SessionHandle<L>) -> Option<Vec<UniversalMessage>> {
    handle.try_with(|record| record.messages.clone()).ok()
}

fn push_message<L: RawMutex>(
    check: &'static str,
    handle: &SessionHandle<L>,
    message: UniversalMessage,
) -> Checked {
    handle
        .try_with_mut(|record| record.messages.push(message))
        .map_err(|error| failed(check, error))
}

fn how_name(how: &Acquisition) -> &'static str {
    match how {
        Acquisition::Cached => "cached",
        Acquisition::Created => "created",
        Acquisition::Resumed { .. } => "resumed",
    }
}

/// Polls two futures in turn until both are done, passing the caller's waker to each: a join
/// that assumes no executor.
async fn join<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let mut a = pin!(a);
    let mut b = pin!(b);
    let mut out_a = None;
    let mut out_b = None;
    poll_fn(|cx| {
        if out_a.is_none()
            && let Poll::Ready(value) = a.as_mut().poll(cx)
        {
            out_a = Some(value);
        }
        if out_b.is_none()
            && let Poll::Ready(value) = b.as_mut().poll(cx)
        {
            out_b = Some(value);
        }
        match (out_a.take(), out_b.take()) {
            (Some(a), Some(b)) => Poll::Ready((a, b)),
            (a, b) => {
                out_a = a;
                out_b = b;
                Poll::Pending
            }
        }
    })
    .await
}

struct Run<'f, F> {
    fixture: &'f mut F,
}

impl<F: SessionCacheFixture> Run<'_, F>
where
    <F::Cache as SessionCachePort>::StoreError: fmt::Display,
{
    async fn cache(&mut self, evict: EvictPolicy, planted: Vec<Planted>) -> Checked<F::Cache> {
        let setup = CaseSetup {
            evict,
            ttl_ms: TTL,
            planted,
        };
        self.fixture.create(&setup).await.map_err(|error| {
            (
                "creating a fresh cache",
                SessionCacheProblem::Fixture(error),
            )
        })
    }

    async fn acquire(
        cache: &F::Cache,
        check: &'static str,
        id: Option<&str>,
        require_existing: bool,
        now_ms: u64,
    ) -> Checked<Acquired<<F::Cache as SessionCachePort>::Lock>> {
        let options = AcquireOptions::new().require_existing(require_existing);
        cache
            .acquire(id, options, now_ms)
            .await
            .map_err(|error| failed(check, error))
    }

    /// An acquire that must hand out a session obtained as `how` ("cached", "created",
    /// "resumed").
    async fn acquire_as(
        cache: &F::Cache,
        check: &'static str,
        id: &str,
        require_existing: bool,
        now_ms: u64,
        how: &'static str,
    ) -> Checked<Acquired<<F::Cache as SessionCachePort>::Lock>> {
        let acquired = Self::acquire(cache, check, Some(id), require_existing, now_ms).await?;
        same(check, how, how_name(&acquired.how))?;
        same(check, id, acquired.session_id.as_str())?;
        Ok(acquired)
    }

    /// An acquire that must fail; returns the error.
    async fn acquire_fails(
        cache: &F::Cache,
        check: &'static str,
        id: &str,
        require_existing: bool,
        now_ms: u64,
    ) -> Checked<SessionCacheError<<F::Cache as SessionCachePort>::StoreError>> {
        let options = AcquireOptions::new().require_existing(require_existing);
        match cache.acquire(Some(id), options, now_ms).await {
            Ok(acquired) => Err(mismatch(check, "an error", how_name(&acquired.how))),
            Err(error) => Ok(error),
        }
    }

    async fn not_found(cache: &F::Cache, check: &'static str, id: &str, now_ms: u64) -> Checked {
        let error = Self::acquire_fails(cache, check, id, true, now_ms).await?;
        holds(check, error.is_not_found(), format!("{error}"))
    }

    async fn commit(cache: &F::Cache, check: &'static str, id: &str, now_ms: u64) -> Checked {
        cache
            .commit(id, now_ms)
            .await
            .map_err(|error| failed(check, error))
    }

    async fn fork(
        cache: &F::Cache,
        check: &'static str,
        source: &str,
        owner: ForkOwner,
        now_ms: u64,
    ) -> Checked<String> {
        match cache.fork(source, owner, now_ms).await {
            Ok(Some(id)) => Ok(id),
            Ok(None) => Err(mismatch(check, "a fork id", "none")),
            Err(error) => Err(failed(check, error)),
        }
    }

    async fn sweep(
        cache: &F::Cache,
        check: &'static str,
        now_ms: u64,
        expected: &[&str],
    ) -> Checked {
        let report = cache.sweep(now_ms).await;
        if let Some((id, error)) = report.delete_failures.first() {
            return Err(failed(check, format!("deleting `{id}`: {error}")));
        }
        let mut evicted = report.evicted;
        evicted.sort();
        same(
            check,
            expected.iter().map(|id| id.to_string()).collect::<Vec<_>>(),
            evicted,
        )
    }

    async fn acquire_creates_and_resumes(&mut self) -> Checked {
        let cache = self
            .cache(
                EvictPolicy::Delete,
                vec![planted_record("p1", vec![user("m1", "hello")])],
            )
            .await?;
        let created =
            Self::acquire_as(&cache, "a new id is created", "s1", false, T0, "created").await?;
        same(
            "a created session's record carries its id and no messages",
            Some((String::from("s1"), Vec::new())),
            created
                .session
                .try_with(|record| (record.id.clone(), record.messages.clone()))
                .ok(),
        )?;
        let again = Self::acquire_as(
            &cache,
            "a cached id is a hit",
            "s1",
            false,
            T0 + 1,
            "cached",
        )
        .await?;
        holds(
            "a cached id hands out the same live session",
            again.session.same_session(&created.session),
            &again.session,
        )?;
        let resumed = Self::acquire_as(
            &cache,
            "a stored record resumes",
            "p1",
            false,
            T0 + 2,
            "resumed",
        )
        .await?;
        same(
            "a resumed session holds the stored messages",
            Some(vec![user("m1", "hello")]),
            messages_of(&resumed.session),
        )?;
        let minted = Self::acquire(&cache, "an acquire without an id", None, false, T0 + 3).await?;
        same(
            "an acquire without an id creates",
            "created",
            how_name(&minted.how),
        )?;
        holds(
            "a minted id is fresh",
            !minted.session_id.is_empty() && minted.session_id != "s1" && minted.session_id != "p1",
            &minted.session_id,
        )?;
        same(
            "a minted session's record carries the minted id",
            Some(minted.session_id.clone()),
            minted.session.try_with(|record| record.id.clone()).ok(),
        )?;
        same("three sessions are cached", 3, cache.len())
    }

    async fn require_existing_not_found(&mut self) -> Checked {
        let cache = self
            .cache(
                EvictPolicy::Delete,
                vec![planted_record("p1", vec![user("m1", "hello")])],
            )
            .await?;
        Self::not_found(
            &cache,
            "require_existing on a missing id fails with not_found",
            "ghost",
            T0,
        )
        .await?;
        same("nothing was cached", 0, cache.len())?;
        Self::not_found(
            &cache,
            "nothing was created: it fails again",
            "ghost",
            T0 + 1,
        )
        .await?;
        Self::acquire_as(
            &cache,
            "without require_existing the id is created",
            "ghost",
            false,
            T0 + 2,
            "created",
        )
        .await?;
        Self::acquire_as(
            &cache,
            "require_existing on a stored id resumes",
            "p1",
            true,
            T0 + 3,
            "resumed",
        )
        .await
        .map(|_| ())
    }

    async fn concurrent_acquires(&mut self) -> Checked {
        let cache = self
            .cache(
                EvictPolicy::Delete,
                vec![planted_record("p1", vec![user("m1", "hello")])],
            )
            .await?;
        for (id, first) in [("p1", "resumed"), ("n1", "created")] {
            let check = "two concurrent acquires both succeed";
            let (a, b) = join(
                Self::acquire(&cache, check, Some(id), false, T0),
                Self::acquire(&cache, check, Some(id), false, T0),
            )
            .await;
            let (a, b) = (a?, b?);
            holds(
                "two concurrent acquires share one live session",
                a.session.same_session(&b.session),
                (&a.session, &b.session),
            )?;
            let mut hows = [how_name(&a.how), how_name(&b.how)];
            hows.sort_unstable();
            let mut expected = ["cached", first];
            expected.sort_unstable();
            same(
                "one acquire loads (resumes or creates), the other shares it",
                expected,
                hows,
            )?;
        }
        same("one session per id is cached", 2, cache.len())
    }

    async fn ttl_sweep_and_pins(&mut self) -> Checked {
        let cache = self.cache(EvictPolicy::Delete, Vec::new()).await?;
        for id in ["s1", "s2"] {
            Self::acquire_as(&cache, "the sessions", id, false, T0, "created").await?;
        }
        holds(
            "touching a cached session succeeds",
            cache.touch("s2", T0 + TTL / 2),
            "false",
        )?;
        holds(
            "touching an uncached id does nothing",
            !cache.touch("nope", T0),
            "true",
        )?;
        Self::sweep(&cache, "idle exactly the TTL is not evicted", T0 + TTL, &[]).await?;
        Self::sweep(
            &cache,
            "idle longer than the TTL is evicted; a touched one is not",
            T0 + TTL + 1,
            &["s1"],
        )
        .await?;
        same("one session is left", 1, cache.len())?;
        Self::not_found(
            &cache,
            "under delete, a swept session's history is gone",
            "s1",
            T0 + TTL + 2,
        )
        .await?;
        cache.pin("s2");
        Self::sweep(
            &cache,
            "a pinned session is never evicted",
            T0 + 100 * TTL,
            &[],
        )
        .await?;
        cache.unpin("s2");
        Self::sweep(
            &cache,
            "an unpinned session is evicted again",
            T0 + 100 * TTL,
            &["s2"],
        )
        .await?;
        same("nothing is cached", 0, cache.len())?;

        let start = T0 + 200 * TTL;
        for id in ["s3", "s4", "s6"] {
            Self::acquire_as(&cache, "more sessions", id, false, start, "created").await?;
        }
        Self::acquire_as(
            &cache,
            "an acquire spares its own id from its sweep",
            "s6",
            false,
            start + 2 * TTL,
            "cached",
        )
        .await?;
        Self::acquire_as(
            &cache,
            "an acquire after the TTL",
            "s5",
            false,
            start + 2 * TTL,
            "created",
        )
        .await?;
        same(
            "an acquire sweeps the idle sessions",
            vec![String::from("s5"), String::from("s6")],
            {
                let mut ids: Vec<String> = cache
                    .list()
                    .into_iter()
                    .map(|summary| summary.session_id)
                    .collect();
                ids.sort();
                ids
            },
        )?;

        let keeping = self.cache(EvictPolicy::Forget, Vec::new()).await?;
        Self::acquire_as(&keeping, "a session to keep", "s1", false, T0, "created").await?;
        Self::sweep(
            &keeping,
            "under forget, an idle session is evicted",
            T0 + TTL + 1,
            &["s1"],
        )
        .await?;
        Self::acquire_as(
            &keeping,
            "under forget, a swept session's history resumes",
            "s1",
            true,
            T0 + TTL + 2,
            "resumed",
        )
        .await
        .map(|_| ())
    }

    async fn forget_keeps_history(&mut self) -> Checked {
        let cache = self.cache(EvictPolicy::Delete, Vec::new()).await?;
        let first = Self::acquire_as(&cache, "the session", "s1", false, T0, "created").await?;
        push_message("a turn", &first.session, user("m1", "kept"))?;
        Self::commit(&cache, "committing the turn", "s1", T0 + 1).await?;
        cache
            .register("s1", Registration::Principal(alice()?))
            .await;
        cache.pin("s1");
        holds("forgetting a cached session", cache.forget("s1"), "false")?;
        same("nothing is cached after forget", 0, cache.len())?;
        holds(
            "forgetting it again does nothing",
            !cache.forget("s1"),
            "true",
        )?;
        let again = Self::acquire_as(
            &cache,
            "a forgotten session resumes from its history, even under delete",
            "s1",
            true,
            T0 + 2,
            "resumed",
        )
        .await?;
        same(
            "the resumed history is the committed one",
            Some(vec![user("m1", "kept")]),
            messages_of(&again.session),
        )?;
        holds(
            "the resumed session is a new live value",
            !again.session.same_session(&first.session),
            &again.session,
        )?;
        same(
            "the ownership row survives forget",
            OwnerRow::Owned(alice()?),
            cache.owner_of("s1").await,
        )?;
        Self::sweep(&cache, "a pin survives forget", T0 + 100 * TTL, &[]).await
    }

    async fn release_follows_policy(&mut self) -> Checked {
        let deleting = self.cache(EvictPolicy::Delete, Vec::new()).await?;
        Self::acquire_as(&deleting, "the session", "s1", false, T0, "created").await?;
        deleting
            .register("s1", Registration::Principal(alice()?))
            .await;
        match deleting.release("s1").await {
            Ok(released) => same(
                "under delete, release drops the session and deletes its history",
                Released {
                    was_cached: true,
                    history_deleted: true,
                },
                released,
            )?,
            Err(error) => return Err(failed("releasing under delete", error)),
        }
        same("nothing is cached after release", 0, deleting.len())?;
        Self::not_found(
            &deleting,
            "under delete, a released session's history is gone",
            "s1",
            T0 + 1,
        )
        .await?;
        same(
            "under delete, the row goes with the history",
            OwnerRow::NoRow,
            deleting.owner_of("s1").await,
        )?;

        let keeping = self.cache(EvictPolicy::Forget, Vec::new()).await?;
        let first = Self::acquire_as(&keeping, "the session", "s1", false, T0, "created").await?;
        push_message("a turn", &first.session, user("m1", "kept"))?;
        Self::commit(&keeping, "committing the turn", "s1", T0 + 1).await?;
        keeping
            .register("s1", Registration::Principal(alice()?))
            .await;
        match keeping.release("s1").await {
            Ok(released) => same(
                "under forget, release drops the session and keeps its history",
                Released {
                    was_cached: true,
                    history_deleted: false,
                },
                released,
            )?,
            Err(error) => return Err(failed("releasing under forget", error)),
        }
        let again = Self::acquire_as(
            &keeping,
            "under forget, a released session resumes",
            "s1",
            true,
            T0 + 2,
            "resumed",
        )
        .await?;
        same(
            "the resumed history is the committed one",
            Some(vec![user("m1", "kept")]),
            messages_of(&again.session),
        )?;
        same(
            "under forget, the row stays",
            OwnerRow::Owned(alice()?),
            keeping.owner_of("s1").await,
        )
    }

    async fn task_runs_and_listing(&mut self) -> Checked {
        let cache = self.cache(EvictPolicy::Delete, Vec::new()).await?;
        for (offset, id) in [(1, "s1"), (2, "s2"), (3, "s3")] {
            Self::acquire_as(&cache, "the sessions", id, false, T0 + offset, "created").await?;
        }
        holds(
            "noting a task run on a cached session",
            cache.note_task_run("s1", "task-9", T0 + 4),
            "false",
        )?;
        holds(
            "noting a task run on an uncached id does nothing",
            !cache.note_task_run("zz", "task-0", T0 + 5),
            "true",
        )?;
        let listed: Vec<(String, u64, Option<String>, bool)> = cache
            .list()
            .into_iter()
            .map(|summary| {
                (
                    summary.session_id,
                    summary.last_active_at,
                    summary.last_task_id,
                    summary.created_at.is_some(),
                )
            })
            .collect();
        same(
            "the listing is newest-first, with the last task id",
            vec![
                (
                    String::from("s1"),
                    T0 + 4,
                    Some(String::from("task-9")),
                    true,
                ),
                (String::from("s3"), T0 + 3, None, true),
                (String::from("s2"), T0 + 2, None, true),
            ],
            listed,
        )?;
        cache.touch("s2", T0 + 6);
        let order: Vec<String> = cache
            .list()
            .into_iter()
            .map(|summary| summary.session_id)
            .collect();
        same(
            "a touch moves a session to the front",
            vec![String::from("s2"), String::from("s1"), String::from("s3")],
            order,
        )
    }

    async fn owner_rows(&mut self) -> Checked {
        let cache = self.cache(EvictPolicy::Delete, Vec::new()).await?;
        same(
            "an unknown id has no row",
            OwnerRow::NoRow,
            cache.owner_of("u").await,
        )?;
        Self::acquire_as(&cache, "the session", "u", false, T0, "created").await?;
        same(
            "an acquire writes no row",
            OwnerRow::NoRow,
            cache.owner_of("u").await,
        )?;
        same(
            "a first anonymous registration stores an anonymous row",
            OwnerRow::Anonymous,
            cache.register("u", Registration::Anonymous).await,
        )?;
        same(
            "a later principal neither overwrites nor fails",
            OwnerRow::Anonymous,
            cache.register("u", Registration::Principal(alice()?)).await,
        )?;
        same(
            "the anonymous row is read back, not collapsed to no row",
            OwnerRow::Anonymous,
            cache.owner_of("u").await,
        )?;
        same(
            "a first principal owns the session",
            OwnerRow::Owned(alice()?),
            cache.register("v", Registration::Principal(alice()?)).await,
        )?;
        for later in [Registration::Principal(bob()?), Registration::Anonymous] {
            same(
                "a later registration keeps the first owner",
                OwnerRow::Owned(alice()?),
                cache.register("v", later).await,
            )?;
        }
        same(
            "the owner is read back",
            OwnerRow::Owned(alice()?),
            cache.owner_of("v").await,
        )?;
        same(
            "another id still has no row",
            OwnerRow::NoRow,
            cache.owner_of("w").await,
        )
    }

    async fn fork_copies_committed(&mut self) -> Checked {
        let cache = self
            .cache(
                EvictPolicy::Delete,
                vec![planted_record("src", vec![user("m1", "committed")])],
            )
            .await?;
        let source = Self::acquire_as(&cache, "the source", "src", false, T0, "resumed").await?;
        push_message("a turn in flight", &source.session, user("m2", "in flight"))?;
        let fork = Self::fork(
            &cache,
            "forking the source",
            "src",
            ForkOwner::Inherit,
            T0 + 1,
        )
        .await?;
        holds(
            "a fork has a fresh id",
            !fork.is_empty() && fork != "src",
            &fork,
        )?;
        let forked = Self::acquire_as(
            &cache,
            "a fork is cached at once",
            &fork,
            true,
            T0 + 2,
            "cached",
        )
        .await?;
        same(
            "a fork copies the committed history, never the turn in flight",
            Some(vec![user("m1", "committed")]),
            messages_of(&forked.session),
        )?;
        same(
            "the fork's record carries its own id",
            Some(fork.clone()),
            forked.session.try_with(|record| record.id.clone()).ok(),
        )?;
        same(
            "the listing names the fork's source",
            Some(Some(String::from("src"))),
            cache
                .list()
                .into_iter()
                .find(|summary| summary.session_id == fork)
                .map(|summary| summary.forked_from),
        )?;
        push_message("a turn on the fork", &forked.session, user("f1", "fork"))?;
        Self::commit(&cache, "committing the fork", &fork, T0 + 3).await?;
        same(
            "the fork is independent of the live source",
            Some(vec![user("m1", "committed"), user("m2", "in flight")]),
            messages_of(&source.session),
        )?;
        cache.forget("src");
        cache.forget(&fork);
        let source_again =
            Self::acquire_as(&cache, "the source again", "src", true, T0 + 4, "resumed").await?;
        same(
            "the fork's commit did not touch the stored source",
            Some(vec![user("m1", "committed")]),
            messages_of(&source_again.session),
        )?;
        let fork_again =
            Self::acquire_as(&cache, "a fork is stored", &fork, true, T0 + 5, "resumed").await?;
        same(
            "the stored fork holds its own history",
            Some(vec![user("m1", "committed"), user("f1", "fork")]),
            messages_of(&fork_again.session),
        )?;
        push_message(
            "a second turn",
            &source_again.session,
            user("m3", "now committed"),
        )?;
        Self::commit(&cache, "committing the source", "src", T0 + 6).await?;
        let second = Self::fork(&cache, "forking again", "src", ForkOwner::Inherit, T0 + 7).await?;
        holds("two forks have two ids", second != fork, &second)?;
        let second =
            Self::acquire_as(&cache, "the second fork", &second, true, T0 + 8, "cached").await?;
        same(
            "a fork after a commit copies the committed turn",
            Some(vec![user("m1", "committed"), user("m3", "now committed")]),
            messages_of(&second.session),
        )?;
        match cache.fork("ghost", ForkOwner::Inherit, T0 + 9).await {
            Ok(None) => Ok(()),
            Ok(Some(id)) => Err(mismatch("a missing source forks to none", "none", id)),
            Err(error) => Err(failed("a missing source forks to none", error)),
        }
    }

    async fn fork_ownership(&mut self) -> Checked {
        let sources = [
            planted_record("s1", vec![user("m1", "no row")]),
            planted_record("s2", vec![user("m1", "anonymous")]),
            planted_record("s3", vec![user("m1", "owned")]),
        ];
        let cache = self.cache(EvictPolicy::Delete, sources.to_vec()).await?;
        cache.register("s2", Registration::Anonymous).await;
        cache
            .register("s3", Registration::Principal(alice()?))
            .await;
        let (alice, bob) = (alice()?, bob()?);
        let owned_by_alice = OwnerRow::Owned(alice);
        let owned_by_bob = OwnerRow::Owned(bob.clone());
        let table = [
            ("s1", ForkOwner::Inherit, OwnerRow::NoRow),
            ("s1", ForkOwner::Anonymous, OwnerRow::NoRow),
            (
                "s1",
                ForkOwner::Principal(bob.clone()),
                owned_by_bob.clone(),
            ),
            ("s2", ForkOwner::Inherit, OwnerRow::Anonymous),
            ("s2", ForkOwner::Anonymous, OwnerRow::Anonymous),
            ("s2", ForkOwner::Principal(bob.clone()), owned_by_bob),
            ("s3", ForkOwner::Inherit, owned_by_alice.clone()),
            ("s3", ForkOwner::Anonymous, owned_by_alice.clone()),
            ("s3", ForkOwner::Principal(bob), owned_by_alice),
        ];
        for (offset, (source, owner, expected)) in (0..).zip(table) {
            let check = "a fork's row is never weaker than its source's";
            let fork = Self::fork(&cache, check, source, owner.clone(), T0 + offset).await?;
            let received = cache.owner_of(&fork).await;
            if received != expected {
                return Err(mismatch(check, (source, owner, expected), received));
            }
        }
        Ok(())
    }

    async fn damaged_records(&mut self) -> Checked {
        let cache = self
            .cache(
                EvictPolicy::Delete,
                vec![
                    planted("c1", PlantedContent::Corrupt),
                    planted("u1", PlantedContent::Unsupported),
                ],
            )
            .await?;
        for (id, status) in [
            ("c1", SessionLoadStatus::Corrupt),
            ("u1", SessionLoadStatus::Unsupported),
        ] {
            for require_existing in [false, true] {
                let check = "acquiring a damaged record is an error carrying its outcome";
                let error = Self::acquire_fails(&cache, check, id, require_existing, T0).await?;
                same(
                    check,
                    Some(status),
                    error.unreadable_outcome().map(|outcome| outcome.status()),
                )?;
            }
            let check = "forking a damaged record is an error carrying its outcome";
            match cache.fork(id, ForkOwner::Inherit, T0).await {
                Err(error) => same(
                    check,
                    Some(status),
                    error.unreadable_outcome().map(|outcome| outcome.status()),
                )?,
                Ok(answer) => return Err(mismatch(check, status, answer)),
            }
        }
        same("nothing is cached over damaged records", 0, cache.len())?;
        let error = Self::acquire_fails(
            &cache,
            "nothing was created over the damage: it is still an error",
            "c1",
            false,
            T0 + 1,
        )
        .await?;
        same(
            "the damage is still reported",
            Some(SessionLoadStatus::Corrupt),
            error.unreadable_outcome().map(|outcome| outcome.status()),
        )
    }

    async fn reconcile_on_wake(&mut self) -> Checked {
        let cache = self
            .cache(
                EvictPolicy::Delete,
                vec![
                    planted_record(
                        "w1",
                        vec![
                            user("e1", "write it"),
                            tool_call("e2", "call_1", "write_file"),
                        ],
                    ),
                    planted_record(
                        "w2",
                        vec![user("e1", "wait"), tool_call("e2", "call_2", "write_file")],
                    ),
                ],
            )
            .await?;
        let woken = Self::acquire_as(
            &cache,
            "waking an interrupted session",
            "w1",
            false,
            T0,
            "resumed",
        )
        .await?;
        let Acquisition::Resumed { recovered, .. } = &woken.how else {
            return Err(mismatch("waking reports", "resumed", how_name(&woken.how)));
        };
        let closed: Vec<(String, String, ReconciledErrorKind)> = recovered
            .recovered
            .iter()
            .map(|orphan| {
                (
                    orphan.tool_call_id.clone(),
                    orphan.tool_name.clone(),
                    orphan.error_kind,
                )
            })
            .collect();
        same(
            "the interrupted call is reported as recovered",
            vec![(
                String::from("call_1"),
                String::from("write_file"),
                ReconciledErrorKind::InterruptedOutcomeUnknown,
            )],
            closed,
        )?;
        let last = woken
            .session
            .try_with(|record| match record.messages.last() {
                Some(UniversalMessage::Tool(result)) => Some((
                    record.messages.len(),
                    result.tool_call_id.clone(),
                    result.base.id.clone(),
                )),
                _ => None,
            })
            .ok()
            .flatten();
        same(
            "a synthetic result is appended under the reported entry id",
            Some((
                3,
                String::from("call_1"),
                recovered
                    .recovered
                    .first()
                    .map(|orphan| orphan.entry_id.clone())
                    .unwrap_or_default(),
            )),
            last,
        )?;
        let expected_messages = messages_of(&woken.session);
        cache.forget("w1");
        let again =
            Self::acquire_as(&cache, "waking it again", "w1", true, T0 + 1, "resumed").await?;
        same(
            "the reconcile was saved: a second wake recovers nothing",
            Some(true),
            match &again.how {
                Acquisition::Resumed { recovered, .. } => Some(recovered.is_empty()),
                _ => None,
            },
        )?;
        same(
            "the second wake resumes the reconciled history",
            expected_messages,
            messages_of(&again.session),
        )?;

        let suspended = ["call_2"];
        let options = AcquireOptions::new()
            .with_reconcile(ReconcileInputs::new().with_suspended_batch(&suspended));
        let check = "waking with a suspended batch";
        let kept = cache
            .acquire(Some("w2"), options, T0 + 2)
            .await
            .map_err(|error| failed(check, error))?;
        same(
            "a suspended batch's call is never closed",
            (Some(true), Some(2)),
            (
                match &kept.how {
                    Acquisition::Resumed { recovered, .. } => Some(recovered.is_empty()),
                    _ => None,
                },
                messages_of(&kept.session).map(|messages| messages.len()),
            ),
        )
    }

    async fn declarations(&mut self) -> Checked {
        for evict in [EvictPolicy::Delete, EvictPolicy::Forget] {
            let cache = self.cache(evict, Vec::new()).await?;
            same(
                "the evict policy is the declared one",
                evict,
                cache.evict_policy(),
            )?;
            same(
                "retention is declared none",
                Retention::None,
                cache.retention(),
            )?;
        }
        Ok(())
    }
}

//! Cases of the TTL session cache (`session-cache`): the conformance suite over the memory
//! record store and over a port double, caches and stores with one planted defect each failing
//! it at the right case, the refusals of every operation, the counting check that concurrent
//! acquires load once, the declarations and their wire literals, and `bounded_tail` (unit cases
//! and seeded properties). Uses only `core`, `alloc`, serde_json and the crate, so it also runs
//! on the firmware and wasm.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::fmt;
use core::future::Future;
use core::pin::pin;
use core::task::{Context, Poll, Waker};

use agent_interface::agent_core::{
    AssistantMessage, ErrorValue, NoopRawMutex, ToolCall, ToolCallFunction, UniversalMessage,
};
use agent_interface::conformance::{EveryCase, StopAtFirst, SuiteCase};
use agent_interface::runtime::reconcile::ReconcileInputs;
use agent_interface::runtime::record_codec::encode_session_record;
use agent_interface::runtime::record_store::{
    MemoryMedium, RecordId, RecordIdError, RecordMedium, RecordStore, RecordStoreError, Unsealed,
    WriterId,
};
use agent_interface::runtime::session_cache::testing::{
    CaseSetup, PlantedContent, SessionCacheCase, SessionCacheConformanceFailure,
    SessionCacheFixture, SessionCacheProblem, run_session_cache_case,
    run_session_cache_conformance,
};
use agent_interface::runtime::session_cache::*;
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose,
    LockedReason, SaveOutcome, SavePurpose, SaveRefusal, SessionLoadOutcome, SessionLoadStatus,
    SessionStoreListing,
};

use crate::support::{block_on, golden, s, to_json};

#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

/// A principal from a literal.
fn principal(name: &str) -> Principal {
    Principal::new(name).expect("a non-blank principal")
}

/// 2026-05-01T00:00:00.000Z.
const T0: u64 = 1_777_593_600_000;

// ---- the port double --------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Stored {
    Record(Box<InteractiveSessionRecord>),
    Corrupt,
    Unsupported,
    Locked,
}

/// One planted defect of the store double (or none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StoreDefect {
    None,
    /// Reports every valid record as corrupt.
    ReportsCorrupt,
    /// Reports damaged records as missing (treats damaged as absent).
    DamagedReadsMissing,
    /// Acknowledges deletes without deleting.
    IgnoresDelete,
    /// Fails every delete.
    FailsDelete,
    /// Refuses every save (`has-writer`).
    RefusesSave,
    /// Fails every save.
    FailsSave,
    /// Fails every load.
    FailsLoad,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct DoubleError(&'static str);

impl fmt::Display for DoubleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the double failed to {}", self.0)
    }
}

impl core::error::Error for DoubleError {}

/// Pending once (waking at once), then ready: a store call that really suspends.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();

    fn poll(mut self: core::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

/// An in-memory implementation of the store port, counting loads, with one planted defect.
struct DoubleStore {
    records: RefCell<BTreeMap<String, Stored>>,
    loads: Cell<usize>,
    saves: Cell<usize>,
    yields: bool,
    /// How many polls each coming save waits before it writes, in order (then none).
    save_delays: RefCell<Vec<usize>>,
    defect: StoreDefect,
}

impl DoubleStore {
    fn new(defect: StoreDefect) -> Self {
        Self {
            records: RefCell::new(BTreeMap::new()),
            loads: Cell::new(0),
            saves: Cell::new(0),
            yields: false,
            save_delays: RefCell::new(Vec::new()),
            defect,
        }
    }

    fn yielding(mut self) -> Self {
        self.yields = true;
        self
    }

    fn plant(&self, id: &str, stored: Stored) {
        self.records.borrow_mut().insert(s(id), stored);
    }

    fn stored(&self, id: &str) -> Option<Stored> {
        self.records.borrow().get(id).cloned()
    }
}

impl InteractiveSessionStore for DoubleStore {
    type Error = DoubleError;

    async fn save(
        &self,
        record: &InteractiveSessionRecord,
        _purpose: SavePurpose,
        _provenance: ContentProvenance,
    ) -> Result<SaveOutcome, DoubleError> {
        match self.defect {
            StoreDefect::RefusesSave => {
                return Ok(SaveOutcome::Refused {
                    reason: SaveRefusal::HasWriter,
                });
            }
            StoreDefect::FailsSave => return Err(DoubleError("save")),
            _ => {}
        }
        let delay = {
            let mut delays = self.save_delays.borrow_mut();
            if delays.is_empty() {
                0
            } else {
                delays.remove(0)
            }
        };
        for _ in 0..delay {
            YieldOnce(false).await;
        }
        let mut records = self.records.borrow_mut();
        if let Some(Stored::Corrupt | Stored::Unsupported | Stored::Locked) =
            records.get(&record.id)
        {
            return Ok(SaveOutcome::Refused {
                reason: SaveRefusal::Unreadable,
            });
        }
        self.saves.set(self.saves.get() + 1);
        records.insert(record.id.clone(), Stored::Record(Box::new(record.clone())));
        Ok(SaveOutcome::Saved)
    }

    async fn load(
        &self,
        id: &str,
        _purpose: LoadPurpose,
    ) -> Result<SessionLoadOutcome, DoubleError> {
        self.loads.set(self.loads.get() + 1);
        if self.yields {
            YieldOnce(false).await;
        }
        if self.defect == StoreDefect::FailsLoad {
            return Err(DoubleError("load"));
        }
        let damaged = |outcome| {
            if self.defect == StoreDefect::DamagedReadsMissing {
                SessionLoadOutcome::Missing
            } else {
                outcome
            }
        };
        Ok(match self.stored(id) {
            None => SessionLoadOutcome::Missing,
            Some(Stored::Record(_)) if self.defect == StoreDefect::ReportsCorrupt => {
                SessionLoadOutcome::Corrupt {
                    issues: Vec::new(),
                    cwd: None,
                }
            }
            Some(Stored::Record(record)) => SessionLoadOutcome::valid(*record),
            Some(Stored::Corrupt) => damaged(SessionLoadOutcome::Corrupt {
                issues: Vec::new(),
                cwd: Some(s("/work")),
            }),
            Some(Stored::Unsupported) => damaged(SessionLoadOutcome::Unsupported {
                schema_version: Some(99),
                cwd: None,
            }),
            Some(Stored::Locked) => damaged(SessionLoadOutcome::Locked {
                reason: LockedReason::NoKeys,
            }),
        })
    }

    async fn list(&self) -> Result<SessionStoreListing, DoubleError> {
        Ok(SessionStoreListing::default())
    }

    async fn delete(&self, id: &str) -> Result<(), DoubleError> {
        match self.defect {
            StoreDefect::FailsDelete => Err(DoubleError("delete")),
            StoreDefect::IgnoresDelete => Ok(()),
            _ => {
                self.records.borrow_mut().remove(id);
                Ok(())
            }
        }
    }
}

/// Ids `sess-N` and `entry-N`.
fn counter_ids() -> impl FnMut(IdKind) -> String {
    let mut next = 0u32;
    move |kind| {
        next += 1;
        match kind {
            IdKind::Session => format!("sess-{next}"),
            IdKind::Entry => format!("entry-{next}"),
        }
    }
}

type DoubleCache = SessionCache<DoubleStore, Box<dyn FnMut(IdKind) -> String>>;

fn config_for(evict: EvictPolicy, ttl_ms: u64) -> SessionCacheConfig {
    SessionCacheConfig::for_process_local_store("/work/project")
        .with_evict(evict)
        .with_ttl_ms(ttl_ms)
}

fn double_cache(store: DoubleStore, evict: EvictPolicy) -> DoubleCache {
    SessionCache::new(store, Box::new(counter_ids()), config_for(evict, 60_000))
}

fn planted_store(setup: &CaseSetup, defect: StoreDefect) -> DoubleStore {
    let store = DoubleStore::new(defect);
    for planted in &setup.planted {
        let stored = match &planted.content {
            PlantedContent::Record(record) => Stored::Record(record.clone()),
            PlantedContent::Corrupt => Stored::Corrupt,
            PlantedContent::Unsupported => Stored::Unsupported,
        };
        store.plant(&planted.id, stored);
    }
    store
}

/// The port double's fixture (one type for every use, so the firmware images instantiate the
/// suite once for it): a planted store defect, store calls that suspend, or a fixture that fails.
#[derive(Clone, Copy, Debug)]
struct DoubleFixture {
    defect: StoreDefect,
    yields: bool,
    broken: bool,
}

impl DoubleFixture {
    const fn with(defect: StoreDefect) -> Self {
        Self {
            defect,
            yields: false,
            broken: false,
        }
    }
}

impl SessionCacheFixture for DoubleFixture {
    type Cache = DoubleCache;

    async fn create(&mut self, setup: &CaseSetup) -> Result<DoubleCache, ErrorValue> {
        if self.broken {
            return Err(ErrorValue::from_message("no store today"));
        }
        let mut store = planted_store(setup, self.defect);
        store.yields = self.yields;
        Ok(SessionCache::new(
            store,
            Box::new(counter_ids()),
            config_for(setup.evict, setup.ttl_ms),
        ))
    }
}

// ---- the memory record store fixture -----------------------------------------------------------

type MemoryCache =
    SessionCache<RecordStore<MemoryMedium, Unsealed>, Box<dyn FnMut(IdKind) -> String>>;

struct MemoryFixture;

impl SessionCacheFixture for MemoryFixture {
    type Cache = MemoryCache;

    async fn create(&mut self, setup: &CaseSetup) -> Result<MemoryCache, ErrorValue> {
        let medium = MemoryMedium::new();
        for planted in &setup.planted {
            let bytes = match &planted.content {
                PlantedContent::Record(record) => encode_session_record(record)
                    .map_err(|error| ErrorValue::from_message(format!("{error}")))?,
                PlantedContent::Corrupt => b"{ not a session record".to_vec(),
                PlantedContent::Unsupported => br#"{"schemaVersion":99,"record":{}}"#.to_vec(),
            };
            let id = RecordId::new(planted.id.as_str())
                .map_err(|error| ErrorValue::from_message(format!("{error}")))?;
            medium
                .write(&id, &bytes)
                .await
                .map_err(|error| ErrorValue::from_message(format!("{error}")))?;
        }
        let writer = WriterId::new("cache-test")
            .map_err(|error| ErrorValue::from_message(format!("{error}")))?;
        Ok(SessionCache::new(
            RecordStore::new(medium, Unsealed, writer),
            Box::new(counter_ids()),
            config_for(setup.evict, setup.ttl_ms),
        ))
    }
}

// ---- a cache wrapper with one planted defect ---------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CacheDefect {
    /// `forget` also deletes the stored history.
    DeletesOnForget,
    /// `owner_of` reads "no row" as anonymous.
    CollapsesNoRow,
    /// `fork` ignores its owner argument.
    DropsForkOwner,
    /// `fork` commits the live source first, so the turn in flight is copied.
    ForksTheLiveTurn,
    /// `pin` does nothing.
    PinIsNoop,
    /// `acquire` ignores `require_existing`.
    CreatesOnRequireExisting,
    /// `list` is oldest-first.
    ListsOldestFirst,
    /// `register` lets a later registration overwrite.
    LastWriteWins,
}

struct Defective {
    cache: DoubleCache,
    defect: CacheDefect,
    overrides: RefCell<BTreeMap<String, OwnerRow>>,
}

impl SessionCachePort for Defective {
    type StoreError = DoubleError;
    type Lock = <DoubleCache as SessionCachePort>::Lock;

    async fn acquire(
        &self,
        id: Option<&str>,
        mut options: AcquireOptions<'_>,
        now_ms: u64,
    ) -> Result<Acquired<Self::Lock>, SessionCacheError<DoubleError>> {
        if self.defect == CacheDefect::CreatesOnRequireExisting {
            options = options.require_existing(false);
        }
        self.cache.acquire(id, options, now_ms).await
    }

    fn touch(&self, id: &str, now_ms: u64) -> bool {
        self.cache.touch(id, now_ms)
    }

    async fn release(&self, id: &str) -> Result<Released, SessionCacheError<DoubleError>> {
        self.cache.release(id).await
    }

    fn forget(&self, id: &str) -> bool {
        if self.defect == CacheDefect::DeletesOnForget {
            self.cache.store().records.borrow_mut().remove(id);
        }
        self.cache.forget(id)
    }

    fn pin(&self, id: &str) {
        if self.defect != CacheDefect::PinIsNoop {
            self.cache.pin(id);
        }
    }

    fn unpin(&self, id: &str) {
        self.cache.unpin(id);
    }

    async fn sweep(&self, now_ms: u64) -> SweepReport<DoubleError> {
        self.cache.sweep(now_ms).await
    }

    fn note_task_run(&self, id: &str, task_id: &str, now_ms: u64) -> bool {
        self.cache.note_task_run(id, task_id, now_ms)
    }

    fn list(&self) -> Vec<SessionStoreSummary> {
        let mut list = self.cache.list();
        if self.defect == CacheDefect::ListsOldestFirst {
            list.reverse();
        }
        list
    }

    fn len(&self) -> usize {
        self.cache.len()
    }

    fn is_empty(&self) -> bool {
        self.cache.is_empty()
    }

    async fn commit(&self, id: &str, now_ms: u64) -> Result<(), SessionCacheError<DoubleError>> {
        self.cache.commit(id, now_ms).await
    }

    async fn fork(
        &self,
        source_id: &str,
        owner: ForkOwner,
        now_ms: u64,
    ) -> Result<Option<String>, SessionCacheError<DoubleError>> {
        let owner = match self.defect {
            CacheDefect::DropsForkOwner => ForkOwner::Inherit,
            CacheDefect::ForksTheLiveTurn => {
                if self.cache.get(source_id).is_some() {
                    self.cache.commit(source_id, now_ms).await?;
                }
                owner
            }
            _ => owner,
        };
        self.cache.fork(source_id, owner, now_ms).await
    }

    async fn owner_of(&self, id: &str) -> OwnerRow {
        if let Some(row) = self.overrides.borrow().get(id) {
            return row.clone();
        }
        match self.cache.owner_of(id).await {
            OwnerRow::NoRow if self.defect == CacheDefect::CollapsesNoRow => OwnerRow::Anonymous,
            row => row,
        }
    }

    async fn register(&self, id: &str, registration: Registration) -> OwnerRow {
        let row = self.cache.register(id, registration.clone()).await;
        if self.defect == CacheDefect::LastWriteWins {
            let row = OwnerRow::of(&registration);
            self.overrides.borrow_mut().insert(s(id), row.clone());
            return row;
        }
        row
    }

    fn evict_policy(&self) -> EvictPolicy {
        self.cache.evict_policy()
    }

    fn durability(&self) -> Option<StoreDurability> {
        self.cache.durability()
    }

    fn retention(&self) -> Retention {
        self.cache.retention()
    }
}

fn suite_with_store_defect(defect: StoreDefect) -> Result<(), SessionCacheConformanceFailure> {
    block_on_yielding(run_session_cache_conformance(
        &mut DoubleFixture::with(defect),
        &mut StopAtFirst,
    ))
}

/// The fixture of the defective caches: the port double under a wrapper with one defect.
struct DefectiveFixture(CacheDefect);

impl SessionCacheFixture for DefectiveFixture {
    type Cache = Defective;

    async fn create(&mut self, setup: &CaseSetup) -> Result<Defective, ErrorValue> {
        Ok(Defective {
            cache: DoubleFixture::with(StoreDefect::None).create(setup).await?,
            defect: self.0,
            overrides: RefCell::new(BTreeMap::new()),
        })
    }
}

fn suite_with_cache_defect(defect: CacheDefect) -> Result<(), SessionCacheConformanceFailure> {
    block_on_yielding(run_session_cache_conformance(
        &mut DefectiveFixture(defect),
        &mut StopAtFirst,
    ))
}

// ---- messages and records ----------------------------------------------------------------------

const AT: &str = "2026-05-01T00:00:00.000Z";

fn user(id: &str, text: &str) -> UniversalMessage {
    UniversalMessage::user(id, AT, text)
}

fn calls(id: &str, call_ids: &[&str]) -> UniversalMessage {
    let calls = call_ids
        .iter()
        .map(|call_id| ToolCall::new(*call_id, ToolCallFunction::new("write_file", "{}")))
        .collect();
    AssistantMessage::new(id, AT, None)
        .with_tool_calls(calls)
        .into()
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

fn acquire(
    cache: &DoubleCache,
    id: Option<&str>,
    require: bool,
) -> Result<Acquired, SessionCacheError<DoubleError>> {
    block_on(cache.acquire(id, AcquireOptions::new().require_existing(require), T0))
}

// ---- bounded tail ------------------------------------------------------------------------------

/// A toy tree entry: a message, or a compaction with its summary and first kept entry.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ToyEntry {
    id: String,
    kind: ToyKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ToyKind {
    Message(String),
    Compaction { summary: String, first_kept: String },
}

impl TreeEntry for ToyEntry {
    fn entry_id(&self) -> &str {
        &self.id
    }

    fn compaction_floor(&self) -> Option<&str> {
        match &self.kind {
            ToyKind::Compaction { first_kept, .. } => Some(first_kept),
            ToyKind::Message(_) => None,
        }
    }
}

fn message(id: &str) -> ToyEntry {
    ToyEntry {
        id: s(id),
        kind: ToyKind::Message(format!("text of {id}")),
    }
}

fn compaction(id: &str, first_kept: &str) -> ToyEntry {
    ToyEntry {
        id: s(id),
        kind: ToyKind::Compaction {
            summary: format!("summary up to {first_kept}"),
            first_kept: s(first_kept),
        },
    }
}

/// The toy context builder, written independently of `bounded_tail`: the latest compaction
/// whose first kept entry is on the branch (at or before it) contributes its summary first,
/// then every message from that entry to the leaf; with no such compaction, every message.
fn build_context(entries: &[ToyEntry]) -> Vec<String> {
    let mut latest = None;
    for (index, entry) in entries.iter().enumerate() {
        if let ToyKind::Compaction {
            summary,
            first_kept,
        } = &entry.kind
        {
            latest = Some((index, summary.clone(), first_kept.clone()));
        }
    }
    let (start, mut context) = match latest {
        Some((at, summary, first_kept)) => {
            match entries[..=at]
                .iter()
                .position(|entry| entry.id == first_kept)
            {
                Some(start) => (start, vec![summary]),
                None => (0, Vec::new()),
            }
        }
        None => (0, Vec::new()),
    };
    for entry in &entries[start..] {
        if let ToyKind::Message(text) = &entry.kind {
            context.push(text.clone());
        }
    }
    context
}

/// A random branch: messages with compactions whose floor is an earlier entry (or, now and
/// then, an id not on the branch).
fn random_branch(rng: &mut Seeded) -> Vec<ToyEntry> {
    let len = rng.below(40) as usize;
    let mut entries = Vec::with_capacity(len);
    for index in 0..len {
        let id = format!("e{index}");
        if index > 0 && rng.chance(1, 5) {
            let floor = if rng.chance(1, 10) {
                s("elsewhere")
            } else {
                format!("e{}", rng.below(index as u64 + 1))
            };
            entries.push(compaction(&id, &floor));
        } else {
            entries.push(message(&id));
        }
    }
    entries
}

// ---- the cases ---------------------------------------------------------------------------------

cases! {
    mod memory {
        fn the_memory_record_store_passes_the_suite() {
            let mut harness = EveryCase::new();
            block_on(run_session_cache_conformance(&mut MemoryFixture, &mut harness))
                .expect("every case runs");
            let failures: Vec<_> = harness.failures().collect();
            assert!(failures.is_empty(), "failures: {failures:?}");
            assert_eq!(harness.results.len(), SessionCacheCase::ALL.len());
        }

        fn each_case_runs_alone_on_a_fresh_cache() {
            for &case in SessionCacheCase::ALL {
                assert_eq!(
                    block_on(run_session_cache_case(&mut MemoryFixture, case)),
                    Ok(()),
                    "{case:?}"
                );
            }
        }

        // Issue 39: a bad id is the store's refusal, typed, and said as one; nothing is cached.
        fn an_id_the_store_cannot_hold_is_its_typed_refusal() {
            let setup = CaseSetup { evict: EvictPolicy::Forget, ttl_ms: 60_000, planted: vec![] };
            let cache = block_on(MemoryFixture.create(&setup)).expect("a cache");
            let error = block_on(cache.acquire(Some("a/b"), AcquireOptions::new(), T0))
                .expect_err("refused");
            assert!(
                matches!(
                    &error,
                    SessionCacheError::Store(RecordStoreError::InvalidId(
                        RecordIdError::ForbiddenByte { index: 1, byte: b'/' }
                    ))
                ),
                "{error:?}"
            );
            let message = format!("{error}");
            assert!(message.contains("refused the call"), "{message}");
            assert!(message.contains("byte 1 is 0x2f"), "{message}");
            assert_eq!(cache.len(), 0);
        }
    }

    mod double {
        fn the_port_double_passes_the_suite() {
            assert_eq!(suite_with_store_defect(StoreDefect::None), Ok(()));
            let mut yielding = DoubleFixture { yields: true, ..DoubleFixture::with(StoreDefect::None) };
            assert_eq!(
                block_on_yielding(run_session_cache_conformance(&mut yielding, &mut StopAtFirst)),
                Ok(())
            );
        }

        fn a_host_port_makes_its_own_handles() {
            // A port over the host's own store (a database, say) hands out handles it built.
            let handle: SessionHandle = SessionHandle::new(record("db-1", Vec::new()));
            let shared = handle.clone();
            shared.with_mut(|live| live.cwd = s("/elsewhere"));
            assert_eq!(handle.with(|live| live.cwd.clone()), "/elsewhere");
            assert!(handle.same_session(&shared));
            let other = SessionHandle::<NoopRawMutex>::new(record("db-1", Vec::new()));
            assert!(!handle.same_session(&other), "two handles made apart are two sessions");
        }

        fn a_fixture_that_fails_is_reported() {
            let mut broken = DoubleFixture { broken: true, ..DoubleFixture::with(StoreDefect::None) };
            let failure = block_on(run_session_cache_conformance(&mut broken, &mut StopAtFirst))
                .expect_err("fails");
            assert_eq!(failure.case, SessionCacheCase::AcquireCreatesAndResumes);
            assert_eq!(
                failure.problem,
                SessionCacheProblem::Fixture(ErrorValue::from_message("no store today"))
            );
            assert!(format!("{failure}").contains("no store today"));
        }

        fn each_planted_store_defect_fails_at_its_case() {
            let store_defects = [
                (StoreDefect::ReportsCorrupt, SessionCacheCase::AcquireCreatesAndResumes),
                (StoreDefect::IgnoresDelete, SessionCacheCase::TtlSweepAndPins),
                (StoreDefect::DamagedReadsMissing, SessionCacheCase::DamagedRecordsAreErrors),
                (StoreDefect::FailsLoad, SessionCacheCase::AcquireCreatesAndResumes),
            ];
            for (defect, case) in store_defects {
                let failure = suite_with_store_defect(defect).expect_err("a defect fails");
                assert_eq!(failure.case, case, "{defect:?}: {failure}");
            }
        }

        fn a_store_reporting_corrupt_surfaces_as_unreadable() {
            let store = DoubleStore::new(StoreDefect::ReportsCorrupt);
            store.plant("p1", Stored::Record(Box::new(record("p1", vec![user("m1", "hi")]))));
            let cache = double_cache(store, EvictPolicy::Forget);
            let error = acquire(&cache, Some("p1"), false).expect_err("unreadable");
            assert_eq!(
                error.unreadable_outcome().map(SessionLoadOutcome::status),
                Some(SessionLoadStatus::Corrupt)
            );
            assert!(cache.is_empty());
            assert!(matches!(cache.store().stored("p1"), Some(Stored::Record(_))));
            let failure = suite_with_store_defect(StoreDefect::ReportsCorrupt).expect_err("fails");
            assert!(matches!(failure.problem, SessionCacheProblem::Failed(ref text) if text.contains("corrupt")), "{failure}");
        }

        fn every_case_is_reported_by_the_every_case_harness() {
            let mut fixture = DoubleFixture::with(StoreDefect::IgnoresDelete);
            let mut harness = EveryCase::new();
            block_on(run_session_cache_conformance(&mut fixture, &mut harness)).expect("runs all");
            let failed: Vec<SessionCacheCase> = harness.failures().map(|(case, _)| *case).collect();
            assert_eq!(
                failed,
                vec![SessionCacheCase::TtlSweepAndPins, SessionCacheCase::ReleaseFollowsPolicy]
            );
            assert_eq!(harness.results.len(), SessionCacheCase::ALL.len());
        }
    }

    mod defects {
        fn each_planted_cache_defect_fails_at_its_case() {
            let cache_defects = [
                (CacheDefect::DeletesOnForget, SessionCacheCase::ForgetKeepsHistory),
                (CacheDefect::CollapsesNoRow, SessionCacheCase::OwnerRows),
                (CacheDefect::LastWriteWins, SessionCacheCase::OwnerRows),
                (CacheDefect::DropsForkOwner, SessionCacheCase::ForkOwnership),
                (CacheDefect::ForksTheLiveTurn, SessionCacheCase::ForkCopiesCommittedHistory),
                (CacheDefect::PinIsNoop, SessionCacheCase::TtlSweepAndPins),
                (CacheDefect::CreatesOnRequireExisting, SessionCacheCase::RequireExistingNotFound),
                (CacheDefect::ListsOldestFirst, SessionCacheCase::TaskRunsAndListing),
            ];
            for (defect, case) in cache_defects {
                let failure = suite_with_cache_defect(defect).expect_err("a defect fails");
                assert_eq!(failure.case, case, "{defect:?}: {failure}");
            }
        }

        fn a_forget_that_deletes_fails_where_history_must_resume() {
            let failure = suite_with_cache_defect(CacheDefect::DeletesOnForget).expect_err("fails");
            assert_eq!(
                failure.check,
                "a forgotten session resumes from its history, even under delete"
            );
        }
    }

    mod concurrency {
        fn concurrent_acquires_load_once() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None).yielding(), EvictPolicy::Delete);
            cache.store().plant("p1", Stored::Record(Box::new(record("p1", vec![user("m1", "hi")]))));
            let (a, b, c) = block_on_yielding(join3(
                cache.acquire(Some("p1"), AcquireOptions::new(), T0),
                cache.acquire(Some("p1"), AcquireOptions::new(), T0),
                cache.acquire(Some("p1"), AcquireOptions::new().require_existing(true), T0),
            ))
            .into();
            let (a, b, c) = (a.expect("a"), b.expect("b"), c.expect("c"));
            assert!(a.session.same_session(&b.session) && b.session.same_session(&c.session));
            assert_eq!(cache.store().loads.get(), 1, "one store load for three acquires");
            assert!(matches!(a.how, Acquisition::Resumed { .. }));
            assert_eq!((b.how, c.how), (Acquisition::Cached, Acquisition::Cached));
            assert_eq!(cache.len(), 1);
        }

        fn concurrent_creates_save_once() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None).yielding(), EvictPolicy::Delete);
            let (a, b) = block_on_yielding(join3(
                cache.acquire(Some("n1"), AcquireOptions::new(), T0),
                cache.acquire(Some("n1"), AcquireOptions::new(), T0),
                core::future::ready(()),
            ))
            .into_two();
            let (a, b) = (a.expect("a"), b.expect("b"));
            assert!(a.session.same_session(&b.session));
            assert_eq!((cache.store().loads.get(), cache.store().saves.get()), (1, 1));
        }

        fn a_dropped_acquire_lets_the_waiter_load() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None).yielding(), EvictPolicy::Delete);
            let mut cx = Context::from_waker(Waker::noop());
            {
                let mut first = pin!(cache.acquire(Some("n1"), AcquireOptions::new(), T0));
                assert!(first.as_mut().poll(&mut cx).is_pending(), "the first load suspends");
            }
            let second = block_on_yielding(cache.acquire(Some("n1"), AcquireOptions::new(), T0)).expect("loads");
            assert_eq!(second.how, Acquisition::Created);
            assert_eq!(cache.store().loads.get(), 2);
        }

        fn commits_of_one_session_land_in_the_order_they_read_it() {
            // The first commit's save is slow, the second's is not: the second must not be
            // overwritten by the first's older copy (a lost update before the fix).
            let cache = double_cache(DoubleStore::new(StoreDefect::None), EvictPolicy::Delete);
            let acquired = block_on_yielding(cache.acquire(Some("n1"), AcquireOptions::new(), T0)).expect("created");
            acquired.session.with_mut(|record| record.messages.push(user("m1", "one")));
            cache.store().save_delays.replace(vec![3, 0]);
            let mut cx = Context::from_waker(Waker::noop());
            let mut first = Box::pin(cache.commit("n1", T0 + 1));
            assert!(first.as_mut().poll(&mut cx).is_pending(), "the first save waits");
            acquired.session.with_mut(|record| record.messages.push(user("m2", "two")));
            let (first, second) = block_on_yielding(join3(
                first,
                cache.commit("n1", T0 + 2),
                core::future::ready(()),
            ))
            .into_two();
            first.expect("the first commit lands");
            second.expect("the second commit lands");
            let live = acquired.session.with(|record| record.messages.clone());
            assert_eq!(live.len(), 2);
            match cache.store().stored("n1") {
                Some(Stored::Record(stored)) => {
                    assert_eq!(stored.messages, live, "the store holds the last commit's copy");
                }
                other => panic!("expected the stored record, got {other:?}"),
            }
        }

        fn a_failed_load_is_not_shared_as_a_session() {
            let cache = double_cache(DoubleStore::new(StoreDefect::FailsLoad).yielding(), EvictPolicy::Delete);
            let (a, b) = block_on_yielding(join3(
                cache.acquire(Some("p1"), AcquireOptions::new(), T0),
                cache.acquire(Some("p1"), AcquireOptions::new(), T0),
                core::future::ready(()),
            ))
            .into_two();
            assert!(matches!(a, Err(SessionCacheError::Store(DoubleError("load")))));
            assert!(matches!(b, Err(SessionCacheError::Store(DoubleError("load")))));
            assert_eq!(cache.store().loads.get(), 2, "the waiter retries after the failure");
            assert!(cache.is_empty());
        }
    }

    mod refusals {
        fn not_found_is_loud_and_creates_nothing() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None), EvictPolicy::Delete);
            let error = acquire(&cache, Some("ghost"), true).expect_err("not found");
            assert!(error.is_not_found());
            assert!(format!("{error}").contains("ghost"));
            assert!(cache.is_empty() && cache.store().stored("ghost").is_none());
        }

        fn damaged_records_are_errors_with_their_outcome() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None), EvictPolicy::Delete);
            for (id, stored, status) in [
                ("c1", Stored::Corrupt, SessionLoadStatus::Corrupt),
                ("u1", Stored::Unsupported, SessionLoadStatus::Unsupported),
                ("l1", Stored::Locked, SessionLoadStatus::Locked),
            ] {
                cache.store().plant(id, stored);
                for require in [false, true] {
                    let error = acquire(&cache, Some(id), require).expect_err("unreadable");
                    assert_eq!(error.unreadable_outcome().map(SessionLoadOutcome::status), Some(status));
                    assert!(format!("{error}").contains(status.as_str()), "{error}");
                }
                let error = block_on(cache.fork(id, ForkOwner::Inherit, T0)).expect_err("unreadable");
                assert_eq!(error.unreadable_outcome().map(SessionLoadOutcome::status), Some(status));
            }
            assert!(cache.is_empty());
            assert!(matches!(cache.store().stored("c1"), Some(Stored::Corrupt)));
        }

        fn bad_ids_and_instants_are_refused() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None), EvictPolicy::Delete);
            assert!(matches!(acquire(&cache, Some(""), false), Err(SessionCacheError::EmptyId)));
            let past_9999 = 253_402_300_800_000;
            assert!(matches!(
                block_on(cache.acquire(Some("s1"), AcquireOptions::new(), past_9999)),
                Err(SessionCacheError::InstantOutOfRange { now_ms }) if now_ms == past_9999
            ));
            assert!(matches!(
                block_on(cache.fork("s1", ForkOwner::Inherit, past_9999)),
                Err(SessionCacheError::InstantOutOfRange { .. })
            ));
            assert!(cache.is_empty());
        }

        fn minted_ids_must_be_fresh() {
            let store = DoubleStore::new(StoreDefect::None);
            store.plant("dup", Stored::Record(Box::new(record("dup", vec![user("m1", "theirs")]))));
            let same_id = |_: IdKind| s("dup");
            let cache = SessionCache::new(store, same_id, config_for(EvictPolicy::Delete, 60_000));
            assert!(matches!(
                block_on(cache.acquire(None, AcquireOptions::new(), T0)),
                Err(SessionCacheError::MintedIdTaken { ref id }) if id == "dup"
            ));
            block_on(cache.acquire(Some("src"), AcquireOptions::new(), T0)).expect("source");
            assert!(matches!(
                block_on(cache.fork("src", ForkOwner::Inherit, T0)),
                Err(SessionCacheError::MintedIdTaken { .. })
            ));
            match cache.store().stored("dup") {
                Some(Stored::Record(kept)) => assert_eq!(kept.messages, vec![user("m1", "theirs")]),
                other => panic!("the stored record was touched: {other:?}"),
            }
            block_on(cache.register("taken", Registration::Anonymous));
            let cache = SessionCache::new(
                DoubleStore::new(StoreDefect::None),
                |_: IdKind| s("taken"),
                config_for(EvictPolicy::Delete, 60_000),
            );
            block_on(cache.register("taken", Registration::Anonymous));
            assert!(matches!(
                block_on(cache.acquire(None, AcquireOptions::new(), T0)),
                Err(SessionCacheError::MintedIdTaken { .. })
            ));
            let empty = SessionCache::new(
                DoubleStore::new(StoreDefect::None),
                |_: IdKind| String::new(),
                config_for(EvictPolicy::Delete, 60_000),
            );
            assert!(matches!(block_on(empty.acquire(None, AcquireOptions::new(), T0)), Err(SessionCacheError::EmptyId)));
            assert!(empty.is_empty() && cache.is_empty());
        }

        fn store_refusals_and_failures_cache_nothing() {
            for (defect, refused) in [(StoreDefect::RefusesSave, true), (StoreDefect::FailsSave, false)] {
                let cache = double_cache(DoubleStore::new(defect), EvictPolicy::Delete);
                let error = acquire(&cache, Some("s1"), false).expect_err("not saved");
                if refused {
                    assert!(matches!(error, SessionCacheError::SaveRefused { reason: SaveRefusal::HasWriter, .. }), "{error}");
                } else {
                    assert!(matches!(error, SessionCacheError::Store(DoubleError("save"))), "{error}");
                    assert!(core::error::Error::source(&error).is_some());
                }
                assert!(cache.is_empty());
            }
        }

        fn an_ambiguous_transcript_is_a_reconcile_error() {
            let store = DoubleStore::new(StoreDefect::None);
            store.plant(
                "w1",
                Stored::Record(Box::new(record("w1", vec![calls("e1", &["c"]), calls("e2", &["c"])]))),
            );
            let cache = double_cache(store, EvictPolicy::Delete);
            let error = acquire(&cache, Some("w1"), false).expect_err("refused");
            assert!(matches!(error, SessionCacheError::Reconcile { ref id, .. } if id == "w1"), "{error}");
            assert!(cache.is_empty());
            assert_eq!(cache.store().saves.get(), 0, "nothing saved");
        }

        fn commit_refuses_what_it_cannot_save() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None), EvictPolicy::Delete);
            assert!(matches!(
                block_on(cache.commit("nope", T0)),
                Err(SessionCacheError::NotCached { .. })
            ));
            let acquired = acquire(&cache, Some("s1"), false).expect("created");
            // A commit polled from inside a mutable borrow of the record finds it busy.
            acquired.session.with_mut(|_held| {
                assert!(matches!(block_on(cache.commit("s1", T0)), Err(SessionCacheError::Busy { .. })));
            });
            acquired.session.with_mut(|record| record.id = s("other"));
            let error = block_on(cache.commit("s1", T0)).expect_err("id changed");
            assert!(matches!(error, SessionCacheError::IdChanged { ref record_id, .. } if record_id == "other"));
            assert!(cache.store().stored("other").is_none());
        }

        fn a_failed_delete_keeps_history_and_row() {
            let store = DoubleStore::new(StoreDefect::FailsDelete);
            let cache = double_cache(store, EvictPolicy::Delete);
            acquire(&cache, Some("s1"), false).expect("created");
            block_on(cache.register("s1", Registration::Principal(principal("alice"))));
            let error = block_on(cache.release("s1")).expect_err("delete fails");
            assert!(matches!(error, SessionCacheError::Store(DoubleError("delete"))));
            assert_eq!(block_on(cache.owner_of("s1")), OwnerRow::Owned(principal("alice")));
            assert!(cache.store().stored("s1").is_some());

            acquire(&cache, Some("s2"), false).expect("created");
            block_on(cache.register("s2", Registration::Anonymous));
            let report = block_on(cache.sweep(T0 + 60_001));
            assert_eq!(report.evicted, vec![s("s2")]);
            assert_eq!(report.delete_failures, vec![(s("s2"), DoubleError("delete"))]);
            assert_eq!(block_on(cache.owner_of("s2")), OwnerRow::Anonymous);
            assert!(cache.store().stored("s2").is_some());
        }

        fn a_refused_fork_takes_its_row_back_and_a_failed_one_keeps_it() {
            for (defect, row_kept) in [(StoreDefect::RefusesSave, false), (StoreDefect::FailsSave, true)] {
                let store = DoubleStore::new(defect);
                store.plant("src", Stored::Record(Box::new(record("src", vec![]))));
                let cache = SessionCache::new(store, |_: IdKind| s("fork-1"), config_for(EvictPolicy::Delete, 60_000));
                block_on(cache.register("src", Registration::Principal(principal("alice"))));
                let error = block_on(cache.fork("src", ForkOwner::Inherit, T0)).expect_err("not saved");
                assert!(matches!(error, SessionCacheError::SaveRefused { .. } | SessionCacheError::Store(_)));
                assert_eq!(block_on(cache.owner_of("fork-1")).exists(), row_kept, "{defect:?}");
                assert!(cache.is_empty());
            }
        }

        fn error_display_names_what_failed() {
            let texts = [
                format!("{}", SessionCacheError::<DoubleError>::EmptyId),
                format!("{}", SessionCacheError::<DoubleError>::MintedIdTaken { id: s("x1") }),
                format!("{}", SessionCacheError::<DoubleError>::NotCached { id: s("x2") }),
                format!("{}", SessionCacheError::<DoubleError>::Busy { id: s("x3") }),
                format!("{}", SessionCacheError::<DoubleError>::SaveRefused { id: s("x4"), reason: SaveRefusal::Unreadable }),
                format!("{}", SessionCacheError::Store(DoubleError("load"))),
            ];
            for (text, needle) in texts.iter().zip(["empty", "x1", "x2", "x3", "unreadable", "load"]) {
                assert!(text.contains(needle), "{text}");
            }
        }
    }

    mod rules {
        fn the_declarations_and_their_literals() {
            literal_round_trip!(EvictPolicy);
            literal_round_trip!(StoreDurability);
            literal_round_trip!(Retention);
            assert_eq!(EvictPolicy::LITERALS, &["delete", "forget"]);
            assert_eq!(StoreDurability::LITERALS, &["durable", "process-local"]);
            assert_eq!(Retention::LITERALS, &["none"]);
            assert_eq!(SESSION_CACHE_RETENTION, Retention::None);
            let local = SessionCacheConfig::for_process_local_store("/w");
            assert_eq!((local.evict, local.durability, local.ttl_ms), (EvictPolicy::Delete, Some(StoreDurability::ProcessLocal), 7 * 86_400_000));
            let custom = SessionCacheConfig::for_custom_store("/w", None);
            assert_eq!((custom.evict, custom.durability), (EvictPolicy::Forget, None));
            assert_eq!(StoreDurability::read(custom.durability), StoreDurability::ProcessLocal);
            assert_eq!(StoreDurability::read(Some(StoreDurability::Durable)), StoreDurability::Durable);
            let durable = SessionCacheConfig::for_custom_store("/w", Some(StoreDurability::Durable));
            let cache = SessionCache::new(DoubleStore::new(StoreDefect::None), counter_ids(), durable);
            assert_eq!((cache.evict_policy(), cache.durability(), cache.retention()), (EvictPolicy::Forget, Some(StoreDurability::Durable), Retention::None));
            assert_eq!(SESSION_DEFAULT_TTL_DAYS, 7);
        }

        fn the_summary_wire_form() {
            let full: SessionStoreSummary = golden(
                "summary",
                r#"{"sessionId":"s1","createdAt":"2026-05-01T00:00:00.000Z","lastActiveAt":1777593600000,"lastTaskId":"task-9","forkedFrom":"s0"}"#,
            );
            assert_eq!(full.last_task_id.as_deref(), Some("task-9"));
            let bare = SessionStoreSummary::new("s2", 5);
            let built = SessionStoreSummary::new("s1", 1_777_593_600_000)
                .with_created_at("2026-05-01T00:00:00.000Z")
                .with_last_task_id("task-9")
                .with_forked_from("s0");
            assert_eq!(built, full);
            assert_eq!(to_json(&bare), serde_json::json!({"sessionId": "s2", "lastActiveAt": 5}));
            let rows: Vec<OwnerRow> = golden(
                "rows",
                r#"[{"state":"no-row"},{"state":"anonymous"},{"state":"owned","principal":"alice"}]"#,
            );
            assert_eq!(rows, vec![OwnerRow::NoRow, OwnerRow::Anonymous, OwnerRow::Owned(principal("alice"))]);
        }

        fn a_blank_principal_is_refused_where_it_is_made_and_decoded() {
            for blank in ["", " ", "\t\n"] {
                assert_eq!(Principal::new(blank), Err(BlankPrincipal), "{blank:?}");
                let row = serde_json::json!({"state": "owned", "principal": blank});
                assert!(serde_json::from_value::<OwnerRow>(row).is_err(), "{blank:?}");
                let registration = serde_json::json!({"kind": "principal", "principal": blank});
                assert!(serde_json::from_value::<Registration>(registration).is_err(), "{blank:?}");
            }
            // A name is kept as given, not trimmed.
            assert_eq!(principal(" alice ").as_str(), " alice ");
            assert_eq!(format!("{BlankPrincipal}"), "a principal is never empty or only whitespace");
        }

        fn a_created_session_is_saved_with_the_configured_cwd_and_now() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None), EvictPolicy::Delete);
            let created = acquire(&cache, Some("s1"), false).expect("created");
            assert_eq!(created.how, Acquisition::Created);
            let record = created.session.with(InteractiveSessionRecord::clone);
            assert_eq!((record.cwd.as_str(), record.created_at.as_str(), record.updated_at.as_str()), ("/work/project", "2026-05-01T00:00:00.000Z", "2026-05-01T00:00:00.000Z"));
            assert!(matches!(cache.store().stored("s1"), Some(Stored::Record(stored)) if *stored == record));
            assert!(block_on(cache.owner_of("s1")) == OwnerRow::NoRow, "acquire writes no row");
        }

        fn reconcile_on_wake_is_saved_back_with_minted_entry_ids() {
            let store = DoubleStore::new(StoreDefect::None);
            store.plant("w1", Stored::Record(Box::new(record("w1", vec![user("e1", "go"), calls("e2", &["a", "b"])]))));
            let cache = double_cache(store, EvictPolicy::Forget);
            let woken = block_on(cache.acquire(
                Some("w1"),
                AcquireOptions::new().with_reconcile(ReconcileInputs::new().with_started_tool_call_ids(&["a"])),
                T0,
            ))
            .expect("woken");
            let Acquisition::Resumed { recovered, result_orphans } = &woken.how else { panic!("{:?}", woken.how) };
            let closed: Vec<(&str, &str)> = recovered.recovered.iter().map(|o| (o.tool_call_id.as_str(), o.entry_id.as_str())).collect();
            assert_eq!(closed, vec![("a", "entry-1"), ("b", "entry-2")]);
            assert_eq!(recovered.recovered[1].error_kind, agent_interface::runtime::reconcile::ReconciledErrorKind::InterruptedNeverStarted);
            assert!(result_orphans.is_empty());
            let Some(Stored::Record(saved)) = cache.store().stored("w1") else { panic!("not saved") };
            assert_eq!(saved.messages.len(), 4);
            assert_eq!(saved.updated_at, "2026-05-01T00:00:00.000Z");
            woken.session.with(|live| assert_eq!(*saved, *live));
        }

        fn touch_never_moves_a_timer_backwards() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None), EvictPolicy::Delete);
            block_on(cache.acquire(Some("s1"), AcquireOptions::new(), T0 + 10)).expect("created");
            assert!(cache.touch("s1", T0));
            assert_eq!(cache.list()[0].last_active_at, T0 + 10);
            assert!(block_on(cache.sweep(T0 + 10 + 60_000)).evicted.is_empty());
            assert_eq!(block_on(cache.sweep(T0 + 11 + 60_000)).evicted, vec![s("s1")]);
        }

        fn release_under_delete_reaches_uncached_history() {
            let cache = double_cache(DoubleStore::new(StoreDefect::None), EvictPolicy::Delete);
            acquire(&cache, Some("s1"), false).expect("created");
            cache.pin("s1");
            assert!(cache.forget("s1") && cache.is_pinned("s1"));
            assert!(cache.store().stored("s1").is_some(), "forget keeps history");
            let released = block_on(cache.release("s1")).expect("released");
            assert_eq!(released, Released { was_cached: false, history_deleted: true });
            assert!(cache.store().stored("s1").is_none());
        }

        fn fork_ownership_never_weakens() {
            let alice = || OwnerRow::Owned(principal("alice"));
            let bob = || ForkOwner::Principal(principal("bob"));
            let rows = [OwnerRow::NoRow, OwnerRow::Anonymous, alice()];
            let owners = [ForkOwner::Inherit, ForkOwner::Anonymous, bob()];
            let rank = |row: &OwnerRow| match row { OwnerRow::NoRow => 0, OwnerRow::Anonymous => 1, OwnerRow::Owned(_) => 2 };
            for source in &rows {
                for owner in &owners {
                    let fork = fork_ownership(source, owner).map_or(OwnerRow::NoRow, |r| OwnerRow::of(&r));
                    assert!(rank(&fork) >= rank(source), "{source:?} {owner:?} -> {fork:?}");
                    if let OwnerRow::Owned(p) = source {
                        assert_eq!(fork.principal(), Some(p), "an owned source keeps its owner");
                    }
                    if *owner != bob() && rank(source) < 2 {
                        assert_eq!(&fork, source, "inherit and anonymous inherit");
                    }
                }
            }
            assert_eq!(fork_ownership(&OwnerRow::NoRow, &bob()), Some(Registration::Principal(principal("bob"))));
            assert_eq!(ForkOwner::default(), ForkOwner::Inherit);
        }
    }

    mod tail {
        fn a_branch_never_compacted_is_whole() {
            let branch = [message("a"), message("b")];
            let tail = bounded_tail(&branch);
            assert_eq!((tail.tail.len(), tail.floor_entry_id), (2, None));
            let empty: [ToyEntry; 0] = [];
            assert_eq!(bounded_tail(&empty).tail.len(), 0);
        }

        fn the_latest_compaction_sets_the_floor() {
            let branch = [
                message("a"), message("b"), compaction("c1", "b"), message("d"),
                message("e"), compaction("c2", "d"), message("f"),
            ];
            let tail = bounded_tail(&branch);
            assert_eq!(tail.floor_entry_id, Some("d"));
            let ids: Vec<&str> = tail.tail.iter().map(TreeEntry::entry_id).collect();
            assert_eq!(ids, vec!["d", "e", "c2", "f"]);
            assert_eq!(build_context(tail.tail), build_context(&branch));
        }

        fn a_floor_off_the_branch_gives_the_whole_branch() {
            let branch = [message("a"), compaction("c1", "a"), message("b"), compaction("c2", "zz")];
            let tail = bounded_tail(&branch);
            assert_eq!((tail.tail.len(), tail.floor_entry_id), (4, None));
            let after = [message("a"), compaction("c1", "b"), message("b")];
            assert_eq!(bounded_tail(&after).floor_entry_id, None, "a floor after its compaction is not on the path");
            let itself = [message("a"), compaction("c1", "c1"), message("b")];
            assert_eq!(bounded_tail(&itself).tail.len(), 2);
            let refs: Vec<&ToyEntry> = branch.iter().collect();
            assert_eq!(bounded_tail(&refs).tail.len(), 4, "references are entries too");
        }

        fn seeded_tails_build_the_same_context() {
            for seed in 0..400u64 {
                let mut rng = Seeded::new(seed);
                let branch = random_branch(&mut rng);
                let result = bounded_tail(&branch);
                let offset = branch.len() - result.tail.len();
                assert_eq!(&branch[offset..], result.tail, "seed {seed}: the tail is a suffix");
                let latest = branch.iter().rev().find_map(TreeEntry::compaction_floor);
                match result.floor_entry_id {
                    Some(floor) => {
                        assert_eq!(Some(floor), latest, "seed {seed}: the latest compaction's floor");
                        assert_eq!(result.tail[0].entry_id(), floor, "seed {seed}: the tail starts at the floor");
                    }
                    None => assert_eq!(offset, 0, "seed {seed}: no floor, whole branch"),
                }
                assert_eq!(build_context(result.tail), build_context(&branch), "seed {seed}: same context");
            }
        }
    }
}

// ---- polling helpers ---------------------------------------------------------------------------

/// Runs a future whose store calls suspend (and wake at once) to completion, with no executor.
fn block_on_yielding<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..100_000 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
    panic!("a test future did not complete");
}

struct Three<A, B, C>(A, B, C);

impl<A, B, C> Three<A, B, C> {
    fn into_two(self) -> (A, B) {
        (self.0, self.1)
    }
}

impl<A, B, C> From<Three<A, B, C>> for (A, B, C) {
    fn from(three: Three<A, B, C>) -> Self {
        (three.0, three.1, three.2)
    }
}

/// Polls `future` unless its output is already in `slot`.
fn poll_into<F: Future + ?Sized>(
    slot: &mut Option<F::Output>,
    future: core::pin::Pin<&mut F>,
    cx: &mut Context<'_>,
) {
    if slot.is_none()
        && let Poll::Ready(value) = future.poll(cx)
    {
        *slot = Some(value);
    }
}

/// Polls three futures in turn until all are done.
async fn join3<A: Future, B: Future, C: Future>(
    a: A,
    b: B,
    c: C,
) -> Three<A::Output, B::Output, C::Output> {
    let (mut a, mut b, mut c) = (Box::pin(a), Box::pin(b), Box::pin(c));
    let (mut ra, mut rb, mut rc) = (None, None, None);
    core::future::poll_fn(|cx| {
        poll_into(&mut ra, a.as_mut(), cx);
        poll_into(&mut rb, b.as_mut(), cx);
        poll_into(&mut rc, c.as_mut(), cx);
        if ra.is_some() && rb.is_some() && rc.is_some() {
            match (ra.take(), rb.take(), rc.take()) {
                (Some(a), Some(b), Some(c)) => Poll::Ready(Three(a, b, c)),
                _ => Poll::Pending,
            }
        } else {
            Poll::Pending
        }
    })
    .await
}

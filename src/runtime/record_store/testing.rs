//! The record store conformance suite (feature `testing`): the cases every medium and seal run
//! against the one [`RecordStore`], with no test harness assumed. A medium (a directory, a
//! database) or a seal that passes it keeps every rule of the store: the five load outcomes,
//! the purposes, one writer per record across processes, nothing unreadable overwritten, the
//! listing counts, and nothing lost under interleaved writers.
//!
//! It has the shape of every suite of the crate ([`crate::conformance`]):
//!
//! - **A fresh medium per case**, from the host's [`RecordStoreFixture`]. The suite builds the
//!   stores itself: writer `suite-a` and writer `suite-b` over the same medium stand for two
//!   processes over one directory, each with its own seal from the fixture.
//! - **Every case is mandatory** ([`RecordStoreCase::ALL`]); a store that never seals declares
//!   so ([`RecordStoreFixture::locked_seal`] is `None`) and the locked cases then check that
//!   nothing is ever reported locked: a declared absence, not a skip.
//! - **A typed failure** ([`RecordStoreConformanceFailure`]) names the case, the check within
//!   it, and what went wrong.
//! - [`run_record_store_case`] runs one case; [`run_record_store_conformance`] runs them all
//!   through a [`CaseHarness`].
//!
//! The suite plants raw bytes through the medium; plaintext plants (a future version, a
//! truncated envelope) are sealed with the fixture's seal first, so they are what a sealing
//! store's own writer would have left.

use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::fmt;

use crate::agent_core::ErrorValue;
use crate::conformance::{CaseHarness, SuiteCase, run_suite};
use crate::runtime::record_codec::encode_session_record;
use crate::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose,
    RecordDigest, SaveOutcome, SavePurpose, SaveRefusal, SessionLoadOutcome, SessionLoadStatus,
    SessionStoreListing,
};

use super::{
    MemoryMedium, Opened, OtherWriter, RecordId, RecordIdError, RecordMedium, RecordSeal,
    RecordStore, RecordStoreError, RecordWriter, SealError, Unsealed, WriterId, WriterMark,
};

/// The host's harness for one medium and seal: a fresh, empty medium per case, and the seals
/// the suite's stores use.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design.
pub trait RecordStoreFixture {
    /// The medium under test.
    type Medium: RecordMedium;
    /// The seal under test ([`Unsealed`] for a store that never seals).
    type Seal: RecordSeal;

    /// A fresh medium holding no record and no marker; called once per case (more than once by
    /// [`RecordStoreCase::InterleavedWriters`], one per seed).
    ///
    /// # Errors
    /// Why the fixture could not make one (the case fails with
    /// [`RecordStoreProblem::Fixture`]).
    async fn medium(&mut self) -> Result<Self::Medium, ErrorValue>;

    /// A seal for one store (the suite asks for one per store it builds). Seals of one fixture
    /// open each other's records: they stand for processes holding the same keys.
    fn seal(&mut self) -> Self::Seal;

    /// A seal whose keys are locked (or absent) in this process: it opens nothing the other
    /// seals sealed, and answers [`Opened::Locked`] for it. `None` for a store that never
    /// seals; the locked cases then check that nothing is ever reported locked.
    fn locked_seal(&mut self) -> Option<Self::Seal>;

    /// True when every valid outcome carries an owner (a sealing store); false when none does.
    fn attributes_owner(&self) -> bool;
}

/// The harness for a medium whose stores never seal: only a fresh medium per case.
///
/// Every such fixture is a [`RecordStoreFixture`] whose stores use [`Unsealed`], with no locked
/// seal and no owner attribution, so a medium's fixture (memory, files, a database) says only
/// how to make a fresh medium.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design.
pub trait UnsealedFixture {
    /// The medium under test.
    type UnsealedMedium: RecordMedium;

    /// A fresh medium holding no record and no marker (see [`RecordStoreFixture::medium`]).
    ///
    /// # Errors
    /// Why the fixture could not make one.
    async fn unsealed_medium(&mut self) -> Result<Self::UnsealedMedium, ErrorValue>;
}

impl<F: UnsealedFixture> RecordStoreFixture for F {
    type Medium = F::UnsealedMedium;
    type Seal = Unsealed;

    async fn medium(&mut self) -> Result<F::UnsealedMedium, ErrorValue> {
        self.unsealed_medium().await
    }

    fn seal(&mut self) -> Unsealed {
        Unsealed
    }

    fn locked_seal(&mut self) -> Option<Unsealed> {
        None
    }

    fn attributes_owner(&self) -> bool {
        false
    }
}

/// The memory store's fixture: a fresh [`MemoryMedium`] per case, never sealed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryRecordStoreFixture;

impl UnsealedFixture for MemoryRecordStoreFixture {
    type UnsealedMedium = MemoryMedium;

    async fn unsealed_medium(&mut self) -> Result<MemoryMedium, ErrorValue> {
        Ok(MemoryMedium::new())
    }
}

/// One case of the suite; all are mandatory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RecordStoreCase {
    /// A saved record loads `valid`, equal to what was saved (odd field values included: no
    /// field value but the id changes the outcome), with an owner exactly when the fixture
    /// attributes one.
    LoadValid,
    /// An id that holds nothing loads `missing`, for every purpose.
    LoadMissing,
    /// Truncated bytes, garbage, a record whose id differs from its key and a non-object all
    /// load `corrupt` with located issues; the cwd is read best-effort where the bytes hold it.
    LoadCorrupt,
    /// A future envelope version loads `unsupported` with that version and the cwd.
    LoadUnsupported,
    /// A record no key in the store's process opens loads `locked` with the seal's reason (for
    /// a store that never seals: nothing is ever reported locked).
    LoadLocked,
    /// A session the store holds is handed back `valid` after its keys lock, and reported
    /// `held-file-changed` once its bytes change under it (for a store that never seals:
    /// nothing is held, nothing is reported locked).
    HeldSession,
    /// Resume and write loads claim the id (the marker names the store), missing and valid
    /// outcomes keep the claim.
    ClaimingLoads,
    /// A probe claims nothing and leaves no marker.
    ProbeLeavesNothing,
    /// A claiming load marks the writer before it reads, and a refused claim reads nothing.
    ClaimBeforeRead,
    /// A run save claims the id and stores the record whole; the store's later run saves
    /// replace it.
    RunSaves,
    /// A hand-off save lends the id: the store refuses its own run saves and claiming loads,
    /// `lend` moves the marker to the receiving writer, `reclaim` ends the lend only once that
    /// writer let go.
    HandOffAndLend,
    /// A second store refuses to load (claiming), save or delete an id the first holds:
    /// `has-writer` every time, nothing read or written.
    SecondWriterRefused,
    /// `release` drops the claim and the marker; another store can claim next.
    Release,
    /// A dead writer's marker is removed by `recover_writer` only while it names that writer.
    RecoverDeadWriter,
    /// Corrupt, unsupported and locked records are never overwritten by a save (`unreadable`,
    /// bytes compared before and after) and a load of them drops its claim.
    NeverOverwriteUnreadable,
    /// A listing shows valid, corrupt and unsupported records, counts locked ones under the
    /// count their reason belongs to, and claims nothing.
    Listing,
    /// `delete` removes a record and the store's claim, deleting nothing is fine, a corrupt
    /// record may be deleted, and another writer's record is not.
    Delete,
    /// Invalid ids are refused with their typed error before the medium is asked; the edge ids
    /// that are valid work.
    InvalidIds,
    /// Two stores claiming, saving and releasing several ids in seeded interleavings: every
    /// refusal is `has-writer` exactly when the other holds the id, and at the end every id
    /// holds exactly its last accepted save.
    InterleavedWriters,
}

impl RecordStoreCase {
    /// Every case, in run order.
    pub const ALL: [Self; 19] = [
        Self::LoadValid,
        Self::LoadMissing,
        Self::LoadCorrupt,
        Self::LoadUnsupported,
        Self::LoadLocked,
        Self::HeldSession,
        Self::ClaimingLoads,
        Self::ProbeLeavesNothing,
        Self::ClaimBeforeRead,
        Self::RunSaves,
        Self::HandOffAndLend,
        Self::SecondWriterRefused,
        Self::Release,
        Self::RecoverDeadWriter,
        Self::NeverOverwriteUnreadable,
        Self::Listing,
        Self::Delete,
        Self::InvalidIds,
        Self::InterleavedWriters,
    ];
}

impl SuiteCase for RecordStoreCase {
    const ALL: &'static [Self] = &Self::ALL;
}

/// What went wrong in a case.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordStoreProblem {
    /// The fixture could not make a medium.
    Fixture(ErrorValue),
    /// A call that must succeed failed (the store's or the medium's error, as text).
    Failed(ErrorValue),
    /// A load concluded otherwise than the contract requires.
    Load {
        /// What the contract requires, in words.
        expected: String,
        /// What the store answered (`Err` as text).
        received: Result<SessionLoadOutcome, String>,
    },
    /// A save answered otherwise than the contract requires.
    Save {
        /// What the contract requires.
        expected: SaveOutcome,
        /// What the store answered (`Err` as text).
        received: Result<SaveOutcome, String>,
    },
    /// A call that must be refused with an error answered otherwise.
    Refusal {
        /// The error the contract requires, in words.
        expected: String,
        /// What the store answered, in words.
        received: String,
    },
    /// The store names another writer than the contract requires.
    Writer {
        /// What the contract requires.
        expected: RecordWriter,
        /// What the store said.
        received: RecordWriter,
    },
    /// The marker beside a record names another writer than the contract requires.
    Marker {
        /// What the contract requires.
        expected: Option<WriterId>,
        /// What the medium holds.
        received: Option<WriterId>,
    },
    /// Stored bytes changed where nothing may be written.
    Bytes {
        /// The bytes before.
        before: Option<Vec<u8>>,
        /// The bytes after.
        after: Option<Vec<u8>>,
    },
    /// A listing differs from what the contract requires.
    Listing {
        /// What the contract requires, in words.
        expected: String,
        /// The listing.
        received: SessionStoreListing,
    },
    /// The medium was asked otherwise than the contract allows.
    MediumCalls {
        /// What the contract requires, in words.
        expected: &'static str,
        /// The calls the medium saw, in order.
        calls: Vec<MediumCall>,
    },
    /// An interleaving of two writers broke a rule (replay it with the seed).
    Interleaving {
        /// The seed of the interleaving.
        seed: u64,
        /// The step at which it broke (the final check is step `usize::MAX`).
        step: usize,
        /// What broke, in words.
        detail: String,
    },
}

impl fmt::Display for RecordStoreProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fixture(error) => write!(f, "the fixture failed: {error}"),
            Self::Failed(error) => write!(f, "a call failed: {error}"),
            Self::Load { expected, received } => match received {
                Ok(outcome) => write!(f, "expected the load {expected}, received ")
                    .and_then(|()| summarize(f, outcome)),
                Err(error) => write!(f, "expected the load {expected}, received Err({error})"),
            },
            Self::Save { expected, received } => {
                write!(f, "expected the save {expected:?}, received {received:?}")
            }
            Self::Refusal { expected, received } => {
                write!(f, "expected the refusal {expected}, received {received}")
            }
            Self::Writer { expected, received } => {
                write!(f, "expected the writer {expected:?}, received {received:?}")
            }
            Self::Marker { expected, received } => {
                write!(
                    f,
                    "expected the marker {expected:?}, the medium holds {received:?}"
                )
            }
            Self::Bytes { before, after } => write!(
                f,
                "stored bytes changed where nothing may be written ({} bytes before, {} after)",
                before.as_ref().map_or(0, Vec::len),
                after.as_ref().map_or(0, Vec::len)
            ),
            Self::Listing { expected, received } => {
                write!(f, "expected a listing {expected}, received")?;
                for entry in &received.entries {
                    write!(f, " {}:", entry.id)?;
                    summarize(f, &entry.outcome)?;
                }
                write!(
                    f,
                    " (locked {}, unopenable {})",
                    received.locked_count, received.unopenable_count
                )
            }
            Self::MediumCalls { expected, calls } => {
                write!(
                    f,
                    "expected the medium calls {expected}, received {calls:?}"
                )
            }
            Self::Interleaving { seed, step, detail } => {
                write!(f, "interleaving seed {seed:#x}, step {step}: {detail}")
            }
        }
    }
}

/// A failed case: which, where in it, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("record store conformance {case:?}, {check}: {problem}")]
pub struct RecordStoreConformanceFailure {
    /// The case that failed.
    pub case: RecordStoreCase,
    /// The check within the case, in words.
    pub check: &'static str,
    /// Why (boxed: a problem may carry whole records).
    pub problem: Box<RecordStoreProblem>,
}

/// Runs every case in [`RecordStoreCase::ALL`] order through `harness`, each on a fresh medium
/// ([`crate::conformance::StopAtFirst`] ends at the first failure;
/// [`crate::conformance::EveryCase`] keeps one result per case).
///
/// # Errors
/// The failure the harness ended the run with.
pub async fn run_record_store_conformance<F: RecordStoreFixture>(
    fixture: &mut F,
    harness: &mut impl CaseHarness<RecordStoreCase, RecordStoreConformanceFailure>,
) -> Result<(), RecordStoreConformanceFailure> {
    run_suite(harness, async |case| {
        run_record_store_case(fixture, case).await
    })
    .await
}

/// Runs one case on a fresh medium.
///
/// # Errors
/// Why the case failed.
pub async fn run_record_store_case<F: RecordStoreFixture>(
    fixture: &mut F,
    case: RecordStoreCase,
) -> Result<(), RecordStoreConformanceFailure> {
    let outcome = match case {
        RecordStoreCase::InterleavedWriters => interleaved_writers(fixture).await,
        _ => match fixture.medium().await {
            Err(error) => Err((
                "creating a fresh medium",
                RecordStoreProblem::Fixture(error),
            )),
            Ok(medium) => {
                let recording = Recording::new(&medium);
                let mut run = Run {
                    fixture,
                    medium: &medium,
                    recording: &recording,
                };
                run.case(case).await
            }
        },
    };
    outcome.map_err(|(check, problem)| RecordStoreConformanceFailure {
        case,
        check,
        problem: Box::new(problem),
    })
}

type Checked<T = ()> = Result<T, (&'static str, RecordStoreProblem)>;

/// One call the suite's recording medium saw (for the claim-before-read and invalid-id cases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MediumCall {
    /// [`RecordMedium::read`].
    Read,
    /// [`RecordMedium::write`].
    Write,
    /// [`RecordMedium::remove`].
    Remove,
    /// [`RecordMedium::ids`].
    Ids,
    /// [`RecordMedium::mark_writer`].
    MarkWriter,
    /// [`RecordMedium::writer`].
    Writer,
    /// [`RecordMedium::unmark_writer`].
    UnmarkWriter,
    /// [`RecordMedium::transfer_writer`].
    TransferWriter,
}

/// A medium that logs every call before passing it on.
struct Recording<'m, M> {
    inner: &'m M,
    calls: RefCell<Vec<MediumCall>>,
}

impl<'m, M: RecordMedium> Recording<'m, M> {
    const fn new(inner: &'m M) -> Self {
        Self {
            inner,
            calls: RefCell::new(Vec::new()),
        }
    }

    fn log(&self, call: MediumCall) {
        self.calls.borrow_mut().push(call);
    }

    fn take(&self) -> Vec<MediumCall> {
        core::mem::take(&mut *self.calls.borrow_mut())
    }
}

impl<M: RecordMedium> RecordMedium for Recording<'_, M> {
    type Error = M::Error;

    async fn read(&self, id: &RecordId) -> Result<Option<Vec<u8>>, Self::Error> {
        self.log(MediumCall::Read);
        self.inner.read(id).await
    }

    async fn write(&self, id: &RecordId, bytes: &[u8]) -> Result<(), Self::Error> {
        self.log(MediumCall::Write);
        self.inner.write(id, bytes).await
    }

    async fn remove(&self, id: &RecordId) -> Result<(), Self::Error> {
        self.log(MediumCall::Remove);
        self.inner.remove(id).await
    }

    async fn ids(&self) -> Result<Vec<RecordId>, Self::Error> {
        self.log(MediumCall::Ids);
        self.inner.ids().await
    }

    async fn mark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<WriterMark, Self::Error> {
        self.log(MediumCall::MarkWriter);
        self.inner.mark_writer(id, writer).await
    }

    async fn writer(&self, id: &RecordId) -> Result<Option<WriterId>, Self::Error> {
        self.log(MediumCall::Writer);
        self.inner.writer(id).await
    }

    async fn unmark_writer(&self, id: &RecordId, writer: &WriterId) -> Result<bool, Self::Error> {
        self.log(MediumCall::UnmarkWriter);
        self.inner.unmark_writer(id, writer).await
    }

    async fn transfer_writer(
        &self,
        id: &RecordId,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, Self::Error> {
        self.log(MediumCall::TransferWriter);
        self.inner.transfer_writer(id, from, to).await
    }
}

/// A seal whose keys the suite locks and unlocks: the fixture's seal while unlocked, its
/// locked seal while locked (digests are the unlocked seal's: they depend on bytes, not keys).
///
/// Every store the suite builds has this seal (without a locked seal for most), so the suite
/// instantiates the store for one seal type only: the firmware image stays small.
struct Lockable<S> {
    open: S,
    locked: Option<S>,
    is_locked: Cell<bool>,
}

impl<S: RecordSeal> Lockable<S> {
    const fn new(open: S, locked: Option<S>, is_locked: bool) -> Self {
        Self {
            open,
            locked,
            is_locked: Cell::new(is_locked),
        }
    }

    fn current(&self) -> &S {
        match &self.locked {
            Some(locked) if self.is_locked.get() => locked,
            _ => &self.open,
        }
    }
}

impl<S: RecordSeal> RecordSeal for Lockable<S> {
    fn open<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a> {
        self.current().open(id, stored)
    }

    fn seal<'a>(
        &self,
        id: &str,
        plaintext: &'a [u8],
        provenance: ContentProvenance,
    ) -> Result<alloc::borrow::Cow<'a, [u8]>, SealError> {
        self.current().seal(id, plaintext, provenance)
    }

    fn digest(&self, stored: &[u8]) -> Option<RecordDigest> {
        self.open.digest(stored)
    }
}

const CWD: &str = "/work/suite";

/// A record for `id`, told apart from others of the id by `n`.
fn record(id: &str, n: u64) -> InteractiveSessionRecord {
    let mut record = InteractiveSessionRecord::new(
        id,
        CWD,
        "2025-01-01T00:00:00.000Z",
        format!("2025-01-01T00:00:{:02}.000Z", n % 60),
    );
    record.name = Some(format!("suite record {n}"));
    record
}

fn writer(name: &'static str) -> Checked<WriterId> {
    WriterId::new(name).map_err(|error| ("making a writer id", failed(&error)))
}

fn record_id(id: &str) -> Checked<RecordId> {
    RecordId::new(id).map_err(|error| ("making a record id", failed(&error)))
}

fn failed(error: &impl fmt::Display) -> RecordStoreProblem {
    RecordStoreProblem::Failed(ErrorValue::new(ErrorValue::GENERIC_NAME, error.to_string()))
}

/// A value shown in a failure message, in short.
trait Brief {
    fn brief(&self) -> String;
}

impl Brief for SessionLoadOutcome {
    fn brief(&self) -> String {
        format!("{}", Summary(self))
    }
}

impl Brief for SaveOutcome {
    fn brief(&self) -> String {
        format!("{self:?}")
    }
}

impl Brief for RecordWriter {
    fn brief(&self) -> String {
        format!("{self:?}")
    }
}

impl Brief for bool {
    fn brief(&self) -> String {
        format!("{self}")
    }
}

impl Brief for () {
    fn brief(&self) -> String {
        String::from("()")
    }
}

fn show<T: Brief, E: fmt::Display>(result: &Result<T, E>) -> String {
    match result {
        Ok(value) => format!("Ok({})", value.brief()),
        Err(error) => format!("Err({error})"),
    }
}

fn same_record(outcome: &SessionLoadOutcome, expected: &InteractiveSessionRecord) -> bool {
    outcome.record() == Some(expected)
}

/// Writes a load outcome in short (status, and the record's id and `updatedAt` when valid),
/// without the record's whole `Debug` form (which would link the `Debug` code of every member
/// type into a firmware image).
fn summarize(f: &mut fmt::Formatter<'_>, outcome: &SessionLoadOutcome) -> fmt::Result {
    match outcome {
        SessionLoadOutcome::Valid { record, owner } => write!(
            f,
            "valid({}, updatedAt {}, owner {})",
            record.id,
            record.updated_at,
            owner.map_or("none", |o| o.as_str())
        ),
        SessionLoadOutcome::Locked { reason } => write!(f, "locked({reason})"),
        other => write!(
            f,
            "{}({} issues, cwd {})",
            other.status(),
            other.issues().len(),
            other.cwd().unwrap_or("none")
        ),
    }
}

/// A load outcome shown by [`summarize`].
struct Summary<'a>(&'a SessionLoadOutcome);

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        summarize(f, self.0)
    }
}

/// Judges one load's answer (kept out of the generic code: one copy whatever the fixture).
fn judge_load(
    check: &'static str,
    expected: &str,
    received: Result<SessionLoadOutcome, String>,
    ok: &dyn Fn(&SessionLoadOutcome) -> bool,
) -> Checked<SessionLoadOutcome> {
    match received {
        Ok(outcome) if ok(&outcome) => Ok(outcome),
        received => Err((
            check,
            RecordStoreProblem::Load {
                expected: expected.to_owned(),
                received,
            },
        )),
    }
}

/// True for `Err(InvalidId(expected))`.
fn is_invalid<T, E>(result: &Result<T, RecordStoreError<E>>, expected: RecordIdError) -> bool {
    matches!(result, Err(RecordStoreError::InvalidId(error)) if *error == expected)
}

/// Expects `Err(HasWriter(_))`.
fn expect_has_writer<T: Brief, E: fmt::Display>(
    check: &'static str,
    result: &Result<T, RecordStoreError<E>>,
) -> Checked {
    match result {
        Err(RecordStoreError::HasWriter(_)) => Ok(()),
        other => Err((
            check,
            RecordStoreProblem::Refusal {
                expected: "has-writer (RecordStoreError::HasWriter)".into(),
                received: show(other),
            },
        )),
    }
}

struct Run<'f, 'm, 'r, F: RecordStoreFixture> {
    fixture: &'f mut F,
    medium: &'m F::Medium,
    /// Every store of a case sits on this one recording view of the medium.
    recording: &'r Recording<'m, F::Medium>,
}

/// The one store type the suite builds (one instantiation of the store per fixture).
type Store<'r, 'm, M, S> = RecordStore<&'r Recording<'m, M>, Lockable<S>>;

impl<'m, 'r, F: RecordStoreFixture> Run<'_, 'm, 'r, F> {
    /// A store with the fixture's seal, writing as `name`.
    fn store(&mut self, name: &'static str) -> Checked<Store<'r, 'm, F::Medium, F::Seal>> {
        Ok(RecordStore::new(
            self.recording,
            Lockable::new(self.fixture.seal(), None, false),
            writer(name)?,
        ))
    }

    /// A store whose keys are locked (`locked` is the fixture's locked seal), writing as `name`.
    fn locked_store(
        &mut self,
        name: &'static str,
        locked: F::Seal,
    ) -> Checked<Store<'r, 'm, F::Medium, F::Seal>> {
        Ok(RecordStore::new(
            self.recording,
            Lockable::new(self.fixture.seal(), Some(locked), true),
            writer(name)?,
        ))
    }

    async fn case(&mut self, case: RecordStoreCase) -> Checked {
        match case {
            RecordStoreCase::LoadValid => self.load_valid().await,
            RecordStoreCase::LoadMissing => self.load_missing().await,
            RecordStoreCase::LoadCorrupt => self.load_corrupt().await,
            RecordStoreCase::LoadUnsupported => self.load_unsupported().await,
            RecordStoreCase::LoadLocked => self.load_locked().await,
            RecordStoreCase::HeldSession => self.held_session().await,
            RecordStoreCase::ClaimingLoads => self.claiming_loads().await,
            RecordStoreCase::ProbeLeavesNothing => self.probe_leaves_nothing().await,
            RecordStoreCase::ClaimBeforeRead => self.claim_before_read().await,
            RecordStoreCase::RunSaves => self.run_saves().await,
            RecordStoreCase::HandOffAndLend => self.hand_off_and_lend().await,
            RecordStoreCase::SecondWriterRefused => self.second_writer_refused().await,
            RecordStoreCase::Release => self.release().await,
            RecordStoreCase::RecoverDeadWriter => self.recover_dead_writer().await,
            RecordStoreCase::NeverOverwriteUnreadable => self.never_overwrite_unreadable().await,
            RecordStoreCase::Listing => self.listing().await,
            RecordStoreCase::Delete => self.delete().await,
            RecordStoreCase::InvalidIds => self.invalid_ids().await,
            // Run by `run_record_store_case` itself (it needs a medium per seed).
            RecordStoreCase::InterleavedWriters => Ok(()),
        }
    }

    // --- medium helpers --------------------------------------------------------------------

    async fn raw(&self, check: &'static str, id: &str) -> Checked<Option<Vec<u8>>> {
        let id = record_id(id)?;
        self.medium.read(&id).await.map_err(|e| (check, failed(&e)))
    }

    async fn plant_raw(&self, check: &'static str, id: &str, bytes: &[u8]) -> Checked {
        let id = record_id(id)?;
        self.medium
            .write(&id, bytes)
            .await
            .map_err(|e| (check, failed(&e)))
    }

    /// Plants `plaintext` sealed with a fresh seal of the fixture (what a writer of a sealing
    /// store leaves).
    async fn plant(&mut self, check: &'static str, id: &str, plaintext: &[u8]) -> Checked {
        let seal = self.fixture.seal();
        let sealed = seal
            .seal(id, plaintext, ContentProvenance::Session)
            .map_err(|e| (check, failed(&e)))?;
        self.plant_raw(check, id, &sealed).await
    }

    async fn plant_record(
        &mut self,
        check: &'static str,
        id: &str,
        record: &InteractiveSessionRecord,
    ) -> Checked {
        let plaintext = encode_session_record(record).map_err(|e| (check, failed(&e)))?;
        self.plant(check, id, &plaintext).await
    }

    async fn marker(&self, check: &'static str, id: &str) -> Checked<Option<WriterId>> {
        let id = record_id(id)?;
        self.medium
            .writer(&id)
            .await
            .map_err(|e| (check, failed(&e)))
    }

    async fn expect_marker(
        &self,
        check: &'static str,
        id: &str,
        expected: Option<&WriterId>,
    ) -> Checked {
        let received = self.marker(check, id).await?;
        if received.as_ref() == expected {
            Ok(())
        } else {
            Err((
                check,
                RecordStoreProblem::Marker {
                    expected: expected.cloned(),
                    received,
                },
            ))
        }
    }

    async fn expect_bytes(
        &self,
        check: &'static str,
        id: &str,
        before: &Option<Vec<u8>>,
    ) -> Checked {
        let after = self.raw(check, id).await?;
        if after == *before {
            Ok(())
        } else {
            Err((
                check,
                RecordStoreProblem::Bytes {
                    before: before.clone(),
                    after,
                },
            ))
        }
    }

    // --- store helpers ---------------------------------------------------------------------

    /// A load that must succeed and satisfy `ok`.
    async fn load_where(
        &self,
        check: &'static str,
        store: &Store<'r, 'm, F::Medium, F::Seal>,
        id: &str,
        purpose: LoadPurpose,
        expected: &str,
        ok: &dyn Fn(&SessionLoadOutcome) -> bool,
    ) -> Checked<SessionLoadOutcome> {
        let received = store.load(id, purpose).await.map_err(|e| e.to_string());
        judge_load(check, expected, received, ok)
    }

    /// A load that must be `valid` with exactly `expected`, attributed as the fixture says.
    async fn load_valid_as(
        &self,
        check: &'static str,
        store: &Store<'r, 'm, F::Medium, F::Seal>,
        purpose: LoadPurpose,
        expected: &InteractiveSessionRecord,
    ) -> Checked<SessionLoadOutcome> {
        let attributes = self.fixture.attributes_owner();
        self.load_where(
            check,
            store,
            &expected.id,
            purpose,
            if attributes {
                "valid with the saved record and an owner"
            } else {
                "valid with the saved record and no owner"
            },
            &|outcome| same_record(outcome, expected) && outcome.owner().is_some() == attributes,
        )
        .await
    }

    async fn save_as(
        &self,
        check: &'static str,
        store: &Store<'r, 'm, F::Medium, F::Seal>,
        record: &InteractiveSessionRecord,
        purpose: SavePurpose,
        expected: SaveOutcome,
    ) -> Checked {
        match store
            .save(record, purpose, ContentProvenance::Session)
            .await
        {
            Ok(outcome) if outcome == expected => Ok(()),
            received => Err((
                check,
                RecordStoreProblem::Save {
                    expected,
                    received: received.map_err(|e| e.to_string()),
                },
            )),
        }
    }

    async fn expect_writer(
        &self,
        check: &'static str,
        store: &Store<'r, 'm, F::Medium, F::Seal>,
        id: &str,
        expected: RecordWriter,
    ) -> Checked {
        let received = store
            .writer_of(&record_id(id)?)
            .await
            .map_err(|e| (check, failed(&e)))?;
        if received == expected {
            Ok(())
        } else {
            Err((check, RecordStoreProblem::Writer { expected, received }))
        }
    }

    // --- cases -----------------------------------------------------------------------------

    async fn load_valid(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let plain = record("v1", 1);
        // Odd values everywhere but the id: none of them may change the outcome.
        let mut odd = InteractiveSessionRecord::new("v2", "", "not a date", "");
        odd.name = Some("\u{0}\u{1F600}\"\\".into());
        odd.sandbox_snapshot_id = Some(String::new());
        for (check, record) in [
            ("a plain record", &plain),
            ("a record with odd values", &odd),
        ] {
            let saved = SaveOutcome::Saved;
            self.save_as(check, &a, record, SavePurpose::Run, saved)
                .await?;
            self.load_valid_as(check, &a, LoadPurpose::Probe, record)
                .await?;
            self.load_valid_as(check, &a, LoadPurpose::Resume, record)
                .await?;
        }
        // Another process with the same keys reads it too.
        let b = self.store("suite-b")?;
        self.load_valid_as("read by a second store", &b, LoadPurpose::Probe, &plain)
            .await?;
        Ok(())
    }

    async fn load_missing(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        for purpose in [LoadPurpose::Probe, LoadPurpose::Resume, LoadPurpose::Write] {
            self.load_where(
                "an id that holds nothing",
                &a,
                &format!("m-{purpose}"),
                purpose,
                "missing",
                &|outcome| *outcome == SessionLoadOutcome::Missing,
            )
            .await?;
        }
        Ok(())
    }

    async fn load_corrupt(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let full = encode_session_record(&record("c1", 1)).map_err(|e| ("encoding", failed(&e)))?;
        let truncated = full.get(..full.len().saturating_sub(7)).unwrap_or_default();
        self.plant("planting truncated bytes", "c1", truncated)
            .await?;
        self.plant(
            "planting garbage",
            "c2",
            &[0xff, 0x00, 0x9c, b'{', 0x13, 0x80],
        )
        .await?;
        let other = encode_session_record(&record("someone-else", 1))
            .map_err(|e| ("encoding", failed(&e)))?;
        self.plant("planting a record under another id", "c3", &other)
            .await?;
        self.plant("planting a non-object", "c4", b"[1,2,3]")
            .await?;
        let cases: [(&'static str, &str, Option<&str>); 4] = [
            ("truncated bytes load corrupt with the cwd", "c1", Some(CWD)),
            ("garbage loads corrupt without a cwd", "c2", None),
            (
                "a record under another id loads corrupt with the cwd",
                "c3",
                Some(CWD),
            ),
            ("a non-object loads corrupt without a cwd", "c4", None),
        ];
        for (check, id, cwd) in cases {
            for purpose in [LoadPurpose::Probe, LoadPurpose::Resume] {
                self.load_where(
                    check,
                    &a,
                    id,
                    purpose,
                    "corrupt with located issues and the best-effort cwd",
                    &|outcome| {
                        outcome.status() == SessionLoadStatus::Corrupt
                            && !outcome.issues().is_empty()
                            && outcome.cwd() == cwd
                    },
                )
                .await?;
            }
        }
        Ok(())
    }

    async fn load_unsupported(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let future =
            br#"{"schemaVersion":99,"record":{"id":"u1","cwd":"/work/future","shape":"new"}}"#;
        self.plant("planting a future version", "u1", future)
            .await?;
        for purpose in [LoadPurpose::Probe, LoadPurpose::Write] {
            self.load_where(
                "a future version",
                &a,
                "u1",
                purpose,
                "unsupported, schemaVersion 99, cwd /work/future",
                &|outcome| {
                    *outcome
                        == SessionLoadOutcome::Unsupported {
                            schema_version: Some(99),
                            cwd: Some("/work/future".into()),
                        }
                },
            )
            .await?;
        }
        Ok(())
    }

    async fn load_locked(&mut self) -> Checked {
        let r = record("l1", 1);
        self.plant_record("planting a sealed record", "l1", &r)
            .await?;
        let Some(locked) = self.fixture.locked_seal() else {
            // A store that never seals: nothing is ever reported locked.
            let a = self.store("suite-a")?;
            self.load_valid_as("a store that never seals", &a, LoadPurpose::Resume, &r)
                .await?;
            return Ok(());
        };
        let l = self.locked_store("suite-a", locked)?;
        for purpose in [LoadPurpose::Probe, LoadPurpose::Resume, LoadPurpose::Write] {
            self.load_where(
                "a record no key here opens",
                &l,
                "l1",
                purpose,
                "locked",
                &|outcome| outcome.status() == SessionLoadStatus::Locked,
            )
            .await?;
            self.expect_marker("a locked load keeps no claim", "l1", None)
                .await?;
        }
        // The keys elsewhere still open it: it was locked, not damaged.
        let b = self.store("suite-b")?;
        self.load_valid_as("a store with keys reads it", &b, LoadPurpose::Probe, &r)
            .await?;
        Ok(())
    }

    async fn held_session(&mut self) -> Checked {
        let r1 = record("h1", 1);
        let Some(locked) = self.fixture.locked_seal() else {
            let a = self.store("suite-a")?;
            self.save_as("a run save", &a, &r1, SavePurpose::Run, SaveOutcome::Saved)
                .await?;
            self.load_valid_as("a store that never seals", &a, LoadPurpose::Resume, &r1)
                .await?;
            return Ok(());
        };
        let a = self.locked_store("suite-a", locked)?;
        a.seal().is_locked.set(false);
        self.save_as("a run save", &a, &r1, SavePurpose::Run, SaveOutcome::Saved)
            .await?;
        a.seal().is_locked.set(true);
        for purpose in [LoadPurpose::Probe, LoadPurpose::Resume] {
            self.load_where(
                "the held session after its keys locked",
                &a,
                "h1",
                purpose,
                "valid with the held record (handed back)",
                &|outcome| same_record(outcome, &r1),
            )
            .await?;
        }
        // The bytes change under the holder (a misbehaving process writes past the marker).
        let r2 = record("h1", 2);
        self.plant_record("changing the held bytes", "h1", &r2)
            .await?;
        let changed = self.raw("reading the changed bytes", "h1").await?;
        self.load_where(
            "the held session whose bytes changed",
            &a,
            "h1",
            LoadPurpose::Probe,
            "locked, held-file-changed",
            &|outcome| {
                *outcome
                    == SessionLoadOutcome::Locked {
                        reason: crate::session::records::LockedReason::HeldFileChanged,
                    }
            },
        )
        .await?;
        match a
            .save(&r1, SavePurpose::Run, ContentProvenance::Session)
            .await
        {
            Ok(SaveOutcome::Refused {
                reason: SaveRefusal::Unreadable,
            })
            | Err(RecordStoreError::Seal(_)) => {}
            received => {
                return Err((
                    "a run save over held bytes that changed",
                    RecordStoreProblem::Save {
                        expected: SaveOutcome::Refused {
                            reason: SaveRefusal::Unreadable,
                        },
                        received: received.map_err(|e| e.to_string()),
                    },
                ));
            }
        }
        self.expect_bytes("the changed bytes stay", "h1", &changed)
            .await?;
        // Unlocked again, the store reads what is there now.
        a.seal().is_locked.set(false);
        self.load_where(
            "after an unlock",
            &a,
            "h1",
            LoadPurpose::Probe,
            "valid with the bytes stored now",
            &|outcome| same_record(outcome, &r2),
        )
        .await?;
        Ok(())
    }

    async fn claiming_loads(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let b = self.store("suite-b")?;
        let a_id = writer("suite-a")?;
        for (id, purpose) in [
            ("k-resume", LoadPurpose::Resume),
            ("k-write", LoadPurpose::Write),
        ] {
            let r = record(id, 1);
            self.plant_record("planting a record", id, &r).await?;
            self.load_valid_as("a claiming load", &a, purpose, &r)
                .await?;
            self.expect_marker("a valid claiming load marks the store", id, Some(&a_id))
                .await?;
            self.expect_writer("the claimer", &a, id, RecordWriter::ThisStore)
                .await?;
            self.expect_writer(
                "the other store",
                &b,
                id,
                RecordWriter::Other(OtherWriter::Marked(a_id.clone())),
            )
            .await?;
            self.load_valid_as("the claimer loads again", &a, purpose, &r)
                .await?;
        }
        self.load_where(
            "a claiming load of nothing",
            &a,
            "k-missing",
            LoadPurpose::Resume,
            "missing",
            &|outcome| *outcome == SessionLoadOutcome::Missing,
        )
        .await?;
        self.expect_marker(
            "a missing claiming load keeps the claim",
            "k-missing",
            Some(&a_id),
        )
        .await?;
        Ok(())
    }

    async fn probe_leaves_nothing(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let b = self.store("suite-b")?;
        let r = record("p1", 1);
        self.plant_record("planting a record", "p1", &r).await?;
        self.load_valid_as("a probe", &a, LoadPurpose::Probe, &r)
            .await?;
        self.load_where(
            "a probe of nothing",
            &a,
            "p2",
            LoadPurpose::Probe,
            "missing",
            &|outcome| *outcome == SessionLoadOutcome::Missing,
        )
        .await?;
        for id in ["p1", "p2"] {
            self.expect_marker("a probe leaves no marker", id, None)
                .await?;
            self.expect_writer("a probe claims nothing", &a, id, RecordWriter::Nobody)
                .await?;
        }
        self.load_valid_as(
            "another store claims after a probe",
            &b,
            LoadPurpose::Resume,
            &r,
        )
        .await?;
        Ok(())
    }

    async fn claim_before_read(&mut self) -> Checked {
        let recording = self.recording;
        let a = self.store("suite-a")?;
        let b = self.store("suite-b")?;
        let r = record("r1", 1);
        self.plant_record("planting a record", "r1", &r).await?;
        for purpose in [LoadPurpose::Resume, LoadPurpose::Write] {
            self.load_valid_as("a claiming load", &a, purpose, &r)
                .await?;
            let calls = recording.take();
            let marked = calls.iter().position(|c| *c == MediumCall::MarkWriter);
            let read = calls.iter().position(|c| *c == MediumCall::Read);
            if !matches!((marked, read), (Some(m), Some(r)) if m < r) {
                return Err((
                    "a claiming load",
                    RecordStoreProblem::MediumCalls {
                        expected: "mark_writer before read",
                        calls,
                    },
                ));
            }
            a.release(&record_id("r1")?)
                .await
                .map_err(|e| ("releasing", failed(&e)))?;
            recording.take();
        }
        self.load_valid_as("another store claims", &b, LoadPurpose::Write, &r)
            .await?;
        recording.take();
        let refused = a.load("r1", LoadPurpose::Resume).await;
        expect_has_writer("a claiming load of another writer's record", &refused)?;
        let calls = recording.take();
        if calls.contains(&MediumCall::Read) || calls.contains(&MediumCall::Write) {
            return Err((
                "a refused claim",
                RecordStoreProblem::MediumCalls {
                    expected: "no read and no write",
                    calls,
                },
            ));
        }
        self.load_valid_as("a probe", &a, LoadPurpose::Probe, &r)
            .await?;
        let calls = recording.take();
        if calls.iter().any(|c| {
            matches!(
                c,
                MediumCall::MarkWriter | MediumCall::UnmarkWriter | MediumCall::TransferWriter
            )
        }) {
            return Err((
                "a probe",
                RecordStoreProblem::MediumCalls {
                    expected: "no marker call",
                    calls,
                },
            ));
        }
        Ok(())
    }

    async fn run_saves(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let b = self.store("suite-b")?;
        let a_id = writer("suite-a")?;
        let r1 = record("s1", 1);
        let r2 = record("s1", 2);
        self.save_as(
            "a first run save",
            &a,
            &r1,
            SavePurpose::Run,
            SaveOutcome::Saved,
        )
        .await?;
        self.expect_marker("a run save claims", "s1", Some(&a_id))
            .await?;
        self.load_valid_as("another store reads it", &b, LoadPurpose::Probe, &r1)
            .await?;
        self.save_as(
            "a second run save",
            &a,
            &r2,
            SavePurpose::Run,
            SaveOutcome::Saved,
        )
        .await?;
        self.load_valid_as(
            "the second save replaced the first",
            &a,
            LoadPurpose::Write,
            &r2,
        )
        .await?;
        Ok(())
    }

    async fn hand_off_and_lend(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let b = self.store("suite-b")?;
        let b_id = writer("suite-b")?;
        let r1 = record("f1", 1);
        let r2 = record("f1", 2);
        let r3 = record("f1", 3);
        self.save_as(
            "a hand-off save",
            &a,
            &r1,
            SavePurpose::HandOff,
            SaveOutcome::Saved,
        )
        .await?;
        self.expect_writer(
            "a hand-off lends the id",
            &a,
            "f1",
            RecordWriter::Other(OtherWriter::Lent { to: None }),
        )
        .await?;
        let has_writer = SaveOutcome::Refused {
            reason: SaveRefusal::HasWriter,
        };
        self.save_as(
            "a run save of a lent id",
            &a,
            &r2,
            SavePurpose::Run,
            has_writer,
        )
        .await?;
        for purpose in [LoadPurpose::Resume, LoadPurpose::Write] {
            let refused = a.load("f1", purpose).await;
            expect_has_writer("a claiming load of a lent id", &refused)?;
        }
        self.load_valid_as("a probe of a lent id", &a, LoadPurpose::Probe, &r1)
            .await?;
        match a.lend(&record_id("nothing-here")?, &b_id).await {
            Err(RecordStoreError::NotHeld) => {}
            other => {
                return Err((
                    "lending an id the store does not hold",
                    RecordStoreProblem::Refusal {
                        expected: "not-held".into(),
                        received: show(&other),
                    },
                ));
            }
        }
        a.lend(&record_id("f1")?, &b_id)
            .await
            .map_err(|e| ("lending", failed(&e)))?;
        self.expect_marker("a lend moves the marker", "f1", Some(&b_id))
            .await?;
        self.expect_writer(
            "a lent id",
            &a,
            "f1",
            RecordWriter::Other(OtherWriter::Lent {
                to: Some(b_id.clone()),
            }),
        )
        .await?;
        self.load_valid_as("the receiving writer resumes", &b, LoadPurpose::Resume, &r1)
            .await?;
        self.save_as(
            "the receiving writer saves",
            &b,
            &r2,
            SavePurpose::Run,
            SaveOutcome::Saved,
        )
        .await?;
        let early = a.reclaim(&record_id("f1")?).await;
        expect_has_writer("a reclaim while the receiver holds it", &early)?;
        b.release(&record_id("f1")?)
            .await
            .map_err(|e| ("releasing", failed(&e)))?;
        match a.reclaim(&record_id("f1")?).await {
            Ok(true) => {}
            other => {
                return Err((
                    "a reclaim once the receiver let go",
                    RecordStoreProblem::Refusal {
                        expected: "Ok(true)".into(),
                        received: show(&other),
                    },
                ));
            }
        }
        self.expect_writer("a reclaimed id", &a, "f1", RecordWriter::ThisStore)
            .await?;
        self.load_valid_as(
            "the lender reads the receiver's save",
            &a,
            LoadPurpose::Write,
            &r2,
        )
        .await?;
        self.save_as(
            "the lender saves again",
            &a,
            &r3,
            SavePurpose::Run,
            SaveOutcome::Saved,
        )
        .await?;
        Ok(())
    }

    async fn second_writer_refused(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let b = self.store("suite-b")?;
        let r1 = record("w1", 1);
        self.save_as(
            "the first writer saves",
            &a,
            &r1,
            SavePurpose::Run,
            SaveOutcome::Saved,
        )
        .await?;
        let before = self.raw("reading the bytes", "w1").await?;
        for purpose in [LoadPurpose::Resume, LoadPurpose::Write] {
            let refused = b.load("w1", purpose).await;
            expect_has_writer("a second writer's claiming load", &refused)?;
        }
        let has_writer = SaveOutcome::Refused {
            reason: SaveRefusal::HasWriter,
        };
        for purpose in [SavePurpose::Run, SavePurpose::HandOff] {
            self.save_as(
                "a second writer's save",
                &b,
                &record("w1", 9),
                purpose,
                has_writer,
            )
            .await?;
        }
        let deleted = b.delete("w1").await;
        expect_has_writer("a second writer's delete", &deleted)?;
        self.expect_bytes(
            "nothing the second writer did changed the bytes",
            "w1",
            &before,
        )
        .await?;
        self.expect_marker(
            "the first writer keeps the marker",
            "w1",
            Some(a.writer_id()),
        )
        .await?;
        Ok(())
    }

    async fn release(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let b = self.store("suite-b")?;
        let r = record("e1", 1);
        self.save_as("a run save", &a, &r, SavePurpose::Run, SaveOutcome::Saved)
            .await?;
        a.release(&record_id("e1")?)
            .await
            .map_err(|e| ("releasing", failed(&e)))?;
        self.expect_marker("a release removes the marker", "e1", None)
            .await?;
        self.expect_writer("a released id", &a, "e1", RecordWriter::Nobody)
            .await?;
        a.release(&record_id("e2")?)
            .await
            .map_err(|e| ("releasing nothing", failed(&e)))?;
        self.load_valid_as("another store claims next", &b, LoadPurpose::Resume, &r)
            .await?;
        a.release(&record_id("e1")?)
            .await
            .map_err(|e| ("releasing again", failed(&e)))?;
        self.expect_marker(
            "a release leaves another writer's marker",
            "e1",
            Some(b.writer_id()),
        )
        .await?;
        Ok(())
    }

    async fn recover_dead_writer(&mut self) -> Checked {
        let b = self.store("suite-b")?;
        let a_id = writer("suite-a")?;
        let r = record("d1", 1);
        {
            let a = self.store("suite-a")?;
            self.save_as(
                "the writer that dies saves",
                &a,
                &r,
                SavePurpose::Run,
                SaveOutcome::Saved,
            )
            .await?;
            // `a`'s process dies: no destructor runs (a drop would release), its marker stays.
            core::mem::forget(a);
        }
        self.expect_marker("a dead writer's marker stays", "d1", Some(&a_id))
            .await?;
        let refused = b.load("d1", LoadPurpose::Resume).await;
        expect_has_writer("a claim over a dead writer's marker", &refused)?;
        let other = writer("suite-c")?;
        let recovered = b.recover_writer(&record_id("d1")?, &other).await;
        if !matches!(recovered, Ok(false)) {
            return Err((
                "recovering a writer the marker does not name",
                RecordStoreProblem::Refusal {
                    expected: "Ok(false)".into(),
                    received: show(&recovered),
                },
            ));
        }
        self.expect_marker("the marker stays", "d1", Some(&a_id))
            .await?;
        // The medium itself removes a marker only when it names the writer asked about.
        let check = "unmarking, on the medium, a writer the marker does not name";
        let unmarked = self
            .medium
            .unmark_writer(&record_id("d1")?, &other)
            .await
            .map_err(|e| (check, failed(&e)))?;
        if unmarked {
            return Err((
                check,
                RecordStoreProblem::Refusal {
                    expected: "false".into(),
                    received: "true".into(),
                },
            ));
        }
        self.expect_marker("the marker stays on the medium", "d1", Some(&a_id))
            .await?;
        let recovered = b.recover_writer(&record_id("d1")?, &a_id).await;
        if !matches!(recovered, Ok(true)) {
            return Err((
                "recovering the dead writer's marker",
                RecordStoreProblem::Refusal {
                    expected: "Ok(true)".into(),
                    received: show(&recovered),
                },
            ));
        }
        self.expect_marker("the marker is gone", "d1", None).await?;
        self.load_valid_as("the next writer claims", &b, LoadPurpose::Resume, &r)
            .await?;
        let again = b.recover_writer(&record_id("d1")?, &a_id).await;
        if !matches!(again, Ok(false)) {
            return Err((
                "recovering a marker that names a live writer now",
                RecordStoreProblem::Refusal {
                    expected: "Ok(false)".into(),
                    received: show(&again),
                },
            ));
        }
        self.expect_marker("the live writer's marker stays", "d1", Some(b.writer_id()))
            .await?;
        Ok(())
    }

    async fn never_overwrite_unreadable(&mut self) -> Checked {
        let full = encode_session_record(&record("n1", 1)).map_err(|e| ("encoding", failed(&e)))?;
        let truncated = full.get(..full.len() / 2).unwrap_or_default().to_vec();
        self.plant("planting a corrupt record", "n1", &truncated)
            .await?;
        let future = br#"{"schemaVersion":7,"record":{"id":"n2","cwd":"/w"}}"#;
        self.plant("planting a future version", "n2", future)
            .await?;
        let mut ids = vec!["n1", "n2"];
        let locked = self.fixture.locked_seal();
        if locked.is_some() {
            self.plant_record("planting a sealed record", "n3", &record("n3", 1))
                .await?;
            ids.push("n3");
        }
        let a = match locked {
            Some(seal) => self.locked_store("suite-a", seal)?,
            None => self.store("suite-a")?,
        };
        let unreadable = SaveOutcome::Refused {
            reason: SaveRefusal::Unreadable,
        };
        for id in ids {
            let before = self.raw("reading the bytes", id).await?;
            for purpose in [SavePurpose::Run, SavePurpose::HandOff] {
                self.save_as(
                    "a save over an unreadable record",
                    &a,
                    &record(id, 2),
                    purpose,
                    unreadable,
                )
                .await?;
                self.expect_bytes("a refused save writes nothing", id, &before)
                    .await?;
                self.expect_marker("a refused save keeps no claim", id, None)
                    .await?;
            }
            self.load_where(
                "a claiming load of an unreadable record",
                &a,
                id,
                LoadPurpose::Write,
                "not valid, not missing",
                &|outcome| !outcome.permits_overwrite(),
            )
            .await?;
            self.expect_marker("an unreadable load drops its claim", id, None)
                .await?;
            self.save_as(
                "a save after that load",
                &a,
                &record(id, 3),
                SavePurpose::Run,
                unreadable,
            )
            .await?;
            self.expect_bytes("still nothing written", id, &before)
                .await?;
        }
        Ok(())
    }

    async fn listing(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let v = record("t-valid", 1);
        self.save_as("a run save", &a, &v, SavePurpose::Run, SaveOutcome::Saved)
            .await?;
        a.release(&record_id("t-valid")?)
            .await
            .map_err(|e| ("releasing", failed(&e)))?;
        self.plant_raw("planting garbage", "t-corrupt", b"\x00not a record")
            .await?;
        let future = br#"{"schemaVersion":42,"record":{"id":"t-future","cwd":"/w"}}"#;
        self.plant("planting a future version", "t-future", future)
            .await?;
        let listing = a.list().await.map_err(|e| ("listing", failed(&e)))?;
        let statuses: Vec<(&str, SessionLoadStatus)> = listing
            .entries
            .iter()
            .map(|entry| (entry.id.as_str(), entry.outcome.status()))
            .collect();
        let expected = [
            ("t-corrupt", SessionLoadStatus::Corrupt),
            ("t-future", SessionLoadStatus::Unsupported),
            ("t-valid", SessionLoadStatus::Valid),
        ];
        if statuses != expected
            || listing.left_out() != 0
            || !listing
                .entry("t-valid")
                .is_some_and(|entry| same_record(&entry.outcome, &v))
        {
            return Err((
                "a listing by a store with keys",
                RecordStoreProblem::Listing {
                    expected: "t-corrupt corrupt, t-future unsupported, t-valid valid (the saved \
                               record), none left out"
                        .into(),
                    received: listing,
                },
            ));
        }
        for id in ["t-corrupt", "t-future", "t-valid"] {
            self.expect_marker("a listing claims nothing", id, None)
                .await?;
        }
        let Some(locked) = self.fixture.locked_seal() else {
            return Ok(());
        };
        let l = self.locked_store("suite-b", locked)?;
        let reason = match l.load("t-valid", LoadPurpose::Probe).await {
            Ok(SessionLoadOutcome::Locked { reason }) => reason,
            received => {
                return Err((
                    "a probe by a locked store",
                    RecordStoreProblem::Load {
                        expected: "locked".into(),
                        received: received.map_err(|e| e.to_string()),
                    },
                ));
            }
        };
        let listing = l.list().await.map_err(|e| ("listing", failed(&e)))?;
        let (locked_count, unopenable_count) = if reason.opens_after_unlock() {
            (2, 0)
        } else {
            (0, 2)
        };
        let listed: Vec<&str> = listing.entries.iter().map(|e| e.id.as_str()).collect();
        if listed != ["t-corrupt"]
            || listing.locked_count != locked_count
            || listing.unopenable_count != unopenable_count
        {
            return Err((
                "a listing by a locked store",
                RecordStoreProblem::Listing {
                    expected: format!(
                        "t-corrupt listed, the two sealed records counted as {reason} \
                         (locked {locked_count}, unopenable {unopenable_count})"
                    ),
                    received: listing,
                },
            ));
        }
        Ok(())
    }

    async fn delete(&mut self) -> Checked {
        let a = self.store("suite-a")?;
        let b = self.store("suite-b")?;
        let r = record("x1", 1);
        self.save_as("a run save", &a, &r, SavePurpose::Run, SaveOutcome::Saved)
            .await?;
        a.delete("x1").await.map_err(|e| ("deleting", failed(&e)))?;
        self.load_where(
            "after a delete",
            &a,
            "x1",
            LoadPurpose::Probe,
            "missing",
            &|o| *o == SessionLoadOutcome::Missing,
        )
        .await?;
        self.expect_marker("a delete drops the claim", "x1", None)
            .await?;
        a.delete("x1")
            .await
            .map_err(|e| ("deleting nothing", failed(&e)))?;
        self.plant_raw("planting garbage", "x2", b"garbage").await?;
        a.delete("x2")
            .await
            .map_err(|e| ("deleting a corrupt record", failed(&e)))?;
        self.expect_bytes("a corrupt record is deleted on request", "x2", &None)
            .await?;
        let r3 = record("x3", 1);
        self.save_as(
            "another writer saves",
            &b,
            &r3,
            SavePurpose::Run,
            SaveOutcome::Saved,
        )
        .await?;
        let before = self.raw("reading the bytes", "x3").await?;
        let refused = a.delete("x3").await;
        expect_has_writer("deleting another writer's record", &refused)?;
        self.expect_bytes("the other writer's record stays", "x3", &before)
            .await?;
        Ok(())
    }

    async fn invalid_ids(&mut self) -> Checked {
        let recording = self.recording;
        let a = self.store("suite-a")?;
        let long = "a".repeat(RecordId::MAX_LEN + 1);
        let cases: [(&str, RecordIdError); 8] = [
            ("", RecordIdError::Empty),
            (".hidden", RecordIdError::LeadingDot),
            ("..", RecordIdError::LeadingDot),
            ("a..b", RecordIdError::DotDot),
            (
                "a/b",
                RecordIdError::ForbiddenByte {
                    index: 1,
                    byte: b'/',
                },
            ),
            (
                "a b",
                RecordIdError::ForbiddenByte {
                    index: 1,
                    byte: b' ',
                },
            ),
            (
                "caf\u{e9}",
                RecordIdError::ForbiddenByte {
                    index: 3,
                    byte: 0xc3,
                },
            ),
            (
                &long,
                RecordIdError::TooLong {
                    len: RecordId::MAX_LEN + 1,
                },
            ),
        ];
        for (id, error) in cases {
            let expected = RecordStoreError::<core::convert::Infallible>::InvalidId(error);
            let mut results: Vec<(&'static str, String)> = Vec::new();
            let mut check = |name: &'static str, ok: bool, received: String| {
                if !ok {
                    results.push((name, received));
                }
            };
            for purpose in [LoadPurpose::Probe, LoadPurpose::Resume] {
                let r = a.load(id, purpose).await;
                check("load", is_invalid(&r, error), show(&r));
            }
            let r = a
                .save(&record(id, 1), SavePurpose::Run, ContentProvenance::Session)
                .await;
            check("save", is_invalid(&r, error), show(&r));
            let r = a.delete(id).await;
            check("delete", is_invalid(&r, error), show(&r));
            // The store's own members take a `RecordId`: the text is refused where it would
            // become one.
            let r = RecordId::new(id);
            check("RecordId::new", r == Err(error), format!("{r:?}"));
            if let Some((name, received)) = results.into_iter().next() {
                return Err((
                    "a call with an invalid id",
                    RecordStoreProblem::Refusal {
                        expected: format!("{name}({id:?}): Err({expected})"),
                        received,
                    },
                ));
            }
            let calls = recording.take();
            if !calls.is_empty() {
                return Err((
                    "an invalid id never reaches the medium",
                    RecordStoreProblem::MediumCalls {
                        expected: "none",
                        calls,
                    },
                ));
            }
        }
        let longest = "z".repeat(RecordId::MAX_LEN);
        for id in ["a.b_c-D9", longest.as_str(), "0"] {
            let r = record(id, 1);
            self.save_as(
                "an edge id that is valid",
                &a,
                &r,
                SavePurpose::Run,
                SaveOutcome::Saved,
            )
            .await?;
            self.load_valid_as("an edge id that is valid", &a, LoadPurpose::Probe, &r)
                .await?;
        }
        Ok(())
    }
}

/// The seeds of [`RecordStoreCase::InterleavedWriters`].
const SEEDS: [u64; 6] = [
    0x5eed_0001,
    0x5eed_0002,
    0x0dd_ba11,
    0xdead_beef,
    0x1234_5678_9abc_def0,
    0xffff_ffff_ffff_fffe,
];
const STEPS: usize = 48;
const IDS: [&str; 3] = ["i0", "i1", "i2"];

/// SplitMix64: the same seed gives the same interleaving on every target.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        // `n` is a small table length; the modulo bias is irrelevant here.
        usize::try_from(self.next() % n as u64).unwrap_or_default()
    }
}

async fn interleaved_writers<F: RecordStoreFixture>(fixture: &mut F) -> Checked {
    for seed in SEEDS {
        let medium = fixture.medium().await.map_err(|error| {
            (
                "creating a fresh medium",
                RecordStoreProblem::Fixture(error),
            )
        })?;
        let recording = Recording::new(&medium);
        let stores = [
            RecordStore::new(
                &recording,
                Lockable::new(fixture.seal(), None, false),
                writer("suite-a")?,
            ),
            RecordStore::new(
                &recording,
                Lockable::new(fixture.seal(), None, false),
                writer("suite-b")?,
            ),
        ];
        interleave(seed, &stores).await.map_err(|(step, detail)| {
            (
                "an interleaving of two writers",
                RecordStoreProblem::Interleaving { seed, step, detail },
            )
        })?;
    }
    Ok(())
}

/// Runs one seeded interleaving against a model of who holds each id and what its last
/// accepted save was.
async fn interleave<M: RecordMedium, S: RecordSeal>(
    seed: u64,
    stores: &[RecordStore<M, S>; 2],
) -> Result<(), (usize, String)> {
    let mut rng = SplitMix(seed);
    let mut holder: BTreeMap<&str, usize> = BTreeMap::new();
    let mut last: BTreeMap<&str, InteractiveSessionRecord> = BTreeMap::new();
    let mut stamp = 0_u64;
    for step in 0..STEPS {
        let who = rng.below(2);
        let id = IDS.get(rng.below(IDS.len())).copied().unwrap_or("i0");
        let Some(store) = stores.get(who) else {
            return Err((step, "no such store".into()));
        };
        let other_holds = holder.get(id).is_some_and(|h| *h != who);
        match rng.below(3) {
            0 => {
                let purpose = if rng.below(2) == 0 {
                    LoadPurpose::Resume
                } else {
                    LoadPurpose::Write
                };
                let result = store.load(id, purpose).await;
                match (&result, other_holds) {
                    (Err(RecordStoreError::HasWriter(_)), true) => {}
                    (Ok(outcome), false) => {
                        let ok = match last.get(id) {
                            Some(record) => same_record(outcome, record),
                            None => *outcome == SessionLoadOutcome::Missing,
                        };
                        if !ok {
                            return Err((
                                step,
                                format!(
                                    "store {who} {purpose} load of {id} read {}, the last \
                                     accepted save is {}",
                                    Summary(outcome),
                                    last.get(id).map_or("none", |r| r.updated_at.as_str())
                                ),
                            ));
                        }
                        holder.insert(id, who);
                    }
                    _ => {
                        return Err((
                            step,
                            format!(
                                "store {who} {purpose} load of {id}: {}, while the other store \
                                 holds it: {other_holds}",
                                show(&result)
                            ),
                        ));
                    }
                }
            }
            1 => {
                stamp += 1;
                let record = record(id, stamp);
                let result = store
                    .save(&record, SavePurpose::Run, ContentProvenance::Session)
                    .await;
                let has_writer = SaveOutcome::Refused {
                    reason: SaveRefusal::HasWriter,
                };
                match (&result, other_holds) {
                    (Ok(outcome), true) if *outcome == has_writer => {}
                    (Ok(SaveOutcome::Saved), false) => {
                        holder.insert(id, who);
                        last.insert(id, record);
                    }
                    _ => {
                        return Err((
                            step,
                            format!(
                                "store {who} run save of {id}: {}, while the other store holds \
                                 it: {other_holds}",
                                show(&result)
                            ),
                        ));
                    }
                }
            }
            _ => {
                let released = match RecordId::new(id) {
                    Ok(id) => store.release(&id).await.map_err(|error| error.to_string()),
                    Err(error) => Err(error.to_string()),
                };
                if let Err(error) = released {
                    return Err((step, format!("store {who} release of {id}: {error}")));
                }
                if holder.get(id) == Some(&who) {
                    holder.remove(id);
                }
            }
        }
    }
    // At the end every id holds exactly its last accepted save.
    let Some(reader) = stores.first() else {
        return Err((usize::MAX, "no store".into()));
    };
    for id in IDS {
        let outcome = reader
            .load(id, LoadPurpose::Probe)
            .await
            .map_err(|error| (usize::MAX, format!("probe of {id}: {error}")))?;
        let ok = match last.get(id) {
            Some(record) => same_record(&outcome, record),
            None => outcome == SessionLoadOutcome::Missing,
        };
        if !ok {
            return Err((
                usize::MAX,
                format!(
                    "{id} holds {}, its last accepted save is {}",
                    Summary(&outcome),
                    last.get(id).map_or("none", |r| r.updated_at.as_str())
                ),
            ));
        }
    }
    Ok(())
}

//! Cases of the session-mobility family's hand-off half: the wire contracts (golden files and
//! refused inputs), the ownership machine (catalog §10 items 1-3), the offer policy (items
//! 4-5), the source and the destination (items 6-8) with host doubles, and seeded property
//! tests over the machine and over a source/destination pair on an in-memory carrier. Uses only
//! `core`, `alloc`, serde_json and the crate, so it also runs on the firmware and wasm.
//!
//! The host doubles are stand-ins, not the reference's: sealing writes the record as JSON and
//! digests it with FNV-1a 64 (a test digest, not a cryptographic one), chunking cuts the text
//! into pieces of a few characters, and the record decoder follows the interop harness's
//! stand-in (non-object, `schemaVersion` other than 1, an `__issues` list) on top of the session
//! family's own record decoding.

use alloc::boxed::Box;
use alloc::collections::VecDeque;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use agent_interface::agent_core::Value;
use agent_interface::session::records::{
    InteractiveSessionRecord, SessionRecordDecodeIssue, SessionRecordDecodeOutcome,
};
use agent_interface::session_mobility::handoff::{
    AssembleOutcome, DestinationCommitError, DestinationReport, DestinationState, DurablyPersisted,
    HandoffAdvance, HandoffAssembler, HandoffCarrier, HandoffChunkFrame, HandoffCommitAck,
    HandoffCommitResult, HandoffCredentialResolver, HandoffDestination,
    HandoffDestinationComposition, HandoffDestinationOptions, HandoffDisposition, HandoffIntegrity,
    HandoffManifest, HandoffManifestRequest, HandoffOfferResult, HandoffOutcome, HandoffPayload,
    HandoffPhase, HandoffReadiness, HandoffRecordPersister, HandoffRefusal, HandoffSource,
    HandoffSourceComposition, HandoffSourceOfferError, HandoffSourceOptions, HandoffStateItem,
    HandoffStateKind, HandoffTransaction, HandoffTransferError, HandoffTransition,
    HandoffTransitionDetail, HandoffTransitionRefusal, IN_FLIGHT_WORK_DETAIL, IntegrityFailure,
    IntegrityOutcome, InvalidChunkFrame, NO_CREDENTIAL_DETAIL, NOT_JSON_DETAIL, NOT_WRITTEN_DETAIL,
    NoHandoffOpen, NoManifestReceived, OrderedChunkAssembler, PrepareHandoffOfferInput,
    SealedRecord, SourceAbandonReason, SourceOfferOutcome, SourceRuntimeState, advance_handoff,
    assess_handoff_readiness, begin_handoff, commit_handoff, handoff_inventory, handoff_outcome,
    is_handoff_committed, is_handoff_transition_allowed, prepare_handoff_offer,
    source_retains_authority, source_still_owns, split_into_chunks,
};

use crate::support::{block_on, decode, from_json, golden, rejects, s, to_json};

// The peer suite loads the same generator in the same test target.
#[allow(clippy::duplicate_mod)]
#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

// ---- fixtures -----------------------------------------------------------------------------

const GOLDEN_MANIFEST: &str = include_str!("../golden/session_mobility/handoff/manifest.json");
const GOLDEN_MANIFEST_FIXTURE: &str =
    include_str!("../golden/session_mobility/handoff/manifest_fixture.json");
const GOLDEN_ACK: &str = include_str!("../golden/session_mobility/handoff/commit_ack.json");
const GOLDEN_OUTCOME_ABANDONED: &str =
    include_str!("../golden/session_mobility/handoff/outcome_abandoned.json");
const GOLDEN_OUTCOME_COMMITTED: &str =
    include_str!("../golden/session_mobility/handoff/outcome_committed.json");
const GOLDEN_CHUNK: &str = include_str!("../golden/session_mobility/handoff/chunk_frame.json");
const GOLDEN_PAYLOAD: &str = include_str!("../golden/session_mobility/handoff/payload.json");
const GOLDEN_TX_COMMITTED: &str =
    include_str!("../golden/session_mobility/handoff/transaction_committed.json");
const GOLDEN_TX_ABANDONED: &str =
    include_str!("../golden/session_mobility/handoff/transaction_abandoned.json");
const GOLDEN_RUNTIME: &str = include_str!("../golden/session_mobility/handoff/runtime_state.json");
const GOLDEN_READY: &str = include_str!("../golden/session_mobility/handoff/readiness_ready.json");
const GOLDEN_NOT_READY: &str =
    include_str!("../golden/session_mobility/handoff/readiness_not_ready.json");
const GOLDEN_OFFER_REFUSED: &str =
    include_str!("../golden/session_mobility/handoff/offer_result_refused.json");
const GOLDEN_OFFER_BUILT: &str =
    include_str!("../golden/session_mobility/handoff/offer_result_built.json");
const GOLDEN_PREPARE_INPUT: &str =
    include_str!("../golden/session_mobility/handoff/prepare_offer_input.json");
const GOLDEN_REQUEST: &str =
    include_str!("../golden/session_mobility/handoff/manifest_request.json");
const GOLDEN_SOURCE_REFUSED: &str =
    include_str!("../golden/session_mobility/handoff/source_offer_refused.json");
const GOLDEN_SOURCE_STARTED: &str =
    include_str!("../golden/session_mobility/handoff/source_offer_started.json");
const GOLDEN_INTEGRITY_FAILED: &str =
    include_str!("../golden/session_mobility/handoff/integrity_failed.json");
const GOLDEN_INTEGRITY_INTACT: &str =
    include_str!("../golden/session_mobility/handoff/integrity_intact.json");
const GOLDEN_ASSEMBLE_COMPLETE: &str =
    include_str!("../golden/session_mobility/handoff/assemble_complete.json");
const GOLDEN_ASSEMBLE_REFUSED: &str =
    include_str!("../golden/session_mobility/handoff/assemble_refused.json");
const GOLDEN_REPORT_DISCARDED: &str =
    include_str!("../golden/session_mobility/handoff/destination_report_discarded.json");
const GOLDEN_REPORT_REFUSED_COMMIT: &str =
    include_str!("../golden/session_mobility/handoff/destination_report_refused_commit.json");
/// A record with a goal, a plan, background tasks and job groups and a sandbox snapshot (the
/// session family's golden file), to take optional state from.
const RECORD_FULL: &str = include_str!("../golden/session/records/record_full.json");

fn record() -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        "session_1",
        "/home/alice/project",
        "2026-08-17T00:00:00.000Z",
        "2026-08-17T01:00:00.000Z",
    )
}

/// `record()` with the goal, plan, background tasks and job groups and sandbox snapshot of the
/// session family's full record golden file, decoded one member at a time (the whole-record
/// decoder is too large to link beside these cases in one firmware image).
fn full_record() -> InteractiveSessionRecord {
    let full: Value = serde_json::from_str(RECORD_FULL).expect("golden record is JSON");
    let mut record = record();
    record.goal = Some(decode(&full["goal"]));
    record.plan = Some(decode(&full["plan"]));
    record.background_tasks = Some(decode(&full["backgroundTasks"]));
    record.background_job_groups = Some(decode(&full["backgroundJobGroups"]));
    record.sandbox_snapshot_id = full["sandboxSnapshotId"].as_str().map(String::from);
    record
}

fn manifest() -> HandoffManifest {
    decode(&serde_json::from_str(GOLDEN_MANIFEST_FIXTURE).expect("JSON"))
}

fn ack(handoff_id: &str) -> HandoffCommitAck {
    HandoffCommitAck::new(handoff_id, "desktop", NOW_MS)
}

fn request(handoff_id: &str) -> HandoffManifestRequest {
    HandoffManifestRequest::new(
        handoff_id,
        "session_1",
        "laptop",
        "desktop",
        record(),
        SourceRuntimeState::new(),
        1000,
    )
}

/// The request of `manifest_request.json`.
fn golden_request() -> HandoffManifestRequest {
    let mut golden = request("handoff_1");
    golden.runtime = SourceRuntimeState::new()
        .with_subprocesses(2)
        .with_uncommitted_changes(true);
    golden
}

fn busy() -> SourceRuntimeState {
    SourceRuntimeState::new().with_model_call_in_flight(true)
}

/// A transaction walked to `phase` through the machine (committed with `ack("handoff_1")`).
fn tx_in(phase: HandoffPhase) -> HandoffTransaction {
    let mut tx = begin_handoff(&manifest());
    let path: &[HandoffAdvance] = match phase {
        HandoffPhase::Offered => &[],
        HandoffPhase::Transferring => &[HandoffAdvance::Transferring],
        HandoffPhase::Staged | HandoffPhase::Committed => {
            &[HandoffAdvance::Transferring, HandoffAdvance::Staged]
        }
        HandoffPhase::Abandoned => &[HandoffAdvance::Abandoned],
    };
    for step in path {
        assert!(
            tx.advance(*step, HandoffTransitionDetail::none())
                .is_accepted()
        );
    }
    if phase == HandoffPhase::Committed {
        assert_eq!(tx.commit(&ack("handoff_1")), HandoffCommitResult::Committed);
    }
    assert_eq!(tx.phase(), phase);
    tx
}

// ---- host doubles -------------------------------------------------------------------------

type Log = Rc<RefCell<Vec<String>>>;

fn entries(log: &Log) -> Vec<String> {
    log.borrow().clone()
}

fn logged(log: &Log, entry: &str) -> bool {
    log.borrow().iter().any(|e| e == entry)
}

/// A host failure (what a failing effect returns).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Failure(&'static str);

impl core::fmt::Display for Failure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.0)
    }
}

impl core::error::Error for Failure {}

/// FNV-1a 64 as lowercase hex: the doubles' stand-in digest.
fn fnv(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Sealing, chunking, verification, reassembly and decoding, logging every call.
struct Host {
    log: Log,
    chunk_chars: usize,
    seal_fails: bool,
}

fn host(log: &Log) -> Host {
    Host {
        log: log.clone(),
        chunk_chars: 40,
        seal_fails: false,
    }
}

impl HandoffSourceComposition for Host {
    type SealError = Failure;

    fn seal_record(&self, record: &InteractiveSessionRecord) -> Result<SealedRecord, Failure> {
        self.log.borrow_mut().push(s("seal"));
        if self.seal_fails {
            return Err(Failure("sealing key unavailable"));
        }
        let serialized = seal_text(record);
        let integrity = HandoffIntegrity::new(fnv(&serialized), serialized.len() as u64);
        Ok(SealedRecord::new(serialized, integrity))
    }

    fn chunk(&self, handoff_id: &str, serialized: &str) -> Vec<HandoffChunkFrame> {
        self.log.borrow_mut().push(s("chunk"));
        chunks_of(handoff_id, serialized, self.chunk_chars)
    }
}

/// The JSON of a record as the suite's records have it (the required members, the name, an
/// empty conversation), written without the record's own encoder, which is too large to link
/// beside these cases in one firmware image. The interop target seals with the real encoder.
fn seal_text(record: &InteractiveSessionRecord) -> String {
    assert!(
        record.messages.is_empty(),
        "the doubles seal only an empty conversation"
    );
    let quote = |text: &str| serde_json::to_string(text).expect("JSON");
    let mut out = format!("{{\"id\":{}", quote(&record.id));
    if let Some(name) = &record.name {
        out.push_str(&format!(",\"name\":{}", quote(name)));
    }
    out.push_str(&format!(
        ",\"cwd\":{},\"createdAt\":{},\"updatedAt\":{},\"messages\":[]}}",
        quote(&record.cwd),
        quote(&record.created_at),
        quote(&record.updated_at)
    ));
    out
}

fn chunks_of(handoff_id: &str, serialized: &str, size: usize) -> Vec<HandoffChunkFrame> {
    let size = core::num::NonZeroUsize::new(size).expect("a frame holds a character");
    split_into_chunks(handoff_id, serialized, size)
}

impl HandoffDestinationComposition for Host {
    type Assembler = Assembler;

    fn verify_payload(&self, serialized: &str, integrity: &HandoffIntegrity) -> IntegrityOutcome {
        self.log.borrow_mut().push(s("verify"));
        integrity.check(serialized, fnv)
    }

    fn create_assembler(&self, handoff_id: &str) -> Assembler {
        self.log
            .borrow_mut()
            .push(format!("assembler {handoff_id}"));
        Assembler {
            log: self.log.clone(),
            pieces: OrderedChunkAssembler::new(handoff_id),
        }
    }

    fn decode_record(&self, value: Value) -> SessionRecordDecodeOutcome {
        self.log.borrow_mut().push(s("decode"));
        stand_in_decode(value)
    }
}

/// The interop harness's decoder stand-in (non-object, `schemaVersion` other than 1, an
/// `__issues` list), reading the members the suite's records have: the required strings, the
/// name and an empty conversation. (The session family's own decoder is too large to link
/// beside these cases in one firmware image; the interop target decodes with it.)
fn stand_in_decode(value: Value) -> SessionRecordDecodeOutcome {
    let corrupt = |issues: Vec<SessionRecordDecodeIssue>| SessionRecordDecodeOutcome::Corrupt {
        issues,
        cwd: None,
    };
    let Some(members) = value.as_object() else {
        return corrupt(vec![SessionRecordDecodeIssue::new(
            "",
            "expected an object",
        )]);
    };
    if let Some(version) = members.get("schemaVersion")
        && version.as_u64() != Some(1)
    {
        return SessionRecordDecodeOutcome::Unsupported {
            schema_version: version.as_i64(),
            cwd: None,
        };
    }
    if let Some(issues) = members.get("__issues") {
        return corrupt(decode(issues));
    }
    let text = |key: &str| members.get(key).and_then(Value::as_str);
    let (Some(id), Some(cwd), Some(created_at), Some(updated_at)) = (
        text("id"),
        text("cwd"),
        text("createdAt"),
        text("updatedAt"),
    ) else {
        return corrupt(vec![SessionRecordDecodeIssue::new(
            "",
            "a record has the strings id, cwd, createdAt and updatedAt",
        )]);
    };
    if members
        .get("messages")
        .and_then(Value::as_array)
        .is_none_or(|m| !m.is_empty())
    {
        return corrupt(vec![SessionRecordDecodeIssue::new(
            "messages",
            "the test decoder reads an empty conversation only",
        )]);
    }
    let mut record = InteractiveSessionRecord::new(id, cwd, created_at, updated_at);
    record.name = text("name").map(String::from);
    SessionRecordDecodeOutcome::Valid {
        record: Box::new(record),
    }
}

/// Reassembles one hand-off with the reference assembler (it refuses another hand-off's chunk
/// and a total that changes), logging each chunk.
struct Assembler {
    log: Log,
    pieces: OrderedChunkAssembler,
}

impl HandoffAssembler for Assembler {
    fn accept(&mut self, chunk: &HandoffChunkFrame) -> AssembleOutcome {
        self.log
            .borrow_mut()
            .push(format!("accept {}", chunk.index()));
        self.pieces.accept(chunk)
    }
}

/// What left the source.
#[derive(Clone, Debug, PartialEq)]
enum Sent {
    Manifest(HandoffManifest),
    Chunk(HandoffChunkFrame),
}

/// Where a carrier fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FailOn {
    Nothing,
    Manifest,
    Chunk(u32),
}

/// An in-memory carrier: frames go into a shared queue, in order.
struct Carrier {
    log: Log,
    queue: Rc<RefCell<VecDeque<Sent>>>,
    fail_on: Cell<FailOn>,
}

fn carrier(log: &Log) -> Carrier {
    Carrier {
        log: log.clone(),
        queue: Rc::new(RefCell::new(VecDeque::new())),
        fail_on: Cell::new(FailOn::Nothing),
    }
}

impl HandoffCarrier for Carrier {
    type Error = Failure;

    async fn send_manifest(&self, manifest: &HandoffManifest) -> Result<(), Failure> {
        self.log
            .borrow_mut()
            .push(format!("send manifest {}", manifest.handoff_id));
        if self.fail_on.get() == FailOn::Manifest {
            return Err(Failure("link down"));
        }
        self.queue
            .borrow_mut()
            .push_back(Sent::Manifest(manifest.clone()));
        Ok(())
    }

    async fn send_chunk(&self, chunk: &HandoffChunkFrame) -> Result<(), Failure> {
        self.log
            .borrow_mut()
            .push(format!("send chunk {}", chunk.index()));
        if self.fail_on.get() == FailOn::Chunk(chunk.index()) {
            return Err(Failure("link down"));
        }
        self.queue
            .borrow_mut()
            .push_back(Sent::Chunk(chunk.clone()));
        Ok(())
    }
}

type ReadOnly = Box<dyn FnMut()>;
type Source = HandoffSource<Host, Carrier, ReadOnly>;

/// A source over the doubles, and the counter of its read-only switch.
fn new_source(log: &Log) -> (Source, Rc<Cell<u32>>) {
    let switched = Rc::new(Cell::new(0));
    let counter = switched.clone();
    let source = HandoffSource::new(HandoffSourceOptions::new(
        host(log),
        carrier(log),
        Box::new(move || counter.set(counter.get() + 1)) as ReadOnly,
    ));
    (source, switched)
}

/// A port answer: yes, no, or a failure; answers are taken in order, the last one repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Yes,
    No,
    Fails,
}

struct Port {
    log: Log,
    name: &'static str,
    answers: RefCell<VecDeque<Answer>>,
    written: RefCell<Vec<InteractiveSessionRecord>>,
}

fn port(log: &Log, name: &'static str, answers: &[Answer]) -> Port {
    Port {
        log: log.clone(),
        name,
        answers: RefCell::new(answers.iter().copied().collect()),
        written: RefCell::new(Vec::new()),
    }
}

impl Port {
    fn answer(&self) -> Result<bool, Failure> {
        self.log.borrow_mut().push(s(self.name));
        let mut answers = self.answers.borrow_mut();
        let answer = if answers.len() > 1 {
            answers.pop_front()
        } else {
            answers.front().copied()
        };
        match answer.unwrap_or(Answer::Yes) {
            Answer::Yes => Ok(true),
            Answer::No => Ok(false),
            Answer::Fails => Err(Failure("keychain locked")),
        }
    }
}

impl HandoffCredentialResolver for Port {
    type Error = Failure;

    async fn resolve_credential(&self) -> Result<bool, Failure> {
        self.answer()
    }
}

impl HandoffRecordPersister for Port {
    type Error = Failure;

    async fn persist(&self, record: &InteractiveSessionRecord) -> Result<bool, Failure> {
        let answer = self.answer();
        if answer == Ok(true) {
            self.written.borrow_mut().push(record.clone());
        }
        answer
    }
}

/// The host's clock at every commit of these cases.
const NOW_MS: u64 = 1234;
type Destination = HandoffDestination<Host, Port, Port>;

fn new_destination(log: &Log, credential: &[Answer], persist: &[Answer]) -> Destination {
    HandoffDestination::new(HandoffDestinationOptions::new(
        host(log),
        port(log, "credential", credential),
        port(log, "persist", persist),
        "desktop",
    ))
}

/// The sealed record of `record()` as the doubles seal it, and its chunks and manifest.
fn sealed(handoff_id: &str) -> (HandoffManifest, Vec<HandoffChunkFrame>) {
    let log = Log::default();
    let sealed = host(&log).seal_record(&record()).expect("seals");
    let mut manifest = manifest();
    manifest.handoff_id = s(handoff_id);
    manifest.integrity = sealed.integrity;
    (manifest, chunks_of(handoff_id, &sealed.serialized, 40))
}

/// A manifest and chunks for an arbitrary payload text (digest and length of that text).
fn payload(text: &str) -> (HandoffManifest, Vec<HandoffChunkFrame>) {
    let mut manifest = manifest();
    manifest.integrity = HandoffIntegrity::new(fnv(text), text.len() as u64);
    (manifest, chunks_of("handoff_1", text, 40))
}

fn report(state: DestinationState) -> DestinationReport {
    DestinationReport::of(state)
}

fn discarded(refusal: HandoffRefusal, detail: &str) -> DestinationReport {
    DestinationReport {
        state: DestinationState::Discarded,
        refusal: Some(refusal),
        detail: Some(s(detail)),
    }
}

/// Feeds every chunk, returning the last report.
fn feed(destination: &mut Destination, chunks: &[HandoffChunkFrame]) -> DestinationReport {
    let mut last = destination.report().clone();
    for chunk in chunks {
        last = destination
            .receive_chunk(chunk)
            .expect("a manifest was received");
    }
    last
}

/// A destination holding a staged `record()` for `handoff_1`.
fn staged(log: &Log, credential: &[Answer], persist: &[Answer]) -> Destination {
    let mut destination = new_destination(log, credential, persist);
    let (manifest, chunks) = sealed("handoff_1");
    destination.receive_manifest(manifest);
    assert_eq!(
        feed(&mut destination, &chunks),
        report(DestinationState::Staged)
    );
    destination
}

fn item_kinds(manifest: &HandoffManifest) -> Vec<(HandoffStateKind, HandoffDisposition)> {
    manifest
        .inventory
        .iter()
        .map(|item| (item.kind, item.disposition()))
        .collect()
}

fn built(result: HandoffOfferResult) -> HandoffManifest {
    match result {
        HandoffOfferResult::Built { manifest } => manifest,
        HandoffOfferResult::Refused { refusal, detail } => {
            panic!("expected a manifest, refused {refusal}: {detail}")
        }
    }
}

fn prepare_input(
    record: InteractiveSessionRecord,
    runtime: SourceRuntimeState,
) -> PrepareHandoffOfferInput {
    let request = HandoffManifestRequest::new(
        "handoff_1",
        "session_1",
        "source",
        "destination",
        record,
        runtime,
        1,
    );
    PrepareHandoffOfferInput::new(request, HandoffIntegrity::new("digest", 123))
}

const ILLEGAL_SUFFIX: &str = ". Refused rather than ignored: an ignored transition leaves the \
caller believing it happened, and in an ownership protocol that means two machines can each \
believe they are authoritative.";

fn illegal(from: &str, to: &str) -> String {
    format!("a hand-off in phase '{from}' cannot move to '{to}'{ILLEGAL_SUFFIX}")
}

cases! {
    mod wire {
        fn literal_sets_round_trip() {
            literal_round_trip!(HandoffPhase);
            literal_round_trip!(HandoffDisposition);
            literal_round_trip!(HandoffStateKind);
            literal_round_trip!(HandoffRefusal);
            literal_round_trip!(HandoffAdvance);
            literal_round_trip!(SourceAbandonReason);
            literal_round_trip!(DestinationState);
            literal_round_trip!(IntegrityFailure);
            assert_eq!(
                HandoffPhase::LITERALS,
                &[
                    "offered",
                    "transferring",
                    "staged",
                    "committed",
                    "abandoned"
                ]
            );
            assert_eq!(
                HandoffRefusal::LITERALS,
                &[
                    "integrity-failed",
                    "payload-undecodable",
                    "unauthorized",
                    "destination-cannot-resume",
                    "in-flight-work",
                    "cancelled",
                    "timed-out"
                ]
            );
            assert_eq!(
                HandoffDisposition::LITERALS,
                &[
                    "transferred",
                    "rehydrated",
                    "source-local",
                    "never-transferred"
                ]
            );
            assert_eq!(
                SourceAbandonReason::LITERALS,
                &["cancelled", "timed-out", "destination-cannot-resume"]
            );
            assert_eq!(
                DestinationState::LITERALS,
                &["idle", "receiving", "staged", "committed", "discarded"]
            );
        }

        fn manifest_golden_is_what_the_offer_builds() {
            let golden: HandoffManifest = golden("manifest", GOLDEN_MANIFEST);
            let mut full = full_record();
            full.cwd = s("/home/alice/project");
            let mut input = prepare_input(
                full,
                SourceRuntimeState::new()
                    .with_subprocesses(2)
                    .with_uncommitted_changes(true),
            );
            input.source_device_id = s("laptop");
            input.destination_device_id = s("desktop");
            input.integrity =
                HandoffIntegrity::new("zzUC9IGB8gTqeB30wn0q4Wbza9RVw2sv4HEL02dhTy4", 138);
            input.offered_at = 1000;
            assert_eq!(built(prepare_handoff_offer(input)), golden);
            assert_eq!(golden.inventory.len(), 9);
        }

        fn contract_fixtures_round_trip() {
            let fixture: HandoffManifest = golden("manifest fixture", GOLDEN_MANIFEST_FIXTURE);
            assert!(fixture.inventory.is_empty());
            assert_eq!(
                fixture.integrity,
                HandoffIntegrity::new("abc", 10)
            );
            let ack_golden: HandoffCommitAck = golden("ack", GOLDEN_ACK);
            assert_eq!(ack_golden, ack("handoff_1"));
            assert!(ack_golden.persisted.get());
            let abandoned: HandoffOutcome = golden("outcome abandoned", GOLDEN_OUTCOME_ABANDONED);
            assert_eq!(abandoned.refusal, Some(HandoffRefusal::TimedOut));
            assert!(!abandoned.is_committed());
            let committed: HandoffOutcome = golden("outcome committed", GOLDEN_OUTCOME_COMMITTED);
            assert!(is_handoff_committed(&committed));
            let chunk: HandoffChunkFrame = golden("chunk", GOLDEN_CHUNK);
            assert_eq!(
                (chunk.handoff_id(), chunk.index(), chunk.total()),
                ("handoff_1", 0, 4)
            );
            assert_eq!(
                chunk.data(),
                "{\"id\":\"session_1\",\"cwd\":\"/home/alice/pro"
            );
        }

        fn transaction_goldens_hold_the_ack_only_when_committed() {
            let committed: HandoffTransaction = golden("tx committed", GOLDEN_TX_COMMITTED);
            assert_eq!(committed, tx_in(HandoffPhase::Committed));
            assert_eq!(committed.ack(), Some(&ack("handoff_1")));
            let abandoned: HandoffTransaction = golden("tx abandoned", GOLDEN_TX_ABANDONED);
            assert_eq!(abandoned.refusal(), Some(HandoffRefusal::TimedOut));
            assert_eq!(abandoned.detail(), Some("peer disconnected"));
            assert_eq!(abandoned.ack(), None);
            let mut tx = tx_in(HandoffPhase::Transferring);
            let _ = tx.advance(
                HandoffAdvance::Abandoned,
                HandoffTransitionDetail::refusal(HandoffRefusal::TimedOut)
                    .with_detail("peer disconnected"),
            );
            assert_eq!(tx, abandoned);
        }

        fn answers_have_the_reference_wire_forms() {
            let runtime: SourceRuntimeState = golden("runtime", GOLDEN_RUNTIME);
            assert_eq!(
                runtime,
                SourceRuntimeState::new()
                    .with_model_call_in_flight(true)
                    .with_tool_calls_in_flight(2)
                    .with_subprocesses(1)
                    .with_uncommitted_changes(true)
            );
            assert_eq!(
                to_json(&SourceRuntimeState::default()),
                serde_json::json!({})
            );
            let ready: HandoffReadiness = golden("ready", GOLDEN_READY);
            assert_eq!(ready, HandoffReadiness::Ready);
            let not_ready: HandoffReadiness = golden("not ready", GOLDEN_NOT_READY);
            assert_eq!(not_ready, assess_handoff_readiness(&busy()));
            let refused: HandoffOfferResult = golden("offer refused", GOLDEN_OFFER_REFUSED);
            assert_eq!(
                refused,
                prepare_handoff_offer(prepare_input(record(), busy()))
            );
            let built_golden: HandoffOfferResult = golden("offer built", GOLDEN_OFFER_BUILT);
            assert_eq!(
                built_golden,
                HandoffOfferResult::Built {
                    manifest: manifest()
                }
            );
            let started: SourceOfferOutcome = golden("started", GOLDEN_SOURCE_STARTED);
            assert_eq!(started, SourceOfferOutcome::Started);
            let source_refused: SourceOfferOutcome =
                golden("source refused", GOLDEN_SOURCE_REFUSED);
            let SourceOfferOutcome::Refused { outcome } = source_refused else {
                panic!("refused")
            };
            assert_eq!(outcome.phase, HandoffPhase::Abandoned);
            let failed: IntegrityOutcome = golden("integrity failed", GOLDEN_INTEGRITY_FAILED);
            assert_eq!(
                failed,
                IntegrityOutcome::Failed {
                    failure: IntegrityFailure::Truncated,
                    expected_bytes: 138,
                    actual_bytes: 135,
                }
            );
            let intact: IntegrityOutcome = golden("integrity intact", GOLDEN_INTEGRITY_INTACT);
            assert_eq!(intact, IntegrityOutcome::Intact);
            let complete: AssembleOutcome = golden("assemble complete", GOLDEN_ASSEMBLE_COMPLETE);
            assert!(matches!(
                complete,
                AssembleOutcome::Complete {
                    received: 1,
                    expected: Some(1),
                    ..
                }
            ));
            let refused_chunk: AssembleOutcome =
                golden("assemble refused", GOLDEN_ASSEMBLE_REFUSED);
            assert!(matches!(
                refused_chunk,
                AssembleOutcome::Refused { expected: None, .. }
            ));
            let report_golden: DestinationReport =
                golden("report discarded", GOLDEN_REPORT_DISCARDED);
            assert_eq!(
                report_golden,
                discarded(
                    HandoffRefusal::DestinationCannotResume,
                    NO_CREDENTIAL_DETAIL
                )
            );
            let refused_commit: DestinationReport =
                golden("report refused commit", GOLDEN_REPORT_REFUSED_COMMIT);
            assert_eq!(refused_commit.refusal, None);
        }

        fn an_ack_that_does_not_assert_persistence_does_not_decode() {
            let base =
                r#"{"handoffId":"handoff_1","destinationDeviceId":"desktop","committedAt":2"#;
            rejects::<HandoffCommitAck>(
                &format!("{base},\"persisted\":false}}"),
                "does not assert durable persistence",
            );
            rejects::<HandoffCommitAck>(
                &format!("{base},\"persisted\":\"true\"}}"),
                "invalid type",
            );
            rejects::<HandoffCommitAck>(&format!("{base},\"persisted\":1}}"), "invalid type");
            rejects::<HandoffCommitAck>(&format!("{base},\"persisted\":null}}"), "invalid type");
            rejects::<HandoffCommitAck>(&format!("{base}}}"), "missing field `persisted`");
            rejects::<HandoffCommitAck>(
                r#"{"handoffId":"h","destinationDeviceId":"d","persisted":true,"committedAt":-1}"#,
                "invalid value",
            );
            rejects::<DurablyPersisted>("false", "durable persistence");
            assert_eq!(to_json(&DurablyPersisted), Value::Bool(true));
        }

        fn credentials_cannot_be_inventoried_as_travelling() {
            for disposition in ["transferred", "rehydrated", "source-local"] {
                let text =
                    format!(r#"{{"kind":"provider-credentials","disposition":"{disposition}"}}"#);
                rejects::<HandoffStateItem>(&text, "provider credentials never cross a hand-off");
            }
            rejects::<HandoffStateItem>(
                r#"{"kind":"conversation","disposition":"source-local"}"#,
                "inventory item `conversation` is always `transferred`, not `source-local`",
            );
            rejects::<HandoffStateItem>(
                r#"{"kind":"api-key","disposition":"transferred"}"#,
                "unknown variant",
            );
            for kind in HandoffStateKind::ALL {
                let text = format!(
                    r#"{{"kind":"{kind}","disposition":"{}"}}"#,
                    kind.disposition()
                );
                let item: HandoffStateItem =
                    serde_json::from_str(&text).expect("its own disposition");
                assert_eq!(item, HandoffStateItem::new(*kind));
            }
            assert_eq!(
                HandoffStateKind::ProviderCredentials.disposition(),
                HandoffDisposition::NeverTransferred
            );
            let mut manifest_json: Value = serde_json::from_str(GOLDEN_MANIFEST).expect("JSON");
            manifest_json["inventory"][2]["disposition"] = Value::from("transferred");
            let error = from_json::<HandoffManifest>(&manifest_json).expect_err("refused");
            assert!(error.to_string().contains("never cross"), "{error}");
        }

        fn malformed_frames_and_transactions_do_not_decode() {
            rejects::<HandoffChunkFrame>(
                r#"{"handoffId":"h","index":4,"total":4,"data":""}"#,
                "chunk index 4 is not below its total 4",
            );
            rejects::<HandoffChunkFrame>(
                r#"{"handoffId":"h","index":0,"total":0,"data":""}"#,
                "not below its total 0",
            );
            rejects::<HandoffChunkFrame>(
                r#"{"handoffId":"h","index":-1,"total":2,"data":""}"#,
                "invalid value",
            );
            assert_eq!(
                HandoffChunkFrame::new("h", 2, 2, "x"),
                Err(InvalidChunkFrame { index: 2, total: 2 })
            );
            let base = r#""handoffId":"handoff_1","sessionId":"session_1""#;
            rejects::<HandoffTransaction>(
                &format!(r#"{{{base},"phase":"committed"}}"#),
                "holds the acknowledgement that committed it",
            );
            rejects::<HandoffTransaction>(
                &format!(r#"{{{base},"phase":"staged","ack":{GOLDEN_ACK}}}"#),
                "phase 'staged' holds no acknowledgement",
            );
            let other = GOLDEN_ACK.replace("handoff_1", "handoff_2");
            rejects::<HandoffTransaction>(
                &format!(r#"{{{base},"phase":"committed","ack":{other}}}"#),
                "is for hand-off 'handoff_2', not 'handoff_1'",
            );
            rejects::<HandoffTransaction>(
                &format!(r#"{{{base},"phase":"paused"}}"#),
                "unknown variant",
            );
            rejects::<HandoffOutcome>(
                r#"{"handoffId":"h","phase":"committed","refusal":""}"#,
                "unknown variant",
            );
        }

        fn malformed_answers_do_not_decode() {
            rejects::<SourceRuntimeState>(r#"{"toolCallsInFlight":-1}"#, "invalid value");
            rejects::<SourceRuntimeState>(r#"{"toolCallsInFlight":0.5}"#, "invalid type");
            rejects::<SourceRuntimeState>(r#"{"subprocesses":null}"#, "invalid type");
            rejects::<SourceRuntimeState>(r#"{"modelCallInFlight":"true"}"#, "invalid type");
            rejects::<HandoffReadiness>(
                r#"{"ready":true,"refusal":"in-flight-work"}"#,
                "`ready: true` needs exactly no refusal",
            );
            rejects::<HandoffReadiness>(
                r#"{"ready":false}"#,
                "`ready: false` needs exactly a refusal and a detail",
            );
            rejects::<HandoffOfferResult>(
                r#"{"built":true}"#,
                "`built: true` needs exactly a manifest",
            );
            rejects::<HandoffOfferResult>(
                r#"{"built":false,"refusal":"cancelled"}"#,
                "`built: false`",
            );
            rejects::<SourceOfferOutcome>(
                r#"{"started":false}"#,
                "`started: false` needs the outcome",
            );
            rejects::<SourceOfferOutcome>(
                &format!(r#"{{"started":true,"outcome":{GOLDEN_OUTCOME_COMMITTED}}}"#),
                "`started: true` carries no outcome",
            );
            rejects::<IntegrityOutcome>(
                r#"{"intact":false,"failure":"truncated"}"#,
                "`intact: false` needs",
            );
            rejects::<IntegrityOutcome>(
                r#"{"intact":true,"failure":"truncated","expectedBytes":1,"actualBytes":0}"#,
                "`intact: true` carries no failure",
            );
            rejects::<AssembleOutcome>(r#"{"outcome":"lost","received":0}"#, "unknown variant");
            rejects::<AssembleOutcome>(
                r#"{"outcome":"complete","received":1}"#,
                "missing field `serialized`",
            );
            rejects::<DestinationReport>(r#"{"state":"live"}"#, "unknown variant");
        }
    }

    mod records {
        // The types that carry a session record, decoded here and encoded in `records_encode`:
        // a record's decoder and encoder together are too large for one firmware image. Records
        // are compared with `==`, never `assert_eq!`, for the same reason (their `Debug`).
        fn types_that_carry_a_record_decode() {
            let payload: HandoffPayload = serde_json::from_str(GOLDEN_PAYLOAD).expect("decodes");
            assert!(payload.record == record(), "the payload's record");
            assert_eq!(payload.handoff_id, "handoff_1");
            let request_golden: HandoffManifestRequest =
                serde_json::from_str(GOLDEN_REQUEST).expect("decodes");
            assert!(request_golden == golden_request(), "the manifest request");
        }

        fn a_record_that_is_not_one_does_not_decode() {
            let mut payload: Value = serde_json::from_str(GOLDEN_PAYLOAD).expect("JSON");
            payload["record"]["messages"] = Value::from("none");
            // `expect_err` and `rejects` would print the value, so match instead (`Debug`).
            let Err(error) = from_json::<HandoffPayload>(&payload) else {
                panic!("a record whose messages are a string decoded");
            };
            assert!(error.to_string().contains("messages"), "{error}");
            let Err(error) = serde_json::from_str::<HandoffManifestRequest>(r#"{"handoffId":"h"}"#)
            else {
                panic!("a request without a record decoded");
            };
            assert!(error.to_string().contains("missing field"), "{error}");
        }
    }

    mod records_input {
        // The offer input, which carries a record inside its request, decoded in a part of its
        // own: with the other record-carrying types it is too large for one firmware image.
        fn the_offer_input_decodes_with_its_record() {
            let input: PrepareHandoffOfferInput =
                serde_json::from_str(GOLDEN_PREPARE_INPUT).expect("decodes");
            assert!(
                input == prepare_input(record(), SourceRuntimeState::default()),
                "the offer input"
            );
        }
    }

    mod records_encode {
        fn types_that_carry_a_record_encode() {
            let expect = |name: &str, actual: Value, golden_text: &str| {
                let expected: Value = serde_json::from_str(golden_text).expect("JSON");
                assert!(
                    crate::support::json_eq(&actual, &expected),
                    "{name}: expected {expected}, wrote {actual}"
                );
            };
            let payload = HandoffPayload::new("handoff_1", record());
            expect("payload", to_json(&payload), GOLDEN_PAYLOAD);
            let input = prepare_input(record(), SourceRuntimeState::default());
            expect("prepare input", to_json(&input), GOLDEN_PREPARE_INPUT);
            expect("request", to_json(&golden_request()), GOLDEN_REQUEST);
        }
    }

    mod ownership {
        fn the_transition_table_is_exactly_the_catalogs() {
            let allowed = [
                (HandoffPhase::Offered, HandoffPhase::Transferring),
                (HandoffPhase::Offered, HandoffPhase::Abandoned),
                (HandoffPhase::Transferring, HandoffPhase::Staged),
                (HandoffPhase::Transferring, HandoffPhase::Abandoned),
                (HandoffPhase::Staged, HandoffPhase::Committed),
                (HandoffPhase::Staged, HandoffPhase::Abandoned),
            ];
            let mut pairs = 0;
            for from in HandoffPhase::ALL {
                for to in HandoffPhase::ALL {
                    assert_eq!(
                        is_handoff_transition_allowed(*from, *to),
                        allowed.contains(&(*from, *to)),
                        "{from} -> {to}"
                    );
                    pairs += 1;
                }
            }
            assert_eq!(pairs, 25);
            assert!(HandoffPhase::Committed.is_terminal() && HandoffPhase::Abandoned.is_terminal());
            assert!(!HandoffPhase::Staged.is_terminal());
            for advance in HandoffAdvance::ALL {
                assert_eq!(HandoffAdvance::from_phase(advance.phase()), Some(*advance));
                assert_eq!(advance.as_str(), advance.phase().as_str());
            }
            assert_eq!(HandoffAdvance::from_phase(HandoffPhase::Committed), None);
            assert_eq!(HandoffAdvance::from_phase(HandoffPhase::Offered), None);
        }

        fn every_move_is_accepted_or_refused_without_change() {
            let details = [
                HandoffTransitionDetail::none(),
                HandoffTransitionDetail::refusal(HandoffRefusal::TimedOut)
                    .with_detail("peer disconnected"),
                HandoffTransitionDetail::none().with_detail("only a detail"),
                HandoffTransitionDetail::refusal(HandoffRefusal::Cancelled),
            ];
            let mut checked = 0;
            for from in HandoffPhase::ALL {
                for next in HandoffAdvance::ALL {
                    for detail in &details {
                        let before = tx_in(*from);
                        let mut tx = before.clone();
                        let answer = advance_handoff(&mut tx, *next, detail.clone());
                        if is_handoff_transition_allowed(*from, next.phase()) {
                            assert_eq!(answer, HandoffTransition::Accepted, "{from} -> {next}");
                            assert_eq!(tx.phase(), next.phase());
                            assert_eq!(tx.refusal(), detail.refusal.or(before.refusal()));
                            assert_eq!(tx.detail(), detail.detail.as_deref().or(before.detail()));
                            assert_eq!(
                                (tx.handoff_id(), tx.session_id()),
                                ("handoff_1", "session_1")
                            );
                        } else {
                            let reason = answer.refusal().expect("refused").to_string();
                            assert_eq!(reason, illegal(from.as_str(), next.as_str()));
                            assert!(reason.contains(&format!("cannot move to '{next}'")));
                            assert_eq!(
                                tx, before,
                                "{from} -> {next}: a refusal changed the transaction"
                            );
                        }
                        checked += 1;
                    }
                }
            }
            assert_eq!(checked, 5 * 3 * 4);
        }

        fn an_accepted_move_copies_only_what_is_given() {
            let mut tx = begin_handoff(&manifest());
            let _ = tx.advance(
                HandoffAdvance::Transferring,
                HandoffTransitionDetail::refusal(HandoffRefusal::TimedOut).with_detail("slow"),
            );
            let _ = tx.advance(
                HandoffAdvance::Staged,
                HandoffTransitionDetail::none().with_detail("verified"),
            );
            assert_eq!(tx.refusal(), Some(HandoffRefusal::TimedOut));
            assert_eq!(tx.detail(), Some("verified"));
            let _ = tx.advance(
                HandoffAdvance::Abandoned,
                HandoffTransitionDetail::refusal(HandoffRefusal::Cancelled),
            );
            assert_eq!(
                handoff_outcome(&tx),
                HandoffOutcome::new("handoff_1", HandoffPhase::Abandoned)
                    .with_refusal(HandoffRefusal::Cancelled)
                    .with_detail("verified")
            );
        }

        fn commit_checks_run_in_the_catalogs_order() {
            // 1. Another hand-off's ack is refused, even on a committed transaction.
            for phase in HandoffPhase::ALL {
                let before = tx_in(*phase);
                let mut tx = before.clone();
                let answer = commit_handoff(&mut tx, &ack("handoff_2"));
                assert_eq!(
                    answer,
                    HandoffCommitResult::Refused(HandoffTransitionRefusal::AckForAnotherHandoff {
                        acknowledged: s("handoff_2"),
                        handoff_id: s("handoff_1"),
                    })
                );
                assert_eq!(
                    answer.refusal().expect("refused").to_string(),
                    "acknowledgement is for hand-off 'handoff_2', not 'handoff_1'. An ack from another transfer must never move this one."
                );
                assert_eq!(tx, before);
            }
            // 2. A committed transaction answers a matching ack as a duplicate, unchanged (even
            // one re-sent with another time).
            let before = tx_in(HandoffPhase::Committed);
            let mut tx = before.clone();
            let mut resent = ack("handoff_1");
            resent.committed_at = 9999;
            for again in [ack("handoff_1"), resent] {
                let answer = tx.commit(&again);
                assert_eq!(answer, HandoffCommitResult::Duplicate);
                assert!(answer.is_accepted() && answer.is_duplicate());
                assert_eq!(tx, before);
            }
            // 3. `persisted !== true` cannot be expressed: such an ack does not decode (wire part).
            // 4. Only `staged` commits.
            for phase in [
                HandoffPhase::Offered,
                HandoffPhase::Transferring,
                HandoffPhase::Abandoned,
            ] {
                let before = tx_in(phase);
                let mut tx = before.clone();
                let answer = tx.commit(&ack("handoff_1"));
                assert_eq!(
                    answer.refusal().expect("refused").to_string(),
                    illegal(phase.as_str(), "committed")
                );
                assert!(!answer.is_accepted());
                assert_eq!(tx, before);
            }
            let mut tx = tx_in(HandoffPhase::Staged);
            let answer = tx.commit(&ack("handoff_1"));
            assert_eq!(answer, HandoffCommitResult::Committed);
            assert!(!answer.is_duplicate());
            assert_eq!(tx.ack(), Some(&ack("handoff_1")));
            assert_eq!(tx.phase(), HandoffPhase::Committed);
        }

        fn a_commit_clears_an_earlier_refusal_and_keeps_the_detail() {
            let mut tx = begin_handoff(&manifest());
            let _ = tx.advance(
                HandoffAdvance::Transferring,
                HandoffTransitionDetail::refusal(HandoffRefusal::TimedOut).with_detail("retried"),
            );
            let _ = tx.advance(HandoffAdvance::Staged, HandoffTransitionDetail::none());
            assert_eq!(tx.commit(&ack("handoff_1")), HandoffCommitResult::Committed);
            let outcome = tx.outcome();
            assert_eq!(outcome.refusal, None);
            assert_eq!(outcome.detail.as_deref(), Some("retried"));
            assert!(is_handoff_committed(&outcome));
            assert!(!source_still_owns(&tx));
        }

        fn the_source_owns_the_session_until_a_matching_persisted_ack() {
            for phase in HandoffPhase::ALL {
                let tx = tx_in(*phase);
                let owns = *phase != HandoffPhase::Committed;
                assert_eq!(source_retains_authority(*phase), owns, "{phase}");
                assert_eq!(source_still_owns(&tx), owns, "{phase}");
                assert_eq!(tx.ack().is_some(), !owns);
            }
            // A connection lost while transferring: abandoned with timed-out, still the owner.
            let mut tx = tx_in(HandoffPhase::Transferring);
            let answer = tx.advance(
                HandoffAdvance::Abandoned,
                HandoffTransitionDetail::refusal(HandoffRefusal::TimedOut)
                    .with_detail("peer disconnected"),
            );
            assert!(answer.is_accepted());
            assert!(tx.source_still_owns());
            let expected: HandoffOutcome =
                decode(&serde_json::from_str(GOLDEN_OUTCOME_ABANDONED).expect("JSON"));
            assert_eq!(tx.outcome(), expected);
            // Cancelling from each non-terminal phase is accepted and keeps authority.
            for phase in [
                HandoffPhase::Offered,
                HandoffPhase::Transferring,
                HandoffPhase::Staged,
            ] {
                let mut tx = tx_in(phase);
                assert!(
                    tx.advance(
                        HandoffAdvance::Abandoned,
                        HandoffTransitionDetail::refusal(HandoffRefusal::Cancelled)
                    )
                    .is_accepted()
                );
                assert!(tx.source_still_owns());
                assert_eq!(tx.outcome().refusal, Some(HandoffRefusal::Cancelled));
            }
        }

        fn the_reference_tests_sequences_hold() {
            // Skipping offered -> staged is refused, the phase untouched.
            let mut tx = begin_handoff(&manifest());
            let answer = tx.advance(HandoffAdvance::Staged, HandoffTransitionDetail::none());
            assert!(
                answer
                    .refusal()
                    .expect("refused")
                    .to_string()
                    .contains("cannot move to 'staged'")
            );
            assert_eq!(tx.phase(), HandoffPhase::Offered);
            // Abandoning after a commit is refused; restarting an abandoned transfer is refused.
            let mut committed = tx_in(HandoffPhase::Committed);
            assert!(
                !committed
                    .advance(
                        HandoffAdvance::Abandoned,
                        HandoffTransitionDetail::refusal(HandoffRefusal::Cancelled)
                    )
                    .is_accepted()
            );
            assert_eq!(committed.phase(), HandoffPhase::Committed);
            let mut abandoned = tx_in(HandoffPhase::Abandoned);
            assert!(
                !abandoned
                    .advance(
                        HandoffAdvance::Transferring,
                        HandoffTransitionDetail::none()
                    )
                    .is_accepted()
            );
            assert_eq!(abandoned.phase(), HandoffPhase::Abandoned);
            // begin_handoff takes the ids from the manifest, phase offered, nothing else.
            let fresh = begin_handoff(&manifest());
            assert_eq!(
                to_json(&fresh),
                serde_json::json!({"handoffId": "handoff_1", "sessionId": "session_1", "phase": "offered"})
            );
        }

        fn committed_means_committed_and_unrefused() {
            let outcome = |phase: HandoffPhase, refusal: Option<HandoffRefusal>| {
                let mut outcome = HandoffOutcome::new("h", phase);
                outcome.refusal = refusal;
                outcome
            };
            assert!(is_handoff_committed(&outcome(
                HandoffPhase::Committed,
                None
            )));
            assert!(!is_handoff_committed(&outcome(
                HandoffPhase::Committed,
                Some(HandoffRefusal::Cancelled)
            )));
            for phase in [
                HandoffPhase::Offered,
                HandoffPhase::Transferring,
                HandoffPhase::Staged,
                HandoffPhase::Abandoned,
            ] {
                assert!(!is_handoff_committed(&outcome(phase, None)), "{phase}");
            }
        }
    }

    mod offer {
        fn readiness_is_refused_only_for_model_or_tool_work() {
            let mut checked = 0;
            for model in [false, true] {
                for tools in 0..3 {
                    for subprocesses in 0..3 {
                        for uncommitted in [false, true] {
                            let runtime = SourceRuntimeState::new()
                                .with_model_call_in_flight(model)
                                .with_tool_calls_in_flight(tools)
                                .with_subprocesses(subprocesses)
                                .with_uncommitted_changes(uncommitted);
                            let readiness = assess_handoff_readiness(&runtime);
                            if model || tools > 0 {
                                assert_eq!(
                                    readiness,
                                    HandoffReadiness::NotReady {
                                        refusal: HandoffRefusal::InFlightWork,
                                        detail: s(IN_FLIGHT_WORK_DETAIL),
                                    }
                                );
                                assert_eq!(
                                    prepare_handoff_offer(prepare_input(record(), runtime)),
                                    HandoffOfferResult::Refused {
                                        refusal: HandoffRefusal::InFlightWork,
                                        detail: s(IN_FLIGHT_WORK_DETAIL),
                                    }
                                );
                            } else {
                                assert_eq!(readiness, HandoffReadiness::Ready);
                                assert!(readiness.is_ready());
                                let manifest =
                                    built(prepare_handoff_offer(prepare_input(record(), runtime)));
                                let kinds = item_kinds(&manifest);
                                assert_eq!(
                                    kinds
                                        .iter()
                                        .any(|(k, _)| *k == HandoffStateKind::Subprocesses),
                                    subprocesses > 0
                                );
                                assert_eq!(
                                    kinds
                                        .iter()
                                        .any(|(k, _)| *k == HandoffStateKind::UncommittedChanges),
                                    uncommitted
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
            assert_eq!(checked, 36);
        }

        fn local_state_is_inventoried_and_the_integrity_passes_through() {
            let runtime = SourceRuntimeState::new()
                .with_subprocesses(2)
                .with_uncommitted_changes(true);
            let input = prepare_input(record(), runtime);
            let integrity = input.integrity.clone();
            let manifest = built(prepare_handoff_offer(input));
            assert_eq!(
                item_kinds(&manifest),
                vec![
                    (
                        HandoffStateKind::Conversation,
                        HandoffDisposition::Transferred
                    ),
                    (
                        HandoffStateKind::SessionMetadata,
                        HandoffDisposition::Transferred
                    ),
                    (
                        HandoffStateKind::ProviderCredentials,
                        HandoffDisposition::NeverTransferred
                    ),
                    (
                        HandoffStateKind::WorkingDirectory,
                        HandoffDisposition::Rehydrated
                    ),
                    (
                        HandoffStateKind::UncommittedChanges,
                        HandoffDisposition::SourceLocal
                    ),
                    (
                        HandoffStateKind::Subprocesses,
                        HandoffDisposition::SourceLocal
                    ),
                ]
            );
            assert_eq!(manifest.integrity, integrity);
            assert_eq!(
                (manifest.handoff_id.as_str(), manifest.session_id.as_str()),
                ("handoff_1", "session_1")
            );
            assert_eq!(
                (
                    manifest.source_device_id.as_str(),
                    manifest.destination_device_id.as_str(),
                    manifest.offered_at
                ),
                ("source", "destination", 1)
            );
            let note = |kind: HandoffStateKind| {
                manifest
                    .inventory
                    .iter()
                    .find(|item| item.kind == kind)
                    .and_then(|item| item.note.clone())
            };
            assert_eq!(
                note(HandoffStateKind::Subprocesses).expect("a note"),
                "2 running process(es) stay here. A process cannot migrate, and pretending otherwise would resume a session whose tools point at dead pids."
            );
            assert!(
                note(HandoffStateKind::ProviderCredentials)
                    .expect("a note")
                    .starts_with("The destination resolves its own credential.")
            );
            assert_eq!(note(HandoffStateKind::Conversation), None);
        }

        fn a_bare_record_has_only_the_four_items_that_are_always_there() {
            let manifest = built(prepare_handoff_offer(prepare_input(
                record(),
                SourceRuntimeState::default(),
            )));
            assert_eq!(
                item_kinds(&manifest),
                vec![
                    (
                        HandoffStateKind::Conversation,
                        HandoffDisposition::Transferred
                    ),
                    (
                        HandoffStateKind::SessionMetadata,
                        HandoffDisposition::Transferred
                    ),
                    (
                        HandoffStateKind::ProviderCredentials,
                        HandoffDisposition::NeverTransferred
                    ),
                    (
                        HandoffStateKind::WorkingDirectory,
                        HandoffDisposition::Rehydrated
                    ),
                ]
            );
            assert_eq!(
                manifest.inventory[3].note.as_deref(),
                Some(
                    "The path '/home/alice/project' is meaningless on the destination; it is carried so the destination can locate or ask for the corresponding checkout. A mismatch is surfaced, not guessed."
                )
            );
        }

        fn optional_state_appears_only_when_present() {
            let full = full_record();
            let kinds_of = |record: InteractiveSessionRecord| {
                let manifest = built(prepare_handoff_offer(prepare_input(
                    record,
                    SourceRuntimeState::default(),
                )));
                item_kinds(&manifest)
                    .into_iter()
                    .map(|(kind, _)| kind)
                    .skip(4)
                    .collect::<Vec<_>>()
            };
            let mut goal_only = record();
            goal_only.goal = full.goal.clone();
            assert_eq!(kinds_of(goal_only), vec![HandoffStateKind::GoalAndPlan]);
            let mut plan_only = record();
            plan_only.plan = full.plan.clone();
            assert_eq!(kinds_of(plan_only), vec![HandoffStateKind::GoalAndPlan]);
            let mut empty_lists = record();
            empty_lists.background_tasks = Some(Vec::new());
            empty_lists.background_job_groups = Some(Vec::new());
            assert_eq!(kinds_of(empty_lists), vec![]);
            let mut groups_only = record();
            groups_only.background_job_groups = full.background_job_groups.clone();
            assert_eq!(
                kinds_of(groups_only),
                vec![HandoffStateKind::BackgroundWork]
            );
            let mut empty_snapshot = record();
            empty_snapshot.sandbox_snapshot_id = Some(String::new());
            assert_eq!(
                kinds_of(empty_snapshot),
                vec![HandoffStateKind::SandboxSnapshot]
            );
            let mut everything = record();
            everything.goal = full.goal.clone();
            everything.background_tasks = full.background_tasks.clone();
            everything.sandbox_snapshot_id = Some(s("snap_1"));
            let manifest = built(prepare_handoff_offer(prepare_input(
                everything,
                SourceRuntimeState::default(),
            )));
            assert_eq!(
                item_kinds(&manifest)[4..],
                [
                    (
                        HandoffStateKind::GoalAndPlan,
                        HandoffDisposition::Transferred
                    ),
                    (
                        HandoffStateKind::BackgroundWork,
                        HandoffDisposition::Transferred
                    ),
                    (
                        HandoffStateKind::SandboxSnapshot,
                        HandoffDisposition::Rehydrated
                    ),
                ]
            );
            assert_eq!(
                manifest.inventory[6].note.as_deref(),
                Some(
                    "Carried as a reference. Its validity on the destination is checked, not assumed."
                )
            );
        }

        fn the_working_directory_note_quotes_the_path_as_it_is() {
            let mut odd = record();
            odd.cwd = s("/home/o'neil/\u{d504}\u{b85c}\u{c81d}\u{d2b8}");
            let inventory = handoff_inventory(&odd, &SourceRuntimeState::default());
            assert!(inventory[3].note.as_deref().expect("a note").starts_with(
                "The path '/home/o'neil/\u{d504}\u{b85c}\u{c81d}\u{d2b8}' is meaningless"
            ));
        }

        fn every_item_carries_its_kinds_disposition() {
            let mut everything = full_record();
            everything.sandbox_snapshot_id = Some(s("snap"));
            let runtime = SourceRuntimeState::new()
                .with_subprocesses(1)
                .with_uncommitted_changes(true);
            let inventory = handoff_inventory(&everything, &runtime);
            assert_eq!(inventory.len(), HandoffStateKind::ALL.len());
            for (item, kind) in inventory.iter().zip(HandoffStateKind::ALL) {
                assert_eq!(item.kind, *kind);
                assert_eq!(
                    to_json(item)["disposition"],
                    Value::from(kind.disposition().as_str())
                );
            }
        }
    }

    mod source_side {
        fn the_doubles_seal_what_the_record_encoder_writes() {
            let mut named = record();
            named.name = Some(s("handoff_1"));
            for record in [record(), named] {
                assert_eq!(
                    seal_text(&record),
                    serde_json::to_string(&record).expect("encodes")
                );
                let SessionRecordDecodeOutcome::Valid { record: decoded } =
                    stand_in_decode(serde_json::from_str(&seal_text(&record)).expect("JSON"))
                else {
                    panic!("the stand-in decodes what the doubles seal");
                };
                assert!(*decoded == record, "the stand-in decodes the sealed record");
            }
        }

        fn the_happy_path_transfers_then_commits_once() {
            let log = Log::default();
            let (mut source, switched) = new_source(&log);
            assert!(source.is_authoritative());
            assert_eq!(
                source.offer(request("handoff_1")),
                Ok(SourceOfferOutcome::Started)
            );
            assert_eq!(entries(&log), vec![s("seal")]);
            assert_eq!(
                source.transaction().map(HandoffTransaction::phase),
                Some(HandoffPhase::Offered)
            );
            let outcome = block_on(source.transfer()).expect("sent");
            assert_eq!(
                outcome,
                HandoffOutcome::new("handoff_1", HandoffPhase::Transferring)
            );
            assert_eq!(
                entries(&log)[1..],
                [
                    s("send manifest handoff_1"),
                    s("chunk"),
                    s("send chunk 0"),
                    s("send chunk 1"),
                    s("send chunk 2"),
                    s("send chunk 3")
                ]
            );
            let queue = source.carrier().queue.borrow().clone();
            assert_eq!(queue.len(), 5);
            assert_eq!(
                queue[0],
                Sent::Manifest(source.manifest().expect("open").clone())
            );
            assert!(source.is_authoritative());
            let committed = source.apply_ack(&ack("handoff_1")).expect("open");
            assert!(committed.is_committed());
            assert_eq!(switched.get(), 1);
            assert!(!source.is_authoritative());
            assert!(source.has_switched_read_only());
            let again = source.apply_ack(&ack("handoff_1")).expect("open");
            assert_eq!(again, committed);
            assert_eq!(switched.get(), 1, "a duplicate never switches again");
            let late = source
                .abandon(SourceAbandonReason::Cancelled, None)
                .expect("open");
            assert_eq!(late, committed, "abandoning after a commit changes nothing");
        }

        fn the_manifest_is_the_offer_with_the_seals_integrity() {
            let log = Log::default();
            let (mut source, _) = new_source(&log);
            let mut busy_local = request("handoff_1");
            busy_local.runtime = SourceRuntimeState::new()
                .with_subprocesses(2)
                .with_uncommitted_changes(true);
            assert_eq!(source.offer(busy_local), Ok(SourceOfferOutcome::Started));
            let (expected, _) = sealed("handoff_1");
            let manifest = source.manifest().expect("open");
            assert_eq!(manifest.integrity, expected.integrity);
            assert_eq!(manifest.offered_at, 1000);
            assert_eq!(manifest.inventory.len(), 6);
        }

        fn a_busy_session_is_refused_before_sealing() {
            let log = Log::default();
            let (mut source, switched) = new_source(&log);
            let mut busy_request = request("handoff_1");
            busy_request.runtime = busy();
            let answer = source.offer(busy_request).expect("an answer");
            assert_eq!(
                answer,
                SourceOfferOutcome::Refused {
                    outcome: HandoffOutcome::new("handoff_1", HandoffPhase::Abandoned)
                        .with_refusal(HandoffRefusal::InFlightWork)
                        .with_detail(IN_FLIGHT_WORK_DETAIL)
                }
            );
            assert!(
                entries(&log).is_empty(),
                "nothing was sealed: {:?}",
                entries(&log)
            );
            assert!(source.transaction().is_none());
            assert!(source.is_authoritative());
            assert_eq!(
                block_on(source.transfer()),
                Err(HandoffTransferError::NoHandoffOpen)
            );
            assert_eq!(switched.get(), 0);
        }

        fn calls_before_an_offer_are_typed_errors() {
            let log = Log::default();
            let (mut source, _) = new_source(&log);
            let error = block_on(source.transfer()).expect_err("nothing offered");
            assert_eq!(
                error.to_string(),
                "handoff: no transfer is open \u{2014} offer() must run first."
            );
            assert_eq!(source.apply_ack(&ack("handoff_1")), Err(NoHandoffOpen));
            assert_eq!(
                source.abandon(SourceAbandonReason::Cancelled, None),
                Err(NoHandoffOpen)
            );
            assert!(source.is_authoritative());
            assert!(source.outcome().is_none());
            assert!(entries(&log).is_empty());
        }

        fn transferring_comes_before_any_frame() {
            let log = Log::default();
            let (mut source, _) = new_source(&log);
            source.carrier().fail_on.set(FailOn::Manifest);
            assert_eq!(
                source.offer(request("handoff_1")),
                Ok(SourceOfferOutcome::Started)
            );
            let error = block_on(source.transfer()).expect_err("the link is down");
            assert_eq!(error, HandoffTransferError::Carrier(Failure("link down")));
            assert_eq!(error.to_string(), "handoff: the carrier failed: link down");
            // The move happened before the first send was tried, and nothing left.
            assert_eq!(
                source.transaction().map(HandoffTransaction::phase),
                Some(HandoffPhase::Transferring)
            );
            assert!(source.carrier().queue.borrow().is_empty());
            assert!(source.is_authoritative());
            // A second transfer is refused and sends nothing.
            source.carrier().fail_on.set(FailOn::Nothing);
            let before = source.transaction().cloned();
            let refused = block_on(source.transfer()).expect("an answer");
            assert_eq!(refused.refusal, Some(HandoffRefusal::Cancelled));
            assert_eq!(
                refused.detail,
                Some(illegal("transferring", "transferring"))
            );
            assert_eq!(source.transaction().cloned(), before);
            assert!(source.carrier().queue.borrow().is_empty());
        }

        fn a_failing_chunk_leaves_the_source_authoritative_until_an_ack() {
            let log = Log::default();
            let (mut source, switched) = new_source(&log);
            source.carrier().fail_on.set(FailOn::Chunk(1));
            let _ = source.offer(request("handoff_1"));
            assert!(matches!(
                block_on(source.transfer()),
                Err(HandoffTransferError::Carrier(_))
            ));
            assert_eq!(
                source.carrier().queue.borrow().len(),
                2,
                "the manifest and chunk 0"
            );
            assert!(source.is_authoritative());
            assert!(
                source
                    .apply_ack(&ack("handoff_1"))
                    .expect("open")
                    .is_committed()
            );
            assert_eq!(switched.get(), 1);
        }

        fn a_refused_ack_leaves_the_source_exactly_as_it_was() {
            // Departure 10: the reference keeps `staged` after a refused ack.
            let log = Log::default();
            let (mut source, switched) = new_source(&log);
            let _ = source.offer(request("handoff_1"));
            let before_transfer = source.transaction().cloned().expect("open");
            let early = source.apply_ack(&ack("handoff_1")).expect("open");
            assert_eq!(early.detail, Some(illegal("offered", "committed")));
            assert_eq!(source.transaction(), Some(&before_transfer));
            let _ = block_on(source.transfer());
            let before = source.transaction().cloned().expect("open");
            let other = source.apply_ack(&ack("handoff_2")).expect("open");
            assert_eq!(
                other,
                HandoffOutcome::new("handoff_1", HandoffPhase::Transferring).with_detail(
                    "acknowledgement is for hand-off 'handoff_2', not 'handoff_1'. An ack from another transfer must never move this one."
                )
            );
            assert_eq!(source.transaction(), Some(&before));
            assert!(source.is_authoritative());
            assert_eq!(switched.get(), 0);
        }

        fn abandoning_keeps_authority_and_refuses_what_follows() {
            let log = Log::default();
            let (mut source, switched) = new_source(&log);
            let _ = source.offer(request("handoff_1"));
            let outcome = source
                .abandon(SourceAbandonReason::TimedOut, Some(s("peer disconnected")))
                .expect("open");
            let expected: HandoffOutcome =
                decode(&serde_json::from_str(GOLDEN_OUTCOME_ABANDONED).expect("JSON"));
            assert_eq!(outcome, expected);
            assert!(source.is_authoritative());
            let transfer = block_on(source.transfer()).expect("an answer");
            assert_eq!(
                (transfer.phase, transfer.refusal),
                (HandoffPhase::Abandoned, Some(HandoffRefusal::Cancelled))
            );
            assert_eq!(transfer.detail, Some(illegal("abandoned", "transferring")));
            assert!(source.carrier().queue.borrow().is_empty());
            let late_ack = source.apply_ack(&ack("handoff_1")).expect("open");
            assert_eq!(
                (late_ack.phase, late_ack.refusal),
                (HandoffPhase::Abandoned, Some(HandoffRefusal::TimedOut))
            );
            assert_eq!(late_ack.detail, Some(illegal("abandoned", "committed")));
            assert_eq!(switched.get(), 0);
            assert_eq!(
                SourceAbandonReason::DestinationCannotResume.refusal(),
                HandoffRefusal::DestinationCannotResume
            );
        }

        fn a_new_offer_replaces_an_open_one_but_never_a_committed_one() {
            let log = Log::default();
            let (mut source, _) = new_source(&log);
            let _ = source.offer(request("handoff_1"));
            let _ = block_on(source.transfer());
            assert_eq!(
                source.offer(request("handoff_9")),
                Ok(SourceOfferOutcome::Started)
            );
            let stale = source.apply_ack(&ack("handoff_1")).expect("open");
            assert_eq!(
                (stale.handoff_id.as_str(), stale.phase),
                ("handoff_9", HandoffPhase::Offered)
            );
            assert!(block_on(source.transfer()).is_ok());
            assert!(
                source
                    .apply_ack(&ack("handoff_9"))
                    .expect("open")
                    .is_committed()
            );
            let before = source.transaction().cloned();
            let error = source
                .offer(request("handoff_10"))
                .expect_err("already handed off");
            assert_eq!(
                error,
                HandoffSourceOfferError::AlreadyCommitted {
                    handoff_id: s("handoff_9")
                }
            );
            assert!(error.to_string().contains("already handed off"));
            assert_eq!(source.transaction().cloned(), before);
            assert!(!source.is_authoritative());
        }

        fn a_failing_seal_opens_nothing() {
            let log = Log::default();
            let (mut source, _) = new_source(&log);
            let _ = source.offer(request("handoff_1"));
            let mut failing = HandoffSource::new(HandoffSourceOptions::new(
                Host {
                    log: log.clone(),
                    chunk_chars: 40,
                    seal_fails: true,
                },
                carrier(&log),
                || {},
            ));
            let error = failing
                .offer(request("handoff_1"))
                .expect_err("sealing fails");
            assert_eq!(
                error,
                HandoffSourceOfferError::Seal(Failure("sealing key unavailable"))
            );
            assert_eq!(
                error.to_string(),
                "handoff: sealing the record failed: sealing key unavailable"
            );
            assert!(failing.transaction().is_none());
            assert!(failing.is_authoritative());
        }
    }

    mod destination_side {
        fn the_happy_path_stages_then_commits_with_one_ack() {
            let log = Log::default();
            let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
            assert_eq!(destination.report(), &report(DestinationState::Idle));
            let (manifest, chunks) = sealed("handoff_1");
            assert_eq!(
                destination.receive_manifest(manifest.clone()),
                report(DestinationState::Receiving)
            );
            assert_eq!(entries(&log), vec![s("assembler handoff_1")]);
            for chunk in &chunks[..3] {
                assert_eq!(
                    destination.receive_chunk(chunk),
                    Ok(report(DestinationState::Receiving))
                );
            }
            assert!(
                !logged(&log, "verify"),
                "nothing verified before the last chunk"
            );
            assert_eq!(
                destination.receive_chunk(&chunks[3]),
                Ok(report(DestinationState::Staged))
            );
            assert_eq!(entries(&log)[5..], [s("verify"), s("decode")]);
            assert_eq!(destination.manifest(), Some(&manifest));
            assert!(destination.live_record().is_none(), "staged is not live");
            assert!(destination.acknowledgement().is_none());
            assert_eq!(
                block_on(destination.commit(NOW_MS)),
                Ok(report(DestinationState::Committed))
            );
            assert_eq!(entries(&log)[7..], [s("credential"), s("persist")]);
            let first = destination.acknowledgement().expect("an ack");
            assert_eq!(first, &ack("handoff_1"));
            assert!(
                core::ptr::eq(first, destination.acknowledgement().expect("an ack")),
                "the same ack on every read"
            );
            assert!(
                destination.live_record() == Some(&record()),
                "the live record"
            );
            assert!(destination.is_live());
            // A later commit, at a later time, is refused and leaves the acknowledgement (and its
            // `committedAt`, the first commit's `now_ms`) as it was.
            let again = block_on(destination.commit(NOW_MS + 60_000)).expect("an answer");
            assert_eq!(
                again.detail.as_deref(),
                Some(
                    "commit refused: a transfer in state 'committed' has nothing verified to commit"
                )
            );
            assert_eq!(destination.acknowledgement(), Some(&ack("handoff_1")));
            let discard = destination.discard(HandoffRefusal::Cancelled, "late");
            assert_eq!(
                discard,
                DestinationReport {
                    state: DestinationState::Committed,
                    refusal: None,
                    detail: Some(s(
                        "a committed transfer cannot be discarded \u{2014} this machine is already live for it"
                    )),
                }
            );
            assert!(
                destination.live_record() == Some(&record()),
                "the live record"
            );
            assert_eq!(destination.acknowledgement(), Some(&ack("handoff_1")));
        }

        fn integrity_is_checked_before_anything_is_parsed() {
            for (tamper, expected) in [
                (
                    "digest",
                    "payload digest-mismatch: manifest declared 138 byte(s), 138 arrived",
                ),
                (
                    "length",
                    "payload truncated: manifest declared 138 byte(s), 135 arrived",
                ),
            ] {
                let log = Log::default();
                let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
                let (manifest, mut chunks) = sealed("handoff_1");
                assert_eq!(manifest.integrity.byte_length, 138);
                let last = chunks.pop().expect("chunks");
                let data = if tamper == "digest" {
                    last.data().replace("[]", "{}")
                } else {
                    s(&last.data()[3..])
                };
                chunks.push(
                    HandoffChunkFrame::new("handoff_1", last.index(), last.total(), data)
                        .expect("valid"),
                );
                destination.receive_manifest(manifest);
                assert_eq!(
                    feed(&mut destination, &chunks),
                    discarded(HandoffRefusal::IntegrityFailed, expected)
                );
                assert!(logged(&log, "verify"));
                assert!(
                    !logged(&log, "decode"),
                    "{tamper}: a payload failing integrity was parsed"
                );
                assert_eq!(destination.state(), DestinationState::Discarded);
            }
        }

        fn intact_bytes_that_are_not_a_record_are_undecodable() {
            let log = Log::default();
            let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
            let (manifest, chunks) = payload("{\"id\":\"session_1\"");
            destination.receive_manifest(manifest);
            assert_eq!(
                feed(&mut destination, &chunks),
                discarded(HandoffRefusal::PayloadUndecodable, NOT_JSON_DETAIL)
            );
            assert!(
                !logged(&log, "decode"),
                "not JSON never reaches the decoder"
            );
            // Nesting past the default read limit is refused before it is parsed.
            let log = Log::default();
            let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
            let bound = agent_interface::agent_core::ReadLimits::DEFAULT.depth;
            let deep = format!("{}{}", "[".repeat(bound + 1), "]".repeat(bound + 1));
            let (manifest, chunks) = payload(&deep);
            destination.receive_manifest(manifest);
            let said = format!("payload verified intact but nests deeper than {bound} levels (the read limit)");
            assert_eq!(
                feed(&mut destination, &chunks),
                discarded(HandoffRefusal::PayloadUndecodable, &said)
            );
            assert!(!logged(&log, "decode"), "too deep never reaches the decoder");
            let cases = [
                (
                    "[1,2]",
                    s(
                        "payload verified intact but did not decode as a session record \u{2014} (root): expected an object",
                    ),
                ),
                (
                    r#"{"schemaVersion":9}"#,
                    s(
                        "payload declares session-record schema version 9, which this build does not read",
                    ),
                ),
                (
                    r#"{"schemaVersion":null}"#,
                    s(
                        "payload declares session-record schema version (absent), which this build does not read",
                    ),
                ),
                (
                    r#"{"__issues":[]}"#,
                    s("payload verified intact but did not decode as a session record \u{2014} "),
                ),
                (
                    r#"{"__issues":[{"path":"a","message":"1"},{"path":"b","message":"2"},{"path":"c","message":"3"},{"path":"d","message":"4"},{"path":"e","message":"5"}]}"#,
                    s(
                        "payload verified intact but did not decode as a session record \u{2014} a: 1; b: 2; c: 3; d: 4; e: 5",
                    ),
                ),
                (
                    r#"{"__issues":[{"path":"","message":"root issue"},{"path":"messages.0.role","message":"unknown role"},{"path":"cwd","message":"expected a string"},{"path":"createdAt","message":"not ISO"},{"path":"updatedAt","message":"not ISO"},{"path":"x","message":"6"},{"path":"y","message":"7"}]}"#,
                    s(
                        "payload verified intact but did not decode as a session record \u{2014} (root): root issue; messages.0.role: unknown role; cwd: expected a string; createdAt: not ISO; updatedAt: not ISO (+2 more)",
                    ),
                ),
            ];
            for (text, detail) in cases {
                let log = Log::default();
                let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
                let (manifest, chunks) = payload(text);
                destination.receive_manifest(manifest);
                assert_eq!(
                    feed(&mut destination, &chunks),
                    discarded(HandoffRefusal::PayloadUndecodable, &detail),
                    "{text}"
                );
                assert!(logged(&log, "decode"));
                assert_eq!(
                    block_on(destination.commit(NOW_MS)).expect("an answer").state,
                    DestinationState::Discarded
                );
                assert!(!logged(&log, "credential"));
            }
        }

        fn a_chunk_of_another_transfer_discards_as_integrity_failed() {
            let log = Log::default();
            let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
            let (manifest, _) = sealed("handoff_1");
            let (_, stray) = sealed("handoff_2");
            destination.receive_manifest(manifest);
            assert_eq!(
                destination.receive_chunk(&stray[0]),
                Ok(discarded(
                    HandoffRefusal::IntegrityFailed,
                    "chunk refused: wrong-handoff"
                ))
            );
            let refused = block_on(destination.commit(NOW_MS)).expect("an answer");
            assert_eq!(
                refused,
                DestinationReport {
                    state: DestinationState::Discarded,
                    refusal: None,
                    detail: Some(s(
                        "commit refused: a transfer in state 'discarded' has nothing verified to commit"
                    )),
                }
            );
        }

        fn duplicates_are_harmless_and_commit_needs_a_staged_transfer() {
            let log = Log::default();
            let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
            let idle = block_on(destination.commit(NOW_MS)).expect("an answer");
            assert_eq!(
                idle.detail.as_deref(),
                Some("commit refused: a transfer in state 'idle' has nothing verified to commit")
            );
            assert_eq!(destination.state(), DestinationState::Idle);
            let (manifest, chunks) = sealed("handoff_1");
            destination.receive_manifest(manifest);
            assert_eq!(
                destination.receive_chunk(&chunks[0]),
                Ok(report(DestinationState::Receiving))
            );
            assert_eq!(
                destination.receive_chunk(&chunks[0]),
                Ok(report(DestinationState::Receiving))
            );
            let receiving = block_on(destination.commit(NOW_MS)).expect("an answer");
            assert_eq!(receiving.state, DestinationState::Receiving);
            assert!(!logged(&log, "credential"));
            assert_eq!(
                feed(&mut destination, &chunks[1..]),
                report(DestinationState::Staged)
            );
        }

        fn no_credential_means_no_write_and_no_ack() {
            let log = Log::default();
            let mut destination = staged(&log, &[Answer::No], &[Answer::Yes]);
            assert_eq!(
                block_on(destination.commit(NOW_MS)),
                Ok(discarded(
                    HandoffRefusal::DestinationCannotResume,
                    NO_CREDENTIAL_DETAIL
                ))
            );
            assert!(
                logged(&log, "credential") && !logged(&log, "persist"),
                "{:?}",
                entries(&log)
            );
            assert!(destination.acknowledgement().is_none());
            assert!(destination.live_record().is_none());
        }

        fn an_unwritten_session_is_discarded_without_an_ack() {
            let log = Log::default();
            let mut destination = staged(&log, &[Answer::Yes], &[Answer::No]);
            assert_eq!(
                block_on(destination.commit(NOW_MS)),
                Ok(discarded(
                    HandoffRefusal::DestinationCannotResume,
                    NOT_WRITTEN_DETAIL
                ))
            );
            let calls = entries(&log);
            let credential = calls.iter().position(|e| e == "credential").expect("asked");
            let persist = calls.iter().position(|e| e == "persist").expect("asked");
            assert!(
                credential < persist,
                "the credential is resolved before persisting"
            );
            assert!(destination.acknowledgement().is_none());
        }

        fn a_failing_port_propagates_and_discards_nothing() {
            // Departure 12: the reference behaviour, kept.
            let log = Log::default();
            let mut destination = staged(
                &log,
                &[Answer::Fails, Answer::Yes],
                &[Answer::Fails, Answer::Yes],
            );
            let before = destination.report().clone();
            let error = block_on(destination.commit(NOW_MS)).expect_err("the resolver fails");
            assert_eq!(
                error,
                DestinationCommitError::Credential(Failure("keychain locked"))
            );
            assert_eq!(
                error.to_string(),
                "handoff: resolving the provider credential failed: keychain locked"
            );
            assert!(!logged(&log, "persist"));
            assert_eq!(
                (destination.state(), destination.report()),
                (DestinationState::Staged, &before)
            );
            let error = block_on(destination.commit(NOW_MS)).expect_err("the persister fails");
            assert!(matches!(error, DestinationCommitError::Persist(_)));
            assert_eq!(
                (destination.state(), destination.report()),
                (DestinationState::Staged, &before)
            );
            assert!(destination.acknowledgement().is_none());
            assert_eq!(
                block_on(destination.commit(NOW_MS)),
                Ok(report(DestinationState::Committed)),
                "a retry commits"
            );
            assert_eq!(destination.acknowledgement(), Some(&ack("handoff_1")));
        }

        fn a_chunk_before_any_manifest_is_an_error() {
            let log = Log::default();
            let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
            let (_, chunks) = sealed("handoff_1");
            let error = destination
                .receive_chunk(&chunks[0])
                .expect_err("no manifest");
            assert_eq!(error, NoManifestReceived);
            assert_eq!(
                error.to_string(),
                "handoff: no manifest \u{2014} receiveManifest first."
            );
            assert_eq!(destination.report(), &report(DestinationState::Idle));
        }

        fn a_discarded_transfer_stays_discarded() {
            // Departure 11: the reference revives a discarded transfer from late chunks.
            let log = Log::default();
            let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
            let (manifest, chunks) = sealed("handoff_1");
            destination.receive_manifest(manifest.clone());
            let _ = destination.receive_chunk(&chunks[0]);
            let gone = destination.discard(HandoffRefusal::TimedOut, "no chunk for 30s");
            assert_eq!(
                gone,
                discarded(HandoffRefusal::TimedOut, "no chunk for 30s")
            );
            for chunk in &chunks[1..] {
                assert_eq!(destination.receive_chunk(chunk), Ok(gone.clone()));
            }
            assert!(!logged(&log, "verify"));
            assert_eq!(destination.state(), DestinationState::Discarded);
            // Only a new manifest opens a new transfer.
            assert_eq!(
                destination.receive_manifest(manifest),
                report(DestinationState::Receiving)
            );
            assert_eq!(
                feed(&mut destination, &chunks),
                report(DestinationState::Staged)
            );
            assert_eq!(
                block_on(destination.commit(NOW_MS)),
                Ok(report(DestinationState::Committed))
            );
        }

        fn a_live_destination_ignores_late_frames_and_new_manifests() {
            let log = Log::default();
            let mut destination = staged(&log, &[Answer::Yes], &[Answer::Yes]);
            let (manifest, chunks) = sealed("handoff_1");
            let accepted = entries(&log)
                .iter()
                .filter(|e| e.starts_with("accept"))
                .count();
            assert_eq!(
                destination.receive_chunk(&chunks[0]),
                Ok(report(DestinationState::Staged))
            );
            assert_eq!(
                entries(&log)
                    .iter()
                    .filter(|e| e.starts_with("accept"))
                    .count(),
                accepted,
                "after staging chunks are ignored"
            );
            let _ = block_on(destination.commit(NOW_MS));
            let refused = destination.receive_manifest(manifest);
            assert_eq!(refused.state, DestinationState::Committed);
            assert_eq!(
                refused.detail.as_deref(),
                Some("manifest refused: this machine is already live for hand-off 'handoff_1'")
            );
            assert_eq!(
                destination
                    .receive_chunk(&chunks[1])
                    .expect("an answer")
                    .state,
                DestinationState::Committed
            );
            assert!(
                destination.live_record() == Some(&record()),
                "the live record"
            );
            assert_eq!(destination.device_id(), "desktop");
        }

        fn a_session_moves_end_to_end_over_an_in_memory_carrier() {
            let log = Log::default();
            let (mut source, switched) = new_source(&log);
            let mut destination = new_destination(&log, &[Answer::Yes], &[Answer::Yes]);
            assert_eq!(
                source.offer(request("handoff_1")),
                Ok(SourceOfferOutcome::Started)
            );
            let transferred = block_on(source.transfer()).expect("sent");
            assert_eq!(transferred.phase, HandoffPhase::Transferring);
            let frames: Vec<Sent> = source.carrier().queue.borrow_mut().drain(..).collect();
            let mut reports = Vec::new();
            for frame in frames {
                reports.push(match frame {
                    Sent::Manifest(manifest) => destination.receive_manifest(manifest),
                    Sent::Chunk(chunk) => destination.receive_chunk(&chunk).expect("a manifest"),
                });
            }
            assert_eq!(
                reports.iter().map(|r| r.state).collect::<Vec<_>>(),
                vec![
                    DestinationState::Receiving,
                    DestinationState::Receiving,
                    DestinationState::Receiving,
                    DestinationState::Receiving,
                    DestinationState::Staged,
                ]
            );
            assert!(source.is_authoritative() && !destination.is_live());
            assert_eq!(
                block_on(destination.commit(NOW_MS)),
                Ok(report(DestinationState::Committed))
            );
            let ack_sent = destination.acknowledgement().expect("an ack").clone();
            let wire: HandoffCommitAck = decode(&to_json(&ack_sent));
            let applied = source.apply_ack(&wire).expect("open");
            assert!(applied.is_committed());
            assert_eq!(source.apply_ack(&wire), Ok(applied));
            assert_eq!(switched.get(), 1);
            assert!(!source.is_authoritative());
            assert!(
                destination.live_record() == Some(&record()),
                "the live record"
            );
        }
    }

    mod properties {
        fn the_ownership_machine_keeps_its_invariants() {
            const SEEDS: u64 = 300;
            const STEPS: usize = 120;
            let mut steps = 0;
            for seed in 0..SEEDS {
                let mut rng = Seeded::new(seed);
                let mut tx = begin_handoff(&manifest());
                let mut committed_by: Option<HandoffCommitAck> = None;
                for step in 0..STEPS {
                    let before = tx.clone();
                    let context = format!("seed {seed} step {step}");
                    match rng.below(4) {
                        0 | 1 => {
                            let next = *rng.pick(HandoffAdvance::ALL);
                            let mut detail = HandoffTransitionDetail::none();
                            detail.refusal = rng.chance(1, 2).then(|| *rng.pick(HandoffRefusal::ALL));
                            detail.detail = rng.chance(1, 2).then(|| format!("d{step}"));
                            let answer = tx.advance(next, detail.clone());
                            let allowed =
                                is_handoff_transition_allowed(before.phase(), next.phase());
                            assert_eq!(
                                answer.is_accepted(),
                                allowed,
                                "{context}: {} -> {next}",
                                before.phase()
                            );
                            if allowed {
                                assert_eq!(tx.phase(), next.phase(), "{context}");
                                assert_eq!(
                                    tx.refusal(),
                                    detail.refusal.or(before.refusal()),
                                    "{context}"
                                );
                                assert_eq!(tx.ack(), None, "{context}: an advance never commits");
                            } else {
                                assert_eq!(
                                    tx, before,
                                    "{context}: a refused move changed the transaction"
                                );
                            }
                        }
                        2 => {
                            let id = if rng.chance(3, 4) {
                                "handoff_1"
                            } else {
                                "handoff_2"
                            };
                            let candidate = HandoffCommitAck::new(id, "desktop", rng.below(10_000));
                            let answer = tx.commit(&candidate);
                            match answer {
                                HandoffCommitResult::Committed => {
                                    assert_eq!(before.phase(), HandoffPhase::Staged, "{context}");
                                    assert_eq!(
                                        id, "handoff_1",
                                        "{context}: committed on another hand-off's ack"
                                    );
                                    assert_eq!(tx.ack(), Some(&candidate), "{context}");
                                    committed_by = Some(candidate);
                                }
                                HandoffCommitResult::Duplicate => {
                                    assert_eq!(
                                        before.phase(),
                                        HandoffPhase::Committed,
                                        "{context}"
                                    );
                                    assert_eq!(
                                        tx, before,
                                        "{context}: a duplicate changed the transaction"
                                    );
                                }
                                HandoffCommitResult::Refused(_) => {
                                    assert!(
                                        id != "handoff_1" || before.phase() != HandoffPhase::Staged,
                                        "{context}"
                                    );
                                    assert_eq!(
                                        tx, before,
                                        "{context}: a refused commit changed the transaction"
                                    );
                                }
                            }
                        }
                        _ => {
                            if tx.phase().is_terminal() && rng.chance(1, 2) {
                                tx = begin_handoff(&manifest());
                                committed_by = None;
                            }
                        }
                    }
                    // Invariants after every step.
                    let committed = tx.phase() == HandoffPhase::Committed;
                    assert_eq!(tx.source_still_owns(), !committed, "{context}");
                    assert_eq!(tx.ack().is_some(), committed, "{context}");
                    assert_eq!(
                        tx.ack(),
                        committed_by.as_ref().filter(|_| committed),
                        "{context}: the ack is the one that committed"
                    );
                    assert_eq!(tx.outcome().is_committed(), committed, "{context}");
                    if before.phase().is_terminal()
                        && tx.handoff_id() == before.handoff_id()
                        && tx.phase() != HandoffPhase::Offered
                    {
                        assert_eq!(tx, before, "{context}: a terminal transaction changed");
                    }
                    let wire: HandoffTransaction = decode(&to_json(&tx));
                    assert_eq!(wire, tx, "{context}: the wire form does not round-trip");
                    steps += 1;
                }
            }
            assert_eq!(steps, 36_000);
        }

        fn a_source_and_a_destination_never_leave_the_session_ownerless() {
            const SEEDS: u64 = 160;
            const STEPS: usize = 125;
            let mut steps = 0;
            let (mut committed_runs, mut races) = (0, 0);
            for seed in 0..SEEDS {
                let mut rng = Seeded::new(0x5eed_0000 + seed);
                let log = Log::default();
                let (mut source, switched) = new_source(&log);
                let credential = [
                    *rng.pick(&[
                        Answer::Yes,
                        Answer::Yes,
                        Answer::Yes,
                        Answer::Yes,
                        Answer::Yes,
                        Answer::No,
                        Answer::Fails,
                    ]),
                    Answer::Yes,
                ];
                let persist = [
                    *rng.pick(&[
                        Answer::Yes,
                        Answer::Yes,
                        Answer::Yes,
                        Answer::Yes,
                        Answer::Yes,
                        Answer::No,
                        Answer::Fails,
                    ]),
                    Answer::Yes,
                ];
                let mut destination = new_destination(&log, &credential, &persist);
                let mut offers = 0u32;
                for step in 0..STEPS {
                    let context = format!("seed {seed} step {step}");
                    let source_before = source.transaction().cloned();
                    let destination_before =
                        (destination.state(), destination.acknowledgement().cloned());
                    // A new offer mostly when nothing is in flight; now and then over a transfer
                    // in flight (the reference replaces it: the race counted below).
                    let in_flight = source_before.as_ref().is_some_and(|tx| {
                        matches!(
                            tx.phase(),
                            HandoffPhase::Transferring | HandoffPhase::Staged
                        )
                    });
                    // A transfer nobody can finish (nothing left to deliver, the destination
                    // not staged) times out at one end.
                    let abandoned = source_before
                        .as_ref()
                        .is_some_and(|tx| tx.phase() == HandoffPhase::Abandoned);
                    let stuck = in_flight
                        && source.carrier().queue.borrow().is_empty()
                        && !matches!(
                            destination.state(),
                            DestinationState::Staged | DestinationState::Committed
                        );
                    let operation = match rng.below(40) {
                        _ if step == 0 => 0,
                        _ if stuck && rng.chance(1, 3) => *rng.pick(&[34, 35]),
                        _ if abandoned && rng.chance(1, 3) => 0,
                        0 | 1 if in_flight && !rng.chance(1, 8) => 6,
                        other => other,
                    };
                    match operation {
                        0 | 1 => {
                            offers += 1;
                            let mut next = request(&format!("handoff_{}", offers % 3));
                            next.record.name = Some(next.handoff_id.clone());
                            if rng.chance(1, 5) {
                                next.runtime.tool_calls_in_flight = 1;
                            }
                            match source.offer(next) {
                                Ok(_) => {}
                                Err(HandoffSourceOfferError::AlreadyCommitted { .. }) => {
                                    assert!(!source.is_authoritative(), "{context}");
                                    assert_eq!(
                                        source.transaction().cloned(),
                                        source_before,
                                        "{context}"
                                    );
                                }
                                Err(other) => panic!("{context}: {other}"),
                            }
                        }
                        2..=5 => {
                            source.carrier().fail_on.set(match rng.below(16) {
                                0 => FailOn::Manifest,
                                1 => FailOn::Chunk(rng.below(4) as u32),
                                _ => FailOn::Nothing,
                            });
                            match block_on(source.transfer()) {
                                Ok(outcome)
                                    if outcome.refusal == Some(HandoffRefusal::Cancelled) =>
                                {
                                    assert_eq!(
                                        source.transaction().cloned(),
                                        source_before,
                                        "{context}: a refused transfer changed the source"
                                    );
                                }
                                Ok(outcome) => assert_eq!(
                                    outcome.phase,
                                    HandoffPhase::Transferring,
                                    "{context}"
                                ),
                                Err(HandoffTransferError::NoHandoffOpen) => {
                                    assert!(source_before.is_none(), "{context}")
                                }
                                Err(HandoffTransferError::Carrier(_)) => {
                                    assert_eq!(
                                        source.transaction().map(HandoffTransaction::phase),
                                        Some(HandoffPhase::Transferring),
                                        "{context}"
                                    );
                                }
                            }
                        }
                        6..=21 | 36.. => {
                            // Deliver the next frame, sometimes corrupted, dropped or repeated.
                            let frame = source.carrier().queue.borrow_mut().pop_front();
                            if let Some(frame) = frame {
                                let fault = rng.below(40);
                                let frame = match (fault, frame) {
                                    (0, Sent::Chunk(chunk)) => {
                                        let data = format!("{}#", chunk.data());
                                        Some(Sent::Chunk(
                                            HandoffChunkFrame::new(
                                                chunk.handoff_id(),
                                                chunk.index(),
                                                chunk.total(),
                                                data,
                                            )
                                            .expect("valid"),
                                        ))
                                    }
                                    (1, _) => None,
                                    (2, frame) => {
                                        source
                                            .carrier()
                                            .queue
                                            .borrow_mut()
                                            .push_front(frame.clone());
                                        Some(frame)
                                    }
                                    (_, frame) => Some(frame),
                                };
                                match frame {
                                    Some(Sent::Manifest(manifest)) => {
                                        let answer = destination.receive_manifest(manifest);
                                        if destination_before.0 == DestinationState::Committed {
                                            assert_eq!(
                                                answer.state,
                                                DestinationState::Committed,
                                                "{context}"
                                            );
                                        }
                                    }
                                    Some(Sent::Chunk(chunk)) => {
                                        match destination.receive_chunk(&chunk) {
                                            Ok(_) => {}
                                            Err(NoManifestReceived) => assert_eq!(
                                                destination_before.0,
                                                DestinationState::Idle,
                                                "{context}"
                                            ),
                                        }
                                    }
                                    None => {}
                                }
                            }
                        }
                        22..=25 => {
                            let answer = block_on(destination.commit(NOW_MS));
                            match answer {
                                Ok(report)
                                    if report.state == DestinationState::Committed
                                        && destination_before.0 == DestinationState::Staged =>
                                {
                                    let written = destination.live_record().expect("live").clone();
                                    assert_eq!(
                                        written.name.as_deref(),
                                        destination
                                            .acknowledgement()
                                            .map(|a| a.handoff_id.as_str()),
                                        "{context}: the live record is not the staged transfer's"
                                    );
                                }
                                Ok(_) => {
                                    if destination_before.0 != DestinationState::Staged {
                                        assert_eq!(
                                            (
                                                destination.state(),
                                                destination.acknowledgement().cloned()
                                            ),
                                            destination_before,
                                            "{context}: a refused commit changed the destination"
                                        );
                                    } else {
                                        assert_eq!(
                                            destination.state(),
                                            DestinationState::Discarded,
                                            "{context}"
                                        );
                                        assert!(
                                            destination.acknowledgement().is_none(),
                                            "{context}"
                                        );
                                    }
                                }
                                Err(_) => {
                                    assert_eq!(
                                        (
                                            destination.state(),
                                            destination.acknowledgement().cloned()
                                        ),
                                        destination_before,
                                        "{context}: a failing port changed the destination"
                                    );
                                }
                            }
                        }
                        26..=33 => {
                            // Deliver the destination's ack (possibly again), or a stray one.
                            let delivered = if rng.chance(1, 6) {
                                Some(ack("handoff_stray"))
                            } else {
                                destination.acknowledgement().cloned()
                            };
                            if let Some(delivered) = delivered {
                                match source.apply_ack(&delivered) {
                                    Ok(outcome)
                                        if outcome.detail.as_deref().is_some_and(|d| {
                                            d.contains("cannot move to")
                                                || d.contains("acknowledgement is for")
                                        }) =>
                                    {
                                        assert_eq!(
                                            source.transaction().cloned(),
                                            source_before,
                                            "{context}: a refused ack changed the source"
                                        );
                                    }
                                    Ok(_) | Err(_) => {}
                                }
                            }
                        }
                        34 => {
                            let reason = *rng.pick(SourceAbandonReason::ALL);
                            let _ = source.abandon(reason, None);
                            if source_before
                                .as_ref()
                                .is_some_and(|tx| tx.phase().is_terminal())
                            {
                                assert_eq!(
                                    source.transaction().cloned(),
                                    source_before,
                                    "{context}: a refused abandon changed the source"
                                );
                            }
                        }
                        _ => {
                            let refusal = *rng.pick(HandoffRefusal::ALL);
                            let _ = destination.discard(refusal, "given up");
                            if destination_before.0 == DestinationState::Committed {
                                assert_eq!(
                                    (destination.state(), destination.acknowledgement().cloned()),
                                    destination_before,
                                    "{context}: a live destination was discarded"
                                );
                            }
                        }
                    }
                    // Invariants after every step.
                    let read_only = !source.is_authoritative();
                    assert_eq!(
                        switched.get(),
                        u32::from(read_only),
                        "{context}: the read-only switch fired {} times",
                        switched.get()
                    );
                    if read_only {
                        // Never ownerless: the source let go only for a durable, matching ack.
                        let tx = source.transaction().expect("committed");
                        let held = tx.ack().expect("a committed transaction holds its ack");
                        assert!(
                            destination.is_live(),
                            "{context}: the source let go and the destination is not live"
                        );
                        assert_eq!(
                            destination.acknowledgement(),
                            Some(held),
                            "{context}: committed on an ack the destination did not produce"
                        );
                    }
                    if destination.is_live() && !read_only {
                        // Two authorities only while the ack has not been applied.
                        let produced = destination.acknowledgement().expect("live");
                        assert!(
                            source
                                .transaction()
                                .is_none_or(|tx| tx.ack() != Some(produced)),
                            "{context}"
                        );
                    }
                    if destination.is_live() {
                        let live = destination.live_record().expect("live");
                        assert_eq!(live.id, "session_1", "{context}");
                    }
                    steps += 1;
                }
                // Drain: the destination re-sends its ack until the source has it.
                if let Some(final_ack) = destination.acknowledgement().cloned() {
                    let _ = source.apply_ack(&final_ack);
                    let applies = source.transaction().is_some_and(|tx| {
                        tx.handoff_id() == final_ack.handoff_id
                            && matches!(
                                tx.phase(),
                                HandoffPhase::Transferring
                                    | HandoffPhase::Staged
                                    | HandoffPhase::Committed
                            )
                    });
                    if applies {
                        assert!(
                            !source.is_authoritative(),
                            "seed {seed}: a delivered ack left two authorities"
                        );
                        committed_runs += 1;
                    } else {
                        // The source gave this transfer up (abandoned it, or replaced it by a new
                        // offer) while the destination committed it: the protocol's race.
                        assert!(source.is_authoritative(), "seed {seed}");
                        races += 1;
                    }
                }
            }
            assert_eq!(steps, 20_000);
            assert!(
                committed_runs >= SEEDS / 3 && races > 0,
                "{committed_runs} runs committed and {races} raced: the operations rarely reach a commit"
            );
        }
    }
}

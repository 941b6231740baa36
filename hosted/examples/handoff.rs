//! A session moves from a laptop to a desktop, each with its own record store (a directory and
//! a writer). The offer is refused while a tool runs; then the record is sealed (the envelope the
//! stores keep, SHA-256 in base64url) and pushed as JSON frames that arrive reordered and
//! repeated. The desktop verifies before parsing, saves into its store, and only then
//! acknowledges; the laptop turns read-only once and its store lets go. It fails unless the
//! desktop's stored record is the laptop's. Run, in `hosted/`: `cargo run --example
//! handoff --no-default-features --features session-mobility,record-store-fs`.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::num::NonZeroUsize;

use agent_interface::agent_core::UniversalMessage;
use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::runtime::record_store::{
    FileMedium, FileMediumError, FileRecordStore, RecordId, RecordStoreError, RecordWriter,
    Unsealed, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SessionRecordDecodeOutcome,
};
use agent_interface::session_mobility::handoff::*;
use data_encoding::BASE64URL_NOPAD;
use futures_executor::block_on;
use serde_json::to_string as to_json;
use sha2::{Digest, Sha256};

type Result<T, E = serde_json::Error> = std::result::Result<T, E>;

/// The host's sealing, the same on both machines: SHA-256 in base64url (the manifest's
/// contract), frames of at most 128 characters (never a split UTF-8 sequence).
struct Sealing;

const FRAME_CHARS: NonZeroUsize = NonZeroUsize::new(128).unwrap();

fn digest(serialized: &str) -> String {
    BASE64URL_NOPAD.encode(&Sha256::digest(serialized.as_bytes()))
}

impl HandoffSourceComposition for Sealing {
    type SealError = serde_json::Error;

    fn seal_record(&self, record: &InteractiveSessionRecord) -> Result<SealedRecord> {
        let serialized = String::from_utf8(encode_session_record(record)?).expect("JSON text");
        let integrity = HandoffIntegrity::new(digest(&serialized), serialized.len() as u64);
        Ok(SealedRecord::new(serialized, integrity))
    }

    fn chunk(&self, handoff_id: &str, serialized: &str) -> Vec<HandoffChunkFrame> {
        split_into_chunks(handoff_id, serialized, FRAME_CHARS)
    }
}

impl HandoffDestinationComposition for Sealing {
    type Assembler = OrderedChunkAssembler;

    fn verify_payload(&self, serialized: &str, integrity: &HandoffIntegrity) -> IntegrityOutcome {
        integrity.check(serialized, digest)
    }

    fn create_assembler(&self, handoff_id: &str) -> OrderedChunkAssembler {
        OrderedChunkAssembler::new(handoff_id)
    }

    /// The stores' own decoder (located issues; an unknown schema version is `unsupported`),
    /// against the id the record carries.
    fn decode_record(&self, value: serde_json::Value) -> SessionRecordDecodeOutcome {
        let id = String::from(value["record"]["id"].as_str().unwrap_or_default());
        decode_session_record(value.to_string().as_bytes(), &id)
    }
}

/// The wire between the machines: each frame as JSON text (a socket's messages, say).
#[derive(Default)]
struct Wire(RefCell<VecDeque<String>>);

impl HandoffCarrier for &Wire {
    type Error = serde_json::Error;

    async fn send_manifest(&self, manifest: &HandoffManifest) -> Result<()> {
        to_json(manifest).map(|text| self.0.borrow_mut().push_back(text))
    }

    async fn send_chunk(&self, chunk: &HandoffChunkFrame) -> Result<()> {
        to_json(chunk).map(|text| self.0.borrow_mut().push_back(text))
    }
}

/// The desktop's durable write: its store claims the id (a `write` load), then saves; true
/// only once the record is in its directory.
struct SaveInto<'a>(&'a FileRecordStore);

impl HandoffRecordPersister for SaveInto<'_> {
    type Error = RecordStoreError<FileMediumError>;

    async fn persist(&self, record: &InteractiveSessionRecord) -> Result<bool, Self::Error> {
        self.0.load(&record.id, LoadPurpose::Write).await?;
        let (run, session) = (SavePurpose::Run, ContentProvenance::Session);
        Ok(self.0.save(record, run, session).await? == SaveOutcome::Saved)
    }
}

fn main() -> Result<()> {
    // Two machines, two stores: a directory and a writer each.
    let root = std::env::temp_dir().join(format!("agent-interface-handoff-{}", std::process::id()));
    let store = |name: &str| {
        let medium = FileMedium::open(root.join(name)).expect("the directory opens");
        let writer = WriterId::new(format!("{name}:{}", std::process::id())).expect("a writer id");
        FileRecordStore::new(medium, Unsealed, writer)
    };
    let (laptop_store, desktop_store) = (&store("laptop"), &store("desktop"));

    // The laptop runs the session: its store claims the id and keeps the record.
    let id = RecordId::new("session-1").expect("a record id");
    let (at, disk) = ("2026-12-02T09:30:00.000Z", "the disk answers");
    let mut record = InteractiveSessionRecord::new(id.as_str(), "/work/project", at, at);
    let message = UniversalMessage::user("m1", at, "Résumé: 3 items");
    record.messages.push(message);
    block_on(laptop_store.load(id.as_str(), LoadPurpose::Resume)).expect(disk);
    let save = laptop_store.save(&record, SavePurpose::Run, ContentProvenance::Session);
    assert_eq!(block_on(save).expect(disk), SaveOutcome::Saved);
    let writer = |store: &FileRecordStore| block_on(store.writer_of(&id)).expect(disk);
    println!("laptop store: {id} saved and claimed");

    // The laptop offers it; its read-only switch ends its store's claim on the session.
    let wire = Wire::default();
    let mut laptop = HandoffSource::new(HandoffSourceOptions::new(Sealing, &wire, || {
        block_on(laptop_store.release(&id)).expect(disk)
    }));
    let request = |runtime| {
        let (from, to, at) = ("laptop", "desktop", 1_764_666_000_000);
        let (session, record) = (id.to_string(), record.clone());
        HandoffManifestRequest::new("handoff-1", session, from, to, record, runtime, at)
    };
    let busy = SourceRuntimeState::new().with_tool_calls_in_flight(1);
    let refused = to_json(&laptop.offer(request(busy)).expect("nothing to seal"))?;
    println!("offer while a tool runs: {refused}");
    let started = laptop.offer(request(SourceRuntimeState::new()));
    assert_eq!(started.expect("it seals"), SourceOfferOutcome::Started);
    let manifest = laptop.manifest().expect("an open hand-off").clone();
    println!("inventory: {}", to_json(&manifest.inventory)?);
    let phase = block_on(laptop.transfer()).expect("the wire is up").phase;
    let (frames, sealed) = (wire.0.borrow().len(), to_json(&manifest.integrity)?);
    println!("{phase}: {frames} frames, sealed {sealed}");
    let payload = Sealing.seal_record(&record)?.serialized;
    let tampered = payload.replace("3 items", "4 items");
    let verdict = Sealing.verify_payload(&tampered, &manifest.integrity);
    assert_ne!(verdict, IntegrityOutcome::Intact);
    println!("a tampered copy would fail: {}", to_json(&verdict)?);

    // The desktop: its own provider credential, its own store, its clock. The wire delivers
    // the manifest, then the chunks last first, the last one twice.
    let mut desktop = HandoffDestination::new(HandoffDestinationOptions::new(
        Sealing,
        || true,
        SaveInto(desktop_store),
        "desktop",
    ));
    let mut frames = wire.0.take();
    let manifest = serde_json::from_str(&frames.pop_front().expect("the manifest first"))?;
    let state = desktop.receive_manifest(manifest).state;
    println!("desktop <- manifest: {state}");
    frames.make_contiguous().reverse();
    frames.insert(1, frames[0].clone());
    for text in frames {
        let report = desktop.receive_chunk(&serde_json::from_str(&text)?);
        let state = report.expect("the manifest came first").state;
        println!("desktop <- chunk of {} bytes: {state}", text.len());
    }
    let report =
        block_on(desktop.commit(1_764_666_060_000)).expect("the credential and the disk answer");
    assert_eq!(report.state, DestinationState::Committed);
    println!("desktop store: {id} saved and claimed");

    // The acknowledgement goes back over the wire, twice: the second changes nothing.
    let ack = to_json(desktop.acknowledgement().expect("persisted"))?;
    println!("ack: {ack}");
    for _ in 0..2 {
        let outcome = laptop.apply_ack(&serde_json::from_str(&ack)?);
        assert_eq!(outcome.expect("open").phase, HandoffPhase::Committed);
    }
    assert!(laptop.has_switched_read_only() && !laptop.is_authoritative());
    println!("laptop: committed, read-only, its store's claim released");

    // The desktop keeps the record the laptop kept (the laptop's copy stays, read-only).
    let stored = |store: &FileRecordStore| {
        let loaded = block_on(store.load(id.as_str(), LoadPurpose::Probe)).expect(disk);
        loaded.record().cloned().expect("a valid record")
    };
    assert_eq!(stored(desktop_store), stored(laptop_store));
    assert_eq!(stored(desktop_store), record);
    assert_eq!(writer(laptop_store), RecordWriter::Nobody);
    assert_eq!(writer(desktop_store), RecordWriter::ThisStore);
    println!("the desktop's record is the laptop's; the desktop writes it now");
    std::fs::remove_dir_all(&root).expect("the example's directories go");
    Ok(())
}

//! Benchmark of saving a session record through the memory store against encoding the same
//! record alone (issue 17, "One path for a record"), in ONE criterion group so the ratio comes
//! from one run:
//!
//! - `record_save/memory_store_save`: [`InteractiveSessionStore::save`] (run save, provenance
//!   `session`) of a 1 MiB record on a [`MemoryRecordStore`], over the version the previous
//!   iteration saved (the steady state of a session committing every turn): claim, read the
//!   previous bytes and recognise them as the ones this store wrote (by their fingerprint),
//!   encode, write, fingerprint what was written;
//! - `record_save/serde_json_to_vec`: `serde_json::to_vec` of the same record (the encoding
//!   alone, the floor a save is measured against);
//! - `record_save/encode_session_record`: the crate's envelope encoder, for reference.
//!
//! At the end it prints the save's time over the encoding's (the goal is 1.2 at most:
//! docs/decisions/record-store-path.md). With `RECORD_SAVE_MAX_RATIO` set, the run fails when
//! the ratio is above it.
//!
//! The record is the one benches/record_decode.rs decodes (benches/common/bench_record.rs).
//!
//! Run, in `hosted/`:
//! `cargo bench --features record-store --bench record_save -- --warm-up-time 0.5 --measurement-time 2`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::SystemTime;

use agent_interface::agent_core::Value;
use agent_interface::runtime::record_codec::encode_session_record;
use agent_interface::runtime::record_store::{
    MemoryMedium, MemoryRecordStore, RecordStore, Unsealed, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SessionLoadOutcome,
};
use criterion::{Criterion, Throughput, criterion_group};

#[path = "common/bench_record.rs"]
mod bench_record;

use bench_record::{ID, bench_record};
const GROUP: &str = "record_save";

/// Runs a memory store call (it never waits).
fn ready<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(output) => output,
        std::task::Poll::Pending => panic!("a memory store call waited"),
    }
}

fn save(store: &MemoryRecordStore<'_>, record: &InteractiveSessionRecord) {
    let outcome = ready(store.save(record, SavePurpose::Run, ContentProvenance::Session));
    assert_eq!(outcome, Ok(SaveOutcome::Saved));
}

fn bench(c: &mut Criterion) {
    let record = bench_record();
    let encoded = serde_json::to_vec(&record).expect("the bench record encodes");
    let medium = MemoryMedium::new();
    let store = RecordStore::new(&medium, Unsealed, WriterId::new("bench").expect("an id"));
    // The first save has nothing to read over; every measured one commits over the last.
    save(&store, &record);
    assert!(matches!(
        ready(store.load(ID, LoadPurpose::Probe)),
        Ok(SessionLoadOutcome::Valid { .. })
    ));
    eprintln!(
        "record_save: record of {} bytes (serde_json), {} messages",
        encoded.len(),
        record.messages.len()
    );

    let mut group = c.benchmark_group(GROUP);
    group.throughput(Throughput::Bytes(encoded.len() as u64));
    group.bench_function("memory_store_save", |b| {
        b.iter(|| save(black_box(&store), black_box(&record)))
    });
    group.bench_function("serde_json_to_vec", |b| {
        b.iter(|| serde_json::to_vec(black_box(&record)).expect("encodes"))
    });
    group.bench_function("encode_session_record", |b| {
        b.iter(|| encode_session_record(black_box(&record)).expect("encodes"))
    });
    group.finish();
}

/// Where criterion keeps its estimates (as criterion itself decides it).
fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    target.join("criterion")
}

/// The mean of one benchmark, when this run (started at `since`) measured it.
fn mean_seconds(function: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_home()
        .join(GROUP)
        .join(function)
        .join("new")
        .join("estimates.json");
    let fresh = std::fs::metadata(&path).ok()?.modified().ok()? >= since;
    let estimates: Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    let nanos = estimates["mean"]["point_estimate"].as_f64()?;
    fresh.then_some(nanos / 1e9)
}

/// Prints the save's time over the encoding's, both from this run; with
/// `RECORD_SAVE_MAX_RATIO`, exits with 1 when it is above it.
fn report_ratio(since: SystemTime) {
    let (Some(save), Some(encode)) = (
        mean_seconds("memory_store_save", since),
        mean_seconds("serde_json_to_vec", since),
    ) else {
        return;
    };
    let ratio = save / encode;
    println!(
        "\nrecord_save ratio (memory_store_save / serde_json_to_vec, this run): {ratio:.2}x   \
         ({:.3} ms / {:.3} ms)",
        save * 1e3,
        encode * 1e3
    );
    let limit: Option<f64> = std::env::var("RECORD_SAVE_MAX_RATIO")
        .ok()
        .and_then(|limit| limit.parse().ok());
    if let Some(limit) = limit.filter(|limit| ratio > *limit) {
        println!("record_save: above {limit}x");
        std::process::exit(1);
    }
}

criterion_group!(benches, bench);

fn main() {
    let since = SystemTime::now();
    benches();
    Criterion::default().configure_from_args().final_summary();
    report_ratio(since);
}

//! Throughput of the PostgreSQL backends against the in-memory ones, in one run: a policy
//! write with compare-and-set (`put_rules` expecting the stored revision) and a policy read;
//! a record save (run purpose, the store's own claim) and a record load (probe).
//!
//! Needs the server of `scripts/postgres.sh` (`scripts/postgres.sh --bench`).

use std::cell::Cell;
use std::hint::black_box;
use std::time::Duration;

use agent_interface::runtime::policy::{
    InMemorySessionPolicyStore, PutRulesOptions, SessionPermissionRules, SessionPolicyStore,
};
use agent_interface::runtime::record_store::{
    MemoryMedium, RecordMedium, RecordStore, Unsealed, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SessionLoadStatus,
};
use agent_interface_postgres::postgres::{Config, NoTls};
use agent_interface_postgres::{PostgresMedium, PostgresPolicyStore, SchemaName};
use criterion::{Criterion, criterion_group, criterion_main};
use embassy_futures::block_on;

fn config() -> Config {
    let params = std::env::var("AGENT_INTERFACE_PG")
        .expect("AGENT_INTERFACE_PG is not set: run scripts/postgres.sh --bench");
    params.parse().expect("AGENT_INTERFACE_PG parses")
}

fn fresh_schema(name: &str) -> SchemaName {
    let schema =
        SchemaName::new(format!("ai_bench_{name}_{}", std::process::id())).expect("a schema name");
    config()
        .connect(NoTls)
        .expect("connects")
        .batch_execute(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
        .expect("drops a leftover schema");
    schema
}

fn rules() -> SessionPermissionRules {
    SessionPermissionRules {
        tool_deny: Some(vec!["bash".to_owned(), "delete_file".to_owned()]),
        allow_dirs: Some(vec!["/work".to_owned()]),
        ..SessionPermissionRules::unrestricted()
    }
}

fn record() -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        "s1",
        "/work/bench",
        "2026-01-02T03:04:05.000Z",
        "2026-01-02T03:04:05.000Z",
    )
    .with_name("a benchmarked session")
}

fn policy<S: SessionPolicyStore>(c: &mut Criterion, name: &str, store: &S) {
    let rev = Cell::new(0u64);
    let mut group = c.benchmark_group("policy");
    group.bench_function(format!("put_cas/{name}"), |b| {
        b.iter(|| {
            let options = PutRulesOptions::expecting(rev.get());
            let stored = block_on(store.put_rules("s1", None, rules(), options))
                .unwrap_or_else(|_| panic!("the write at rev {} lands", rev.get()));
            rev.set(stored.rev());
        });
    });
    group.bench_function(format!("get/{name}"), |b| {
        b.iter(|| {
            let stored = block_on(store.get_rules(black_box("s1"), None))
                .unwrap_or_else(|_| panic!("reads"));
            assert_eq!(stored.map(|stored| stored.rev()), Some(rev.get()));
        });
    });
    group.finish();
}

fn records<M: RecordMedium>(c: &mut Criterion, name: &str, medium: M) {
    let writer = WriterId::new("bench").expect("a writer id");
    let store = RecordStore::new(medium, Unsealed, writer);
    let record = record();
    let mut group = c.benchmark_group("record");
    group.bench_function(format!("save/{name}"), |b| {
        b.iter(|| {
            let saved = block_on(store.save(&record, SavePurpose::Run, ContentProvenance::Session))
                .unwrap_or_else(|_| panic!("saves"));
            assert_eq!(saved, SaveOutcome::Saved);
        });
    });
    group.bench_function(format!("load/{name}"), |b| {
        b.iter(|| {
            let loaded = block_on(store.load(black_box("s1"), LoadPurpose::Probe))
                .unwrap_or_else(|_| panic!("loads"));
            assert_eq!(loaded.status(), SessionLoadStatus::Valid);
        });
    });
    group.finish();
}

fn throughput(c: &mut Criterion) {
    policy(c, "memory", &InMemorySessionPolicyStore::new());
    let store = PostgresPolicyStore::connect(config(), fresh_schema("policy")).expect("connects");
    policy(c, "postgres", &store);
    records(c, "memory", MemoryMedium::new());
    let medium = PostgresMedium::connect(config(), fresh_schema("records")).expect("connects");
    records(c, "postgres", medium);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = throughput
}
criterion_main!(benches);

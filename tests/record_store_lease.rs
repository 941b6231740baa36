//! Claims that survive crashes (feature `record-store-fs`): a store releases its claims when it
//! is dropped, a crashed writer's claim (no destructor ran) is taken over once its lease
//! lapses and not before, a renewed lease holds, a restarted host takes its earlier boot's
//! claims over at once, and writers racing for one lapsed claim never both get it. Each case
//! runs on the memory medium and on the file medium.
//!
//! Every case has its own clock the test moves (a static, or a counter a closure captures), read
//! through the closure the store's [`Lease`] is given (the crate reads no clock of its own).
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/temp_dir.rs"]
mod temp_dir;

use std::fs;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier};

use agent_interface::runtime::record_store::{
    FileMedium, Lease, MemoryMedium, OtherWriter, RecordId, RecordMedium, RecordStore,
    RecordStoreError, RecordWriter, Unsealed, WriterId, WriterIdError,
};
use agent_interface::session::records::{
    InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome, SavePurpose,
    SaveRefusal, SessionLoadOutcome,
};

use support::block_on;
use temp_dir::TempDir;

const LEASE_MS: u64 = 10_000;

fn writer(id: &str) -> WriterId {
    WriterId::new(id).expect("a writer id")
}

fn rid(id: &str) -> RecordId {
    RecordId::new(id).expect("a record id")
}

fn record(id: &str) -> InteractiveSessionRecord {
    let at = "2026-01-02T03:04:05.000Z";
    InteractiveSessionRecord::new(id, "/work", at, at)
}

fn save<M: RecordMedium>(store: &RecordStore<M>, id: &str) -> SaveOutcome {
    block_on(store.save(
        &record(id),
        SavePurpose::Run,
        agent_interface::session::records::ContentProvenance::Session,
    ))
    .expect("the medium answers")
}

/// The writer a refused load names.
fn held_by<M: RecordMedium>(store: &RecordStore<M>, id: &str) -> WriterId
where
    M::Error: core::fmt::Debug,
{
    match block_on(store.load(id, LoadPurpose::Resume)) {
        Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer))) => writer,
        other => panic!("expected a has-writer refusal, got {other:?}"),
    }
}

fn resumes<M: RecordMedium>(store: &RecordStore<M>, id: &str)
where
    M::Error: core::fmt::Debug,
{
    let loaded = block_on(store.load(id, LoadPurpose::Resume)).expect("claimed");
    assert_eq!(loaded, SessionLoadOutcome::valid(record(id)));
}

/// Runs `case` on a fresh memory medium and on a fresh directory.
fn on_each_medium(case: impl Fn(&dyn Fn(&str, Option<Lease>) -> Store)) {
    // Leaked: the memory stores of a case may outlive it (a crash forgets them).
    let memory: &'static MemoryMedium = Box::leak(Box::new(MemoryMedium::new()));
    case(&|id, lease| {
        Store::Memory(leased(
            RecordStore::new(memory, Unsealed, writer(id)),
            lease,
        ))
    });
    let dir = TempDir::new("lease");
    case(&|id, lease| {
        let medium = FileMedium::open(dir.path()).expect("the directory opens");
        Store::File(leased(
            RecordStore::new(medium, Unsealed, writer(id)),
            lease,
        ))
    });
}

fn leased<M: RecordMedium>(store: RecordStore<M>, lease: Option<Lease>) -> RecordStore<M> {
    match lease {
        Some(lease) => store.with_lease(lease).expect("a short writer id"),
        None => store,
    }
}

/// One store over either medium.
enum Store {
    Memory(RecordStore<&'static MemoryMedium>),
    File(RecordStore<FileMedium>),
}

/// Calls `$body` with the store inside, whatever its medium.
macro_rules! with {
    ($store:expr, |$inner:ident| $body:expr) => {
        match &$store {
            Store::Memory($inner) => $body,
            Store::File($inner) => $body,
        }
    };
}

impl Store {
    fn save(&self, id: &str) -> SaveOutcome {
        with!(self, |store| save(store, id))
    }
    fn held_by(&self, id: &str) -> WriterId {
        with!(self, |store| held_by(store, id))
    }
    fn resumes(&self, id: &str) {
        with!(self, |store| resumes(store, id));
    }
    fn writer_of(&self, id: &str) -> RecordWriter {
        with!(self, |store| block_on(store.writer_of(&rid(id)))
            .expect("answers"))
    }
    fn marker(&self, id: &str) -> Option<WriterId> {
        with!(self, |store| {
            match block_on(store.writer_of(&rid(id))).expect("answers") {
                RecordWriter::Nobody => None,
                RecordWriter::ThisStore => Some(store.writer_id().clone()),
                RecordWriter::Other(OtherWriter::Marked(w)) => Some(w),
                RecordWriter::Other(OtherWriter::Lent { to }) => to,
            }
        })
    }
    fn renew(&self) -> Vec<RecordId> {
        with!(self, |store| block_on(store.renew()).expect("answers"))
    }
    fn release_all(&self) {
        with!(self, |store| block_on(store.release_all())
            .expect("answers"));
    }
}

const HAS_WRITER: SaveOutcome = SaveOutcome::Refused {
    reason: SaveRefusal::HasWriter,
};

#[test]
fn a_store_dropped_without_release_frees_what_it_claimed() {
    on_each_medium(|store| {
        let a = store("pid-1", None);
        assert_eq!(a.save("s1"), SaveOutcome::Saved);
        assert_eq!(a.save("s2"), SaveOutcome::Saved);
        let b = store("pid-2", None);
        assert_eq!(b.held_by("s1"), writer("pid-1"));
        drop(a); // A clean exit that never called `release`.
        b.resumes("s1");
        b.resumes("s2");
        assert_eq!(b.writer_of("s2"), RecordWriter::ThisStore);
        // An explicit release of everything reports and frees as well.
        b.release_all();
        assert_eq!(store("pid-3", None).marker("s1"), None);
    });
}

#[test]
fn a_crashed_writers_claim_is_taken_over_once_its_lease_lapses_and_not_before() {
    // The clock is a closure over the host's own state (a shared counter here), not a static.
    let clock = Arc::new(AtomicU64::new(0));
    let lease = || {
        let clock = Arc::clone(&clock);
        Lease::new(LEASE_MS, move || clock.load(Ordering::SeqCst))
    };
    on_each_medium(|store| {
        clock.store(1_000, Ordering::SeqCst);
        let a = store("host-a", Some(lease()));
        assert_eq!(a.save("s1"), SaveOutcome::Saved);
        std::mem::forget(a); // A crash: no destructor runs, the marker stays.

        let b = store("host-b", Some(lease()));
        clock.store(1_000 + LEASE_MS - 1, Ordering::SeqCst);
        assert_eq!(b.held_by("s1"), writer("host-a"));
        assert_eq!(b.save("s1"), HAS_WRITER);
        // Lapsed: taken over in one compare-and-swap, and the record is whole.
        clock.store(1_000 + LEASE_MS, Ordering::SeqCst);
        b.resumes("s1");
        assert_eq!(b.writer_of("s1"), RecordWriter::ThisStore);
        std::mem::forget(b);
    });
}

#[test]
fn the_has_writer_error_says_how_a_record_is_freed() {
    let medium = MemoryMedium::new();
    let a = RecordStore::new(&medium, Unsealed, writer("a"));
    let b = RecordStore::new(&medium, Unsealed, writer("b"));
    assert_eq!(save(&a, "s1"), SaveOutcome::Saved);
    let refused = block_on(b.load("s1", LoadPurpose::Resume)).expect_err("refused");
    let text = refused.to_string();
    for needed in ["writer `a`", "`release`", "`recover_writer`", "lease"] {
        assert!(text.contains(needed), "{needed:?} is not in {text:?}");
    }
}

static RENEW_CLOCK: AtomicU64 = AtomicU64::new(0);

#[test]
fn a_renewed_lease_holds_and_a_writer_that_lost_its_lease_is_told() {
    let lease = || Lease::new(LEASE_MS, || RENEW_CLOCK.load(Ordering::SeqCst));
    on_each_medium(|store| {
        RENEW_CLOCK.store(0, Ordering::SeqCst);
        let a = store("host-a", Some(lease()));
        let b = store("host-b", Some(lease()));
        assert_eq!(a.save("s1"), SaveOutcome::Saved);
        // Within the first half, nothing is renewed; past it, a save renews.
        RENEW_CLOCK.store(6_000, Ordering::SeqCst);
        assert_eq!(a.renew(), Vec::<RecordId>::new());
        RENEW_CLOCK.store(12_000, Ordering::SeqCst);
        assert_eq!(b.held_by("s1"), writer("host-a"), "renewed until 16 000");
        // A stalls past its renewed lease; B takes the record over.
        RENEW_CLOCK.store(16_000, Ordering::SeqCst);
        b.resumes("s1");
        assert_eq!(a.save("s1"), HAS_WRITER);
        assert_eq!(
            a.writer_of("s1"),
            RecordWriter::Other(OtherWriter::Marked(writer("host-b")))
        );
        b.release_all();
    });
}

static LOST_CLOCK: AtomicU64 = AtomicU64::new(0);

#[test]
fn renew_names_the_claims_another_writer_took_over() {
    let lease = || Lease::new(LEASE_MS, || LOST_CLOCK.load(Ordering::SeqCst));
    on_each_medium(|store| {
        LOST_CLOCK.store(0, Ordering::SeqCst);
        let a = store("host-a", Some(lease()));
        assert_eq!(a.save("s1"), SaveOutcome::Saved);
        assert_eq!(a.save("s2"), SaveOutcome::Saved);
        LOST_CLOCK.store(LEASE_MS, Ordering::SeqCst);
        let b = store("host-b", Some(lease()));
        b.resumes("s1");
        assert_eq!(a.renew(), vec![rid("s1")]);
        assert_eq!(a.writer_of("s2"), RecordWriter::ThisStore);
        assert_eq!(b.held_by("s2"), writer("host-a"), "s2 was renewed");
        b.release_all();
        a.release_all();
    });
}

#[test]
fn a_restarted_host_takes_its_earlier_boots_claims_over_at_once() {
    on_each_medium(|store| {
        let boot_1 = WriterId::for_boot("host-a", 0x1111).expect("an id");
        let boot_2 = WriterId::for_boot("host-a", 0x2222).expect("an id");
        let other_host = WriterId::for_boot("host-b", 0x1111).expect("an id");
        let a = store(boot_1.as_str(), None);
        assert_eq!(a.save("s1"), SaveOutcome::Saved);
        std::mem::forget(a); // The host crashes.

        // Another host is refused: the earlier boot is not its own.
        let b = store(other_host.as_str(), None);
        assert_eq!(b.held_by("s1"), boot_1);
        // The same host, restarted with a new boot nonce, takes it over without waiting.
        let restarted = store(boot_2.as_str(), None);
        restarted.resumes("s1");
        assert_eq!(b.held_by("s1"), boot_2);
        restarted.release_all();
    });
}

#[test]
fn a_restart_under_the_same_writer_id_resumes_its_claims() {
    on_each_medium(|store| {
        let a = store("host-a", None);
        assert_eq!(a.save("s1"), SaveOutcome::Saved);
        std::mem::forget(a);
        let again = store("host-a", None);
        again.resumes("s1");
        assert_eq!(again.save("s1"), SaveOutcome::Saved);
        again.release_all();
    });
}

#[test]
fn a_lease_needs_a_writer_id_that_leaves_room_for_it() {
    let medium = MemoryMedium::new();
    let lease = || Lease::new(LEASE_MS, || 0);
    let longest = "w".repeat(Lease::MAX_WRITER_LEN);
    assert!(
        RecordStore::new(&medium, Unsealed, writer(&longest))
            .with_lease(lease())
            .is_ok()
    );
    let longer = format!("{longest}w");
    let refused = RecordStore::new(&medium, Unsealed, writer(&longer)).with_lease(lease());
    assert_eq!(refused.err(), Some(WriterIdError::TooLong));
    let tagged = RecordStore::new(&medium, Unsealed, writer("a lease-until=5")).with_lease(lease());
    assert_eq!(tagged.err(), Some(WriterIdError::LeaseSuffix));
}

static RACE_CLOCK: AtomicU64 = AtomicU64::new(0);

#[test]
fn writers_racing_for_one_lapsed_claim_never_both_get_it() {
    let lease = || Lease::new(LEASE_MS, || RACE_CLOCK.load(Ordering::SeqCst));
    let dir = TempDir::new("lease-race");
    let open = |id: &str| {
        let medium = FileMedium::open(dir.path()).expect("the directory opens");
        RecordStore::new(medium, Unsealed, writer(id))
            .with_lease(lease())
            .expect("a short id")
    };
    for round in 0..8u64 {
        let id = format!("r{round}");
        RACE_CLOCK.store(round * 100 * LEASE_MS, Ordering::SeqCst);
        let dead = open("dead");
        assert_eq!(save(&dead, &id), SaveOutcome::Saved);
        std::mem::forget(dead);
        RACE_CLOCK.store((round * 100 + 1) * LEASE_MS, Ordering::SeqCst);

        let racers = 6;
        let start = Arc::new(Barrier::new(racers));
        let winners: Vec<bool> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..racers)
                .map(|racer| {
                    let start = Arc::clone(&start);
                    let (open, id) = (&open, &id);
                    scope.spawn(move || {
                        let store = open(&format!("racer-{racer}"));
                        start.wait();
                        let won = block_on(store.load(id, LoadPurpose::Resume)).is_ok();
                        std::mem::forget(store); // Keep the winner's marker for the check.
                        won
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic"))
                .collect()
        });
        let won: Vec<usize> = (0..racers).filter(|&r| winners[r]).collect();
        assert_eq!(won.len(), 1, "round {round}: {winners:?}");
        let marker = fs::read_to_string(dir.join(&format!("{id}.writer"))).expect("a marker");
        assert!(
            marker.starts_with(&format!("racer-{} lease-until=", won[0])),
            "round {round}: {marker:?}"
        );
    }
}

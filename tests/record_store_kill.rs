//! The file medium across real OS processes (feature `record-store-fs`, Unix): this test binary
//! re-executes itself (`std::env::current_exe()`, the child's role in [`ROLE`]) so that writers
//! are separate processes that race, die by `SIGKILL` and leave what a kill leaves.
//!
//! - **Race**: four processes race for the writer claim of one id, round after round; exactly
//!   one wins each round, and every loser is told the winner's id.
//! - **Kill**: a child streams saves of records of up to ~300 KB, printing each one acknowledged;
//!   the parent kills it at a seeded random moment, then (as a fresh store) finds the record
//!   before the unacknowledged save or after it, never anything else, recovers the dead writer's
//!   marker by its id, and saves again. Stray temporary files of dead writers are aged past the
//!   medium's limit every other round and must be gone after the next claim; younger ones stay.
//! - **Strays of an old process** (defect 1): 64 and more stray temporary files named as an old
//!   process named them (`.<id>.<n>.*.tmp`, counting from 0 in every process) and as a process
//!   with the same pid names them now never make a save fail, and old ones are cleaned up.
//! - **Markers appear whole** (defect 2): an observer sampling the marker while a writer marks
//!   and unmarks (what a kill at that instant would leave) never sees a marker cut short; one
//!   that an older version left cut short is recovered by the documented call.
//!
//! Run in release mode (the records are large): `cargo test --release --no-default-features
//! --features record-store-fs,testing --test record_store_kill -- --include-ignored --nocapture`
//! (`scripts/test.sh kill`). Ignored otherwise, so the host tests do not run it a second time in
//! a debug build.
#![cfg(unix)]

#[path = "suites/temp_dir.rs"]
mod temp_dir;

#[path = "suites/seeded.rs"]
mod seeded;

use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use agent_interface::runtime::record_store::{
    FileMedium, FileRecordStore, OtherWriter, RecordId, RecordMedium, RecordStoreError,
    RecordWriter, Unsealed, WriterId,
};
use agent_interface::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SessionLoadOutcome,
};
use embassy_futures::block_on;

use seeded::Seeded;
use temp_dir::TempDir;

/// The environment variable that makes this binary a child, and names its role.
const ROLE: &str = "AGENT_INTERFACE_KILL_ROLE";
/// The directory a child works in.
const DIR: &str = "AGENT_INTERFACE_KILL_DIR";
/// The writer id a child writes as.
const WRITER: &str = "AGENT_INTERFACE_KILL_WRITER";
/// What starts a line a child says to its parent.
const SAID: &str = "@@ ";
/// The one record every round is about.
const ID: &str = "s1";

fn rid(id: &str) -> RecordId {
    RecordId::new(id).expect("a valid record id")
}

/// How old a stray temporary file is made to look when a round ages it: well past any limit a
/// medium may keep young files for.
const AGED: Duration = Duration::from_secs(24 * 60 * 60);

// ---- directories and children ------------------------------------------------------------

/// This binary again, as a child with `role` over `dir` writing as `writer`, its stdin and
/// stdout piped to the parent. Only the [`child_process_role`] test runs in it.
fn spawn(role: &str, dir: &Path, writer: &str) -> Child {
    Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "child_process_role",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(ROLE, role)
        .env(DIR, dir)
        .env(WRITER, writer)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the test binary runs again")
}

/// What a child says to its parent: one line behind [`SAID`] (libtest's own words may precede
/// it on the line).
fn say(line: &str) {
    println!("{SAID}{line}");
}

/// The lines a child said in `out`, without libtest's words.
fn said(out: &str) -> impl Iterator<Item = &str> {
    out.lines()
        .filter_map(|line| line.split_once(SAID).map(|(_, said)| said))
}

/// The stray temporary files in `dir` (every name ending in `.tmp`), sorted.
fn temporaries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("the directory lists")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    names.sort();
    names
}

/// Makes the file at `path` look `age` old (its modification time).
fn age(path: &Path, age: Duration) {
    let file = OpenOptions::new().write(true).open(path).expect("opens");
    file.set_modified(SystemTime::now() - age).expect("ages");
}

/// Plants a stray temporary file named `name`, `age` old.
fn plant(dir: &Path, name: &str, aged: Duration) {
    let path = dir.join(name);
    fs::write(&path, b"{\"schemaVersion\":1,\"rec").expect("plants");
    age(&path, aged);
}

// ---- records -----------------------------------------------------------------------------

fn writer(id: &str) -> WriterId {
    WriterId::new(id).expect("a valid writer id")
}

fn unreadable() -> WriterId {
    writer(FileMedium::UNREADABLE_MARKER)
}

fn store(dir: &Path, id: &str) -> FileRecordStore {
    let medium = FileMedium::open(dir).expect("the directory opens");
    FileRecordStore::new(medium, Unsealed, writer(id))
}

/// The record of generation `generation`: its name says the generation, and its system prompt
/// is a seeded 0 to 300 000 bytes, so every generation has its own size and content.
fn record(generation: u64) -> InteractiveSessionRecord {
    let mut rng = Seeded::new(generation);
    let size = rng.below(300_001) as usize;
    let letter = char::from(b'a' + (generation % 26) as u8);
    let mut record = InteractiveSessionRecord::new(
        ID,
        "/work/kill",
        "2026-01-02T03:04:05.000Z",
        format!("2026-01-02T03:04:05.{:03}Z", generation % 1000),
    );
    record.name = Some(format!("gen-{generation}"));
    record.system_prompt = Some(letter.to_string().repeat(size));
    record
}

/// The generation a record says it is, when it is one of [`record`]'s, whole.
fn generation_of(record: &InteractiveSessionRecord) -> Option<u64> {
    let generation = record.name.as_deref()?.strip_prefix("gen-")?.parse().ok()?;
    (*record == self::record(generation)).then_some(generation)
}

fn save(store: &FileRecordStore, record: &InteractiveSessionRecord) -> Result<SaveOutcome, String> {
    block_on(store.save(record, SavePurpose::Run, ContentProvenance::Session))
        .map_err(|error| error.to_string())
}

// ---- the child side ----------------------------------------------------------------------

/// Runs this process's role when it is a child ([`ROLE`] set); does nothing in the parent.
#[test]
fn child_process_role() {
    let Ok(role) = std::env::var(ROLE) else {
        return;
    };
    let dir = PathBuf::from(std::env::var(DIR).expect("a directory"));
    let name = std::env::var(WRITER).expect("a writer id");
    let result = match role.as_str() {
        "writer" => stream_saves(&dir, &name),
        "racer" => race(&dir, &name),
        "plant-and-save" => plant_and_save(&dir, &name),
        other => Err(format!("no role {other:?}")),
    };
    if let Err(error) = result {
        say(&format!("error {error}"));
    }
}

/// The writer: claims the record, then saves generation after generation, printing `ack <n>`
/// once a save returned `Saved`, until it is killed.
fn stream_saves(dir: &Path, name: &str) -> Result<(), String> {
    let store = store(dir, name);
    let loaded = block_on(store.load(ID, LoadPurpose::Write)).map_err(|e| e.to_string())?;
    let SessionLoadOutcome::Valid { record, .. } = loaded else {
        return Err(format!("the claiming load found {loaded:?}"));
    };
    let mut generation = generation_of(&record).ok_or("a record of no generation")?;
    say(&format!("claimed {generation}"));
    for _ in 0..100_000 {
        generation += 1;
        match save(&store, &self::record(generation))? {
            SaveOutcome::Saved => say(&format!("ack {generation}")),
            refused => return Err(format!("save {generation}: {refused:?}")),
        }
    }
    Ok(())
}

/// A racer: on `go <r>` it tries to claim the record and answers `won <r>` (and saves) or
/// `lost <r> <holder>`; on `release <r>` it releases and answers `released <r>`; it ends when
/// its stdin closes.
fn race(dir: &Path, name: &str) -> Result<(), String> {
    let store = store(dir, name);
    for line in std::io::stdin().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let (command, round) = line.split_once(' ').ok_or("a command and a round")?;
        match command {
            "go" => match block_on(store.load(ID, LoadPurpose::Write)) {
                Ok(_) => {
                    let mut record = record(0);
                    record.name = Some(format!("{name} won {round}"));
                    match save(&store, &record)? {
                        SaveOutcome::Saved => say(&format!("won {round}")),
                        refused => say(&format!("error {round} the winner's save: {refused:?}")),
                    }
                }
                Err(RecordStoreError::HasWriter(OtherWriter::Marked(holder))) => {
                    say(&format!("lost {round} {holder}"));
                }
                Err(error) => say(&format!("error {round} {error}")),
            },
            "release" => {
                block_on(store.release(&rid(ID))).map_err(|e| e.to_string())?;
                say(&format!("released {round}"));
            }
            other => return Err(format!("no command {other:?}")),
        }
    }
    Ok(())
}

/// Defect 1: plants what a killed writer of an older version leaves (64 stray temporary files
/// of each kind numbered from 0, aged) and what a killed process with this very pid leaves (more
/// than 64 of each kind, numbered as this process will number them, young), then saves.
fn plant_and_save(dir: &Path, name: &str) -> Result<(), String> {
    let pid = std::process::id();
    for n in 0..64 {
        plant(dir, &format!(".{ID}.{n}.record.tmp"), AGED);
        plant(dir, &format!(".{ID}.{n}.writer.tmp"), AGED);
    }
    for n in 0..130 {
        plant(dir, &format!(".{ID}.{pid}-{n}.writer.tmp"), Duration::ZERO);
    }
    for n in 0..300 {
        plant(dir, &format!(".{ID}.{pid}-{n}.record.tmp"), Duration::ZERO);
    }
    let store = store(dir, name);
    match save(&store, &record(1))? {
        SaveOutcome::Saved => {}
        refused => return Err(format!("the first save: {refused:?}")),
    }
    match save(&store, &record(2))? {
        SaveOutcome::Saved => {}
        refused => return Err(format!("the second save: {refused:?}")),
    }
    block_on(store.release(&rid(ID))).map_err(|e| e.to_string())?;
    say("saved");
    Ok(())
}

// ---- defect 1: strays of killed writers --------------------------------------------------

/// A fresh process saves past 64 and more strays named as an old process named them, and past
/// strays of its own pid; its claim removes the aged ones and leaves the young ones, which the
/// next claim removes once they are old.
#[test]
#[ignore = "processes and records of ~300 KB: run in release by `scripts/test.sh kill`"]
fn strays_of_killed_writers_never_stop_a_save_and_are_cleaned_up() {
    let dir = TempDir::new("strays");
    let mut child = spawn("plant-and-save", dir.path(), "planter");
    let pid = child.id();
    drop(child.stdin.take());
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_string(&mut out)
        .expect("reads");
    assert!(child.wait().expect("waits").success());
    assert!(
        said(&out).any(|line| line == "saved"),
        "the child could not save: {out}"
    );
    let probe = store(dir.path(), "parent");
    assert_eq!(
        block_on(probe.load(ID, LoadPurpose::Probe))
            .expect("loads")
            .record()
            .and_then(generation_of),
        Some(2)
    );
    // The aged strays went with the claim; the young ones (this pid's) stay, whole.
    let left = temporaries(dir.path());
    assert!(
        left.iter()
            .all(|name| name.starts_with(&format!(".{ID}.{pid}-"))),
        "{left:?}"
    );
    assert_eq!(left.len(), 130 + 300, "{left:?}");

    // Once they are old, the next claim removes them.
    for name in &left {
        age(&dir.path().join(name), AGED);
    }
    assert_eq!(save(&probe, &record(3)), Ok(SaveOutcome::Saved));
    assert_eq!(temporaries(dir.path()), Vec::<String>::new());
}

// ---- defect 2: markers appear whole ------------------------------------------------------

/// An observer samples the marker while a writer marks and unmarks again and again: what it sees
/// at any instant is what a kill at that instant would leave. It must see no marker or a whole
/// one, never one cut short.
#[test]
#[ignore = "processes and records of ~300 KB: run in release by `scripts/test.sh kill`"]
fn a_marker_is_never_seen_cut_short() {
    let dir = TempDir::new("observe");
    let medium = FileMedium::open(dir.path()).expect("opens");
    let marker = dir.path().join(format!("{ID}.writer"));
    let done = Arc::new(AtomicBool::new(false));
    let observer = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let (mut seen, mut torn) = (0_u64, Vec::new());
            while !done.load(Ordering::Relaxed) {
                if let Ok(bytes) = fs::read(&marker) {
                    seen += 1;
                    if bytes != b"w\n" && torn.len() < 8 {
                        torn.push(bytes);
                    }
                }
            }
            (seen, torn)
        })
    };
    let w = writer("w");
    let started = Instant::now();
    let mut cycles = 0;
    while cycles < 300 || (cycles < 3000 && started.elapsed() < Duration::from_secs(4)) {
        block_on(async {
            medium.mark_writer(&rid(ID), &w).await.expect("marks");
            medium.unmark_writer(&rid(ID), &w).await.expect("unmarks");
        });
        cycles += 1;
    }
    done.store(true, Ordering::Relaxed);
    let (seen, torn) = observer.join().expect("the observer ends");
    println!(
        "marker observer: {cycles} claims, {seen} markers seen, {} cut short",
        torn.len()
    );
    assert!(torn.is_empty(), "markers seen cut short: {torn:?}");
    assert_eq!(temporaries(dir.path()), Vec::<String>::new());
}

/// A marker an older version (or a foreign tool) left empty or cut short names no one: it is
/// held by [`FileMedium::UNREADABLE_MARKER`], the dead writer's own id does not recover it, and
/// `recover_writer(id, UNREADABLE_MARKER)` does.
#[test]
#[ignore = "processes and records of ~300 KB: run in release by `scripts/test.sh kill`"]
fn a_marker_left_cut_short_is_recovered_by_the_documented_call() {
    for left in [&b""[..], b"pid-4", b"pid-4\npid"] {
        let dir = TempDir::new("cut");
        let before = store(dir.path(), "pid-3");
        assert_eq!(save(&before, &record(1)), Ok(SaveOutcome::Saved));
        block_on(before.release(&rid(ID))).expect("releases");
        fs::write(dir.path().join(format!("{ID}.writer")), left).expect("plants");

        let fresh = store(dir.path(), "pid-5");
        assert_eq!(
            block_on(fresh.writer_of(&rid(ID))),
            Ok(RecordWriter::Other(OtherWriter::Marked(unreadable())))
        );
        assert_eq!(
            block_on(fresh.recover_writer(&rid(ID), &writer("pid-4"))),
            Ok(false)
        );
        assert_eq!(
            block_on(fresh.recover_writer(&rid(ID), &unreadable())),
            Ok(true)
        );
        assert_eq!(save(&fresh, &record(2)), Ok(SaveOutcome::Saved));
        assert_eq!(
            fs::read(dir.path().join(format!("{ID}.writer"))).expect("a marker"),
            b"pid-5\n"
        );
    }
}

// ---- race ---------------------------------------------------------------------------------

/// One racer child: its stdin and its stdout, line by line.
struct Racer {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Racer {
    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the racer listens");
    }

    /// The racer's next answer (a line starting with one of the protocol's words).
    fn answer(&mut self) -> String {
        loop {
            let mut line = String::new();
            let read = self.output.read_line(&mut line).expect("the racer answers");
            assert!(read > 0, "a racer ended early");
            if let Some(said) = said(&line).next() {
                return said.to_owned();
            }
        }
    }
}

/// Four processes race for the claim of one id, round after round: exactly one wins, and every
/// loser names the winner (never a marker cut short).
#[test]
#[ignore = "processes and records of ~300 KB: run in release by `scripts/test.sh kill`"]
fn processes_racing_for_a_claim_never_both_win() {
    const RACERS: usize = 4;
    const MIN_ROUNDS: u32 = 150;
    const MAX_ROUNDS: u32 = 600;
    let dir = TempDir::new("race");
    let mut racers: Vec<Racer> = (0..RACERS)
        .map(|i| {
            let mut child = spawn("racer", dir.path(), &format!("racer-{i}"));
            let input = child.stdin.take().expect("piped");
            let output = BufReader::new(child.stdout.take().expect("piped"));
            Racer {
                child,
                input,
                output,
            }
        })
        .collect();
    let started = Instant::now();
    let (mut rounds, mut violations) = (0_u32, Vec::new());
    while rounds < MAX_ROUNDS
        && (rounds < MIN_ROUNDS || started.elapsed() < Duration::from_secs(10))
    {
        for racer in &mut racers {
            racer.send(&format!("go {rounds}"));
        }
        let answers: Vec<String> = racers.iter_mut().map(Racer::answer).collect();
        let winners: Vec<usize> = (0..RACERS)
            .filter(|&i| answers[i] == format!("won {rounds}"))
            .collect();
        if winners.len() != 1 {
            violations.push(format!("round {rounds}: {answers:?}"));
        } else {
            let lost = format!("lost {rounds} racer-{}", winners[0]);
            for (i, answer) in answers.iter().enumerate() {
                if i != winners[0] && *answer != lost {
                    violations.push(format!("round {rounds}: racer {i} said {answer:?}"));
                }
            }
        }
        for racer in &mut racers {
            racer.send(&format!("release {rounds}"));
        }
        for racer in &mut racers {
            let answer = racer.answer();
            if answer != format!("released {rounds}") {
                violations.push(format!("round {rounds}: {answer:?}"));
            }
        }
        rounds += 1;
    }
    for racer in racers {
        let Racer {
            mut child, input, ..
        } = racer;
        drop(input);
        assert!(child.wait().expect("waits").success());
    }
    println!(
        "race: {RACERS} processes, {rounds} rounds, {} violations, {:.1?}",
        violations.len(),
        started.elapsed()
    );
    assert!(rounds >= MIN_ROUNDS);
    assert!(violations.is_empty(), "{violations:#?}");
}

// ---- kill ---------------------------------------------------------------------------------

/// A writer process streams saves and is killed at a seeded random moment, hundreds of times;
/// after each kill a fresh store finds the last acknowledged record or the one after it, whole,
/// recovers the dead writer's marker by its id and saves again.
#[test]
#[ignore = "processes and records of ~300 KB: run in release by `scripts/test.sh kill`"]
fn a_writer_killed_at_any_moment_leaves_a_whole_record_and_a_recoverable_claim() {
    const MIN_ROUNDS: u32 = 200;
    const MAX_ROUNDS: u32 = 600;
    const WALL: Duration = Duration::from_secs(30);
    let seed = std::env::var("AGENT_INTERFACE_KILL_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(0x6b11_1ed5_u64);
    let mut rng = Seeded::new(seed);
    let dir = TempDir::new("kill");
    let first = store(dir.path(), "parent-start");
    assert_eq!(save(&first, &record(0)), Ok(SaveOutcome::Saved));
    block_on(first.release(&rid(ID))).expect("releases");
    drop(first);

    let started = Instant::now();
    let mut last = 0_u64; // The generation stored before the round's child ran.
    let (mut rounds, mut kills, mut acks, mut cleaned, mut aged_rounds) = (0_u32, 0, 0, 0, 0);
    // Where the kills landed: before the claim, between the claim and the first acknowledged
    // save, among the saves; how often the unacknowledged save was found done; recoveries.
    let (mut before_claim, mut before_ack, mut among_saves) = (0, 0, 0);
    let (mut unacknowledged_found, mut recovered) = (0, 0);
    let mut violations: Vec<String> = Vec::new();
    while rounds < MAX_ROUNDS && (rounds < MIN_ROUNDS || started.elapsed() < WALL) {
        let name = format!("child-{rounds}");
        let context = format!("seed {seed:#x} round {rounds}");
        let mut child = spawn("writer", dir.path(), &name);
        drop(child.stdin.take());
        // Early kills land in the start-up and the claim; later ones in the saves.
        let delay = if rng.chance(1, 3) {
            rng.below(12)
        } else {
            rng.below(60)
        };
        std::thread::sleep(Duration::from_millis(delay));
        let _ = child.kill();
        let status = child.wait().expect("waits");
        let mut out = String::new();
        child
            .stdout
            .take()
            .expect("piped")
            .read_to_string(&mut out)
            .expect("reads");
        if status.signal() == Some(9) {
            kills += 1;
        } else {
            violations.push(format!(
                "{context}: the child ended by itself ({status}): {out}"
            ));
        }
        for line in said(&out).filter(|line| line.starts_with("error")) {
            violations.push(format!("{context}: the child said {line:?}"));
        }
        let acked = said(&out)
            .filter_map(|line| line.strip_prefix("ack ")?.parse::<u64>().ok())
            .max();
        acks += said(&out).filter(|line| line.starts_with("ack ")).count();
        match (said(&out).any(|line| line.starts_with("claimed ")), acked) {
            (false, _) => before_claim += 1,
            (true, None) => before_ack += 1,
            (true, Some(_)) => among_saves += 1,
        }

        // A fresh process's view: the record before the unacknowledged save, or after it.
        let fresh = store(dir.path(), &format!("parent-{rounds}"));
        let base = acked.unwrap_or(last);
        let found = match block_on(fresh.load(ID, LoadPurpose::Probe)) {
            Ok(outcome) => outcome.record().and_then(generation_of),
            Err(error) => {
                violations.push(format!("{context}: the load failed: {error}"));
                None
            }
        };
        let found = match found {
            Some(generation) if generation == base => generation,
            Some(generation) if generation == base + 1 => {
                unacknowledged_found += 1;
                generation
            }
            other => {
                violations.push(format!(
                    "{context}: expected generation {base} or {}, found {other:?}",
                    base + 1
                ));
                other.unwrap_or(base)
            }
        };

        // Recover the dead writer's claim through the documented call.
        match block_on(fresh.writer_of(&rid(ID))) {
            Ok(RecordWriter::Nobody) => {}
            Ok(RecordWriter::Other(OtherWriter::Marked(dead))) if dead.as_str() == name => {
                recovered += 1;
                if block_on(fresh.recover_writer(&rid(ID), &dead)) != Ok(true) {
                    violations.push(format!("{context}: the dead writer's marker stayed"));
                }
            }
            Ok(RecordWriter::Other(OtherWriter::Marked(dead))) if dead == unreadable() => {
                violations.push(format!("{context}: the kill left a marker cut short"));
                let _ = block_on(fresh.recover_writer(&rid(ID), &dead));
            }
            other => violations.push(format!("{context}: the writer is {other:?}")),
        }

        // Every other round, the strays look old by the next claim: it must remove them all;
        // otherwise they are young and must stay.
        let strays = temporaries(dir.path());
        let aging = rounds % 2 == 0;
        if aging {
            aged_rounds += 1;
            for stray in &strays {
                age(&dir.path().join(stray), AGED);
            }
        }
        match save(&fresh, &record(found + 1)) {
            Ok(SaveOutcome::Saved) => last = found + 1,
            other => {
                violations.push(format!("{context}: the save after the kill: {other:?}"));
                last = found;
            }
        }
        let left = temporaries(dir.path());
        if aging && !left.is_empty() {
            violations.push(format!("{context}: aged strays stayed: {left:?}"));
        }
        if !aging && left != strays {
            violations.push(format!(
                "{context}: young strays went: {strays:?} -> {left:?}"
            ));
        }
        cleaned += strays.len().saturating_sub(left.len());
        if let Err(error) = block_on(fresh.release(&rid(ID))) {
            violations.push(format!("{context}: the release failed: {error}"));
        }
        rounds += 1;
    }
    let elapsed = started.elapsed();
    println!(
        "kill: seed {seed:#x}, {rounds} rounds, {kills} kills, {acks} acknowledged saves, \
         {} violations, {cleaned} strays cleaned ({aged_rounds} rounds aged them), {elapsed:.1?}; \
         killed before the claim was reported {before_claim}, before the first ack {before_ack}, among the \
         saves {among_saves}; unacknowledged save found done {unacknowledged_found}; dead \
         markers recovered {recovered}",
        violations.len()
    );
    assert!(violations.is_empty(), "{violations:#?}");
    assert!(rounds >= MIN_ROUNDS);
    assert_eq!(
        block_on(store(dir.path(), "end").load(ID, LoadPurpose::Probe))
            .expect("loads")
            .record()
            .and_then(generation_of),
        Some(last)
    );
}

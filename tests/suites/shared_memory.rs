//! Cases of the shared-memory provider seam (`runtime::shared_memory`): the in-memory provider
//! against the conformance suite, providers with one defect per obligation failing it at their
//! case (with `StopAtFirst` and with `EveryCase`), the common suite shape of `conformance`
//! itself, the fixture's refusals, the cancellation signals, the wire forms and a seeded
//! property test of prefix reads. Uses only `core`, `alloc`, serde_json and the crate, so it also
//! runs on the firmware and wasm.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use agent_interface::agent_core::{AbortSignal, ErrorValue, NeverAborted};
use agent_interface::conformance::{self, CaseHarness, EveryCase, StopAtFirst, SuiteCase};
use agent_interface::runtime::shared_memory::testing::{
    CancelAfter, SharedMemoryCase, SharedMemoryConformanceFailure, SharedMemoryHooks,
    SharedMemoryProblem, run_shared_memory_case, run_shared_memory_conformance,
};
use agent_interface::runtime::shared_memory::*;

use crate::support::{block_on, s};

#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

/// One broken obligation a provider can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defect {
    /// Trims trailing blanks off values (not faithful).
    RewritesValues,
    /// Reports an unknown store or key as an error.
    AbsenceAsError,
    /// Drops the last entry of a prefix read with more than one.
    DropsEntry,
    /// Returns prefix reads in reverse key order.
    UnorderedPrefix,
    /// Matches a prefix by its first byte only (`é` would match `ê`).
    MatchesLeadingByte,
    /// Never looks at the signal.
    IgnoresCancellation,
    /// Honours a signal set before a prefix read, but returns what it has when it is set later.
    PartialOnCancel,
}

/// The in-memory provider with one defect.
struct Faulty {
    inner: InMemorySharedMemory,
    defect: Defect,
}

fn faulty(defect: Defect) -> impl FnMut(SharedMemoryFixture) -> Faulty {
    move |contents| Faulty {
        inner: InMemorySharedMemory::new(contents),
        defect,
    }
}

fn not_found() -> SharedMemoryReadError {
    SharedMemoryReadError::Unavailable(ErrorValue::new("NotFoundError", "no such entry"))
}

impl Faulty {
    fn signal<'a>(&self, signal: &'a dyn AbortSignal) -> &'a dyn AbortSignal {
        if self.defect == Defect::IgnoresCancellation {
            &NeverAborted
        } else {
            signal
        }
    }

    fn absence<T>(&self, answer: Option<T>) -> Result<Option<T>, SharedMemoryReadError> {
        match answer {
            None if self.defect == Defect::AbsenceAsError => Err(not_found()),
            answer => Ok(answer),
        }
    }
}

impl SharedMemoryProvider for Faulty {
    async fn snapshot(
        &self,
        signal: &dyn AbortSignal,
    ) -> Result<SharedMemorySnapshot, SharedMemoryReadError> {
        self.inner.snapshot(self.signal(signal)).await
    }

    async fn store_info(
        &self,
        store: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<SharedMemoryStoreInfo>, SharedMemoryReadError> {
        let info = self.inner.store_info(store, self.signal(signal)).await?;
        self.absence(info)
    }

    async fn read_entry(
        &self,
        store: &str,
        key: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<String>, SharedMemoryReadError> {
        let value = self
            .inner
            .read_entry(store, key, self.signal(signal))
            .await?;
        let value = match self.defect {
            Defect::RewritesValues => value.map(|value| String::from(value.trim_end())),
            _ => value,
        };
        self.absence(value)
    }

    async fn read_prefix(
        &self,
        store: &str,
        prefix: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<Vec<SharedMemoryEntry>>, SharedMemoryReadError> {
        let contents = self.inner.contents();
        let entries = match self.defect {
            Defect::MatchesLeadingByte => {
                if signal.is_aborted() {
                    return Err(SharedMemoryReadError::Cancelled);
                }
                contents.entries(store).map(|entries| {
                    entries
                        .filter(|(key, _)| {
                            prefix.is_empty() || key.as_bytes().first() == prefix.as_bytes().first()
                        })
                        .map(|(key, value)| SharedMemoryEntry::new(key, value))
                        .collect()
                })
            }
            Defect::PartialOnCancel => {
                if signal.is_aborted() {
                    return Err(SharedMemoryReadError::Cancelled);
                }
                contents.prefixed(store, prefix).map(|entries| {
                    entries
                        .take_while(|_| !signal.is_aborted())
                        .map(|(key, value)| SharedMemoryEntry::new(key, value))
                        .collect()
                })
            }
            _ => {
                self.inner
                    .read_prefix(store, prefix, self.signal(signal))
                    .await?
            }
        };
        let entries = entries.map(|mut entries: Vec<SharedMemoryEntry>| {
            match self.defect {
                Defect::DropsEntry if entries.len() > 1 => {
                    entries.pop();
                }
                Defect::UnorderedPrefix => entries.reverse(),
                _ => {}
            }
            entries
        });
        self.absence(entries)
    }
}

/// Hooks whose providers all read one shared map: each `make` adds its stores to it.
#[derive(Default)]
struct Leaky {
    shared: Rc<RefCell<BTreeMap<String, SharedMemoryStoreFixture>>>,
}

struct LeakyProvider {
    state: SharedMemoryState,
    shared: Rc<RefCell<BTreeMap<String, SharedMemoryStoreFixture>>>,
}

impl LeakyProvider {
    fn view(&self) -> InMemorySharedMemory {
        let stores = self.shared.borrow().values().cloned().collect::<Vec<_>>();
        InMemorySharedMemory::new(
            SharedMemoryFixture::new(self.state.clone(), stores).expect("unique by id"),
        )
    }
}

impl SharedMemoryHooks for Leaky {
    type Provider = LeakyProvider;

    async fn make(&mut self, contents: SharedMemoryFixture) -> Result<LeakyProvider, ErrorValue> {
        for store in contents.store_fixtures() {
            self.shared
                .borrow_mut()
                .insert(store.info.id.clone(), store);
        }
        Ok(LeakyProvider {
            state: contents.state().clone(),
            shared: Rc::clone(&self.shared),
        })
    }
}

impl SharedMemoryProvider for LeakyProvider {
    async fn snapshot(
        &self,
        signal: &dyn AbortSignal,
    ) -> Result<SharedMemorySnapshot, SharedMemoryReadError> {
        self.view().snapshot(signal).await
    }

    async fn store_info(
        &self,
        store: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<SharedMemoryStoreInfo>, SharedMemoryReadError> {
        self.view().store_info(store, signal).await
    }

    async fn read_entry(
        &self,
        store: &str,
        key: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<String>, SharedMemoryReadError> {
        self.view().read_entry(store, key, signal).await
    }

    async fn read_prefix(
        &self,
        store: &str,
        prefix: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<Vec<SharedMemoryEntry>>, SharedMemoryReadError> {
        self.view().read_prefix(store, prefix, signal).await
    }
}

/// Hooks that cannot make a provider.
struct NoBackend;

impl SharedMemoryHooks for NoBackend {
    type Provider = InMemorySharedMemory;

    async fn make(&mut self, _: SharedMemoryFixture) -> Result<InMemorySharedMemory, ErrorValue> {
        Err(ErrorValue::new("Error", "no backend"))
    }
}

fn run_stop<H: SharedMemoryHooks>(hooks: &mut H) -> Result<(), SharedMemoryConformanceFailure> {
    block_on(run_shared_memory_conformance(hooks, &mut StopAtFirst))
}

fn run_every<H: SharedMemoryHooks>(
    hooks: &mut H,
) -> EveryCase<SharedMemoryCase, SharedMemoryConformanceFailure> {
    let mut every = EveryCase::new();
    let outcome = block_on(run_shared_memory_conformance(hooks, &mut every));
    assert_eq!(outcome, Ok(()), "EveryCase records failures and goes on");
    let ran: Vec<SharedMemoryCase> = every.results.iter().map(|(case, _)| *case).collect();
    assert_eq!(ran, SharedMemoryCase::ALL, "one result per case, in order");
    every
}

/// Each defect and the one case it must fail.
const DEFECTS: [(Defect, SharedMemoryCase); 7] = [
    (Defect::RewritesValues, SharedMemoryCase::Faithfulness),
    (Defect::AbsenceAsError, SharedMemoryCase::AbsenceIsAValue),
    (Defect::DropsEntry, SharedMemoryCase::PrefixCompleteness),
    (
        Defect::UnorderedPrefix,
        SharedMemoryCase::PrefixCompleteness,
    ),
    (
        Defect::MatchesLeadingByte,
        SharedMemoryCase::PrefixCompleteness,
    ),
    (Defect::IgnoresCancellation, SharedMemoryCase::Cancellation),
    (Defect::PartialOnCancel, SharedMemoryCase::Cancellation),
];

fn state(revision: u64) -> SharedMemoryState {
    SharedMemoryState {
        revision,
        taken_at_ms: None,
    }
}

fn store(id: &str, entries: &[(&str, &str)]) -> SharedMemoryStoreFixture {
    SharedMemoryStoreFixture::new(SharedMemoryStoreInfo::new(id), entries.iter().copied())
}

fn small() -> InMemorySharedMemory {
    let contents = SharedMemoryFixture::new(
        state(3),
        [
            store(
                "notes",
                &[("é", "acute"), ("ê", "circumflex"), ("é/1", "under")],
            ),
            store("team", &[]),
        ],
    )
    .expect("valid");
    InMemorySharedMemory::new(contents)
}

fn asks<S: AbortSignal>(signal: S) -> bool {
    signal.is_aborted()
}

fn keys(entries: Option<Vec<SharedMemoryEntry>>) -> Option<Vec<String>> {
    entries.map(|entries| entries.into_iter().map(|entry| entry.key).collect())
}

/// A toy suite for the `conformance` module's own tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Toy {
    One,
    Two,
    Three,
}

impl SuiteCase for Toy {
    const ALL: &'static [Self] = &[Toy::One, Toy::Two, Toy::Three];
}

/// Fails `Two`, records every case it runs.
async fn toy_case(ran: &RefCell<Vec<Toy>>, case: Toy) -> Result<(), &'static str> {
    ran.borrow_mut().push(case);
    if case == Toy::Two { Err("two") } else { Ok(()) }
}

/// A harness that writes one line per case and stops after `budget` cases, whatever they did.
struct Budget {
    lines: Vec<String>,
    budget: usize,
}

impl CaseHarness<Toy, &'static str> for Budget {
    async fn case(
        &mut self,
        case: Toy,
        run: impl Future<Output = Result<(), &'static str>>,
    ) -> Result<(), &'static str> {
        if self.lines.len() == self.budget {
            return Err("over budget");
        }
        let outcome = run.await;
        self.lines.push(format!("{case:?}: {outcome:?}"));
        Ok(())
    }
}

cases! {
    mod suite {
        fn the_in_memory_provider_passes_the_suite() {
            assert_eq!(run_stop(&mut InMemorySharedMemory::new), Ok(()));
            for &case in SharedMemoryCase::ALL {
                let outcome = block_on(run_shared_memory_case(&mut InMemorySharedMemory::new, case));
                assert_eq!(outcome, Ok(()), "{case:?}");
            }
            let every = run_every(&mut InMemorySharedMemory::new);
            assert!(every.all_passed());
        }

        fn a_provider_without_defects_passes_the_suite() {
            // The wrapper itself is sound: only the defects make it fail.
            let mut hooks = |contents| InMemorySharedMemory::new(contents);
            assert_eq!(run_stop(&mut hooks), Ok(()));
            let mut leaky_once = Leaky::default();
            for &case in &SharedMemoryCase::ALL[..4] {
                let outcome = block_on(run_shared_memory_case(&mut leaky_once, case));
                assert_eq!(outcome, Ok(()), "a shared map is invisible with one contents: {case:?}");
            }
        }

        fn each_defect_fails_at_its_case() {
            for (defect, case) in DEFECTS {
                let failure = run_stop(&mut faulty(defect)).expect_err("a defective provider fails");
                assert_eq!(failure.case, case, "{defect:?}: {failure}");
                let text = format!("{failure}");
                assert!(text.contains(&format!("{case:?}")) && text.contains(failure.check), "{text}");
            }
            let failure = run_stop(&mut Leaky::default()).expect_err("a leaking provider fails");
            assert_eq!(failure.case, SharedMemoryCase::Isolation, "{failure}");
        }

        fn with_every_case_a_defect_fails_only_its_case() {
            for (defect, case) in DEFECTS {
                let every = run_every(&mut faulty(defect));
                let failed: Vec<SharedMemoryCase> = every.failures().map(|(case, _)| *case).collect();
                assert_eq!(failed, [case], "{defect:?}");
                assert!(!every.all_passed());
            }
            let every = run_every(&mut Leaky::default());
            let failed: Vec<SharedMemoryCase> = every.failures().map(|(case, _)| *case).collect();
            assert_eq!(failed, [SharedMemoryCase::Isolation]);
        }

        fn failures_say_which_check_and_why() {
            let failure = run_stop(&mut faulty(Defect::RewritesValues)).expect_err("fails");
            assert_eq!(failure.check, "each store's info and each entry's value read back byte for byte");
            assert!(
                matches!(&*failure.problem, SharedMemoryProblem::WrongValue { store, key, expected: Some(expected), received: Some(received) }
                    if store == "notes" && key == "a/b" && expected == "line one\r\nline two\n" && received == "line one\r\nline two"),
                "{failure}"
            );
            let failure = run_stop(&mut faulty(Defect::AbsenceAsError)).expect_err("fails");
            assert_eq!(failure.check, "an unknown store has no info");
            assert_eq!(*failure.problem, SharedMemoryProblem::AbsenceReportedAsError(not_found()));
            assert!(format!("{failure}").contains("absence was reported as an error"));
            let failure = run_stop(&mut faulty(Defect::DropsEntry)).expect_err("fails");
            assert!(
                matches!(&*failure.problem, SharedMemoryProblem::WrongEntries { prefix, expected: Some(expected), received: Some(received), .. }
                    if prefix.is_empty() && received.len() + 1 == expected.len()),
                "{failure}"
            );
            let failure = run_stop(&mut faulty(Defect::MatchesLeadingByte)).expect_err("fails");
            assert!(
                matches!(&*failure.problem, SharedMemoryProblem::WrongEntries { prefix, .. } if prefix == "a/"),
                "{failure}"
            );
            let failure = run_stop(&mut faulty(Defect::IgnoresCancellation)).expect_err("fails");
            assert_eq!(failure.check, "a read whose signal is set before it starts is cancelled");
            assert_eq!(*failure.problem, SharedMemoryProblem::NotCancelled);
            let failure = run_stop(&mut faulty(Defect::PartialOnCancel)).expect_err("fails");
            assert_eq!(failure.check, "a read cancelled while it runs returns no part of its answer");
            assert!(
                matches!(*failure.problem, SharedMemoryProblem::PartialAnswer { expected, received } if received < expected),
                "{failure}"
            );
            assert!(format!("{failure}").contains("instead of the cancellation outcome"));
            let failure = run_stop(&mut Leaky::default()).expect_err("fails");
            assert_eq!(failure.check, "a provider's snapshot holds only its own contents");
            assert!(matches!(&*failure.problem, SharedMemoryProblem::WrongSnapshot { .. }), "{failure}");
            let failure = run_stop(&mut NoBackend).expect_err("fails");
            assert_eq!(failure.case, SharedMemoryCase::Faithfulness);
            assert_eq!(*failure.problem, SharedMemoryProblem::Fixture(ErrorValue::new("Error", "no backend")));
            assert!(format!("{failure}").contains("no backend"));
        }

        fn a_fresh_provider_is_made_per_case() {
            let made = Cell::new(0_usize);
            let mut hooks = |contents| {
                made.set(made.get() + 1);
                InMemorySharedMemory::new(contents)
            };
            assert_eq!(run_stop(&mut hooks), Ok(()));
            // One per case, and two for isolation.
            assert_eq!(made.get(), SharedMemoryCase::ALL.len() + 1);
        }
    }

    mod shape {
        fn stop_at_first_stops_at_the_first_failure() {
            let ran = RefCell::new(Vec::new());
            let outcome = block_on(conformance::run_suite(&mut StopAtFirst, async |case| {
                toy_case(&ran, case).await
            }));
            assert_eq!(outcome, Err("two"));
            assert_eq!(*ran.borrow(), [Toy::One, Toy::Two]);
        }

        fn every_case_runs_every_case_and_keeps_each_result() {
            let ran = RefCell::new(Vec::new());
            let mut every = EveryCase::new();
            let outcome = block_on(conformance::run_suite(&mut every, async |case| {
                toy_case(&ran, case).await
            }));
            assert_eq!(outcome, Ok(()));
            assert_eq!(*ran.borrow(), Toy::ALL);
            assert_eq!(every.results, [(Toy::One, Ok(())), (Toy::Two, Err("two")), (Toy::Three, Ok(()))]);
            assert_eq!(every.failures().collect::<Vec<_>>(), [(&Toy::Two, &"two")]);
            assert!(!every.all_passed());
            assert_eq!(every.result_of(Toy::Three), Some(&Ok(())));
            assert_eq!(every.result_of(Toy::Two), Some(&Err("two")));
            let nothing: EveryCase<Toy, &str> = EveryCase::default();
            assert!(!nothing.all_passed(), "an empty run is not a pass");
            assert_eq!(nothing.result_of(Toy::One), None);
        }

        fn cases_run_in_table_order() {
            let ran = RefCell::new(Vec::new());
            let mut every = EveryCase::new();
            let outcome = block_on(conformance::run_cases(&mut every, &[Toy::Three, Toy::One], async |case| {
                toy_case(&ran, case).await
            }));
            assert_eq!(outcome, Ok(()));
            assert_eq!(*ran.borrow(), [Toy::Three, Toy::One]);
            assert!(every.all_passed());
            assert_eq!(SharedMemoryCase::ALL, [
                SharedMemoryCase::Faithfulness,
                SharedMemoryCase::AbsenceIsAValue,
                SharedMemoryCase::PrefixCompleteness,
                SharedMemoryCase::Cancellation,
                SharedMemoryCase::Isolation,
            ]);
        }

        fn a_harness_wraps_each_case_and_may_end_the_run() {
            let ran = RefCell::new(Vec::new());
            let mut harness = Budget { lines: Vec::new(), budget: 2 };
            let outcome = block_on(conformance::run_suite(&mut harness, async |case| {
                toy_case(&ran, case).await
            }));
            assert_eq!(outcome, Err("over budget"));
            assert_eq!(harness.lines, [s("One: Ok(())"), s("Two: Err(\"two\")")]);
            assert_eq!(*ran.borrow(), [Toy::One, Toy::Two], "the third case never started");
        }
    }

    mod seam {
        fn the_fixture_refuses_empty_and_repeated_names() {
            let refused = |stores: Vec<SharedMemoryStoreFixture>| {
                SharedMemoryFixture::new(state(1), stores).expect_err("refused")
            };
            assert_eq!(refused(vec![store("", &[])]), SharedMemoryFixtureError::EmptyStoreId);
            assert_eq!(
                refused(vec![store("a", &[]), store("a", &[("k", "v")])]),
                SharedMemoryFixtureError::DuplicateStore { id: s("a") }
            );
            assert_eq!(
                refused(vec![store("a", &[("", "v")])]),
                SharedMemoryFixtureError::EmptyKey { store: s("a") }
            );
            let twice = refused(vec![store("a", &[("k", "1"), ("k", "2")])]);
            assert_eq!(twice, SharedMemoryFixtureError::DuplicateKey { store: s("a"), key: s("k") });
            assert_eq!(format!("{twice}"), "store \"a\" has the key \"k\" twice");
            assert_eq!(format!("{}", SharedMemoryFixtureError::EmptyStoreId), "a shared-memory store has an empty id");
            let ok = SharedMemoryFixture::new(state(1), [store("a", &[("k", "v")]), store("b", &[("k", "w")])]);
            assert!(ok.is_ok(), "the same key in two stores is fine");
        }

        fn prefixes_match_whole_characters_in_key_order() {
            let provider = small();
            let read = |prefix: &str| keys(block_on(provider.read_prefix("notes", prefix, &NeverAborted)).expect("answers"));
            assert_eq!(read("é"), Some(vec![s("é"), s("é/1")]), "é (C3 A9) does not match ê (C3 AA)");
            assert_eq!(read(""), Some(vec![s("é"), s("é/1"), s("ê")]));
            assert_eq!(read("é/1"), Some(vec![s("é/1")]), "a prefix that is a key matches it");
            assert_eq!(read("e"), Some(vec![]));
            assert_eq!(keys(block_on(provider.read_prefix("team", "", &NeverAborted)).expect("answers")), Some(vec![]));
            assert_eq!(block_on(provider.read_prefix("other", "", &NeverAborted)), Ok(None));
            assert_eq!(block_on(provider.read_entry("notes", "ê", &NeverAborted)), Ok(Some(s("circumflex"))));
            assert_eq!(block_on(provider.read_entry("notes", "e\u{302}", &NeverAborted)), Ok(None), "no normalisation");
            assert_eq!(block_on(provider.store_info("team", &NeverAborted)), Ok(Some(SharedMemoryStoreInfo::new("team"))));
            assert_eq!(block_on(provider.store_info("other", &NeverAborted)), Ok(None));
            let snapshot = block_on(provider.snapshot(&NeverAborted)).expect("answers");
            assert_eq!(snapshot, provider.contents().snapshot());
            assert_eq!(snapshot.stores.iter().map(|info| info.id.as_str()).collect::<Vec<_>>(), ["notes", "team"]);
        }

        fn signals_cancel_reads_without_partial_answers() {
            assert!(!NeverAborted.is_aborted());
            assert!(true.is_aborted() && !false.is_aborted());
            let flag = Cell::new(false);
            assert!(!flag.is_aborted());
            flag.set(true);
            assert!(asks(&flag), "a reference to a signal is a signal");
            let after = CancelAfter::new(2);
            assert_eq!([after.is_aborted(), after.is_aborted(), after.is_aborted(), after.is_aborted()], [false, false, true, true]);

            let provider = small();
            assert_eq!(block_on(provider.read_entry("notes", "é", &flag)), Err(SharedMemoryReadError::Cancelled));
            assert_eq!(block_on(provider.store_info("nothing", &flag)), Err(SharedMemoryReadError::Cancelled), "checked before answering, even absence");
            // Three entries: asked before answering and between entries, so a signal set after
            // one or two checks cancels; with three clear checks the read is whole.
            for clear in 0..3 {
                assert_eq!(block_on(provider.read_prefix("notes", "", &CancelAfter::new(clear))), Err(SharedMemoryReadError::Cancelled), "{clear}");
            }
            assert_eq!(keys(block_on(provider.read_prefix("notes", "", &CancelAfter::new(3))).expect("whole")).map(|k| k.len()), Some(3));
            assert_eq!(block_on(provider.snapshot(&CancelAfter::new(1))), Err(SharedMemoryReadError::Cancelled));
            assert_eq!(format!("{}", SharedMemoryReadError::Cancelled), "the shared-memory read was cancelled");
            assert_eq!(format!("{}", not_found()), "shared memory is unavailable: NotFoundError: no such entry");
        }

        fn prefix_reads_equal_a_filter_of_every_key() {
            const SEED: u64 = 0x5EED_0011_0001;
            let mut rng = Seeded::new(SEED);
            let pieces = ["a", "b", "/", "é", "ê", "e\u{301}", "日", "本", "🙂", "\u{0}"];
            for round in 0..40 {
                let mut entries = BTreeMap::new();
                for _ in 0..rng.below(12) {
                    let mut key = String::new();
                    for _ in 0..=rng.below(4) {
                        key.push_str(rng.pick::<&str>(&pieces));
                    }
                    let value = format!("{round}:{key}");
                    entries.insert(key, value);
                }
                let fixture = SharedMemoryFixture::new(state(round), [SharedMemoryStoreFixture::new(SharedMemoryStoreInfo::new("s"), entries.clone())]).expect("unique keys");
                let provider = InMemorySharedMemory::new(fixture);
                for _ in 0..8 {
                    let mut prefix = String::new();
                    for _ in 0..rng.below(3) {
                        prefix.push_str(rng.pick::<&str>(&pieces));
                    }
                    let expected: Vec<SharedMemoryEntry> = entries
                        .iter()
                        .filter(|(key, _)| key.as_bytes().starts_with(prefix.as_bytes()))
                        .map(|(key, value)| SharedMemoryEntry::new(key, value))
                        .collect();
                    let read = block_on(provider.read_prefix("s", &prefix, &NeverAborted));
                    assert_eq!(read, Ok(Some(expected)), "seed {SEED:#x}, round {round}, prefix {prefix:?}");
                }
            }
        }
    }
}

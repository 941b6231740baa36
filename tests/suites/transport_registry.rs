//! Cases of the transport runtime's lifecycle half: the lifecycle guard, the bound form, the
//! reference in-memory adapters against `transport::testing` (and adapters with one defect each
//! failing it), and the registry (registration, start-all with rollback, both waits, stop-all,
//! the settings view). Uses only `core`, `alloc`, serde_json, embassy-futures and the crate, so
//! it also runs on the firmware and wasm.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::future::poll_fn;
use core::num::NonZeroU8;
use core::task::Poll;

use agent_interface::agent_core::{ErrorValue, ValueMap};
use agent_interface::conformance::{EveryCase, StopAtFirst, SuiteCase};
use agent_interface::runtime::transport::{
    BoundTransport, InMemoryRunner, InMemoryService, InMemoryTransportSettings, LifecycleGuard,
    LifecyclePhase, StartSettled, StopTransition, TransportRegistration, TransportRegistry,
};
use agent_interface::transport::testing::{
    LifecycleCase, LifecycleProblem, LifecycleStep, run_runner_lifecycle_conformance,
    run_service_lifecycle_conformance,
};
use agent_interface::transport::{adapters::*, config::*, outcomes::*};
use embassy_futures::join::join;
use embassy_futures::yield_now;

use crate::support::{block_on, decode, s, to_json};

#[path = "transport_fixtures.rs"]
mod fixtures;

use fixtures::*;

type Log = Rc<RefCell<Vec<String>>>;

fn code(n: u8) -> NonZeroU8 {
    NonZeroU8::new(n).expect("non-zero")
}

fn failed(n: u8) -> TransportRunOutcome {
    TransportRunOutcome::Failed { exit_code: code(n) }
}

fn options(json: &str) -> ValueMap {
    decode(&serde_json::from_str(json).expect("test JSON"))
}

// ---- a gate a test opens to let a pending start go on -----------------------------------

#[derive(Default)]
struct Gate(Cell<bool>);

impl Gate {
    async fn passed(&self) {
        poll_fn(|_| {
            if self.0.get() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
    }
}

// ---- a probe: a bound in-memory adapter that logs and fails on request ------------------

struct Probe<A> {
    bound: BoundTransport<A, String>,
    log: Log,
    fail_start: bool,
    fail_stop: bool,
    gate: Option<Rc<Gate>>,
}

fn probe<A: TransportAdapter<String>>(adapter: A, log: &Log) -> Probe<A> {
    Probe {
        bound: BoundTransport::new(adapter, s("session")),
        log: log.clone(),
        fail_start: false,
        fail_stop: false,
        gate: None,
    }
}

fn runner(name: &str, log: &Log) -> Probe<InMemoryRunner<String>> {
    probe(InMemoryRunner::new(name), log)
}

fn service(name: &str, log: &Log) -> Probe<InMemoryService<String>> {
    probe(InMemoryService::new(name), log)
}

impl<A: TransportAdapter<String>> Probe<A> {
    fn failing_start(mut self) -> Self {
        self.fail_start = true;
        self
    }

    fn failing_stop(mut self) -> Self {
        self.fail_stop = true;
        self
    }

    fn gated(mut self, gate: &Rc<Gate>) -> Self {
        self.gate = Some(gate.clone());
        self
    }
}

impl<A: TransportAdapter<String>> BoundTransportAdapter for Probe<A> {
    const KIND: TransportLifecycleKind = A::KIND;

    fn name(&self) -> &str {
        self.bound.name()
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        self.log.borrow_mut().push(format!("start {}", self.name()));
        if let Some(gate) = &self.gate {
            gate.passed().await;
        }
        if self.fail_start {
            return Err(TransportStartFailure::Failed(ErrorValue::new(
                "Error", "boom",
            )));
        }
        self.bound.start().await
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        self.log.borrow_mut().push(format!("stop {}", self.name()));
        if let Some(gate) = &self.gate {
            gate.passed().await;
        }
        self.bound.stop().await?;
        if self.fail_stop {
            return Err(ErrorValue::new("Error", "port stuck"));
        }
        Ok(())
    }
}

impl<A: TransportRunnerAdapter<String>> BoundTransportRunnerAdapter for Probe<A> {
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault> {
        self.bound.wait_for_completion().await
    }
}

impl<A: TransportServiceAdapter<String>> BoundTransportServiceAdapter for Probe<A> {}

/// Settings for a probe: default-enabled, with a schema, accepting options whose `port` is a
/// number, and applying them (recording what it got) unless it has no way to.
struct Configured<P> {
    probe: P,
    default_enabled: bool,
    applies: bool,
    applied: RefCell<Vec<ValueMap>>,
    schema: TransportOptionsSchema,
}

fn configured<P>(probe: P, default_enabled: bool, applies: bool) -> Configured<P> {
    let mut schema = TransportOptionsSchema::new();
    schema.insert(
        s("port"),
        TransportOptionSchema::new("number", "The port to listen on."),
    );
    Configured {
        probe,
        default_enabled,
        applies,
        applied: RefCell::new(Vec::new()),
        schema,
    }
}

impl<P> TransportSettingsCapability for Configured<P> {
    fn default_enabled(&self) -> bool {
        self.default_enabled
    }

    fn options_schema(&self) -> Option<&TransportOptionsSchema> {
        Some(&self.schema)
    }

    fn validate_options(&self, options: &ValueMap) -> bool {
        options.get("port").is_none_or(|port| port.is_u64())
    }

    fn configure(&self, options: &ValueMap) -> Result<(), TransportConfigurationErrorCode> {
        if !self.applies && !options.is_empty() {
            return Err(TransportConfigurationErrorCode::OptionsNotApplicable);
        }
        self.applied.borrow_mut().push(options.clone());
        Ok(())
    }
}

impl<P: BoundTransportAdapter> BoundTransportAdapter for Configured<P> {
    const KIND: TransportLifecycleKind = P::KIND;

    fn name(&self) -> &str {
        self.probe.name()
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        self.probe.start().await
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        self.probe.stop().await
    }
}

impl<P: BoundTransportServiceAdapter> BoundTransportServiceAdapter for Configured<P> {}

impl<P: BoundTransportRunnerAdapter> BoundTransportRunnerAdapter for Configured<P> {
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault> {
        self.probe.wait_for_completion().await
    }
}

fn complete(
    probe: &Probe<InMemoryRunner<String>>,
    result: Result<TransportRunOutcome, TransportRunnerFault>,
) {
    assert!(
        probe.bound.adapter().complete(result),
        "first completion of the run"
    );
}

fn logged(log: &Log) -> Vec<String> {
    log.borrow().clone()
}

cases! {
    mod lifecycle {
        fn start_before_attach_is_not_attached() {
            let guard: LifecycleGuard<String> = LifecycleGuard::new("ws");
            assert_eq!(guard.phase(), LifecyclePhase::Detached);
            let error = guard.begin_start().err().expect("refused");
            assert_eq!(error.code, TransportLifecycleErrorCode::NotAttached);
            assert_eq!(error.transport_name, "ws");
            assert_eq!(guard.phase(), LifecyclePhase::Detached, "a refusal changes nothing");
        }

        fn second_start_and_attach_while_active_are_already_started() {
            let guard = LifecycleGuard::new("ws");
            guard.attach(s("one")).expect("attach");
            let (permit, session) = guard.begin_start().expect("start");
            assert_eq!(session, "one");
            assert_eq!(guard.phase(), LifecyclePhase::Starting);
            let busy = guard.begin_start().err().expect("refused while starting");
            assert_eq!(busy.code, TransportLifecycleErrorCode::AlreadyStarted);
            assert_eq!(permit.started(), StartSettled::Active);
            let again = guard.begin_start().err().expect("refused while active");
            assert_eq!(again.code, TransportLifecycleErrorCode::AlreadyStarted);
            let attach = guard.attach(s("two")).expect_err("attach refused while active");
            assert_eq!(attach.code, TransportLifecycleErrorCode::AlreadyStarted);
            assert_eq!(guard.phase(), LifecyclePhase::Active);
        }

        fn stop_is_idempotent_and_detaches() {
            let guard = LifecycleGuard::new("ws");
            assert_eq!(guard.stop(), StopTransition::AlreadyStopped, "stop before start");
            guard.attach(s("one")).expect("attach");
            let (permit, _) = guard.begin_start().expect("start");
            let _ = permit.started();
            assert_eq!(guard.stop(), StopTransition::Stopped);
            assert_eq!(guard.stop(), StopTransition::AlreadyStopped);
            assert_eq!(guard.phase(), LifecyclePhase::Detached);
            let error = guard.begin_start().err().expect("no session after stop");
            assert_eq!(error.code, TransportLifecycleErrorCode::NotAttached);
            guard.attach(s("two")).expect("fresh attach");
            let (permit, session) = guard.begin_start().expect("restart");
            assert_eq!(session, "two");
            assert_eq!(permit.started(), StartSettled::Active);
        }

        fn attach_replaces_an_attached_session() {
            let guard = LifecycleGuard::new("ws");
            guard.attach(s("one")).expect("attach");
            guard.attach(s("two")).expect("re-attach before start");
            let (_permit, session) = guard.begin_start().expect("start");
            assert_eq!(session, "two");
        }

        fn dropped_permit_fails_the_start_and_stop_during_start_wins() {
            let guard = LifecycleGuard::new("ws");
            guard.attach(s("one")).expect("attach");
            drop(guard.begin_start().expect("start"));
            assert_eq!(guard.phase(), LifecyclePhase::Detached, "a failed start detaches");
            guard.attach(s("two")).expect("attach");
            let (permit, _) = guard.begin_start().expect("start");
            assert_eq!(guard.stop(), StopTransition::Stopped, "stop while starting");
            assert_eq!(permit.started(), StartSettled::StoppedMeanwhile);
            assert_eq!(guard.phase(), LifecyclePhase::Detached);
        }

        fn bound_form_attaches_a_clone_on_every_start() {
            let bound = BoundTransport::new(InMemoryService::new("ws"), s("captured"));
            assert_eq!(bound.lifecycle(), TransportLifecycle::SERVICE);
            block_on(bound.start()).expect("bound start");
            assert_eq!(bound.adapter().with_session(|s| s.cloned()), Some(s("captured")));
            let again = block_on(bound.start()).expect_err("already started");
            assert_eq!(again.lifecycle_code(), Some(TransportLifecycleErrorCode::AlreadyStarted));
            block_on(bound.stop()).expect("stop");
            assert_eq!(bound.adapter().with_session(|s| s.cloned()), None);
            block_on(bound.start()).expect("restart attaches again");
        }

        fn runner_completion_is_shared_and_first_result_wins() {
            let runner: InMemoryRunner<String> = InMemoryRunner::new("headless");
            runner.attach(s("one")).expect("attach");
            block_on(runner.start()).expect("start");
            assert!(runner.complete(Ok(failed(3))));
            assert!(!runner.complete(Ok(TransportRunOutcome::Succeeded)), "a second result is ignored");
            assert_eq!(block_on(runner.wait_for_completion()), Ok(failed(3)));
            assert_eq!(block_on(runner.wait_for_completion()), Ok(failed(3)));
            assert_eq!(
                TransportRunOutcome::from_exit_status(256),
                Err(TransportRunnerFault::Malformed { exit_code: 256 })
            );
            assert_eq!(TransportRunOutcome::from_exit_status(0), Ok(TransportRunOutcome::Succeeded));
            assert_eq!(TransportRunOutcome::from_exit_status(-1).err().map(|f| format!("{f}")),
                Some(s("the runner reported exit status -1, which is no run outcome")));
        }

        fn reference_adapters_pass_the_suite() {
            let mut service = ServiceFixture;
            block_on(run_service_lifecycle_conformance(&mut service, &mut StopAtFirst)).expect("service conforms");
            let mut runner = RunnerFixture;
            block_on(run_runner_lifecycle_conformance(&mut runner, &mut StopAtFirst)).expect("runner conforms");
            let mut defect_free = fixture::<true>(Defect::None);
            block_on(run_runner_lifecycle_conformance(&mut defect_free, &mut StopAtFirst)).expect("conforms");
            assert_eq!(defect_free.created as usize, LifecycleCase::RUNNER.len(), "a fresh adapter per case");
        }

        fn each_profile_runs_its_own_table_through_the_harness() {
            let mut every = EveryCase::new();
            block_on(run_service_lifecycle_conformance(&mut ServiceFixture, &mut every)).expect("EveryCase goes on");
            let ran: Vec<LifecycleCase> = every.results.iter().map(|(case, _)| *case).collect();
            assert_eq!(ran, LifecycleCase::SERVICE);
            assert!(every.all_passed());
            let mut every = EveryCase::new();
            block_on(run_runner_lifecycle_conformance(&mut RunnerFixture, &mut every)).expect("EveryCase goes on");
            let ran: Vec<LifecycleCase> = every.results.iter().map(|(case, _)| *case).collect();
            assert_eq!(ran, LifecycleCase::ALL);
            assert!(every.all_passed());
            // A runner whose completion settles early fails that case only; the rest still run.
            let mut defective = fixture::<true>(Defect::CompletionSettlesEarly);
            let mut every = EveryCase::new();
            block_on(run_runner_lifecycle_conformance(&mut defective, &mut every)).expect("EveryCase goes on");
            assert_eq!(every.results.len(), LifecycleCase::ALL.len());
            let failed: Vec<LifecycleCase> = every.failures().map(|(case, _)| *case).collect();
            assert_eq!(failed, [LifecycleCase::CompletionHeldPending]);
            assert_eq!(defective.created as usize, LifecycleCase::ALL.len(), "a fresh adapter per case");
        }

        fn kind_mismatch_fails() {
            // A runner-kind adapter run as a service.
            let mut wrong = fixture::<true>(Defect::None);
            let failure = block_on(run_service_lifecycle_conformance(&mut wrong, &mut StopAtFirst)).expect_err("mismatch");
            assert_eq!(failure.case, LifecycleCase::KindMatches);
            assert_eq!(failure.problem, LifecycleProblem::KindMismatch {
                expected: TransportLifecycleKind::Service,
                received: TransportLifecycleKind::Runner,
            });
            assert_eq!(format!("{failure}"),
                "lifecycle conformance KindMatches: expected service lifecycle, received runner");
        }

        fn start_before_attach_defects_fail() {
            let (case, problem) = service_problem(Defect::StartWithoutAttachResolves).expect("fails");
            assert_eq!(case, LifecycleCase::StartBeforeAttach);
            assert_eq!(problem, LifecycleProblem::NotRefused {
                step: LifecycleStep::Start,
                expected: TransportLifecycleErrorCode::NotAttached,
            });
            let (case, problem) = service_problem(Defect::StartWithoutAttachWrongError).expect("fails");
            assert_eq!(case, LifecycleCase::StartBeforeAttach);
            assert!(matches!(problem, LifecycleProblem::WrongRefusal { step: LifecycleStep::Start, .. }));
        }

        fn second_start_resolving_fails() {
            let (case, problem) = service_problem(Defect::SecondStartResolves).expect("fails");
            assert_eq!(case, LifecycleCase::SecondStartWhileActive);
            assert_eq!(problem, LifecycleProblem::NotRefused {
                step: LifecycleStep::Start,
                expected: TransportLifecycleErrorCode::AlreadyStarted,
            });
        }

        fn hanging_steps_fail_at_the_deadline() {
            let (case, problem) = service_problem(Defect::StartHangs).expect("fails");
            assert_eq!(case, LifecycleCase::StartBeforeAttach);
            assert_eq!(problem, LifecycleProblem::Timeout { step: LifecycleStep::Start });
            let (_, problem) = service_problem(Defect::StopHangs).expect("fails");
            assert_eq!(problem, LifecycleProblem::Timeout { step: LifecycleStep::Stop });
        }

        fn runner_completion_defects_fail() {
            let (case, problem) = runner_problem(Defect::CompletionSettlesEarly).expect("fails");
            assert_eq!(case, LifecycleCase::CompletionHeldPending);
            assert_eq!(problem, LifecycleProblem::CompletionNotHeldPending);
            let (case, problem) = runner_problem(Defect::CompletionNeverSettles).expect("fails");
            assert_eq!(case, LifecycleCase::CompletionHeldPending);
            assert_eq!(problem, LifecycleProblem::Timeout { step: LifecycleStep::Completion });
        }

        fn stop_defects_fail() {
            let (case, problem) = service_problem(Defect::KeepsSessionAfterStop).expect("fails");
            assert_eq!(case, LifecycleCase::StoppedReleases);
            assert_eq!(problem, LifecycleProblem::NotStopped(ErrorValue::new("Error", "still running")));
            let (case, problem) = service_problem(Defect::StopDoesNotDetach).expect("fails");
            assert_eq!(case, LifecycleCase::RestartAfterFreshAttach);
            assert!(matches!(problem, LifecycleProblem::WrongRefusal {
                step: LifecycleStep::Start,
                expected: TransportLifecycleErrorCode::NotAttached,
                ..
            }));
        }
    }

    mod registry {
        fn registers_bound_adapters_and_refuses_duplicates() {
            let log = Log::default();
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::service(service("ws", &log))).expect("ws");
            let headless = TransportRegistration::runner(runner("headless", &log));
            assert_eq!(headless.kind(), TransportLifecycleKind::Runner);
            assert!(!headless.is_configurable());
            registry.register(headless).expect("headless");
            let duplicate = registry
                .register(TransportRegistration::runner(runner("ws", &log)))
                .expect_err("duplicate");
            assert_eq!(duplicate, DuplicateTransportName { name: s("ws") });
            assert_eq!(registry.names(), vec![s("ws"), s("headless")]);
            assert!(logged(&log).is_empty(), "registration starts nothing");
        }

        fn no_run_means_empty_waits() {
            let registry = TransportRegistry::without_settings();
            assert_eq!(block_on(registry.wait_for_completion()), Ok(vec![]));
            assert_eq!(block_on(registry.wait_for_failure()), Ok(None));
        }

        fn starts_in_order_and_a_runner_does_not_block_a_service() {
            let log = Log::default();
            let first = runner("first", &log);
            let second = runner("second", &log);
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::runner(&first)).expect("first");
            registry.register(TransportRegistration::service(service("ws", &log))).expect("ws");
            registry.register(TransportRegistration::runner(&second)).expect("second");
            block_on(registry.start_all()).expect("start-all");
            assert_eq!(logged(&log), vec![s("start first"), s("start ws"), s("start second")]);
            let again = block_on(registry.start_all()).expect_err("not idle");
            assert!(matches!(again, TransportStartAllError::Lifecycle(ref e)
                if e.code == TransportLifecycleErrorCode::AlreadyStarted));
            // Finish out of order: records still come in registration order.
            complete(&second, Ok(failed(2)));
            complete(&first, Ok(TransportRunOutcome::Succeeded));
            let records = block_on(registry.wait_for_completion()).expect("completion");
            let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
            assert_eq!(names, ["first", "second"]);
            assert_eq!(records[1].outcome, TransportCompletionOutcome::Ran(failed(2)));
            assert_eq!(to_json(&records[1]), serde_json::json!({
                "name": "second", "outcome": {"status": "failed", "exitCode": 2}
            }));
        }

        fn failure_wait_reports_the_first_failure_without_waiting_for_the_rest() {
            let log = Log::default();
            let slow = runner("slow", &log);
            let broken = runner("broken", &log);
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::runner(&slow)).expect("slow");
            registry.register(TransportRegistration::runner(&broken)).expect("broken");
            block_on(registry.start_all()).expect("start-all");
            complete(&broken, Ok(failed(7)));
            let failure = block_on(registry.wait_for_failure()).expect("no fault");
            assert_eq!(failure, Some(TransportFailureRecord::new("broken", code(7))));
            // A later failure does not replace the first.
            complete(&slow, Ok(failed(9)));
            assert_eq!(block_on(registry.wait_for_failure()).expect("ok").map(|f| f.name), Some(s("broken")));
        }

        fn failure_wait_is_none_when_all_succeed_or_are_stopped() {
            let log = Log::default();
            let only = runner("only", &log);
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::runner(&only)).expect("only");
            block_on(registry.start_all()).expect("start-all");
            complete(&only, Ok(TransportRunOutcome::Succeeded));
            assert_eq!(block_on(registry.wait_for_failure()), Ok(None));
            assert!(block_on(registry.stop_all()).is_clean());

            let pending = runner("pending", &log);
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::runner(&pending)).expect("pending");
            block_on(registry.start_all()).expect("start-all");
            let (failure, destroyed) = block_on(join(registry.wait_for_failure(), async {
                yield_now().await;
                registry.stop_all().await
            }));
            assert_eq!(failure, Ok(None), "stop-time abandonment is not a failure");
            assert!(destroyed.is_clean());
            // The runner exits non-zero because it was stopped: still not a failure.
            complete(&pending, Ok(failed(143)));
            let records = block_on(registry.wait_for_completion()).expect("records");
            assert_eq!(records[0].outcome, TransportCompletionOutcome::Abandoned {
                reason: TransportAbandonmentReason::Stopped,
            });
            assert_eq!(block_on(registry.wait_for_failure()), Ok(None));
        }

        fn a_runner_fault_rejects_both_waits() {
            for fault in [
                TransportRunnerFault::Malformed { exit_code: 256 },
                TransportRunnerFault::Rejected(ErrorValue::new("Error", "crashed")),
            ] {
                let log = Log::default();
                let bad = runner("bad", &log);
                let registry = TransportRegistry::without_settings();
                registry.register(TransportRegistration::runner(&bad)).expect("bad");
                block_on(registry.start_all()).expect("start-all");
                complete(&bad, Err(fault));
                let rejected = TransportLifecycleError::new(TransportLifecycleErrorCode::RunnerRejected, "bad");
                assert_eq!(block_on(registry.wait_for_failure()), Err(rejected.clone()));
                assert_eq!(block_on(registry.wait_for_completion()), Err(rejected));
            }
        }

        fn a_failed_start_rolls_back_in_reverse_order() {
            let log = Log::default();
            let first = runner("first", &log);
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::runner(&first)).expect("first");
            registry.register(TransportRegistration::service(service("ws", &log).failing_stop())).expect("ws");
            registry.register(TransportRegistration::service(service("bad", &log).failing_start())).expect("bad");
            registry.register(TransportRegistration::service(service("never", &log))).expect("never");
            let error = block_on(registry.start_all()).expect_err("startup fails");
            let TransportStartAllError::Startup(startup) = error else {
                panic!("expected a startup error, got {error:?}");
            };
            assert_eq!(startup.transport_name, "bad");
            assert_eq!(startup.rollback_errors, vec![TransportRollbackError {
                transport_name: s("ws"),
                message: s("port stuck"),
            }]);
            assert_eq!(logged(&log), vec![
                s("start first"), s("start ws"), s("start bad"),
                s("stop bad"), s("stop ws"), s("stop first"),
            ]);
            let records = block_on(registry.wait_for_completion()).expect("records");
            assert_eq!(records, vec![TransportCompletionRecord::new(
                "first",
                TransportCompletionOutcome::Abandoned {
                    reason: TransportAbandonmentReason::StartupRollback,
                },
            )]);
            assert_eq!(block_on(registry.wait_for_failure()), Ok(None));
            // Idle again: a second attempt is allowed (and fails the same way).
            assert!(matches!(block_on(registry.start_all()), Err(TransportStartAllError::Startup(_))));
        }

        fn stop_all_never_fails_and_reports_each_stop_error() {
            let log = Log::default();
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::service(service("a", &log).failing_stop())).expect("a");
            registry.register(TransportRegistration::service(service("b", &log))).expect("b");
            registry.register(TransportRegistration::service(service("c", &log).failing_stop())).expect("c");
            block_on(registry.start_all()).expect("start-all");
            log.borrow_mut().clear();
            let destroyed = block_on(registry.stop_all());
            assert_eq!(logged(&log), vec![s("stop c"), s("stop b"), s("stop a")]);
            let messages: Vec<&str> = destroyed.errors.iter().map(|e| e.message.as_str()).collect();
            assert_eq!(messages, ["transport c failed to stop: port stuck", "transport a failed to stop: port stuck"]);
            // Idle again: start-all works, and a repeated stop-all is safe.
            block_on(registry.start_all()).expect("restart");
            assert_eq!(block_on(registry.stop_all()).errors.len(), 2);
        }

        fn concurrent_stop_alls_share_one_operation() {
            let log = Log::default();
            let gate = Rc::new(Gate::default());
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::service(service("a", &log).failing_stop().gated(&gate))).expect("a");
            gate.0.set(true);
            block_on(registry.start_all()).expect("start-all");
            gate.0.set(false);
            log.borrow_mut().clear();
            let open = async {
                yield_now().await;
                gate.0.set(true);
            };
            let ((one, two), ()) = block_on(join(join(registry.stop_all(), registry.stop_all()), open));
            assert_eq!(one, two);
            assert_eq!(one.errors.len(), 1);
            assert_eq!(logged(&log), vec![s("stop a")], "one operation");
        }

        fn stop_all_preempts_a_start_in_progress() {
            let log = Log::default();
            let gate = Rc::new(Gate::default());
            let first = runner("first", &log);
            let registry = TransportRegistry::without_settings();
            registry.register(TransportRegistration::runner(&first)).expect("first");
            registry.register(TransportRegistration::service(service("slow", &log).gated(&gate))).expect("slow");
            registry.register(TransportRegistration::service(service("later", &log))).expect("later");
            let (started, destroyed) = block_on(join(registry.start_all(), async {
                yield_now().await;
                let stopping = registry.stop_all();
                let open = async {
                    yield_now().await;
                    gate.0.set(true);
                };
                join(stopping, open).await.0
            }));
            assert_eq!(started, Err(TransportStartAllError::Preempted));
            assert!(destroyed.is_clean());
            let starts: Vec<String> = logged(&log).into_iter().filter(|l| l.starts_with("start")).collect();
            assert_eq!(starts, vec![s("start first"), s("start slow")], "nothing starts after a preempt");
            let records = block_on(registry.wait_for_completion()).expect("records");
            assert_eq!(records[0].outcome, TransportCompletionOutcome::Abandoned {
                reason: TransportAbandonmentReason::Stopped,
            });
            assert_eq!(first.bound.adapter().guard().phase(), LifecyclePhase::Detached);
        }

        fn settings_view_lists_only_configurable_transports() {
            let log = Log::default();
            let mut saved = BTreeMap::new();
            saved.insert(s("ws"), TransportSavedConfig::default().with_enabled(false));
            let registry = TransportRegistry::new(InMemoryTransportSettings::new(saved));
            registry.register(TransportRegistration::configurable_service(configured(service("ws", &log), true, true))).expect("ws");
            registry.register(TransportRegistration::service(service("plain", &log))).expect("plain");
            let job = TransportRegistration::configurable_runner(configured(runner("job", &log), false, true));
            assert!(job.is_configurable());
            registry.register(job).expect("job");
            let entries = registry.get_all().expect("infallible");
            assert_eq!(to_json(&entries), serde_json::json!([
                {"name": "ws", "config": {"enabled": false, "options": {}}},
                {"name": "job", "config": {"enabled": false, "options": {}}},
            ]));
        }

        fn set_enabled_and_set_options_merge_and_refuse() {
            let log = Log::default();
            let registry = TransportRegistry::new(InMemoryTransportSettings::default());
            registry.register(TransportRegistration::configurable_service(configured(service("ws", &log), true, true))).expect("ws");
            registry.register(TransportRegistration::service(service("plain", &log))).expect("plain");
            block_on(registry.set_options("ws", options(r#"{"port": 8080}"#))).expect("options");
            block_on(registry.set_enabled("ws", false)).expect("enabled");
            let entries = registry.get_all().expect("infallible");
            assert_eq!(to_json(&entries[0].config), serde_json::json!({"enabled": false, "options": {"port": 8080}}));
            let code_of = |result: Result<(), TransportSettingsError<core::convert::Infallible>>| match result {
                Err(TransportSettingsError::Configuration(error)) => Some((error.code, error.transport_name)),
                _ => None,
            };
            assert_eq!(code_of(block_on(registry.set_enabled("nope", true))),
                Some((TransportConfigurationErrorCode::UnknownTransport, s("nope"))));
            assert_eq!(code_of(block_on(registry.set_options("plain", ValueMap::new()))),
                Some((TransportConfigurationErrorCode::NotConfigurable, s("plain"))));
            assert_eq!(code_of(block_on(registry.set_options("ws", options(r#"{"port": "x"}"#)))),
                Some((TransportConfigurationErrorCode::InvalidOptions, s("ws"))));
            let kept = registry.get_all().expect("infallible");
            assert_eq!(kept[0].config.options, Some(options(r#"{"port": 8080}"#)), "a refused write keeps the saved options");
        }

        fn start_all_configures_enabled_transports_before_starting() {
            let log = Log::default();
            let mut saved = BTreeMap::new();
            saved.insert(s("ws"), TransportSavedConfig::default().with_options(options(r#"{"port": 1}"#)));
            saved.insert(s("off"), TransportSavedConfig::default().with_enabled(false));
            let ws = configured(service("ws", &log), true, true);
            let off = configured(service("off", &log), true, true);
            let registry = TransportRegistry::new(InMemoryTransportSettings::new(saved));
            registry.register(TransportRegistration::configurable_service(&ws)).expect("ws");
            registry.register(TransportRegistration::configurable_service(&off)).expect("off");
            block_on(registry.start_all()).expect("start-all");
            assert_eq!(*ws.applied.borrow(), vec![options(r#"{"port": 1}"#)]);
            assert!(off.applied.borrow().is_empty(), "a disabled transport is neither configured");
            assert_eq!(logged(&log), vec![s("start ws")], "nor started");
        }

        fn saved_options_that_cannot_be_applied_or_are_invalid_are_refused() {
            for (saved_options, applies, expected) in [
                (r#"{"port": 1}"#, false, TransportConfigurationErrorCode::OptionsNotApplicable),
                (r#"{"port": "x"}"#, true, TransportConfigurationErrorCode::InvalidOptions),
            ] {
                let log = Log::default();
                let mut saved = BTreeMap::new();
                saved.insert(s("ws"), TransportSavedConfig::default().with_options(options(saved_options)));
                let registry = TransportRegistry::new(InMemoryTransportSettings::new(saved));
                registry.register(TransportRegistration::service(service("first", &log))).expect("first");
                registry.register(TransportRegistration::configurable_service(configured(service("ws", &log), true, applies))).expect("ws");
                let error = block_on(registry.start_all()).expect_err("refused");
                assert_eq!(error, TransportStartAllError::Configuration(TransportConfigurationError::new(expected, "ws")));
                assert!(logged(&log).is_empty(), "nothing starts when saved options are refused");
                // Still idle: the host can fix the settings and try again.
                block_on(registry.set_options("ws", ValueMap::new())).expect("clear options");
                block_on(registry.start_all()).expect("start-all after the fix");
            }
        }
    }
}

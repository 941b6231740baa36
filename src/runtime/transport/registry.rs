//! The transport registry (`TransportRegistry`, bound form): it holds bound adapters, starts
//! them in registration order with rollback, waits for runners, and stops everything.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::RefCell;
use core::convert::Infallible;
use core::future::{Future, poll_fn};
use core::pin::Pin;
use core::task::{Context, Poll};

use embassy_sync::waitqueue::MultiWakerRegistration;

use crate::agent_core::{DestroyResult, ErrorValue, ValueMap};
use crate::transport::{
    adapters::{
        BoundTransportAdapter, BoundTransportRunnerAdapter, BoundTransportServiceAdapter,
        TransportLifecycleError, TransportLifecycleErrorCode, TransportLifecycleKind,
        TransportRollbackError, TransportStartFailure, TransportStartupError,
    },
    config::{
        DuplicateTransportName, TransportConfigurationError, TransportConfigurationErrorCode,
        TransportEntry, TransportLifecycleRegistryView, TransportSavedConfig,
        TransportSettingsCapability, TransportSettingsError, TransportSettingsRegistryView,
        TransportSettingsRepository, TransportStartAllError,
    },
    outcomes::{
        TransportAbandonmentReason, TransportCompletionOutcome, TransportCompletionRecord,
        TransportFailureRecord, TransportRunOutcome, TransportRunnerFault,
    },
};

type LocalFuture<'f, T> = Pin<Box<dyn Future<Output = T> + 'f>>;
type RunnerResult = Result<TransportRunOutcome, TransportRunnerFault>;

/// The object-safe companion of the bound adapter traits that a registration boxes.
trait Registered {
    fn name(&self) -> &str;
    fn kind(&self) -> TransportLifecycleKind;
    fn start(&self) -> LocalFuture<'_, Result<(), TransportStartFailure>>;
    fn stop(&self) -> LocalFuture<'_, Result<(), ErrorValue>>;
    /// The runner's completion, owning its registration (`None` for a service).
    fn wait<'a>(self: Rc<Self>) -> Option<LocalFuture<'a, RunnerResult>>
    where
        Self: 'a;
    fn settings(&self) -> Option<&dyn TransportSettingsCapability>;
}

/// One registered adapter with the two members its registration chose: how to wait for it
/// (runners) and where its settings are (configurable transports).
struct Slot<A> {
    adapter: A,
    wait: Option<fn(&A) -> LocalFuture<'_, RunnerResult>>,
    settings: Option<fn(&A) -> &dyn TransportSettingsCapability>,
}

fn wait_of<A: BoundTransportRunnerAdapter>(adapter: &A) -> LocalFuture<'_, RunnerResult> {
    Box::pin(adapter.wait_for_completion())
}

fn settings_of<A: TransportSettingsCapability>(adapter: &A) -> &dyn TransportSettingsCapability {
    adapter
}

impl<A: BoundTransportAdapter> Registered for Slot<A> {
    fn name(&self) -> &str {
        self.adapter.name()
    }

    fn kind(&self) -> TransportLifecycleKind {
        A::KIND
    }

    fn start(&self) -> LocalFuture<'_, Result<(), TransportStartFailure>> {
        Box::pin(self.adapter.start())
    }

    fn stop(&self) -> LocalFuture<'_, Result<(), ErrorValue>> {
        Box::pin(self.adapter.stop())
    }

    fn wait<'a>(self: Rc<Self>) -> Option<LocalFuture<'a, RunnerResult>>
    where
        Self: 'a,
    {
        let wait = self.wait?;
        Some(Box::pin(async move { wait(&self.adapter).await }))
    }

    fn settings(&self) -> Option<&dyn TransportSettingsCapability> {
        self.settings.map(|settings| settings(&self.adapter))
    }
}

/// A bound adapter ready to be registered: the constructors take only the bound traits, so a
/// raw adapter (with `attach`) or a session can never reach a registry, and the lifecycle kind
/// is read from the adapter's type.
pub struct TransportRegistration<'a> {
    entry: Rc<dyn Registered + 'a>,
}

impl<'a> TransportRegistration<'a> {
    fn of<A: BoundTransportAdapter + 'a>(
        adapter: A,
        wait: Option<fn(&A) -> LocalFuture<'_, RunnerResult>>,
        settings: Option<fn(&A) -> &dyn TransportSettingsCapability>,
    ) -> Self {
        Self {
            entry: Rc::new(Slot {
                adapter,
                wait,
                settings,
            }),
        }
    }

    /// A bound service.
    pub fn service<A: BoundTransportServiceAdapter + 'a>(adapter: A) -> Self {
        Self::of(adapter, None, None)
    }

    /// A bound runner; the registry waits for its completion.
    pub fn runner<A: BoundTransportRunnerAdapter + 'a>(adapter: A) -> Self {
        Self::of(adapter, Some(wait_of::<A>), None)
    }

    /// A bound service with settings: it is listed by the settings view and configured before
    /// each start.
    pub fn configurable_service<A>(adapter: A) -> Self
    where
        A: BoundTransportServiceAdapter + TransportSettingsCapability + 'a,
    {
        Self::of(adapter, None, Some(settings_of::<A>))
    }

    /// A bound runner with settings.
    pub fn configurable_runner<A>(adapter: A) -> Self
    where
        A: BoundTransportRunnerAdapter + TransportSettingsCapability + 'a,
    {
        Self::of(adapter, Some(wait_of::<A>), Some(settings_of::<A>))
    }

    /// The transport's unique name.
    #[must_use]
    pub fn name(&self) -> &str {
        self.entry.name()
    }

    /// The transport's lifecycle kind.
    #[must_use]
    pub fn kind(&self) -> TransportLifecycleKind {
        self.entry.kind()
    }

    /// Whether the transport has settings.
    #[must_use]
    pub fn is_configurable(&self) -> bool {
        self.entry.settings().is_some()
    }
}

/// A settings repository with nothing saved that cannot fail: every transport runs with its
/// defaults and a write is accepted and kept nowhere. For a registry whose host persists no
/// settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSavedSettings;

impl TransportSettingsRepository for NoSavedSettings {
    type Error = Infallible;

    fn read_all(&self) -> Result<BTreeMap<String, TransportSavedConfig>, Infallible> {
        Ok(BTreeMap::new())
    }

    fn write(&self, _name: &str, _saved: &TransportSavedConfig) -> Result<(), Infallible> {
        Ok(())
    }
}

/// A settings repository in memory with the merge rule of the port: a write sets the keys it
/// carries and leaves the transport's other saved keys intact.
#[derive(Debug, Default)]
pub struct InMemoryTransportSettings {
    saved: RefCell<BTreeMap<String, TransportSavedConfig>>,
}

impl InMemoryTransportSettings {
    /// A repository holding `saved`.
    #[must_use]
    pub fn new(saved: BTreeMap<String, TransportSavedConfig>) -> Self {
        Self {
            saved: RefCell::new(saved),
        }
    }
}

impl TransportSettingsRepository for InMemoryTransportSettings {
    type Error = Infallible;

    fn read_all(&self) -> Result<BTreeMap<String, TransportSavedConfig>, Infallible> {
        Ok(self.saved.borrow().clone())
    }

    fn write(&self, name: &str, saved: &TransportSavedConfig) -> Result<(), Infallible> {
        let mut all = self.saved.borrow_mut();
        let kept = all.entry(name.to_string()).or_default();
        if saved.enabled.is_some() {
            kept.enabled = saved.enabled;
        }
        if saved.options.is_some() {
            kept.options.clone_from(&saved.options);
        }
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    Starting,
    Running,
    Stopping,
}

struct RunnerSlot<'a> {
    entry: Rc<dyn Registered + 'a>,
    outcome: Option<TransportCompletionOutcome>,
}

/// The runners of one start-all, and what their waits have learnt.
struct Generation<'a> {
    id: u64,
    runners: Vec<RunnerSlot<'a>>,
    /// Every runner of the generation is known (start-all finished, or was rolled back).
    sealed: bool,
    first_failure: Option<TransportFailureRecord>,
    fault: Option<TransportLifecycleError>,
}

impl Generation<'_> {
    fn abandon_pending(&mut self, reason: TransportAbandonmentReason) {
        for slot in self
            .runners
            .iter_mut()
            .filter(|slot| slot.outcome.is_none())
        {
            slot.outcome = Some(TransportCompletionOutcome::Abandoned { reason });
        }
    }

    fn settled(&self) -> bool {
        self.sealed && self.runners.iter().all(|slot| slot.outcome.is_some())
    }

    fn records(&self) -> Vec<TransportCompletionRecord> {
        self.runners
            .iter()
            .filter_map(|slot| {
                Some(TransportCompletionRecord {
                    name: slot.entry.name().to_string(),
                    outcome: slot.outcome?,
                })
            })
            .collect()
    }
}

struct Run<'a> {
    phase: Phase,
    preempt: bool,
    starting: Option<Rc<dyn Registered + 'a>>,
    generation: Option<Generation<'a>>,
    next_generation: u64,
    stops_begun: u64,
    /// The stop-all in progress, which later calls join.
    stopping: Option<u64>,
    last_stop: Option<(u64, DestroyResult)>,
}

/// The transport registry (`ITransportRegistryView`, bound form), generic over where saved
/// settings live.
///
/// Guarantees (catalog §6.5):
/// * it holds bound adapters only ([`TransportRegistration`]) and refuses a duplicate name;
/// * start-all reads and checks every enabled transport's saved options first (nothing starts
///   when one is refused), then starts in registration order; when a start fails it stops every
///   attempted transport in reverse order, abandons pending runners as `startup-rollback` and
///   reports a [`TransportStartupError`] naming the failed transport, and is idle again;
/// * [`wait_for_completion`](TransportLifecycleRegistryView::wait_for_completion) gives one record
///   per runner of the current run in registration order;
///   [`wait_for_failure`](TransportLifecycleRegistryView::wait_for_failure) gives the first
///   failed runner as soon as it fails, and `None` when all succeeded or were abandoned (stop-time
///   abandonment is not a failure); a runner fault rejects both with `runner-rejected`;
/// * stop-all never fails: it preempts a start in progress, abandons pending runners as
///   `stopped`, stops every registered transport in reverse registration order, reports each stop
///   error, and concurrent calls share one result.
///
/// Single-threaded (`RefCell`), no clock: every wait is woken by the adapters' own futures or by
/// the registry's state changes.
pub struct TransportRegistry<'a, R = NoSavedSettings> {
    repository: R,
    entries: RefCell<Vec<Rc<dyn Registered + 'a>>>,
    run: RefCell<Run<'a>>,
    /// The waits to wake on a change (past 4 tasks, registering wakes them all to poll again).
    changed: RefCell<MultiWakerRegistration<4>>,
}

impl<'a> TransportRegistry<'a, NoSavedSettings> {
    /// A registry whose host persists no settings.
    #[must_use]
    pub fn without_settings() -> Self {
        Self::new(NoSavedSettings)
    }
}

impl<'a, R: TransportSettingsRepository> TransportRegistry<'a, R> {
    /// The name a registry-level lifecycle error (`already-started`) carries.
    pub const LIFECYCLE_NAME: &'static str = "transport-registry";

    /// An empty registry over `repository`.
    pub fn new(repository: R) -> Self {
        Self {
            repository,
            entries: RefCell::new(Vec::new()),
            run: RefCell::new(Run {
                phase: Phase::Idle,
                preempt: false,
                starting: None,
                generation: None,
                next_generation: 0,
                stops_begun: 0,
                stopping: None,
                last_stop: None,
            }),
            changed: RefCell::new(MultiWakerRegistration::new()),
        }
    }

    /// The settings repository.
    pub fn repository(&self) -> &R {
        &self.repository
    }

    /// The names registered, in registration order.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        let entries = self.entries.borrow();
        entries.iter().map(|e| e.name().to_string()).collect()
    }

    /// Wakes every wait (taken first, so a waker that polls at once finds the set free).
    fn wake_all(&self) {
        self.changed.replace(MultiWakerRegistration::new()).wake();
    }

    fn set_phase(&self, phase: Phase) {
        self.run.borrow_mut().phase = phase;
        self.wake_all();
    }

    /// The enabled entries in registration order, each configured with its saved options.
    fn configure_enabled(&self) -> Result<Vec<Rc<dyn Registered + 'a>>, TransportStartAllError> {
        let saved = self.repository.read_all().map_err(|error| {
            TransportStartAllError::SettingsUnreadable(ErrorValue::new(
                "TransportSettingsRepositoryError",
                error.to_string(),
            ))
        })?;
        let entries = self.entries.borrow().clone();
        let mut enabled = Vec::with_capacity(entries.len());
        for entry in entries {
            if let Some(settings) = entry.settings() {
                let config = saved
                    .get(entry.name())
                    .cloned()
                    .unwrap_or_default()
                    .resolve(settings.default_enabled());
                if !config.enabled {
                    continue;
                }
                let options = config.options.unwrap_or_default();
                let refused =
                    |code| TransportConfigurationError::new(code, entry.name().to_string());
                if !settings.validate_options(&options) {
                    return Err(TransportStartAllError::Configuration(refused(
                        TransportConfigurationErrorCode::InvalidOptions,
                    )));
                }
                settings
                    .configure(&options)
                    .map_err(|code| TransportStartAllError::Configuration(refused(code)))?;
            }
            enabled.push(entry);
        }
        Ok(enabled)
    }

    /// Stops `attempted` in reverse order after a failed or preempted start, and seals the
    /// generation with its pending runners abandoned.
    async fn roll_back(
        &self,
        attempted: &[Rc<dyn Registered + 'a>],
        reason: TransportAbandonmentReason,
    ) -> Vec<TransportRollbackError> {
        if let Some(generation) = self.run.borrow_mut().generation.as_mut() {
            generation.abandon_pending(reason);
            generation.sealed = true;
        }
        self.wake_all();
        let mut errors = Vec::new();
        for entry in attempted.iter().rev() {
            if let Err(error) = entry.stop().await {
                errors.push(TransportRollbackError {
                    transport_name: entry.name().to_string(),
                    message: error.message,
                });
            }
        }
        let mut run = self.run.borrow_mut();
        run.preempt = false;
        run.starting = None;
        // A preempting stop-all goes on from here; nothing may start in between.
        let next = if run.stopping.is_some() {
            Phase::Stopping
        } else {
            Phase::Idle
        };
        drop(run);
        self.set_phase(next);
        errors
    }

    /// Waits on the current generation (`None`: no start-all yet) until `done` gives an
    /// answer, polling each pending runner's completion once per wake and recording what it
    /// learns for every other wait.
    async fn observe<T>(
        &self,
        done: impl Fn(Option<&Generation<'a>>) -> Option<T>,
    ) -> Result<T, TransportLifecycleError> {
        let mut watched: Option<u64> = None;
        let mut waits: Vec<Option<LocalFuture<'a, RunnerResult>>> = Vec::new();
        poll_fn(|cx| {
            self.changed.borrow_mut().register(cx.waker());
            loop {
                let pending = {
                    let mut run = self.run.borrow_mut();
                    if let Some(fault) = run.generation.as_ref().and_then(|g| g.fault.clone()) {
                        return Poll::Ready(Err(fault));
                    }
                    if let Some(answer) = done(run.generation.as_ref()) {
                        return Poll::Ready(Ok(answer));
                    }
                    let Some(generation) = run.generation.as_mut() else {
                        return Poll::Pending;
                    };
                    if watched != Some(generation.id) {
                        watched = Some(generation.id);
                        waits.clear();
                    }
                    waits.resize_with(generation.runners.len(), || None);
                    let mut pending = Vec::new();
                    for (index, slot) in generation.runners.iter().enumerate() {
                        if slot.outcome.is_none() {
                            pending.push((index, slot.entry.clone()));
                        }
                    }
                    pending
                };
                let learnt = poll_runners(cx, &pending, &mut waits);
                if learnt.is_empty() {
                    return Poll::Pending;
                }
                self.record(learnt);
            }
        })
        .await
    }

    /// Records outcomes and faults learnt by a wait, for every wait.
    fn record(&self, learnt: Vec<(usize, RunnerResult)>) {
        let mut run = self.run.borrow_mut();
        let Some(generation) = run.generation.as_mut() else {
            return;
        };
        for (index, result) in learnt {
            let Some(slot) = generation.runners.get_mut(index) else {
                continue;
            };
            if slot.outcome.is_some() {
                continue;
            }
            match result {
                Ok(outcome) => {
                    slot.outcome = Some(TransportCompletionOutcome::Ran(outcome));
                    if let (TransportRunOutcome::Failed { exit_code }, None) =
                        (outcome, &generation.first_failure)
                    {
                        generation.first_failure = Some(TransportFailureRecord {
                            name: slot.entry.name().to_string(),
                            exit_code,
                        });
                    }
                }
                Err(_) => {
                    generation.fault.get_or_insert_with(|| {
                        TransportLifecycleError::new(
                            TransportLifecycleErrorCode::RunnerRejected,
                            slot.entry.name().to_string(),
                        )
                    });
                }
            }
        }
        drop(run);
        self.wake_all();
    }
}

/// Polls the completion of every pending runner once; returns what resolved.
fn poll_runners<'a>(
    cx: &mut Context<'_>,
    pending: &[(usize, Rc<dyn Registered + 'a>)],
    waits: &mut [Option<LocalFuture<'a, RunnerResult>>],
) -> Vec<(usize, RunnerResult)> {
    let mut learnt = Vec::new();
    for (index, entry) in pending {
        let Some(wait) = waits.get_mut(*index) else {
            continue;
        };
        if wait.is_none() {
            *wait = entry.clone().wait();
        }
        if let Some(future) = wait.as_mut()
            && let Poll::Ready(result) = future.as_mut().poll(cx)
        {
            *wait = None;
            learnt.push((*index, result));
        }
    }
    learnt
}

impl<'a, R: TransportSettingsRepository> TransportLifecycleRegistryView
    for TransportRegistry<'a, R>
{
    type Adapter = TransportRegistration<'a>;

    fn register(&self, adapter: TransportRegistration<'a>) -> Result<(), DuplicateTransportName> {
        let mut entries = self.entries.borrow_mut();
        if entries.iter().any(|e| e.name() == adapter.name()) {
            return Err(DuplicateTransportName {
                name: adapter.name().to_string(),
            });
        }
        entries.push(adapter.entry);
        Ok(())
    }

    async fn start_all(&self) -> Result<(), TransportStartAllError> {
        if self.run.borrow().phase != Phase::Idle {
            return Err(TransportStartAllError::Lifecycle(
                TransportLifecycleError::new(
                    TransportLifecycleErrorCode::AlreadyStarted,
                    Self::LIFECYCLE_NAME,
                ),
            ));
        }
        let enabled = self.configure_enabled()?;
        {
            let mut run = self.run.borrow_mut();
            let id = run.next_generation;
            run.next_generation += 1;
            run.generation = Some(Generation {
                id,
                runners: Vec::new(),
                sealed: false,
                first_failure: None,
                fault: None,
            });
        }
        self.set_phase(Phase::Starting);
        let mut attempted: Vec<Rc<dyn Registered + 'a>> = Vec::new();
        for entry in enabled {
            if self.run.borrow().preempt {
                self.roll_back(&attempted, TransportAbandonmentReason::Stopped)
                    .await;
                return Err(TransportStartAllError::Preempted);
            }
            self.run.borrow_mut().starting = Some(entry.clone());
            attempted.push(entry.clone());
            let started = entry.start().await;
            self.run.borrow_mut().starting = None;
            if started.is_err() {
                let preempted = self.run.borrow().preempt;
                let reason = if preempted {
                    TransportAbandonmentReason::Stopped
                } else {
                    TransportAbandonmentReason::StartupRollback
                };
                let rollback_errors = self.roll_back(&attempted, reason).await;
                return Err(if preempted {
                    TransportStartAllError::Preempted
                } else {
                    TransportStartAllError::Startup(TransportStartupError {
                        transport_name: entry.name().to_string(),
                        rollback_errors,
                    })
                });
            }
            if entry.kind() == TransportLifecycleKind::Runner
                && let Some(generation) = self.run.borrow_mut().generation.as_mut()
            {
                generation.runners.push(RunnerSlot {
                    entry: entry.clone(),
                    outcome: None,
                });
            }
        }
        if self.run.borrow().preempt {
            self.roll_back(&attempted, TransportAbandonmentReason::Stopped)
                .await;
            return Err(TransportStartAllError::Preempted);
        }
        if let Some(generation) = self.run.borrow_mut().generation.as_mut() {
            generation.sealed = true;
        }
        self.set_phase(Phase::Running);
        Ok(())
    }

    async fn wait_for_completion(
        &self,
    ) -> Result<Vec<TransportCompletionRecord>, TransportLifecycleError> {
        self.observe(|generation| match generation {
            None => Some(Vec::new()),
            Some(generation) => generation.settled().then(|| generation.records()),
        })
        .await
    }

    async fn wait_for_failure(
        &self,
    ) -> Result<Option<TransportFailureRecord>, TransportLifecycleError> {
        self.observe(|generation| match generation {
            None => Some(None),
            Some(Generation {
                first_failure: Some(failure),
                ..
            }) => Some(Some(failure.clone())),
            Some(generation) => generation.settled().then_some(None),
        })
        .await
    }

    async fn stop_all(&self) -> DestroyResult {
        let (stop, joined, starting) = {
            let mut run = self.run.borrow_mut();
            match run.stopping {
                Some(stop) => (stop, true, None),
                None => {
                    run.stops_begun += 1;
                    let stop = run.stops_begun;
                    run.stopping = Some(stop);
                    let starting = if run.phase == Phase::Starting {
                        run.preempt = true;
                        run.starting.clone()
                    } else {
                        None
                    };
                    (stop, false, starting)
                }
            }
        };
        if joined {
            return poll_fn(|cx| {
                self.changed.borrow_mut().register(cx.waker());
                match &self.run.borrow().last_stop {
                    Some((done, result)) if *done == stop => Poll::Ready(result.clone()),
                    _ => Poll::Pending,
                }
            })
            .await;
        }
        let mut errors = Vec::new();
        // A start in progress: stop the transport being started and let start-all finish its
        // own rollback.
        if let Some(entry) = starting
            && let Err(error) = entry.stop().await
        {
            errors.push(stop_error(entry.name(), &error));
        }
        poll_fn(|cx| {
            self.changed.borrow_mut().register(cx.waker());
            if self.run.borrow().phase == Phase::Starting {
                Poll::Pending
            } else {
                Poll::Ready(())
            }
        })
        .await;
        if let Some(generation) = self.run.borrow_mut().generation.as_mut() {
            generation.abandon_pending(TransportAbandonmentReason::Stopped);
            generation.sealed = true;
        }
        self.set_phase(Phase::Stopping);
        let entries = self.entries.borrow().clone();
        for entry in entries.iter().rev() {
            if let Err(error) = entry.stop().await {
                errors.push(stop_error(entry.name(), &error));
            }
        }
        let result = DestroyResult { errors };
        {
            let mut run = self.run.borrow_mut();
            run.last_stop = Some((stop, result.clone()));
            run.stopping = None;
        }
        self.set_phase(Phase::Idle);
        result
    }
}

/// A transport's stop error as stop-all reports it: its class name kept, its message prefixed
/// with the transport's name.
fn stop_error(name: &str, error: &ErrorValue) -> ErrorValue {
    ErrorValue {
        name: error.name.clone(),
        message: format!("transport {name} failed to stop: {}", error.message),
        stack: error.stack.clone(),
    }
}

impl<'a, R: TransportSettingsRepository> TransportRegistry<'a, R> {
    /// The settings of `name`, or the configuration refusal.
    fn settings_of(
        &self,
        name: &str,
    ) -> Result<Rc<dyn Registered + 'a>, TransportSettingsError<R::Error>> {
        let refused = |code| {
            TransportSettingsError::Configuration(TransportConfigurationError::new(code, name))
        };
        let entries = self.entries.borrow();
        let entry = entries
            .iter()
            .find(|entry| entry.name() == name)
            .ok_or_else(|| refused(TransportConfigurationErrorCode::UnknownTransport))?;
        if entry.settings().is_none() {
            return Err(refused(TransportConfigurationErrorCode::NotConfigurable));
        }
        Ok(entry.clone())
    }
}

impl<R: TransportSettingsRepository> TransportSettingsRegistryView for TransportRegistry<'_, R> {
    type RepositoryError = R::Error;

    fn get_all(&self) -> Result<Vec<TransportEntry>, R::Error> {
        let saved = self.repository.read_all()?;
        let entries = self.entries.borrow();
        Ok(entries
            .iter()
            .filter_map(|entry| {
                let settings = entry.settings()?;
                let config = saved
                    .get(entry.name())
                    .cloned()
                    .unwrap_or_default()
                    .resolve(settings.default_enabled());
                Some(TransportEntry {
                    name: entry.name().to_string(),
                    config,
                })
            })
            .collect())
    }

    async fn set_enabled(
        &self,
        name: &str,
        enabled: bool,
    ) -> Result<(), TransportSettingsError<R::Error>> {
        self.settings_of(name)?;
        let saved = TransportSavedConfig {
            enabled: Some(enabled),
            options: None,
        };
        self.repository
            .write(name, &saved)
            .map_err(TransportSettingsError::Repository)
    }

    /// Saves the options of `name` after its `validate_options` accepted them (refused options
    /// are never written: `invalid-options`).
    async fn set_options(
        &self,
        name: &str,
        options: ValueMap,
    ) -> Result<(), TransportSettingsError<R::Error>> {
        let entry = self.settings_of(name)?;
        if !entry
            .settings()
            .is_some_and(|settings| settings.validate_options(&options))
        {
            return Err(TransportSettingsError::Configuration(
                TransportConfigurationError::new(
                    TransportConfigurationErrorCode::InvalidOptions,
                    name,
                ),
            ));
        }
        let saved = TransportSavedConfig {
            enabled: None,
            options: Some(options),
        };
        self.repository
            .write(name, &saved)
            .map_err(TransportSettingsError::Repository)
    }
}

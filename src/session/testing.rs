//! Doubles for the session family (`session/testing`, feature `testing`): the full session
//! double, the runtime-tool double that shows the fail-closed default and prompt withdrawal, and
//! the capability host for roles described at run time, with the contract's exact rejections.
//! Nothing here needs `std`, so the same doubles run on a microcontroller and in wasm.
//!
//! # The session double ([`TestInteractiveSession`])
//!
//! It implements every role, so it is an [`InteractiveSession`] with no adapter: the day a role
//! gains a member, the double stops compiling. Its answers are the TypeScript double's defaults.
//!
//! - **Distinct ids.** Each double takes `test-session-<n>` from a crate-wide counter
//!   (`AtomicU32`, no `std`), so two doubles never share an id. The counter wraps after
//!   `u32::MAX` doubles. On targets without compare-and-swap (Cortex-M0+, RISC-V without the
//!   A extension) it is a `u32` under a `critical_section::Mutex` instead: the final binary
//!   provides the critical section, as it does for embassy-sync's `CriticalSectionRawMutex`.
//! - **One id on every surface.** The workspace snapshot's `session_id`, a created group's and a
//!   spawned job's `parent_session_id`, the status snapshot's `session_id` and the turn ids are
//!   resolved when asked, through the double's own identity (the override when one is set), and
//!   fall back to the double's counter id when the identity cannot answer (the override returns
//!   an error) or answers `""`. An identity override that fails stands for the TypeScript
//!   `getSession` that throws; since a Rust read of the identity cannot fail,
//!   [`SessionIdentity::get_session`] then reports the counter id too, while an override that
//!   answers `""` is reported as given (it is the override's answer).
//! - **Turn ids** are `<session id>-turn-<k>`, `k` counting the default submissions of this
//!   double from 1. A submit override is authoritative: its handle is returned as is and the
//!   count does not move.
//! - **Overrides are builder methods** (`with_*`), one per member a test commonly replaces: the
//!   identity and the submission as closures, the required answers and a few reads as values,
//!   the runtime-tool role as a [`TestRuntimeTools`]. The TypeScript spread of arbitrary members
//!   has no Rust analogue; a test that must replace another member implements that role on its
//!   own type (every role is a separate trait).
//! - **No clock.** Every timestamp the double writes is [`TEST_TIMESTAMP`] (the crate never reads
//!   a clock), where the TypeScript double wrote the current time.
//! - **Errors.** Every fallible role of the double has [`ErrorValue`] as its error (the error a
//!   JavaScript promise rejects with), so the double fits a [`SessionCapabilityHost`] with the
//!   default error type.
//!
//! # The runtime-tool double ([`TestRuntimeTools`])
//!
//! A list of tools, each saying whether it needs a permission decision. With the default options
//! a tool that needs one is denied without a prompt; with prompts allowed the double opens a
//! `permission_request` attributed to the options' driver and waits for
//! [`SessionPromptResolution::resolve_permission`]. Cancelling the call while the prompt waits
//! (raising the signal, or dropping the future) withdraws the prompt: it is unparked, a
//! `prompt_resolved` is recorded, a later answer is ignored and the tool never runs. The double
//! records the events it would emit ([`TestRuntimeTools::events`]). [`AbortSignal`] is polled:
//! an abort is noticed at the next poll of the call (an answer wakes the call's waker).
//!
//! # The described host ([`create_session_capability_host`])
//!
//! For hosts whose roles are described at run time (bridged from JavaScript or wasm, read from a
//! configuration): a [`CapabilityHostDescription`] maps role literals to the member names the
//! role's object provides, and the host built from it routes each canonical member to its role.
//!
//! - **Exact rejections** ([`CapabilityHostError`], whose `Display` is the contract's message):
//!   any unknown key, checked before anything else, is `Unknown session capability: <key>`; a
//!   present role missing a canonical member is `Missing <role> capability member: <member>`; a
//!   reserved member name (`constructor`, `capabilities`, `__proto__`) is
//!   `Reserved session capability member: <member>`; a member forwarded by two roles is
//!   `Duplicate session capability member: <member>`.
//! - **Absent roles.** A role described as `None` (TypeScript `undefined`) is skipped: the host
//!   does not provide it. An empty member list is a present role with no members (TypeScript
//!   `null` or `{}`), refused for its first missing member.
//! - **Extra members** a role object has beyond its canonical ones are not forwarded and cannot
//!   replace anything (the host has no slot a member name could overwrite), so a description may
//!   list them, reserved names included.
//! - **Reserved and duplicate members** can only come from the member table: the canonical table
//!   has neither, so [`create_session_capability_host_with_table`] checks a description against
//!   an amended table (the guard that keeps a future edit of the table honest).
//! - **Snapshot.** The host owns copies of what it read and has no mutating API: changing the
//!   description afterwards changes nothing. It has no prototype, no property descriptors and no
//!   getters, so the JavaScript freezing, null-prototype and lazy-getter rules have nothing to
//!   act on here.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use core::fmt;
use core::future::poll_fn;
#[cfg(target_has_atomic = "32")]
use core::sync::atomic::{AtomicU32, Ordering};
use core::task::{Context, Poll, Waker};

use crate::agent_core::{
    ActionResponse, ContextWindowState, ErrorValue, HistoryEntry, ModelEffortSelection,
    PermissionMode, ToolExecutionResult, ToolParameters, ToolSchema, UniversalMessage,
};
use crate::command::definition::{CommandInvocationSource, CommandResult};
use crate::command::listing::{CommandListEntry, CommandSkillListEntry};
use crate::execution::{
    groups::{BackgroundJobGroupState, BackgroundJobGroupStatus, BackgroundJobWaitPolicy},
    subagents::{SubagentJobState, SubagentJobStatus},
    task_state::{
        BackgroundTaskInput, BackgroundTaskListFilter, BackgroundTaskLogCursor,
        BackgroundTaskLogPage, BackgroundTaskState, JobStateFields,
    },
    task_vocabulary::BackgroundTaskMode,
    workspace::{
        ExecutionDetailCursor, ExecutionDetailPage, ExecutionWorkspaceSnapshot,
        ExecutionWorkspaceSnapshotOptions,
    },
};

use super::capabilities::{
    AgentDefinitionSummary, AgentJobSpawnInput, BackgroundJobGroupCreateInput, BoxedTurnCompletion,
    CapabilityRead, PermissionPromptRoute, RuntimeToolInvokeOptions,
    SESSION_CAPABILITY_MEMBER_KEYS, SessionAgentJobs, SessionBackgroundGroups,
    SessionBackgroundTasks, SessionCapabilityRole, SessionCommands, SessionConversationRead,
    SessionDriverAttribution, SessionEventHandler, SessionEvents, SessionExecutionDetail,
    SessionExecutionState, SessionExecutionWorkspace, SessionGoal, SessionIdHandle,
    SessionIdentity, SessionLifecycle, SessionPromptResolution, SessionRuntimeTools,
    SessionSelfPacedLoopControl, SessionStatusRead, SessionTurnControl, SessionTurnSubmission,
    SessionWorkspaceLocation, SetGoalOptions, ShutdownOptions,
};
#[cfg(doc)]
use super::capabilities::{InteractiveSession, SessionCapabilityHost};
use super::events::{
    GoalState, GoalStatus, InteractiveEventName, ModelListSnapshot, SessionEvent,
    SessionStatusSnapshot,
};
use super::loops::WaitingLoopStopOutcome;
use super::prompts::{PermissionRequestEvent, PermissionResultValue, PromptResolvedEvent};
use super::turns::{DriverId, ExecutionResult, SubmitOptions, TurnHandle, TurnOutcome};
use crate::agent_core::AbortSignal;

/// The one timestamp every double writes (the crate reads no clock).
pub const TEST_TIMESTAMP: &str = "1970-01-01T00:00:00.000Z";

/// The working directory a double reports unless overridden.
pub const TEST_CWD: &str = "/workspace";

/// How many session doubles were made so far: the `<n>` of the next `test-session-<n>`.
#[cfg(target_has_atomic = "32")]
static DOUBLES_CREATED: AtomicU32 = AtomicU32::new(0);
/// How many session doubles were made so far, on a target without compare-and-swap.
#[cfg(not(target_has_atomic = "32"))]
static DOUBLES_CREATED: critical_section::Mutex<Cell<u32>> =
    critical_section::Mutex::new(Cell::new(0));

/// The `<n>` of a new double's `test-session-<n>`: one more than the doubles made before it.
#[cfg(target_has_atomic = "32")]
fn next_double_number() -> u32 {
    DOUBLES_CREATED
        .fetch_add(1, Ordering::Relaxed)
        .wrapping_add(1)
}

/// The `<n>` of a new double's `test-session-<n>`: one more than the doubles made before it.
#[cfg(not(target_has_atomic = "32"))]
fn next_double_number() -> u32 {
    critical_section::with(|cs| {
        let count = DOUBLES_CREATED.borrow(cs);
        let n = count.get().wrapping_add(1);
        count.set(n);
        n
    })
}

/// The empty context window every default turn and read reports: nothing used of 200 000 tokens.
#[must_use]
pub const fn empty_context_state() -> ContextWindowState {
    ContextWindowState {
        max_tokens: 200_000,
        used_tokens: 0,
        used_percentage: 0.0,
        remaining_percentage: 100.0,
    }
}

/// The error a cancelled double call fails with: `AbortError`, as a JavaScript call rejects with
/// an aborted signal's reason.
#[must_use]
pub fn cancelled_error() -> ErrorValue {
    ErrorValue::new("AbortError", "the call was cancelled")
}

// ---------------------------------------------------------------------------------------------
// The runtime-tool double
// ---------------------------------------------------------------------------------------------

/// One tool of a [`TestRuntimeTools`]: its schema, whether running it needs a permission
/// decision, and the result it returns when it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct TestRuntimeTool {
    /// The schema listed for it; its `name` is what a call names.
    pub schema: ToolSchema,
    /// True when a call needs a permission decision before the tool may run.
    pub needs_permission: bool,
    /// What a call that ran returns.
    pub result: ToolExecutionResult,
}

impl TestRuntimeTool {
    /// A tool called `name` that succeeds with the text `ran <name>`; `needs_permission` says
    /// whether a call needs a decision first.
    #[must_use]
    pub fn new(name: &str, needs_permission: bool) -> Self {
        Self {
            schema: ToolSchema {
                name: String::from(name),
                description: format!("the {name} tool"),
                ..ToolSchema::default()
            },
            needs_permission,
            result: ToolExecutionResult {
                success: true,
                tool_name: Some(String::from(name)),
                result: Some(crate::agent_core::Value::String(format!("ran {name}"))),
                ..ToolExecutionResult::default()
            },
        }
    }
}

/// A permission prompt a runtime-tool call opened, parked until answered or withdrawn.
#[derive(Clone, Debug)]
struct ParkedPrompt {
    /// The prompt's id.
    id: String,
    /// The first answer, once given.
    answer: Option<PermissionResultValue>,
}

/// What the runtime-tool double has seen and what waits.
#[derive(Debug, Default)]
struct PromptBook {
    /// Prompts opened so far (names the next one).
    opened: u32,
    /// Prompts not yet taken by their call.
    parked: Vec<ParkedPrompt>,
    /// The events the double would have emitted, in order.
    events: Vec<SessionEvent>,
    /// Calls that ran their tool.
    runs: u32,
    /// The waker of the call waiting for an answer.
    waker: Option<Waker>,
}

/// The runtime-tool double: lists its tools and runs them, failing closed by default and
/// withdrawing a prompt whose call is cancelled (see the module docs).
///
/// It also answers prompts ([`SessionPromptResolution`]): the first answer for a parked prompt
/// settles it and records `prompt_resolved`; any other answer is ignored.
#[derive(Debug, Default)]
pub struct TestRuntimeTools {
    /// The tools, in listing order.
    tools: Vec<TestRuntimeTool>,
    /// Prompts, events and counts.
    book: RefCell<PromptBook>,
}

impl TestRuntimeTools {
    /// A double with no tools: listing is empty, and every call resolves with a failed result
    /// naming the unknown tool.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The same double with `tool` added at the end of the listing.
    #[must_use]
    pub fn with_tool(mut self, tool: TestRuntimeTool) -> Self {
        self.tools.push(tool);
        self
    }

    /// Every event the double emitted so far (`permission_request`, `prompt_resolved`), in
    /// order.
    #[must_use]
    pub fn events(&self) -> Vec<SessionEvent> {
        self.book.borrow().events.clone()
    }

    /// The ids of the prompts that wait for an answer now.
    #[must_use]
    pub fn waiting_prompts(&self) -> Vec<String> {
        self.book
            .borrow()
            .parked
            .iter()
            .filter(|prompt| prompt.answer.is_none())
            .map(|prompt| prompt.id.clone())
            .collect()
    }

    /// How many calls ran their tool.
    #[must_use]
    pub fn runs(&self) -> u32 {
        self.book.borrow().runs
    }

    /// Opens a permission prompt for a call of `tool` attributed to `driver_id`, parks it and
    /// records its `permission_request`; returns its id.
    fn open_prompt(
        &self,
        tool: &TestRuntimeTool,
        parameters: &ToolParameters,
        driver_id: Option<&str>,
    ) -> String {
        let mut book = self.book.borrow_mut();
        book.opened = book.opened.saturating_add(1);
        let id = format!("runtime-tool-prompt-{}", book.opened);
        book.parked.push(ParkedPrompt {
            id: id.clone(),
            answer: None,
        });
        book.events
            .push(SessionEvent::PermissionRequest(PermissionRequestEvent {
                id: id.clone(),
                tool_name: tool.schema.name.clone(),
                tool_args: parameters.clone(),
                can_persist_project_permission: None,
                requester_driver_id: driver_id.map(String::from),
                requester: None,
            }));
        id
    }

    /// Takes the prompt `id` out of the book. When nobody answered it yet it is withdrawn:
    /// `prompt_resolved` is recorded (with no answerer) so every surface dismisses it.
    fn withdraw(&self, id: &str) {
        let mut book = self.book.borrow_mut();
        if let Some(index) = book.parked.iter().position(|prompt| prompt.id == id) {
            let prompt = book.parked.remove(index);
            if prompt.answer.is_none() {
                book.events
                    .push(SessionEvent::PromptResolved(PromptResolvedEvent {
                        id: prompt.id,
                        answerer_driver_id: None,
                    }));
            }
        }
    }

    /// Polls the prompt `id` for its call: withdrawn and `None` once the call is cancelled,
    /// `Some(answer)` once answered, pending otherwise (the waker is woken by an answer).
    fn poll_answer(
        &self,
        id: &str,
        cancelled: bool,
        cx: &mut Context<'_>,
    ) -> Poll<Option<PermissionResultValue>> {
        if cancelled {
            self.withdraw(id);
            return Poll::Ready(None);
        }
        let mut book = self.book.borrow_mut();
        let answer = book
            .parked
            .iter()
            .find(|prompt| prompt.id == id)
            .and_then(|prompt| prompt.answer);
        match answer {
            Some(answer) => {
                book.parked.retain(|prompt| prompt.id != id);
                Poll::Ready(Some(answer))
            }
            None => {
                book.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }

    /// The result of a call refused a permission: `success: false` and why.
    fn denied(name: &str, why: &str) -> ToolExecutionResult {
        ToolExecutionResult {
            success: false,
            tool_name: Some(String::from(name)),
            error: Some(format!("permission denied for `{name}`: {why}")),
            ..ToolExecutionResult::default()
        }
    }
}

/// Withdraws a call's waiting prompt when the call's future is dropped before it settled.
struct WithdrawOnDrop<'a> {
    /// The double holding the prompt.
    tools: &'a TestRuntimeTools,
    /// The prompt's id.
    id: &'a str,
}

impl Drop for WithdrawOnDrop<'_> {
    fn drop(&mut self) {
        self.tools.withdraw(self.id);
    }
}

impl SessionRuntimeTools for TestRuntimeTools {
    type Error = ErrorValue;

    async fn list_runtime_tools(&self) -> Result<Vec<ToolSchema>, ErrorValue> {
        Ok(self.tools.iter().map(|tool| tool.schema.clone()).collect())
    }

    async fn invoke_runtime_tool<S: AbortSignal>(
        &self,
        name: &str,
        parameters: &ToolParameters,
        options: RuntimeToolInvokeOptions<S>,
    ) -> Result<ToolExecutionResult, ErrorValue> {
        let Some(tool) = self.tools.iter().find(|tool| tool.schema.name == name) else {
            return Ok(ToolExecutionResult {
                success: false,
                tool_name: Some(String::from(name)),
                error: Some(format!("no runtime tool named `{name}`")),
                ..ToolExecutionResult::default()
            });
        };
        if options.is_aborted() {
            return Err(cancelled_error());
        }
        if tool.needs_permission {
            match options.prompt_route() {
                PermissionPromptRoute::DenyWithoutAsking => {
                    return Ok(Self::denied(name, "this call may not ask a person"));
                }
                PermissionPromptRoute::Ask { driver_id } => {
                    let id = self.open_prompt(tool, parameters, driver_id);
                    let guard = WithdrawOnDrop {
                        tools: self,
                        id: &id,
                    };
                    let answer =
                        poll_fn(|cx| self.poll_answer(&id, options.is_aborted(), cx)).await;
                    drop(guard);
                    match answer {
                        None => return Err(cancelled_error()),
                        Some(answer) if !answer.allows() => {
                            return Ok(Self::denied(name, "the person said no"));
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        let mut book = self.book.borrow_mut();
        book.runs = book.runs.saturating_add(1);
        Ok(tool.result.clone())
    }
}

impl SessionPromptResolution for TestRuntimeTools {
    fn resolve_permission(
        &self,
        id: &str,
        result: PermissionResultValue,
        answerer_driver_id: Option<&str>,
    ) {
        let waker = {
            let mut book = self.book.borrow_mut();
            let Some(prompt) = book
                .parked
                .iter_mut()
                .find(|prompt| prompt.id == id && prompt.answer.is_none())
            else {
                return;
            };
            prompt.answer = Some(result);
            book.events
                .push(SessionEvent::PromptResolved(PromptResolvedEvent {
                    id: String::from(id),
                    answerer_driver_id: answerer_driver_id.map(String::from),
                }));
            book.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// The runtime-tool double opens no ask prompts, so every ask answer is ignored.
    fn resolve_ask(&self, _id: &str, _response: ActionResponse, _answerer_driver_id: Option<&str>) {
    }
}

// ---------------------------------------------------------------------------------------------
// The session double
// ---------------------------------------------------------------------------------------------

/// What a submit override is told about one submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestSubmitCall<'a> {
    /// The input for the model.
    pub input: &'a str,
    /// The input as surfaces show it, when given.
    pub display_input: Option<&'a str>,
    /// The input as typed, when given.
    pub raw_input: Option<&'a str>,
    /// The driver the turn is attributed to ([`SubmitOptions::attributed_driver_id`]).
    pub driver_id: Option<&'a str>,
}

/// An identity override: the session id, or an error standing for an identity that cannot answer.
type IdentityOverride = Box<dyn Fn() -> Result<String, ErrorValue>>;

/// A submit override: the handle to return, authoritative.
type SubmitOverride =
    Box<dyn Fn(&TestSubmitCall<'_>) -> Result<TurnHandle<BoxedTurnCompletion>, ErrorValue>>;

/// The full session double (`createTestInteractiveSession`): every role, with the defaults of
/// the TypeScript double and the overrides of its `with_*` methods (see the module docs).
pub struct TestInteractiveSession {
    /// `test-session-<n>`: the id every surface falls back to.
    own_id: String,
    /// Default submissions accepted so far.
    turns: Cell<u32>,
    /// The identity override.
    identity: Option<IdentityOverride>,
    /// The submit override.
    submit: Option<SubmitOverride>,
    /// `is_initialized`.
    initialized: bool,
    /// `get_pending_count`.
    pending_count: u32,
    /// `get_active_driver_id`.
    active_driver_id: Option<DriverId>,
    /// `is_executing`.
    executing: bool,
    /// `get_pending_prompt`.
    pending_prompt: Option<String>,
    /// `get_cwd`, and the cwd of a spawned job.
    cwd: String,
    /// The runtime-tool role (and the prompts its calls open).
    runtime_tools: TestRuntimeTools,
}

/// Prints the double's own id and its overridden values (closures are shown as present or not).
impl fmt::Debug for TestInteractiveSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestInteractiveSession")
            .field("own_id", &self.own_id)
            .field("turns", &self.turns.get())
            .field("identity_override", &self.identity.is_some())
            .field("submit_override", &self.submit.is_some())
            .field("initialized", &self.initialized)
            .field("pending_count", &self.pending_count)
            .field("active_driver_id", &self.active_driver_id)
            .finish_non_exhaustive()
    }
}

impl Default for TestInteractiveSession {
    fn default() -> Self {
        Self::new()
    }
}

impl TestInteractiveSession {
    /// A new double with every default and the next id `test-session-<n>`.
    #[must_use]
    pub fn new() -> Self {
        let n = next_double_number();
        Self {
            own_id: format!("test-session-{n}"),
            turns: Cell::new(0),
            identity: None,
            submit: None,
            initialized: true,
            pending_count: 0,
            active_driver_id: None,
            executing: false,
            pending_prompt: None,
            cwd: String::from(TEST_CWD),
            runtime_tools: TestRuntimeTools::new(),
        }
    }

    /// Overrides the identity: `identity` answers the session id, or fails (an identity that
    /// cannot answer). Surfaces that name the session fall back to [`own_id`](Self::own_id)
    /// when it fails or answers `""`.
    #[must_use]
    pub fn with_identity(
        mut self,
        identity: impl Fn() -> Result<String, ErrorValue> + 'static,
    ) -> Self {
        self.identity = Some(Box::new(identity));
        self
    }

    /// Overrides the identity with a fixed id (the common case of
    /// [`with_identity`](Self::with_identity)).
    #[must_use]
    pub fn with_session_id(self, session_id: &str) -> Self {
        let session_id = String::from(session_id);
        self.with_identity(move || Ok(session_id.clone()))
    }

    /// Overrides `submit`: `submit` decides the handle (authoritative; the turn count does not
    /// move). The options are still validated first.
    #[must_use]
    pub fn with_submit(
        mut self,
        submit: impl Fn(&TestSubmitCall<'_>) -> Result<TurnHandle<BoxedTurnCompletion>, ErrorValue>
        + 'static,
    ) -> Self {
        self.submit = Some(Box::new(submit));
        self
    }

    /// Overrides `is_initialized` (default `true`).
    #[must_use]
    pub fn with_initialized(mut self, initialized: bool) -> Self {
        self.initialized = initialized;
        self
    }

    /// Overrides `get_pending_count` (default 0).
    #[must_use]
    pub fn with_pending_count(mut self, pending_count: u32) -> Self {
        self.pending_count = pending_count;
        self
    }

    /// Overrides `get_active_driver_id` (default `None`: nobody is driving).
    #[must_use]
    pub fn with_active_driver_id(mut self, driver_id: Option<&str>) -> Self {
        self.active_driver_id = driver_id.map(String::from);
        self
    }

    /// Overrides `is_executing` (default `false`).
    #[must_use]
    pub fn with_executing(mut self, executing: bool) -> Self {
        self.executing = executing;
        self
    }

    /// Overrides `get_pending_prompt` (default `None`).
    #[must_use]
    pub fn with_pending_prompt(mut self, prompt: Option<&str>) -> Self {
        self.pending_prompt = prompt.map(String::from);
        self
    }

    /// Overrides `get_cwd` and the cwd of a spawned job (default [`TEST_CWD`]).
    #[must_use]
    pub fn with_cwd(mut self, cwd: &str) -> Self {
        self.cwd = String::from(cwd);
        self
    }

    /// Replaces the runtime-tool role (default: no tools). Permission answers given through the
    /// session's `resolve_permission` reach the prompts these tools open.
    #[must_use]
    pub fn with_runtime_tools(mut self, runtime_tools: TestRuntimeTools) -> Self {
        self.runtime_tools = runtime_tools;
        self
    }

    /// The double's own id, `test-session-<n>`: what every surface falls back to.
    #[must_use]
    pub fn own_id(&self) -> &str {
        &self.own_id
    }

    /// The runtime-tool double this session answers with (its events and waiting prompts).
    #[must_use]
    pub fn runtime_tools(&self) -> &TestRuntimeTools {
        &self.runtime_tools
    }

    /// The id every surface names: the identity's answer when it gives a non-empty one, else
    /// [`own_id`](Self::own_id). Resolved on each call, so a surface always agrees with the
    /// identity.
    #[must_use]
    pub fn session_id(&self) -> String {
        match self.identity.as_ref().map(|identity| identity()) {
            Some(Ok(id)) if !id.is_empty() => id,
            _ => self.own_id.clone(),
        }
    }

    /// The group every group member of the double answers with: empty, completed, `wait_all`,
    /// owned by this session.
    fn empty_group(&self) -> BackgroundJobGroupState {
        BackgroundJobGroupState::new(
            String::new(),
            self.session_id(),
            BackgroundJobWaitPolicy::WaitAll,
            Vec::new(),
            BackgroundJobGroupStatus::Completed,
            TEST_TIMESTAMP,
            TEST_TIMESTAMP,
        )
    }
}

impl SessionLifecycle for TestInteractiveSession {
    type Error = ErrorValue;

    fn is_initialized(&self) -> bool {
        self.initialized
    }

    async fn shutdown(&self, _options: ShutdownOptions) -> Result<(), ErrorValue> {
        Ok(())
    }
}

impl SessionTurnSubmission for TestInteractiveSession {
    type Completion = BoxedTurnCompletion;
    type Error = ErrorValue;

    async fn submit<S: AbortSignal + 'static>(
        &self,
        input: &str,
        display_input: Option<&str>,
        raw_input: Option<&str>,
        options: SubmitOptions<S>,
    ) -> Result<TurnHandle<BoxedTurnCompletion>, ErrorValue> {
        options
            .validate()
            .map_err(|refusal| ErrorValue::from_message(refusal.to_string()))?;
        if let Some(submit) = &self.submit {
            return submit(&TestSubmitCall {
                input,
                display_input,
                raw_input,
                driver_id: options.attributed_driver_id(),
            });
        }
        let session_id = self.session_id();
        let k = self.turns.get().saturating_add(1);
        self.turns.set(k);
        let result = ExecutionResult {
            response: String::new(),
            history: Vec::new(),
            tool_summaries: Vec::new(),
            context_state: empty_context_state(),
            usage: None,
            prompt_file_references: None,
        };
        let completed: BoxedTurnCompletion =
            Box::pin(core::future::ready(Ok(TurnOutcome::from(result))));
        Ok(TurnHandle::new(format!("{session_id}-turn-{k}"), completed))
    }
}

impl SessionTurnControl for TestInteractiveSession {
    fn abort(&self) {}

    fn cancel_queue(&self) {}
}

impl SessionGoal for TestInteractiveSession {
    type Error = ErrorValue;

    /// Resolves with the TypeScript double's goal whatever the objective: `test-goal`, active,
    /// at most 25 iterations.
    async fn set_goal(
        &self,
        _objective: &str,
        _options: SetGoalOptions,
    ) -> Result<GoalState, ErrorValue> {
        Ok(GoalState {
            id: String::from("test-goal"),
            objective: String::from("test goal"),
            status: GoalStatus::Active,
            stop_reason: None,
            iterations: 0,
            max_iterations: 25,
            started_at: String::from(TEST_TIMESTAMP),
            progress: Vec::new(),
        })
    }

    fn get_goal_state(&self) -> Option<GoalState> {
        None
    }

    fn cancel_goal(&self) -> Option<GoalState> {
        None
    }
}

impl SessionExecutionState for TestInteractiveSession {
    fn is_executing(&self) -> bool {
        self.executing
    }

    fn get_pending_prompt(&self) -> Option<String> {
        self.pending_prompt.clone()
    }

    fn get_pending_count(&self) -> u32 {
        self.pending_count
    }
}

impl SessionDriverAttribution for TestInteractiveSession {
    fn get_active_driver_id(&self) -> Option<DriverId> {
        self.active_driver_id.clone()
    }
}

impl SessionConversationRead for TestInteractiveSession {
    fn get_messages(&self) -> Vec<UniversalMessage> {
        Vec::new()
    }

    fn get_full_history(&self) -> Vec<HistoryEntry> {
        Vec::new()
    }

    fn get_context_state(&self) -> ContextWindowState {
        empty_context_state()
    }

    fn get_messages_display(&self) -> Vec<UniversalMessage> {
        Vec::new()
    }
}

impl SessionIdentity for TestInteractiveSession {
    /// The identity override's answer as given (even `""`), or the double's own id when there is
    /// no override or it fails.
    fn get_session(&self) -> SessionIdHandle {
        match self.identity.as_ref().map(|identity| identity()) {
            Some(Ok(id)) => SessionIdHandle::new(id),
            _ => SessionIdHandle::new(self.own_id.clone()),
        }
    }
}

impl SessionWorkspaceLocation for TestInteractiveSession {
    fn get_cwd(&self) -> String {
        self.cwd.clone()
    }
}

impl SessionCommands for TestInteractiveSession {
    type Error = ErrorValue;

    async fn execute_command(
        &self,
        _name: &str,
        _args: &str,
        _source: Option<CommandInvocationSource>,
        _origin_driver_id: Option<&str>,
    ) -> Result<Option<CommandResult>, ErrorValue> {
        Ok(None)
    }

    fn list_commands(&self) -> Vec<CommandListEntry> {
        Vec::new()
    }

    fn list_skills(&self) -> Vec<CommandSkillListEntry> {
        Vec::new()
    }

    fn list_models(&self) -> ModelListSnapshot {
        ModelListSnapshot::default()
    }
}

impl SessionStatusRead for TestInteractiveSession {
    /// A neutral status: this session's id, no model, default mode and effort, the empty
    /// context, no goal.
    fn get_status_snapshot(&self) -> SessionStatusSnapshot {
        SessionStatusSnapshot {
            session_id: self.session_id(),
            session_name: None,
            model: String::new(),
            permission_mode: PermissionMode::Default,
            effort: ModelEffortSelection::Auto,
            context: empty_context_state(),
            goal: None,
            setup_required: false,
            workspace: None,
        }
    }
}

impl SessionRuntimeTools for TestInteractiveSession {
    type Error = ErrorValue;

    async fn list_runtime_tools(&self) -> Result<Vec<ToolSchema>, ErrorValue> {
        self.runtime_tools.list_runtime_tools().await
    }

    async fn invoke_runtime_tool<S: AbortSignal>(
        &self,
        name: &str,
        parameters: &ToolParameters,
        options: RuntimeToolInvokeOptions<S>,
    ) -> Result<ToolExecutionResult, ErrorValue> {
        self.runtime_tools
            .invoke_runtime_tool(name, parameters, options)
            .await
    }
}

impl SessionEvents for TestInteractiveSession {
    fn on(&self, _event: InteractiveEventName, _handler: SessionEventHandler) {}

    fn off(&self, _event: InteractiveEventName, _handler: &SessionEventHandler) {}
}

impl SessionPromptResolution for TestInteractiveSession {
    /// Settles a prompt a runtime-tool call opened (first answer wins); anything else is ignored.
    fn resolve_permission(
        &self,
        id: &str,
        result: PermissionResultValue,
        answerer_driver_id: Option<&str>,
    ) {
        self.runtime_tools
            .resolve_permission(id, result, answerer_driver_id);
    }

    fn resolve_ask(&self, _id: &str, _response: ActionResponse, _answerer_driver_id: Option<&str>) {
    }
}

impl SessionBackgroundTasks for TestInteractiveSession {
    type Error = ErrorValue;

    fn list_background_tasks(&self, _filter: BackgroundTaskListFilter) -> Vec<BackgroundTaskState> {
        Vec::new()
    }

    fn get_background_task(&self, _task_id: &str) -> Option<BackgroundTaskState> {
        None
    }

    async fn cancel_background_task(
        &self,
        _task_id: &str,
        _reason: Option<&str>,
    ) -> Result<(), ErrorValue> {
        Ok(())
    }

    async fn close_background_task(&self, _task_id: &str) -> Result<(), ErrorValue> {
        Ok(())
    }

    async fn send_background_task(
        &self,
        _task_id: &str,
        _input: BackgroundTaskInput,
    ) -> Result<(), ErrorValue> {
        Ok(())
    }

    /// An empty page of no task: `{taskId: '', lines: []}`.
    async fn read_background_task_log(
        &self,
        _task_id: &str,
        _cursor: Option<BackgroundTaskLogCursor>,
    ) -> Result<BackgroundTaskLogPage, ErrorValue> {
        Ok(BackgroundTaskLogPage::default())
    }
}

impl SessionBackgroundGroups for TestInteractiveSession {
    type Error = ErrorValue;

    fn list_background_job_groups(&self) -> Vec<BackgroundJobGroupState> {
        Vec::new()
    }

    fn get_background_job_group(&self, _group_id: &str) -> Option<BackgroundJobGroupState> {
        None
    }

    /// An empty completed `wait_all` group owned by this session, whatever the input.
    fn create_background_job_group(
        &self,
        _input: BackgroundJobGroupCreateInput,
    ) -> Result<BackgroundJobGroupState, ErrorValue> {
        Ok(self.empty_group())
    }

    /// The same empty group as [`create_background_job_group`](Self::create_background_job_group).
    async fn wait_background_job_group(
        &self,
        _group_id: &str,
    ) -> Result<BackgroundJobGroupState, ErrorValue> {
        Ok(self.empty_group())
    }
}

impl SessionExecutionWorkspace for TestInteractiveSession {
    /// A snapshot with no entries, owned by this session.
    fn get_execution_workspace_snapshot(
        &self,
        _options: &ExecutionWorkspaceSnapshotOptions,
    ) -> ExecutionWorkspaceSnapshot {
        ExecutionWorkspaceSnapshot::new(self.session_id(), TEST_TIMESTAMP, Vec::new())
    }
}

impl SessionExecutionDetail for TestInteractiveSession {
    type Error = ErrorValue;

    /// `{entryId, cursor, records: []}`: the page asked for, empty.
    async fn read_execution_workspace_detail(
        &self,
        entry_id: &str,
        cursor: Option<ExecutionDetailCursor>,
    ) -> Result<ExecutionDetailPage, ErrorValue> {
        let mut page = ExecutionDetailPage::new(entry_id, Vec::new());
        page.cursor = cursor;
        Ok(page)
    }
}

impl SessionSelfPacedLoopControl for TestInteractiveSession {
    /// `{kind: 'none'}`: the double has no loop.
    async fn stop_waiting_self_paced_loop(&self, _reason: Option<&str>) -> WaitingLoopStopOutcome {
        WaitingLoopStopOutcome::None
    }
}

impl SessionAgentJobs for TestInteractiveSession {
    type Error = ErrorValue;

    fn list_agent_definitions(&self) -> Vec<AgentDefinitionSummary> {
        Vec::new()
    }

    fn list_agent_jobs(&self) -> Vec<SubagentJobState> {
        Vec::new()
    }

    /// A running background job `agent_1` of type `general-purpose`, depth 1, in the double's
    /// cwd, owned by this session, whatever the input.
    async fn spawn_agent_job(
        &self,
        _input: AgentJobSpawnInput,
    ) -> Result<SubagentJobState, ErrorValue> {
        Ok(SubagentJobState::new(
            JobStateFields::new(
                "agent_1",
                "general-purpose",
                self.session_id(),
                BackgroundTaskMode::Background,
                1,
                self.cwd.clone(),
                TEST_TIMESTAMP,
            ),
            "general-purpose",
            SubagentJobStatus::Running,
            String::new(),
        ))
    }

    async fn send_agent_job(&self, _task_id: &str, _prompt: &str) -> Result<(), ErrorValue> {
        Ok(())
    }

    async fn cancel_agent_job(
        &self,
        _task_id: &str,
        _reason: Option<&str>,
    ) -> Result<(), ErrorValue> {
        Ok(())
    }

    async fn close_agent_job(&self, _task_id: &str) -> Result<(), ErrorValue> {
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// The described capability host
// ---------------------------------------------------------------------------------------------

/// The member names no role may forward: they would collide with the host's own structure in a
/// JavaScript host (`constructor`, `capabilities`, `__proto__`).
pub const RESERVED_CAPABILITY_MEMBERS: &[&str] = &["constructor", "capabilities", "__proto__"];

/// Why a described host could not be built. `Display` is the contract's exact message.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum CapabilityHostError {
    /// A key that is not one of the 20 roles: `Unknown session capability: <key>`.
    #[error("Unknown session capability: {key}")]
    UnknownRole {
        /// The key as described.
        key: String,
    },
    /// A present role lacks one of its canonical members:
    /// `Missing <role> capability member: <member>`.
    #[error("Missing {role} capability member: {member}")]
    MissingMember {
        /// The role.
        role: SessionCapabilityRole,
        /// The first canonical member it lacks.
        member: String,
    },
    /// A member name the host must never forward:
    /// `Reserved session capability member: <member>`.
    #[error("Reserved session capability member: {member}")]
    ReservedMember {
        /// The name.
        member: String,
    },
    /// A member forwarded by two roles: `Duplicate session capability member: <member>`.
    #[error("Duplicate session capability member: {member}")]
    DuplicateMember {
        /// The name.
        member: String,
    },
}

/// A capability map described at run time: role keys (any text, checked when the host is built),
/// each with the member names its object provides, or `None` for a role explicitly absent.
///
/// Keys keep the order they were first described in; describing a key again replaces its
/// members in place (as assigning a key of a JavaScript object does).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CapabilityHostDescription {
    /// Each key with its members, in description order.
    roles: Vec<(String, Option<Vec<String>>)>,
}

impl CapabilityHostDescription {
    /// An empty description (a host from it provides nothing).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The same description with `key` described as providing `members` (`None`: explicitly
    /// absent).
    #[must_use]
    pub fn role(mut self, key: &str, members: Option<&[&str]>) -> Self {
        self.set_role(key, members);
        self
    }

    /// Describes `key` as providing `members` (`None`: explicitly absent), replacing an earlier
    /// description of the same key in place.
    pub fn set_role(&mut self, key: &str, members: Option<&[&str]>) {
        let members = members.map(|members| members.iter().map(|m| String::from(*m)).collect());
        match self.roles.iter_mut().find(|(existing, _)| existing == key) {
            Some((_, slot)) => *slot = members,
            None => self.roles.push((String::from(key), members)),
        }
    }

    /// Forgets `key` altogether.
    pub fn remove_role(&mut self, key: &str) {
        self.roles.retain(|(existing, _)| existing != key);
    }

    /// The described keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.roles.iter().map(|(key, _)| key.as_str())
    }
}

/// A host built from a [`CapabilityHostDescription`]: which roles it provides and which role
/// answers each forwarded member. A snapshot: it owns what it read and has no mutating API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribedCapabilityHost {
    /// The provided roles in description order, each with the members it forwards.
    capabilities: Vec<(SessionCapabilityRole, Vec<String>)>,
}

impl DescribedCapabilityHost {
    /// The provided roles, in description order (the keys of the host's `capabilities`).
    #[must_use]
    pub fn capabilities(&self) -> Vec<SessionCapabilityRole> {
        self.capabilities.iter().map(|(role, _)| *role).collect()
    }

    /// Reads `role` (`readSessionCapability`): the member names it forwards when provided.
    #[must_use]
    pub fn read(&self, role: SessionCapabilityRole) -> CapabilityRead<&[String]> {
        self.capabilities
            .iter()
            .find(|(provided, _)| *provided == role)
            .map(|(_, members)| members.as_slice())
            .into()
    }

    /// True when the host provides `role`.
    #[must_use]
    pub fn provides(&self, role: SessionCapabilityRole) -> bool {
        self.read(role).is_provided()
    }

    /// Every forwarded member name, in order (the host's own members before `capabilities`).
    pub fn members(&self) -> impl Iterator<Item = &str> {
        self.capabilities
            .iter()
            .flat_map(|(_, members)| members.iter().map(String::as_str))
    }

    /// The role whose object answers `member` (forwarding with the original receiver: call the
    /// member on that role's own object), or `None` when the host does not forward it.
    #[must_use]
    pub fn route(&self, member: &str) -> Option<SessionCapabilityRole> {
        self.capabilities
            .iter()
            .find(|(_, members)| members.iter().any(|m| m == member))
            .map(|(role, _)| *role)
    }
}

/// Builds a host from `description` against the canonical table
/// (`createSessionCapabilityHost`, alias `createTestSessionCapabilityHost`).
///
/// # Errors
///
/// The first rejection met, in the contract's order: an unknown key (every key is checked before
/// any role), then per present role, per canonical member, a reserved name, a duplicate, a
/// missing member. See [`CapabilityHostError`].
pub fn create_session_capability_host(
    description: &CapabilityHostDescription,
) -> Result<DescribedCapabilityHost, CapabilityHostError> {
    create_session_capability_host_with_table(description, SESSION_CAPABILITY_MEMBER_KEYS)
}

/// Builds a host from `description` against `table` instead of the canonical member table, so
/// an amended table can be checked before it ships: the reserved-name and duplicate rejections
/// can only fire for a table that breaks the rules, and the canonical one does not. A role with
/// no row in `table` forwards nothing.
///
/// # Errors
///
/// As [`create_session_capability_host`].
pub fn create_session_capability_host_with_table(
    description: &CapabilityHostDescription,
    table: &[(SessionCapabilityRole, &[&str])],
) -> Result<DescribedCapabilityHost, CapabilityHostError> {
    let mut known = Vec::with_capacity(description.roles.len());
    for (key, members) in &description.roles {
        match SessionCapabilityRole::from_literal(key) {
            Some(role) => known.push((role, members)),
            None => return Err(CapabilityHostError::UnknownRole { key: key.clone() }),
        }
    }
    let mut capabilities: Vec<(SessionCapabilityRole, Vec<String>)> = Vec::new();
    for (role, provided) in known {
        let Some(provided) = provided else {
            continue;
        };
        let canonical = table
            .iter()
            .find(|(row, _)| *row == role)
            .map_or(&[][..], |(_, members)| *members);
        let mut forwarded = Vec::with_capacity(canonical.len());
        for member in canonical {
            if RESERVED_CAPABILITY_MEMBERS.contains(member) {
                return Err(CapabilityHostError::ReservedMember {
                    member: String::from(*member),
                });
            }
            let claimed = capabilities
                .iter()
                .flat_map(|(_, members)| members.iter())
                .chain(forwarded.iter())
                .any(|existing: &String| existing == member);
            if claimed {
                return Err(CapabilityHostError::DuplicateMember {
                    member: String::from(*member),
                });
            }
            if !provided.iter().any(|name| name == member) {
                return Err(CapabilityHostError::MissingMember {
                    role,
                    member: String::from(*member),
                });
            }
            forwarded.push(String::from(*member));
        }
        capabilities.push((role, forwarded));
    }
    Ok(DescribedCapabilityHost { capabilities })
}

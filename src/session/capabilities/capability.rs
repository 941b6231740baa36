//! The session's capability roles (`session-capability-contracts`): the 20 role ports a session
//! is made of, their canonical member table, the capability host that tells an absent role from
//! a present one, and the [`InteractiveSession`] aggregate that requires every role.
//!
//! # Rust shape
//!
//! * Each role of the capability map is one trait ([`SessionLifecycle`], [`SessionTurnSubmission`],
//!   …, [`SessionAgentJobs`]; the runtime-tool role, [`SessionRuntimeTools`], lives in its own
//!   file). A member that returns a Promise in TypeScript is an `async fn`; no `Send` bound is
//!   forced, because wasm and embedded hosts are single-threaded. Members take `&self`: one
//!   session serves several surfaces at once, so an implementation keeps its state behind
//!   interior mutability.
//! * A role whose members can fail has an associated `Error` type; the members that can fail
//!   return `Result<_, Self::Error>`. Reads (`get_*`, `list_*`, `is_*`) cannot fail, as in the
//!   contract. [`SessionSelfPacedLoopControl`] has no error: a failed stop is one of its outcomes.
//! * [`InteractiveSession`] is the aggregate (`IInteractiveSession`): a trait with every role as
//!   a supertrait and a blanket implementation, so a type is a session exactly when it implements
//!   all 20 roles, and adding a member to a role breaks every implementation that lacks it.
//! * Capability objects are local, function-valued ports: nothing here is serialized. Only the
//!   plain input records ([`ShutdownOptions`], [`SetGoalOptions`],
//!   [`BackgroundJobGroupCreateInput`], [`AgentJobSpawnInput`], [`AgentDefinitionSummary`]) derive
//!   serde, like every record of the crate.
//! * **Events.** A handler is one type for every event, [`SessionEventHandler`]
//!   (`Rc<dyn Fn(&SessionEvent)>`); the event map's per-name typing becomes the rule that a
//!   session calls a handler only with events of the name it registered for. `off` names the
//!   handler `on` registered by pointer identity, as JavaScript compares functions.
//! * **`getSession()`** returns [`SessionIdHandle`], a value with the one accessor
//!   `get_session_id`, in place of the anonymous `{ getSessionId() }` object.
//! * **A skill command's cancellation** (merged spec; no signature recovered): `execute_command`
//!   keeps the four TypeScript parameters, and a caller cancels by dropping the returned future,
//!   which stops every step the command had not finished, preparation included.
//! * **Numbers.** The pending count is a `u32`; goal limits are `u32`.
//!
//! # The member table ([`SESSION_CAPABILITY_MEMBER_KEYS`]): 48 members, not 46
//!
//! The newest contract source that could be read declares 46 members, but it already declares
//! `listModels` on the commands port without listing it, and the newest contract test expects 48:
//! `commands.listModels` and `conversationRead.getMessagesDisplay` added. This crate follows the
//! test (and the catalog): 20 roles, 48 members, each row in exact parity with its trait's
//! members. The two added names close their rows, because their position was not recovered.
//! `getMessagesDisplay`'s shape was not recovered either:
//! [`SessionConversationRead::get_messages_display`] returns the messages a surface displays.
//!
//! # The capability host
//!
//! [`SessionCapabilityHost`] is the Rust form of `TSessionCapabilityHost`: one value that holds
//! a subset of the roles, each a reference to the object that implements it.
//!
//! * **Required roles cannot be left out.** Initialization state (lifecycle's `is_initialized`),
//!   the pending-turn count (executionState's `get_pending_count`) and the active driver
//!   (driverAttribution's `get_active_driver_id`) are required by the contract, so the host's
//!   constructor takes those three roles and they are not `Option`s. `None` from
//!   `get_active_driver_id` therefore means exactly one thing: nobody is driving.
//! * **Every other role is optional.** An absent role reads
//!   [`CapabilityRead::NotProvided`]; a present role reads [`CapabilityRead::Provided`] with the
//!   role object, whatever its members return (`None`, empty lists, `false`). The two cannot be
//!   confused: they are different variants, not one `Option` of an `Option`.
//! * **Frozen becomes owned.** The TypeScript host freezes a copy of the caller's map. Here the
//!   host is a value holding references; it has no mutating API: `with_*` consumes the host and
//!   returns a new one, so a host once handed out never changes under its reader.
//! * **Forwarding with the original receiver** is a method call on the role object itself: the
//!   host stores the reference it was given and calls through it, so the implementation's own
//!   state is what answers. There is no getter, binding or caching to reproduce.
//! * **`dyn` companions.** A host holds different implementation types side by side, which needs
//!   `dyn`, and a trait with `async fn` is not dyn-compatible. Each role with an `async` member has
//!   a dyn-compatible companion (`Dyn…`, boxed futures, methods prefixed `dyn_`) implemented for
//!   every implementation of the role, and the role itself is implemented for the companion's
//!   trait object, so a role read from a host is used through the ordinary role trait. A host
//!   fixes one error type `E` (by default [`ErrorValue`]) for its fallible roles, and the turn
//!   completion is boxed ([`BoxedTurnCompletion`]).
//! * **Abort signals in the erased submit.** A submission's signal must outlive the call (the
//!   turn waits in the queue), so the erased form carries it boxed; [`AbortSignal`] is therefore
//!   implemented here for `Box<S>` and `Rc<S>` (an `Rc` is also how a caller keeps a handle to
//!   the signal it passed).
//!
//! Roles described at run time (bridged from JavaScript, read from a configuration) are built
//! and checked by the testing subpath's described host, with the contract's exact rejections.

use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::future::Future;
use core::pin::Pin;

use crate::agent_core::{
    ActionResponse, ContextWindowState, ErrorValue, HistoryEntry, UniversalMessage,
};
use crate::command::definition::{CommandInvocationSource, CommandResult};
use crate::command::listing::{CommandListEntry, CommandSkillListEntry};
use crate::execution::{
    groups::{BackgroundJobGroupState, BackgroundJobWaitPolicy},
    subagents::SubagentJobState,
    task_state::{
        BackgroundTaskInput, BackgroundTaskListFilter, BackgroundTaskLogCursor,
        BackgroundTaskLogPage, BackgroundTaskState,
    },
    task_vocabulary::{BackgroundTaskIsolation, BackgroundTaskMode},
    workspace::{
        ExecutionDetailCursor, ExecutionDetailPage, ExecutionWorkspaceSnapshot,
        ExecutionWorkspaceSnapshotOptions,
    },
};

use super::runtime_tools::{DynSessionRuntimeTools, SessionRuntimeTools};
use crate::agent_core::AbortSignal;
use crate::session::events::{
    GoalState, InteractiveEventName, ModelListSnapshot, SessionEvent, SessionStatusSnapshot,
};
use crate::session::loops::WaitingLoopStopOutcome;
use crate::session::prompts::PermissionResultValue;
use crate::session::turns::{DriverId, SubmitOptions, TurnCompletion, TurnHandle};

// ---------------------------------------------------------------------------------------------
// Role names and the member table
// ---------------------------------------------------------------------------------------------

string_enum! {
    /// The name of one capability role (a key of `ISessionCapabilityMap`): exactly the 20 roles,
    /// in the order of [`SESSION_CAPABILITY_MEMBER_KEYS`].
    pub enum SessionCapabilityRole {
        /// `lifecycle`: initialization state and shutdown ([`SessionLifecycle`]). Required.
        Lifecycle = "lifecycle",
        /// `turnSubmission`: submitting a turn ([`SessionTurnSubmission`]).
        TurnSubmission = "turnSubmission",
        /// `turnControl`: aborting the turn and clearing the queue ([`SessionTurnControl`]).
        TurnControl = "turnControl",
        /// `goal`: the session's goal ([`SessionGoal`]).
        Goal = "goal",
        /// `executionState`: whether a turn runs and what waits ([`SessionExecutionState`]).
        /// Required.
        ExecutionState = "executionState",
        /// `driverAttribution`: who drives now ([`SessionDriverAttribution`]). Required.
        DriverAttribution = "driverAttribution",
        /// `conversationRead`: the conversation and its context ([`SessionConversationRead`]).
        ConversationRead = "conversationRead",
        /// `identity`: the session's id ([`SessionIdentity`]).
        Identity = "identity",
        /// `workspaceLocation`: the working directory ([`SessionWorkspaceLocation`]).
        WorkspaceLocation = "workspaceLocation",
        /// `commands`: running and listing commands, skills and models ([`SessionCommands`]).
        Commands = "commands",
        /// `statusRead`: the status snapshot ([`SessionStatusRead`]).
        StatusRead = "statusRead",
        /// `runtimeTools`: listing and invoking runtime tools ([`SessionRuntimeTools`]).
        RuntimeTools = "runtimeTools",
        /// `events`: subscribing to the event map ([`SessionEvents`]).
        Events = "events",
        /// `promptResolution`: answering prompts ([`SessionPromptResolution`]).
        PromptResolution = "promptResolution",
        /// `backgroundTasks`: the session's background tasks ([`SessionBackgroundTasks`]).
        BackgroundTasks = "backgroundTasks",
        /// `backgroundGroups`: groups of background tasks ([`SessionBackgroundGroups`]).
        BackgroundGroups = "backgroundGroups",
        /// `executionWorkspace`: the workspace snapshot ([`SessionExecutionWorkspace`]).
        ExecutionWorkspace = "executionWorkspace",
        /// `executionDetail`: pages of a workspace entry's detail ([`SessionExecutionDetail`]).
        ExecutionDetail = "executionDetail",
        /// `selfPacedLoopControl`: stopping the waiting loop
        /// ([`SessionSelfPacedLoopControl`]).
        SelfPacedLoopControl = "selfPacedLoopControl",
        /// `agentJobs`: subagent jobs ([`SessionAgentJobs`]).
        AgentJobs = "agentJobs",
    }
}

impl SessionCapabilityRole {
    /// The role's canonical member names, in table order (its row of
    /// [`SESSION_CAPABILITY_MEMBER_KEYS`]).
    #[must_use]
    pub const fn members(self) -> &'static [&'static str] {
        SESSION_CAPABILITY_MEMBER_KEYS[self as usize].1
    }

    /// True for the three roles whose capabilities the contract requires (initialization state,
    /// pending-turn count, active driver): `lifecycle`, `executionState` and
    /// `driverAttribution`. A [`SessionCapabilityHost`] cannot be built without them.
    #[must_use]
    pub const fn is_required(self) -> bool {
        matches!(
            self,
            Self::Lifecycle | Self::ExecutionState | Self::DriverAttribution
        )
    }
}

/// Every role with its canonical member names, in order (`SESSION_CAPABILITY_MEMBER_KEYS`).
///
/// The names are the contract's member keys, spelled as in TypeScript (`isInitialized`), because
/// they are what a host described at run time (a JavaScript object, a configuration) lists. Each
/// row is the exact member set of its role's trait (the Rust methods are their snake_case forms),
/// and no name appears in two rows. 20 roles, 48 members: the two members the newest readable
/// source left out (`commands.listModels`, `conversationRead.getMessagesDisplay`) are included,
/// at the end of their rows (see the module docs). The table is a `const`: nothing can change it.
pub const SESSION_CAPABILITY_MEMBER_KEYS: &[(SessionCapabilityRole, &[&str]); 20] = &[
    (
        SessionCapabilityRole::Lifecycle,
        &["isInitialized", "shutdown"],
    ),
    (SessionCapabilityRole::TurnSubmission, &["submit"]),
    (
        SessionCapabilityRole::TurnControl,
        &["abort", "cancelQueue"],
    ),
    (
        SessionCapabilityRole::Goal,
        &["setGoal", "getGoalState", "cancelGoal"],
    ),
    (
        SessionCapabilityRole::ExecutionState,
        &["isExecuting", "getPendingPrompt", "getPendingCount"],
    ),
    (
        SessionCapabilityRole::DriverAttribution,
        &["getActiveDriverId"],
    ),
    (
        SessionCapabilityRole::ConversationRead,
        &[
            "getMessages",
            "getFullHistory",
            "getContextState",
            "getMessagesDisplay",
        ],
    ),
    (SessionCapabilityRole::Identity, &["getSession"]),
    (SessionCapabilityRole::WorkspaceLocation, &["getCwd"]),
    (
        SessionCapabilityRole::Commands,
        &["executeCommand", "listCommands", "listSkills", "listModels"],
    ),
    (SessionCapabilityRole::StatusRead, &["getStatusSnapshot"]),
    (
        SessionCapabilityRole::RuntimeTools,
        &["listRuntimeTools", "invokeRuntimeTool"],
    ),
    (SessionCapabilityRole::Events, &["on", "off"]),
    (
        SessionCapabilityRole::PromptResolution,
        &["resolvePermission", "resolveAsk"],
    ),
    (
        SessionCapabilityRole::BackgroundTasks,
        &[
            "listBackgroundTasks",
            "getBackgroundTask",
            "cancelBackgroundTask",
            "closeBackgroundTask",
            "sendBackgroundTask",
            "readBackgroundTaskLog",
        ],
    ),
    (
        SessionCapabilityRole::BackgroundGroups,
        &[
            "listBackgroundJobGroups",
            "getBackgroundJobGroup",
            "createBackgroundJobGroup",
            "waitBackgroundJobGroup",
        ],
    ),
    (
        SessionCapabilityRole::ExecutionWorkspace,
        &["getExecutionWorkspaceSnapshot"],
    ),
    (
        SessionCapabilityRole::ExecutionDetail,
        &["readExecutionWorkspaceDetail"],
    ),
    (
        SessionCapabilityRole::SelfPacedLoopControl,
        &["stopWaitingSelfPacedLoop"],
    ),
    (
        SessionCapabilityRole::AgentJobs,
        &[
            "listAgentDefinitions",
            "listAgentJobs",
            "spawnAgentJob",
            "sendAgentJob",
            "cancelAgentJob",
            "closeAgentJob",
        ],
    ),
];

// ---------------------------------------------------------------------------------------------
// Shared pieces of the ports
// ---------------------------------------------------------------------------------------------

/// A boxed, not necessarily `Send`, future: what the dyn-compatible companions return.
pub type CapabilityFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// A turn's completion with its type erased: what a turn handle read through a
/// [`SessionCapabilityHost`] settles through. It still always settles (see [`TurnHandle`]).
pub type BoxedTurnCompletion = Pin<Box<dyn Future<Output = TurnCompletion>>>;

/// A boxed signal aborts when the signal it holds does (used by the erased submit, whose signal
/// must outlive the call).
impl<S: AbortSignal + ?Sized> AbortSignal for Box<S> {
    fn is_aborted(&self) -> bool {
        (**self).is_aborted()
    }
}

/// A shared signal aborts when the signal it holds does: the caller keeps one `Rc` and passes a
/// clone with the submission, then raises the signal through its own.
impl<S: AbortSignal + ?Sized> AbortSignal for Rc<S> {
    fn is_aborted(&self) -> bool {
        (**self).is_aborted()
    }
}

/// Why and how a session is being shut down (the options of `shutdown`). Both parts are for the
/// record and the surfaces; neither changes what a shutdown does.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ShutdownOptions {
    /// A short reason code, as the caller names it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reason: Option<String>,
    /// Text to show the people watching the session.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub message: Option<String>,
}

impl ShutdownOptions {
    /// A [`ShutdownOptions`] with every optional member absent.
    #[must_use]
    pub fn new() -> Self {
        Self {
            reason: None,
            message: None,
        }
    }
}

optional_setters!(ShutdownOptions {
    /// The same value with `reason` set: a short reason code, as the caller names it.
    with_reason => reason: impl Into<String>,
    /// The same value with `message` set: text to show the people watching the session.
    with_message => message: impl Into<String>,
});

/// The limits a new goal runs under (the options of `setGoal`); absent limits take the session's
/// defaults.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SetGoalOptions {
    /// The most iterations the goal may run.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_iterations: Option<u32>,
    /// How many iterations in a row may report no progress before the goal stops as stuck.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub no_progress_limit: Option<u32>,
}

impl SetGoalOptions {
    /// A [`SetGoalOptions`] with every optional member absent.
    #[must_use]
    pub fn new() -> Self {
        Self {
            max_iterations: None,
            no_progress_limit: None,
        }
    }
}

optional_setters!(SetGoalOptions {
    /// The same value with `max_iterations` set: the most iterations the goal may run.
    with_max_iterations => max_iterations: u32,
    /// The same value with `no_progress_limit` set: how many iterations in a row may report no
    /// progress before the goal stops as stuck.
    with_no_progress_limit => no_progress_limit: u32,
});

/// A request to group background tasks, as a session takes it: the execution family's create
/// request without `parentSessionId`, which the session fills in with its own id.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundJobGroupCreateInput {
    /// How the parent waits on the group.
    pub wait_policy: BackgroundJobWaitPolicy,
    /// The tasks to group, already started, in order.
    pub task_ids: Vec<String>,
    /// A short name for the group.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub label: Option<String>,
}

impl BackgroundJobGroupCreateInput {
    /// A [`BackgroundJobGroupCreateInput`] from the members the contract requires, in its order;
    /// the optional ones start absent.
    #[must_use]
    pub fn new(wait_policy: BackgroundJobWaitPolicy, task_ids: Vec<String>) -> Self {
        Self {
            wait_policy,
            task_ids,
            label: None,
        }
    }
}

optional_setters!(BackgroundJobGroupCreateInput {
    /// The same value with `label` set: a short name for the group.
    with_label => label: impl Into<String>,
});

/// One agent definition a session can spawn (an entry of `listAgentDefinitions`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct AgentDefinitionSummary {
    /// The agent type to pass as [`AgentJobSpawnInput::agent_type`].
    pub name: String,
    /// What the agent is for.
    pub description: String,
}

impl AgentDefinitionSummary {
    /// A [`AgentDefinitionSummary`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
        }
    }
}

/// A request to spawn a subagent job (the input of `spawnAgentJob`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct AgentJobSpawnInput {
    /// The agent definition to run (one of [`SessionAgentJobs::list_agent_definitions`]).
    pub agent_type: String,
    /// A short name for the job, shown in lists.
    pub label: String,
    /// Whether the parent waits for the job.
    pub mode: BackgroundTaskMode,
    /// The job's prompt.
    pub prompt: String,
    /// The model to run it on, when not the session's.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model: Option<String>,
    /// Where the job works on files.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub isolation: Option<BackgroundTaskIsolation>,
}

impl AgentJobSpawnInput {
    /// A [`AgentJobSpawnInput`] from the members the contract requires, in its order; the optional
    /// ones start absent.
    #[must_use]
    pub fn new(
        agent_type: impl Into<String>,
        label: impl Into<String>,
        mode: BackgroundTaskMode,
        prompt: impl Into<String>,
    ) -> Self {
        Self {
            agent_type: agent_type.into(),
            label: label.into(),
            mode,
            prompt: prompt.into(),
            model: None,
            isolation: None,
        }
    }
}

optional_setters!(AgentJobSpawnInput {
    /// The same value with `model` set: the model to run it on, when not the session's.
    with_model => model: impl Into<String>,
    /// The same value with `isolation` set: where the job works on files.
    with_isolation => isolation: BackgroundTaskIsolation,
});

/// The object `getSession()` returns: a handle that answers one question, the session's id
/// (`{ getSessionId() }`). It has exactly that one accessor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SessionIdHandle {
    /// The id this handle reports.
    session_id: String,
}

impl SessionIdHandle {
    /// A handle reporting `session_id`.
    #[must_use]
    pub fn new(session_id: impl Into<String>) -> Self {
        Self {
            session_id: session_id.into(),
        }
    }

    /// The session's id (`getSessionId()`), exactly as the identity gave it (possibly empty:
    /// that is the identity's answer, and consumers that need a name fall back themselves).
    #[must_use]
    pub fn get_session_id(&self) -> &str {
        &self.session_id
    }
}

/// A subscriber to the event map (`IInteractiveSessionEvents[E]`): a shared function called with
/// each event of the name it was registered for.
///
/// It is shared (`Rc`) so that `off` can name the very handler `on` registered: two handlers are
/// the same when [`Rc::ptr_eq`] says so.
pub type SessionEventHandler = Rc<dyn Fn(&SessionEvent)>;

// ---------------------------------------------------------------------------------------------
// The 19 roles of this file (the runtime-tool role is in `runtime_tools.rs`)
// ---------------------------------------------------------------------------------------------

/// Initialization state and shutdown (`ISessionLifecycle`). Required by the capability host.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionLifecycle {
    /// Why a shutdown failed.
    type Error: core::error::Error;

    /// True once the session has been initialized (`isInitialized`, a read-only property in
    /// TypeScript). Required: there is no "unknown".
    fn is_initialized(&self) -> bool;

    /// Shuts the session down (`shutdown`). The pending queue is cleared through the cancel
    /// path, so every queued submission settles as not run with reason `cancelled`.
    async fn shutdown(&self, options: ShutdownOptions) -> Result<(), Self::Error>;
}

/// Submitting a turn (`ISessionTurnSubmission`).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionTurnSubmission {
    /// The completion of a handle this session returns.
    type Completion: Future<Output = TurnCompletion>;
    /// Why a submission was not accepted (for example refused options, see
    /// [`SubmitOptions::validate`]).
    type Error: core::error::Error;

    /// Submits one turn (`submit`): `input` is what the model gets, `display_input` what surfaces
    /// show (when different), `raw_input` what the user typed (when different).
    ///
    /// Resolves with a handle once the session accepted the submission: its id is minted then
    /// and kept while the turn waits in the queue, and its completion always settles, with this
    /// submission's outcome or a not-run reason. The signal in `options` cancels this submission
    /// only; it outlives the call because the turn may wait in the queue.
    async fn submit<S: AbortSignal + 'static>(
        &self,
        input: &str,
        display_input: Option<&str>,
        raw_input: Option<&str>,
        options: SubmitOptions<S>,
    ) -> Result<TurnHandle<Self::Completion>, Self::Error>;
}

/// Aborting the running turn and clearing the queue (`ISessionTurnControl`).
pub trait SessionTurnControl {
    /// Aborts the running turn (`abort`); it settles with its partial result. Clears the queue
    /// too: every queued submission settles as not run with reason `cancelled`.
    fn abort(&self);

    /// Clears the queue without touching the running turn (`cancelQueue`): every queued
    /// submission settles as not run with reason `cancelled`.
    fn cancel_queue(&self);
}

/// The session's goal (`ISessionGoal`).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionGoal {
    /// Why a goal could not be set.
    type Error: core::error::Error;

    /// Sets a goal and starts pursuing it (`setGoal`); resolves with its state.
    async fn set_goal(
        &self,
        objective: &str,
        options: SetGoalOptions,
    ) -> Result<GoalState, Self::Error>;

    /// The current goal, or `None` when there is none (`getGoalState`).
    fn get_goal_state(&self) -> Option<GoalState>;

    /// Cancels the current goal and returns its final state, or `None` when there was none
    /// (`cancelGoal`).
    fn cancel_goal(&self) -> Option<GoalState>;
}

/// Whether a turn runs and what waits (`ISessionExecutionState`). Required by the capability
/// host (the pending count).
pub trait SessionExecutionState {
    /// True while a turn runs (`isExecuting`).
    fn is_executing(&self) -> bool;

    /// The input of the next queued submission, or `None` when nothing waits
    /// (`getPendingPrompt`).
    fn get_pending_prompt(&self) -> Option<String>;

    /// How many submissions wait in the queue (`getPendingCount`). Required: there is no
    /// "unknown".
    fn get_pending_count(&self) -> u32;
}

/// Who drives the session now (`ISessionDriverAttribution`). Required by the capability host.
pub trait SessionDriverAttribution {
    /// The driver of the running turn (`getActiveDriverId`). `None` means exactly "nobody is
    /// driving"; it never means "this session cannot say", because the role is required.
    fn get_active_driver_id(&self) -> Option<DriverId>;
}

/// The conversation and its context (`ISessionConversationRead`).
pub trait SessionConversationRead {
    /// The conversation's messages (`getMessages`): the chat entries of the history.
    fn get_messages(&self) -> Vec<UniversalMessage>;

    /// The whole recorded timeline (`getFullHistory`): chat entries and the event entries
    /// recorded beside them. A client that renders the session reads this.
    fn get_full_history(&self) -> Vec<HistoryEntry>;

    /// How full the context window is (`getContextState`).
    fn get_context_state(&self) -> ContextWindowState;

    /// The messages as a surface displays them (`getMessagesDisplay`, counted by the newest
    /// registry; its shape was not recovered, so this crate returns messages: the conversation
    /// prepared for display, which may differ from what the model sees).
    fn get_messages_display(&self) -> Vec<UniversalMessage>;
}

/// The session's identity (`ISessionIdentity`).
pub trait SessionIdentity {
    /// The session handle (`getSession`), whose one accessor gives the session's id.
    fn get_session(&self) -> SessionIdHandle;
}

/// Where the session works (`ISessionWorkspaceLocation`).
pub trait SessionWorkspaceLocation {
    /// The working directory (`getCwd`).
    fn get_cwd(&self) -> String;
}

/// Running and listing commands, skills and models (`ISessionCommands`).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionCommands {
    /// Why a command could not be run at all (a command that ran and failed is a result with
    /// `success: false`).
    type Error: core::error::Error;

    /// Runs the command `name` with `args` (`executeCommand`). `source` says who invoked it
    /// (absent: the local operator) and `origin_driver_id` which driver's surface, so UI intents
    /// go back to it. Resolves with `None` when no command of that name exists.
    async fn execute_command(
        &self,
        name: &str,
        args: &str,
        source: Option<CommandInvocationSource>,
        origin_driver_id: Option<&str>,
    ) -> Result<Option<CommandResult>, Self::Error>;

    /// The commands a client may offer (`listCommands`).
    fn list_commands(&self) -> Vec<CommandListEntry>;

    /// The skills a client may offer beside the commands (`listSkills`).
    fn list_skills(&self) -> Vec<CommandSkillListEntry>;

    /// The models a client may switch to, grouped by provider profile (`listModels`). Choosing
    /// one runs the model command through [`execute_command`](Self::execute_command).
    fn list_models(&self) -> ModelListSnapshot;
}

/// The status snapshot (`ISessionStatusRead`).
pub trait SessionStatusRead {
    /// What a status line shows now (`getStatusSnapshot`).
    fn get_status_snapshot(&self) -> SessionStatusSnapshot;
}

/// Subscribing to the event map (`ISessionEvents`).
///
/// The handler type is one for every event; the typing of the event map is kept by the rule that
/// a session calls a handler only with events of the name it was registered for (so a
/// `status_changed` handler only ever sees [`SessionEvent::StatusChanged`], whose payload is the
/// status snapshot).
pub trait SessionEvents {
    /// Registers `handler` for the events named `event` (`on`).
    fn on(&self, event: InteractiveEventName, handler: SessionEventHandler);

    /// Removes the registration of this very handler ([`Rc::ptr_eq`]) for `event` (`off`); a
    /// handler that was not registered is ignored.
    fn off(&self, event: InteractiveEventName, handler: &SessionEventHandler);
}

/// Answering prompts (`ISessionPromptResolution`). The session parks each prompt by id; the
/// first answer for an id settles it and emits `prompt_resolved`; later answers for a settled
/// (or withdrawn) id are ignored.
pub trait SessionPromptResolution {
    /// Answers the permission prompt `id` (`resolvePermission`), attributed to
    /// `answerer_driver_id` when given.
    fn resolve_permission(
        &self,
        id: &str,
        result: PermissionResultValue,
        answerer_driver_id: Option<&str>,
    );

    /// Answers the ask prompt `id` (`resolveAsk`), attributed to `answerer_driver_id` when given.
    fn resolve_ask(&self, id: &str, response: ActionResponse, answerer_driver_id: Option<&str>);
}

/// The session's background tasks (`ISessionBackgroundTasks`).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionBackgroundTasks {
    /// Why a task operation failed (an unknown task, a task in the wrong state).
    type Error: core::error::Error;

    /// The tasks `filter` matches (`listBackgroundTasks`); the default filter matches all.
    fn list_background_tasks(&self, filter: BackgroundTaskListFilter) -> Vec<BackgroundTaskState>;

    /// One task, or `None` when there is no such task (`getBackgroundTask`).
    fn get_background_task(&self, task_id: &str) -> Option<BackgroundTaskState>;

    /// Cancels a task (`cancelBackgroundTask`), with an optional reason for the record.
    async fn cancel_background_task(
        &self,
        task_id: &str,
        reason: Option<&str>,
    ) -> Result<(), Self::Error>;

    /// Closes a finished task so lists hide it (`closeBackgroundTask`).
    async fn close_background_task(&self, task_id: &str) -> Result<(), Self::Error>;

    /// Sends input to a running task (`sendBackgroundTask`).
    async fn send_background_task(
        &self,
        task_id: &str,
        input: BackgroundTaskInput,
    ) -> Result<(), Self::Error>;

    /// Reads one page of a task's log from `cursor` (the start when absent)
    /// (`readBackgroundTaskLog`).
    async fn read_background_task_log(
        &self,
        task_id: &str,
        cursor: Option<BackgroundTaskLogCursor>,
    ) -> Result<BackgroundTaskLogPage, Self::Error>;
}

/// Groups of background tasks (`ISessionBackgroundGroups`).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionBackgroundGroups {
    /// Why a group operation failed (an unknown group or task).
    type Error: core::error::Error;

    /// Every group (`listBackgroundJobGroups`).
    fn list_background_job_groups(&self) -> Vec<BackgroundJobGroupState>;

    /// One group, or `None` when there is no such group (`getBackgroundJobGroup`).
    fn get_background_job_group(&self, group_id: &str) -> Option<BackgroundJobGroupState>;

    /// Makes a group (`createBackgroundJobGroup`); its `parent_session_id` is this session's id.
    fn create_background_job_group(
        &self,
        input: BackgroundJobGroupCreateInput,
    ) -> Result<BackgroundJobGroupState, Self::Error>;

    /// Waits until the group's wait policy is satisfied (`waitBackgroundJobGroup`) and resolves
    /// with its state then.
    async fn wait_background_job_group(
        &self,
        group_id: &str,
    ) -> Result<BackgroundJobGroupState, Self::Error>;
}

/// The execution workspace snapshot (`ISessionExecutionWorkspace`).
pub trait SessionExecutionWorkspace {
    /// The workspace now, as `options` selects and filters it (`getExecutionWorkspaceSnapshot`);
    /// its `session_id` is this session's id.
    fn get_execution_workspace_snapshot(
        &self,
        options: &ExecutionWorkspaceSnapshotOptions,
    ) -> ExecutionWorkspaceSnapshot;
}

/// Pages of what a workspace entry recorded (`ISessionExecutionDetail`).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionExecutionDetail {
    /// Why the detail could not be read (an unknown entry).
    type Error: core::error::Error;

    /// One page of the entry `entry_id` (the main thread, a task, a group) from `cursor` (the
    /// start when absent) (`readExecutionWorkspaceDetail`).
    async fn read_execution_workspace_detail(
        &self,
        entry_id: &str,
        cursor: Option<ExecutionDetailCursor>,
    ) -> Result<ExecutionDetailPage, Self::Error>;
}

/// Stopping the self-paced loop that waits for its next wake (`ISessionSelfPacedLoopControl`).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionSelfPacedLoopControl {
    /// Stops the one waiting loop (`stopWaitingSelfPacedLoop`): `none` when no loop waits,
    /// `several` (and nothing stopped) when more than one does, `stopped` or `failed` otherwise.
    /// Cannot fail: a failure is the `failed` outcome.
    async fn stop_waiting_self_paced_loop(&self, reason: Option<&str>) -> WaitingLoopStopOutcome;
}

/// Subagent jobs (`ISessionAgentJobs`).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SessionAgentJobs {
    /// Why a job operation failed (an unknown agent type or job).
    type Error: core::error::Error;

    /// The agent definitions a job may run (`listAgentDefinitions`).
    fn list_agent_definitions(&self) -> Vec<AgentDefinitionSummary>;

    /// Every job (`listAgentJobs`).
    fn list_agent_jobs(&self) -> Vec<SubagentJobState>;

    /// Spawns a job (`spawnAgentJob`); its `parent_session_id` is this session's id.
    async fn spawn_agent_job(
        &self,
        input: AgentJobSpawnInput,
    ) -> Result<SubagentJobState, Self::Error>;

    /// Sends a prompt to a job (`sendAgentJob`).
    async fn send_agent_job(&self, task_id: &str, prompt: &str) -> Result<(), Self::Error>;

    /// Cancels a job (`cancelAgentJob`), with an optional reason for the record.
    async fn cancel_agent_job(
        &self,
        task_id: &str,
        reason: Option<&str>,
    ) -> Result<(), Self::Error>;

    /// Closes a finished job so lists hide it (`closeAgentJob`).
    async fn close_agent_job(&self, task_id: &str) -> Result<(), Self::Error>;
}

/// The whole interactive session (`IInteractiveSession`): every one of the 20 roles.
///
/// It has no members of its own and a blanket implementation: a type is an interactive session
/// exactly when it implements every role, so a new member of any role breaks every session that
/// lacks it. A consumer that needs less names the roles it uses instead.
pub trait InteractiveSession:
    SessionLifecycle
    + SessionTurnSubmission
    + SessionTurnControl
    + SessionGoal
    + SessionExecutionState
    + SessionDriverAttribution
    + SessionConversationRead
    + SessionIdentity
    + SessionWorkspaceLocation
    + SessionCommands
    + SessionStatusRead
    + SessionRuntimeTools
    + SessionEvents
    + SessionPromptResolution
    + SessionBackgroundTasks
    + SessionBackgroundGroups
    + SessionExecutionWorkspace
    + SessionExecutionDetail
    + SessionSelfPacedLoopControl
    + SessionAgentJobs
{
}

impl<T> InteractiveSession for T where
    T: SessionLifecycle
        + SessionTurnSubmission
        + SessionTurnControl
        + SessionGoal
        + SessionExecutionState
        + SessionDriverAttribution
        + SessionConversationRead
        + SessionIdentity
        + SessionWorkspaceLocation
        + SessionCommands
        + SessionStatusRead
        + SessionRuntimeTools
        + SessionEvents
        + SessionPromptResolution
        + SessionBackgroundTasks
        + SessionBackgroundGroups
        + SessionExecutionWorkspace
        + SessionExecutionDetail
        + SessionSelfPacedLoopControl
        + SessionAgentJobs
{
}

// ---------------------------------------------------------------------------------------------
// Dyn-compatible companions of the roles with `async` members
// ---------------------------------------------------------------------------------------------

/// The dyn-compatible form of [`SessionLifecycle`], implemented for every lifecycle; a
/// `dyn DynSessionLifecycle` is itself a [`SessionLifecycle`].
pub trait DynSessionLifecycle {
    /// The lifecycle's [`SessionLifecycle::Error`].
    type Error: core::error::Error;
    /// [`SessionLifecycle::is_initialized`].
    fn dyn_is_initialized(&self) -> bool;
    /// [`SessionLifecycle::shutdown`], boxed.
    fn dyn_shutdown(
        &self,
        options: ShutdownOptions,
    ) -> CapabilityFuture<'_, Result<(), Self::Error>>;
}

impl<T: SessionLifecycle> DynSessionLifecycle for T {
    type Error = T::Error;
    fn dyn_is_initialized(&self) -> bool {
        self.is_initialized()
    }
    fn dyn_shutdown(&self, options: ShutdownOptions) -> CapabilityFuture<'_, Result<(), T::Error>> {
        Box::pin(self.shutdown(options))
    }
}

impl<E: core::error::Error> SessionLifecycle for dyn DynSessionLifecycle<Error = E> + '_ {
    type Error = E;
    fn is_initialized(&self) -> bool {
        self.dyn_is_initialized()
    }
    async fn shutdown(&self, options: ShutdownOptions) -> Result<(), E> {
        self.dyn_shutdown(options).await
    }
}

/// The dyn-compatible form of [`SessionTurnSubmission`], implemented for every submission role
/// whose completion is `'static`; a `dyn DynSessionTurnSubmission` is itself a
/// [`SessionTurnSubmission`] whose completion is a [`BoxedTurnCompletion`].
pub trait DynSessionTurnSubmission {
    /// The role's [`SessionTurnSubmission::Error`].
    type Error: core::error::Error;
    /// [`SessionTurnSubmission::submit`], boxed, with the signal boxed too (it must outlive the
    /// call).
    fn dyn_submit<'a>(
        &'a self,
        input: &'a str,
        display_input: Option<&'a str>,
        raw_input: Option<&'a str>,
        options: SubmitOptions<Box<dyn AbortSignal>>,
    ) -> CapabilityFuture<'a, Result<TurnHandle<BoxedTurnCompletion>, Self::Error>>;
}

impl<T> DynSessionTurnSubmission for T
where
    T: SessionTurnSubmission,
    T::Completion: 'static,
{
    type Error = T::Error;
    fn dyn_submit<'a>(
        &'a self,
        input: &'a str,
        display_input: Option<&'a str>,
        raw_input: Option<&'a str>,
        options: SubmitOptions<Box<dyn AbortSignal>>,
    ) -> CapabilityFuture<'a, Result<TurnHandle<BoxedTurnCompletion>, T::Error>> {
        Box::pin(async move {
            let handle = self
                .submit(input, display_input, raw_input, options)
                .await?;
            let completed: BoxedTurnCompletion = Box::pin(handle.completed);
            Ok(TurnHandle::new(handle.turn_id, completed))
        })
    }
}

impl<E: core::error::Error> SessionTurnSubmission for dyn DynSessionTurnSubmission<Error = E> + '_ {
    type Completion = BoxedTurnCompletion;
    type Error = E;
    async fn submit<S: AbortSignal + 'static>(
        &self,
        input: &str,
        display_input: Option<&str>,
        raw_input: Option<&str>,
        options: SubmitOptions<S>,
    ) -> Result<TurnHandle<BoxedTurnCompletion>, E> {
        let SubmitOptions {
            signal,
            driver_id,
            surface,
            turn_source,
            peer,
        } = options;
        let options = SubmitOptions {
            signal: signal.map(|signal| Box::new(signal) as Box<dyn AbortSignal>),
            driver_id,
            surface,
            turn_source,
            peer,
        };
        self.dyn_submit(input, display_input, raw_input, options)
            .await
    }
}

/// The dyn-compatible form of [`SessionGoal`], implemented for every goal role; a
/// `dyn DynSessionGoal` is itself a [`SessionGoal`].
pub trait DynSessionGoal {
    /// The role's [`SessionGoal::Error`].
    type Error: core::error::Error;
    /// [`SessionGoal::set_goal`], boxed.
    fn dyn_set_goal<'a>(
        &'a self,
        objective: &'a str,
        options: SetGoalOptions,
    ) -> CapabilityFuture<'a, Result<GoalState, Self::Error>>;
    /// [`SessionGoal::get_goal_state`].
    fn dyn_get_goal_state(&self) -> Option<GoalState>;
    /// [`SessionGoal::cancel_goal`].
    fn dyn_cancel_goal(&self) -> Option<GoalState>;
}

impl<T: SessionGoal> DynSessionGoal for T {
    type Error = T::Error;
    fn dyn_set_goal<'a>(
        &'a self,
        objective: &'a str,
        options: SetGoalOptions,
    ) -> CapabilityFuture<'a, Result<GoalState, T::Error>> {
        Box::pin(self.set_goal(objective, options))
    }
    fn dyn_get_goal_state(&self) -> Option<GoalState> {
        self.get_goal_state()
    }
    fn dyn_cancel_goal(&self) -> Option<GoalState> {
        self.cancel_goal()
    }
}

impl<E: core::error::Error> SessionGoal for dyn DynSessionGoal<Error = E> + '_ {
    type Error = E;
    async fn set_goal(&self, objective: &str, options: SetGoalOptions) -> Result<GoalState, E> {
        self.dyn_set_goal(objective, options).await
    }
    fn get_goal_state(&self) -> Option<GoalState> {
        self.dyn_get_goal_state()
    }
    fn cancel_goal(&self) -> Option<GoalState> {
        self.dyn_cancel_goal()
    }
}

/// The dyn-compatible form of [`SessionCommands`], implemented for every commands role; a
/// `dyn DynSessionCommands` is itself a [`SessionCommands`].
pub trait DynSessionCommands {
    /// The role's [`SessionCommands::Error`].
    type Error: core::error::Error;
    /// [`SessionCommands::execute_command`], boxed.
    fn dyn_execute_command<'a>(
        &'a self,
        name: &'a str,
        args: &'a str,
        source: Option<CommandInvocationSource>,
        origin_driver_id: Option<&'a str>,
    ) -> CapabilityFuture<'a, Result<Option<CommandResult>, Self::Error>>;
    /// [`SessionCommands::list_commands`].
    fn dyn_list_commands(&self) -> Vec<CommandListEntry>;
    /// [`SessionCommands::list_skills`].
    fn dyn_list_skills(&self) -> Vec<CommandSkillListEntry>;
    /// [`SessionCommands::list_models`].
    fn dyn_list_models(&self) -> ModelListSnapshot;
}

impl<T: SessionCommands> DynSessionCommands for T {
    type Error = T::Error;
    fn dyn_execute_command<'a>(
        &'a self,
        name: &'a str,
        args: &'a str,
        source: Option<CommandInvocationSource>,
        origin_driver_id: Option<&'a str>,
    ) -> CapabilityFuture<'a, Result<Option<CommandResult>, T::Error>> {
        Box::pin(self.execute_command(name, args, source, origin_driver_id))
    }
    fn dyn_list_commands(&self) -> Vec<CommandListEntry> {
        self.list_commands()
    }
    fn dyn_list_skills(&self) -> Vec<CommandSkillListEntry> {
        self.list_skills()
    }
    fn dyn_list_models(&self) -> ModelListSnapshot {
        self.list_models()
    }
}

impl<E: core::error::Error> SessionCommands for dyn DynSessionCommands<Error = E> + '_ {
    type Error = E;
    async fn execute_command(
        &self,
        name: &str,
        args: &str,
        source: Option<CommandInvocationSource>,
        origin_driver_id: Option<&str>,
    ) -> Result<Option<CommandResult>, E> {
        self.dyn_execute_command(name, args, source, origin_driver_id)
            .await
    }
    fn list_commands(&self) -> Vec<CommandListEntry> {
        self.dyn_list_commands()
    }
    fn list_skills(&self) -> Vec<CommandSkillListEntry> {
        self.dyn_list_skills()
    }
    fn list_models(&self) -> ModelListSnapshot {
        self.dyn_list_models()
    }
}

/// The dyn-compatible form of [`SessionBackgroundTasks`], implemented for every tasks role; a
/// `dyn DynSessionBackgroundTasks` is itself a [`SessionBackgroundTasks`].
pub trait DynSessionBackgroundTasks {
    /// The role's [`SessionBackgroundTasks::Error`].
    type Error: core::error::Error;
    /// [`SessionBackgroundTasks::list_background_tasks`].
    fn dyn_list_background_tasks(
        &self,
        filter: BackgroundTaskListFilter,
    ) -> Vec<BackgroundTaskState>;
    /// [`SessionBackgroundTasks::get_background_task`].
    fn dyn_get_background_task(&self, task_id: &str) -> Option<BackgroundTaskState>;
    /// [`SessionBackgroundTasks::cancel_background_task`], boxed.
    fn dyn_cancel_background_task<'a>(
        &'a self,
        task_id: &'a str,
        reason: Option<&'a str>,
    ) -> CapabilityFuture<'a, Result<(), Self::Error>>;
    /// [`SessionBackgroundTasks::close_background_task`], boxed.
    fn dyn_close_background_task<'a>(
        &'a self,
        task_id: &'a str,
    ) -> CapabilityFuture<'a, Result<(), Self::Error>>;
    /// [`SessionBackgroundTasks::send_background_task`], boxed.
    fn dyn_send_background_task<'a>(
        &'a self,
        task_id: &'a str,
        input: BackgroundTaskInput,
    ) -> CapabilityFuture<'a, Result<(), Self::Error>>;
    /// [`SessionBackgroundTasks::read_background_task_log`], boxed.
    fn dyn_read_background_task_log<'a>(
        &'a self,
        task_id: &'a str,
        cursor: Option<BackgroundTaskLogCursor>,
    ) -> CapabilityFuture<'a, Result<BackgroundTaskLogPage, Self::Error>>;
}

impl<T: SessionBackgroundTasks> DynSessionBackgroundTasks for T {
    type Error = T::Error;
    fn dyn_list_background_tasks(
        &self,
        filter: BackgroundTaskListFilter,
    ) -> Vec<BackgroundTaskState> {
        self.list_background_tasks(filter)
    }
    fn dyn_get_background_task(&self, task_id: &str) -> Option<BackgroundTaskState> {
        self.get_background_task(task_id)
    }
    fn dyn_cancel_background_task<'a>(
        &'a self,
        task_id: &'a str,
        reason: Option<&'a str>,
    ) -> CapabilityFuture<'a, Result<(), T::Error>> {
        Box::pin(self.cancel_background_task(task_id, reason))
    }
    fn dyn_close_background_task<'a>(
        &'a self,
        task_id: &'a str,
    ) -> CapabilityFuture<'a, Result<(), T::Error>> {
        Box::pin(self.close_background_task(task_id))
    }
    fn dyn_send_background_task<'a>(
        &'a self,
        task_id: &'a str,
        input: BackgroundTaskInput,
    ) -> CapabilityFuture<'a, Result<(), T::Error>> {
        Box::pin(self.send_background_task(task_id, input))
    }
    fn dyn_read_background_task_log<'a>(
        &'a self,
        task_id: &'a str,
        cursor: Option<BackgroundTaskLogCursor>,
    ) -> CapabilityFuture<'a, Result<BackgroundTaskLogPage, T::Error>> {
        Box::pin(self.read_background_task_log(task_id, cursor))
    }
}

impl<E: core::error::Error> SessionBackgroundTasks
    for dyn DynSessionBackgroundTasks<Error = E> + '_
{
    type Error = E;
    fn list_background_tasks(&self, filter: BackgroundTaskListFilter) -> Vec<BackgroundTaskState> {
        self.dyn_list_background_tasks(filter)
    }
    fn get_background_task(&self, task_id: &str) -> Option<BackgroundTaskState> {
        self.dyn_get_background_task(task_id)
    }
    async fn cancel_background_task(&self, task_id: &str, reason: Option<&str>) -> Result<(), E> {
        self.dyn_cancel_background_task(task_id, reason).await
    }
    async fn close_background_task(&self, task_id: &str) -> Result<(), E> {
        self.dyn_close_background_task(task_id).await
    }
    async fn send_background_task(
        &self,
        task_id: &str,
        input: BackgroundTaskInput,
    ) -> Result<(), E> {
        self.dyn_send_background_task(task_id, input).await
    }
    async fn read_background_task_log(
        &self,
        task_id: &str,
        cursor: Option<BackgroundTaskLogCursor>,
    ) -> Result<BackgroundTaskLogPage, E> {
        self.dyn_read_background_task_log(task_id, cursor).await
    }
}

/// The dyn-compatible form of [`SessionBackgroundGroups`], implemented for every groups role; a
/// `dyn DynSessionBackgroundGroups` is itself a [`SessionBackgroundGroups`].
pub trait DynSessionBackgroundGroups {
    /// The role's [`SessionBackgroundGroups::Error`].
    type Error: core::error::Error;
    /// [`SessionBackgroundGroups::list_background_job_groups`].
    fn dyn_list_background_job_groups(&self) -> Vec<BackgroundJobGroupState>;
    /// [`SessionBackgroundGroups::get_background_job_group`].
    fn dyn_get_background_job_group(&self, group_id: &str) -> Option<BackgroundJobGroupState>;
    /// [`SessionBackgroundGroups::create_background_job_group`].
    fn dyn_create_background_job_group(
        &self,
        input: BackgroundJobGroupCreateInput,
    ) -> Result<BackgroundJobGroupState, Self::Error>;
    /// [`SessionBackgroundGroups::wait_background_job_group`], boxed.
    fn dyn_wait_background_job_group<'a>(
        &'a self,
        group_id: &'a str,
    ) -> CapabilityFuture<'a, Result<BackgroundJobGroupState, Self::Error>>;
}

impl<T: SessionBackgroundGroups> DynSessionBackgroundGroups for T {
    type Error = T::Error;
    fn dyn_list_background_job_groups(&self) -> Vec<BackgroundJobGroupState> {
        self.list_background_job_groups()
    }
    fn dyn_get_background_job_group(&self, group_id: &str) -> Option<BackgroundJobGroupState> {
        self.get_background_job_group(group_id)
    }
    fn dyn_create_background_job_group(
        &self,
        input: BackgroundJobGroupCreateInput,
    ) -> Result<BackgroundJobGroupState, T::Error> {
        self.create_background_job_group(input)
    }
    fn dyn_wait_background_job_group<'a>(
        &'a self,
        group_id: &'a str,
    ) -> CapabilityFuture<'a, Result<BackgroundJobGroupState, T::Error>> {
        Box::pin(self.wait_background_job_group(group_id))
    }
}

impl<E: core::error::Error> SessionBackgroundGroups
    for dyn DynSessionBackgroundGroups<Error = E> + '_
{
    type Error = E;
    fn list_background_job_groups(&self) -> Vec<BackgroundJobGroupState> {
        self.dyn_list_background_job_groups()
    }
    fn get_background_job_group(&self, group_id: &str) -> Option<BackgroundJobGroupState> {
        self.dyn_get_background_job_group(group_id)
    }
    fn create_background_job_group(
        &self,
        input: BackgroundJobGroupCreateInput,
    ) -> Result<BackgroundJobGroupState, E> {
        self.dyn_create_background_job_group(input)
    }
    async fn wait_background_job_group(
        &self,
        group_id: &str,
    ) -> Result<BackgroundJobGroupState, E> {
        self.dyn_wait_background_job_group(group_id).await
    }
}

/// The dyn-compatible form of [`SessionExecutionDetail`], implemented for every detail role; a
/// `dyn DynSessionExecutionDetail` is itself a [`SessionExecutionDetail`].
pub trait DynSessionExecutionDetail {
    /// The role's [`SessionExecutionDetail::Error`].
    type Error: core::error::Error;
    /// [`SessionExecutionDetail::read_execution_workspace_detail`], boxed.
    fn dyn_read_execution_workspace_detail<'a>(
        &'a self,
        entry_id: &'a str,
        cursor: Option<ExecutionDetailCursor>,
    ) -> CapabilityFuture<'a, Result<ExecutionDetailPage, Self::Error>>;
}

impl<T: SessionExecutionDetail> DynSessionExecutionDetail for T {
    type Error = T::Error;
    fn dyn_read_execution_workspace_detail<'a>(
        &'a self,
        entry_id: &'a str,
        cursor: Option<ExecutionDetailCursor>,
    ) -> CapabilityFuture<'a, Result<ExecutionDetailPage, T::Error>> {
        Box::pin(self.read_execution_workspace_detail(entry_id, cursor))
    }
}

impl<E: core::error::Error> SessionExecutionDetail
    for dyn DynSessionExecutionDetail<Error = E> + '_
{
    type Error = E;
    async fn read_execution_workspace_detail(
        &self,
        entry_id: &str,
        cursor: Option<ExecutionDetailCursor>,
    ) -> Result<ExecutionDetailPage, E> {
        self.dyn_read_execution_workspace_detail(entry_id, cursor)
            .await
    }
}

/// The dyn-compatible form of [`SessionSelfPacedLoopControl`], implemented for every loop-control
/// role; a `dyn DynSessionSelfPacedLoopControl` is itself a [`SessionSelfPacedLoopControl`].
pub trait DynSessionSelfPacedLoopControl {
    /// [`SessionSelfPacedLoopControl::stop_waiting_self_paced_loop`], boxed.
    fn dyn_stop_waiting_self_paced_loop<'a>(
        &'a self,
        reason: Option<&'a str>,
    ) -> CapabilityFuture<'a, WaitingLoopStopOutcome>;
}

impl<T: SessionSelfPacedLoopControl> DynSessionSelfPacedLoopControl for T {
    fn dyn_stop_waiting_self_paced_loop<'a>(
        &'a self,
        reason: Option<&'a str>,
    ) -> CapabilityFuture<'a, WaitingLoopStopOutcome> {
        Box::pin(self.stop_waiting_self_paced_loop(reason))
    }
}

impl SessionSelfPacedLoopControl for dyn DynSessionSelfPacedLoopControl + '_ {
    async fn stop_waiting_self_paced_loop(&self, reason: Option<&str>) -> WaitingLoopStopOutcome {
        self.dyn_stop_waiting_self_paced_loop(reason).await
    }
}

/// The dyn-compatible form of [`SessionAgentJobs`], implemented for every jobs role; a
/// `dyn DynSessionAgentJobs` is itself a [`SessionAgentJobs`].
pub trait DynSessionAgentJobs {
    /// The role's [`SessionAgentJobs::Error`].
    type Error: core::error::Error;
    /// [`SessionAgentJobs::list_agent_definitions`].
    fn dyn_list_agent_definitions(&self) -> Vec<AgentDefinitionSummary>;
    /// [`SessionAgentJobs::list_agent_jobs`].
    fn dyn_list_agent_jobs(&self) -> Vec<SubagentJobState>;
    /// [`SessionAgentJobs::spawn_agent_job`], boxed.
    fn dyn_spawn_agent_job(
        &self,
        input: AgentJobSpawnInput,
    ) -> CapabilityFuture<'_, Result<SubagentJobState, Self::Error>>;
    /// [`SessionAgentJobs::send_agent_job`], boxed.
    fn dyn_send_agent_job<'a>(
        &'a self,
        task_id: &'a str,
        prompt: &'a str,
    ) -> CapabilityFuture<'a, Result<(), Self::Error>>;
    /// [`SessionAgentJobs::cancel_agent_job`], boxed.
    fn dyn_cancel_agent_job<'a>(
        &'a self,
        task_id: &'a str,
        reason: Option<&'a str>,
    ) -> CapabilityFuture<'a, Result<(), Self::Error>>;
    /// [`SessionAgentJobs::close_agent_job`], boxed.
    fn dyn_close_agent_job<'a>(
        &'a self,
        task_id: &'a str,
    ) -> CapabilityFuture<'a, Result<(), Self::Error>>;
}

impl<T: SessionAgentJobs> DynSessionAgentJobs for T {
    type Error = T::Error;
    fn dyn_list_agent_definitions(&self) -> Vec<AgentDefinitionSummary> {
        self.list_agent_definitions()
    }
    fn dyn_list_agent_jobs(&self) -> Vec<SubagentJobState> {
        self.list_agent_jobs()
    }
    fn dyn_spawn_agent_job(
        &self,
        input: AgentJobSpawnInput,
    ) -> CapabilityFuture<'_, Result<SubagentJobState, T::Error>> {
        Box::pin(self.spawn_agent_job(input))
    }
    fn dyn_send_agent_job<'a>(
        &'a self,
        task_id: &'a str,
        prompt: &'a str,
    ) -> CapabilityFuture<'a, Result<(), T::Error>> {
        Box::pin(self.send_agent_job(task_id, prompt))
    }
    fn dyn_cancel_agent_job<'a>(
        &'a self,
        task_id: &'a str,
        reason: Option<&'a str>,
    ) -> CapabilityFuture<'a, Result<(), T::Error>> {
        Box::pin(self.cancel_agent_job(task_id, reason))
    }
    fn dyn_close_agent_job<'a>(
        &'a self,
        task_id: &'a str,
    ) -> CapabilityFuture<'a, Result<(), T::Error>> {
        Box::pin(self.close_agent_job(task_id))
    }
}

impl<E: core::error::Error> SessionAgentJobs for dyn DynSessionAgentJobs<Error = E> + '_ {
    type Error = E;
    fn list_agent_definitions(&self) -> Vec<AgentDefinitionSummary> {
        self.dyn_list_agent_definitions()
    }
    fn list_agent_jobs(&self) -> Vec<SubagentJobState> {
        self.dyn_list_agent_jobs()
    }
    async fn spawn_agent_job(&self, input: AgentJobSpawnInput) -> Result<SubagentJobState, E> {
        self.dyn_spawn_agent_job(input).await
    }
    async fn send_agent_job(&self, task_id: &str, prompt: &str) -> Result<(), E> {
        self.dyn_send_agent_job(task_id, prompt).await
    }
    async fn cancel_agent_job(&self, task_id: &str, reason: Option<&str>) -> Result<(), E> {
        self.dyn_cancel_agent_job(task_id, reason).await
    }
    async fn close_agent_job(&self, task_id: &str) -> Result<(), E> {
        self.dyn_close_agent_job(task_id).await
    }
}

// ---------------------------------------------------------------------------------------------
// Reading a capability, and the host
// ---------------------------------------------------------------------------------------------

/// The result of reading one role from a host (`TSessionCapabilityReadResult<T>`): the role is
/// absent, or present with its value.
///
/// A present role whose members answer `None`, `false` or an empty list is still
/// [`Provided`](Self::Provided): absence is a different variant, never a sentinel value. Not
/// serialized (the value is a capability object).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapabilityRead<T> {
    /// `{ provided: false }`: the host does not claim this role.
    NotProvided,
    /// `{ provided: true, value }`: the host claims the role; `value` answers its members.
    Provided(T),
}

impl<T> CapabilityRead<T> {
    /// True for [`Provided`](Self::Provided).
    #[must_use]
    pub const fn is_provided(&self) -> bool {
        matches!(self, Self::Provided(_))
    }

    /// The value of a provided role, `None` for an absent one.
    #[must_use]
    pub fn provided(self) -> Option<T> {
        match self {
            Self::NotProvided => None,
            Self::Provided(value) => Some(value),
        }
    }

    /// The same read with the value transformed (absence stays absence).
    #[must_use]
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> CapabilityRead<U> {
        match self {
            Self::NotProvided => CapabilityRead::NotProvided,
            Self::Provided(value) => CapabilityRead::Provided(f(value)),
        }
    }
}

impl<T> From<Option<T>> for CapabilityRead<T> {
    fn from(value: Option<T>) -> Self {
        value.map_or(Self::NotProvided, Self::Provided)
    }
}

/// One role object read from a host by its role name (the value of
/// [`read_session_capability`]): the variant says which role, the reference is the object that
/// implements it. Use it through the ordinary role trait (every `dyn Dyn…` companion implements
/// its role).
pub enum SessionCapability<'a, E = ErrorValue> {
    /// The `lifecycle` role.
    Lifecycle(&'a dyn DynSessionLifecycle<Error = E>),
    /// The `turnSubmission` role.
    TurnSubmission(&'a dyn DynSessionTurnSubmission<Error = E>),
    /// The `turnControl` role.
    TurnControl(&'a dyn SessionTurnControl),
    /// The `goal` role.
    Goal(&'a dyn DynSessionGoal<Error = E>),
    /// The `executionState` role.
    ExecutionState(&'a dyn SessionExecutionState),
    /// The `driverAttribution` role.
    DriverAttribution(&'a dyn SessionDriverAttribution),
    /// The `conversationRead` role.
    ConversationRead(&'a dyn SessionConversationRead),
    /// The `identity` role.
    Identity(&'a dyn SessionIdentity),
    /// The `workspaceLocation` role.
    WorkspaceLocation(&'a dyn SessionWorkspaceLocation),
    /// The `commands` role.
    Commands(&'a dyn DynSessionCommands<Error = E>),
    /// The `statusRead` role.
    StatusRead(&'a dyn SessionStatusRead),
    /// The `runtimeTools` role.
    RuntimeTools(&'a dyn DynSessionRuntimeTools<Error = E>),
    /// The `events` role.
    Events(&'a dyn SessionEvents),
    /// The `promptResolution` role.
    PromptResolution(&'a dyn SessionPromptResolution),
    /// The `backgroundTasks` role.
    BackgroundTasks(&'a dyn DynSessionBackgroundTasks<Error = E>),
    /// The `backgroundGroups` role.
    BackgroundGroups(&'a dyn DynSessionBackgroundGroups<Error = E>),
    /// The `executionWorkspace` role.
    ExecutionWorkspace(&'a dyn SessionExecutionWorkspace),
    /// The `executionDetail` role.
    ExecutionDetail(&'a dyn DynSessionExecutionDetail<Error = E>),
    /// The `selfPacedLoopControl` role.
    SelfPacedLoopControl(&'a dyn DynSessionSelfPacedLoopControl),
    /// The `agentJobs` role.
    AgentJobs(&'a dyn DynSessionAgentJobs<Error = E>),
}

impl<E> SessionCapability<'_, E> {
    /// Which role this is.
    #[must_use]
    pub const fn role(&self) -> SessionCapabilityRole {
        use SessionCapabilityRole as R;
        match self {
            Self::Lifecycle(_) => R::Lifecycle,
            Self::TurnSubmission(_) => R::TurnSubmission,
            Self::TurnControl(_) => R::TurnControl,
            Self::Goal(_) => R::Goal,
            Self::ExecutionState(_) => R::ExecutionState,
            Self::DriverAttribution(_) => R::DriverAttribution,
            Self::ConversationRead(_) => R::ConversationRead,
            Self::Identity(_) => R::Identity,
            Self::WorkspaceLocation(_) => R::WorkspaceLocation,
            Self::Commands(_) => R::Commands,
            Self::StatusRead(_) => R::StatusRead,
            Self::RuntimeTools(_) => R::RuntimeTools,
            Self::Events(_) => R::Events,
            Self::PromptResolution(_) => R::PromptResolution,
            Self::BackgroundTasks(_) => R::BackgroundTasks,
            Self::BackgroundGroups(_) => R::BackgroundGroups,
            Self::ExecutionWorkspace(_) => R::ExecutionWorkspace,
            Self::ExecutionDetail(_) => R::ExecutionDetail,
            Self::SelfPacedLoopControl(_) => R::SelfPacedLoopControl,
            Self::AgentJobs(_) => R::AgentJobs,
        }
    }
}

impl<E> Clone for SessionCapability<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for SessionCapability<'_, E> {}

/// Prints the role only (a capability object has no printable state of its own).
impl<E> fmt::Debug for SessionCapability<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SessionCapability")
            .field(&self.role())
            .finish()
    }
}

/// A host holding some of a session's roles (`TSessionCapabilityHost`): the three required ones
/// always, any of the other 17 optionally.
///
/// `E` is the error type of every fallible role it holds (by default [`ErrorValue`]). The host is
/// a small `Copy` value of references; it has no mutating API (each `with_*` consumes it and
/// returns a new host), so a reader's host never changes under it. Each member call goes to the
/// object the role was given as, which keeps its own state (the Rust form of "forwarded with its
/// original receiver").
pub struct SessionCapabilityHost<'a, E = ErrorValue> {
    lifecycle: &'a dyn DynSessionLifecycle<Error = E>,
    execution_state: &'a dyn SessionExecutionState,
    driver_attribution: &'a dyn SessionDriverAttribution,
    turn_submission: Option<&'a dyn DynSessionTurnSubmission<Error = E>>,
    turn_control: Option<&'a dyn SessionTurnControl>,
    goal: Option<&'a dyn DynSessionGoal<Error = E>>,
    conversation_read: Option<&'a dyn SessionConversationRead>,
    identity: Option<&'a dyn SessionIdentity>,
    workspace_location: Option<&'a dyn SessionWorkspaceLocation>,
    commands: Option<&'a dyn DynSessionCommands<Error = E>>,
    status_read: Option<&'a dyn SessionStatusRead>,
    runtime_tools: Option<&'a dyn DynSessionRuntimeTools<Error = E>>,
    events: Option<&'a dyn SessionEvents>,
    prompt_resolution: Option<&'a dyn SessionPromptResolution>,
    background_tasks: Option<&'a dyn DynSessionBackgroundTasks<Error = E>>,
    background_groups: Option<&'a dyn DynSessionBackgroundGroups<Error = E>>,
    execution_workspace: Option<&'a dyn SessionExecutionWorkspace>,
    execution_detail: Option<&'a dyn DynSessionExecutionDetail<Error = E>>,
    self_paced_loop_control: Option<&'a dyn DynSessionSelfPacedLoopControl>,
    agent_jobs: Option<&'a dyn DynSessionAgentJobs<Error = E>>,
}

impl<E> Clone for SessionCapabilityHost<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for SessionCapabilityHost<'_, E> {}

/// Prints which roles the host provides.
impl<E: core::error::Error> fmt::Debug for SessionCapabilityHost<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionCapabilityHost")
            .field("capabilities", &self.provided_roles())
            .finish()
    }
}

impl<'a, E: core::error::Error> SessionCapabilityHost<'a, E> {
    /// A host with the three required roles and nothing else. None of them can be left out:
    /// a host always answers whether the session is initialized, how many submissions wait and
    /// who drives.
    #[must_use]
    pub fn new(
        lifecycle: &'a dyn DynSessionLifecycle<Error = E>,
        execution_state: &'a dyn SessionExecutionState,
        driver_attribution: &'a dyn SessionDriverAttribution,
    ) -> Self {
        Self {
            lifecycle,
            execution_state,
            driver_attribution,
            turn_submission: None,
            turn_control: None,
            goal: None,
            conversation_read: None,
            identity: None,
            workspace_location: None,
            commands: None,
            status_read: None,
            runtime_tools: None,
            events: None,
            prompt_resolution: None,
            background_tasks: None,
            background_groups: None,
            execution_workspace: None,
            execution_detail: None,
            self_paced_loop_control: None,
            agent_jobs: None,
        }
    }

    /// A host providing all 20 roles of one session, each answered by `session` itself.
    #[must_use]
    pub fn from_session<S>(session: &'a S) -> Self
    where
        S: SessionLifecycle<Error = E>
            + SessionTurnSubmission<Error = E>
            + SessionTurnControl
            + SessionGoal<Error = E>
            + SessionExecutionState
            + SessionDriverAttribution
            + SessionConversationRead
            + SessionIdentity
            + SessionWorkspaceLocation
            + SessionCommands<Error = E>
            + SessionStatusRead
            + SessionRuntimeTools<Error = E>
            + SessionEvents
            + SessionPromptResolution
            + SessionBackgroundTasks<Error = E>
            + SessionBackgroundGroups<Error = E>
            + SessionExecutionWorkspace
            + SessionExecutionDetail<Error = E>
            + SessionSelfPacedLoopControl
            + SessionAgentJobs<Error = E>,
        <S as SessionTurnSubmission>::Completion: 'static,
    {
        Self::new(session, session, session)
            .with_turn_submission(session)
            .with_turn_control(session)
            .with_goal(session)
            .with_conversation_read(session)
            .with_identity(session)
            .with_workspace_location(session)
            .with_commands(session)
            .with_status_read(session)
            .with_runtime_tools(session)
            .with_events(session)
            .with_prompt_resolution(session)
            .with_background_tasks(session)
            .with_background_groups(session)
            .with_execution_workspace(session)
            .with_execution_detail(session)
            .with_self_paced_loop_control(session)
            .with_agent_jobs(session)
    }

    /// This host with the `turnSubmission` role answered by `role`.
    #[must_use]
    pub fn with_turn_submission(self, role: &'a dyn DynSessionTurnSubmission<Error = E>) -> Self {
        Self {
            turn_submission: Some(role),
            ..self
        }
    }

    /// This host with the `turnControl` role answered by `role`.
    #[must_use]
    pub fn with_turn_control(self, role: &'a dyn SessionTurnControl) -> Self {
        Self {
            turn_control: Some(role),
            ..self
        }
    }

    /// This host with the `goal` role answered by `role`.
    #[must_use]
    pub fn with_goal(self, role: &'a dyn DynSessionGoal<Error = E>) -> Self {
        Self {
            goal: Some(role),
            ..self
        }
    }

    /// This host with the `conversationRead` role answered by `role`.
    #[must_use]
    pub fn with_conversation_read(self, role: &'a dyn SessionConversationRead) -> Self {
        Self {
            conversation_read: Some(role),
            ..self
        }
    }

    /// This host with the `identity` role answered by `role`.
    #[must_use]
    pub fn with_identity(self, role: &'a dyn SessionIdentity) -> Self {
        Self {
            identity: Some(role),
            ..self
        }
    }

    /// This host with the `workspaceLocation` role answered by `role`.
    #[must_use]
    pub fn with_workspace_location(self, role: &'a dyn SessionWorkspaceLocation) -> Self {
        Self {
            workspace_location: Some(role),
            ..self
        }
    }

    /// This host with the `commands` role answered by `role`.
    #[must_use]
    pub fn with_commands(self, role: &'a dyn DynSessionCommands<Error = E>) -> Self {
        Self {
            commands: Some(role),
            ..self
        }
    }

    /// This host with the `statusRead` role answered by `role`.
    #[must_use]
    pub fn with_status_read(self, role: &'a dyn SessionStatusRead) -> Self {
        Self {
            status_read: Some(role),
            ..self
        }
    }

    /// This host with the `runtimeTools` role answered by `role`.
    #[must_use]
    pub fn with_runtime_tools(self, role: &'a dyn DynSessionRuntimeTools<Error = E>) -> Self {
        Self {
            runtime_tools: Some(role),
            ..self
        }
    }

    /// This host with the `events` role answered by `role`.
    #[must_use]
    pub fn with_events(self, role: &'a dyn SessionEvents) -> Self {
        Self {
            events: Some(role),
            ..self
        }
    }

    /// This host with the `promptResolution` role answered by `role`.
    #[must_use]
    pub fn with_prompt_resolution(self, role: &'a dyn SessionPromptResolution) -> Self {
        Self {
            prompt_resolution: Some(role),
            ..self
        }
    }

    /// This host with the `backgroundTasks` role answered by `role`.
    #[must_use]
    pub fn with_background_tasks(self, role: &'a dyn DynSessionBackgroundTasks<Error = E>) -> Self {
        Self {
            background_tasks: Some(role),
            ..self
        }
    }

    /// This host with the `backgroundGroups` role answered by `role`.
    #[must_use]
    pub fn with_background_groups(
        self,
        role: &'a dyn DynSessionBackgroundGroups<Error = E>,
    ) -> Self {
        Self {
            background_groups: Some(role),
            ..self
        }
    }

    /// This host with the `executionWorkspace` role answered by `role`.
    #[must_use]
    pub fn with_execution_workspace(self, role: &'a dyn SessionExecutionWorkspace) -> Self {
        Self {
            execution_workspace: Some(role),
            ..self
        }
    }

    /// This host with the `executionDetail` role answered by `role`.
    #[must_use]
    pub fn with_execution_detail(self, role: &'a dyn DynSessionExecutionDetail<Error = E>) -> Self {
        Self {
            execution_detail: Some(role),
            ..self
        }
    }

    /// This host with the `selfPacedLoopControl` role answered by `role`.
    #[must_use]
    pub fn with_self_paced_loop_control(
        self,
        role: &'a dyn DynSessionSelfPacedLoopControl,
    ) -> Self {
        Self {
            self_paced_loop_control: Some(role),
            ..self
        }
    }

    /// This host with the `agentJobs` role answered by `role`.
    #[must_use]
    pub fn with_agent_jobs(self, role: &'a dyn DynSessionAgentJobs<Error = E>) -> Self {
        Self {
            agent_jobs: Some(role),
            ..self
        }
    }
}

impl<'a, E: core::error::Error> SessionCapabilityHost<'a, E> {
    /// True once the session has been initialized (lifecycle's `is_initialized`, forwarded).
    #[must_use]
    pub fn is_initialized(&self) -> bool {
        self.lifecycle.dyn_is_initialized()
    }

    /// How many submissions wait (executionState's `get_pending_count`, forwarded).
    #[must_use]
    pub fn get_pending_count(&self) -> u32 {
        self.execution_state.get_pending_count()
    }

    /// Who drives now (driverAttribution's `get_active_driver_id`, forwarded): `None` means
    /// exactly "nobody is driving".
    #[must_use]
    pub fn get_active_driver_id(&self) -> Option<DriverId> {
        self.driver_attribution.get_active_driver_id()
    }

    /// The `lifecycle` role (required: always there).
    #[must_use]
    pub fn lifecycle(&self) -> &'a dyn DynSessionLifecycle<Error = E> {
        self.lifecycle
    }

    /// The `executionState` role (required: always there).
    #[must_use]
    pub fn execution_state(&self) -> &'a dyn SessionExecutionState {
        self.execution_state
    }

    /// The `driverAttribution` role (required: always there).
    #[must_use]
    pub fn driver_attribution(&self) -> &'a dyn SessionDriverAttribution {
        self.driver_attribution
    }

    /// The `turnSubmission` role, when provided.
    #[must_use]
    pub fn turn_submission(&self) -> CapabilityRead<&'a dyn DynSessionTurnSubmission<Error = E>> {
        self.turn_submission.into()
    }

    /// The `turnControl` role, when provided.
    #[must_use]
    pub fn turn_control(&self) -> CapabilityRead<&'a dyn SessionTurnControl> {
        self.turn_control.into()
    }

    /// The `goal` role, when provided.
    #[must_use]
    pub fn goal(&self) -> CapabilityRead<&'a dyn DynSessionGoal<Error = E>> {
        self.goal.into()
    }

    /// The `conversationRead` role, when provided.
    #[must_use]
    pub fn conversation_read(&self) -> CapabilityRead<&'a dyn SessionConversationRead> {
        self.conversation_read.into()
    }

    /// The `identity` role, when provided.
    #[must_use]
    pub fn identity(&self) -> CapabilityRead<&'a dyn SessionIdentity> {
        self.identity.into()
    }

    /// The `workspaceLocation` role, when provided.
    #[must_use]
    pub fn workspace_location(&self) -> CapabilityRead<&'a dyn SessionWorkspaceLocation> {
        self.workspace_location.into()
    }

    /// The `commands` role, when provided.
    #[must_use]
    pub fn commands(&self) -> CapabilityRead<&'a dyn DynSessionCommands<Error = E>> {
        self.commands.into()
    }

    /// The `statusRead` role, when provided.
    #[must_use]
    pub fn status_read(&self) -> CapabilityRead<&'a dyn SessionStatusRead> {
        self.status_read.into()
    }

    /// The `runtimeTools` role, when provided.
    #[must_use]
    pub fn runtime_tools(&self) -> CapabilityRead<&'a dyn DynSessionRuntimeTools<Error = E>> {
        self.runtime_tools.into()
    }

    /// The `events` role, when provided.
    #[must_use]
    pub fn events(&self) -> CapabilityRead<&'a dyn SessionEvents> {
        self.events.into()
    }

    /// The `promptResolution` role, when provided.
    #[must_use]
    pub fn prompt_resolution(&self) -> CapabilityRead<&'a dyn SessionPromptResolution> {
        self.prompt_resolution.into()
    }

    /// The `backgroundTasks` role, when provided.
    #[must_use]
    pub fn background_tasks(&self) -> CapabilityRead<&'a dyn DynSessionBackgroundTasks<Error = E>> {
        self.background_tasks.into()
    }

    /// The `backgroundGroups` role, when provided.
    #[must_use]
    pub fn background_groups(
        &self,
    ) -> CapabilityRead<&'a dyn DynSessionBackgroundGroups<Error = E>> {
        self.background_groups.into()
    }

    /// The `executionWorkspace` role, when provided.
    #[must_use]
    pub fn execution_workspace(&self) -> CapabilityRead<&'a dyn SessionExecutionWorkspace> {
        self.execution_workspace.into()
    }

    /// The `executionDetail` role, when provided.
    #[must_use]
    pub fn execution_detail(&self) -> CapabilityRead<&'a dyn DynSessionExecutionDetail<Error = E>> {
        self.execution_detail.into()
    }

    /// The `selfPacedLoopControl` role, when provided.
    #[must_use]
    pub fn self_paced_loop_control(
        &self,
    ) -> CapabilityRead<&'a dyn DynSessionSelfPacedLoopControl> {
        self.self_paced_loop_control.into()
    }

    /// The `agentJobs` role, when provided.
    #[must_use]
    pub fn agent_jobs(&self) -> CapabilityRead<&'a dyn DynSessionAgentJobs<Error = E>> {
        self.agent_jobs.into()
    }

    /// The role named `role`, when provided (the required three always are).
    #[must_use]
    pub fn read(&self, role: SessionCapabilityRole) -> CapabilityRead<SessionCapability<'a, E>> {
        use SessionCapability as C;
        use SessionCapabilityRole as R;
        let read: Option<SessionCapability<'a, E>> = match role {
            R::Lifecycle => Some(C::Lifecycle(self.lifecycle)),
            R::ExecutionState => Some(C::ExecutionState(self.execution_state)),
            R::DriverAttribution => Some(C::DriverAttribution(self.driver_attribution)),
            R::TurnSubmission => self.turn_submission.map(C::TurnSubmission),
            R::TurnControl => self.turn_control.map(C::TurnControl),
            R::Goal => self.goal.map(C::Goal),
            R::ConversationRead => self.conversation_read.map(C::ConversationRead),
            R::Identity => self.identity.map(C::Identity),
            R::WorkspaceLocation => self.workspace_location.map(C::WorkspaceLocation),
            R::Commands => self.commands.map(C::Commands),
            R::StatusRead => self.status_read.map(C::StatusRead),
            R::RuntimeTools => self.runtime_tools.map(C::RuntimeTools),
            R::Events => self.events.map(C::Events),
            R::PromptResolution => self.prompt_resolution.map(C::PromptResolution),
            R::BackgroundTasks => self.background_tasks.map(C::BackgroundTasks),
            R::BackgroundGroups => self.background_groups.map(C::BackgroundGroups),
            R::ExecutionWorkspace => self.execution_workspace.map(C::ExecutionWorkspace),
            R::ExecutionDetail => self.execution_detail.map(C::ExecutionDetail),
            R::SelfPacedLoopControl => self.self_paced_loop_control.map(C::SelfPacedLoopControl),
            R::AgentJobs => self.agent_jobs.map(C::AgentJobs),
        };
        read.into()
    }

    /// True when the host provides `role`.
    #[must_use]
    pub fn provides(&self, role: SessionCapabilityRole) -> bool {
        self.read(role).is_provided()
    }

    /// The roles this host provides, in table order (the keys of its `capabilities`).
    #[must_use]
    pub fn provided_roles(&self) -> Vec<SessionCapabilityRole> {
        SessionCapabilityRole::ALL
            .iter()
            .copied()
            .filter(|role| self.provides(*role))
            .collect()
    }
}

/// Reads the role `role` from `host` (`readSessionCapability`):
/// [`NotProvided`](CapabilityRead::NotProvided) when the host does not hold it,
/// [`Provided`](CapabilityRead::Provided) with the role object when it does, whatever that
/// object's members return.
#[must_use]
pub fn read_session_capability<'a, E: core::error::Error>(
    host: &SessionCapabilityHost<'a, E>,
    role: SessionCapabilityRole,
) -> CapabilityRead<SessionCapability<'a, E>> {
    host.read(role)
}

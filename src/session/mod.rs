//! Sessions, turns, events, prompts, capabilities, records and their store, loops (feature
//! `session`, layer 1).
//!
//! The centre of the crate, mirroring the TypeScript session contracts: what an interactive
//! session is, described without the code that runs one. The family names only `agent_core`, `command`, `execution` and `analytics` (each through
//! its root), and nothing below it names a session type. It holds declarations, ports (traits),
//! and small pure functions over its own types; the queue that runs turns is the `turn-queue`
//! runtime piece, and the stores behind the store port are runtime pieces too.
//!
//! | area | files | what it guarantees |
//! |---|---|---|
//! | turn identity | `turn`, `execution_result` | a turn id is minted at acceptance and kept while queued; a completion is a result, an interrupted partial result (local history only: it cannot become an answer), or a turn-not-run outcome with exactly three reasons (`coalesced`, `dropped`, `cancelled`), told apart from a failure inside the turn by [`TurnError::is_turn_not_run`]; turn source is attribution, not proof of admission; a peer turn without a driver id is refused |
//! | events | `events`, `event_payloads`, `prompt`, `tool_state`, `branch`, `goal`, `plan`, `status` | the 28 events of the session event map as [`SessionEvent`], on the wire as `{"type", "event"}`; one canonical `prompt_resolved` for every prompt kind; `permission_request` says whether project consent can be persisted; a finished tool event names its view by reference |
//! | capabilities | `capability`, `runtime_tools` | the 20 role ports and their 48 members; a host in which initialization state, pending-turn count and active driver cannot be left out; reading a role tells absent from present-returning-nothing ([`CapabilityRead`]); runtime tools fail closed unless a prompt is allowed, and cancelling a call withdraws its prompt |
//! | records | `record`, `store`, `decode` | the complete resumable record keeps fields a writer does not own; the store port is CRUD with no record path; a load ends in one of five outcomes, only `missing` permits recovery, and a writer never overwrites corrupt, unsupported or locked records; a decode answers valid, corrupt (located issues) or unsupported, never `missing`; the codec itself is the `record-codec` runtime piece |
//! | loops | `loop_state` | a self-paced loop is one enum of phases with a pure transition function; stale wakes after a resume are refused and a refused transition changes nothing |
//! | directory | `summary`, `directory`, `binding`, `refusal` | listings, the directory port, per-client bindings, and the session change/delete refusals with their exact code lists |
//! | channel | `interaction` | the in-process interaction channel (its `write` is mandatory), the agent driver, and the pure readers over an event stream |
//! | newer reads | `prompt_history`, `project_panel`, `settings_screen` | prompt history, the project panel and the settings screen read contracts |
//! | testing | `testing` (feature `testing`) | the full session double and the capability host builder with the exact rejections of the contract |
//!
//! # Example
//!
//! ```
//! use agent_interface::session::{
//!     AGENT_DRIVER_ID, OWNER_DRIVER_ID, SessionBindingRole, SessionChangeRefusalCode,
//!     SwitchAwayState, TurnSource, default_driver_id, switch_away_refusal,
//! };
//!
//! assert_eq!(default_driver_id(Some(TurnSource::User)), Some(OWNER_DRIVER_ID));
//! assert_eq!(default_driver_id(Some(TurnSource::AgentWakeup)), Some(AGENT_DRIVER_ID));
//! assert_eq!(default_driver_id(Some(TurnSource::Peer)), None); // the admitting host names it
//!
//! // The last driver may not leave while a prompt waits; a busy session alone is no reason.
//! let leaving = SwitchAwayState {
//!     role: SessionBindingRole::Drive,
//!     other_drivers: 0,
//!     prompt_pending: true,
//!     turn_running: true,
//! };
//! assert_eq!(switch_away_refusal(&leaving), Some(SessionChangeRefusalCode::PromptPending));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

mod binding;
mod branch;
mod capability;
mod decode;
mod directory;
mod event_payloads;
mod events;
mod execution_result;
mod goal;
mod interaction;
#[cfg(feature = "serde")]
mod json_text;
mod loop_state;
mod plan;
mod project_panel;
mod prompt;
mod prompt_history;
mod record;
mod refusal;
mod runtime_tools;
mod settings_screen;
mod status;
mod store;
mod summary;
mod tool_state;
mod turn;

#[cfg(feature = "testing")]
pub mod testing;

pub use binding::{
    SessionBinder, SessionBinding, SessionBindingRole, SwitchAwayState, switch_away_refusal,
};
pub use branch::{ActiveBranchPointer, BranchEvent, BranchEventKind};
pub use capability::{
    AgentDefinitionSummary, AgentJobSpawnInput, BackgroundJobGroupCreateInput, BoxedTurnCompletion,
    CapabilityFuture, CapabilityRead, DynSessionAgentJobs, DynSessionBackgroundGroups,
    DynSessionBackgroundTasks, DynSessionCommands, DynSessionExecutionDetail, DynSessionGoal,
    DynSessionLifecycle, DynSessionSelfPacedLoopControl, DynSessionTurnSubmission,
    InteractiveSession, SESSION_CAPABILITY_MEMBER_KEYS, SessionAgentJobs, SessionBackgroundGroups,
    SessionBackgroundTasks, SessionCapability, SessionCapabilityHost, SessionCapabilityRole,
    SessionCommands, SessionConversationRead, SessionDriverAttribution, SessionEventHandler,
    SessionEvents, SessionExecutionDetail, SessionExecutionState, SessionExecutionWorkspace,
    SessionGoal, SessionIdHandle, SessionIdentity, SessionLifecycle, SessionPromptResolution,
    SessionSelfPacedLoopControl, SessionStatusRead, SessionTurnControl, SessionTurnSubmission,
    SessionWorkspaceLocation, SetGoalOptions, ShutdownOptions, read_session_capability,
};
pub use decode::SessionRecordDecodeOutcome;
// The runtime piece `record-codec` reads through the member decoder the record's own
// `Deserialize` uses, and through the same outline of JSON text; both are named through this root.
#[cfg(feature = "record-codec")]
pub(crate) use decode::{RECORD, decode_members_unread, describe_text};
pub use directory::{SessionDirectory, SessionSwitchedEvent};
pub use event_payloads::{
    CompactEvent, CompactTrigger, ContextReferenceItem, ContextReferenceLoadType,
    ContextReferenceStatus, MemoryEvent, MemoryEventType, MemoryReference, MemoryType,
    PromptFileReferenceReason, PromptFileReferenceRecord, SkillActivationEvent,
    SkillActivationEventType, SkillActivationInvocation, SkillActivationMode,
    SkillActivationSource, SkillActivationStatus,
};
pub use events::{EventAudience, InteractiveEventName, SessionEvent};
pub use execution_result::{ExecutionResult, PartialExecutionResult, TurnOutcome};
pub use goal::{
    GoalEvent, GoalEventType, GoalProgressEntry, GoalProgressSignal, GoalState, GoalStatus,
    GoalStopReason,
};
pub use interaction::{
    AgentDriver, AgentDriverObservations, CommandInfo, InteractionChannel, InteractionEvent,
    TerminalHandoff, ToolCallObservation, read_assistant_replies, read_errors,
    read_last_assistant_text, read_tool_calls,
};
#[cfg(feature = "record-codec")]
pub(crate) use json_text::{Child, Member, first_byte, named, outline_plain, whole};
pub use loop_state::{
    LoopDelay, LoopDelayOutOfRange, LoopInput, LoopInputKind, LoopRefusal, SessionLoopPhase,
    SessionLoopState, SessionLoopStatus, WaitingLoopStopOutcome, next_loop_state,
    stop_waiting_loop,
};
pub use plan::{
    PlanApprovalEvent, PlanArtifact, PlanEventType, PlanPhase, PlanStep, PlanStepStatus,
};
pub use project_panel::{
    ProjectDiffRead, ProjectFileStatus, ProjectMemoryRead, ProjectStatusFile, ProjectStatusRead,
};
pub use prompt::{
    AskRequestEvent, BackgroundAgentPermissionRequester, ContextFileRefreshedEvent,
    InteractivePermissionHandler, PermissionRequestEvent, PermissionRequester,
    PermissionResultValue, PromptResolvedEvent,
};
pub use prompt_history::{
    PromptHistoryBlock, PromptHistoryEntry, PromptHistoryRead, PromptHistoryReadOptions,
    PromptHistorySource, PromptHistoryWriter,
};
pub use record::{InteractiveSessionRecord, SESSION_RECORD_SCHEMA_VERSION};
pub use refusal::{
    SESSION_CHANGE_REFUSAL_CODES, SESSION_DELETE_REFUSAL_CODES, SessionChangeRefusal,
    SessionChangeRefusalCode, SessionDeleteRefusal, SessionDeleteRefusalCode,
    as_session_change_refusal, as_session_delete_refusal, is_session_change_refusal,
    is_session_delete_refusal,
};
pub use runtime_tools::{
    DynSessionRuntimeTools, PermissionPromptRoute, RuntimeToolInvokeOptions, SessionRuntimeTools,
};
pub use settings_screen::{
    SettingsChoice, SettingsLanguageSection, SettingsOutputStyleSection, SettingsPatch,
    SettingsPermissionModeSection, SettingsPermissionRule, SettingsPermissionRuleKind,
    SettingsPresetSection, SettingsSandboxSection, SettingsSnapshot,
};
pub use status::{
    ModelCatalogEntry, ModelListGroup, ModelListSnapshot, SessionStatusSnapshot,
    SessionStatusWorkspace,
};
pub use store::{
    ContentProvenance, CrossStoreToken, DigestAlgorithm, InteractiveSessionStore,
    InvalidSha256Digest, LoadPurpose, LockedReason, RaiseOutcome, RecordDigest, RecordOwner,
    SaveOutcome, SavePurpose, SaveRefusal, SealingSessionStore, SessionListEntry,
    SessionLoadOutcome, SessionLoadStatus, SessionRecordDecodeIssue, SessionStoreListing,
    Sha256Digest, TokenIssue,
};
pub use summary::{ResumableSessionSummary, SessionListing, SessionListingEntry};
pub use tool_state::{DiffLine, DiffLineType, ToolResultStatus, ToolState, ViewReference};
pub use turn::{
    AGENT_DRIVER_ID, AbortSignal, DriverId, NeverAborted, OWNER_DRIVER_ID, PeerTurnContext,
    SessionRenamedEvent, SubmitOptions, SubmitRefusal, ToolSummary, TurnCompletion, TurnError,
    TurnHandle, TurnNotRun, TurnNotRunReason, TurnSource, UiIntentEvent, default_driver_id,
    is_turn_not_run,
};

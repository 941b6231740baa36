//! The roles a session is made of: the 20 role ports and their 48 members, the capability host
//! that tells an absent role from a present one, the [`InteractiveSession`] aggregate that
//! requires every role, and the runtime-tool role.
//!
//! # Guarantees
//!
//! - In a host, initialization state, pending-turn count and active driver cannot be left out.
//! - Reading a role tells absent from present-returning-nothing ([`CapabilityRead`]).
//! - Runtime tools fail closed unless a prompt is allowed ([`PermissionPromptRoute`]), and
//!   cancelling a call withdraws its prompt.
//!
//! The capability host builder and the full session double are in `session::testing` (feature
//! `testing`).

mod capability;
mod runtime_tools;

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
pub use runtime_tools::{
    DynSessionRuntimeTools, PermissionPromptRoute, RuntimeToolInvokeOptions, SessionRuntimeTools,
};

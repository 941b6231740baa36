//! The session's event map and the payloads its events carry: the 28 events as one enum,
//! [`SessionEvent`], their names and audiences, and what a surface shows of tools, branches,
//! goals, plans, status and the smaller events (compaction, skills, memory, references).
//!
//! The prompt events (`permission_request`, `ask_request`, `prompt_resolved`) carry the
//! vocabulary of [`prompts`](super::prompts).
//!
//! # Guarantees
//!
//! - On the wire an event is `{"type", "event"}`, its type one of the 28 names of
//!   [`InteractiveEventName`].
//! - Every event reaches every surface except `ui_intent` (its requesting surface only) and
//!   `session_switched` (the client whose binding moved): [`InteractiveEventName::audience`].
//! - A finished tool event names its view by reference ([`ViewReference`]), not by copy.
//!
//! # Example
//!
//! ```
//! use agent_interface::session::events::{EventAudience, InteractiveEventName};
//!
//! assert_eq!(InteractiveEventName::UiIntent.audience(), EventAudience::RequestingSurface);
//! assert!(InteractiveEventName::PermissionRequest.awaits_answer());
//! assert!(!InteractiveEventName::HistoryCleared.has_payload());
//! ```

mod branch;
mod goal;
mod map;
mod payloads;
mod plan;
mod status;
mod tool_state;

pub use branch::{ActiveBranchPointer, BranchEvent, BranchEventKind};
pub use goal::{
    GoalEvent, GoalEventType, GoalProgressEntry, GoalProgressSignal, GoalState, GoalStatus,
    GoalStopReason,
};
pub use map::{EventAudience, InteractiveEventName, SessionEvent};
pub use payloads::{
    CompactEvent, CompactTrigger, ContextReferenceItem, ContextReferenceLoadType,
    ContextReferenceStatus, MemoryEvent, MemoryEventType, MemoryReference, MemoryType,
    PromptFileReferenceReason, PromptFileReferenceRecord, SkillActivationEvent,
    SkillActivationEventType, SkillActivationInvocation, SkillActivationMode,
    SkillActivationSource, SkillActivationStatus,
};
pub use plan::{
    PlanApprovalEvent, PlanArtifact, PlanEventType, PlanPhase, PlanStep, PlanStepStatus,
};
pub use status::{
    ModelCatalogEntry, ModelListGroup, ModelListSnapshot, SessionStatusSnapshot,
    SessionStatusWorkspace,
};
pub use tool_state::{DiffLine, DiffLineType, ToolResultStatus, ToolState, ViewReference};

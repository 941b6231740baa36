//! Background tasks, job groups, subagents and the execution workspace (feature `execution`,
//! layer 0; names only `agent_core`).
//!
//! It mirrors the TypeScript execution contracts: the vocabulary shared by whatever schedules
//! execution (a task manager, a subagent runner) and whatever shows it (a terminal list, a
//! remote surface). Declarations, two ports (listeners and a group-id factory) and small
//! pure functions; no runner, no I/O, nothing raised:
//! [`BackgroundTaskError`](task_vocabulary::BackgroundTaskError) is a value. One public
//! submodule per contract:
//!
//! - [`task_vocabulary`]: kinds, modes, statuses, timeout reasons, error categories, primitive
//!   metadata values and the error value a failed task carries;
//! - [`task_request`]: what a caller asks for when it starts a background task, by kind;
//! - [`task_schedule`]: the definition of a scheduled wake;
//! - [`task_result`]: what a finished task produced, by kind;
//! - [`task_state`]: how a task stands, the fields it shares with a subagent job, and its
//!   input, log and listing records;
//! - [`task_event`]: what a task manager reports while tasks run, and its listener port;
//! - [`groups`]: job groups the parent waits on together, their events and ports;
//! - [`subagents`]: subagent jobs, derived from the agent task's declarations;
//! - [`workspace`]: the one list that shows the main thread, tasks and groups together;
//! - [`workspace_projection`]: what the workspace projection reads and the state it derives.
//!
//! # Guarantees
//!
//! - **Only an agent request has a permission policy**, and there it is required; any other
//!   request carrying `permissionPolicy` fails to decode, naming the key.
//! - **A fork reaches a task as `resumeSessionId` alone**: no field can carry a conversation.
//! - **A result carries only its own kind's fields** (`usage` only on an agent result,
//!   `exitCode`/`signalCode` only on a process result), and a task state's `result` has the
//!   state's own `kind`; anything else fails to decode, naming the field.
//! - **Closed sets are enums** with the exact wire literals; negative or fractional counts,
//!   sizes and times fail to decode.
//! - **Loop-ness is read from `loopId` only**: `cancel` on an entry with one stops the loop.
//!
//! # Pure functions
//!
//! [`BackgroundTaskStatus::is_terminal`](task_vocabulary::BackgroundTaskStatus::is_terminal);
//! the accessors ([`BackgroundTaskRequest::kind`](task_request::BackgroundTaskRequest::kind),
//! [`BackgroundTaskResult::kind`](task_result::BackgroundTaskResult::kind),
//! [`BackgroundTaskEvent::task_id`](task_event::BackgroundTaskEvent::task_id), …);
//! [`ExecutionWorkspaceStatus::normalized_state`](workspace::ExecutionWorkspaceStatus::normalized_state)
//! (total) and [`ExecutionNormalizedState::derive`](workspace::ExecutionNormalizedState::derive)
//! (a parked prompt wins), with the task, group and main-thread shortcuts;
//! [`attach_offered`](workspace::attach_offered) and
//! [`ExecutionWorkspaceEntry::cancel_route`](workspace::ExecutionWorkspaceEntry::cancel_route);
//! [`SubagentJobStatus::from_task_status`](subagents::SubagentJobStatus::from_task_status);
//! [`ExecutionSelfPacedLoopSummary::needs_own_entry`](workspace_projection::ExecutionSelfPacedLoopSummary::needs_own_entry).
//!
//! # Example
//!
//! ```
//! use agent_interface::execution::task_vocabulary::BackgroundTaskStatus;
//! use agent_interface::execution::workspace::{
//!     ExecutionEntryKind, ExecutionNormalizedState as State, ExecutionWorkspaceStatus as Status,
//!     attach_offered,
//! };
//!
//! assert_eq!(State::derive(Status::Idle, false), State::Completed);
//! assert_eq!(State::derive(Status::Active, true), State::NeedsInput); // a parked prompt wins
//! let paused = Status::Task(BackgroundTaskStatus::Paused);
//! assert_eq!(paused.normalized_state(), State::Stopped);
//! assert!(attach_offered(ExecutionEntryKind::BackgroundTask, Some("s-2")));
//! assert!(!attach_offered(ExecutionEntryKind::MainThread, Some("s-2")));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/execution.md`.

/// `impl From<Payload> for Enum` for each `Variant(Payload)` of a kind-tagged union, so every
/// payload converts into its union the same way (crate-private helper of this family).
macro_rules! from_variants {
    ($union:ident { $($variant:ident($payload:ty)),+ $(,)? }) => {
        $(
            impl From<$payload> for $union {
                fn from(payload: $payload) -> Self {
                    Self::$variant(payload)
                }
            }
        )+
    };
}

#[cfg(feature = "serde")]
mod event_decode;
pub mod groups;
#[cfg(feature = "serde")]
mod result_decode;
pub mod subagents;
pub mod task_event;
pub mod task_request;
pub mod task_result;
pub mod task_schedule;
pub mod task_state;
pub mod task_vocabulary;
#[cfg(feature = "serde")]
mod wire_check;
pub mod workspace;
pub mod workspace_projection;

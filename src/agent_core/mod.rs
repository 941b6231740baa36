//! The base vocabulary the contract families name (feature `agent-core`; the TypeScript package
//! `agent-core`).
//!
//! `agent-core` itself owns provider contracts and much more; this module holds only the types
//! the families of this crate name: untyped values, conversation messages, the history timeline,
//! tool schemas and results, asking the user, token usage and context windows, a few closed
//! vocabularies, and errors carried as data. It names nothing but `core`, `alloc`, `serde_json`
//! and (behind the `serde` feature) `serde` and `serde_path_to_error`, and re-exports the raw
//! mutexes of embassy-sync when a runtime piece that is generic over one is on.
//!
//! | file | what it holds |
//! |---|---|
//! | `value` | [`Value`], [`ValueMap`], tool arguments and parameters |
//! | `message` | [`UniversalMessage`] and its four roles, parts, tool calls, [`MessageState`] |
//! | `history` | [`HistoryEntry`], the append-only timeline |
//! | `tool` | [`ToolSchema`], [`ObjectParameterSchema`], [`ToolExecutionResult`] |
//! | `action` | [`ActionRequest`] (asking the user) and [`ActionResponse`] |
//! | `usage` | [`TokenUsage`], [`ContextWindowState`], [`SessionUsageTotals`] |
//! | `error_value` | [`ErrorValue`] (an error carried as data), [`DestroyResult`] |
//! | `signal` | [`AbortSignal`], the one cancellation signal |
//! | `vocabulary` | closed vocabularies: [`PermissionMode`], [`ModelEffort`], [`SessionEndReason`], … |
//! | `read_limits` | [`ReadLimits`]: what reading outside JSON may cost (nesting, issues, echoes) |
//! | (re-exports) | `RawMutex`, `NoopRawMutex`, `CriticalSectionRawMutex`: the locks of the pieces (below) |
//! | `json` | the located JSON readers `from_json_*` (feature `serde`) |
//! | `echo` | crate-private: outside values quoted in messages, cut to a bounded length |
//! | `nesting` | crate-private: the nesting bound, checked in one pass before any recursive parse |
//! | `tagged` | crate-private: the one-pass decoder of enums tagged on a member (feature `serde`) |
//! | `message_decode` | crate-private: a message's `Deserialize`, through `tagged` (feature `serde`) |
//! | `object_only` | crate-private: reads a derived struct from an object only (feature `serde`) |
//! | `part_decode` | crate-private: a message part's `Deserialize`, through `tagged` (feature `serde`) |
//!
//! # Guarantees
//!
//! - **Decoding says where it failed.** With `serde`,
// The decoders exist only with `serde`: linked then, named without it (no broken link).
#![cfg_attr(
    feature = "serde",
    doc = "  [`from_json_str`], [`from_json_slice`] and [`from_json_value`]"
)]
#![cfg_attr(
    not(feature = "serde"),
    doc = "  `from_json_str`, `from_json_slice` and `from_json_value`"
)]
//!   decode any contract type of any family and name the failing member
#![cfg_attr(feature = "serde", doc = "  ([`JsonDecodeError::path`]:")]
#![cfg_attr(not(feature = "serde"), doc = "  (`JsonDecodeError::path`:")]
//!   `bySource[1].source.scope: unknown variant …`); use them on untrusted JSON instead of
//!   `serde_json::from_str`.
//! - **Round trips lose nothing**: [`Value`] is `serde_json::Value`; a present `null` stays apart
//!   from an absent key where the contract allows both.
//! - **Counts are unsigned** (a negative or fractional count fails to decode); closed literal
//!   sets are enums with the exact wire literals and no catch-all variant.
//! - Timestamps are ISO-8601 `String`s carried as written, not validated; a JS `Date` travels
//!   as that string and `undefined` as an absent field.
//!
//! # Example
//!
//! ```
//! # #[cfg(feature = "serde")] { // the JSON readers need `serde`
//! use agent_interface::agent_core::{ToolCall, UniversalMessage, from_json_str};
//!
//! let text = r#"{"role": "user", "id": "m1", "timestamp": "2026-05-01T12:00:00.000Z",
//!     "state": "complete", "content": "hello"}"#;
//! let message: UniversalMessage = from_json_str(text).unwrap();
//! assert_eq!(message.id(), "m1");
//!
//! let call = r#"{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": 7}}"#;
//! let bad = from_json_str::<ToolCall>(call).unwrap_err();
//! assert_eq!(bad.path(), "function.arguments");
//! # }
//! ```
//!
//! # Which mutex: threads, interrupts and `critical-section`
//!
//! The turn queue, the record store, the session cache and the policy store are generic over
//! embassy-sync's `RawMutex`. The three types are re-exported here whenever one of those pieces
//! is on, so a host names them without a direct embassy-sync dependency (and its version):
//! - `NoopRawMutex`: one executor, one thread (a browser tab, a single-threaded tokio runtime,
//!   one embassy executor). What it guards is then `!Sync`.
//! - `CriticalSectionRawMutex`: shared across threads or with interrupts (`Send + Sync` when
//!   what it guards is `Send`). It needs a `critical-section` implementation linked into the
//!   final binary, or linking fails with `undefined symbol: _critical_section_1_0_acquire`: on a
//!   std host add `critical-section = { version = "1", features = ["std"] }` to the host's
//!   dependencies; on a single-core Cortex-M, `cortex-m`'s `critical-section-single-core`
//!   feature and a `use cortex_m as _;` in the binary so that it links; on other targets, the
//!   HAL's implementation.
//!
//! Decisions where the contract was silent: `docs/decisions/agent-core.md`.

mod action;
#[cfg(any(feature = "serde", feature = "policy"))]
mod echo;
mod error_value;
mod history;
#[cfg(feature = "serde")]
mod json;
#[cfg(any(
    feature = "serde",
    feature = "transport-runtime",
    feature = "session-mobility"
))]
mod json_tokens;
mod message;
#[cfg(feature = "serde")]
mod message_decode;
#[cfg(any(
    feature = "serde",
    feature = "transport-runtime",
    feature = "session-mobility"
))]
mod nesting;
#[cfg(feature = "serde")]
mod object_only;
#[cfg(feature = "serde")]
mod part_decode;
mod read_limits;
mod signal;
#[cfg(feature = "serde")]
mod tagged;
mod tool;
mod usage;
mod value;
mod vocabulary;

pub use action::{ActionDefault, ActionOption, ActionRequest, ActionResponse};
#[cfg(any(feature = "serde", feature = "policy"))]
pub(crate) use echo::echoed;
#[cfg(feature = "serde")]
pub(crate) use echo::{CutEchoes, cut_echoes};
#[cfg(any(
    feature = "turn-queue",
    feature = "policy",
    feature = "record-store",
    feature = "session-cache"
))]
pub use embassy_sync::blocking_mutex::raw::{CriticalSectionRawMutex, NoopRawMutex, RawMutex};
pub use error_value::{DestroyResult, ErrorValue};
pub use history::HistoryEntry;
#[cfg(feature = "serde")]
pub(crate) use json::json_message;
#[cfg(feature = "serde")]
pub use json::{
    JsonDecodeError, from_json_slice, from_json_slice_within, from_json_str, from_json_str_within,
    from_json_value,
};
#[cfg(any(feature = "record-codec", feature = "transport-runtime"))]
pub(crate) use json_tokens::unicode_escape;
#[cfg(all(feature = "serde", feature = "session"))]
pub(crate) use json_tokens::{quote_or_escape, space, token};
pub use message::{
    AssistantMessage, BaseMessage, MessageRole, MessageState, SystemMessage, ToolCall,
    ToolCallFunction, ToolCallType, ToolMessage, UniversalMessage, UniversalMessagePart,
    UserMessage,
};
#[cfg(any(feature = "transport-runtime", feature = "session-mobility"))]
pub(crate) use nesting::nests_deeper;
#[cfg(feature = "serde")]
pub(crate) use nesting::too_deep;
#[cfg(all(feature = "serde", feature = "execution"))]
pub(crate) use object_only::ObjectOnly;
#[cfg(feature = "serde")]
pub(crate) use object_only::ObjectsOnly;
pub use read_limits::ReadLimits;
pub use signal::{AbortSignal, NeverAborted};
#[cfg(all(feature = "serde", feature = "execution"))]
pub(crate) use tagged::{MemberSource, TaggedMembers, decode_tagged, read_once, required};
pub use tool::{JsonSchemaKind, ObjectParameterSchema, ToolExecutionResult, ToolSchema};
pub use usage::{ContextWindowState, SessionUsageTotals, TokenUsage};
pub use value::{ToolArgs, ToolParameters, Value, ValueMap};
pub use vocabulary::{
    BackgroundPermissionPolicy, ModelEffort, ModelEffortSelection, PeerReach, PermissionMode,
    SessionEndReason,
};

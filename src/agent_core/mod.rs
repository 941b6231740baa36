//! The base vocabulary the contract families name (the TypeScript package `agent-core`).
//!
//! `agent-core` itself owns provider contracts and much more; this module holds only the types
//! the families of this crate name: untyped values, conversation messages, the history timeline,
//! tool schemas and results, asking the user, token usage and context windows, a few closed
//! vocabularies, and errors carried as data. It names nothing but `core`, `alloc`, `serde_json`
//! and (behind the `serde` feature) `serde` and `serde_path_to_error`.
//!
//! With `serde`, [`from_json_str`], [`from_json_slice`] and [`from_json_value`] decode any
//! contract type of any family and name the member that failed ([`JsonDecodeError::path`]:
//! `bySource[1].source.scope: unknown variant …`); use them on untrusted JSON instead of
//! `serde_json::from_str`.
//!
//! # Rust shape
//!
//! * [`Value`] is `serde_json::Value` and [`ValueMap`] its map. A JS `Date` travels as its
//!   ISO-8601 string and `undefined` as an absent field. Every timestamp field is a `String` in
//!   that form, carried as written and not validated.
//! * Counts are unsigned integers (tokens `u64`; `minSelect`, `maxSelect`, `maxVisible` `u32`), so
//!   a negative or fractional count fails to decode. Percentages and durations are `f64`.
//! * Unions tagged on a field are enums: [`UniversalMessage`] on `role`, [`UniversalMessagePart`]
//!   and [`ActionResponse`] on `type`. The fields every message shares live once, in
//!   [`BaseMessage`], flattened into each role's record on the wire, and
//!   [`UniversalMessage`]'s accessors (`id()`, `timestamp()`, `state()`, `role()`, …) read them.
//! * Closed literal sets are enums with exact wire literals and no catch-all variant.
//!   [`PermissionMode`] is `#[non_exhaustive]` because the contract says it may grow.
//!   [`ModelEffortSelection`] is `Auto` or an [`Effort`](ModelEffortSelection::Effort), written
//!   as the bare string.
//!
//! # Decisions where the catalog is silent
//!
//! Field names and literals were checked against the TypeScript sources of `agent-core`.
//!
//! * An assistant message's `content` is `str | null` and the key is required: `None` is written
//!   as `null`, and a message without the key fails to decode.
//! * A tool message may carry `parts`, as in the TypeScript source (the catalog omits it).
//! * A tool call's `type` and a parameter schema's `type` are fixed literals (`'function'`,
//!   `'object'`); neither is a field. They are written on encoding and checked on decoding
//!   ([`ToolCall::call_type`], [`ObjectParameterSchema::kind`]).
//! * [`ObjectParameterSchema`] names `properties` and `required` and keeps every other schema
//!   keyword in `extra`. Property nodes and `outputSchema` stay JSON values: this crate does not
//!   model the JSON-schema subset node by node.
//! * [`ToolSchema`] also has the optional `deferLoading` flag of the newer source.
//! * [`ToolExecutionResult::result`] and [`HistoryEntry::data`] keep a present `null` as
//!   `Some(Value::Null)`, apart from an absent key, so a round trip loses nothing. The message
//!   metadata, `TToolArgs` and the tool metadata are plain [`ValueMap`]s: the value types the
//!   TypeScript side narrows to are documented, not enforced.
//! * [`HistoryEntry`]'s `type` is the field `kind`. Its `category` and `kind` are open strings,
//!   not closed sets.
//! * [`ErrorValue`] is `{name, message, stack?}`. It implements `Display` the way JavaScript
//!   prints an error (`name: message`) and [`core::error::Error`].
//! * [`ActionRequest::effective_min_select`] and [`ActionRequest::effective_max_select`] apply
//!   the documented default of 1.

mod action;
mod error_value;
mod history;
#[cfg(feature = "serde")]
mod json;
mod message;
mod signal;
mod tool;
mod usage;
mod value;
mod vocabulary;

pub use action::{ActionDefault, ActionOption, ActionRequest, ActionResponse};
pub use error_value::{DestroyResult, ErrorValue};
pub use history::HistoryEntry;
#[cfg(feature = "serde")]
pub use json::{JsonDecodeError, from_json_slice, from_json_str, from_json_value};
pub use message::{
    AssistantMessage, BaseMessage, MessageRole, MessageState, SystemMessage, ToolCall,
    ToolCallFunction, ToolCallType, ToolMessage, UniversalMessage, UniversalMessagePart,
    UserMessage,
};
pub use signal::{AbortSignal, NeverAborted};
pub use tool::{JsonSchemaKind, ObjectParameterSchema, ToolExecutionResult, ToolSchema};
pub use usage::{ContextWindowState, SessionUsageTotals, TokenUsage};
pub use value::{ToolArgs, ToolParameters, Value, ValueMap};
pub use vocabulary::{
    BackgroundPermissionPolicy, ModelEffort, ModelEffortSelection, PeerReach, PermissionMode,
    SessionEndReason,
};

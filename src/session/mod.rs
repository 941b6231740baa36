//! Sessions, turns, events, prompts, capabilities, records and their store, loops (layer 1).
//!
//! The centre of the crate: what an interactive session is, described without the code that runs
//! one. The family names only `agent_core`, `command`, `execution` and `analytics` (each through
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
//! Each file's own documentation lists the decisions taken where the contract is silent or its
//! shape was not recovered.

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

pub use binding::*;
pub use branch::*;
pub use capability::*;
// With `serde`, also the crate-private member decoder the record codec (runtime piece
// `record-codec`) shares with the record's own `Deserialize`, named through this root.
pub use decode::*;
// With `serde`, the outline of JSON text the member decoder and the record codec read through.
pub use directory::*;
pub use event_payloads::*;
pub use events::*;
pub use execution_result::*;
pub use goal::*;
pub use interaction::*;
#[cfg(feature = "serde")]
pub(crate) use json_text::{Child, Member, first_byte, named, outline_plain, whole};
pub use loop_state::*;
pub use plan::*;
pub use project_panel::*;
pub use prompt::*;
pub use prompt_history::*;
pub use record::*;
pub use refusal::*;
pub use runtime_tools::*;
pub use settings_screen::*;
pub use status::*;
pub use store::*;
pub use summary::*;
pub use tool_state::*;
pub use turn::*;

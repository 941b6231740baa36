//! Sessions, turns, events, prompts, capabilities, records and their store, loops (feature
//! `session`, layer 1).
//!
//! The centre of the crate, mirroring the TypeScript session contracts: what an interactive
//! session is, described without the code that runs one. The family names only `agent_core`, `command`, `execution` and `analytics` (each through
//! its root), and nothing below it names a session type. It holds declarations, ports (traits),
//! and small pure functions over its own types; the queue that runs turns is the `turn-queue`
//! runtime piece, and the stores behind the store port are runtime pieces too.
//!
//! | module | what it holds | what it guarantees |
//! |---|---|---|
//! | [`turns`] | turn identity, submit options, the turn handle, completions | a turn id is minted at acceptance and kept while queued; a completion is a result, an interrupted partial result (local history only: it cannot become an answer), or a turn-not-run outcome with exactly three reasons (`coalesced`, `dropped`, `cancelled`), told apart from a failure inside the turn by [`TurnError::is_turn_not_run`](turns::TurnError::is_turn_not_run); turn source is attribution, not proof of admission; a peer turn without a driver id is refused |
//! | [`events`] | the event map and its payloads: tools, branches, goals, plans, status | the 28 events of the session event map as [`SessionEvent`](events::SessionEvent), on the wire as `{"type", "event"}`; a finished tool event names its view by reference |
//! | [`prompts`] | permission and ask requests, their answers, the permission handler | one canonical `prompt_resolved` for every prompt kind; `permission_request` says whether project consent can be persisted |
//! | [`capabilities`] | the role ports, the capability host, the runtime-tool role | the 20 role ports and their 48 members; a host in which initialization state, pending-turn count and active driver cannot be left out; reading a role tells absent from present-returning-nothing ([`CapabilityRead`](capabilities::CapabilityRead)); runtime tools fail closed unless a prompt is allowed, and cancelling a call withdraws its prompt |
//! | [`records`] | the resumable record and its store port | the complete resumable record keeps fields a writer does not own; the store port is CRUD with no record path; a load ends in one of five outcomes, only `missing` permits recovery, and a writer never overwrites corrupt, unsupported or locked records; a decode answers valid, corrupt (located issues) or unsupported, never `missing`; the codec itself is the `record-codec` runtime piece |
//! | [`loops`] | self-paced loops | a self-paced loop is one enum of phases with a pure transition function; stale wakes after a resume are refused and a refused transition changes nothing |
//! | [`directory`] | listings, the directory port, bindings, refusals | listings, the directory port, per-client bindings, and the session change/delete refusals with their exact code lists |
//! | [`interaction`] | the in-process interaction channel | the in-process interaction channel (its `write` is mandatory), the agent driver, and the pure readers over an event stream |
//! | [`protocol`] | the WebSocket session protocol's client and server messages | every message of the reference's protocol, tagged on `type` with its literals; only the eight turn-authored events carry a `driverId` |
//! | [`screens`] | prompt history, project panel, settings screen | the read contracts a surface draws its screens from |
//! | `testing` (feature `testing`) | the session double, the capability host builder | the full session double and the capability host builder with the exact rejections of the contract |
//!
//! Each item has one path, through its module: `session::turns::TurnHandle`,
//! `session::records::InteractiveSessionRecord`.
//!
//! # Example
//!
//! ```
//! use agent_interface::session::directory::{
//!     SessionBindingRole, SessionChangeRefusalCode, SwitchAwayState, switch_away_refusal,
//! };
//! use agent_interface::session::turns::{
//!     AGENT_DRIVER_ID, OWNER_DRIVER_ID, TurnSource, default_driver_id,
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

pub mod capabilities;
pub mod directory;
pub mod events;
pub mod interaction;
pub mod loops;
pub mod prompts;
pub mod protocol;
pub mod records;
pub mod screens;
pub mod turns;

#[cfg(feature = "testing")]
pub mod testing;

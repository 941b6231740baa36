//! The transport contract family (feature `transport`, layer 0; names only `agent_core`): what a
//! transport adapter is and how its lifecycle is driven, how a runner ends, what is persisted as
//! a transport's configuration, the registry's two views, payload channel declarations, and
//! admission.
//!
//! It mirrors the TypeScript transport contracts, one public submodule per contract:
//!
//! - [`adapters`]: the adapter lifecycle ports ([`TransportAdapter`](adapters::TransportAdapter),
//!   [`TransportRunnerAdapter`](adapters::TransportRunnerAdapter), their bound forms) a host
//!   implements for each way a session is reached, and the lifecycle error shapes;
//! - [`outcomes`]: how a runner ends and what a registry records of it;
//! - [`config`]: a transport's saved configuration, its settings capability, the registry views;
//! - [`channels`]: payload channel names, declarations, frames and receive answers;
//! - [`admission`]: admission and access-token verdicts;
//! - [`external_events`]: grants, external message events and their audit records.
//!
//! This module holds the **contracts** only:
//! declarations, inert error shapes and two pure helpers over the run outcome. The lifecycle
//! guard, the registry, frame sequencing and reassembly, admission resolution and token minting
//! are runtime (`runtime::transport`, feature `transport-runtime`). With `testing`,
#![cfg_attr(feature = "testing", doc = "[`testing`]")]
#![cfg_attr(not(feature = "testing"), doc = "`testing`")]
//! holds the lifecycle conformance suite any adapter runs against itself.
//!
//! # Guarantees
//!
//! - **Illegal values are unrepresentable**: a [`TransportRunOutcome`](outcomes::TransportRunOutcome)
//!   is `Succeeded` (code 0) or `Failed` with a `NonZeroU8`; a
//!   [`ChannelName`](channels::ChannelName) is 1..=255 UTF-8 bytes; a frame's seq is a `u32`; a
//!   [`TransportAdmission`](admission::TransportAdmission) holds a non-blank token or a trimmed,
//!   non-empty reason.
//! - **Decoders refuse what constructors refuse**: wrong error `name`s, unknown codes,
//!   `succeeded` with a non-zero code, invalid verifier configs and grants.
//! - **Saved options are never silently ignored**: a settings capability without options
//!   refuses a non-empty set with `options-not-applicable`.
//! - **Secrets never print**: `Debug` of anything holding a token, a claim or event content
//!   writes `<redacted>`.
//! - **Ports are `async fn` traits with no `Send` bound**; the helpers never panic.
//!
//! # Example
//!
//! ```
//! use agent_interface::transport::outcomes::{
//!     TransportRunOutcome, create_transport_failed_outcome, is_transport_run_outcome,
//! };
//!
//! let failed = create_transport_failed_outcome(2).unwrap();
//! assert_eq!((failed.status(), failed.exit_code()), ("failed", 2));
//! assert!(create_transport_failed_outcome(256).is_err());
//! assert_eq!(TransportRunOutcome::from_exit_code(0), TransportRunOutcome::Succeeded);
//!
//! let wire = serde_json::json!({"status": "succeeded", "exitCode": 0});
//! assert!(is_transport_run_outcome(&wire));
//! assert!(!is_transport_run_outcome(&serde_json::json!({"status": "failed", "exitCode": 0})));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/transport.md`.

pub mod adapters;
pub mod admission;
pub mod channels;
pub mod config;
pub mod external_events;
pub mod outcomes;
#[cfg(feature = "testing")]
pub mod testing;

//! A layered, `no_std` + `alloc` vocabulary for hosts of AI agents.
//!
//! `agent-interface` gives a terminal app, a browser tab, a worker or a microcontroller that drives
//! a remote model one shared set of contract types: usage and run traces, terminal interactions,
//! sessions, turns, prompts, records and their stores, handoff, transports and payload channels,
//! commands, background work, permission rules and reconciling interrupted tool calls. It is
//! sans-IO: it never reads a clock, a socket, a file or an entropy source; hosts pass time in
//! and supply entropy and carriers through traits.
//!
//! # Layering
//!
//! Every contract family and runtime piece is one module behind one Cargo feature, and it names
//! only the modules below it (checked by `tests/layering.rs` against one table of allowed
//! edges):
//!
//! | layer | module | feature | names directly |
//! |---|---|---|---|
//! | base | `agent_core` | `agent-core` | nothing |
//! | 0 | `analytics` | `analytics` | nothing |
//! | 0 | `tui` | `tui` | nothing |
//! | 0 | `command` | `command` | `agent_core` |
//! | 0 | `execution` | `execution` | `agent_core` |
//! | 0 | `transport` | `transport` | `agent_core` |
//! | 1 | `session` | `session` | `agent_core`, `analytics`, `command`, `execution` |
//! | 2 | `session_mobility` | `session-mobility` | `session` |
//! | runtime | `runtime::turn_queue` | `turn-queue` | `session` |
//! | runtime | `runtime::transport` | `transport-runtime` | `transport` |
//! | runtime | `runtime::policy` | `policy` | `agent_core` |
//! | runtime | `runtime::reconcile` | `reconcile` | `agent_core` |
//! | runtime | `runtime::record_codec` | `record-codec` | `session` |
//! | runtime | `runtime::record_store` | `record-store` | `runtime::record_codec` |
//! | runtime | `runtime::session_cache` | `session-cache` | `runtime::reconcile`, `session` |
//! | runtime | `runtime::session_protocol` | `session-protocol` | `runtime::transport`, `session` |
//! | runtime | `runtime::shared_memory` | `shared-memory` | `agent_core` |
//!
//! A module also names what its rows reach (`session_mobility` names `agent_core` types); the
//! rows list direct edges only, as the features do.
//!
//! Runtime pieces live under [`runtime`] (when one is enabled), each behind its own feature:
//!
//! | module | feature | implements |
//! |---|---|---|
//! | `runtime::turn_queue` | `turn-queue` | the co-drive turn queue and its turn handles |
//! | `runtime::policy` | `policy` | per-session permission rules, their store and enforcement |
//! | `runtime::reconcile` | `reconcile` | closing interrupted tool calls on wake |
//! | `runtime::transport` | `transport-runtime` | the lifecycle guard and registry; payload channels (`runtime::transport::channels`) and admission (`runtime::transport::admission`) |
//! | `runtime::record_codec` | `record-codec` | the session record codec: envelope encoder, total decoder with located issues |
//! | `runtime::record_store` | `record-store` (+ `record-store-fs`, `sealing`) | session record stores: memory, files, sealed |
//! | `runtime::session_cache` | `session-cache` | the TTL session cache, fork, ownership rows, bounded-tail wake |
//! | `runtime::session_protocol` | `session-protocol` | the WebSocket session protocol of the reference's clients: frame decoder, handler, event fan-out, resume buffer and bridge, delivery latch |
//! | `runtime::shared_memory` | `shared-memory` | the read-only shared-memory provider seam |
//!
//! There are no root re-exports: every path names its family, and a large family its area too
//! (`agent_interface::analytics::usage::UsageSnapshot`).
//!
//! # Wire forms
//!
//! With the `serde` feature every record, union and literal set derives `Serialize` and
//! `Deserialize` with the field names and tag strings of the TypeScript contract (camelCase fields,
//! exact literals, absent optionals skipped), so a Rust host and the TypeScript SDK read each
//! other's JSON.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The README's Rust snippets run as doctests, so its quick start cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[macro_use]
mod literal;
#[macro_use]
mod setters;

#[cfg(any(feature = "session", feature = "reconcile"))]
mod instant;

#[cfg(feature = "testing")]
pub mod conformance;

#[cfg(feature = "agent-core")]
pub mod agent_core;
#[cfg(feature = "analytics")]
pub mod analytics;
#[cfg(feature = "command")]
pub mod command;
#[cfg(feature = "execution")]
pub mod execution;
#[cfg(feature = "session")]
pub mod session;
#[cfg(feature = "session-mobility")]
pub mod session_mobility;
#[cfg(feature = "transport")]
pub mod transport;
#[cfg(feature = "tui")]
pub mod tui;

// Always present, empty without a piece feature: a path into a piece that is off then gets
// rustc's note naming that piece's feature.
pub mod runtime;

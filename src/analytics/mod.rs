//! Usage and run traces (feature `analytics`, layer 0; names nothing, needs no dependency).
//!
//! It mirrors the TypeScript usage and trace contracts: the shapes of a measurement. How many
//! tokens a turn consumed, what it cost and how far that cost can be trusted, which execution
//! unit, model, provider and product surface it is attributed to, the content-free trace spans
//! under a prompt execution, the opt-in content batch kept apart from them, and the per-session
//! and cross-session usage reports. A host fills these in and writes them out; the family
//! measures nothing, decides no policy, declares no error type and no runtime value beyond small
//! accessors. One public submodule per area:
//!
//! | module | what it holds |
//! |---|---|
//! | [`usage`] | the per-turn snapshot, cost, attribution, and the persisted usage observation |
//! | [`trace`] | content-free trace spans under a prompt execution and the live trace batch |
//! | [`content`] | the opt-in live content batch, kept apart from the trace |
//! | [`reports`] | the per-session trace and cost report, the cross-session personal usage report |
//! | [`schema`] | the schema-version literal of the versioned records |
//!
//! # Guarantees
//!
//! - **Paired keys are one value**: a cost ([`TurnCost`](usage::TurnCost),
//!   [`ShareCost`](usage::ShareCost): never an amount with `unknown`, never a priced status
//!   without one, never `exact` on a share), a model attribution
//!   ([`ModelAttribution`](usage::ModelAttribution): `modelId` and `modelShares` never both), a
//!   content subject ([`LivePromptContentSubject`](content::LivePromptContentSubject)); the JSON
//!   shape is unchanged.
//! - **Counts are unsigned** (`u64`; `round`, `turnIndex` `u32`): a negative or fractional count
//!   fails to decode. Amounts, percentages and durations are `f64`.
//! - **Unknown keys are dropped, never written back** (a stray `content` on a trace entry).
//! - Timestamps (ISO-8601) and dates (`YYYY-MM-DD`) are text carried as written, not validated.
//! - Rules no type can hold are the producer's (see the decisions file), with checks where they
//!   are cheap
//!   ([`UsageBySourceReport::is_sorted_by_tokens`](reports::UsageBySourceReport::is_sorted_by_tokens),
//!   [`RunTraceTurn::span_duration_sum`](reports::RunTraceTurn::span_duration_sum)).
//!
//! # Example
//!
//! ```
//! use agent_interface::analytics::usage::{CostStatus, TurnCost};
//!
//! let priced = TurnCost::Estimated { usd: 0.25 };
//! assert_eq!(priced.status(), CostStatus::Estimated);
//! assert_eq!((priced.usd(), TurnCost::Unknown.usd()), (Some(0.25), None));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/analytics.md`.

pub mod content;
pub mod reports;
pub mod schema;
pub mod trace;
pub mod usage;
mod wire;

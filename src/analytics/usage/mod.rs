//! What one turn consumed and to whom it is attributed: the per-turn snapshot, the cost and how
//! far it can be trusted, the execution unit and product surface that consumed it, and the
//! persisted observation of a started interactive turn with its per-model shares.
//!
//! Paired wire keys are one value: a cost ([`TurnCost`], [`ShareCost`]) is never an amount with
//! `unknown`, never a priced status without one, never `exact` on a share; a
//! [`ModelAttribution`] never holds both `modelId` and `modelShares`. Counts are unsigned, so a
//! negative or fractional count fails to decode.
//!
//! | file | what it holds |
//! |---|---|
//! | attribution | [`UsageSource`], [`UsageSourceScope`], [`UsageSurface`] |
//! | snapshot | [`UsageSnapshot`], [`UsageSnapshotKind`], [`UsageSnapshotScope`] |
//! | cost | [`CostStatus`], [`TurnCost`], [`ShareCost`] |
//! | observation | [`UsageObservation`], [`UsageOutcome`], [`UsageModelShare`], [`ModelAttribution`] |

mod attribution;
mod cost;
mod observation;
mod snapshot;

pub use attribution::{UsageSource, UsageSourceScope, UsageSurface};
pub use cost::{CostStatus, ShareCost, TurnCost};
pub use observation::{ModelAttribution, UsageModelShare, UsageObservation, UsageOutcome};
pub use snapshot::{UsageSnapshot, UsageSnapshotKind, UsageSnapshotScope};

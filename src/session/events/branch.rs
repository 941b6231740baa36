//! Checkpoints and branches of a conversation: the `branch_event` payload (`IBranchEvent`) and
//! the record's pointer to the active branch (`IActiveBranchPointer`).
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;

string_enum! {
    /// Which transition a [`BranchEvent`] reports (`kind`).
    pub enum BranchEventKind {
        /// A checkpoint was created.
        CheckpointCreated = "checkpoint_created",
        /// The conversation was restored to a checkpoint.
        CheckpointRestored = "checkpoint_restored",
        /// The conversation was rolled back to a checkpoint.
        CheckpointRolledBack = "checkpoint_rolled_back",
        /// A branch was forked explicitly.
        BranchForked = "branch_forked",
        /// The active branch was switched.
        BranchSwitched = "branch_switched",
    }
}

/// The `branch_event` event (`IBranchEvent`).
///
/// It is emitted only after the transition has been persisted, so a surface never shows a
/// checkpoint that a crash could lose. Resume-pointer hydration is not a transition and emits
/// nothing.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BranchEvent {
    /// Which transition happened.
    pub kind: BranchEventKind,
    /// The checkpoint it concerns (after the transition).
    pub checkpoint_id: String,
    /// The branch it concerns (after the transition).
    pub branch_id: String,
}

impl BranchEvent {
    /// A [`BranchEvent`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        kind: BranchEventKind,
        checkpoint_id: impl Into<String>,
        branch_id: impl Into<String>,
    ) -> Self {
        Self {
            kind,
            checkpoint_id: checkpoint_id.into(),
            branch_id: branch_id.into(),
        }
    }
}

/// Where the conversation's head is (`IActiveBranchPointer`), kept in the session record.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ActiveBranchPointer {
    /// The active branch.
    pub branch_id: String,
    /// The checkpoint at its head.
    pub checkpoint_id: String,
}

impl ActiveBranchPointer {
    /// A [`ActiveBranchPointer`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(branch_id: impl Into<String>, checkpoint_id: impl Into<String>) -> Self {
        Self {
            branch_id: branch_id.into(),
            checkpoint_id: checkpoint_id.into(),
        }
    }
}

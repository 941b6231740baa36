//! Prompt history (`prompt-history-contracts`): the prompts a person typed, across sessions and
//! projects, as a derived append-only projection a terminal UI searches. The session record stays
//! the owner of every message; this projection exists so a search never decodes a record and
//! never crosses a workspace boundary.
//!
//! These contracts are newer than the merged specification; their shapes come from the newest
//! split sources.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::agent_core::AbortSignal;

/// One prompt as it was typed, with where and when (`IPromptHistoryEntry`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PromptHistoryEntry {
    /// When the turn was submitted: an ISO-8601 timestamp, carried as written (not validated).
    pub at: String,
    /// The session the prompt was typed into.
    pub session_id: String,
    /// The project key: the workspace's worktree root, or the real path of the working directory.
    pub project: String,
    /// The typed text, trimmed.
    pub text: String,
}

impl PromptHistoryEntry {
    /// A [`PromptHistoryEntry`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        at: impl Into<String>,
        session_id: impl Into<String>,
        project: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Self {
            at: at.into(),
            session_id: session_id.into(),
            project: project.into(),
            text: text.into(),
        }
    }
}

/// Appends prompts to the history (`IPromptHistoryWriter`).
pub trait PromptHistoryWriter {
    /// Why an append failed.
    type Error: core::error::Error;

    /// Appends one entry (`append`). A failure is returned to the caller, never swallowed.
    fn append(&mut self, entry: &PromptHistoryEntry) -> Result<(), Self::Error>;
}

/// One block of a streamed read (`IPromptHistoryBlock`): entries newest first, and how many lines
/// of the block were not a well-formed entry.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PromptHistoryBlock {
    /// The block's entries, newest first.
    pub entries: Vec<PromptHistoryEntry>,
    /// Lines of this block that were not a well-formed entry: counted, never silently dropped.
    pub skipped_lines: u32,
}

impl PromptHistoryBlock {
    /// A [`PromptHistoryBlock`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(entries: Vec<PromptHistoryEntry>, skipped_lines: u32) -> Self {
        Self {
            entries,
            skipped_lines,
        }
    }
}

/// How to read the history (`IPromptHistoryReadOptions`).
///
/// It borrows the abort signal, so it derives neither `PartialEq` nor serde: it is a call
/// argument, never data.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct PromptHistoryReadOptions<'a> {
    /// The abort signal: once it reports aborted, the read yields no further block.
    pub signal: &'a dyn AbortSignal,
}

impl<'a> PromptHistoryReadOptions<'a> {
    /// Options that abort when `signal` does.
    #[must_use]
    pub const fn new(signal: &'a dyn AbortSignal) -> Self {
        Self { signal }
    }

    /// True once the signal has been set.
    #[must_use]
    pub fn is_aborted(&self) -> bool {
        self.signal.is_aborted()
    }
}

impl fmt::Debug for PromptHistoryReadOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PromptHistoryReadOptions")
            .field("aborted", &self.is_aborted())
            .finish()
    }
}

/// Streams the history newest first, so the most recent prompts render before the rest is read
/// (`IPromptHistorySource`).
pub trait PromptHistorySource {
    /// One read in progress.
    type Read<'a>: PromptHistoryRead
    where
        Self: 'a;

    /// Opens a read (`read(options)`); its blocks come from
    /// [`PromptHistoryRead::next_block`].
    fn read<'a>(&'a self, options: PromptHistoryReadOptions<'a>) -> Self::Read<'a>;
}

/// One read of a [`PromptHistorySource`]: the blocks, one at a time.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait PromptHistoryRead {
    /// Why a block could not be read.
    type Error: core::error::Error;

    /// The next block, newest first; `None` when the history is exhausted or the read's abort
    /// signal has been set (checked between blocks: after an abort no block is yielded).
    async fn next_block(&mut self) -> Option<Result<PromptHistoryBlock, Self::Error>>;
}

//! The Project panel's reads (`session-project-contracts`): git status, one file's diff, and the
//! project memory as readable text. A session method's result crosses the wire unchanged as the
//! matching message's payload, so these types are both the session shape and the wire shape.
//!
//! These contracts are newer than the merged specification; their shapes come from the newest
//! split sources.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::Value;

string_enum! {
    /// How a file differs from `HEAD` (`TProjectFileStatus`), in words anyone can read rather
    /// than a git status code.
    pub enum ProjectFileStatus {
        /// A new file, staged or committed on this branch.
        Added = "Added",
        /// A changed file.
        Modified = "Modified",
        /// A removed file.
        Deleted = "Deleted",
        /// A moved file ([`ProjectStatusFile::renamed_from`] names its old path).
        Renamed = "Renamed",
        /// A copied file ([`ProjectStatusFile::renamed_from`] names its source).
        Copied = "Copied",
        /// A file git does not track.
        Untracked = "Untracked",
        /// A file with unresolved merge conflicts.
        Conflicted = "Conflicted",
    }
}

/// One changed file in the status read (`IProjectStatusFile`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ProjectStatusFile {
    /// The file's path in the project.
    pub path: String,
    /// How it changed.
    pub status: ProjectFileStatus,
    /// For a rename or copy, the file's previous path.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub renamed_from: Option<String>,
    /// Lines added since `HEAD` (or the empty tree on an unborn branch); absent for untracked,
    /// conflicted and binary files.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub added: Option<u32>,
    /// Lines removed since `HEAD`; absent when `added` is.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub removed: Option<u32>,
}

impl ProjectStatusFile {
    /// A [`ProjectStatusFile`] from the members the contract requires, in its order; the optional
    /// ones start absent.
    #[must_use]
    pub fn new(path: impl Into<String>, status: ProjectFileStatus) -> Self {
        Self {
            path: path.into(),
            status,
            renamed_from: None,
            added: None,
            removed: None,
        }
    }
}

optional_setters!(ProjectStatusFile {
    /// The same value with `renamed_from` set: for a rename or copy, the file's previous path.
    with_renamed_from => renamed_from: impl Into<String>,
    /// The same value with `added` set: lines added since `HEAD` (or the empty tree on an unborn
    /// branch); absent for untracked, conflicted and binary files.
    with_added => added: u32,
    /// The same value with `removed` set: lines removed since `HEAD`; absent when `added` is.
    with_removed => removed: u32,
});

/// The git status of the workspace (`TProjectStatusRead`), tagged on `kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "kind",
        rename_all = "kebab-case",
        rename_all_fields = "camelCase"
    )
)]
pub enum ProjectStatusRead {
    /// The workspace is a repository and this is its status (`status`).
    Status {
        /// The current branch, when there is one to name (for example, not on a detached `HEAD`).
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        branch: Option<String>,
        /// True when the branch has no commit yet.
        unborn: bool,
        /// The changed files.
        files: Vec<ProjectStatusFile>,
        /// True when `files` stopped at the server's file-count cap: there were more.
        truncated: bool,
    },
    /// The workspace is not a git repository (`not-a-repository`); shown as a plain sentence.
    NotARepository,
    /// The status could not be read (`failed`).
    Failed {
        /// What went wrong.
        message: String,
    },
}

/// One file's diff (`TProjectDiffRead`), tagged on `kind`. `L` is the diff-line type (see the
/// module docs); by default each line is an untyped [`Value`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "kind",
        rename_all = "kebab-case",
        rename_all_fields = "camelCase"
    )
)]
pub enum ProjectDiffRead<L = Value> {
    /// The diff (`diff`).
    Diff {
        /// The diff's lines, in order.
        diff_lines: Vec<L>,
        /// True when the diff stopped at the server's line cap: there was more.
        truncated: bool,
    },
    /// The workspace is not a git repository (`not-a-repository`).
    NotARepository,
    /// The path asked for lies outside the workspace (`outside-workspace`); nothing was read.
    OutsideWorkspace,
    /// The diff could not be read (`failed`).
    Failed {
        /// What went wrong.
        message: String,
    },
}

/// The project memory as readable text (`TProjectMemoryRead`), tagged on `kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "kind",
        rename_all = "kebab-case",
        rename_all_fields = "camelCase"
    )
)]
pub enum ProjectMemoryRead {
    /// The memory's text (`memory`).
    Memory {
        /// The text.
        content: String,
        /// Where the memory lives, as a person would find it.
        path: String,
        /// True when `content` stopped at the server's size cap: there was more.
        truncated: bool,
    },
    /// No memory can be shown (`unavailable`).
    Unavailable {
        /// Why, in one plain sentence.
        message: String,
    },
}

//! What a surface shows of one tool call (`IToolState`, `IDiffLine`), the payload of `tool_start`
//! and `tool_end`.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;

string_enum! {
    /// The kind of one line of a diff (the `type` of `IDiffLine`).
    pub enum DiffLineType {
        /// An added line.
        Add = "add",
        /// A removed line.
        Remove = "remove",
        /// An unchanged line around a change.
        Context = "context",
        /// A hunk header.
        Hunk = "hunk",
    }
}

/// One line of a diff a tool call produced (`IDiffLine`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct DiffLine {
    /// The kind of line (wire `type`).
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: DiffLineType,
    /// The line's text.
    pub text: String,
    /// Its line number in the file.
    pub line_number: u32,
}

impl DiffLine {
    /// A [`DiffLine`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(kind: DiffLineType, text: impl Into<String>, line_number: u32) -> Self {
        Self {
            kind,
            text: text.into(),
            line_number,
        }
    }
}

string_enum! {
    /// How a finished tool call ended (the `result` of `IToolState`).
    pub enum ToolResultStatus {
        /// It succeeded.
        Success = "success",
        /// It failed.
        Error = "error",
        /// Permission was denied, so it did not run.
        Denied = "denied",
    }
}

/// An opaque reference to the view a tool's source declared for a finished call.
///
/// It conveys provenance, never permission to fetch: a surface that holds one must still ask the
/// session for the document, and may be refused. On the wire it is a bare string.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct ViewReference(pub String);

/// The state of one tool call as surfaces show it (`IToolState`): the payload of `tool_start` and
/// `tool_end`.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolState {
    /// The tool called.
    pub tool_name: String,
    /// Its first argument, as display text.
    pub first_arg: String,
    /// True while the call runs.
    pub is_running: bool,
    /// How it ended, once it has.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub result: Option<ToolResultStatus>,
    /// The diff it produced, line by line.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub diff_lines: Option<Vec<DiffLine>>,
    /// The file the diff is about.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub diff_file: Option<String>,
    /// The tool's result data, as text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tool_result_data: Option<String>,
    /// The call's identity, which every observation of it carries.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub execution_id: Option<String>,
    /// The view the tool's source declared, by reference, on a finished model call; absent for a
    /// direct call. Provenance only, never permission to fetch (field name chosen here).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub view_ref: Option<ViewReference>,
}

impl ToolState {
    /// A [`ToolState`] from the members the contract requires, in its order; the optional ones
    /// start absent.
    #[must_use]
    pub fn new(
        tool_name: impl Into<String>,
        first_arg: impl Into<String>,
        is_running: bool,
    ) -> Self {
        Self {
            tool_name: tool_name.into(),
            first_arg: first_arg.into(),
            is_running,
            result: None,
            diff_lines: None,
            diff_file: None,
            tool_result_data: None,
            execution_id: None,
            view_ref: None,
        }
    }
}

optional_setters!(ToolState {
    /// The same value with `result` set: how it ended, once it has.
    with_result => result: ToolResultStatus,
    /// The same value with `diff_lines` set: the diff it produced, line by line.
    with_diff_lines => diff_lines: Vec<DiffLine>,
    /// The same value with `diff_file` set: the file the diff is about.
    with_diff_file => diff_file: impl Into<String>,
    /// The same value with `tool_result_data` set: the tool's result data, as text.
    with_tool_result_data => tool_result_data: impl Into<String>,
    /// The same value with `execution_id` set: the call's identity, which every observation of it
    /// carries.
    with_execution_id => execution_id: impl Into<String>,
    /// The same value with `view_ref` set: the view the tool's source declared, by reference, on a
    /// finished model call; absent for a direct call.
    with_view_ref => view_ref: ViewReference,
});

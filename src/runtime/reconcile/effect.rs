//! What a tool does to the world ([`ToolEffect`]) and the two lookups a caller hands in: the
//! effect of a tool by name ([`ToolEffects`]) and a set of tool-call ids ([`ToolCallIds`]).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::borrow::Borrow;

string_enum! {
    /// What running a tool does to the world outside the transcript (`ToolEffect`); it tunes the
    /// text of the synthetic result that closes an interrupted call.
    ///
    /// A tool the caller does not describe counts as [`Write`](Self::Write), the conservative
    /// value: an unrecognised interrupted call is never said to be harmless.
    pub enum ToolEffect {
        /// Reads only: running it again changes nothing, so an interrupted call carries no risk.
        Read = "read",
        /// Replayable: running it again converges to the same state, though the interrupted
        /// attempt may have partly landed.
        Idempotent = "idempotent",
        /// Changes state in a way a repeat may duplicate: verify before running it again.
        Write = "write",
    }
}

/// Where the effect of a tool is looked up by its name (the task's tools).
///
/// Implemented for maps from names to effects (`BTreeMap<String, ToolEffect>`,
/// `BTreeMap<&str, ToolEffect>`) and for lists of `(name, effect)` pairs (`Vec`, arrays), which
/// are searched front to back (the first pair with the name wins). A host with another table
/// (a `HashMap`, its tool registry) implements it in one line.
pub trait ToolEffects {
    /// The declared effect of the tool called `tool_name`, or `None` when the tool is unknown
    /// (reconciling then treats it as [`ToolEffect::Write`]).
    fn effect_of(&self, tool_name: &str) -> Option<ToolEffect>;
}

impl<K: Borrow<str> + Ord> ToolEffects for BTreeMap<K, ToolEffect> {
    fn effect_of(&self, tool_name: &str) -> Option<ToolEffect> {
        self.get(tool_name).copied()
    }
}

impl<K: AsRef<str>> ToolEffects for [(K, ToolEffect)] {
    fn effect_of(&self, tool_name: &str) -> Option<ToolEffect> {
        self.iter()
            .find(|(name, _)| name.as_ref() == tool_name)
            .map(|(_, effect)| *effect)
    }
}

impl<K: AsRef<str>> ToolEffects for Vec<(K, ToolEffect)> {
    fn effect_of(&self, tool_name: &str) -> Option<ToolEffect> {
        self.as_slice().effect_of(tool_name)
    }
}

impl<K: AsRef<str>, const N: usize> ToolEffects for [(K, ToolEffect); N] {
    fn effect_of(&self, tool_name: &str) -> Option<ToolEffect> {
        self.as_slice().effect_of(tool_name)
    }
}

/// A set of tool-call ids the caller hands in: the calls of a deliberately suspended batch, or
/// the calls whose execution start the caller observed.
///
/// Implemented for `BTreeSet<String>`, `BTreeSet<&str>` (logarithmic lookups) and for lists of
/// `String` or `&str` (`Vec`, arrays, slices; searched front to back: fine for the few ids a batch
/// holds, use a set for thousands). A host with another set implements it in one line.
pub trait ToolCallIds {
    /// True when `tool_call_id` is in the set (exact, case-sensitive match).
    fn contains_tool_call_id(&self, tool_call_id: &str) -> bool;
}

impl<T: Borrow<str> + Ord> ToolCallIds for BTreeSet<T> {
    fn contains_tool_call_id(&self, tool_call_id: &str) -> bool {
        self.contains(tool_call_id)
    }
}

impl<T: AsRef<str>> ToolCallIds for [T] {
    fn contains_tool_call_id(&self, tool_call_id: &str) -> bool {
        self.iter().any(|id| id.as_ref() == tool_call_id)
    }
}

impl<T: AsRef<str>> ToolCallIds for Vec<T> {
    fn contains_tool_call_id(&self, tool_call_id: &str) -> bool {
        self.as_slice().contains_tool_call_id(tool_call_id)
    }
}

impl<T: AsRef<str>, const N: usize> ToolCallIds for [T; N] {
    fn contains_tool_call_id(&self, tool_call_id: &str) -> bool {
        self.as_slice().contains_tool_call_id(tool_call_id)
    }
}

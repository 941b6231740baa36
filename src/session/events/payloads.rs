//! Payloads of the session's smaller events (`event-contracts`, `prompt-file-reference-types`,
//! `compact-contracts`): compaction, skill activation, memory, prompt file references and context
//! references.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;

use crate::agent_core::{ContextWindowState, ValueMap};

string_enum! {
    /// What started a compaction of the conversation (`TCompactTrigger`).
    pub enum CompactTrigger {
        /// The user asked for it.
        Manual = "manual",
        /// The session did it because the context window was filling up.
        Auto = "auto",
    }
}

/// The `compact` event (`ICompactEvent`): the conversation was compacted.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CompactEvent {
    /// What started it.
    pub trigger: CompactTrigger,
    /// The context window before.
    pub before: ContextWindowState,
    /// The context window after.
    pub after: ContextWindowState,
}

impl CompactEvent {
    /// A [`CompactEvent`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        trigger: CompactTrigger,
        before: ContextWindowState,
        after: ContextWindowState,
    ) -> Self {
        Self {
            trigger,
            before,
            after,
        }
    }
}

string_enum! {
    /// Where an activated skill comes from (`TSkillActivationSource`).
    pub enum SkillActivationSource {
        /// A skill of the project or the user.
        Skill = "skill",
        /// A skill a plugin ships.
        Plugin = "plugin",
    }
}

string_enum! {
    /// How a skill was invoked (`TSkillActivationInvocation`).
    pub enum SkillActivationInvocation {
        /// The user typed its slash command.
        UserSlash = "user-slash",
        /// The model called it as a tool.
        ModelTool = "model-tool",
    }
}

string_enum! {
    /// How a skill runs (`TSkillActivationMode`).
    pub enum SkillActivationMode {
        /// Its content is injected into the current conversation.
        Inject = "inject",
        /// It runs in a forked conversation.
        Fork = "fork",
    }
}

string_enum! {
    /// Where a skill activation stands (`TSkillActivationStatus`).
    pub enum SkillActivationStatus {
        /// It began.
        Started = "started",
        /// It finished.
        Completed = "completed",
        /// It failed; the event's `error` says why.
        Failed = "failed",
    }
}

string_enum! {
    /// The `type` of a [`SkillActivationEvent`]: one fixed literal (also the default).
    #[derive(Default)]
    pub enum SkillActivationEventType {
        /// `'skill-activation'`, the only value.
        #[default]
        SkillActivation = "skill-activation",
    }
}

/// The `skill_activation` event (`ISkillActivationEvent`): a skill started, finished or failed.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SkillActivationEvent {
    /// Always `'skill-activation'` (wire `type`); any other value fails to decode.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub event_type: SkillActivationEventType,
    /// The skill's name.
    pub skill_name: String,
    /// Where the skill comes from.
    pub source: SkillActivationSource,
    /// How it was invoked.
    pub invocation: SkillActivationInvocation,
    /// How it runs.
    pub mode: SkillActivationMode,
    /// Where it stands.
    pub status: SkillActivationStatus,
    /// When this happened (ISO-8601, not validated).
    pub timestamp: String,
    /// The skill's name qualified by its plugin, when it has one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub qualified_name: Option<String>,
    /// Why it failed, for a failed activation.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub error: Option<String>,
}

impl SkillActivationEvent {
    /// A [`SkillActivationEvent`] from the members the contract requires, in its order; the
    /// optional ones start absent.
    #[must_use]
    pub fn new(
        skill_name: impl Into<String>,
        source: SkillActivationSource,
        invocation: SkillActivationInvocation,
        mode: SkillActivationMode,
        status: SkillActivationStatus,
        timestamp: impl Into<String>,
    ) -> Self {
        Self {
            skill_name: skill_name.into(),
            source,
            invocation,
            mode,
            status,
            timestamp: timestamp.into(),
            event_type: SkillActivationEventType::SkillActivation,
            qualified_name: None,
            error: None,
        }
    }
}

optional_setters!(SkillActivationEvent {
    /// The same value with `qualified_name` set: the skill's name qualified by its plugin, when it
    /// has one.
    with_qualified_name => qualified_name: impl Into<String>,
    /// The same value with `error` set: why it failed, for a failed activation.
    with_error => error: impl Into<String>,
});

string_enum! {
    /// The kind of a remembered fact (`TMemoryType`).
    pub enum MemoryType {
        /// About the user.
        User = "user",
        /// Feedback the user gave.
        Feedback = "feedback",
        /// About the project.
        Project = "project",
        /// A reference to look things up in.
        Reference = "reference",
    }
}

/// A memory the session used in a turn (`IMemoryReference`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct MemoryReference {
    /// The memory's topic.
    pub topic: String,
    /// Where the memory is stored.
    pub path: String,
    /// How relevant retrieval judged it (higher is more relevant; the scale is the retriever's).
    pub score: f64,
    /// True when only part of it was used.
    pub truncated: bool,
}

impl MemoryReference {
    /// A [`MemoryReference`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        topic: impl Into<String>,
        path: impl Into<String>,
        score: f64,
        truncated: bool,
    ) -> Self {
        Self {
            topic: topic.into(),
            path: path.into(),
            score,
            truncated,
        }
    }
}

string_enum! {
    /// What happened to a memory (the `type` of `IMemoryEvent`).
    pub enum MemoryEventType {
        /// A candidate memory was extracted from the conversation.
        CandidateExtracted = "memory_candidate_extracted",
        /// A candidate waits for review.
        CandidateQueued = "memory_candidate_queued",
        /// A candidate was saved.
        CandidateSaved = "memory_candidate_saved",
        /// A candidate was skipped.
        CandidateSkipped = "memory_candidate_skipped",
        /// The user approved a candidate.
        CandidateApproved = "memory_candidate_approved",
        /// The user rejected a candidate.
        CandidateRejected = "memory_candidate_rejected",
        /// Memories were retrieved for a turn.
        Retrieved = "memory_retrieved",
    }
}

/// The `memory_event` event (`IMemoryEvent`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct MemoryEvent {
    /// What happened (wire `type`).
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub event_type: MemoryEventType,
    /// When (ISO-8601, not validated).
    pub at: String,
    /// The candidate concerned, for candidate events.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub candidate_id: Option<String>,
    /// The memory's topic.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub topic: Option<String>,
    /// Why (a skip or a rejection, typically).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reason: Option<String>,
    /// Anything else the producer attached, untyped.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub data: Option<ValueMap>,
}

impl MemoryEvent {
    /// A [`MemoryEvent`] from the members the contract requires, in its order; the optional ones
    /// start absent.
    #[must_use]
    pub fn new(event_type: MemoryEventType, at: impl Into<String>) -> Self {
        Self {
            event_type,
            at: at.into(),
            candidate_id: None,
            topic: None,
            reason: None,
            data: None,
        }
    }
}

optional_setters!(MemoryEvent {
    /// The same value with `candidate_id` set: the candidate concerned, for candidate events.
    with_candidate_id => candidate_id: impl Into<String>,
    /// The same value with `topic` set: the memory's topic.
    with_topic => topic: impl Into<String>,
    /// The same value with `reason` set: why (a skip or a rejection, typically).
    with_reason => reason: impl Into<String>,
    /// The same value with `data` set: anything else the producer attached, untyped.
    with_data => data: ValueMap,
});

string_enum! {
    /// Why a file was loaded for a prompt (`TPromptFileReferenceReason`).
    pub enum PromptFileReferenceReason {
        /// The user attached it.
        Manual = "manual",
        /// The prompt (or a file it loaded) referenced it.
        PromptReference = "prompt-reference",
    }
}

/// A file a prompt referenced and the turn loaded (`IPromptFileReferenceRecord`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PromptFileReferenceRecord {
    /// The reference as the prompt wrote it.
    pub original_reference: String,
    /// The file it resolved to.
    pub source_path: String,
    /// The same file relative to the project root.
    pub relative_path: String,
    /// Why it was loaded.
    pub reason: PromptFileReferenceReason,
    /// How many references deep it was found (0 for one the prompt named itself).
    pub depth: u32,
    /// Its size in bytes.
    pub byte_length: u64,
}

impl PromptFileReferenceRecord {
    /// A [`PromptFileReferenceRecord`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(
        original_reference: impl Into<String>,
        source_path: impl Into<String>,
        relative_path: impl Into<String>,
        reason: PromptFileReferenceReason,
        depth: u32,
        byte_length: u64,
    ) -> Self {
        Self {
            original_reference: original_reference.into(),
            source_path: source_path.into(),
            relative_path: relative_path.into(),
            reason,
            depth,
            byte_length,
        }
    }
}

string_enum! {
    /// How a context reference was loaded (`TContextReferenceLoadType`).
    pub enum ContextReferenceLoadType {
        /// The user attached it.
        Manual = "manual",
        /// A prompt referenced it.
        PromptReference = "prompt-reference",
        /// The session loaded it itself (instructions files, for example).
        System = "system",
    }
}

string_enum! {
    /// Whether a context reference is still in use (`TContextReferenceStatus`).
    pub enum ContextReferenceStatus {
        /// Part of the context now.
        Active = "active",
        /// Seen earlier, no longer part of the context.
        Observed = "observed",
    }
}

/// A file held in (or once seen by) the session's context (`IContextReferenceItem`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ContextReferenceItem {
    /// The reference's id.
    pub id: String,
    /// The file it points to.
    pub source_path: String,
    /// The same file relative to the project root.
    pub relative_path: String,
    /// The reference as first written.
    pub original_reference: String,
    /// How it was loaded.
    pub load_type: ContextReferenceLoadType,
    /// Whether it is still in use.
    pub status: ContextReferenceStatus,
    /// Its size in bytes.
    pub byte_length: u64,
    /// When it was loaded (ISO-8601, not validated).
    pub loaded_at: String,
    /// When a turn last used it (ISO-8601, not validated).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub last_used_at: Option<String>,
}

impl ContextReferenceItem {
    /// A [`ContextReferenceItem`] from the members the contract requires, in its order; the
    /// optional ones start absent.
    #[must_use]
    #[allow(
        clippy::too_many_arguments,
        reason = "the contract requires all eight members"
    )]
    pub fn new(
        id: impl Into<String>,
        source_path: impl Into<String>,
        relative_path: impl Into<String>,
        original_reference: impl Into<String>,
        load_type: ContextReferenceLoadType,
        status: ContextReferenceStatus,
        byte_length: u64,
        loaded_at: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            source_path: source_path.into(),
            relative_path: relative_path.into(),
            original_reference: original_reference.into(),
            load_type,
            status,
            byte_length,
            loaded_at: loaded_at.into(),
            last_used_at: None,
        }
    }
}

optional_setters!(ContextReferenceItem {
    /// The same value with `last_used_at` set: when a turn last used it (ISO-8601, not validated).
    with_last_used_at => last_used_at: impl Into<String>,
});

//! The vocabulary of decoding a skill's or an agent's frontmatter (`frontmatter-contracts` in the
//! TypeScript package): options, diagnostics, decoded values and the decode result.
//!
//! Vocabulary only: the decoder is the host's. A decode result is a value or the diagnostics
//! explaining why there is none, never both ([`FrontmatterDecodeResult`]).

use alloc::string::String;
use alloc::vec::Vec;
use core::num::{NonZeroU32, NonZeroU64};

use crate::agent_core::ModelEffort;

string_enum! {
    /// Which kind of file the frontmatter heads (`TFrontmatterKind`); the tag of
    /// [`DecodedFrontmatter`].
    pub enum FrontmatterKind {
        /// A skill (`SKILL.md`).
        Skill = "skill",
        /// An agent definition.
        Agent = "agent",
    }
}

string_enum! {
    /// Where a skill runs (`TFrontmatterContext`).
    pub enum FrontmatterContext {
        /// Its instructions are injected into the current conversation.
        Inject = "inject",
        /// It runs in a forked context of its own.
        Fork = "fork",
    }
}

string_enum! {
    /// Why a frontmatter block was refused (`TFrontmatterDiagnosticCode`).
    pub enum FrontmatterDiagnosticCode {
        /// The text does not start with the `---` marker.
        MissingOpeningMarker = "missing-opening-marker",
        /// The block has no closing `---` marker.
        MissingClosingMarker = "missing-closing-marker",
        /// The block has no lines between its markers.
        EmptyBlock = "empty-block",
        /// A line is not `key: value`.
        MalformedLine = "malformed-line",
        /// A key this kind of file does not know.
        UnknownKey = "unknown-key",
        /// A key given twice.
        DuplicateKey = "duplicate-key",
        /// A required field (`name`, `description`) is missing.
        MissingRequiredField = "missing-required-field",
        /// A key with no value.
        EmptyValue = "empty-value",
        /// A value of the wrong shape (e.g. a bracketed list where a scalar belongs).
        WrongValueShape = "wrong-value-shape",
        /// A boolean other than exactly `true` or `false`.
        InvalidBoolean = "invalid-boolean",
        /// A list with no items.
        InvalidList = "invalid-list",
        /// A number that is not a positive integer.
        InvalidPositiveInteger = "invalid-positive-integer",
        /// A `context` other than `inject` or `fork`.
        InvalidContext = "invalid-context",
        /// A `model` the decoder does not accept.
        InvalidModel = "invalid-model",
        /// An `effort` the decoder does not accept.
        InvalidEffort = "invalid-effort",
    }
}

/// What to decode and where it came from (`IFrontmatterDecodeOptions`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct FrontmatterDecodeOptions {
    /// Which kind of file is decoded; decides the allowed keys.
    pub kind: FrontmatterKind,
    /// Where the text came from (a path, usually), copied into every diagnostic.
    pub source: String,
}

impl FrontmatterDecodeOptions {
    /// Options decoding a `kind` file that came from `source`.
    #[must_use]
    pub fn new(kind: FrontmatterKind, source: impl Into<String>) -> Self {
        Self {
            kind,
            source: source.into(),
        }
    }
}

/// One problem found while decoding (`IFrontmatterDiagnostic`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct FrontmatterDiagnostic {
    /// What is wrong.
    pub code: FrontmatterDiagnosticCode,
    /// Where the text came from ([`FrontmatterDecodeOptions::source`]).
    pub source: String,
    /// The 1-based line the problem is on, when it is on one line; zero or negative fails to
    /// decode.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub line: Option<NonZeroU32>,
    /// The key the problem concerns, when it concerns one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub field: Option<String>,
    /// The problem in words.
    pub message: String,
}

impl FrontmatterDiagnostic {
    /// A diagnostic with its code, source and message, on no particular line or key.
    #[must_use]
    pub fn new(
        code: FrontmatterDiagnosticCode,
        source: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            code,
            source: source.into(),
            line: None,
            field: None,
            message: message.into(),
        }
    }
}

optional_setters!(FrontmatterDiagnostic {
    /// The same diagnostic on this 1-based line.
    with_line => line: NonZeroU32,
    /// The same diagnostic about this key.
    with_field => field: impl Into<String>,
});

/// A decoded skill frontmatter (`IDecodedSkillFrontmatter`, `kind: 'skill'`; the tag lives on
/// [`DecodedFrontmatter`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct DecodedSkillFrontmatter {
    /// The skill's name.
    pub name: String,
    /// What the skill does.
    pub description: String,
    /// How the skill's arguments are written.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub argument_hint: Option<String>,
    /// `Some(true)` forbids the model to invoke the skill.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub disable_model_invocation: Option<bool>,
    /// `Some(false)` forbids users to invoke the skill.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub user_invocable: Option<bool>,
    /// The tools the skill may use.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub allowed_tools: Option<Vec<String>>,
    /// The model the skill asks for.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model: Option<String>,
    /// The reasoning effort the skill asks for.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub effort: Option<ModelEffort>,
    /// Where the skill runs.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub context: Option<FrontmatterContext>,
    /// The agent the skill runs as.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub agent: Option<String>,
}

impl DecodedSkillFrontmatter {
    /// A decoded skill with its name and description, and no optional key set.
    #[must_use]
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            ..Self::default()
        }
    }
}

optional_setters!(DecodedSkillFrontmatter {
    /// The same skill with an argument hint.
    with_argument_hint => argument_hint: impl Into<String>,
    /// The same skill with `disable-model-invocation` set.
    with_disable_model_invocation => disable_model_invocation: bool,
    /// The same skill with `user-invocable` set.
    with_user_invocable => user_invocable: bool,
    /// The same skill with the tools it may use.
    with_allowed_tools => allowed_tools: Vec<String>,
    /// The same skill asking for a model.
    with_model => model: impl Into<String>,
    /// The same skill asking for a reasoning effort.
    with_effort => effort: ModelEffort,
    /// The same skill with where it runs.
    with_context => context: FrontmatterContext,
    /// The same skill running as this agent.
    with_agent => agent: impl Into<String>,
});

/// A decoded agent frontmatter (`IDecodedAgentFrontmatter`, `kind: 'agent'`; the tag lives on
/// [`DecodedFrontmatter`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct DecodedAgentFrontmatter {
    /// The agent's name.
    pub name: String,
    /// What the agent does.
    pub description: String,
    /// The model the agent runs on.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub model: Option<String>,
    /// The most turns the agent may take; a positive integer, so zero or a negative number fails
    /// to decode.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub max_turns: Option<NonZeroU64>,
    /// The tools the agent may use.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub tools: Option<Vec<String>>,
    /// The tools the agent must not use.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub disallowed_tools: Option<Vec<String>>,
}

impl DecodedAgentFrontmatter {
    /// A decoded agent with its name and description, and no optional key set.
    #[must_use]
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            ..Self::default()
        }
    }
}

optional_setters!(DecodedAgentFrontmatter {
    /// The same agent running on this model.
    with_model => model: impl Into<String>,
    /// The same agent limited to `max_turns` turns.
    with_max_turns => max_turns: NonZeroU64,
    /// The same agent with the tools it may use.
    with_tools => tools: Vec<String>,
    /// The same agent with the tools it must not use.
    with_disallowed_tools => disallowed_tools: Vec<String>,
});

/// A decoded frontmatter (`TDecodedFrontmatter`), tagged on `kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "lowercase"))]
pub enum DecodedFrontmatter {
    /// `kind: 'skill'`.
    Skill(DecodedSkillFrontmatter),
    /// `kind: 'agent'`.
    Agent(DecodedAgentFrontmatter),
}

impl DecodedFrontmatter {
    /// The kind of file decoded: the wire tag.
    #[must_use]
    pub const fn kind(&self) -> FrontmatterKind {
        match self {
            Self::Skill(_) => FrontmatterKind::Skill,
            Self::Agent(_) => FrontmatterKind::Agent,
        }
    }

    /// The decoded name, whatever the kind.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Self::Skill(skill) => &skill.name,
            Self::Agent(agent) => &agent.name,
        }
    }

    /// The decoded description, whatever the kind.
    #[must_use]
    pub fn description(&self) -> &str {
        match self {
            Self::Skill(skill) => &skill.description,
            Self::Agent(agent) => &agent.description,
        }
    }
}

impl From<DecodedSkillFrontmatter> for DecodedFrontmatter {
    fn from(skill: DecodedSkillFrontmatter) -> Self {
        Self::Skill(skill)
    }
}

impl From<DecodedAgentFrontmatter> for DecodedFrontmatter {
    fn from(agent: DecodedAgentFrontmatter) -> Self {
        Self::Agent(agent)
    }
}

/// The outcome of decoding a frontmatter block (`TFrontmatterDecodeResult`), tagged on `status`:
/// a value, or the diagnostics explaining why there is none, never both.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "status", rename_all = "lowercase"))]
pub enum FrontmatterDecodeResult {
    /// `status: 'valid'`: the block decoded.
    Valid {
        /// What it decoded to.
        value: DecodedFrontmatter,
    },
    /// `status: 'invalid'`: the block was refused.
    Invalid {
        /// Every problem found, in the order found.
        diagnostics: Vec<FrontmatterDiagnostic>,
    },
}

impl FrontmatterDecodeResult {
    /// The decoded value, when the block was valid.
    #[must_use]
    pub const fn value(&self) -> Option<&DecodedFrontmatter> {
        match self {
            Self::Valid { value } => Some(value),
            Self::Invalid { .. } => None,
        }
    }

    /// The diagnostics; empty when the block was valid.
    #[must_use]
    pub fn diagnostics(&self) -> &[FrontmatterDiagnostic] {
        match self {
            Self::Valid { .. } => &[],
            Self::Invalid { diagnostics } => diagnostics,
        }
    }
}

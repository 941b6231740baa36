//! Skills: resolving a skill command to instructions (`ISkillExecutionPort`), and the host's
//! authority over lazily admitted skill content (`ISkillContentActivation`, `ISkillResource`).
//!
//! A resolution yields a prompt to inject only in `inject` mode
//! ([`SkillResolutionResult::inject_prompt`]); both ports are `async fn` traits with no `Send`
//! bound that fail only with their own associated `Error`.

use alloc::string::String;
use alloc::vec::Vec;

use super::definition::Command;

/// What a skill resolved to (`ISkillResolutionResult`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SkillResolutionResult {
    /// How the skill is applied, as an open label ([`INJECT`](Self::INJECT) injects
    /// [`prompt`](Self::prompt) into the conversation).
    pub mode: String,
    /// The instructions to inject; absent when the skill did not resolve to an inject prompt,
    /// which the caller reports as an error.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub prompt: Option<String>,
}

impl SkillResolutionResult {
    /// A resolution in `mode` (an open label, such as [`INJECT`](Self::INJECT)), with no prompt.
    #[must_use]
    pub fn new(mode: impl Into<String>) -> Self {
        Self {
            mode: mode.into(),
            prompt: None,
        }
    }

    /// The mode that injects the resolved prompt into the conversation.
    pub const INJECT: &'static str = "inject";

    /// The prompt to inject: `Some` only when the mode is [`INJECT`](Self::INJECT) and a
    /// prompt is present.
    #[must_use]
    pub fn inject_prompt(&self) -> Option<&str> {
        if self.mode == Self::INJECT {
            self.prompt.as_deref()
        } else {
            None
        }
    }
}

optional_setters!(SkillResolutionResult {
    /// The same resolution with the prompt to inject.
    with_prompt => prompt: impl Into<String>,
});

/// Options of [`SkillExecutionPort::resolve_skill`] (the `opts` argument).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SkillResolveOptions {
    /// The session the skill resolves for, when there is one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub session_id: Option<String>,
}

optional_setters!(SkillResolveOptions {
    /// The same options, resolving for this session.
    with_session_id => session_id: impl Into<String>,
});

/// Loads skill commands and resolves one to instructions (`ISkillExecutionPort`).
///
/// Skills that run in a fork context are refused by the caller before it asks this port.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SkillExecutionPort {
    /// Why resolving a skill failed.
    type Error: core::error::Error;

    /// Every skill command available now (`loadCommands()`).
    fn load_commands(&self) -> Vec<Command>;

    /// Resolves `skill`, invoked with `args`, to what it injects (`resolveSkill`).
    async fn resolve_skill(
        &self,
        skill: &Command,
        args: &str,
        options: &SkillResolveOptions,
    ) -> Result<SkillResolutionResult, Self::Error>;
}

/// One supporting resource an activation lists (an entry of its manifest).
///
/// Decision of this crate: the TypeScript shape was not recovered; only the `uri` is certain.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SkillResourceEntry {
    /// The resource's address inside the skill, as the activation names it.
    pub uri: String,
}

impl SkillResourceEntry {
    /// A manifest entry for the resource at `uri`.
    #[must_use]
    pub fn new(uri: impl Into<String>) -> Self {
        Self { uri: uri.into() }
    }
}

/// The bytes of one supporting resource, as read (`ISkillResource`).
///
/// Inert data: holding it grants neither another skill activation (reading a nested `SKILL.md`
/// activates nothing) nor permission to run anything it contains.
///
/// Decision of this crate: the TypeScript shape was not recovered. The record carries the `uri`
/// it was read from and its raw `bytes` (in JSON, serde's default: an array of numbers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SkillResource {
    /// The manifest `uri` it was read from.
    pub uri: String,
    /// The resource's content, unchanged.
    pub bytes: Vec<u8>,
}

impl SkillResource {
    /// The bytes read from `uri`.
    #[must_use]
    pub fn new(uri: impl Into<String>, bytes: Vec<u8>) -> Self {
        Self {
            uri: uri.into(),
            bytes,
        }
    }
}

/// A lazily admitted skill's instructions and supporting files, held under the host's authority
/// (`ISkillContentActivation`).
///
/// The activation stays subject to the host's current consent and to its source: `validate`
/// re-checks both before the content is used again, and `read` serves only what the manifest
/// lists. Cancelling a pending call is dropping its future.
///
/// Decision of this crate: the TypeScript shape was not recovered; these members are the ones a
/// consumer of the contract is seen to use (validate, list, read, close).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SkillContentActivation {
    /// Why validating, reading or closing failed (consent withdrawn, source changed, a uri
    /// outside the manifest, …).
    type Error: core::error::Error;

    /// Re-checks that the host's consent and the skill's source still hold; an error means the
    /// activation must not be used.
    async fn validate(&self) -> Result<(), Self::Error>;

    /// The supporting resources this activation admits; empty when it has none.
    fn manifest(&self) -> &[SkillResourceEntry];

    /// True when `uri` is listed in the [`manifest`](Self::manifest) (exact match).
    fn lists(&self, uri: &str) -> bool {
        self.manifest().iter().any(|entry| entry.uri == uri)
    }

    /// Reads one supporting resource. Must fail for a `uri` the manifest does not list.
    async fn read(&self, uri: &str) -> Result<SkillResource, Self::Error>;

    /// Ends the activation; later reads fail.
    fn close(&mut self) -> Result<(), Self::Error>;
}

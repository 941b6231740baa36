//! The prompt vocabulary of the event map (`session-event-map`): permission answers, who asks,
//! the permission and ask requests, the one canonical `prompt_resolved` event, and the refreshed
//! context file notice.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use core::fmt;

use crate::agent_core::{ActionRequest, ToolArgs};

use crate::session::turns::DriverId;

/// An answer to a permission request (`TPermissionResultValue`).
///
/// On the wire: `true`, `false`, `"allow-session"` or `"allow-project"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PermissionResultValue {
    /// `true`: allow this call.
    Allow,
    /// `false`: deny this call.
    Deny,
    /// `'allow-session'`: allow, and remember it for the rest of the session.
    AllowSession,
    /// `'allow-project'`: allow, and persist the rule to the project's settings (offer it only
    /// when the request says project consent can be persisted).
    AllowProject,
}

impl PermissionResultValue {
    /// Every value, in declaration order.
    pub const ALL: &'static [Self] = &[
        Self::Allow,
        Self::Deny,
        Self::AllowSession,
        Self::AllowProject,
    ];

    /// The two string literals of the set (the other two values are booleans).
    pub const LITERALS: &'static [&'static str] = &["allow-session", "allow-project"];

    /// True for every value but [`Deny`](Self::Deny): the call may run.
    #[must_use]
    pub const fn allows(self) -> bool {
        !matches!(self, Self::Deny)
    }

    /// The value for a plain yes or no.
    #[must_use]
    pub const fn from_bool(allow: bool) -> Self {
        if allow { Self::Allow } else { Self::Deny }
    }

    /// Reads one of the two string literals; `None` for any other text.
    #[must_use]
    pub fn from_literal(text: &str) -> Option<Self> {
        match text {
            "allow-session" => Some(Self::AllowSession),
            "allow-project" => Some(Self::AllowProject),
            _ => None,
        }
    }
}

impl From<bool> for PermissionResultValue {
    fn from(allow: bool) -> Self {
        Self::from_bool(allow)
    }
}

/// Writes the wire text: `true`, `false`, `allow-session` or `allow-project`.
impl fmt::Display for PermissionResultValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Allow => "true",
            Self::Deny => "false",
            Self::AllowSession => "allow-session",
            Self::AllowProject => "allow-project",
        })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for PermissionResultValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Allow => serializer.serialize_bool(true),
            Self::Deny => serializer.serialize_bool(false),
            Self::AllowSession => serializer.serialize_str("allow-session"),
            Self::AllowProject => serializer.serialize_str("allow-project"),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for PermissionResultValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AnswerVisitor;

        impl serde::de::Visitor<'_> for AnswerVisitor {
            type Value = PermissionResultValue;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`true`, `false`, `allow-session` or `allow-project`")
            }

            fn visit_bool<E: serde::de::Error>(self, allow: bool) -> Result<Self::Value, E> {
                Ok(PermissionResultValue::from_bool(allow))
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
                PermissionResultValue::from_literal(text)
                    .ok_or_else(|| E::unknown_variant(text, PermissionResultValue::LITERALS))
            }
        }

        deserializer.deserialize_any(AnswerVisitor)
    }
}

/// The port that decides a tool call's permission interactively
/// (`TInteractivePermissionHandler`): given the tool and its arguments, it answers.
///
/// `async fn` in a public trait is allowed on purpose: no `Send` bound is forced, because hosts
/// on wasm and microcontrollers are single-threaded.
#[allow(async_fn_in_trait)]
pub trait InteractivePermissionHandler {
    /// Decides whether `tool_name` may run with `tool_args`.
    async fn decide(&self, tool_name: &str, tool_args: &ToolArgs) -> PermissionResultValue;
}

/// A background agent that asks for a permission (`IBackgroundAgentPermissionRequester`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundAgentPermissionRequester {
    /// The agent type, as shown to the person answering.
    pub label: String,
    /// The background task the agent runs as.
    pub task_id: String,
}

impl BackgroundAgentPermissionRequester {
    /// A [`BackgroundAgentPermissionRequester`] from the members the contract requires, in its
    /// order.
    #[must_use]
    pub fn new(label: impl Into<String>, task_id: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            task_id: task_id.into(),
        }
    }
}

/// Who asks for a permission when it is not the session's own turn (`TPermissionRequester`),
/// tagged on `kind`. One member today; the contract may add requesters, so it is non-exhaustive.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind"))]
#[non_exhaustive]
pub enum PermissionRequester {
    /// `background-agent`: a background agent task.
    #[cfg_attr(feature = "serde", serde(rename = "background-agent"))]
    BackgroundAgent(BackgroundAgentPermissionRequester),
}

/// The `permission_request` event (`IPermissionRequestEvent`): a tool call waits for a decision.
///
/// The session parks the request by `id`; the first answer settles it and every surface then
/// receives one [`PromptResolvedEvent`] with that id.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PermissionRequestEvent {
    /// The prompt's id, which the answer names.
    pub id: String,
    /// The tool that would run.
    pub tool_name: String,
    /// Its arguments.
    pub tool_args: ToolArgs,
    /// Whether an "allow for this project" answer can be persisted, so a surface can disable that
    /// choice up front. Absent means the producer did not say.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub can_persist_project_permission: Option<bool>,
    /// The driver whose turn made the call, for attribution.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub requester_driver_id: Option<DriverId>,
    /// Who asks, when it is not the session's own turn.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub requester: Option<PermissionRequester>,
}

impl PermissionRequestEvent {
    /// A [`PermissionRequestEvent`] from the members the contract requires, in its order; the
    /// optional ones start absent.
    #[must_use]
    pub fn new(id: impl Into<String>, tool_name: impl Into<String>, tool_args: ToolArgs) -> Self {
        Self {
            id: id.into(),
            tool_name: tool_name.into(),
            tool_args,
            can_persist_project_permission: None,
            requester_driver_id: None,
            requester: None,
        }
    }

    /// The same value with `can_persist_project_permission` set: whether an "allow for this
    /// project" answer can be persisted, so a surface can disable that choice up front.
    #[must_use]
    pub fn with_can_persist_project_permission(
        mut self,
        can_persist_project_permission: bool,
    ) -> Self {
        self.can_persist_project_permission = Some(can_persist_project_permission);
        self
    }
}

optional_setters!(PermissionRequestEvent {
    /// The same value with `requester_driver_id` set: the driver whose turn made the call, for
    /// attribution.
    with_requester_driver_id => requester_driver_id: impl Into<String>,
    /// The same value with `requester` set: who asks, when it is not the session's own turn.
    with_requester => requester: PermissionRequester,
});

/// The `ask_request` event (`IAskRequestEvent`): the agent asks the user a question.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct AskRequestEvent {
    /// The prompt's id, which the answer names.
    pub id: String,
    /// The question.
    pub request: ActionRequest,
    /// The driver whose turn asked, for attribution.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub requester_driver_id: Option<DriverId>,
}

impl AskRequestEvent {
    /// A [`AskRequestEvent`] from the members the contract requires, in its order; the optional
    /// ones start absent.
    #[must_use]
    pub fn new(id: impl Into<String>, request: ActionRequest) -> Self {
        Self {
            id: id.into(),
            request,
            requester_driver_id: None,
        }
    }
}

optional_setters!(AskRequestEvent {
    /// The same value with `requester_driver_id` set: the driver whose turn asked, for attribution.
    with_requester_driver_id => requester_driver_id: impl Into<String>,
});

/// The `prompt_resolved` event (`IPromptResolvedEvent`): the one canonical "settled" notice for
/// every prompt kind, so a co-driving surface can dismiss a prompt somebody else answered.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct PromptResolvedEvent {
    /// The id of the prompt that was settled.
    pub id: String,
    /// The driver whose answer settled it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub answerer_driver_id: Option<DriverId>,
}

impl PromptResolvedEvent {
    /// A [`PromptResolvedEvent`] from the members the contract requires, in its order; the optional
    /// ones start absent.
    #[must_use]
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            answerer_driver_id: None,
        }
    }
}

optional_setters!(PromptResolvedEvent {
    /// The same value with `answerer_driver_id` set: the driver whose answer settled it.
    with_answerer_driver_id => answerer_driver_id: impl Into<String>,
});

/// The `context_file_refreshed` event (`IContextFileRefreshedEvent`): a context file was read
/// again.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ContextFileRefreshedEvent {
    /// The file, relative to the project root (carried as written, not checked).
    pub file_path: String,
}

impl ContextFileRefreshedEvent {
    /// A [`ContextFileRefreshedEvent`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(file_path: impl Into<String>) -> Self {
        Self {
            file_path: file_path.into(),
        }
    }
}

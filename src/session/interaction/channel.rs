//! The interaction channel (`interaction-contracts`): the display events a framework pushes to a
//! surface, the channel port a surface implements, the client-side driver that is its dual, the
//! terminal hand-off capability, and the four pure readers over an event stream.
//!
//! The channel is an in-process port, not the universal transport contract: a terminal UI that
//! owns a session subscribes to its full event map, and headless or remote transports use the
//! session capability families instead. Prompt settlement is not here either: there is no
//! per-kind "resolved" event (no `permission-resolved`); surfaces dismiss prompts on the session's
//! one canonical `prompt_resolved` event.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::string::String;
use alloc::vec::Vec;
use core::future::Future;

use crate::agent_core::{ActionRequest, ActionResponse, ErrorValue, Value};

/// One display event a framework pushes to a surface (`InteractionEvent`), tagged on `type`.
///
/// Exactly these seven kinds decode. A prompt-resolved kind does not exist (and fails to
/// decode); prompts settle through the session's own event map.
///
/// `#[non_exhaustive]`: the contract adds kinds, so match it with a wildcard arm.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "type",
        rename_all = "kebab-case",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum InteractionEvent {
    /// The user submitted text (`user-message`).
    UserMessage {
        /// The submitted text.
        text: String,
    },
    /// A piece of an assistant reply still being written (`assistant-chunk`).
    AssistantChunk {
        /// The new piece of text.
        chunk: String,
    },
    /// An assistant reply is complete (`assistant-done`); its text is what the readers report.
    AssistantDone {
        /// The whole reply (wire `fullText`).
        full_text: String,
    },
    /// The model called a tool (`tool-call`).
    ToolCall {
        /// The call's id, shared with its result.
        id: String,
        /// The tool's name.
        name: String,
        /// The call's arguments, untyped; an absent key reads as `null`.
        #[cfg_attr(feature = "serde", serde(default))]
        args: Value,
    },
    /// A tool call finished (`tool-result`).
    ToolResult {
        /// The id of the call this result answers.
        id: String,
        /// The tool's name.
        name: String,
        /// What the tool returned, untyped; an absent key reads as `null`.
        #[cfg_attr(feature = "serde", serde(default))]
        result: Value,
    },
    /// A slash command produced output (`command-result`).
    CommandResult {
        /// The command's name.
        name: String,
        /// The text it produced.
        output: String,
    },
    /// The framework surfaced an error (`error`).
    Error {
        /// The error, as data.
        error: ErrorValue,
    },
}

/// A slash command offered for autocomplete (`ICommandInfo`).
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CommandInfo {
    /// The command's name, without the slash.
    pub name: String,
    /// What it does, one line.
    pub description: String,
    /// Its subcommands, when it has any.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub subcommands: Option<Vec<CommandInfo>>,
}

impl CommandInfo {
    /// A [`CommandInfo`] from the members the contract requires, in its order; the optional ones
    /// start absent.
    #[must_use]
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            subcommands: None,
        }
    }
}

optional_setters!(CommandInfo {
    /// The same value with `subcommands` set: its subcommands, when it has any.
    with_subcommands => subcommands: Vec<CommandInfo>,
});

/// A tool call seen in an event stream (`IToolCallObservation`): exactly the call's id, name and
/// arguments.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ToolCallObservation {
    /// The call's id.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The call's arguments, untyped; an absent key reads as `null`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub args: Value,
}

impl ToolCallObservation {
    /// A [`ToolCallObservation`] from the members the contract requires, in its order.
    #[must_use]
    pub fn new(id: impl Into<String>, name: impl Into<String>, args: Value) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            args,
        }
    }
}

/// The surface side of the in-process interaction seam (`IInteractionChannel`): what a framework
/// writes display events to and reads user input from.
///
/// A surface must not implement this port in name only: [`write`](Self::write) is its central
/// operation and has no default body, and an implementation that discards every event breaks the
/// contract.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait InteractionChannel {
    /// Why starting or stopping the channel failed.
    type Error: core::error::Error;

    /// The next text the user submitted, or `None` once the channel has stopped and no more
    /// input will come (the pull-style form of `onSubmit(handler)`; see the module docs).
    async fn next_submission(&mut self) -> Option<String>;

    /// Shows one display event (`write`, fire-and-forget). Mandatory, and never a no-op: every
    /// event written must reach the surface's display.
    fn write(&mut self, event: InteractionEvent);

    /// Puts a structured question to the user (`askUser`: confirm, single or multiple choice,
    /// free text, secret) and resolves with the answer, or with
    /// [`ActionResponse::Cancelled`] when the user cancels or the surface cannot ask.
    async fn ask_user(&mut self, request: &ActionRequest) -> ActionResponse;

    /// Replaces the commands offered for autocomplete (`setAvailableCommands`).
    fn set_available_commands(&mut self, commands: &[CommandInfo]);

    /// Says whether the session is busy; the channel may disable input meanwhile (`setBusy`).
    fn set_busy(&mut self, busy: bool);

    /// Starts the channel (`start`).
    async fn start(&mut self) -> Result<(), Self::Error>;

    /// Stops the channel (`stop`); afterwards [`next_submission`](Self::next_submission) returns
    /// `None`.
    async fn stop(&mut self) -> Result<(), Self::Error>;
}

/// The client side of the interaction seam, the dual of [`InteractionChannel`] (`IAgentDriver`):
/// drives an agent and records its event stream. Implemented by in-process drivers, remote
/// clients and test drivers.
///
/// The observation accessors are not part of this trait: they come from
/// [`AgentDriverObservations`], which every driver gets and none can re-implement.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait AgentDriver {
    /// Why starting, sending or stopping failed.
    type Error: core::error::Error;

    /// Starts the underlying session or transport (`start`). Idempotent: a second call does
    /// nothing.
    async fn start(&mut self) -> Result<(), Self::Error>;

    /// Submits a user message (`send`). Awaited serially, it resolves after the turn completes; a
    /// send issued mid-turn is queued and resolves once that queued turn has run.
    async fn send(&mut self, text: &str) -> Result<(), Self::Error>;

    /// Pre-answers the next question the agent asks the user (`queueUserAction`).
    fn queue_user_action(&mut self, response: ActionResponse);

    /// Every event observed from the agent so far, in order (`events`).
    fn events(&self) -> &[InteractionEvent];

    /// Stops the underlying session or transport (`stop`).
    async fn stop(&mut self) -> Result<(), Self::Error>;
}

/// The observation accessors of an [`AgentDriver`] (`assistantReplies`, `lastAssistantText`,
/// `toolCalls`, `errors`). Implemented for every driver by a blanket impl that delegates to the
/// shared readers, so no driver can derive them differently.
pub trait AgentDriverObservations: AgentDriver {
    /// Every completed assistant reply, in order ([`read_assistant_replies`]).
    fn assistant_replies(&self) -> Vec<&str> {
        read_assistant_replies(self.events())
    }

    /// The latest completed assistant reply, or `None` before the first
    /// ([`read_last_assistant_text`]).
    fn last_assistant_text(&self) -> Option<&str> {
        read_last_assistant_text(self.events())
    }

    /// Every tool call observed, in order ([`read_tool_calls`]).
    fn tool_calls(&self) -> Vec<ToolCallObservation> {
        read_tool_calls(self.events())
    }

    /// Every error surfaced, in order ([`read_errors`]).
    fn errors(&self) -> Vec<&ErrorValue> {
        read_errors(self.events())
    }
}

impl<D: AgentDriver + ?Sized> AgentDriverObservations for D {}

/// The `full_text` of every `assistant-done` event, in order (`readAssistantReplies`). Chunks are
/// not replies; an empty reply is still a reply.
#[must_use]
pub fn read_assistant_replies(events: &[InteractionEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|event| match event {
            InteractionEvent::AssistantDone { full_text } => Some(full_text.as_str()),
            _ => None,
        })
        .collect()
}

/// The last of [`read_assistant_replies`], or `None` when the stream has no completed reply
/// (`readLastAssistantText`).
#[must_use]
pub fn read_last_assistant_text(events: &[InteractionEvent]) -> Option<&str> {
    events.iter().rev().find_map(|event| match event {
        InteractionEvent::AssistantDone { full_text } => Some(full_text.as_str()),
        _ => None,
    })
}

/// `{id, name, args}` of every `tool-call` event, in order (`readToolCalls`).
#[must_use]
pub fn read_tool_calls(events: &[InteractionEvent]) -> Vec<ToolCallObservation> {
    events
        .iter()
        .filter_map(|event| match event {
            InteractionEvent::ToolCall { id, name, args } => Some(ToolCallObservation {
                id: id.clone(),
                name: name.clone(),
                args: args.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// The `error` of every `error` event, in order (`readErrors`).
#[must_use]
pub fn read_errors(events: &[InteractionEvent]) -> Vec<&ErrorValue> {
    events
        .iter()
        .filter_map(|event| match event {
            InteractionEvent::Error { error } => Some(error),
            _ => None,
        })
        .collect()
}

/// A transport's ability to hand the real terminal to a child process and restore its display
/// afterwards (`ITerminalHandoff`). Platform-neutral: it never starts a process itself; the
/// caller's closure does.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait TerminalHandoff {
    /// Why a hand-off could not be made.
    type Error: core::error::Error;

    /// True when a hand-off is possible here, i.e. an interactive terminal is present
    /// (`canHandoffTerminal`); a headless transport says false.
    fn can_handoff_terminal(&self) -> bool;

    /// Suspends the display, runs `run` to completion, then restores the display whatever the
    /// output (`runWithTerminal`). When [`can_handoff_terminal`](Self::can_handoff_terminal) is
    /// false it returns an error without calling `run`.
    async fn run_with_terminal<T, F, Fut>(&mut self, run: F) -> Result<T, Self::Error>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = T>;
}

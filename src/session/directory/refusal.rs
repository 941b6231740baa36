//! Why a session change or a session delete was refused (`session-binding-contracts`): the two
//! closed code sets, their ordered lists, the refusal values, and the predicates that tell a
//! declared refusal from a real failure.
//!
//! A refusal is an outcome to report to the client that asked; anything else escaping a directory
//! call is a fault and must keep surfacing as one. The TypeScript contract declares the refusals
//! as `Error` shapes (`name` fixed, `code` from a list) and narrows them with predicates that check
//! Error-ness, the exact name and a listed code.
//!
//! # Rust shape (decided here; the catalog gives only the TypeScript predicate)
//!
//! * [`SessionChangeRefusal`] and [`SessionDeleteRefusal`] are this crate's own error types: a
//!   closed [`code`](SessionChangeRefusal::code) and a free [`message`](SessionChangeRefusal::message),
//!   with `Display` and [`core::error::Error`]. Their name is the type itself
//!   ([`SessionChangeRefusal::NAME`], [`SessionDeleteRefusal::NAME`]).
//! * The predicates [`is_session_change_refusal`] and [`is_session_delete_refusal`] take any
//!   `&(dyn core::error::Error + 'static)` (a boxed error, an error of another family, or a
//!   refusal itself) and answer true only when it *is* the matching refusal type. So:
//!   Error-ness is the `core::error::Error` bound (a value that is not an error cannot be passed);
//!   the name is the concrete type (an [`ErrorValue`](crate::agent_core::ErrorValue) that merely
//!   calls itself `SessionChangeRefusal` is a look-alike and is refused, like a plain object in
//!   TypeScript); the code is a closed enum, so an unknown code (`busy`, `LIMIT`, an empty string,
//!   a delete code on a change refusal) cannot be held at all and fails to decode. The predicates
//!   do not walk an error's `source()` chain: the TypeScript ones do not look at `cause` either.
//! * [`as_session_change_refusal`] / [`as_session_delete_refusal`] narrow, as the TypeScript type
//!   guard does.
//! * Behind `serde` a refusal travels as `{"name": "SessionChangeRefusal", "code": …, "message":
//!   …}`. The `name` literal is written on encoding and checked on decoding (another name fails),
//!   the code must be one of the listed literals, and a missing `message` reads as empty (a
//!   JavaScript `Error` always has one, possibly empty).
//! * The code lists [`SESSION_CHANGE_REFUSAL_CODES`] (9) and [`SESSION_DELETE_REFUSAL_CODES`] (6)
//!   are the enums' `ALL`, in the contract's order.

use alloc::string::String;

string_enum! {
    /// Why a session change (switch, new session, and in this crate also a rename) was refused
    /// (`TSessionChangeRefusalCode`). Closed: exactly the nine codes of the contract, in order.
    pub enum SessionChangeRefusalCode {
        /// The host cannot change sessions at all (nothing attached yet, or no directory).
        NotAvailable = "not_available",
        /// The host is shutting down.
        Stopping = "stopping",
        /// Another change for this client is already under way.
        InProgress = "in_progress",
        /// This client is the last driver of its session and a prompt there waits for an answer
        /// (see [`switch_away_refusal`](super::switch_away_refusal)).
        PromptPending = "prompt_pending",
        /// No such session in this workspace.
        UnknownSession = "unknown_session",
        /// The session was saved in a form this version cannot read.
        Unreadable = "unreadable",
        /// The session could not be started.
        StartFailed = "start_failed",
        /// As many sessions are live as the host allows, and none of them can be closed.
        Limit = "limit",
        /// Anything else; the refusal's message says what.
        Failed = "failed",
    }
}

string_enum! {
    /// Why a session delete was refused (`TSessionDeleteRefusalCode`). Closed: exactly the six
    /// codes of the contract, in order.
    pub enum SessionDeleteRefusalCode {
        /// The host cannot delete sessions at all (nothing attached yet, or no directory).
        NotAvailable = "not_available",
        /// The host is shutting down.
        Stopping = "stopping",
        /// No such session in this workspace.
        UnknownSession = "unknown_session",
        /// A client other than the one asking is on this session.
        LiveElsewhere = "live_elsewhere",
        /// The session is running a turn now.
        Running = "running",
        /// Anything else; the refusal's message says what.
        Failed = "failed",
    }
}

/// Every session-change refusal code, in the contract's order (`SESSION_CHANGE_REFUSAL_CODES`,
/// nine entries); a wire decoder checks a code against it.
pub const SESSION_CHANGE_REFUSAL_CODES: &[SessionChangeRefusalCode] = SessionChangeRefusalCode::ALL;

/// Every session-delete refusal code, in the contract's order (`SESSION_DELETE_REFUSAL_CODES`,
/// six entries).
pub const SESSION_DELETE_REFUSAL_CODES: &[SessionDeleteRefusalCode] = SessionDeleteRefusalCode::ALL;

/// A refused session change (`ISessionChangeRefusal`): the code a client branches on and the
/// message it shows. A client never has to parse the message to tell a limit from a pending
/// prompt.
///
/// Displays as `SessionChangeRefusal (<code>): <message>` (without `: <message>` when the message
/// is empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "RefusalWire<SessionChangeRefusalCode>",
        into = "RefusalWire<SessionChangeRefusalCode>"
    )
)]
#[error("{} ({code}){}{message}", Self::NAME, colon(.message))]
pub struct SessionChangeRefusal {
    /// Why the change was refused; always one of [`SESSION_CHANGE_REFUSAL_CODES`].
    pub code: SessionChangeRefusalCode,
    /// What to show the client; free text, possibly empty, never parsed.
    pub message: String,
}

impl SessionChangeRefusal {
    /// The error name this refusal carries on the wire and in JavaScript.
    pub const NAME: &'static str = "SessionChangeRefusal";

    /// A refusal with this code and message.
    #[must_use]
    pub fn new(code: SessionChangeRefusalCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// The error name, always [`NAME`](Self::NAME).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        Self::NAME
    }
}

/// A refused session delete (`ISessionDeleteRefusal`): the code a client branches on and the
/// message it shows, so "someone else is on it" and "it is mid-turn" are told apart without
/// parsing text.
///
/// Displays as `SessionDeleteRefusal (<code>): <message>` (without `: <message>` when the message
/// is empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        try_from = "RefusalWire<SessionDeleteRefusalCode>",
        into = "RefusalWire<SessionDeleteRefusalCode>"
    )
)]
#[error("{} ({code}){}{message}", Self::NAME, colon(.message))]
pub struct SessionDeleteRefusal {
    /// Why the delete was refused; always one of [`SESSION_DELETE_REFUSAL_CODES`].
    pub code: SessionDeleteRefusalCode,
    /// What to show the client; free text, possibly empty, never parsed.
    pub message: String,
}

impl SessionDeleteRefusal {
    /// The error name this refusal carries on the wire and in JavaScript.
    pub const NAME: &'static str = "SessionDeleteRefusal";

    /// A refusal with this code and message.
    #[must_use]
    pub fn new(code: SessionDeleteRefusalCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// The error name, always [`NAME`](Self::NAME).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        Self::NAME
    }
}

/// The separator before a refusal's message: none when the message is empty.
fn colon(message: &str) -> &'static str {
    if message.is_empty() { "" } else { ": " }
}

/// True when `error` is a declared session-change refusal (`isSessionChangeRefusal`): an outcome
/// to report to the client that asked. False for every other error, including a delete refusal
/// and an error value that only carries the name; such an error is a real failure.
///
/// See the module docs for how Error-ness, the name and the code are checked in Rust.
#[must_use]
pub fn is_session_change_refusal(error: &(dyn core::error::Error + 'static)) -> bool {
    as_session_change_refusal(error).is_some()
}

/// Narrows `error` to a session-change refusal, or `None` when it is anything else.
#[must_use]
pub fn as_session_change_refusal<'a>(
    error: &'a (dyn core::error::Error + 'static),
) -> Option<&'a SessionChangeRefusal> {
    error.downcast_ref::<SessionChangeRefusal>()
}

/// True when `error` is a declared session-delete refusal (`isSessionDeleteRefusal`); false for
/// every other error, including a change refusal.
#[must_use]
pub fn is_session_delete_refusal(error: &(dyn core::error::Error + 'static)) -> bool {
    as_session_delete_refusal(error).is_some()
}

/// Narrows `error` to a session-delete refusal, or `None` when it is anything else.
#[must_use]
pub fn as_session_delete_refusal<'a>(
    error: &'a (dyn core::error::Error + 'static),
) -> Option<&'a SessionDeleteRefusal> {
    error.downcast_ref::<SessionDeleteRefusal>()
}

/// The wire form of both refusals, `{name, code, message}`; decoding checks `name`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct RefusalWire<C> {
    name: String,
    code: C,
    #[serde(default)]
    message: String,
}

/// Declares the wire conversions of one refusal type with its code set.
#[cfg(feature = "serde")]
macro_rules! refusal_wire {
    ($refusal:ident, $code:ident, $refused:literal) => {
        impl TryFrom<RefusalWire<$code>> for $refusal {
            type Error = &'static str;

            fn try_from(wire: RefusalWire<$code>) -> Result<Self, Self::Error> {
                if wire.name == Self::NAME {
                    Ok(Self::new(wire.code, wire.message))
                } else {
                    Err($refused)
                }
            }
        }

        impl From<$refusal> for RefusalWire<$code> {
            fn from(refusal: $refusal) -> Self {
                Self {
                    name: String::from($refusal::NAME),
                    code: refusal.code,
                    message: refusal.message,
                }
            }
        }
    };
}

#[cfg(feature = "serde")]
refusal_wire!(
    SessionChangeRefusal,
    SessionChangeRefusalCode,
    "a session change refusal must have name `SessionChangeRefusal`"
);
#[cfg(feature = "serde")]
refusal_wire!(
    SessionDeleteRefusal,
    SessionDeleteRefusalCode,
    "a session delete refusal must have name `SessionDeleteRefusal`"
);

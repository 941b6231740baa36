//! Errors carried as data (`Error` values) and the best-effort cleanup result that holds them.

use alloc::string::String;
use alloc::vec::Vec;

/// An error that crosses a boundary as a value (a JS `Error` held as data): its class name and
/// message, and optionally its stack text.
///
/// It is plain data: it implements [`core::error::Error`] so it can be boxed or `?`-propagated,
/// but has no source chain. It prints as `name: message`, or only the one that is not empty, as
/// JavaScript prints an `Error`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{name}{}{message}", if name.is_empty() || message.is_empty() { "" } else { ": " })]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ErrorValue {
    /// The error's class name, e.g. `Error`, `TypeError`, `TurnNotRunError`.
    pub name: String,
    /// The human-readable message.
    pub message: String,
    /// The stack trace text, when the producer sent one; diagnostic only, never interpreted.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub stack: Option<String>,
}

impl ErrorValue {
    /// The class name a plain JS `Error` has.
    pub const GENERIC_NAME: &'static str = "Error";

    /// An error value with this class name and message, and no stack.
    #[must_use]
    pub fn new(name: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            message: message.into(),
            stack: None,
        }
    }

    /// A plain `Error` (name [`GENERIC_NAME`](Self::GENERIC_NAME)) with this message.
    #[must_use]
    pub fn from_message(message: impl Into<String>) -> Self {
        Self::new(Self::GENERIC_NAME, message)
    }
}

/// The result of a best-effort cleanup (`IDestroyResult`): the errors met on the way, never
/// thrown. An empty list means everything was released.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct DestroyResult {
    /// Every error met, in the order met.
    pub errors: Vec<ErrorValue>,
}

optional_setters!(ErrorValue { with_stack => stack: impl Into<String> });

impl DestroyResult {
    /// The result of a cleanup that met `errors`, in the order met (clean when empty).
    #[must_use]
    pub fn new(errors: Vec<ErrorValue>) -> Self {
        Self { errors }
    }

    /// True when the cleanup met no error.
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty()
    }
}

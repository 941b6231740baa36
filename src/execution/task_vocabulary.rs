//! The background-task vocabulary: kinds, modes, statuses, timeout reasons, error categories,
//! primitive metadata values and the error value a failed task carries.

use alloc::collections::BTreeMap;
use alloc::string::String;

string_enum! {
    /// What runs behind a background task (`TBackgroundTaskKind`); the `kind` tag of requests,
    /// results and task states.
    pub enum BackgroundTaskKind {
        /// A separate agent with its own conversation and its own permission policy.
        Agent = "agent",
        /// A shell process.
        Process = "process",
        /// A cron schedule that runs a command and/or wakes the host session on each fire.
        Scheduled = "scheduled",
        /// A tool call that was already running (an MCP call) and was handed to the background.
        ToolInvocation = "tool-invocation",
    }
}

string_enum! {
    /// Whether the parent waits for the task (`TBackgroundTaskMode`); also the subagent job mode.
    pub enum BackgroundTaskMode {
        /// The parent waits for the task before it continues.
        Foreground = "foreground",
        /// The parent continues while the task runs.
        Background = "background",
    }
}

string_enum! {
    /// Where an agent task works on files (`TBackgroundTaskIsolation`).
    pub enum BackgroundTaskIsolation {
        /// In the parent's working directory.
        None = "none",
        /// In a git worktree of its own.
        Worktree = "worktree",
    }
}

string_enum! {
    /// The lifecycle status of a background task (`TBackgroundTaskStatus`).
    ///
    /// `completed`, `failed` and `cancelled` are terminal ([`is_terminal`](Self::is_terminal));
    /// `paused` is not: a paused schedule resumes to `sleeping`.
    pub enum BackgroundTaskStatus {
        /// Accepted, waiting for a concurrency slot.
        Queued = "queued",
        /// Running now.
        Running = "running",
        /// Blocked on a permission question for one of its tool calls.
        WaitingPermission = "waiting_permission",
        /// A schedule between two fires.
        Sleeping = "sleeping",
        /// A schedule whose recurrence is held without being destroyed; it resumes to `sleeping`.
        Paused = "paused",
        /// Finished successfully.
        Completed = "completed",
        /// Finished with an error.
        Failed = "failed",
        /// Stopped for good by a cancel; cannot resume.
        Cancelled = "cancelled",
    }
}

impl BackgroundTaskStatus {
    /// True for the statuses a task never leaves: `completed`, `failed` and `cancelled`.
    /// `paused` is not terminal.
    #[must_use]
    pub const fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

string_enum! {
    /// Why a task was stopped by a limit (`TBackgroundTaskTimeoutReason`).
    pub enum BackgroundTaskTimeoutReason {
        /// No activity for longer than the idle timeout.
        Idle = "idle",
        /// Ran longer than the maximum runtime.
        MaxRuntime = "max_runtime",
        /// Produced more output than the output limit.
        OutputLimit = "output_limit",
        /// Repeated the same output past the repetition threshold.
        Repetition = "repetition",
        /// The worker stopped reporting and was presumed dead.
        StaleWorker = "stale_worker",
    }
}

string_enum! {
    /// The class of a background-task failure (`TBackgroundTaskErrorCategory`).
    pub enum BackgroundTaskErrorCategory {
        /// The request was malformed or not allowed (depth, kind, fields).
        Validation = "validation",
        /// No room: too many tasks at once.
        Capacity = "capacity",
        /// A permission was refused.
        Permission = "permission",
        /// A time or size limit was hit.
        Timeout = "timeout",
        /// The runner of the task's kind failed.
        Runner = "runner",
        /// The worker crashed.
        Crash = "crash",
        /// The model provider failed.
        Provider = "provider",
        /// The process exited badly.
        Process = "process",
    }
}

/// A failure that crossed a boundary as a value (`IBackgroundTaskError`).
///
/// It is data: this family raises nothing and decides no recovery policy; `recoverable` is the
/// producer's advice to whoever reads it. It prints as `category: message` and implements
/// [`core::error::Error`], so it can be boxed or propagated with `?`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[error("{category}: {message}")]
#[non_exhaustive]
pub struct BackgroundTaskError {
    /// The class of the failure.
    pub category: BackgroundTaskErrorCategory,
    /// What went wrong, for a person.
    pub message: String,
    /// True when retrying (or continuing) may succeed; false when it cannot.
    pub recoverable: bool,
}

impl BackgroundTaskError {
    /// An error value of this category, message and recoverability.
    #[must_use]
    pub fn new(
        category: BackgroundTaskErrorCategory,
        message: impl Into<String>,
        recoverable: bool,
    ) -> Self {
        Self {
            category,
            message: message.into(),
            recoverable,
        }
    }
}

/// A metadata or tool-argument value (`TBackgroundPrimitive`): a string, a number or a boolean.
///
/// On the wire it is the bare JSON value. `null`, arrays and objects fail to decode. A number
/// with no fraction that a double holds exactly is written without a fraction (`3`, not `3.0`),
/// as JavaScript prints it; a NaN or infinite number cannot be encoded and is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum BackgroundPrimitive {
    /// A string.
    Text(String),
    /// A number (a JavaScript double).
    Number(f64),
    /// A boolean.
    Bool(bool),
}

impl BackgroundPrimitive {
    /// The text, when this is a string.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The number, when this is a number.
    #[must_use]
    pub const fn as_f64(&self) -> Option<f64> {
        match self {
            Self::Number(number) => Some(*number),
            _ => None,
        }
    }

    /// The boolean, when this is a boolean.
    #[must_use]
    pub const fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Bool(flag) => Some(*flag),
            _ => None,
        }
    }
}

impl From<String> for BackgroundPrimitive {
    fn from(text: String) -> Self {
        Self::Text(text)
    }
}

impl From<&str> for BackgroundPrimitive {
    fn from(text: &str) -> Self {
        Self::Text(String::from(text))
    }
}

impl From<f64> for BackgroundPrimitive {
    fn from(number: f64) -> Self {
        Self::Number(number)
    }
}

impl From<u32> for BackgroundPrimitive {
    fn from(number: u32) -> Self {
        Self::Number(f64::from(number))
    }
}

impl From<i32> for BackgroundPrimitive {
    fn from(number: i32) -> Self {
        Self::Number(f64::from(number))
    }
}

impl From<bool> for BackgroundPrimitive {
    fn from(flag: bool) -> Self {
        Self::Bool(flag)
    }
}

/// String keys to primitive values (`Record<string, TBackgroundPrimitive>`): task and result
/// metadata, and the arguments of a permission request. Keys are kept sorted.
pub type BackgroundPrimitiveMap = BTreeMap<String, BackgroundPrimitive>;

/// Token usage a finished agent task consumed (`IBackgroundTaskUsage`): exactly the base
/// vocabulary's usage triple, not a copy of it.
pub type BackgroundTaskUsage = crate::agent_core::TokenUsage;

/// The largest magnitude below which every whole double is an exact integer (2^53).
#[cfg(feature = "serde")]
const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0;

#[cfg(feature = "serde")]
impl serde::Serialize for BackgroundPrimitive {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Text(text) => serializer.serialize_str(text),
            Self::Bool(flag) => serializer.serialize_bool(*flag),
            Self::Number(number) if !number.is_finite() => Err(serde::ser::Error::custom(
                "a background primitive number must be finite",
            )),
            Self::Number(number) => {
                // A saturating cast; it is exact when it converts back to the same value inside
                // the range where every whole double is an integer.
                #[allow(clippy::cast_possible_truncation)]
                let whole = *number as i64;
                #[allow(clippy::cast_precision_loss, clippy::float_cmp)]
                let exact = number.abs() < EXACT_INTEGER_LIMIT && whole as f64 == *number;
                if exact {
                    serializer.serialize_i64(whole)
                } else {
                    serializer.serialize_f64(*number)
                }
            }
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for BackgroundPrimitive {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PrimitiveVisitor;

        impl serde::de::Visitor<'_> for PrimitiveVisitor {
            type Value = BackgroundPrimitive;

            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a string, a number or a boolean")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
                Ok(BackgroundPrimitive::Text(String::from(text)))
            }

            fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Self::Value, E> {
                Ok(BackgroundPrimitive::Text(text))
            }

            fn visit_bool<E: serde::de::Error>(self, flag: bool) -> Result<Self::Value, E> {
                Ok(BackgroundPrimitive::Bool(flag))
            }

            #[allow(clippy::cast_precision_loss)]
            fn visit_i64<E: serde::de::Error>(self, number: i64) -> Result<Self::Value, E> {
                Ok(BackgroundPrimitive::Number(number as f64))
            }

            #[allow(clippy::cast_precision_loss)]
            fn visit_u64<E: serde::de::Error>(self, number: u64) -> Result<Self::Value, E> {
                Ok(BackgroundPrimitive::Number(number as f64))
            }

            fn visit_f64<E: serde::de::Error>(self, number: f64) -> Result<Self::Value, E> {
                Ok(BackgroundPrimitive::Number(number))
            }
        }

        deserializer.deserialize_any(PrimitiveVisitor)
    }
}

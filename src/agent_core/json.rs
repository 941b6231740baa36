//! Decoding any contract type from JSON with the failing member named: one helper for every
//! family.

use alloc::format;
use alloc::string::{String, ToString as _};
use core::fmt::Write as _;

use serde::de::DeserializeOwned;

use super::{CutEchoes, ObjectsOnly, ReadLimits, Value, cut_echoes, echoed, too_deep};

/// Why [`from_json_str`], [`from_json_slice`] or [`from_json_value`] refused a document: the
/// path of the member that failed (`sources[2].scope`, empty for the document itself) and
/// serde_json's error for it.
///
/// It prints as `<path>: <serde_json's message>`, or the message alone when the document
/// itself failed. The path goes as deep as serde can see: a value an internally tagged enum or
/// a flattened member buffers is named as a whole (a message in `messages[2]`), not below it.
/// A key in the path, or a value serde's message quotes, longer than the echo limit
/// ([`ReadLimits::echo`]) is cut where it prints and states its length ([`inner`](Self::inner)
/// keeps serde_json's own error). Text nested deeper than [`ReadLimits::depth`] fails before it
/// is parsed, with the path of the value too deep and a message that names the bound.
#[derive(Debug, thiserror::Error)]
#[error(
    "{path}{sep}{shown}",
    sep = if .path.is_empty() { "" } else { ": " },
    shown = cut_echoes(.error.to_string(), *.echo)
)]
pub struct JsonDecodeError {
    path: String,
    #[source]
    error: serde_json::Error,
    /// The echo limit its message prints within.
    echo: usize,
}

impl JsonDecodeError {
    fn new(error: serde_path_to_error::Error<serde_json::Error>, limits: &ReadLimits) -> Self {
        use serde_path_to_error::Segment;
        let mut path = String::new();
        for segment in error.path().iter() {
            match segment {
                Segment::Seq { index } => {
                    let _ = write!(path, "[{index}]");
                }
                Segment::Map { key } | Segment::Enum { variant: key } => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&echoed(key, limits.echo));
                }
                // A member whose name was not read yet (text that ends or breaks inside an
                // object): the path stops at the last member it names.
                Segment::Unknown => break,
            }
        }
        Self {
            path,
            error: error.into_inner(),
            echo: limits.echo,
        }
    }

    /// The path of the member that failed, as `a.b[2].c`; empty when the document itself
    /// failed (not JSON, or not the type's shape at its root). A session record is read whole
    /// by the record codec's member decoder, so its path ends at the record and the message
    /// names each failing member inside it (`messages[3].role: unknown variant …`); the record
    /// codec's decoder gives those as located issues instead.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// serde_json's error: what failed, and where in the text (line and column, both 0 for a
    /// [`Value`]).
    #[must_use]
    pub fn inner(&self) -> &serde_json::Error {
        &self.error
    }
}

/// Decodes a `T` from JSON text, naming the failing member when it fails; text nested deeper
/// than [`ReadLimits::DEFAULT`] allows is refused before it is parsed.
///
/// # Errors
/// [`JsonDecodeError`]: the text is not JSON, nests too deep, or a member is not what `T`
/// declares; its path names that member.
///
/// ```
/// use agent_interface::agent_core::{UniversalMessage, from_json_str};
///
/// let error = from_json_str::<UniversalMessage>(
///     r#"{"role":"user","id":"m","timestamp":"t","state":"complete","content":7}"#,
/// )
/// .unwrap_err();
/// assert!(error.to_string().contains("invalid type: integer `7`"));
/// ```
pub fn from_json_str<T: DeserializeOwned>(text: &str) -> Result<T, JsonDecodeError> {
    from_json_str_within(text, &ReadLimits::DEFAULT)
}

/// [`from_json_str`] within the host's `limits`.
///
/// # Errors
/// As [`from_json_str`], with [`ReadLimits::depth`] as the nesting bound.
///
/// ```
/// use agent_interface::agent_core::{ReadLimits, Value, from_json_str_within};
///
/// let shallow = ReadLimits::DEFAULT.with_depth(2);
/// assert!(from_json_str_within::<Value>("[[1]]", &shallow).is_ok());
/// let error = from_json_str_within::<Value>(r#"{"a": [[1]]}"#, &shallow).unwrap_err();
/// assert_eq!(error.path(), "a[0]");
/// assert!(error.to_string().contains("nesting deeper than 2 levels"));
/// ```
pub fn from_json_str_within<T: DeserializeOwned>(
    text: &str,
    limits: &ReadLimits,
) -> Result<T, JsonDecodeError> {
    bounded(text.as_bytes(), limits)?;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(ObjectsOnly(&mut deserializer))
        .map_err(|error| JsonDecodeError::new(error, limits))?;
    end(&mut deserializer, limits)?;
    Ok(value)
}

/// Decodes a `T` from JSON bytes (UTF-8), naming the failing member when it fails; bytes nested
/// deeper than [`ReadLimits::DEFAULT`] allows are refused before they are parsed.
///
/// # Errors
/// As [`from_json_str`]; bytes that are not UTF-8 fail too.
pub fn from_json_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, JsonDecodeError> {
    from_json_slice_within(bytes, &ReadLimits::DEFAULT)
}

/// [`from_json_slice`] within the host's `limits`.
///
/// # Errors
/// As [`from_json_slice`], with [`ReadLimits::depth`] as the nesting bound.
pub fn from_json_slice_within<T: DeserializeOwned>(
    bytes: &[u8],
    limits: &ReadLimits,
) -> Result<T, JsonDecodeError> {
    bounded(bytes, limits)?;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(ObjectsOnly(&mut deserializer))
        .map_err(|error| JsonDecodeError::new(error, limits))?;
    end(&mut deserializer, limits)?;
    Ok(value)
}

/// Refuses text nested deeper than the bound, before any recursive parse reads it.
fn bounded(bytes: &[u8], limits: &ReadLimits) -> Result<(), JsonDecodeError> {
    match too_deep(bytes, limits) {
        None => Ok(()),
        Some(deep) => Err(JsonDecodeError {
            path: deep.path.clone(),
            error: <serde_json::Error as serde::de::Error>::custom(deep.message()),
            echo: limits.echo,
        }),
    }
}

/// Decodes a `T` from a parsed [`Value`], naming the failing member when it fails.
///
/// # Errors
/// [`JsonDecodeError`] with the failing member's path (no line or column: there is no text).
pub fn from_json_value<T: DeserializeOwned>(value: Value) -> Result<T, JsonDecodeError> {
    serde_path_to_error::deserialize(ObjectsOnly(value))
        .map_err(|error| JsonDecodeError::new(error, &ReadLimits::DEFAULT))
}

/// Refuses text after the document, as `serde_json::from_str` does.
fn end<'de, R: serde_json::de::Read<'de>>(
    deserializer: &mut serde_json::Deserializer<R>,
    limits: &ReadLimits,
) -> Result<(), JsonDecodeError> {
    deserializer.end().map_err(|error| JsonDecodeError {
        path: String::new(),
        error,
        echo: limits.echo,
    })
}

/// serde_json's message for `error` without the position it appends (` at line L column C`),
/// for an error whose place is said another way: by a path, or by the value it is raised again
/// in (whose decoder adds its own position). Every value it quotes is cut to `echo` bytes as it
/// is written ([`CutEchoes`]), so the message costs no more than its cut form.
pub(crate) fn json_message(error: &serde_json::Error, echo: usize) -> String {
    let mut cut = CutEchoes::new(String::new(), echo);
    let written = write!(cut, "{error}");
    let Ok(mut message) = written.and_then(|()| cut.finish()) else {
        return String::from("an error serde_json could not print");
    };
    if error.line() != 0 {
        let suffix = format!(" at line {} column {}", error.line(), error.column());
        if message.ends_with(&suffix) {
            message.truncate(message.len() - suffix.len());
        }
    }
    message
}

//! The nesting bound (crate-private): where JSON text first nests deeper than a bound, found in
//! one pass without recursion, so that no recursive parse ever reads text deeper than the host
//! allows. It reads any bytes, JSON or not, and never panics.

use super::json_tokens::string_end;
#[cfg(feature = "serde")]
use super::{ReadLimits, echoed};
#[cfg(feature = "serde")]
use alloc::{format, string::String, vec::Vec};
#[cfg(feature = "serde")]
use core::{fmt::Write as _, ops::Range};

/// Whether `bytes` nest deeper than `limit` levels of arrays and objects (the document is
/// level 0): one count of the brackets outside strings, no allocation.
#[cfg(any(feature = "transport-runtime", feature = "session-mobility"))]
pub(crate) fn nests_deeper(bytes: &[u8], limit: usize) -> bool {
    first_too_deep(bytes, limit).is_some()
}

/// Text that nests deeper than a bound: where the first level too deep opens, and the path of
/// the value it opens in (`messages[3].content`, empty for the document itself).
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TooDeep {
    /// The byte offset of the `[` or `{` one level past the bound.
    pub(crate) offset: usize,
    /// The path of the value that bracket opens, as far as the text names it.
    pub(crate) path: String,
    /// The bound that was passed.
    pub(crate) limit: usize,
}

#[cfg(feature = "serde")]
impl TooDeep {
    /// The message every refusal of the bound carries.
    pub(crate) fn message(&self) -> String {
        format!(
            "nesting deeper than {} levels (the read limit) at byte {}",
            self.limit, self.offset
        )
    }
}

/// Where `bytes` first nest deeper than `limits.depth` levels of arrays and objects (the
/// document is level 0), with the path of that value, its keys cut at `limits.echo` bytes;
/// `None` when they never do. Strings are skipped with their escapes; broken text is read as
/// far as it goes.
#[cfg(feature = "serde")]
pub(crate) fn too_deep(bytes: &[u8], limits: &ReadLimits) -> Option<TooDeep> {
    let offset = first_too_deep(bytes, limits.depth)?;
    Some(TooDeep {
        offset,
        path: path_to(bytes, offset, limits.echo),
        limit: limits.depth,
    })
}

/// The offset of the first bracket that opens a level past `limit`: a count of brackets
/// outside strings, no allocation.
fn first_too_deep(bytes: &[u8], limit: usize) -> Option<usize> {
    let mut depth = 0_usize;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => at = string_end(bytes, at + 1)?,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(at);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    None
}

/// One open level on the way to a position: an object (its member being read) or an array
/// (the element being read).
#[cfg(feature = "serde")]
enum Level {
    Object {
        key: Option<Range<usize>>,
        key_next: bool,
    },
    Array {
        index: usize,
    },
}

/// The path of the value whose bracket is at `offset`, read again up to there (at most the
/// bound's levels are open on the way), each key cut at `echo` bytes.
#[cfg(feature = "serde")]
fn path_to(bytes: &[u8], offset: usize, echo: usize) -> String {
    let mut levels: Vec<Level> = Vec::new();
    let mut at = 0;
    while at < offset {
        let Some(&byte) = bytes.get(at) else { break };
        match byte {
            b'"' => {
                let Some(end) = string_end(bytes, at + 1) else {
                    break;
                };
                if let Some(Level::Object { key, key_next }) = levels.last_mut()
                    && *key_next
                {
                    *key = Some(at + 1..end);
                    *key_next = false;
                }
                at = end;
            }
            b'{' => levels.push(Level::Object {
                key: None,
                key_next: true,
            }),
            b'[' => levels.push(Level::Array { index: 0 }),
            b']' | b'}' => drop(levels.pop()),
            b',' => match levels.last_mut() {
                Some(Level::Array { index }) => *index += 1,
                Some(Level::Object { key, key_next }) => {
                    *key = None;
                    *key_next = true;
                }
                None => {}
            },
            _ => {}
        }
        at += 1;
    }
    let mut path = String::new();
    for level in &levels {
        match level {
            Level::Object { key: Some(key), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                let key = String::from_utf8_lossy(bytes.get(key.clone()).unwrap_or_default());
                path.push_str(&echoed(&key, echo));
            }
            Level::Object { key: None, .. } => break,
            Level::Array { index } => {
                let _ = write!(path, "[{index}]");
            }
        }
    }
    path
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    fn nested(levels: usize) -> String {
        let mut text = String::new();
        for _ in 0..levels {
            text.push('[');
        }
        for _ in 0..levels {
            text.push(']');
        }
        text
    }

    #[test]
    fn the_bound_is_inclusive() {
        assert_eq!(
            too_deep(nested(4).as_bytes(), &ReadLimits::DEFAULT.with_depth(4)),
            None
        );
        let deep = too_deep(nested(5).as_bytes(), &ReadLimits::DEFAULT.with_depth(4))
            .expect("five levels pass a bound of four");
        assert_eq!((deep.offset, deep.path.as_str()), (4, "[0][0][0][0]"));
    }

    #[test]
    fn brackets_in_strings_and_escapes_do_not_count() {
        let text = br#"{"a\"[[[": "[[[[", "b": [1, {"c": "\\"}]}"#;
        assert_eq!(too_deep(text, &ReadLimits::DEFAULT.with_depth(3)), None);
        let deep = too_deep(text, &ReadLimits::DEFAULT.with_depth(2))
            .expect("the object in `b` opens a third level");
        assert_eq!(deep.path, "b[1]");
    }

    #[test]
    fn the_path_names_members_and_elements() {
        let text = br#"{"record": {"id": "x", "messages": [{}, {"content": [[[[1]]]]}]}}"#;
        let deep =
            too_deep(text, &ReadLimits::DEFAULT.with_depth(5)).expect("seven levels pass five");
        // The sixth level opens the first element of `content`.
        assert_eq!(deep.path, "record.messages[1].content[0]");
        assert_eq!(&text[deep.offset - 1..deep.offset + 4], b"[[[[1");
        assert!(deep.message().contains("deeper than 5 levels"));
    }

    #[test]
    fn a_long_key_in_the_path_is_cut() {
        let text = alloc::format!(r#"{{"{}": [[1]]}}"#, "k".repeat(500));
        let deep = too_deep(text.as_bytes(), &ReadLimits::DEFAULT.with_depth(2)).expect("deep");
        assert_eq!(
            deep.path,
            alloc::format!("{}… (500 bytes)[0]", "k".repeat(64))
        );
    }

    #[test]
    fn broken_text_never_panics() {
        for text in [&b"[[[\"unclosed"[..], b"]]]]{{{", b"\"\\", b"{\"a\":[", b""] {
            let _ = too_deep(text, &ReadLimits::DEFAULT.with_depth(1));
            let _ = too_deep(text, &ReadLimits::DEFAULT.with_depth(0));
        }
        assert_eq!(
            too_deep(b"[[[\"unclosed", &ReadLimits::DEFAULT.with_depth(2)).map(|deep| deep.offset),
            Some(2)
        );
    }
}

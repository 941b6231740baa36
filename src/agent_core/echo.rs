//! Bounded echoes (crate-private): an outside value quoted in a message is cut to a bounded
//! length that states its full length, so a message never grows with its input.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt::Write as _;

/// `value` as a message quotes it: whole when it is at most `limit` bytes, else its first
/// `limit` bytes (at a character boundary) followed by `… (N bytes)`.
pub(crate) fn echoed(value: &str, limit: usize) -> Cow<'_, str> {
    if value.len() <= limit {
        return Cow::Borrowed(value);
    }
    let mut cut = String::with_capacity(limit + 24);
    cut.push_str(
        value
            .get(..floor_boundary(value, limit))
            .unwrap_or_default(),
    );
    let _ = write!(cut, "… ({} bytes)", value.len());
    Cow::Owned(cut)
}

/// `message` with every quoted run (between backquotes, or between double quotes with their
/// escapes) longer than `limit` bytes cut as [`echoed`] cuts it: serde's messages quote the value
/// they refuse (`unknown variant `…``, `invalid value: string "…"`).
pub(crate) fn cut_echoes(message: String, limit: usize) -> String {
    if message.len() <= limit {
        return message;
    }
    let mut out = String::new();
    let mut rest = message.as_str();
    let mut changed = false;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest.as_bytes().get(open).copied().unwrap_or(b'`');
        let inner = rest.get(open + 1..).unwrap_or_default();
        let Some(close) = closing(inner, quote) else {
            break;
        };
        let run = inner.get(..close).unwrap_or_default();
        out.push_str(rest.get(..=open).unwrap_or_default());
        if run.len() > limit {
            changed = true;
        }
        out.push_str(&echoed(run, limit));
        out.push(char::from(quote));
        rest = inner.get(close + 1..).unwrap_or_default();
    }
    if !changed {
        return message;
    }
    out.push_str(rest);
    out
}

/// Where the quote `quote` that closes a run starting at `inner` is; a double quote after a
/// backslash is escaped.
fn closing(inner: &str, quote: u8) -> Option<usize> {
    let bytes = inner.as_bytes();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte == quote {
            return Some(at);
        }
        at += if byte == b'\\' && quote == b'"' { 2 } else { 1 };
    }
    None
}

/// The largest character boundary of `text` at or below `at`.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_value_is_echoed_whole() {
        assert_eq!(echoed("abc", 3), "abc");
        assert_eq!(
            cut_echoes(String::from("unknown variant `abc`"), 3),
            "unknown variant `abc`"
        );
    }

    #[test]
    fn a_long_value_is_cut_and_states_its_length() {
        assert_eq!(echoed("abcdef", 4), "abcd… (6 bytes)");
        // Never inside a character: `é` is two bytes.
        assert_eq!(echoed("aéé", 2), "a… (5 bytes)");
        let long = "x".repeat(5000);
        let message = alloc::format!(
            "invalid value: string \"{long}\", expected `a` or `b`; unknown field `{long}`"
        );
        let cut = cut_echoes(message, 8);
        assert_eq!(
            cut,
            "invalid value: string \"xxxxxxxx… (5000 bytes)\", expected `a` or `b`; unknown field \
             `xxxxxxxx… (5000 bytes)`"
        );
    }

    #[test]
    fn escaped_quotes_stay_inside_their_run_and_unclosed_runs_are_kept() {
        let cut = cut_echoes(String::from(r#"string "ab\"cdefgh" and `open"#), 4);
        assert_eq!(cut, r#"string "ab\"… (10 bytes)" and `open"#);
    }
}

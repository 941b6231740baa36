//! Bounded echoes (crate-private): an outside value quoted in a message is cut to a bounded
//! length that states its full length, so a message never grows with its input.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt::Write;

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

#[cfg(feature = "serde")]
/// `message` with every quoted run (between backquotes, or between double quotes with their
/// escapes) longer than `limit` bytes cut as [`echoed`] cuts it: serde's messages quote the value
/// they refuse (`unknown variant `…``, `invalid value: string "…"`).
pub(crate) fn cut_echoes(message: String, limit: usize) -> String {
    if message.len() <= limit {
        return message;
    }
    let mut cut = CutEchoes::new(String::new(), limit);
    let _ = cut.write_str(&message);
    cut.finish().unwrap_or(message)
}

#[cfg(feature = "serde")]
/// A writer that passes text on to `out` with every quoted run longer than `limit` bytes cut as
/// [`echoed`] cuts it, as it streams: a message is never held whole, so writing serde's error
/// through it costs the cut message's bytes, not the refused value's. A run still open at the
/// end is cut the same way by [`finish`](Self::finish). A run it cut already passes again
/// unchanged: cutting is idempotent, and the stated length stays the value's own.
pub(crate) struct CutEchoes<W> {
    out: W,
    limit: usize,
    run: Option<Run>,
}

#[cfg(feature = "serde")]
/// A quoted run being written: its quote, its bytes so far, whether its next character is
/// escaped, and what followed its written prefix (kept while it may be a cut's own mark).
struct Run {
    quote: char,
    bytes: usize,
    escaped: bool,
    /// The bytes past the prefix, while they fit: `… (N bytes)` there is a cut already made.
    past: [u8; MARK],
    /// How many bytes are past the prefix.
    past_len: usize,
}

#[cfg(feature = "serde")]
/// Room for the mark of a cut (`… (N bytes)`), with N up to 20 digits.
const MARK: usize = 32;

#[cfg(feature = "serde")]
impl Run {
    /// The mark a cut already made ends this run with, if that is what follows its prefix.
    fn mark(&self) -> Option<&str> {
        let past = core::str::from_utf8(self.past.get(..self.past_len)?).ok()?;
        let digits = past.strip_prefix("… (")?.strip_suffix(" bytes)")?;
        (!digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())).then_some(past)
    }
}

#[cfg(feature = "serde")]
impl<W: Write> CutEchoes<W> {
    /// A writer into `out` that cuts runs longer than `limit` bytes.
    pub(crate) const fn new(out: W, limit: usize) -> Self {
        Self {
            out,
            limit,
            run: None,
        }
    }

    /// Ends a run still open (stating its length when it was cut) and gives `out` back.
    pub(crate) fn finish(mut self) -> Result<W, core::fmt::Error> {
        if let Some(run) = self.run.take() {
            Self::end(&mut self.out, self.limit, &run)?;
        }
        Ok(self.out)
    }

    /// Writes what ends a run past its prefix: the mark of a cut (its own, if it had one).
    fn end(out: &mut W, limit: usize, run: &Run) -> core::fmt::Result {
        if run.bytes <= limit {
            return Ok(());
        }
        match run.mark() {
            Some(mark) => out.write_str(mark),
            None => write!(out, "… ({} bytes)", run.bytes),
        }
    }

    fn put(&mut self, ch: char) -> core::fmt::Result {
        let Some(run) = &mut self.run else {
            if ch == '`' || ch == '"' {
                self.run = Some(Run {
                    quote: ch,
                    bytes: 0,
                    escaped: false,
                    past: [0; MARK],
                    past_len: 0,
                });
            }
            return self.out.write_char(ch);
        };
        if ch == run.quote && !run.escaped {
            Self::end(&mut self.out, self.limit, run)?;
            self.run = None;
            return self.out.write_char(ch);
        }
        run.escaped = run.quote == '"' && ch == '\\' && !run.escaped;
        let len = ch.len_utf8();
        run.bytes += len;
        if run.past_len == 0 && run.bytes <= self.limit {
            return self.out.write_char(ch);
        }
        // Past the prefix: kept only to tell a cut's own mark.
        if let Some(room) = run.past.get_mut(run.past_len..run.past_len + len) {
            ch.encode_utf8(room);
        }
        run.past_len += len;
        Ok(())
    }
}

#[cfg(feature = "serde")]
impl<W: Write> Write for CutEchoes<W> {
    fn write_str(&mut self, text: &str) -> core::fmt::Result {
        text.chars().try_for_each(|ch| self.put(ch))
    }
}

/// The largest character boundary of `text` at or below `at`.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(all(test, feature = "serde"))]
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

    #[test]
    fn an_unclosed_long_run_is_cut_at_the_end() {
        assert_eq!(
            cut_echoes(String::from("unknown `abcdefgh"), 4),
            "unknown `abcd… (8 bytes)"
        );
    }

    #[test]
    fn cutting_twice_cuts_once() {
        let long = "y".repeat(300);
        let message = alloc::format!("unknown variant `{long}`, expected `a`; string \"é{long}\"");
        let once = cut_echoes(message, 16);
        assert_eq!(
            once,
            "unknown variant `yyyyyyyyyyyyyyyy… (300 bytes)`, expected `a`; string \
             \"éyyyyyyyyyyyyyy… (302 bytes)\""
        );
        assert_eq!(cut_echoes(once.clone(), 16), once);
        // A run that only looks like a cut is cut as any other.
        let mimic = String::from("`abcdefghijklmnopqrstuvwxyz… (5 bytes)`");
        assert_eq!(cut_echoes(mimic, 4), "`abcd… (39 bytes)`");
    }

    #[test]
    fn streamed_in_pieces_it_cuts_as_whole() {
        let mut cut = CutEchoes::new(String::new(), 3);
        for piece in ["a `x", "yé", "z` b"] {
            cut.write_str(piece).expect("a string takes any text");
        }
        // `xyéz` is 5 bytes: `xy` fits, `é` (two bytes) would not.
        assert_eq!(cut.finish().expect("open runs end"), "a `xy… (5 bytes)` b");
    }
}

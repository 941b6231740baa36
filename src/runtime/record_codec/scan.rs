//! The best-effort `cwd` scanner for bytes that do not parse, and the repeated-member check
//! the fast path needs before the locating path may skip what it decoded.

use alloc::string::String;
use alloc::vec::Vec;

#[cfg(not(target_os = "none"))]
use super::fast::skip_quoted;
#[cfg(not(target_os = "none"))]
use crate::session::RECORD;

/// The deepest nesting the best-effort `cwd` scanner follows (serde_json's own limit).
const SCAN_DEPTH: usize = 128;

/// Reads the string value of `record.cwd` (or of a top-level `cwd`) from JSON text that may
/// be broken after it; `None` when a syntax error, a nesting deeper than [`SCAN_DEPTH`] or
/// the end comes first, or when the value is not UTF-8.
pub(super) fn scan_cwd(bytes: &[u8]) -> Option<String> {
    let mut scanner = Scanner { bytes, pos: 0 };
    scanner.value(Place::Document, 0).ok().flatten()
}

/// True when the envelope in `bytes`, or a `record` object in it, names a member twice; true
/// too when the text is not an object, is broken before its end, or nests deeper than a parse
/// reads (nothing can be told then).
#[cfg(not(target_os = "none"))]
pub(super) fn repeats_a_member(bytes: &[u8]) -> bool {
    let mut scanner = Scanner { bytes, pos: 0 };
    scanner.repeats(true).unwrap_or(true)
}

/// Where a scanned value sits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The document itself (the envelope, or a bare record).
    Document,
    /// The envelope's `record` member.
    Record,
    /// Anywhere else.
    Other,
}

/// The scan stopped: the text is broken (or too deep) before a `cwd` was found.
struct Broken;

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), Broken> {
        self.skip_space();
        if self.bump() == Some(byte) {
            Ok(())
        } else {
            Err(Broken)
        }
    }

    /// Scans an object (the envelope, or with `envelope` false a record): `Ok(true)` at a
    /// member named twice in it, or in a `record` object of the envelope.
    #[cfg(not(target_os = "none"))]
    fn repeats(&mut self, envelope: bool) -> Result<bool, Broken> {
        self.expect(b'{')?;
        let mut names = alloc::collections::BTreeSet::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(false);
        }
        loop {
            self.skip_space();
            let name = self.string()?;
            self.expect(b':')?;
            self.skip_space();
            if envelope && name == RECORD.as_bytes() && self.peek() == Some(b'{') {
                if self.repeats(false)? {
                    return Ok(true);
                }
            } else {
                self.skip_value()?;
            }
            if !names.insert(name) {
                return Ok(true);
            }
            self.skip_space();
            match self.bump() {
                Some(b',') => {}
                Some(b'}') => return Ok(false),
                _ => return Err(Broken),
            }
        }
    }

    /// Skips one value (at the current position, after any space), without recursion and
    /// without decoding its strings. Loose like [`Scanner::scalar`]: it finds where a value of
    /// valid text ends, and stops at some errors of broken text.
    #[cfg(not(target_os = "none"))]
    fn skip_value(&mut self) -> Result<(), Broken> {
        let mut depth = 0_usize;
        let mut rest = self.bytes.get(self.pos..).ok_or(Broken)?;
        loop {
            let (&byte, tail) = rest.split_first().ok_or(Broken)?;
            rest = tail;
            match byte {
                b'"' => rest = skip_quoted(rest).ok_or(Broken)?,
                b'[' | b'{' => {
                    depth += 1;
                    if depth > SCAN_DEPTH {
                        return Err(Broken);
                    }
                    continue;
                }
                b']' | b'}' => depth = depth.checked_sub(1).ok_or(Broken)?,
                _ if depth > 0 => continue,
                b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'+' | b'-' | b'.' => {
                    let len = rest
                        .iter()
                        .position(|byte| !matches!(byte, b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'+' | b'-' | b'.'))
                        .unwrap_or(rest.len());
                    rest = rest.get(len..).ok_or(Broken)?;
                }
                _ => return Err(Broken),
            }
            if depth == 0 {
                self.pos = self.bytes.len() - rest.len();
                return Ok(());
            }
        }
    }

    /// Scans one value; `Ok(Some(cwd))` as soon as the wanted `cwd` is read.
    fn value(&mut self, place: Place, depth: usize) -> Result<Option<String>, Broken> {
        if depth > SCAN_DEPTH {
            return Err(Broken);
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.object(place, depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(|_| None),
            _ => self.scalar().map(|()| None),
        }
    }

    fn object(&mut self, place: Place, depth: usize) -> Result<Option<String>, Broken> {
        self.expect(b'{')?;
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(None);
        }
        loop {
            self.skip_space();
            let key = self.string()?;
            self.expect(b':')?;
            self.skip_space();
            let wanted = key == b"cwd" && matches!(place, Place::Document | Place::Record);
            if wanted && self.peek() == Some(b'"') {
                if let Ok(cwd) = String::from_utf8(self.string()?) {
                    return Ok(Some(cwd));
                }
            } else {
                let child = if key == b"record" && place == Place::Document {
                    Place::Record
                } else {
                    Place::Other
                };
                if let Some(cwd) = self.value(child, depth + 1)? {
                    return Ok(Some(cwd));
                }
            }
            self.skip_space();
            match self.bump() {
                Some(b',') => {}
                Some(b'}') => return Ok(None),
                _ => return Err(Broken),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Option<String>, Broken> {
        self.expect(b'[')?;
        self.skip_space();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(None);
        }
        loop {
            if let Some(cwd) = self.value(Place::Other, depth + 1)? {
                return Ok(Some(cwd));
            }
            self.skip_space();
            match self.bump() {
                Some(b',') => {}
                Some(b']') => return Ok(None),
                _ => return Err(Broken),
            }
        }
    }

    /// A number, `true`, `false` or `null`, read loosely (its characters, at least one).
    fn scalar(&mut self) -> Result<(), Broken> {
        let start = self.pos;
        while matches!(
            self.peek(),
            Some(b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'+' | b'-' | b'.')
        ) {
            self.pos += 1;
        }
        if self.pos > start {
            Ok(())
        } else {
            Err(Broken)
        }
    }

    /// A string, its escapes decoded, as bytes (UTF-8 is checked only where it matters).
    fn string(&mut self) -> Result<Vec<u8>, Broken> {
        if self.bump() != Some(b'"') {
            return Err(Broken);
        }
        let mut out = Vec::new();
        loop {
            match self.bump().ok_or(Broken)? {
                b'"' => return Ok(out),
                b'\\' => {
                    let decoded = match self.bump().ok_or(Broken)? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(Broken),
                    };
                    let mut buffer = [0; 4];
                    out.extend_from_slice(decoded.encode_utf8(&mut buffer).as_bytes());
                }
                byte => out.push(byte),
            }
        }
    }

    /// The character of a `\uXXXX` escape (after the `u`), surrogate pairs joined; a lone
    /// surrogate becomes U+FFFD.
    fn unicode_escape(&mut self) -> Result<char, Broken> {
        let first = self.hex4()?;
        if !(0xD800..0xDC00).contains(&first) {
            return Ok(char::from_u32(first).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
            return Ok(char::REPLACEMENT_CHARACTER);
        }
        self.pos += 2;
        let second = self.hex4()?;
        if !(0xDC00..0xE000).contains(&second) {
            return Ok(char::REPLACEMENT_CHARACTER);
        }
        let joined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
        Ok(char::from_u32(joined).unwrap_or(char::REPLACEMENT_CHARACTER))
    }

    fn hex4(&mut self) -> Result<u32, Broken> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = char::from(self.bump().ok_or(Broken)?)
                .to_digit(16)
                .ok_or(Broken)?;
            code = code * 16 + digit;
        }
        Ok(code)
    }
}

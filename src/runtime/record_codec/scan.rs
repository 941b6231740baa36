//! The best-effort `cwd` scanner for bytes that do not parse.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{space, token, unicode_escape};

/// The deepest nesting the best-effort `cwd` scanner follows (serde_json's own limit).
const SCAN_DEPTH: usize = 128;

/// Reads the string value of `record.cwd` (or of a top-level `cwd`) from JSON text that may
/// be broken after it; `None` when a syntax error, a nesting deeper than [`SCAN_DEPTH`] or
/// the end comes first, or when the value is not UTF-8.
pub(super) fn scan_cwd(bytes: &[u8]) -> Option<String> {
    let mut scanner = Scanner { bytes, pos: 0 };
    scanner.value(Place::Document, 0).ok().flatten()
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
        self.pos = space(self.bytes, self.pos);
    }

    fn expect(&mut self, byte: u8) -> Result<(), Broken> {
        self.skip_space();
        if self.bump() == Some(byte) {
            Ok(())
        } else {
            Err(Broken)
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
        match token(self.bytes.get(self.pos..).unwrap_or_default()) {
            0 => Err(Broken),
            len => {
                self.pos += len;
                Ok(())
            }
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
                        b'u' => self.unicode_escape(self.pos - 2)?,
                        _ => return Err(Broken),
                    };
                    let mut buffer = [0; 4];
                    out.extend_from_slice(decoded.encode_utf8(&mut buffer).as_bytes());
                }
                byte => out.push(byte),
            }
        }
    }

    /// The character of the `\uXXXX` escape whose backslash is at `at` (the scan is past its
    /// `u`), surrogate pairs joined; a lone surrogate becomes U+FFFD.
    fn unicode_escape(&mut self, at: usize) -> Result<char, Broken> {
        let first = unicode_escape(self.bytes, at).ok_or(Broken)?;
        self.pos = at + 6;
        let character = |unit: u32| char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER);
        if !(0xD800..0xDC00).contains(&first) {
            return Ok(character(first.into()));
        }
        if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
            return Ok(char::REPLACEMENT_CHARACTER);
        }
        let second = unicode_escape(self.bytes, self.pos).ok_or(Broken)?;
        self.pos += 6;
        if !(0xDC00..0xE000).contains(&second) {
            return Ok(char::REPLACEMENT_CHARACTER);
        }
        let joined = 0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00);
        Ok(character(joined))
    }
}

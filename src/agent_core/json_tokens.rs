//! The token rules of JSON text (crate-private), written once for every scanner of the crate:
//! the nesting bound, the record outline, the best-effort `cwd` scan and the repair of lone
//! surrogate escapes in channel event bodies all find space, string ends, escapes and scalar
//! tokens here. Each function reads any bytes, JSON or not, and never panics; none allocates.

/// The position of the first byte at or after `pos` that is not JSON space (`bytes.len()` or
/// more at the end).
#[cfg(all(feature = "serde", feature = "session"))]
pub(crate) fn space(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        pos += 1;
    }
    pos
}

/// The length of the scalar token (a number, `true`, `false`, `null`, or what a broken text
/// writes in their place: letters, digits, `+`, `-` and `.`) at the start of `rest`.
#[cfg(all(feature = "serde", feature = "session"))]
pub(crate) fn token(rest: &[u8]) -> usize {
    rest.iter()
        .position(|byte| !byte.is_ascii_alphanumeric() && !b"+-.".contains(byte))
        .unwrap_or(rest.len())
}

/// The offset of the quote that closes the string whose text starts at `from` (just after its
/// opening quote); `None` when it is never closed. A backslash escapes the byte after it,
/// whatever it is.
pub(crate) fn string_end(bytes: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let at = from + quote_or_escape(bytes.get(from..)?)?;
        if bytes.get(at) == Some(&b'"') {
            return Some(at);
        }
        from = at + 2;
    }
}

/// The high bit of each of the eight bytes of `word` that is `byte`, and maybe of some bytes
/// above the first such one (a borrow may carry): its lowest set bit is exact.
const fn bytes_equal(word: u64, byte: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let diff = word ^ (ONES * byte as u64);
    diff.wrapping_sub(ONES) & !diff & (ONES << 7)
}

/// Where the first quote or backslash of `bytes` is, eight bytes at a time.
pub(crate) fn quote_or_escape(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let word = u64::from_le_bytes(*chunk);
        let found = bytes_equal(word, b'"') | bytes_equal(word, b'\\');
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let tail = bytes.get(at..)?;
    Some(
        at + tail
            .iter()
            .position(|&byte| byte == b'"' || byte == b'\\')?,
    )
}

/// The UTF-16 code unit of the `\uXXXX` escape that starts at `at` (its backslash), or `None`
/// when none does: another escape, fewer than four bytes left, or a byte that is not a hex
/// digit.
#[cfg(any(feature = "record-codec", feature = "transport-runtime"))]
pub(crate) fn unicode_escape(bytes: &[u8], at: usize) -> Option<u16> {
    match bytes.get(at..)? {
        [b'\\', b'u', rest @ ..] => hex4(rest),
        _ => None,
    }
}

/// The number the first four bytes of `bytes` write as hex digits (either case), or `None`.
#[cfg(any(feature = "record-codec", feature = "transport-runtime"))]
fn hex4(bytes: &[u8]) -> Option<u16> {
    let mut unit = [0_u8; 2];
    base16ct::mixed::decode(bytes.get(..4)?, &mut unit).ok()?;
    Some(u16::from_be_bytes(unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_ends_at_its_first_unescaped_quote() {
        let text = br#""a\"b\\" rest"#;
        assert_eq!(string_end(text, 1), Some(7));
        assert_eq!(string_end(br#""open \"#, 1), None);
        assert_eq!(string_end(b"\"\\", 1), None);
        // Past the eight-byte chunks too.
        assert_eq!(string_end(b"\"0123456789abcdef\\\"x\"", 1), Some(20));
    }

    #[cfg(all(feature = "serde", feature = "session"))]
    #[test]
    fn space_and_tokens_stop_where_json_says() {
        assert_eq!(space(b" \t\r\n x", 0), 5);
        assert_eq!(space(b"x", 3), 3);
        assert_eq!(token(b"-1.5e+3,"), 7);
        assert_eq!(token(b"true]"), 4);
        assert_eq!(token(b""), 0);
    }

    #[cfg(any(feature = "record-codec", feature = "transport-runtime"))]
    #[test]
    fn unicode_escapes_need_four_hex_digits() {
        assert_eq!(unicode_escape(br"x\uD83d", 1), Some(0xD83D));
        assert_eq!(unicode_escape(br"\u00e9", 0), Some(0xE9));
        for broken in [
            &br"\u00e"[..],
            br"\u+0e9",
            br"\n0000",
            br"\uzzzz",
            b"\\",
            b"",
        ] {
            assert_eq!(unicode_escape(broken, 0), None, "{broken:?}");
        }
    }
}

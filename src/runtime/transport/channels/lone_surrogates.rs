//! JSON text written by JavaScript may escape a lone UTF-16 surrogate (`"\ud800"`): a JS string
//! can hold one and `JSON.stringify` writes it as an escape. serde_json refuses such text, and a
//! Rust string cannot hold the code unit. This rewrites each lone surrogate escape to `\ufffd`,
//! the character JavaScript's own `TextEncoder` puts in its place, and keeps every pair.

use alloc::vec::Vec;

use crate::agent_core::unicode_escape;

/// The text with every lone surrogate escape written as `\ufffd`, or `None` when it has none
/// (the text is then refused or accepted on its own merits). Only `\u` escapes are read:
/// an escaped backslash is skipped whole, so `\\ud800` is left alone.
pub(super) fn replace_lone_surrogates(text: &[u8]) -> Option<Vec<u8>> {
    let mut repaired: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut at = 0;
    while let Some(offset) = text
        .get(at..)
        .and_then(|rest| rest.iter().position(|&byte| byte == b'\\'))
    {
        let escape = at + offset;
        let Some(unit) = unicode_escape(text, escape) else {
            at = escape + 2;
            continue;
        };
        let is_high = (0xD800..=0xDBFF).contains(&unit);
        let paired = is_high
            && unicode_escape(text, escape + 6).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
        if paired {
            at = escape + 12;
        } else if is_high || (0xDC00..=0xDFFF).contains(&unit) {
            let out = repaired.get_or_insert_with(|| Vec::with_capacity(text.len()));
            out.extend_from_slice(text.get(copied..escape)?);
            out.extend_from_slice(b"\\ufffd");
            at = escape + 6;
            copied = at;
        } else {
            at = escape + 6;
        }
    }
    let mut repaired = repaired?;
    repaired.extend_from_slice(text.get(copied..)?);
    Some(repaired)
}

#[cfg(test)]
mod tests {
    use super::replace_lone_surrogates;

    fn repaired(text: &str) -> Option<alloc::string::String> {
        replace_lone_surrogates(text.as_bytes())
            .map(|bytes| alloc::string::String::from_utf8(bytes).expect("ASCII in, ASCII out"))
    }

    #[test]
    fn lone_units_become_the_replacement_character_and_pairs_stay() {
        assert_eq!(
            repaired(r#""lone \ud800 surrogate""#).as_deref(),
            Some(r#""lone \ufffd surrogate""#)
        );
        assert_eq!(
            repaired(r#""\udc00\uD83D""#).as_deref(),
            Some(r#""\ufffd\ufffd""#)
        );
        assert_eq!(
            repaired(r#""\ud83d\ude00 \ud800\u0041""#).as_deref(),
            Some(r#""\ud83d\ude00 \ufffd\u0041""#)
        );
        assert_eq!(repaired(r#""\ud83d\ude00""#), None, "a pair is not lone");
        assert_eq!(
            repaired(r#""\\ud800""#),
            None,
            "an escaped backslash, then text"
        );
        assert_eq!(repaired(r#""\u0041\n""#), None);
        for cut in [r#""\ud8"#, r#""\"#, r#""\uzzzz""#, "\\"] {
            assert_eq!(repaired(cut), None, "{cut:?}");
        }
    }
}

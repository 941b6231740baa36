//! Spans of JSON text that is already known to be valid (serde_json read or parsed it): where an
//! object's members and an array's elements are, a value's canonical form (the form a parse
//! into a `Value` writes back: members sorted by name, the last of a repeated name kept), and
//! what decoding a value costs. The member decoder of `decode` reads a record's members and
//! narrows its issues through these spans, so it decodes from text only; the session protocol's
//! frame decoder finds a frame's declared members with [`each_member`].
//!
//! Total on any text: broken text gives `None` (or a best effort), never a panic.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;
use core::ops::Range;

use crate::agent_core::{quote_or_escape, space, token};

/// The deepest nesting followed by default (serde_json's own limit for a parse); a decoder of
/// outside text bounds it lower with [`outline_plain`]'s `limit`.
const DEPTH: usize = 128;

/// One member of an object: its name (escapes decoded), where its name starts (the quote) and
/// the span of its value.
pub(crate) struct Member<'t> {
    pub(crate) name: Cow<'t, str>,
    pub(crate) start: usize,
    pub(crate) value: Range<usize>,
}

/// The span of the value that is the whole of `text`, without surrounding space.
pub(crate) fn whole(text: &str) -> Range<usize> {
    let bytes = text.as_bytes();
    let start = space(bytes, 0);
    let mut end = bytes.len();
    while end > start && matches!(bytes.get(end - 1), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        end -= 1;
    }
    start..end
}

/// The first byte of a span (`0` when it is empty).
pub(crate) fn first_byte(text: &str, span: &Range<usize>) -> u8 {
    text.as_bytes().get(span.start).copied().unwrap_or(0)
}

/// A value's outline: its span and, down to the levels asked for, its members or elements.
pub(crate) struct Node<'t> {
    pub(crate) span: Range<usize>,
    /// The members of an object (named) or the elements of an array (unnamed), when outlined.
    pub(crate) children: Option<Vec<Child<'t>>>,
    /// For an array that is not outlined, how many elements it holds, counted in the same pass
    /// (exact for valid text; a list decoder only sizes its allocation by it); else 0.
    pub(crate) elements: usize,
}

/// A member of an outlined object (with its name and where its name starts) or an element of
/// an outlined array.
pub(crate) struct Child<'t> {
    pub(crate) name: Option<Cow<'t, str>>,
    pub(crate) start: usize,
    pub(crate) node: Node<'t>,
}

/// The outline of the value at `span` (exactly: nothing but space may follow it), objects and
/// arrays split into their members and elements `levels` deep, in one pass over the text;
/// `None` when the text is broken.
pub(crate) fn outline<'t>(text: &'t str, span: &Range<usize>, levels: usize) -> Option<Node<'t>> {
    outline_plain(text, span, levels, DEPTH).map(|(node, _)| node)
}

/// [`outline`], and in the same pass whether the value is plain: it holds none of what
/// serde_json skips in an ignored value but refuses in a parse (a `\u` escape of a UTF-16
/// surrogate, a number that could overflow an `f64`: one with an exponent, or
/// [`PLAIN_NUMBER`] characters long; nesting deeper than [`PLAIN_DEPTH`]). Conservative: it
/// may call text a parse accepts not plain, never the reverse. So text that serde_json skips
/// (or reads strictly) and that is plain, a parse accepts. `None` too for text nested deeper
/// than `limit` levels (capped at serde_json's 128), which no parse then reads.
pub(crate) fn outline_plain<'t>(
    text: &'t str,
    span: &Range<usize>,
    levels: usize,
    limit: usize,
) -> Option<(Node<'t>, bool)> {
    let mut plain = true;
    let node = node(text, span.start, levels, 0, limit.min(DEPTH), &mut plain)?;
    (node.span.end == span.end).then_some((node, plain))
}

/// The outline of the value at `start`, nested `depth` deep (at most `limit`); clears `plain`
/// when it is not.
fn node<'t>(
    text: &'t str,
    start: usize,
    levels: usize,
    depth: usize,
    limit: usize,
    plain: &mut bool,
) -> Option<Node<'t>> {
    let bytes = text.as_bytes();
    let close = match bytes.get(start) {
        Some(b'{') if levels > 0 => b'}',
        Some(b'[') if levels > 0 => b']',
        _ => {
            let mut commas = 0;
            let end = value_end_at(bytes, start, depth, limit, plain, &mut 0, &mut commas)?;
            let empty = bytes.get(space(bytes, start + 1)) == Some(&b']');
            return Some(Node {
                span: start..end,
                children: None,
                elements: if bytes.get(start) == Some(&b'[') && !empty {
                    commas + 1
                } else {
                    0
                },
            });
        }
    };
    if depth + 1 > limit {
        return None;
    }
    if depth + 1 > PLAIN_DEPTH {
        *plain = false;
    }
    let mut children = Vec::new();
    let mut pos = space(bytes, start + 1);
    if bytes.get(pos) == Some(&close) {
        return Some(Node {
            span: start..pos + 1,
            children: Some(children),
            elements: 0,
        });
    }
    loop {
        let child_start = pos;
        let name = if close == b'}' {
            if bytes.get(pos) != Some(&b'"') {
                return None;
            }
            let after_name = skip_string(bytes.get(pos + 1..)?, plain)?;
            let name_end = bytes.len() - after_name.len();
            let name = name(text, pos..name_end)?;
            pos = space(bytes, name_end);
            if bytes.get(pos) != Some(&b':') {
                return None;
            }
            pos = space(bytes, pos + 1);
            Some(name)
        } else {
            None
        };
        let child = node(text, pos, levels - 1, depth + 1, limit, plain)?;
        pos = space(bytes, child.span.end);
        children.push(Child {
            name,
            start: child_start,
            node: child,
        });
        match bytes.get(pos) {
            Some(b',') => pos = space(bytes, pos + 1),
            Some(&byte) if byte == close => {
                return Some(Node {
                    span: start..pos + 1,
                    children: Some(children),
                    elements: 0,
                });
            }
            _ => return None,
        }
    }
}

/// One element of an array, as [`each_element`] finds it.
pub(crate) struct Element {
    /// Its text.
    pub(crate) span: Range<usize>,
    /// The bytes of its longest string (a name or a value) in the text, escapes as written and
    /// the closing quote counted: what [`masked`] compares with its `long`.
    pub(crate) longest: usize,
}

/// The elements of the array at `span`, one at a time as the text goes (an array may hold many
/// thousands of small values: none of them is listed at once). An item is `None` where the text
/// is broken, and the iteration ends there.
pub(crate) fn each_element<'t>(
    text: &'t str,
    span: &Range<usize>,
) -> impl Iterator<Item = Option<Element>> + 't {
    let bytes = text.as_bytes();
    let end = span.end;
    let mut pos = (bytes.get(span.start) == Some(&b'[')).then(|| space(bytes, span.start + 1));
    if pos.is_some_and(|at| bytes.get(at) == Some(&b']')) {
        pos = None;
    }
    core::iter::from_fn(move || {
        let at = pos.take()?;
        let mut longest = 0;
        let Some(value_end) = value_end_at(bytes, at, 0, DEPTH, &mut true, &mut longest, &mut 0)
        else {
            return Some(None);
        };
        let after = space(bytes, value_end);
        match bytes.get(after) {
            Some(b',') => pos = Some(space(bytes, after + 1)),
            Some(b']') if after + 1 == end => {}
            _ => return Some(None),
        }
        Some(Some(Element {
            span: at..value_end,
            longest,
        }))
    })
}

/// The members of the object at `span`, one at a time as the text goes (an object may hold
/// thousands of small members: none of them is listed at once). An item is `None` where the
/// text is broken, and the iteration ends there; nothing when `span` is not an object.
#[cfg(feature = "session-protocol")]
pub(crate) fn each_member<'t>(
    text: &'t str,
    span: &Range<usize>,
) -> impl Iterator<Item = Option<Member<'t>>> + 't {
    let bytes = text.as_bytes();
    let end = span.end;
    let mut pos = (bytes.get(span.start) == Some(&b'{')).then(|| space(bytes, span.start + 1));
    if pos.is_some_and(|at| bytes.get(at) == Some(&b'}')) {
        pos = None;
    }
    core::iter::from_fn(move || {
        let at = pos.take()?;
        Some(member_at(text, at, end).map(|(member, next)| {
            pos = next;
            member
        }))
    })
}

/// The member whose name's quote is at `at` in an object that ends at `end`, and where the next
/// member starts (`None` after the last).
#[cfg(feature = "session-protocol")]
fn member_at(text: &str, at: usize, end: usize) -> Option<(Member<'_>, Option<usize>)> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let name_end = bytes.len() - skip_quoted(bytes.get(at + 1..)?)?.len();
    let name = name(text, at..name_end)?;
    let colon = space(bytes, name_end);
    if bytes.get(colon) != Some(&b':') {
        return None;
    }
    let value = space(bytes, colon + 1);
    let value_end = value_end_at(bytes, value, 1, DEPTH, &mut true, &mut 0, &mut 0)?;
    let after = space(bytes, value_end);
    let next = match bytes.get(after) {
        Some(b',') => Some(space(bytes, after + 1)),
        Some(b'}') if after + 1 == end => None,
        _ => return None,
    };
    let member = Member {
        name,
        start: at,
        value: value..value_end,
    };
    Some((member, next))
}

/// The members of the object at `span`, in the order written; `None` when it is not an object
/// or the text is broken.
pub(crate) fn members<'t>(text: &'t str, span: &Range<usize>) -> Option<Vec<Member<'t>>> {
    if text.as_bytes().get(span.start) != Some(&b'{') {
        return None;
    }
    Some(named(outline(text, span, 1)?.children?))
}

/// The members of an outlined object.
pub(crate) fn named(children: Vec<Child<'_>>) -> Vec<Member<'_>> {
    children
        .into_iter()
        .map(|child| Member {
            name: child.name.unwrap_or_default(),
            start: child.start,
            value: child.node.span,
        })
        .collect()
}

/// The spans of the elements of the array at `span`; `None` when it is not an array or the
/// text is broken.
pub(crate) fn elements(text: &str, span: &Range<usize>) -> Option<Vec<Range<usize>>> {
    if text.as_bytes().get(span.start) != Some(&b'[') {
        return None;
    }
    let children = outline(text, span, 1)?.children?;
    Some(children.into_iter().map(|child| child.node.span).collect())
}

/// The text without the member `index` of `members` (the members of one object) and the comma
/// that separates it from its neighbour.
pub(crate) fn without_member(members: &[Member<'_>], index: usize) -> Option<Range<usize>> {
    let member = members.get(index)?;
    Some(match (members.get(index + 1), index.checked_sub(1)) {
        (Some(next), _) => member.start..next.start,
        (None, Some(before)) => members.get(before)?.value.end..member.value.end,
        (None, None) => member.start..member.value.end,
    })
}

/// The part of the text to take away so that the array with these `elements` keeps only its
/// first `len`.
pub(crate) fn beyond(elements: &[Range<usize>], len: usize) -> Option<Range<usize>> {
    let last = elements.last()?;
    match len.checked_sub(1) {
        None => Some(elements.first()?.start..last.end),
        Some(kept) => Some(elements.get(kept)?.end..last.end),
    }
}

/// `text` (a value's JSON text) with every string longer than `long` bytes of text (a name or a
/// value) written as its cut echo instead: its first escaped bytes (at most `echo`, never
/// splitting an escape or a character), then `… (N bytes)` with N its length in the text; or
/// `None` when no string is that long. serde's refusal of a string quotes it whole, in a buffer
/// grown by doubling: refusing the masked text costs a few bytes where the text itself would
/// cost about three times the string at once, and its messages read as the text's own, cut.
/// Strings are only masked where they are longer than any name or literal a decoder matches,
/// so the masked text decodes wherever the text does, but for a decoder that reads a long
/// string's contents. One pass, no string decoded: a string is skipped from quote to quote.
pub(crate) fn masked(text: &str, long: usize, echo: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    // Where the text not yet copied to `out` starts, and where the search goes on.
    let (mut copied, mut at) = (0, 0);
    while let Some(found) = bytes.get(at..).and_then(quote_or_escape) {
        // Outside strings valid JSON has no backslash: this is a string's opening quote.
        let body = at + found + 1;
        let end = bytes.len() - skip_quoted(bytes.get(body..)?)?.len();
        at = end;
        // The string's bytes, the closing quote counted, as `Element::longest` counts them.
        if end - body <= long {
            continue;
        }
        let raw = text.get(body..end - 1)?;
        let out = out.get_or_insert_with(String::new);
        out.push_str(text.get(copied..body)?);
        out.push_str(raw.get(..escaped_prefix(raw, echo))?);
        let _ = write!(out, "… ({} bytes)\"", raw.len());
        copied = end;
    }
    let mut out = out?;
    out.push_str(text.get(copied..)?);
    Some(out)
}

/// How many bytes of `raw` (a string's escaped text) make its longest prefix of at most `limit`
/// bytes that ends neither inside an escape (a surrogate pair's two included) nor inside a
/// character.
fn escaped_prefix(raw: &str, limit: usize) -> usize {
    let bytes = raw.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let unit = match bytes.get(at..) {
            Some(
                [
                    b'\\',
                    b'u',
                    b'd' | b'D',
                    b'8'..=b'9' | b'a'..=b'b' | b'A'..=b'B',
                    ..,
                ],
            ) => 12,
            Some([b'\\', b'u', ..]) => 6,
            Some([b'\\', ..]) => 2,
            _ => (1..=4)
                .find(|len| raw.is_char_boundary(at + len))
                .unwrap_or(1),
        };
        if at + unit > limit {
            break;
        }
        at += unit;
    }
    at.min(bytes.len())
}

/// Writes the value at `span` in canonical form to `out`: every object's members sorted by
/// name, of a repeated name only the last; what a parse into a `Value` and a write back give
/// (but for numbers and escapes, kept as written). False on broken text or nesting deeper than
/// a parse reads.
pub(crate) fn canonical(text: &str, span: &Range<usize>, out: &mut String) -> bool {
    canonical_at(text, span, out, 0).is_some()
}

fn canonical_at(text: &str, span: &Range<usize>, out: &mut String, depth: usize) -> Option<()> {
    if depth > DEPTH {
        return None;
    }
    match first_byte(text, span) {
        b'{' => {
            let members = members(text, span)?;
            // The last of each name, sorted by name (stable: equal names keep their order).
            let mut order: Vec<usize> = (0..members.len()).collect();
            order.sort_by(|a, b| members[*a].name.cmp(&members[*b].name));
            out.push('{');
            let mut first = true;
            for (at, &index) in order.iter().enumerate() {
                let member = &members[index];
                if order
                    .get(at + 1)
                    .is_some_and(|&next| members[next].name == member.name)
                {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                let name_end = text.get(member.start..member.value.start)?.rfind(':')?;
                out.push_str(text.get(member.start..member.start + name_end)?.trim_end());
                out.push(':');
                canonical_at(text, &member.value, out, depth + 1)?;
            }
            out.push('}');
        }
        b'[' => {
            // Element by element as the text goes, with no list of their spans (an array may
            // hold many thousands of small values).
            let bytes = text.as_bytes();
            out.push('[');
            let mut pos = space(bytes, span.start + 1);
            if bytes.get(pos) != Some(&b']') {
                loop {
                    let end = value_end_at(bytes, pos, depth, DEPTH, &mut true, &mut 0, &mut 0)?;
                    canonical_at(text, &(pos..end), out, depth + 1)?;
                    pos = space(bytes, end);
                    match bytes.get(pos) {
                        Some(b',') => {
                            out.push(',');
                            pos = space(bytes, pos + 1);
                        }
                        Some(b']') => break,
                        _ => return None,
                    }
                }
            }
            if pos + 1 != span.end {
                return None;
            }
            out.push(']');
        }
        _ => out.push_str(text.get(span.clone())?),
    }
    Some(())
}

/// What decoding the value at `span` costs, in units of about one value: one per value, one
/// more per 32 bytes of its strings and member names; `None` once above `limit`.
pub(crate) fn weight(text: &str, span: &Range<usize>, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes().get(span.clone())?;
    let mut total = 0_usize;
    let mut rest = bytes;
    while let Some((&byte, tail)) = rest.split_first() {
        rest = tail;
        match byte {
            b'"' => {
                let after = skip_quoted(rest)?;
                let len = rest.len() - after.len();
                rest = after;
                // A member name counts its length only; a string value one more.
                let name = rest
                    .iter()
                    .find(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
                    == Some(&b':');
                total = total.saturating_add(len / 32 + usize::from(!name));
            }
            b'{' | b'[' => total = total.saturating_add(1),
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                total = total.saturating_add(1);
                let len = rest
                    .iter()
                    .position(|byte| !byte.is_ascii_alphanumeric() && !b"+-.".contains(byte))
                    .unwrap_or(rest.len());
                rest = rest.get(len..)?;
            }
            _ => {}
        }
        if total > limit {
            return None;
        }
    }
    Some(total)
}

/// Deeper nesting than this is not plain (see [`outline_plain`]; serde_json's own limit is 128
/// for a parse, none for a skipped value).
const PLAIN_DEPTH: usize = 100;

/// A number token this long or longer is not plain (a shorter one without an exponent cannot
/// overflow an `f64`).
const PLAIN_NUMBER: usize = 300;

/// The name of a member from its quoted span: borrowed when it holds no escape.
fn name<'t>(text: &'t str, quoted: Range<usize>) -> Option<Cow<'t, str>> {
    let inner = text.get(quoted.start + 1..quoted.end - 1)?;
    if inner.bytes().any(|byte| byte < 0x20) {
        return None;
    }
    if inner.contains('\\') {
        serde_json::from_str::<String>(text.get(quoted)?)
            .ok()
            .map(Cow::Owned)
    } else {
        Some(Cow::Borrowed(inner))
    }
}

/// Where the value that starts at `pos`, nested `base` deep, ends, without recursion and
/// without decoding its strings; clears `plain` when it is not (see [`outline_plain`]), raises
/// `longest` to its longest string's bytes and adds its own commas (those between its members
/// or elements) to `commas`. Loose: it finds where a value of valid text ends, and stops at
/// some errors of broken text (and at nesting deeper than `limit` in all).
fn value_end_at(
    bytes: &[u8],
    pos: usize,
    base: usize,
    limit: usize,
    plain: &mut bool,
    longest: &mut usize,
    commas: &mut usize,
) -> Option<usize> {
    let mut depth = 0_usize;
    let mut rest = bytes.get(pos..)?;
    loop {
        let (&byte, tail) = rest.split_first()?;
        rest = tail;
        match byte {
            b'"' => {
                let after = skip_string(rest, plain)?;
                *longest = (*longest).max(rest.len() - after.len());
                rest = after;
            }
            b'[' | b'{' => {
                depth += 1;
                if base + depth > limit {
                    return None;
                }
                if base + depth > PLAIN_DEPTH {
                    *plain = false;
                }
                continue;
            }
            b']' | b'}' => depth = depth.checked_sub(1)?,
            b'-' | b'0'..=b'9' => {
                let len = token(rest);
                let (number, tail) = rest.split_at(len);
                if len + 1 >= PLAIN_NUMBER || number.iter().any(|byte| matches!(byte, b'e' | b'E'))
                {
                    *plain = false;
                }
                rest = tail;
            }
            b',' if depth == 1 => {
                *commas += 1;
                continue;
            }
            _ if depth > 0 => continue,
            b'a'..=b'z' | b'A'..=b'Z' | b'+' | b'.' => rest = rest.get(token(rest)..)?,
            _ => return None,
        }
        if depth == 0 {
            return Some(bytes.len() - rest.len());
        }
    }
}

/// Skips the rest of a string (after its opening quote), whatever its escapes; `None` at the
/// end.
pub(crate) fn skip_quoted(rest: &[u8]) -> Option<&[u8]> {
    skip_string(rest, &mut true)
}

/// Skips the rest of a string; `None` at the end. Clears `plain` at a surrogate escape.
fn skip_string<'b>(mut rest: &'b [u8], plain: &mut bool) -> Option<&'b [u8]> {
    loop {
        let at = quote_or_escape(rest)?;
        let (&byte, tail) = rest.get(at..)?.split_first()?;
        if byte == b'"' {
            return Some(tail);
        }
        let (&escaped, tail) = tail.split_first()?;
        if escaped == b'u'
            && matches!(
                tail,
                [b'd' | b'D', b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F', ..]
            )
        {
            *plain = false;
        }
        rest = tail;
    }
}

#[cfg(test)]
mod tests {
    use alloc::format;

    use super::*;

    #[test]
    fn only_long_strings_are_masked_and_the_text_stays_json() {
        assert_eq!(masked(r#"{"a":"short","b":[1,"x"]}"#, 8, 4), None);
        let long = "é".repeat(10);
        let text = format!(
            r#"{{"k":"{long}","{long}":[true,"ok"],"esc":"a\"b\\c\ud83d\ude00\u00e9xyz"}}"#
        );
        let out = masked(&text, 8, 5).expect("long strings");
        // Never inside a character or an escape (a surrogate pair is one), lengths as written.
        assert_eq!(
            out,
            r#"{"k":"éé… (20 bytes)","éé… (20 bytes)":[true,"ok"],"esc":"a\"b… (28 bytes)"}"#
        );
        serde_json::from_str::<serde_json::Value>(&out).expect("still JSON");
        // What is masked is short: masking again changes nothing.
        assert_eq!(masked(&out, 24, 5), None);
    }

    #[test]
    fn a_list_element_reports_its_longest_string() {
        let text = r#"[{"a":"xyz"},"12345678",[]]"#;
        let longest: Vec<usize> = each_element(text, &whole(text))
            .map(|element| element.expect("valid").longest)
            .collect();
        // Bytes after the opening quote, the closing one counted.
        assert_eq!(longest, [4, 9, 0]);
    }
}

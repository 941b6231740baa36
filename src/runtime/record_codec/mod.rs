//! The record codec: the pure functions between a session record and the bytes a store keeps
//! (feature `record-codec`). The session family holds what they answer in (the record, the
//! [`SessionRecordDecodeOutcome`], the five load outcomes and the store port); this piece holds
//! the machine that produces it.
//!
//! # When to call what
//!
//! - [`encode_session_record`] writes a record in the versioned envelope
//!   `{"schemaVersion": 1, "record": { … }}` (see [`SESSION_RECORD_SCHEMA_VERSION`]). A store
//!   writes exactly these bytes (or seals them); call it before every save.
//! - [`decode_session_record`] reads the bytes a store keeps under an id and answers with a
//!   [`SessionRecordDecodeOutcome`]: valid, corrupt or unsupported. A store turns the answer
//!   into a [`SessionLoadOutcome`] with `From`. It has no `missing` (absence is a store's fact:
//!   bytes that are not there never reach a decoder) and no `locked` (only a sealing store
//!   knows about keys).
//!
//! A record read from JSON that is not a stored envelope (a bare record in a payload) needs no
//! codec: the record's own `serde::Deserialize` (feature `serde`) uses the same member decoder
//! (over the record written back as text), so both agree on every rule.
//!
//! # The rules it keeps
//!
//! - **Total**: the decoder never panics, on any input.
//! - **Bad bytes are corrupt, never missing**: not UTF-8, not JSON, not an object, an envelope
//!   without `schemaVersion` or `record`, members of the wrong type or shape, nesting deeper than
//!   [`ReadLimits::depth`] (one issue where the bound is passed, before any recursive parse).
//! - **Bounded answers**: a value quoted in a message is cut at [`ReadLimits::echo`] bytes and
//!   states its full length.
//! - **Issues are located.** Each issue's `path` starts at the root of the stored document
//!   (`record.messages[2].timestamp`; empty for the document itself) and its `message` is serde's.
//!   Every failing member of the record is found, and inside a list every failing element; the
//!   first [`ReadLimits::issues`] are listed in document order, then one issue counts the rest.
//!   Below an element the path names what failed as far as trial decodes can tell, within a
//!   budget of work proportional to the record; where they cannot tell, or once the budget is
//!   spent, the path stops where they got (at the element at worst). So locating a corrupt
//!   record's issues costs at most a few parses of the same bytes (plus a small constant),
//!   whatever the bytes.
//! - **An unknown version is unsupported**, with the version seen, and nothing of the record is
//!   decoded. A `schemaVersion` that is a whole number other than 1 is unsupported with that
//!   number; one that is not a whole number is unsupported without a version; an envelope
//!   without one is corrupt. Other members of the envelope are ignored.
//! - **The id decides validity; no other value does.** A record whose `id` is not the id it is
//!   stored under is corrupt, with an issue at `record.id`. Every other check is of shape (types,
//!   required members, the closed literal sets and ranges the member types declare); no value of
//!   a well-typed member changes the outcome.
//! - **Best-effort `cwd`.** A corrupt or unsupported answer carries the record's `cwd` when it can
//!   be read: from the document's outline when the bytes are JSON, otherwise from a small tolerant
//!   scanner that reads the text up to the first `record.cwd` (or top-level `cwd`) string and
//!   gives up at the first syntax error before it.
//! - **Unknown members of the record** are kept in
//!   [`extra`](InteractiveSessionRecord::extra), never reported; an explicit `null` for an
//!   optional member reads as absent; of a member written twice, the last one counts.
//! - **The encoder is fallible**: a number that is not finite inside an untyped payload cannot
//!   be written as JSON, and the error says so instead of writing a record that would not read
//!   back.
//!
//! | file | what it holds |
//! |---|---|
//! | `mod` | the encoder, and the decoder: the envelope read through an outline of the text |
//! | `scan` | the best-effort `cwd` scanner for bytes that are not JSON |
//!
//! There is one decoder, the same on every target (bare metal included): the text is outlined
//! in one pass (the envelope's members, the record's members; a list's elements are walked one
//! at a time as they are decoded), no deeper than the read limit's nesting bound, and
//! every member and element is decoded from its own span of the text with serde_json's text
//! reader, one instance of each member decoder, for valid and corrupt records alike. A failing
//! one is narrowed by trial decodes of its text. That member decoder, the outline
//! (`src/session/records/json_text.rs`) and the narrowing stay with the record in the session
//! family: they are also the record's own `serde::Deserialize`. How it is built, and why (the envelope, one
//! member decoder for [`InteractiveSessionRecord`] and [`SessionLoadOutcome`], decoding from
//! text only, how issues are narrowed and what bounds that work), is recorded in
//! `docs/decisions/session-record-codec.md`.

mod scan;

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::agent_core::{Value, too_deep};
#[cfg(doc)]
use crate::session::records::SessionLoadOutcome;
use crate::session::records::{
    Child, Member, RECORD, decode_members_unread, describe_text, first_byte, named, outline_plain,
    whole,
};

// What the codec's calls take and return (the record, the outcome and its issues, the read
// limits): a codec host's imports name this one module; each item is documented where it is
// defined.
#[doc(no_inline)]
pub use crate::agent_core::ReadLimits;
#[doc(no_inline)]
pub use crate::session::records::{
    InteractiveSessionRecord, SESSION_RECORD_SCHEMA_VERSION, SessionRecordDecodeIssue,
    SessionRecordDecodeOutcome,
};

use scan::scan_cwd;

/// Writes `record` in the versioned envelope a store keeps:
/// `{"schemaVersion": 1, "record": { … }}`, members the record does not declare included.
///
/// # Errors
///
/// Fails only when a value cannot be written as JSON: a number that is not finite inside an
/// untyped payload. Nothing is written then; a store must not save such a record.
pub fn encode_session_record(
    record: &InteractiveSessionRecord,
) -> Result<Vec<u8>, serde_json::Error> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Envelope<'a> {
        schema_version: u64,
        record: &'a InteractiveSessionRecord,
    }
    serde_json::to_vec(&Envelope {
        schema_version: SESSION_RECORD_SCHEMA_VERSION,
        record,
    })
}

/// Decodes the bytes a store keeps under `stored_id` (see the module docs for every rule),
/// within the default [`ReadLimits`].
///
/// Total: it never panics, and it answers `valid` only for the current envelope version, a
/// shape-valid record, and a record whose `id` is exactly `stored_id`.
///
/// ```
/// use agent_interface::runtime::record_codec::{SessionRecordDecodeOutcome, decode_session_record};
///
/// let stored = br#"{"schemaVersion": 1, "record": {"id": "s1", "cwd": "/w",
///     "createdAt": "2026-05-01T12:00:00.000Z", "updatedAt": "2026-05-01T12:00:00.000Z",
///     "messages": [{"role": "user", "id": "m1", "timestamp": "2026-05-01T12:00:00.000Z",
///                   "state": "complete", "content": "hi"}, {}]}}"#;
/// let SessionRecordDecodeOutcome::Corrupt { issues, cwd } = decode_session_record(stored, "s1")
/// else {
///     panic!("the second message is broken");
/// };
/// assert_eq!(issues[0].path, "record.messages[1].role");
/// assert_eq!(cwd.as_deref(), Some("/w"));
/// ```
#[must_use]
pub fn decode_session_record(bytes: &[u8], stored_id: &str) -> SessionRecordDecodeOutcome {
    decode_session_record_within(bytes, stored_id, &ReadLimits::DEFAULT)
}

/// [`decode_session_record`] within the host's `limits`: bytes nested deeper than
/// [`ReadLimits::depth`] are corrupt, with one issue at the value too deep that names the bound,
/// before anything recursive reads them; a corrupt answer lists at most [`ReadLimits::issues`]
/// issues (then one that counts the rest); a value echoed into a message is cut at
/// [`ReadLimits::echo`] bytes.
///
/// ```
/// use agent_interface::runtime::record_codec::{
///     ReadLimits, SessionRecordDecodeOutcome, decode_session_record_within,
/// };
///
/// let deep = br#"{"schemaVersion": 1, "record": {"id": "s1", "plan": [[[[[]]]]]}}"#;
/// let limits = ReadLimits::DEFAULT.with_depth(4);
/// let SessionRecordDecodeOutcome::Corrupt { issues, .. } =
///     decode_session_record_within(deep, "s1", &limits)
/// else {
///     panic!("five levels pass a bound of four");
/// };
/// assert_eq!(issues[0].path, "record.plan[0][0]");
/// assert!(issues[0].message.contains("nesting deeper than 4 levels"));
/// ```
#[must_use]
pub fn decode_session_record_within(
    bytes: &[u8],
    stored_id: &str,
    limits: &ReadLimits,
) -> SessionRecordDecodeOutcome {
    let text = match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            return corrupt(
                "",
                format!("the stored bytes are not UTF-8 text: {error}"),
                scan_cwd(bytes),
            );
        }
    };
    // The envelope and the record's members, and whether the text is plain (see
    // `outline_plain`), in one pass over the text. A list's elements are read one at a time
    // as they are decoded, never listed at once.
    let document = whole(text);
    let Some((outlined, plain)) = outline_plain(text, &document, 2, limits.depth) else {
        // The outline follows no deeper than the bound: text it stops in is too deep or not
        // JSON, and nothing recursive has read it.
        if let Some(deep) = too_deep(bytes, limits) {
            return corrupt(&deep.path, deep.message(), scan_cwd(bytes));
        }
        return not_json(text);
    };
    let Some(children) = outlined
        .children
        .filter(|_| first_byte(text, &document) == b'{')
    else {
        let message = format!(
            "invalid type: {}, expected a session record envelope (an object)",
            describe_text(text, &document, limits.echo)
        );
        return checked(text, plain, corrupt("", message, None));
    };
    let (mut records, others): (Vec<Child<'_>>, Vec<Child<'_>>) = children
        .into_iter()
        .partition(|child| child.name.as_deref() == Some(RECORD));
    let record = records.pop();
    let envelope = named(others);
    let cwd = envelope_cwd(text, &envelope, record.as_ref());

    let version = last(&envelope, "schemaVersion").map(|span| {
        serde_json::from_str::<Value>(&text[span])
            .ok()
            .as_ref()
            .and_then(whole_number)
    });
    let outcome = match version {
        None => corrupt("schemaVersion", "missing field `schemaVersion`", cwd),
        Some(Some(version)) if u64::try_from(version) == Ok(SESSION_RECORD_SCHEMA_VERSION) => {
            match record {
                Some(record) if first_byte(text, &record.node.span) == b'{' => {
                    // The spans no decoder reads whole: the other members of the envelope, an
                    // earlier `record`, and (when the record fails) its failing members and
                    // elements and those no decode reached.
                    let mut unread: Vec<Range<usize>> = envelope
                        .iter()
                        .map(|member| member.value.clone())
                        .chain(records.iter().map(|record| record.node.span.clone()))
                        .collect();
                    let outcome = match decode_members_unread(
                        text,
                        &record.node,
                        RECORD,
                        Some(stored_id),
                        limits,
                        &mut unread,
                    ) {
                        Ok(record) => SessionRecordDecodeOutcome::Valid {
                            record: Box::new(record),
                        },
                        Err(issues) => SessionRecordDecodeOutcome::Corrupt { issues, cwd },
                    };
                    // serde_json read the rest strictly, as the outline did the structure around
                    // it: the text is JSON a parse accepts when it is plain and the spans no
                    // decoder read are JSON serde_json skips.
                    let rest = unread
                        .iter()
                        .all(|span| text.get(span.clone()).is_some_and(skips));
                    if plain && rest {
                        return outcome;
                    }
                    outcome
                }
                Some(record) => {
                    let message = format!(
                        "invalid type: {}, expected a session record (an object)",
                        describe_text(text, &record.node.span, limits.echo)
                    );
                    corrupt(RECORD, message, cwd)
                }
                None => corrupt(RECORD, "missing field `record`", cwd),
            }
        }
        Some(schema_version) => SessionRecordDecodeOutcome::Unsupported {
            schema_version,
            cwd,
        },
    };
    checked(text, plain, outcome)
}

/// `outcome` when `text` is JSON a parse accepts, else the corrupt answer for text that is not
/// JSON. What a skip accepts and is `plain` (see `outline_plain`), a parse accepts too;
/// otherwise a parse decides.
fn checked(
    text: &str,
    plain: bool,
    outcome: SessionRecordDecodeOutcome,
) -> SessionRecordDecodeOutcome {
    if plain && skips(text) {
        return outcome;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(_) => outcome,
        Err(error) => corrupt(
            "",
            format!("the stored bytes are not JSON: {error}"),
            scan_cwd(text.as_bytes()),
        ),
    }
}

/// Whether serde_json reads `text` as one value it skips (more leniently than it parses one:
/// see `outline_plain`).
fn skips(text: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// The answer for text the outline cannot read: not JSON.
fn not_json(text: &str) -> SessionRecordDecodeOutcome {
    let error = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Err(error) => error,
        // Never (the outline reads all JSON), but total.
        Ok(_) => match serde_json::from_str::<Value>(text) {
            Err(error) => error,
            Ok(_) => <serde_json::Error as serde::de::Error>::custom("unreadable"),
        },
    };
    // A byte-order mark is the one cause a position cannot show: JSON allows none, and an
    // editor or a Windows tool may have written one.
    // The `cwd` is looked for past it, as it would be in the same bytes without one.
    let (hint, rest) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (
            " (the bytes start with a UTF-8 byte-order mark, EF BB BF, which JSON does not allow)",
            rest,
        ),
        None => ("", text),
    };
    corrupt(
        "",
        format!("the stored bytes are not JSON: {error}{hint}"),
        scan_cwd(rest.as_bytes()),
    )
}

/// The span of the last member named `name` (the one a parse keeps).
fn last(members: &[Member<'_>], name: &str) -> Option<Range<usize>> {
    members
        .iter()
        .rev()
        .find(|member| member.name == name)
        .map(|member| member.value.clone())
}

/// A corrupt outcome of one issue. Its message echoes nothing longer than the read limit: a
/// described value is cut where it is described, and serde_json's syntax errors quote no input.
fn corrupt(
    path: &str,
    message: impl Into<String>,
    cwd: Option<String>,
) -> SessionRecordDecodeOutcome {
    SessionRecordDecodeOutcome::Corrupt {
        issues: alloc::vec![SessionRecordDecodeIssue::new(path, message.into())],
        cwd,
    }
}

/// The `cwd` of a document that may not be a valid envelope: `record.cwd`, else a top-level
/// `cwd` (a bare record), when it is a string.
fn envelope_cwd(text: &str, envelope: &[Member<'_>], record: Option<&Child<'_>>) -> Option<String> {
    let string = |span: Range<usize>| {
        (first_byte(text, &span) == b'"')
            .then(|| serde_json::from_str::<String>(&text[span]).ok())
            .flatten()
    };
    // The record's members from the document's outline: no second pass over its text.
    record
        .filter(|record| first_byte(text, &record.node.span) == b'{')
        .and_then(|record| record.node.children.as_deref())
        .and_then(|members| {
            members
                .iter()
                .rev()
                .find(|member| member.name.as_deref() == Some("cwd"))
        })
        .map(|member| member.node.span.clone())
        .or_else(|| last(envelope, "cwd"))
        .and_then(string)
}

/// A declared version as a whole number (`1` and `1.0` alike), or `None`.
fn whole_number(value: &Value) -> Option<i64> {
    let Value::Number(number) = value else {
        return None;
    };
    if let Some(whole) = number.as_i64() {
        return Some(whole);
    }
    let float = number.as_f64()?;
    // Casts saturate; the comparison keeps only exact whole values in range (JavaScript's safe
    // integers, the versions a TypeScript writer can state exactly).
    let whole = float as i64;
    ((-9_007_199_254_740_992.0..=9_007_199_254_740_992.0).contains(&float) && whole as f64 == float)
        .then_some(whole)
}

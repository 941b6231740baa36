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
//! - `decode_session_record_by_locating` (feature `testing`) is the decoder without its fast
//!   path, for equivalence tests: on every input both answer the same outcome.
//!
//! A record read from JSON that is not a stored envelope (a bare record in a payload) needs no
//! codec: the record's own `serde::Deserialize` (feature `serde`) uses the same member decoder,
//! so both agree on every rule.
//!
//! # The rules it keeps
//!
//! - **Total**: the decoder never panics, on any input.
//! - **Bad bytes are corrupt, never missing**: not UTF-8, not JSON, not an object, an envelope
//!   without `schemaVersion` or `record`, members of the wrong type or shape.
//! - **Issues are located.** Each issue's `path` starts at the root of the stored document
//!   (`record.messages[2].timestamp`; empty for the document itself) and its `message` is serde's.
//!   Every failing member of the record is reported, and inside a list every failing element.
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
//!   be read: from the parsed document when the bytes are JSON, otherwise from a small tolerant
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
//! | `mod` | the encoder, the decoder and its locating path over a parsed document |
//! | `fast` | the fast path for valid records (not on bare metal) |
//! | `scan` | the best-effort `cwd` scanner and the repeated-member check |
//!
//! The member decoder both paths share, and the narrowing of an issue below a failing value,
//! stay with the record in the session family: they are also the record's own
//! `serde::Deserialize`. How it is built, and why (the envelope, one member decoder for
//! [`InteractiveSessionRecord`] and [`SessionLoadOutcome`], the fast path for valid records and
//! its absence on bare metal, how issues are narrowed and what bounds that work), is recorded in
//! `docs/decisions/session-record-codec.md`.

#[cfg(not(target_os = "none"))]
mod fast;
mod scan;

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{Value, ValueMap};
#[cfg(doc)]
use crate::session::SessionLoadOutcome;
#[cfg(not(target_os = "none"))]
use crate::session::foreign_id;
use crate::session::{
    InteractiveSessionRecord, RECORD, SESSION_RECORD_SCHEMA_VERSION, SessionRecordDecodeIssue,
    SessionRecordDecodeOutcome, Skip, decode_members, describe,
};

#[cfg(not(target_os = "none"))]
use fast::{Progress, valid_record};
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

/// Decodes the bytes a store keeps under `stored_id` (see the module docs for every rule).
///
/// Total: it never panics, and it answers `valid` only for the current envelope version, a
/// shape-valid record, and a record whose `id` is exactly `stored_id`.
#[must_use]
pub fn decode_session_record(bytes: &[u8], stored_id: &str) -> SessionRecordDecodeOutcome {
    #[cfg(not(target_os = "none"))]
    let skip = match core::str::from_utf8(bytes) {
        Ok(text) => {
            let progress = Progress::default();
            if let Some(record) = valid_record(text, &progress) {
                if record.id == stored_id {
                    return SessionRecordDecodeOutcome::Valid {
                        record: Box::new(record),
                    };
                }
                // What the locating path finds too: every member decodes, only the id is
                // another.
                return SessionRecordDecodeOutcome::Corrupt {
                    issues: alloc::vec![foreign_id(RECORD, &record.id, stored_id)],
                    cwd: Some(record.cwd),
                };
            }
            progress.skip(bytes)
        }
        Err(_) => Skip::NONE,
    };
    #[cfg(target_os = "none")]
    let skip = Skip::NONE;
    locate(bytes, stored_id, skip)
}

/// The locating path of [`decode_session_record`] alone: without the fast path (which answers a
/// valid record, and one that only names another id) and without skipping what the fast path
/// decoded. For equivalence tests: on every input both functions answer the same outcome.
#[cfg(feature = "testing")]
#[must_use]
pub fn decode_session_record_by_locating(
    bytes: &[u8],
    stored_id: &str,
) -> SessionRecordDecodeOutcome {
    locate(bytes, stored_id, Skip::NONE)
}

/// Parses into a JSON value, decodes each member from it (but what `skip` names) and locates
/// every failure.
fn locate(bytes: &[u8], stored_id: &str, skip: Skip) -> SessionRecordDecodeOutcome {
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
    let document: Value = match serde_json::from_str(text) {
        Ok(document) => document,
        Err(error) => {
            return corrupt(
                "",
                format!("the stored bytes are not JSON: {error}"),
                scan_cwd(bytes),
            );
        }
    };
    let Value::Object(mut envelope) = document else {
        let message = format!(
            "invalid type: {}, expected a session record envelope (an object)",
            describe(&document)
        );
        return corrupt("", message, None);
    };
    let cwd = envelope_cwd(&envelope);

    match envelope.get("schemaVersion").map(whole_number) {
        None => return corrupt("schemaVersion", "missing field `schemaVersion`", cwd),
        Some(Some(SESSION_RECORD_SCHEMA_VERSION)) => {}
        Some(schema_version) => {
            return SessionRecordDecodeOutcome::Unsupported {
                schema_version,
                cwd,
            };
        }
    }

    match envelope.remove(RECORD) {
        Some(Value::Object(members)) => {
            match decode_members(members, RECORD, Some(stored_id), skip) {
                Ok(record) => SessionRecordDecodeOutcome::Valid {
                    record: Box::new(record),
                },
                Err(issues) => SessionRecordDecodeOutcome::Corrupt { issues, cwd },
            }
        }
        Some(other) => {
            let message = format!(
                "invalid type: {}, expected a session record (an object)",
                describe(&other)
            );
            corrupt(RECORD, message, cwd)
        }
        None => corrupt(RECORD, "missing field `record`", cwd),
    }
}

fn corrupt(
    path: &str,
    message: impl Into<String>,
    cwd: Option<String>,
) -> SessionRecordDecodeOutcome {
    SessionRecordDecodeOutcome::Corrupt {
        issues: alloc::vec![SessionRecordDecodeIssue::new(path, message)],
        cwd,
    }
}

/// The `cwd` of a parsed document that may not be a valid envelope: `record.cwd`, else a
/// top-level `cwd` (a bare record), when it is a string.
fn envelope_cwd(envelope: &ValueMap) -> Option<String> {
    envelope
        .get(RECORD)
        .and_then(|record| record.get("cwd"))
        .or_else(|| envelope.get("cwd"))
        .and_then(Value::as_str)
        .map(String::from)
}

/// A declared version as a whole number (`1` and `1.0` alike), or `None`.
fn whole_number(value: &Value) -> Option<u64> {
    let Value::Number(number) = value else {
        return None;
    };
    if let Some(whole) = number.as_u64() {
        return Some(whole);
    }
    let float = number.as_f64()?;
    // Casts saturate; the comparison keeps only exact whole values in range.
    let whole = float as u64;
    ((0.0..=9_007_199_254_740_992.0).contains(&float) && whole as f64 == float).then_some(whole)
}

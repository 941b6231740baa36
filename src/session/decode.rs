//! The pure codec between a session record and the bytes a store keeps: the decoder that turns
//! stored bytes into an outcome, and the encoder it round-trips with.
//!
//! The stored form is the versioned envelope `{"schemaVersion": 1, "record": { … }}` (see
//! [`SESSION_RECORD_SCHEMA_VERSION`]). [`decode_session_record`] never panics, on any input, and
//! answers with a [`SessionRecordDecodeOutcome`]: valid, corrupt or unsupported. It has no
//! `missing` (absence is a store's fact: bytes that are not there never reach a decoder) and no
//! `locked` (only a sealing store knows about keys); a store turns the answer into a
//! [`SessionLoadOutcome`] with `From`. The decoder and the encoder exist only with the `serde`
//! feature; the outcome types and the store port exist without it.
//!
//! # The rules it keeps
//!
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
//!   [`extra`](super::InteractiveSessionRecord::extra), never reported; an explicit `null` for an
//!   optional member reads as absent; of a member written twice, the last one counts.
//! - **The encoder is fallible**: a number that is not finite inside an untyped payload cannot
//!   be written as JSON, and the error says so instead of writing a record that would not read
//!   back.
//!
//! How it is built, and why (the envelope, one member decoder for [`InteractiveSessionRecord`]
//! and [`SessionLoadOutcome`], the fast path for valid records and its absence on bare metal,
//! how issues are narrowed and what bounds that work), is recorded in
//! `docs/decisions/session-record-codec.md`.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::record::InteractiveSessionRecord;
#[cfg(all(doc, not(feature = "serde")))]
use super::record::SESSION_RECORD_SCHEMA_VERSION;
use super::store::{SessionLoadOutcome, SessionLoadStatus, SessionRecordDecodeIssue};

/// What the pure decoder concluded about stored bytes: the three outcomes bytes alone can give
/// (`valid`, `corrupt`, `unsupported`), tagged on `status` like [`SessionLoadOutcome`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "status",
        rename_all = "lowercase",
        rename_all_fields = "camelCase"
    )
)]
pub enum SessionRecordDecodeOutcome {
    /// The envelope is the current version, the record decoded, and its id is the id it is
    /// stored under.
    Valid {
        /// The decoded record, unknown members kept.
        record: Box<InteractiveSessionRecord>,
    },
    /// The bytes are not a session record stored under this id.
    Corrupt {
        /// Every located failure found (never empty).
        issues: Vec<SessionRecordDecodeIssue>,
        /// The record's `cwd`, when it could be read from the bytes.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        cwd: Option<String>,
    },
    /// The envelope declares a version this build does not read.
    Unsupported {
        /// The declared version, when it is a whole number.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        schema_version: Option<u64>,
        /// The record's `cwd`, when it could be read from the bytes.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        cwd: Option<String>,
    },
}

impl SessionRecordDecodeOutcome {
    /// The `status` tag (never `missing` or `locked`).
    #[must_use]
    pub const fn status(&self) -> SessionLoadStatus {
        match self {
            Self::Valid { .. } => SessionLoadStatus::Valid,
            Self::Corrupt { .. } => SessionLoadStatus::Corrupt,
            Self::Unsupported { .. } => SessionLoadStatus::Unsupported,
        }
    }
}

impl From<SessionRecordDecodeOutcome> for SessionLoadOutcome {
    /// The same outcome as a store reports it; a valid record carries no owner attribution (a
    /// sealing store adds its own).
    fn from(outcome: SessionRecordDecodeOutcome) -> Self {
        match outcome {
            SessionRecordDecodeOutcome::Valid { record } => Self::Valid {
                record,
                owner: None,
            },
            SessionRecordDecodeOutcome::Corrupt { issues, cwd } => Self::Corrupt { issues, cwd },
            SessionRecordDecodeOutcome::Unsupported {
                schema_version,
                cwd,
            } => Self::Unsupported {
                schema_version,
                cwd,
            },
        }
    }
}

#[cfg(feature = "serde")]
use alloc::format;
#[cfg(feature = "serde")]
use alloc::string::ToString;

#[cfg(all(feature = "serde", not(target_os = "none")))]
use core::cell::Cell;
#[cfg(all(feature = "serde", not(target_os = "none")))]
use core::marker::PhantomData;

#[cfg(feature = "serde")]
use serde::de::DeserializeOwned;

#[cfg(feature = "serde")]
use crate::agent_core::{Value, ValueMap};

#[cfg(feature = "serde")]
use super::record::SESSION_RECORD_SCHEMA_VERSION;

/// Every member the record declares, by wire name; any other member goes to `extra`.
#[cfg(feature = "serde")]
const RECORD_MEMBERS: [&str; 22] = [
    "id",
    "name",
    "cwd",
    "createdAt",
    "updatedAt",
    "messages",
    "history",
    "systemPrompt",
    "toolSchemas",
    "backgroundTasks",
    "backgroundTaskEvents",
    "backgroundJobGroups",
    "backgroundJobGroupEvents",
    "sessionLoops",
    "skillActivationEvents",
    "memoryEvents",
    "usedMemoryReferences",
    "contextReferences",
    "sandboxSnapshotId",
    "goal",
    "plan",
    "activeBranch",
];

/// The envelope member that holds the record, and the path prefix of its members.
#[cfg(feature = "serde")]
const RECORD: &str = "record";

/// How deep the narrowing below a failing element goes, and the widest object it tries the
/// members of.
#[cfg(feature = "serde")]
const NARROW_DEPTH: usize = 12;
#[cfg(feature = "serde")]
const NARROW_MEMBERS: usize = 64;
/// The work the narrowing may spend on one record, all issues together, in units of
/// [`weight`]: this floor plus the record's own weight over [`NARROW_SHARE`]. Each trial decode
/// costs the weight of the value it decodes; once spent, the remaining issues stop where they
/// are (at their member or element at worst).
#[cfg(feature = "serde")]
const NARROW_FLOOR: usize = 1024;
#[cfg(feature = "serde")]
const NARROW_SHARE: usize = 4;

/// The deepest nesting the best-effort `cwd` scanner follows (serde_json's own limit).
#[cfg(feature = "serde")]
const SCAN_DEPTH: usize = 128;

/// Writes `record` in the versioned envelope a store keeps:
/// `{"schemaVersion": 1, "record": { … }}`, members the record does not declare included.
///
/// # Errors
///
/// Fails only when a value cannot be written as JSON: a number that is not finite inside an
/// untyped payload. Nothing is written then; a store must not save such a record.
#[cfg(feature = "serde")]
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
#[cfg(feature = "serde")]
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
#[cfg(all(feature = "serde", feature = "testing"))]
#[must_use]
pub fn decode_session_record_by_locating(
    bytes: &[u8],
    stored_id: &str,
) -> SessionRecordDecodeOutcome {
    locate(bytes, stored_id, Skip::NONE)
}

/// Parses into a JSON value, decodes each member from it (but what `skip` names) and locates
/// every failure.
#[cfg(feature = "serde")]
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

// ---- the fast path: a valid record straight from the text ---------------------------------

/// The record in `text` when the text is a current-version envelope whose record is
/// shape-valid (under whatever id); `None` on anything else (the caller then runs the locating
/// path).
///
/// It decodes the envelope and the record straight from the text, each member with the same
/// member decoder the locating path uses, with the same rules: the last of a repeated member
/// wins, an explicit `null` optional is absent, unknown record members land in `extra`, other
/// envelope members are ignored. It accepts only what a parse into a JSON value accepts too:
/// serde_json skips an ignored value (an unknown member of a typed member) more leniently than
/// it parses one, so the text must also pass [`plain`]. What it decoded before it gave up is
/// noted in `progress`.
#[cfg(all(feature = "serde", not(target_os = "none")))]
fn valid_record(text: &str, progress: &Progress) -> Option<InteractiveSessionRecord> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let envelope =
        serde::Deserializer::deserialize_map(&mut deserializer, EnvelopeVisitor(progress)).ok()?;
    deserializer.end().ok()?;
    let version = envelope.version.as_ref().and_then(whole_number);
    let record = envelope.record?;
    (version == Some(SESSION_RECORD_SCHEMA_VERSION) && plain(text.as_bytes())).then_some(record)
}

/// The envelope as the fast path reads it: the last `schemaVersion` and the last `record`.
#[cfg(all(feature = "serde", not(target_os = "none")))]
struct FastEnvelope {
    version: Option<Value>,
    record: Option<InteractiveSessionRecord>,
}

#[cfg(all(feature = "serde", not(target_os = "none")))]
struct EnvelopeVisitor<'p>(&'p Progress);

#[cfg(all(feature = "serde", not(target_os = "none")))]
impl<'de> serde::de::Visitor<'de> for EnvelopeVisitor<'_> {
    type Value = FastEnvelope;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a session record envelope")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<FastEnvelope, A::Error> {
        let mut envelope = FastEnvelope {
            version: None,
            record: None,
        };
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "schemaVersion" => envelope.version = Some(map.next_value()?),
                RECORD => envelope.record = Some(map.next_value_seed(RecordSeed(self.0))?),
                _ => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(envelope)
    }
}

/// A record decoded member by member from a map, every required member present; what decodes
/// is noted in the [`Progress`].
#[cfg(all(feature = "serde", not(target_os = "none")))]
struct RecordSeed<'p>(&'p Progress);

#[cfg(all(feature = "serde", not(target_os = "none")))]
impl<'de> serde::de::DeserializeSeed<'de> for RecordSeed<'_> {
    type Value = InteractiveSessionRecord;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

#[cfg(all(feature = "serde", not(target_os = "none")))]
impl<'de> serde::de::Visitor<'de> for RecordSeed<'_> {
    type Value = InteractiveSessionRecord;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a session record (an object)")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> Result<InteractiveSessionRecord, A::Error> {
        let progress = self.0;
        let mut record = InteractiveSessionRecord::default();
        // One bit per required member: id, cwd, createdAt, updatedAt, messages.
        let mut required = 0_u8;
        while let Some(key) = map.next_key::<String>()? {
            let member = RECORD_MEMBERS.iter().position(|name| *name == key);
            if let Some(member) = member {
                progress.decoding(member);
            }
            match key.as_str() {
                "id" => (record.id, required) = (map.next_value()?, required | 1),
                "name" => record.name = map.next_value()?,
                "cwd" => (record.cwd, required) = (map.next_value()?, required | 2),
                "createdAt" => (record.created_at, required) = (map.next_value()?, required | 4),
                "updatedAt" => (record.updated_at, required) = (map.next_value()?, required | 8),
                "messages" => {
                    // `null` is refused here, as the locating path refuses it.
                    let messages = map.next_value_seed(list(progress, member))?;
                    (record.messages, required) = (messages.ok_or_else(not_null)?, required | 16);
                }
                "history" => record.history = map.next_value_seed(list(progress, member))?,
                "systemPrompt" => record.system_prompt = map.next_value()?,
                "toolSchemas" => {
                    record.tool_schemas = map.next_value_seed(list(progress, member))?
                }
                "backgroundTasks" => {
                    record.background_tasks = map.next_value_seed(list(progress, member))?
                }
                "backgroundTaskEvents" => {
                    record.background_task_events = map.next_value_seed(list(progress, member))?
                }
                "backgroundJobGroups" => {
                    record.background_job_groups = map.next_value_seed(list(progress, member))?
                }
                "backgroundJobGroupEvents" => {
                    record.background_job_group_events =
                        map.next_value_seed(list(progress, member))?;
                }
                "sessionLoops" => {
                    record.session_loops = map.next_value_seed(list(progress, member))?
                }
                "skillActivationEvents" => {
                    record.skill_activation_events = map.next_value_seed(list(progress, member))?
                }
                "memoryEvents" => {
                    record.memory_events = map.next_value_seed(list(progress, member))?
                }
                "usedMemoryReferences" => {
                    record.used_memory_references = map.next_value_seed(list(progress, member))?
                }
                "contextReferences" => {
                    record.context_references = map.next_value_seed(list(progress, member))?
                }
                "sandboxSnapshotId" => record.sandbox_snapshot_id = map.next_value()?,
                "goal" => record.goal = map.next_value()?,
                "plan" => record.plan = map.next_value()?,
                "activeBranch" => record.active_branch = map.next_value()?,
                _ => {
                    let value = map.next_value()?;
                    record.extra.insert(key, value);
                }
            }
            if let Some(member) = member {
                progress.decoded(member);
            }
        }
        if required == 31 {
            Ok(record)
        } else {
            Err(<A::Error as serde::de::Error>::custom(
                "a required member is missing",
            ))
        }
    }
}

/// The error of a `null` where the locating path wants a sequence.
#[cfg(all(feature = "serde", not(target_os = "none")))]
fn not_null<E: serde::de::Error>() -> E {
    E::invalid_type(serde::de::Unexpected::Unit, &"a sequence")
}

/// What the fast path decoded of a record before it gave up: the members that decoded (by
/// index in [`RECORD_MEMBERS`]), and the member it was in with how many elements of it (a list)
/// decoded.
#[cfg(all(feature = "serde", not(target_os = "none")))]
#[derive(Default)]
struct Progress {
    decoded: Cell<u32>,
    list: Cell<(usize, usize)>,
}

#[cfg(all(feature = "serde", not(target_os = "none")))]
impl Progress {
    fn decoding(&self, member: usize) {
        self.decoded.set(self.decoded.get() & !(1 << member));
        self.list.set((member, 0));
    }

    fn decoded(&self, member: usize) {
        self.decoded.set(self.decoded.get() | 1 << member);
        self.list.set((0, 0));
    }

    /// What the locating path need not decode again: what the fast path decoded from the text
    /// decodes from the parsed value too. Nothing when the envelope or a record in it repeats
    /// a member: the parsed value may then hold another occurrence than the one read here.
    fn skip(&self, bytes: &[u8]) -> Skip {
        let skip = Skip {
            members: self.decoded.get(),
            list: self.list.get(),
        };
        if skip.any() && !repeats_a_member(bytes) {
            skip
        } else {
            Skip::NONE
        }
    }
}

/// A list member as the fast path decodes it (`null` is `None`), counting its decoded elements
/// in the [`Progress`] (under the member's index).
#[cfg(all(feature = "serde", not(target_os = "none")))]
struct Elements<'p, T> {
    progress: &'p Progress,
    member: usize,
    elements: PhantomData<T>,
}

#[cfg(all(feature = "serde", not(target_os = "none")))]
fn list<T>(progress: &Progress, member: Option<usize>) -> Elements<'_, T> {
    Elements {
        progress,
        member: member.unwrap_or(0),
        elements: PhantomData,
    }
}

#[cfg(all(feature = "serde", not(target_os = "none")))]
impl<'de, T: serde::Deserialize<'de>> serde::de::DeserializeSeed<'de> for Elements<'_, T> {
    type Value = Option<Vec<T>>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

#[cfg(all(feature = "serde", not(target_os = "none")))]
impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Elements<'_, T> {
    type Value = Option<Vec<T>>;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut elements = Vec::new();
        while let Some(element) = seq.next_element()? {
            elements.push(element);
            self.progress.list.set((self.member, elements.len()));
        }
        Ok(Some(elements))
    }
}

/// Deeper nesting than this sends the text to the locating path (serde_json's own limit is 128
/// for a parse, none for a skipped value).
#[cfg(all(feature = "serde", not(target_os = "none")))]
const PLAIN_DEPTH: usize = 100;

/// A number token this long or longer sends the text to the locating path (a shorter one
/// without an exponent cannot overflow an `f64`).
#[cfg(all(feature = "serde", not(target_os = "none")))]
const PLAIN_NUMBER: usize = 300;

/// True when JSON text holds none of what serde_json skips in an ignored value but refuses in
/// a parse: a `\u` escape of a UTF-16 surrogate, a number that could overflow an `f64` (one
/// with an exponent, or [`PLAIN_NUMBER`] characters long), nesting deeper than
/// [`PLAIN_DEPTH`]. Conservative: it may refuse text a parse accepts, never the reverse.
#[cfg(all(feature = "serde", not(target_os = "none")))]
fn plain(bytes: &[u8]) -> bool {
    let mut depth = 0_usize;
    let mut rest = bytes;
    while let Some((&byte, tail)) = rest.split_first() {
        rest = tail;
        match byte {
            b'"' => match skip_string(rest) {
                Some(tail) => rest = tail,
                None => return false,
            },
            b'[' | b'{' => {
                depth += 1;
                if depth > PLAIN_DEPTH {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'-' | b'0'..=b'9' => {
                let len = rest
                    .iter()
                    .position(|byte| {
                        !matches!(byte, b'0'..=b'9' | b'.' | b'+' | b'-' | b'e' | b'E')
                    })
                    .unwrap_or(rest.len());
                let (number, tail) = rest.split_at(len);
                if len + 1 >= PLAIN_NUMBER || number.iter().any(|byte| matches!(byte, b'e' | b'E'))
                {
                    return false;
                }
                rest = tail;
            }
            _ => {}
        }
    }
    true
}

/// True when one of the eight bytes of `word` is `byte`.
#[cfg(all(feature = "serde", not(target_os = "none")))]
const fn has_byte(word: u64, byte: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let diff = word ^ (ONES * byte as u64);
    diff.wrapping_sub(ONES) & !diff & (ONES << 7) != 0
}

/// Skips the rest of a string (after its opening quote); `None` at a surrogate escape or the
/// end.
#[cfg(all(feature = "serde", not(target_os = "none")))]
fn skip_string(rest: &[u8]) -> Option<&[u8]> {
    skip_escaped(rest, true)
}

/// Skips the rest of a string (after its opening quote), whatever its escapes; `None` at the
/// end.
#[cfg(all(feature = "serde", not(target_os = "none")))]
fn skip_quoted(rest: &[u8]) -> Option<&[u8]> {
    skip_escaped(rest, false)
}

/// Skips the rest of a string; `None` at the end, or with `plain` at a surrogate escape.
#[cfg(all(feature = "serde", not(target_os = "none")))]
fn skip_escaped(mut rest: &[u8], plain: bool) -> Option<&[u8]> {
    loop {
        // Eight bytes at a time while none of them is a quote or a backslash.
        while let Some((chunk, tail)) = rest.split_first_chunk::<8>() {
            let word = u64::from_le_bytes(*chunk);
            if has_byte(word, b'"') || has_byte(word, b'\\') {
                break;
            }
            rest = tail;
        }
        let at = rest
            .iter()
            .position(|&byte| byte == b'"' || byte == b'\\')?;
        let (&byte, tail) = rest.get(at..)?.split_first()?;
        if byte == b'"' {
            return Some(tail);
        }
        let (&escaped, tail) = tail.split_first()?;
        if plain
            && escaped == b'u'
            && matches!(
                tail,
                [b'd' | b'D', b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F', ..]
            )
        {
            return None;
        }
        rest = tail;
    }
}

#[cfg(feature = "serde")]
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
#[cfg(feature = "serde")]
fn envelope_cwd(envelope: &ValueMap) -> Option<String> {
    envelope
        .get(RECORD)
        .and_then(|record| record.get("cwd"))
        .or_else(|| envelope.get("cwd"))
        .and_then(Value::as_str)
        .map(String::from)
}

/// A declared version as a whole number (`1` and `1.0` alike), or `None`.
#[cfg(feature = "serde")]
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

/// Decodes a record from its members as serde reads any other value, through the same member
/// decoding as [`decode_session_record`] (so both agree on every rule). Hand-written rather than
/// derived: a derived decoder with a flattened `extra` buffers and re-decodes every member for
/// each input format, which more than doubles the code a small target links. An error names
/// each failing member (`messages[1].timestamp: invalid type: …`). Unlike a derived decoder, a
/// key written twice keeps its last value.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for InteractiveSessionRecord {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let members = <ValueMap as serde::Deserialize>::deserialize(deserializer)?;
        decode_members(members, "", None, Skip::NONE)
            .map_err(|issues| <D::Error as serde::de::Error>::custom(issues_text(&issues)))
    }
}

/// Decodes a load outcome (tagged on `status`) the way a derived internally tagged decoder
/// would, with serde's messages (`unknown variant`, `missing field`); unknown members are
/// ignored. Hand-written for the same reason as the record's: a derived one buffers the whole
/// outcome and decodes the record a second way.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for SessionLoadOutcome {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let members = <ValueMap as serde::Deserialize>::deserialize(deserializer)?;
        load_outcome(members).map_err(<D::Error as serde::de::Error>::custom)
    }
}

#[cfg(feature = "serde")]
fn load_outcome(mut members: ValueMap) -> Result<SessionLoadOutcome, serde_json::Error> {
    use serde::de::Error as _;

    let status = members
        .get("status")
        .ok_or_else(|| serde_json::Error::missing_field("status"))?;
    Ok(
        match <SessionLoadStatus as serde::Deserialize>::deserialize(status)? {
            SessionLoadStatus::Valid => {
                let record = match members.remove(RECORD) {
                    Some(Value::Object(record)) => decode_members(record, RECORD, None, Skip::NONE)
                        .map_err(|issues| serde_json::Error::custom(issues_text(&issues)))?,
                    Some(other) => {
                        return Err(serde_json::Error::custom(format_args!(
                            "invalid type: {}, expected a session record (an object)",
                            describe(&other)
                        )));
                    }
                    None => return Err(serde_json::Error::missing_field(RECORD)),
                };
                SessionLoadOutcome::Valid {
                    record: Box::new(record),
                    owner: optional(&members, "owner")?,
                }
            }
            SessionLoadStatus::Missing => SessionLoadOutcome::Missing,
            SessionLoadStatus::Corrupt => SessionLoadOutcome::Corrupt {
                issues: required(&members, "issues")?,
                cwd: optional(&members, "cwd")?,
            },
            SessionLoadStatus::Unsupported => SessionLoadOutcome::Unsupported {
                schema_version: optional(&members, "schemaVersion")?,
                cwd: optional(&members, "cwd")?,
            },
            SessionLoadStatus::Locked => SessionLoadOutcome::Locked {
                reason: required(&members, "reason")?,
            },
        },
    )
}

#[cfg(feature = "serde")]
fn required<T: DeserializeOwned>(
    members: &ValueMap,
    key: &'static str,
) -> Result<T, serde_json::Error> {
    match members.get(key) {
        Some(value) => T::deserialize(value),
        None => Err(<serde_json::Error as serde::de::Error>::missing_field(key)),
    }
}

#[cfg(feature = "serde")]
fn optional<T: DeserializeOwned>(
    members: &ValueMap,
    key: &str,
) -> Result<Option<T>, serde_json::Error> {
    match members.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => T::deserialize(value).map(Some),
    }
}

/// The issues as one line: `path: message; path: message`.
#[cfg(feature = "serde")]
fn issues_text(issues: &[SessionRecordDecodeIssue]) -> String {
    let mut text = String::new();
    for (index, issue) in issues.iter().enumerate() {
        if index > 0 {
            text.push_str("; ");
        }
        if !issue.path.is_empty() {
            text.push_str(&issue.path);
            text.push_str(": ");
        }
        text.push_str(&issue.message);
    }
    text
}

/// What the locating path need not decode of a record, because the fast path decoded it from
/// the text before it gave up: whole members (a bit per index in [`RECORD_MEMBERS`]), and the
/// first elements of one list member (its index, how many). Always empty, and empty of fields,
/// on bare metal (no fast path there).
#[cfg(feature = "serde")]
#[derive(Clone, Copy)]
struct Skip {
    #[cfg(not(target_os = "none"))]
    members: u32,
    #[cfg(not(target_os = "none"))]
    list: (usize, usize),
}

#[cfg(feature = "serde")]
impl Skip {
    const NONE: Self = Self {
        #[cfg(not(target_os = "none"))]
        members: 0,
        #[cfg(not(target_os = "none"))]
        list: (0, 0),
    };

    #[cfg(target_os = "none")]
    const fn any(self) -> bool {
        false
    }

    #[cfg(target_os = "none")]
    const fn member(self, _: &str) -> bool {
        false
    }

    #[cfg(target_os = "none")]
    const fn elements(self, _: &str) -> usize {
        0
    }

    #[cfg(not(target_os = "none"))]
    const fn any(self) -> bool {
        self.members != 0 || self.list.1 != 0
    }

    /// Whether the member `key` is skipped whole.
    #[cfg(not(target_os = "none"))]
    fn member(self, key: &str) -> bool {
        self.members != 0
            && RECORD_MEMBERS
                .iter()
                .position(|name| *name == key)
                .is_some_and(|member| self.members & 1 << member != 0)
    }

    /// How many first elements of the list member `key` are skipped.
    #[cfg(not(target_os = "none"))]
    fn elements(self, key: &str) -> usize {
        match RECORD_MEMBERS.get(self.list.0) {
            Some(name) if self.list.1 != 0 && *name == key => self.list.1,
            _ => 0,
        }
    }
}

/// Decodes every member of a record; member paths start with `prefix`. With `expected_id`, an
/// `id` that differs from it is an issue too.
///
/// What `skip` names is not decoded at first (it decodes, and has no issue); when nothing else
/// fails, the record may be valid and every member is decoded after all.
#[cfg(feature = "serde")]
fn decode_members(
    members: ValueMap,
    prefix: &str,
    expected_id: Option<&str>,
    skip: Skip,
) -> Result<InteractiveSessionRecord, Vec<SessionRecordDecodeIssue>> {
    let mut read = Members {
        members,
        prefix,
        issues: Vec::new(),
        budget: None,
        skip,
    };
    loop {
        let id: Option<String> = read.required("id");
        let name = read.optional("name");
        let cwd: Option<String> = read.required("cwd");
        let created_at: Option<String> = read.required("createdAt");
        let updated_at: Option<String> = read.required("updatedAt");
        let messages = read.required_list("messages");
        let history = read.optional_list("history");
        let system_prompt = read.optional("systemPrompt");
        let tool_schemas = read.optional_list("toolSchemas");
        let background_tasks = read.optional_list("backgroundTasks");
        let background_task_events = read.optional_list("backgroundTaskEvents");
        let background_job_groups = read.optional_list("backgroundJobGroups");
        let background_job_group_events = read.optional_list("backgroundJobGroupEvents");
        let session_loops = read.optional_list("sessionLoops");
        let skill_activation_events = read.optional_list("skillActivationEvents");
        let memory_events = read.optional_list("memoryEvents");
        let used_memory_references = read.optional_list("usedMemoryReferences");
        let context_references = read.optional_list("contextReferences");
        let sandbox_snapshot_id = read.optional("sandboxSnapshotId");
        let goal = read.optional("goal");
        let plan = read.optional("plan");
        let active_branch = read.optional("activeBranch");

        // The id as it decodes (a string), read from the value: a skipped `id` decoded too.
        if let (Some(Value::String(id)), Some(expected)) = (read.members.get("id"), expected_id)
            && id != expected
        {
            let issue = foreign_id(prefix, id, expected);
            read.issues.push(issue);
        }
        if read.issues.is_empty() && read.skip.any() {
            read.skip = Skip::NONE;
            continue;
        }
        let Members {
            members, issues, ..
        } = read;

        let (Some(id), Some(cwd), Some(created_at), Some(updated_at), Some(messages), true) =
            (id, cwd, created_at, updated_at, messages, issues.is_empty())
        else {
            return Err(issues);
        };

        let extra: ValueMap = members
            .into_iter()
            .filter(|(key, _)| !RECORD_MEMBERS.contains(&key.as_str()))
            .collect();

        return Ok(InteractiveSessionRecord {
            id,
            name,
            cwd,
            created_at,
            updated_at,
            messages,
            history,
            system_prompt,
            tool_schemas,
            background_tasks,
            background_task_events,
            background_job_groups,
            background_job_group_events,
            session_loops,
            skill_activation_events,
            memory_events,
            used_memory_references,
            context_references,
            sandbox_snapshot_id,
            goal,
            plan,
            active_branch,
            extra,
        });
    }
}

/// The issue of a record whose `id` is not the id it is stored under.
#[cfg(feature = "serde")]
fn foreign_id(prefix: &str, id: &str, expected: &str) -> SessionRecordDecodeIssue {
    SessionRecordDecodeIssue::new(
        member_path(prefix, "id"),
        format!("the record's id `{id}` is not the id it is stored under (`{expected}`)"),
    )
}

#[cfg(feature = "serde")]
fn member_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        String::from(key)
    } else {
        format!("{prefix}.{key}")
    }
}

/// Collects the failures of one record's members.
#[cfg(feature = "serde")]
struct Members<'a> {
    members: ValueMap,
    prefix: &'a str,
    issues: Vec<SessionRecordDecodeIssue>,
    /// The narrowing work still to spend (see [`NARROW_FLOOR`]), counted at the first failure.
    budget: Option<usize>,
    /// What not to decode (yet).
    skip: Skip,
}

#[cfg(feature = "serde")]
impl Members<'_> {
    /// A required member; absent or failing, it adds an issue and gives `None`.
    fn required<T: DeserializeOwned>(&mut self, key: &str) -> Option<T> {
        if self.skip.member(key) {
            None
        } else if self.members.contains_key(key) {
            self.decode(key, None)
        } else {
            self.missing(key);
            None
        }
    }

    /// An optional member: absent or `null` is `None`; a failing one adds an issue.
    fn optional<T: DeserializeOwned>(&mut self, key: &str) -> Option<T> {
        match self.members.get(key) {
            None | Some(Value::Null) => None,
            Some(_) if self.skip.member(key) => None,
            Some(_) => self.decode(key, None),
        }
    }

    /// A required list member, element by element.
    fn required_list<T: DeserializeOwned>(&mut self, key: &str) -> Option<Vec<T>> {
        if self.skip.member(key) {
            None
        } else if self.members.contains_key(key) {
            self.list(key)
        } else {
            self.missing(key);
            None
        }
    }

    /// An optional list member, element by element: absent or `null` is `None`.
    fn optional_list<T: DeserializeOwned>(&mut self, key: &str) -> Option<Vec<T>> {
        match self.members.get(key) {
            None | Some(Value::Null) => None,
            Some(_) if self.skip.member(key) => None,
            Some(_) => self.list(key),
        }
    }

    fn missing(&mut self, key: &str) {
        self.issues.push(SessionRecordDecodeIssue::new(
            member_path(self.prefix, key),
            format!("missing field `{key}`"),
        ));
    }

    fn list<T: DeserializeOwned>(&mut self, key: &str) -> Option<Vec<T>> {
        let len = match self.members.get(key)? {
            Value::Array(elements) => elements.len(),
            value => {
                let message = format!("invalid type: {}, expected a sequence", describe(value));
                self.issues.push(SessionRecordDecodeIssue::new(
                    member_path(self.prefix, key),
                    message,
                ));
                return None;
            }
        };
        let before = self.issues.len();
        let mut decoded = Vec::with_capacity(len);
        for index in self.skip.elements(key)..len {
            if let Some(element) = self.decode(key, Some(index)) {
                decoded.push(element);
            }
        }
        (self.issues.len() == before).then_some(decoded)
    }

    /// Decodes the member `key` (its element `index` for a list); on failure adds the issue.
    fn decode<T: DeserializeOwned>(&mut self, key: &str, index: Option<usize>) -> Option<T> {
        match T::deserialize(slot(self.members.get(key), index)?) {
            Ok(decoded) => Some(decoded),
            Err(error) => {
                let decodes = |probe: &Value| T::deserialize(probe).err().map(|e| e.to_string());
                self.failed(key, index, &error, &decodes);
                None
            }
        }
    }

    /// Adds the issue of a member (or element) that failed with `error`, narrowed below it as
    /// far as the budget allows (`decodes` is a trial decode of the same type). Not generic, so
    /// one copy serves every member type.
    fn failed(
        &mut self,
        key: &str,
        index: Option<usize>,
        error: &serde_json::Error,
        decodes: &dyn Fn(&Value) -> Option<String>,
    ) {
        let message = error.to_string();
        let members = &self.members;
        let left = self
            .budget
            .get_or_insert_with(|| NARROW_FLOOR + map_weight(members) / NARROW_SHARE);
        let steps = slot_mut(self.members.get_mut(key), index)
            .map(|root| narrow(root, &message, decodes, left))
            .unwrap_or_default();
        let mut path = member_path(self.prefix, key);
        if let Some(index) = index {
            path.push_str(&format!("[{index}]"));
        }
        self.issues
            .push(SessionRecordDecodeIssue::new(render(path, &steps), message));
    }
}

/// A member's value, or its element `index`.
#[cfg(feature = "serde")]
fn slot(value: Option<&Value>, index: Option<usize>) -> Option<&Value> {
    match index {
        None => value,
        Some(index) => value?.as_array()?.get(index),
    }
}

#[cfg(feature = "serde")]
fn slot_mut(value: Option<&mut Value>, index: Option<usize>) -> Option<&mut Value> {
    match index {
        None => value,
        Some(index) => value?.as_array_mut()?.get_mut(index),
    }
}

/// What decoding a value costs, in units of about one value: one per value, one more per 32
/// bytes of its strings and member names; `None` once above `limit`.
#[cfg(feature = "serde")]
fn weight(value: &Value, limit: usize) -> Option<usize> {
    let mut total = 0;
    add_weight(value, &mut total, limit).then_some(total)
}

/// Adds the [`weight`] of `value` to `total`; false (and stops) once `total` is above `limit`.
/// Recursive: no deeper than whatever built the value.
#[cfg(feature = "serde")]
fn add_weight(value: &Value, total: &mut usize, limit: usize) -> bool {
    *total = total.saturating_add(1);
    match value {
        Value::String(text) => *total = total.saturating_add(text.len() / 32),
        Value::Array(elements) => {
            for element in elements {
                if !add_weight(element, total, limit) {
                    return false;
                }
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                *total = total.saturating_add(key.len() / 32);
                if !add_weight(member, total, limit) {
                    return false;
                }
            }
        }
        _ => {}
    }
    *total <= limit
}

/// The [`weight`] of a record's members.
#[cfg(feature = "serde")]
fn map_weight(members: &ValueMap) -> usize {
    let mut total = 0;
    for (key, member) in members {
        total += key.len() / 32;
        add_weight(member, &mut total, usize::MAX);
    }
    total
}

// ---- narrowing an issue below a failing value ---------------------------------------------

#[cfg(feature = "serde")]
/// One step of a path below a failing value.
enum Step {
    Member(String),
    Element(usize),
}

#[cfg(feature = "serde")]
fn render(mut path: String, steps: &[Step]) -> String {
    for step in steps {
        match step {
            Step::Member(key) => {
                path.push('.');
                path.push_str(key);
            }
            Step::Element(index) => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

#[cfg(feature = "serde")]
fn at_mut<'v>(mut value: &'v mut Value, steps: &[Step]) -> Option<&'v mut Value> {
    for step in steps {
        value = match step {
            Step::Member(key) => value.as_object_mut()?.get_mut(key)?,
            Step::Element(index) => value.as_array_mut()?.get_mut(*index)?,
        };
    }
    Some(value)
}

/// Trial decodes of one failing root, each costing the root's [`weight`] from the budget.
#[cfg(feature = "serde")]
struct Trials<'a> {
    decodes: &'a dyn Fn(&Value) -> Option<String>,
    /// The root's weight; `None` when it is more than the whole budget left.
    cost: Option<usize>,
    left: &'a mut usize,
}

#[cfg(feature = "serde")]
impl Trials<'_> {
    /// Whether `count` more trials fit in the budget (a level is tried whole or not at all).
    fn afford(&self, count: usize) -> bool {
        self.cost
            .is_some_and(|cost| cost.saturating_mul(count) <= *self.left)
    }

    /// One trial decode: `None` once the budget is spent, else the trial's error (if any).
    fn run(&mut self, probe: &Value) -> Option<Option<String>> {
        *self.left = self.left.checked_sub(self.cost?)?;
        Some((self.decodes)(probe))
    }
}

#[cfg(feature = "serde")]
/// Finds, below `root` (a value that fails to decode with `message`), the member or element
/// that makes it fail, as far as that can be told by taking things away.
///
/// A member is blamed when removing it makes the value decode, or turns the error into
/// "missing field" for that very member (a required one). Several members can qualify (a tag
/// such as `role` does too); the one whose value the error message quotes then wins, and
/// with no single winner the path stops. An element is blamed when it is the first whose
/// inclusion makes a prefix of the list fail (found by bisection; when the empty list fails
/// too, the list itself is to blame). The value's own missing member is named last.
///
/// Every trial decodes the whole root, modified in place and restored (no copy), and costs its
/// [`weight`] from `left`; when that is spent the path stops where it is.
fn narrow(
    root: &mut Value,
    message: &str,
    decodes: &dyn Fn(&Value) -> Option<String>,
    left: &mut usize,
) -> Vec<Step> {
    let mut trials = Trials {
        decodes,
        cost: weight(root, *left),
        left,
    };
    let mut steps = Vec::new();
    for _ in 0..NARROW_DEPTH {
        let next = match at_mut(root, &steps) {
            Some(Value::Object(_)) => blame_member(root, &steps, message, &mut trials),
            Some(Value::Array(_)) => blame_element(root, &steps, &mut trials),
            _ => None,
        };
        match next {
            Some(step) => steps.push(step),
            None => break,
        }
    }
    if let Some(Value::Object(members)) = at_mut(root, &steps)
        && let Some(missing) = missing_field(message)
        && !members.contains_key(missing)
    {
        steps.push(Step::Member(String::from(missing)));
    }
    steps
}

#[cfg(feature = "serde")]
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

#[cfg(feature = "serde")]
fn blame_member(
    root: &mut Value,
    steps: &[Step],
    message: &str,
    trials: &mut Trials<'_>,
) -> Option<Step> {
    let keys: Vec<String> = match at_mut(root, steps) {
        Some(Value::Object(members))
            if members.len() <= NARROW_MEMBERS && trials.afford(members.len()) =>
        {
            members.keys().cloned().collect()
        }
        _ => return None,
    };
    let mut cleared = Vec::new();
    let mut required = Vec::new();
    for key in &keys {
        let held = at_mut(root, steps)?.as_object_mut()?.remove(key)?;
        let outcome = trials.run(root);
        at_mut(root, steps)?
            .as_object_mut()?
            .insert(key.clone(), held);
        match outcome? {
            None => cleared.push(key),
            Some(error) if missing_field(&error) == Some(key.as_str()) => required.push(key),
            Some(_) => {}
        }
    }
    let Some(Value::Object(members)) = at_mut(root, steps) else {
        return None;
    };
    let quoted = |key: &&String| {
        members
            .get(key.as_str())
            .is_some_and(|value| quotes(message, value))
    };
    let chosen = match cleared.as_slice() {
        [only] => Some(*only),
        [] => single(required.iter().copied().filter(quoted)),
        several => single(several.iter().copied().filter(quoted)),
    };
    chosen.map(|key| Step::Member(key.clone()))
}

#[cfg(feature = "serde")]
fn single<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    let first = items.next()?;
    items.next().is_none().then_some(first)
}

#[cfg(feature = "serde")]
fn blame_element(root: &mut Value, steps: &[Step], trials: &mut Trials<'_>) -> Option<Step> {
    // Prefix lengths known to decode and known to fail (the whole list fails).
    let (mut decodes, mut fails) = (0, at_mut(root, steps)?.as_array()?.len());
    // The empty prefix, then one bisection step per bit of `fails - 1`.
    let needed = 1 + (usize::BITS - fails.saturating_sub(1).leading_zeros()) as usize;
    if fails == 0 || !trials.afford(needed) || prefix_fails(root, steps, 0, trials)? {
        return None;
    }
    while fails - decodes > 1 {
        let middle = decodes + (fails - decodes) / 2;
        if prefix_fails(root, steps, middle, trials)? {
            fails = middle;
        } else {
            decodes = middle;
        }
    }
    Some(Step::Element(fails - 1))
}

/// Whether the root still fails with the list at `steps` cut to its first `len` elements.
#[cfg(feature = "serde")]
fn prefix_fails(
    root: &mut Value,
    steps: &[Step],
    len: usize,
    trials: &mut Trials<'_>,
) -> Option<bool> {
    let elements = at_mut(root, steps)?.as_array_mut()?;
    if len > elements.len() {
        return None;
    }
    let mut tail = elements.split_off(len);
    let outcome = trials.run(root);
    at_mut(root, steps)?.as_array_mut()?.append(&mut tail);
    Some(outcome?.is_some())
}

#[cfg(feature = "serde")]
/// True when serde's `message` quotes `value` (as "integer `5`", "string \"x\"",
/// "unknown variant `x`", …).
fn quotes(message: &str, value: &Value) -> bool {
    match value {
        Value::Null => message.contains("null") || message.contains("unit value"),
        Value::Bool(flag) => message.contains(&format!("`{flag}`")),
        Value::Number(number) => message.contains(&format!("`{number}`")),
        Value::String(text) => {
            message.contains(&format!("`{text}`")) || message.contains(&format!("\"{text}\""))
        }
        Value::Array(_) => message.contains("sequence"),
        Value::Object(_) => message.contains("map"),
    }
}

#[cfg(feature = "serde")]
/// How serde names a value's type in "invalid type" messages.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => String::from("null"),
        Value::Bool(flag) => format!("boolean `{flag}`"),
        Value::Number(number) if number.is_f64() => format!("floating point `{number}`"),
        Value::Number(number) => format!("integer `{number}`"),
        Value::String(text) => format!("string {text:?}"),
        Value::Array(_) => String::from("sequence"),
        Value::Object(_) => String::from("map"),
    }
}

// ---- best-effort cwd from bytes that do not parse ------------------------------------------

#[cfg(feature = "serde")]
/// Reads the string value of `record.cwd` (or of a top-level `cwd`) from JSON text that may
/// be broken after it; `None` when a syntax error, a nesting deeper than [`SCAN_DEPTH`] or
/// the end comes first, or when the value is not UTF-8.
fn scan_cwd(bytes: &[u8]) -> Option<String> {
    let mut scanner = Scanner { bytes, pos: 0 };
    scanner.value(Place::Document, 0).ok().flatten()
}

/// True when the envelope in `bytes`, or a `record` object in it, names a member twice; true
/// too when the text is not an object, is broken before its end, or nests deeper than a parse
/// reads (nothing can be told then).
#[cfg(all(feature = "serde", not(target_os = "none")))]
fn repeats_a_member(bytes: &[u8]) -> bool {
    let mut scanner = Scanner { bytes, pos: 0 };
    scanner.repeats(true).unwrap_or(true)
}

#[cfg(feature = "serde")]
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

#[cfg(feature = "serde")]
/// The scan stopped: the text is broken (or too deep) before a `cwd` was found.
struct Broken;

#[cfg(feature = "serde")]
struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

#[cfg(feature = "serde")]
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

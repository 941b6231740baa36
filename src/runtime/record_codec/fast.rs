//! The fast path: a valid record decoded straight from the text, member by member, with the
//! same member decoder as the locating path; what it decoded before it gave up is noted so the
//! locating path need not decode it again. Not on bare metal (`target_os = "none"`), where the
//! code it links costs more than the time it saves.

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;
use core::marker::PhantomData;

use crate::agent_core::Value;
use crate::session::{
    InteractiveSessionRecord, RECORD, RECORD_MEMBERS, SESSION_RECORD_SCHEMA_VERSION, Skip,
};

use super::scan::repeats_a_member;
use super::whole_number;

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
pub(super) fn valid_record(text: &str, progress: &Progress) -> Option<InteractiveSessionRecord> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let envelope =
        serde::Deserializer::deserialize_map(&mut deserializer, EnvelopeVisitor(progress)).ok()?;
    deserializer.end().ok()?;
    let version = envelope.version.as_ref().and_then(whole_number);
    let record = envelope.record?;
    (version == Some(SESSION_RECORD_SCHEMA_VERSION) && plain(text.as_bytes())).then_some(record)
}

/// The envelope as the fast path reads it: the last `schemaVersion` and the last `record`.
struct FastEnvelope {
    version: Option<Value>,
    record: Option<InteractiveSessionRecord>,
}

struct EnvelopeVisitor<'p>(&'p Progress);

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
struct RecordSeed<'p>(&'p Progress);

impl<'de> serde::de::DeserializeSeed<'de> for RecordSeed<'_> {
    type Value = InteractiveSessionRecord;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

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
fn not_null<E: serde::de::Error>() -> E {
    E::invalid_type(serde::de::Unexpected::Unit, &"a sequence")
}

/// What the fast path decoded of a record before it gave up: the members that decoded (by
/// index in [`RECORD_MEMBERS`]), and the member it was in with how many elements of it (a list)
/// decoded.
#[derive(Default)]
pub(super) struct Progress {
    decoded: Cell<u32>,
    list: Cell<(usize, usize)>,
}

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
    pub(super) fn skip(&self, bytes: &[u8]) -> Skip {
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
struct Elements<'p, T> {
    progress: &'p Progress,
    member: usize,
    elements: PhantomData<T>,
}

fn list<T>(progress: &Progress, member: Option<usize>) -> Elements<'_, T> {
    Elements {
        progress,
        member: member.unwrap_or(0),
        elements: PhantomData,
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::de::DeserializeSeed<'de> for Elements<'_, T> {
    type Value = Option<Vec<T>>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

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
const PLAIN_DEPTH: usize = 100;

/// A number token this long or longer sends the text to the locating path (a shorter one
/// without an exponent cannot overflow an `f64`).
const PLAIN_NUMBER: usize = 300;

/// True when JSON text holds none of what serde_json skips in an ignored value but refuses in
/// a parse: a `\u` escape of a UTF-16 surrogate, a number that could overflow an `f64` (one
/// with an exponent, or [`PLAIN_NUMBER`] characters long), nesting deeper than
/// [`PLAIN_DEPTH`]. Conservative: it may refuse text a parse accepts, never the reverse.
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
const fn has_byte(word: u64, byte: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let diff = word ^ (ONES * byte as u64);
    diff.wrapping_sub(ONES) & !diff & (ONES << 7) != 0
}

/// Skips the rest of a string (after its opening quote); `None` at a surrogate escape or the
/// end.
fn skip_string(rest: &[u8]) -> Option<&[u8]> {
    skip_escaped(rest, true)
}

/// Skips the rest of a string (after its opening quote), whatever its escapes; `None` at the
/// end.
pub(super) fn skip_quoted(rest: &[u8]) -> Option<&[u8]> {
    skip_escaped(rest, false)
}

/// Skips the rest of a string; `None` at the end, or with `plain` at a surrogate escape.
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

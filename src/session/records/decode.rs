//! What decoding a stored session record answers, and the member decoder behind the record's
//! own `serde::Deserialize`.
//!
//! [`SessionRecordDecodeOutcome`] is the vocabulary of a decode: the three outcomes bytes alone
//! can give (valid, corrupt with located issues, unsupported), turned into a
//! [`SessionLoadOutcome`] with `From`. The decoder that produces it from stored bytes, and the
//! encoder it round-trips with, are the `record-codec` runtime piece
//! (`runtime::record_codec`); the family holds no codec.
//!
//! With the `serde` feature the file also holds the hand-written `Deserialize` of
//! [`InteractiveSessionRecord`] and of [`SessionLoadOutcome`], and the one member decoder behind
//! them and the record codec: it decodes each member of a record (each element of a list) from
//! its own span of JSON text with serde_json's text reader, reports every failing member with
//! its path, and narrows an issue below a failing element by trial decodes of its text within a
//! bounded budget. The record's own `Deserialize` reads the record into a JSON value and writes
//! it back as text for it, so a record read from a payload and a record read from a store agree
//! on every rule, and a build links one instance of each member decoder (for serde_json's text
//! reader; none for a parsed value). Why it is built this way is recorded in
//! `docs/decisions/session-record-codec.md`.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::record::InteractiveSessionRecord;
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
        /// The declared version, when it is a whole number (negative ones included: a
        /// corrupted or hostile envelope's `-1` is reported as written).
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        schema_version: Option<i64>,
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
use super::json_text;
#[cfg(feature = "record-codec")]
pub(crate) use member_decoder::{RECORD, decode_members_unread, describe_text};

/// The member decoder: a record's members decoded from its JSON text, each with serde_json's
/// text reader (the one instance of the member decoders a build links), every failure located.
#[cfg(feature = "serde")]
mod member_decoder {
    use alloc::boxed::Box;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;
    use core::ops::Range;

    use serde::de::{DeserializeOwned, IgnoredAny};

    use super::json_text::{
        Element, Member, Node, beyond, canonical, each_element, elements, first_byte, masked,
        members, outline, weight, whole, without_member,
    };
    use super::{
        InteractiveSessionRecord, SessionLoadOutcome, SessionLoadStatus, SessionRecordDecodeIssue,
    };
    use crate::agent_core::{
        CutEchoes, ObjectsOnly, ReadLimits, Value, ValueMap, cut_echoes, echoed, too_deep,
    };
    use core::fmt::Write as _;

    /// Every member the record declares, by wire name; any other member goes to `extra`.
    pub(crate) const RECORD_MEMBERS: [&str; 22] = [
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
    pub(crate) const RECORD: &str = "record";

    /// How deep the narrowing below a failing element goes, and the widest object it tries the
    /// members of.
    const NARROW_DEPTH: usize = 12;
    const NARROW_MEMBERS: usize = 64;
    /// Strings longer than this in text, than the echo limit and a cut's mark, and than a third
    /// of the record, are masked before a member is read (see `decoded`).
    const MASKED: usize = 256;
    /// The longest failing value the narrowing tries (in bytes of its text): each trial holds a
    /// copy of it and serde's error quoting it, so a longer one is named whole, at its member or
    /// element, within the heap of the smallest board.
    const NARROW_BYTES: usize = 2048;
    /// The work the narrowing may spend on one record, all issues together, in units of
    /// [`weight`]: this floor plus the record's own weight over [`NARROW_SHARE`]. Each trial
    /// decode costs the weight of the value it decodes; once spent, the remaining issues stop
    /// where they are (at their member or element at worst).
    const NARROW_FLOOR: usize = 1024;
    const NARROW_SHARE: usize = 4;

    /// Decodes a record from its members as serde reads any other value, through the same
    /// member decoder as the record codec's decoder (so both agree on every rule): the members
    /// are read into a JSON value, written back as text, and decoded from that text.
    /// Hand-written rather than derived: a derived decoder with a flattened `extra` buffers and
    /// re-decodes every member for each input format, which more than doubles the code a small
    /// target links. An error names each failing member (`messages[1].timestamp: invalid type:
    /// …`). Unlike a derived decoder, a key written twice keeps its last value.
    impl<'de> serde::Deserialize<'de> for InteractiveSessionRecord {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let members = <ValueMap as serde::Deserialize>::deserialize(deserializer)?;
            record_from_value(&members, "")
                .map_err(|issues| <D::Error as serde::de::Error>::custom(issues_text(&issues)))
        }
    }

    /// A record from the members of a parsed value, through their text, within the default
    /// [`ReadLimits`] (a value built in memory may nest deeper than any parse reads).
    fn record_from_value(
        members: &ValueMap,
        prefix: &str,
    ) -> Result<InteractiveSessionRecord, Vec<SessionRecordDecodeIssue>> {
        // A map of strings to values always writes (a number in a `Value` is finite).
        let text = serde_json::to_string(members).unwrap_or_default();
        let limits = ReadLimits::DEFAULT;
        if let Some(deep) = too_deep(text.as_bytes(), &limits) {
            let path = render_path(prefix, &deep.path);
            return Err(alloc::vec![SessionRecordDecodeIssue::new(
                path,
                deep.message()
            )]);
        }
        match outline(&text, &whole(&text), 1) {
            Some(record) => decode_members(&text, &record, prefix, None, &limits),
            None => Err(alloc::vec![SessionRecordDecodeIssue::new(
                prefix,
                "unreadable"
            )]),
        }
    }

    /// Decodes a load outcome (tagged on `status`) the way a derived internally tagged decoder
    /// would, with serde's messages (`unknown variant`, `missing field`); unknown members are
    /// ignored. Hand-written for the same reason as the record's: a derived one buffers the
    /// whole outcome and decodes the record a second way.
    impl<'de> serde::Deserialize<'de> for SessionLoadOutcome {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let members = <ValueMap as serde::Deserialize>::deserialize(deserializer)?;
            load_outcome(members).map_err(<D::Error as serde::de::Error>::custom)
        }
    }

    fn load_outcome(mut members: ValueMap) -> Result<SessionLoadOutcome, serde_json::Error> {
        use serde::de::Error as _;

        let status = members
            .get("status")
            .ok_or_else(|| serde_json::Error::missing_field("status"))?;
        Ok(
            match <SessionLoadStatus as serde::Deserialize>::deserialize(status)? {
                SessionLoadStatus::Valid => {
                    let record = match members.remove(RECORD) {
                        Some(Value::Object(record)) => record_from_value(&record, RECORD)
                            .map_err(|issues| serde_json::Error::custom(issues_text(&issues)))?,
                        Some(other) => {
                            return Err(serde_json::Error::custom(format_args!(
                                "invalid type: {}, expected a session record (an object)",
                                describe(&other, ReadLimits::DEFAULT.echo)
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

    fn required<T: DeserializeOwned>(
        members: &ValueMap,
        key: &'static str,
    ) -> Result<T, serde_json::Error> {
        match members.get(key) {
            Some(value) => T::deserialize(ObjectsOnly(value)),
            None => Err(<serde_json::Error as serde::de::Error>::missing_field(key)),
        }
    }

    fn optional<T: DeserializeOwned>(
        members: &ValueMap,
        key: &str,
    ) -> Result<Option<T>, serde_json::Error> {
        match members.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => T::deserialize(ObjectsOnly(value)).map(Some),
        }
    }

    /// The issues as one line: `path: message; path: message`.
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

    /// serde_json's reader of text: the one deserializer every member decoder is built for.
    type Reader<'t> = serde_json::Deserializer<serde_json::de::StrRead<'t>>;

    /// A decode of one member type from a reader (what decodes is kept by the caller).
    type Decodes<'d> = dyn FnMut(&mut Reader<'_>) -> Result<(), serde_json::Error> + 'd;

    /// Decodes `text` whole with `decodes`: `None` when it decodes, else the error's message with
    /// its echoes cut to `echo` bytes. Not generic: the reader is built and checked for trailing
    /// text once for every type.
    fn attempt(text: &str, decodes: &mut Decodes<'_>, echo: usize) -> Option<String> {
        attempt_error(text, decodes).map(|error| message(&error, echo))
    }

    /// [`attempt`], with the error itself (its message is written only when it is asked for).
    fn attempt_error(text: &str, decodes: &mut Decodes<'_>) -> Option<serde_json::Error> {
        let mut reader = serde_json::Deserializer::from_str(text);
        decodes(&mut reader).and_then(|()| reader.end()).err()
    }

    /// The message of a serde_json error without its position: issues name where by their
    /// path.
    pub(crate) use crate::agent_core::json_message as message;

    /// The path of a value found below the member path `prefix` (`rest` as a JSON path).
    pub(crate) fn render_path(prefix: &str, rest: &str) -> String {
        match (prefix.is_empty(), rest.is_empty() || rest.starts_with('[')) {
            (true, _) => String::from(rest),
            (false, true) => format!("{prefix}{rest}"),
            (false, false) => format!("{prefix}.{rest}"),
        }
    }

    /// Decodes every member of the record outlined by `record` (an object of `text`, which a
    /// parse accepts, nested no deeper than `limits` allow, outlined at least one level deep:
    /// its members); member paths start with `prefix`. With `expected_id`, an `id` that differs
    /// from it is an issue too. At most `limits.issues` issues are listed, then one that counts
    /// the rest.
    pub(crate) fn decode_members(
        text: &str,
        record: &Node<'_>,
        prefix: &str,
        expected_id: Option<&str>,
        limits: &ReadLimits,
    ) -> Result<InteractiveSessionRecord, Vec<SessionRecordDecodeIssue>> {
        decode_members_unread(text, record, prefix, expected_id, limits, &mut Vec::new())
    }

    /// [`decode_members`], and the spans of the record's text that no decoder read whole, added to
    /// `unread`: on failure, failing members and elements and members no decode reached; either
    /// way, members and elements that decoded only from their canonical text. serde_json read
    /// the rest of the record strictly, so only these may still hold text that is not JSON.
    pub(crate) fn decode_members_unread(
        text: &str,
        record: &Node<'_>,
        prefix: &str,
        expected_id: Option<&str>,
        limits: &ReadLimits,
        unread_spans: &mut Vec<Range<usize>>,
    ) -> Result<InteractiveSessionRecord, Vec<SessionRecordDecodeIssue>> {
        let Some(written) = record
            .children
            .as_ref()
            .filter(|_| first_byte(text, &record.span) == b'{')
        else {
            let message = format!(
                "invalid type: {}, expected a session record (an object)",
                describe_text(text, &record.span, limits.echo)
            );
            unread_spans.push(record.span.clone());
            return Err(alloc::vec![SessionRecordDecodeIssue::new(prefix, message)]);
        };
        // The last occurrence of each declared member; the rest are `extra`.
        let mut slots: [Option<&Node<'_>>; 22] = [None; 22];
        for member in written {
            let name = member.name.as_deref().unwrap_or_default();
            if let Some(index) = RECORD_MEMBERS.iter().position(|known| *known == name) {
                slots[index] = Some(&member.node);
            }
        }
        // The members no slot holds, found again from the outline rather than listed (a record
        // of many members would otherwise keep a second list as long as the outline): the
        // undeclared ones (`extra`) and the earlier occurrences of a repeated declared one,
        // read by no decoder (`unread`, with the index of their name).
        let kept_slots = slots;
        let extra = || {
            written.iter().filter_map(|member| {
                let name = member.name.as_deref().unwrap_or_default();
                (!RECORD_MEMBERS.contains(&name)).then_some((name, &member.node.span))
            })
        };
        let unread = || {
            written.iter().filter_map(move |member| {
                let name = member.name.as_deref().unwrap_or_default();
                let index = RECORD_MEMBERS.iter().position(|known| *known == name)?;
                let last = kept_slots[index].is_some_and(|kept| core::ptr::eq(kept, &member.node));
                (!last).then_some((index, &member.node.span))
            })
        };
        let mut read = Members {
            text,
            slots,
            prefix,
            issues: Vec::new(),
            limits,
            omitted: 0,
            budget: None,
            failed: Vec::new(),
        };
        {
            let id: Option<String> = read.required(0);
            let name = read.optional(1);
            let cwd: Option<String> = read.required(2);
            let created_at: Option<String> = read.required(3);
            let updated_at: Option<String> = read.required(4);
            let messages = read.list(5, true);
            let history = read.list(6, false);
            let system_prompt = read.optional(7);
            let tool_schemas = read.list(8, false);
            let background_tasks = read.list(9, false);
            let background_task_events = read.list(10, false);
            let background_job_groups = read.list(11, false);
            let background_job_group_events = read.list(12, false);
            let session_loops = read.list(13, false);
            let skill_activation_events = read.list(14, false);
            let memory_events = read.list(15, false);
            let used_memory_references = read.list(16, false);
            let context_references = read.list(17, false);
            let sandbox_snapshot_id = read.optional(18);
            let goal = read.optional(19);
            let plan = read.optional(20);
            let active_branch = read.optional(21);

            if let (Some(id), Some(expected)) = (&id, expected_id)
                && id != expected
            {
                read.push(foreign_id(prefix, id, expected, limits.echo));
            }
            let issues = read.listed();

            let (Some(id), Some(cwd), Some(created_at), Some(updated_at), Some(messages), true) =
                (id, cwd, created_at, updated_at, messages, issues.is_empty())
            else {
                unread_spans.append(&mut read.failed);
                unread_spans.extend(extra().map(|(_, span)| span.clone()));
                unread_spans.extend(unread().map(|(_, span)| span.clone()));
                return Err(issues);
            };
            // Members and elements that decoded only from their canonical text (a repeated name,
            // the earlier occurrence dropped): no decoder read their own text whole, and the
            // occurrence dropped may not be JSON.
            unread_spans.append(&mut read.failed);

            let mut kept = ValueMap::new();
            let mut unreadable = Vec::new();
            for (name, span) in extra() {
                match serde_json::from_str::<Value>(&text[span.clone()]) {
                    Ok(value) => drop(kept.insert(String::from(name), value)),
                    Err(error) => unreadable.push((member_path(prefix, name), error)),
                }
            }
            // Text that is not JSON is not a record, though no decoder read it.
            for (index, span) in unread() {
                if let Err(error) = serde_json::from_str::<IgnoredAny>(&text[span.clone()]) {
                    unreadable.push((member_path(prefix, RECORD_MEMBERS[index]), error));
                }
            }
            if !unreadable.is_empty() {
                unread_spans.extend(extra().map(|(_, span)| span.clone()));
                unread_spans.extend(unread().map(|(_, span)| span.clone()));
                for (path, error) in unreadable {
                    read.add(path, message(&error, read.limits.echo));
                }
                return Err(read.listed());
            }

            Ok(InteractiveSessionRecord {
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
                extra: kept,
            })
        }
    }

    /// The issue of a record whose `id` is not the id it is stored under; both ids are echoed
    /// at most `limit` bytes long.
    pub(crate) fn foreign_id(
        prefix: &str,
        id: &str,
        expected: &str,
        limit: usize,
    ) -> SessionRecordDecodeIssue {
        SessionRecordDecodeIssue::new(
            member_path(prefix, "id"),
            format!(
                "the record's id `{}` is not the id it is stored under (`{}`)",
                echoed(id, limit),
                echoed(expected, limit)
            ),
        )
    }

    fn member_path(prefix: &str, key: &str) -> String {
        if prefix.is_empty() {
            String::from(key)
        } else {
            format!("{prefix}.{key}")
        }
    }

    /// Collects the failures of one record's members.
    struct Members<'a> {
        /// The record's text.
        text: &'a str,
        /// The outline of each declared member (by index in [`RECORD_MEMBERS`]), when present.
        slots: [Option<&'a Node<'a>>; 22],
        prefix: &'a str,
        /// The issues listed so far, at most `limits.issues`.
        issues: Vec<SessionRecordDecodeIssue>,
        limits: &'a ReadLimits,
        /// How many issues were found past the listed ones.
        omitted: usize,
        /// The narrowing work still to spend (see [`NARROW_FLOOR`]), counted at the first
        /// failure.
        budget: Option<usize>,
        /// The spans of members and elements that failed (no decoder read them whole).
        failed: Vec<Range<usize>>,
    }

    impl<'a> Members<'a> {
        /// Whether another issue would still be listed (else it is only counted).
        fn listing(&self) -> bool {
            self.issues.len() < self.limits.issues.max(1)
        }

        /// Adds an issue: listed, its echoes cut, while fewer than the limit are; else counted.
        fn add(&mut self, path: String, message: String) {
            if self.listing() {
                let message = cut_echoes(message, self.limits.echo);
                self.push(SessionRecordDecodeIssue::new(path, message));
            } else {
                self.omitted += 1;
            }
        }

        /// Adds an issue whose echoes are already cut: listed while fewer than the limit are;
        /// else counted.
        fn push(&mut self, issue: SessionRecordDecodeIssue) {
            if self.listing() {
                self.issues.push(issue);
            } else {
                self.omitted += 1;
            }
        }

        /// The issues found, the listed ones and a last one that counts the rest.
        fn listed(&mut self) -> Vec<SessionRecordDecodeIssue> {
            let mut issues = core::mem::take(&mut self.issues);
            if self.omitted > 0 {
                issues.push(SessionRecordDecodeIssue::new(
                    self.prefix,
                    format!(
                        "{} more issues not listed (the read limit lists {})",
                        self.omitted,
                        issues.len()
                    ),
                ));
            }
            issues
        }

        /// The outline of a present member that is not `null`.
        fn present(&self, index: usize) -> Option<&'a Node<'a>> {
            self.slots[index].filter(|node| self.text.get(node.span.clone()) != Some("null"))
        }

        /// A required member; absent or failing, it adds an issue and gives `None`.
        fn required<T: DeserializeOwned>(&mut self, index: usize) -> Option<T> {
            let span = self.required_span(index)?;
            self.decode_member(index, span)
        }

        /// The span of a required member; absent, it adds the issue. Not generic.
        fn required_span(&mut self, index: usize) -> Option<Range<usize>> {
            let span = self.slots[index].map(|node| node.span.clone());
            if span.is_none() {
                self.missing(index);
            }
            span
        }

        /// An optional member: absent or `null` is `None`; a failing one adds an issue.
        fn optional<T: DeserializeOwned>(&mut self, index: usize) -> Option<T> {
            let span = self.present(index)?.span.clone();
            self.decode_member(index, span)
        }

        /// Decodes the member `index` from its text at `span`; on failure adds the issue.
        fn decode_member<T: DeserializeOwned>(
            &mut self,
            index: usize,
            span: Range<usize>,
        ) -> Option<T> {
            let (decoded, read_whole) = self.decode(index, None, None, span.clone());
            if !read_whole {
                self.failed.push(span);
            }
            decoded
        }

        /// A list member, element by element: absent is `None` (an issue when `required`),
        /// `null` too when it is not `required`.
        fn list<T: DeserializeOwned>(&mut self, index: usize, required: bool) -> Option<Vec<T>> {
            let (list, count) = self.elements(index, required)?;
            let before = (self.issues.len(), self.omitted);
            let mut decoded = Vec::new();
            // The outline counted the elements in its pass: the list is allocated when its first
            // element decodes, never grown by doubling (which holds the old and the new buffer
            // at once on a small heap). First for at most as many elements as the rest of the
            // text holds at the size of that first one: a count of elements of a byte or two
            // each is not a count of decoded values. Once that many have decoded, for all the
            // elements counted. A heap that cannot give a reservation grows the list as its
            // elements decode.
            let mut read_whole = true;
            for (at, element) in each_element(self.text, &list).enumerate() {
                let Some(Element { span, longest }) = element else {
                    // Broken text (the outline reads structure loosely): the list as a whole
                    // is left to the check that the text is JSON.
                    read_whole = false;
                    break;
                };
                let first = span.clone();
                let (element, whole) = self.decode(index, Some(at), Some(longest), span);
                read_whole &= whole;
                if let Some(element) = element {
                    if decoded.len() == decoded.capacity() {
                        let left = count.saturating_sub(at);
                        let wanted = if decoded.is_empty() {
                            Self::reservation(left, &list, &first)
                        } else {
                            left
                        };
                        let _ = decoded.try_reserve_exact(wanted);
                    }
                    decoded.push(element);
                }
            }
            if !read_whole {
                self.failed.push(list);
            }
            ((self.issues.len(), self.omitted) == before).then_some(decoded)
        }

        /// How many of the `left` elements of the list at `list` to reserve room for when the
        /// first of them decoded from `first`: at most as many as the rest of the text holds
        /// elements that long. Not generic.
        fn reservation(left: usize, list: &Range<usize>, first: &Range<usize>) -> usize {
            let room = (list.end.saturating_sub(first.start) / first.len().max(1)).max(1);
            left.min(room)
        }

        /// The span of a list member (see [`Members::list`]) and how many elements the outline
        /// counted in it; not a list, it adds the issue. Not generic.
        fn elements(&mut self, index: usize, required: bool) -> Option<(Range<usize>, usize)> {
            let node = if required {
                self.slots[index]
            } else {
                self.present(index)
            };
            let Some(node) = node else {
                if required {
                    self.missing(index);
                }
                return None;
            };
            if first_byte(self.text, &node.span) != b'[' {
                let message = format!(
                    "invalid type: {}, expected a sequence",
                    describe_text(self.text, &node.span, self.limits.echo)
                );
                let path = member_path(self.prefix, RECORD_MEMBERS[index]);
                self.add(path, message);
                self.failed.push(node.span.clone());
                return None;
            }
            Some((node.span.clone(), node.elements))
        }

        fn missing(&mut self, index: usize) {
            let key = RECORD_MEMBERS[index];
            self.add(
                member_path(self.prefix, key),
                format!("missing field `{key}`"),
            );
        }

        /// Decodes the member `index` (its element `at` for a list) from its text at `span`;
        /// on failure adds the issue. Also says whether the text was read whole (else only its
        /// canonical form was, or it failed).
        fn decode<T: DeserializeOwned>(
            &mut self,
            index: usize,
            at: Option<usize>,
            longest: Option<usize>,
            span: Range<usize>,
        ) -> (Option<T>, bool) {
            // The one generic part: a decode from a reader of the text, keeping what decodes.
            let mut decoded = None;
            let mut decodes = |reader: &mut Reader<'_>| {
                T::deserialize(ObjectsOnly(reader)).map(|value| decoded = Some(value))
            };
            match self.decoded(index, at, longest, span, &mut decodes) {
                Decoded::Whole => (decoded, true),
                Decoded::Canonical => (decoded, false),
                Decoded::Failed => (None, false),
            }
        }

        /// Whether the member `index` (its element `at` for a list) decodes from its text at
        /// `span` (then `decodes` kept the value). Else adds the issue. Not generic, so one copy
        /// serves every member type.
        ///
        /// Text with long strings is first read with them masked ([`masked`]): a failure is
        /// told from the masked text, and what decodes from it is read again from the text
        /// itself for its values. serde never refuses a long string here, so no error holds
        /// one whole. `longest`, when the caller's scan knows it (a list's elements), is the
        /// longest string's length, so text with none that long is not scanned again.
        fn decoded(
            &mut self,
            index: usize,
            at: Option<usize>,
            longest: Option<usize>,
            span: Range<usize>,
            decodes: &mut Decodes<'_>,
        ) -> Decoded {
            let Some(text) = self.text.get(span.clone()) else {
                return Decoded::Failed;
            };
            let echo = self.limits.echo;
            // Masked: what serde's refusal (about three times the string at once) would make
            // cost more than the record's own bytes, and that a cut would shorten.
            let long = MASKED.max(echo + 32).max(self.text.len() / 3);
            let masked = match longest {
                Some(longest) if longest <= long => None,
                _ => masked(text, long, echo),
            };
            let view = masked.as_deref().unwrap_or(text);
            let Some(error) = attempt_error(view, decodes) else {
                if masked.is_none() {
                    return Decoded::Whole;
                }
                drop(masked);
                return self.read_again(index, at, text, decodes, Decoded::Whole);
            };
            if !self.listing() && !may_repeat_a_name(view) {
                // Past the listed issues only the count is kept, and text with no repeated
                // name reads the same in canonical form: no second decode.
                self.omitted += 1;
                return Decoded::Failed;
            }
            // The message, cut, and the error dropped before anything else is built.
            let first = message(&error, echo);
            drop(error);
            // What a parse into a value reads: names sorted (serde reports the first failing
            // member it meets), the last of a repeated name kept.
            let mut root = String::with_capacity(view.len());
            if !canonical(view, &whole(view), &mut root) {
                root = String::from(view);
            }
            let failure = if root == view {
                Some(first)
            } else {
                attempt(&root, decodes, echo)
            };
            match failure {
                None if masked.is_none() => Decoded::Canonical,
                None => {
                    // The masked canonical form decodes: the text's own, for its values.
                    drop((root, masked));
                    let mut own = String::with_capacity(text.len());
                    if !canonical(self.text, &span, &mut own) {
                        own = String::from(text);
                    }
                    self.read_again(index, at, &own, decodes, Decoded::Canonical)
                }
                Some(message) => {
                    self.failed(index, at, &root, message, decodes);
                    Decoded::Failed
                }
            }
        }

        /// Reads again, for its values, `text` whose masked form decoded: `then` when it
        /// decodes too, else (a decoder that reads a long string's contents refused one) the
        /// issue.
        fn read_again(
            &mut self,
            index: usize,
            at: Option<usize>,
            text: &str,
            decodes: &mut Decodes<'_>,
            then: Decoded,
        ) -> Decoded {
            match attempt(text, decodes, self.limits.echo) {
                None => then,
                Some(message) => {
                    self.failed(index, at, text, message, decodes);
                    Decoded::Failed
                }
            }
        }

        /// Adds the issue of a member (or element) whose canonical text `root` failed with
        /// `message`, narrowed below it as far as the budget allows (`decodes` is a trial
        /// decode of the same type). Not generic, so one copy serves every member type.
        fn failed(
            &mut self,
            index: usize,
            at: Option<usize>,
            root: &str,
            message: String,
            decodes: &mut Decodes<'_>,
        ) {
            if !self.listing() {
                // Past the listed issues only the count is kept: no narrowing work.
                self.omitted += 1;
                return;
            }
            let text = self.text;
            let left = self.budget.get_or_insert_with(|| {
                NARROW_FLOOR + weight(text, &whole(text), usize::MAX).unwrap_or(0) / NARROW_SHARE
            });
            let steps = narrow(root, &message, decodes, left, self.limits.echo);
            let mut path = member_path(self.prefix, RECORD_MEMBERS[index]);
            if let Some(at) = at {
                path.push_str(&format!("[{at}]"));
            }
            let path = render(path, &steps, self.limits.echo);
            self.add(path, message);
        }
    }

    /// Whether some object of `text` (valid JSON) may hold a name twice: it holds two members
    /// or more. Cheap and conservative (a colon outside strings starts each member).
    fn may_repeat_a_name(text: &str) -> bool {
        let bytes = text.as_bytes();
        let mut colons = 0;
        let mut at = 0;
        while let Some(&byte) = bytes.get(at) {
            match byte {
                b'"' => {
                    match super::json_text::skip_quoted(bytes.get(at + 1..).unwrap_or_default()) {
                        Some(rest) => at = bytes.len() - rest.len(),
                        None => return true,
                    }
                }
                b':' => {
                    colons += 1;
                    if colons > 1 {
                        return true;
                    }
                    at += 1;
                }
                _ => at += 1,
            }
        }
        false
    }

    /// How a member's text decoded.
    enum Decoded {
        /// Its own text, whole.
        Whole,
        /// Only its canonical form (a repeated name dropped): its own text was not read whole.
        Canonical,
        /// Not at all (the issue is added).
        Failed,
    }

    // ---- narrowing an issue below a failing value ----------------------------------------

    /// One step of a path below a failing value.
    enum Step {
        Member(String),
        Element(usize),
    }

    fn render(mut path: String, steps: &[Step], limit: usize) -> String {
        for step in steps {
            match step {
                Step::Member(key) => {
                    path.push('.');
                    path.push_str(&echoed(key, limit));
                }
                Step::Element(index) => path.push_str(&format!("[{index}]")),
            }
        }
        path
    }

    /// The span of the value at `steps` below the root text.
    fn at(root: &str, steps: &[Step]) -> Option<Range<usize>> {
        let mut span = whole(root);
        for step in steps {
            span = match step {
                Step::Member(key) => {
                    members(root, &span)?
                        .into_iter()
                        .rev()
                        .find(|member| member.name == key.as_str())?
                        .value
                }
                Step::Element(index) => elements(root, &span)?.into_iter().nth(*index)?,
            };
        }
        Some(span)
    }

    /// Trial decodes of one failing root, each costing the root's [`weight`] from the budget;
    /// each trial's text is built in one buffer.
    struct Trials<'a> {
        root: &'a str,
        decodes: &'a mut Decodes<'a>,
        /// The echo limit the trials' messages are cut to, as the failure's message was.
        echo: usize,
        /// The root's weight; `None` when it is more than the whole budget left.
        cost: Option<usize>,
        left: &'a mut usize,
        buffer: String,
    }

    impl Trials<'_> {
        /// Whether `count` more trials fit in the budget (a level is tried whole or not at
        /// all).
        fn afford(&self, count: usize) -> bool {
            self.cost
                .is_some_and(|cost| cost.saturating_mul(count) <= *self.left)
        }

        /// One trial decode of the root without the text at `cut`: `None` once the budget is
        /// spent, else the trial's error (if any).
        fn run(&mut self, cut: Range<usize>) -> Option<Option<String>> {
            *self.left = self.left.checked_sub(self.cost?)?;
            self.buffer.clear();
            self.buffer.push_str(self.root.get(..cut.start)?);
            self.buffer.push_str(self.root.get(cut.end..)?);
            Some(attempt(&self.buffer, self.decodes, self.echo))
        }
    }

    /// Finds, below `root` (the canonical text of a value that fails to decode with
    /// `message`), the member or element that makes it fail, as far as that can be told by
    /// taking things away.
    ///
    /// A member is blamed when removing it makes the value decode, or turns the error into
    /// "missing field" for that very member (a required one). Several members can qualify (a
    /// tag such as `role` does too); the one whose value the error message quotes then wins,
    /// and with no single winner the path stops. An element is blamed when it is the first
    /// whose inclusion makes a prefix of the list fail (found by bisection; when the empty list
    /// fails too, the list itself is to blame). The value's own missing member is named last.
    ///
    /// Every trial decodes the whole root (its text with one member or a list's tail left out,
    /// built in one reusable buffer) and costs its [`weight`] from `left`; when that is spent
    /// the path stops where it is.
    fn narrow(
        root: &str,
        message: &str,
        decodes: &mut Decodes<'_>,
        left: &mut usize,
        echo: usize,
    ) -> Vec<Step> {
        if root.len() > NARROW_BYTES {
            return Vec::new();
        }
        let mut trials = Trials {
            root,
            decodes,
            echo,
            cost: weight(root, &whole(root), *left),
            left,
            buffer: String::new(),
        };
        let mut steps = Vec::new();
        for _ in 0..NARROW_DEPTH {
            let Some(span) = at(root, &steps) else { break };
            let next = match first_byte(root, &span) {
                b'{' => blame_member(&span, message, &mut trials),
                b'[' => blame_element(&span, &mut trials),
                _ => None,
            };
            match next {
                Some(step) => steps.push(step),
                None => break,
            }
        }
        if let Some(span) = at(root, &steps)
            && let Some(written) = members(root, &span)
            && let Some(missing) = missing_field(message)
            && !written.iter().any(|member| member.name == missing)
        {
            steps.push(Step::Member(String::from(missing)));
        }
        steps
    }

    fn missing_field(message: &str) -> Option<&str> {
        message.strip_prefix("missing field `")?.split('`').next()
    }

    fn blame_member(span: &Range<usize>, message: &str, trials: &mut Trials<'_>) -> Option<Step> {
        let root = trials.root;
        let written = members(root, span)?;
        if written.len() > NARROW_MEMBERS || !trials.afford(written.len()) {
            return None;
        }
        let mut cleared = Vec::new();
        let mut required = Vec::new();
        for (index, member) in written.iter().enumerate() {
            match trials.run(without_member(&written, index)?)? {
                None => cleared.push(member),
                Some(error) if missing_field(&error) == Some(&*member.name) => {
                    required.push(member);
                }
                Some(_) => {}
            }
        }
        let quoted = |member: &&Member<'_>| quotes(message, root, &member.value, trials.echo);
        let chosen = match cleared.as_slice() {
            [only] => Some(*only),
            [] => single(required.iter().copied().filter(quoted)),
            several => single(several.iter().copied().filter(quoted)),
        };
        chosen.map(|member| Step::Member(member.name.clone().into_owned()))
    }

    fn single<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
        let first = items.next()?;
        items.next().is_none().then_some(first)
    }

    fn blame_element(span: &Range<usize>, trials: &mut Trials<'_>) -> Option<Step> {
        let spans = elements(trials.root, span)?;
        // Prefix lengths known to decode and known to fail (the whole list fails).
        let (mut decodes, mut fails) = (0, spans.len());
        // The empty prefix, then one bisection step per bit of `fails - 1`.
        let needed = 1 + (usize::BITS - fails.saturating_sub(1).leading_zeros()) as usize;
        if fails == 0 || !trials.afford(needed) || trials.run(beyond(&spans, 0)?)?.is_some() {
            return None;
        }
        while fails - decodes > 1 {
            let middle = decodes + (fails - decodes) / 2;
            if trials.run(beyond(&spans, middle)?)?.is_some() {
                fails = middle;
            } else {
                decodes = middle;
            }
        }
        Some(Step::Element(fails - 1))
    }

    /// True when serde's `message` (its echoes cut to `echo` bytes) quotes the value at `span`
    /// of `text` (as "integer `5`", "string \"x\"", "unknown variant `x`", …).
    fn quotes(message: &str, text: &str, span: &Range<usize>, echo: usize) -> bool {
        match first_byte(text, span) {
            b'[' => message.contains("sequence"),
            b'{' => message.contains("map"),
            _ => match text.get(span.clone()).map(serde_json::from_str::<Value>) {
                Some(Ok(Value::Null)) => message.contains("null") || message.contains("unit value"),
                Some(Ok(Value::Bool(flag))) => message.contains(&format!("`{flag}`")),
                Some(Ok(Value::Number(number))) => message.contains(&format!("`{number}`")),
                Some(Ok(Value::String(text))) => {
                    // As a message quotes it, cut (a string the text masked is cut already).
                    message.contains(&cut_echoes(format!("`{text}`"), echo))
                        || message.contains(&cut_echoes(format!("\"{text}\""), echo))
                }
                _ => false,
            },
        }
    }

    /// How serde names the type of the value at `span` of `text` in "invalid type" messages, a
    /// string cut to `echo` bytes as [`cut_echoes`] cuts it. A string is read borrowed where it
    /// can be and cut as it is written: describing it costs no copy of it.
    pub(crate) fn describe_text(text: &str, span: &Range<usize>, echo: usize) -> String {
        let Some(value) = text.get(span.clone()) else {
            return String::from("an unreadable value");
        };
        match first_byte(text, span) {
            b'[' => String::from("sequence"),
            b'{' => String::from("map"),
            b'"' => match serde_json::from_str::<&str>(value) {
                Ok(borrowed) => describe_string(borrowed, echo),
                Err(_) => match serde_json::from_str::<String>(value) {
                    Ok(owned) => describe_string(&owned, echo),
                    Err(_) => String::from("an unreadable value"),
                },
            },
            _ => match serde_json::from_str::<Value>(value) {
                Ok(value) => describe(&value, echo),
                Err(_) => String::from("an unreadable value"),
            },
        }
    }

    /// How serde names a value's type in "invalid type" messages, a string cut to `echo` bytes.
    pub(crate) fn describe(value: &Value, echo: usize) -> String {
        match value {
            Value::Null => String::from("null"),
            Value::Bool(flag) => format!("boolean `{flag}`"),
            Value::Number(number) if number.is_f64() => format!("floating point `{number}`"),
            Value::Number(number) => format!("integer `{number}`"),
            Value::String(text) => describe_string(text, echo),
            Value::Array(_) => String::from("sequence"),
            Value::Object(_) => String::from("map"),
        }
    }

    /// A string as serde names it (`string "…"`, escaped), cut to `echo` bytes as it is
    /// written.
    fn describe_string(text: &str, echo: usize) -> String {
        let mut cut = CutEchoes::new(String::new(), echo);
        let written = write!(cut, "string {text:?}");
        written
            .and_then(|()| cut.finish())
            .unwrap_or_else(|_| String::from("a string"))
    }
}

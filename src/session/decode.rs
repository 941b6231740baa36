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
//! [`InteractiveSessionRecord`] and of [`SessionLoadOutcome`]: one member decoder that reports
//! every failing member with its path, narrowing an issue below a failing element within a
//! bounded budget. The record codec decodes through the same member decoder (crate-private), so
//! a record read from a payload and a record read from a store agree on every rule. Why it is
//! built this way is recorded in `docs/decisions/session-record-codec.md`.

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

#[cfg(feature = "serde")]
use serde::de::DeserializeOwned;

#[cfg(feature = "serde")]
use crate::agent_core::{Value, ValueMap};

/// Every member the record declares, by wire name; any other member goes to `extra`.
#[cfg(feature = "serde")]
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
#[cfg(feature = "serde")]
pub(crate) const RECORD: &str = "record";

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

/// Decodes a record from its members as serde reads any other value, through the same member
/// decoding as the record codec's decoder (so both agree on every rule). Hand-written rather than
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

/// What the record codec's locating path need not decode of a record, because its fast path
/// decoded it from
/// the text before it gave up: whole members (a bit per index in [`RECORD_MEMBERS`]), and the
/// first elements of one list member (its index, how many). Always empty, and empty of fields,
/// on bare metal (no fast path there).
#[cfg(feature = "serde")]
#[derive(Clone, Copy)]
pub(crate) struct Skip {
    #[cfg(not(target_os = "none"))]
    pub(crate) members: u32,
    #[cfg(not(target_os = "none"))]
    pub(crate) list: (usize, usize),
}

#[cfg(feature = "serde")]
impl Skip {
    pub(crate) const NONE: Self = Self {
        #[cfg(not(target_os = "none"))]
        members: 0,
        #[cfg(not(target_os = "none"))]
        list: (0, 0),
    };

    #[cfg(target_os = "none")]
    pub(crate) const fn any(self) -> bool {
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
    pub(crate) const fn any(self) -> bool {
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
pub(crate) fn decode_members(
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
pub(crate) fn foreign_id(prefix: &str, id: &str, expected: &str) -> SessionRecordDecodeIssue {
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
pub(crate) fn describe(value: &Value) -> String {
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

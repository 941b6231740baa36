//! Cases of the `session` family's persistence: the resumable record, the load outcomes and the
//! listing a store answers with, the store port, and the pure decoder and encoder of the stored
//! envelope (catalog §10 items 16 and 17). Uses only `core`, `alloc`, serde_json and the crate,
//! so it also runs on the firmware and wasm.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt;
use core::future::Future;
use core::task::{Context, Poll, Waker};

use agent_interface::agent_core::{ReadLimits, UniversalMessage, Value};
use agent_interface::runtime::record_codec::{
    decode_session_record, decode_session_record_within, encode_session_record,
};
use agent_interface::session::records::{
    ContentProvenance, CrossStoreToken, DigestAlgorithm, InteractiveSessionRecord,
    InteractiveSessionStore, LoadPurpose, LockedReason, RaiseOutcome, RecordOwner,
    SESSION_RECORD_SCHEMA_VERSION, SaveOutcome, SavePurpose, SaveRefusal, SessionListEntry,
    SessionLoadOutcome, SessionLoadStatus, SessionRecordDecodeIssue, SessionRecordDecodeOutcome,
    SessionStoreListing,
};

use crate::support::{from_json, golden, rejects, to_json};

#[path = "seeded.rs"]
mod seeded;

use seeded::Seeded;

// Firmware note: decoding a record links the decoders of every member type (with the encoder,
// 170,196 bytes of the Cortex-M3's 256 KiB in the size report's `record_codec` consumer), and
// `Debug` of a record about 40 KB more. So each part touches as little as it can: `rules` never
// decodes or encodes a record, `decoding` never encodes one, only `refusals` (whose `rejects`
// prints the value it did not expect) formats a record-holding value, and every other part compares
// with `==` and reports statuses and paths, never whole records. `decoding_properties`, which holds
// the decoder to a parse on random records, is apart from `decoding` so that `decoding` fits the
// LM3S6965 (it needs the larger board's heap itself). Image sizes: the firmware step of
// scripts/test.sh prints them.

const RECORD_FULL: &str = include_str!("../golden/session/records/record_full.json");
const RECORD_MINIMAL: &str = include_str!("../golden/session/records/record_minimal.json");
const RECORD_EXTRA: &str = include_str!("../golden/session/records/record_extra_fields.json");
const STORED_ENVELOPE: &str = include_str!("../golden/session/records/stored_envelope.json");

/// Asserts that every literal of a set survives `as_str` -> serde -> `from_literal` unchanged.
macro_rules! literal_round_trip {
    ($ty:ty, $literals:expr) => {{
        assert_eq!(<$ty>::LITERALS, $literals);
        assert_eq!(<$ty>::ALL.len(), <$ty>::LITERALS.len());
        for (value, literal) in <$ty>::ALL.iter().zip(<$ty>::LITERALS) {
            assert_eq!(<$ty>::from_literal(literal), Some(*value));
            assert_eq!(to_json(value), Value::String(String::from(*literal)));
            let back: $ty = from_json(&to_json(value)).expect("a literal decodes");
            assert_eq!(back, *value);
        }
    }};
}

fn s(text: &str) -> String {
    String::from(text)
}

/// Runs a future that completes without waiting (every store double here is ready at once).
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = core::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..8 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
    panic!("a test future did not complete");
}

/// The minimal record of the golden files (`sess-2`).
fn minimal() -> InteractiveSessionRecord {
    InteractiveSessionRecord::new(
        "sess-2",
        "/work/app",
        "2026-09-24T10:00:00Z",
        "2026-09-24T10:00:00Z",
    )
}

/// One of each of the five outcomes.
fn five_outcomes() -> [SessionLoadOutcome; 5] {
    [
        SessionLoadOutcome::valid(minimal()),
        SessionLoadOutcome::Missing,
        SessionLoadOutcome::Corrupt {
            issues: vec![SessionRecordDecodeIssue::new("", "not JSON")],
            cwd: None,
        },
        SessionLoadOutcome::Unsupported {
            schema_version: Some(2),
            cwd: None,
        },
        SessionLoadOutcome::Locked {
            reason: LockedReason::KeysLocked,
        },
    ]
}

/// A scan of six stored records, three of them locked, collected into a listing.
fn sample_listing() -> SessionStoreListing {
    let entry = |id: &str, outcome: SessionLoadOutcome| SessionListEntry { id: s(id), outcome };
    let locked = |reason: LockedReason| SessionLoadOutcome::Locked { reason };
    vec![
        entry("sess-2", SessionLoadOutcome::valid(minimal())),
        entry("sess-l1", locked(LockedReason::NoKeys)),
        entry(
            "sess-5",
            SessionLoadOutcome::Unsupported {
                schema_version: Some(7),
                cwd: None,
            },
        ),
        entry("sess-l2", locked(LockedReason::KeysLocked)),
        entry(
            "sess-6",
            SessionLoadOutcome::Corrupt {
                issues: vec![SessionRecordDecodeIssue::new(
                    "record.messages",
                    "invalid type: integer `5`, expected a sequence",
                )],
                cwd: Some(s("/work/old")),
            },
        ),
        entry("sess-l3", locked(LockedReason::HeldFileChanged)),
    ]
    .into_iter()
    .collect()
}

// ---- decoding helpers ----------------------------------------------------------------------

/// The stored envelope around `record` (JSON text of a record).
fn envelope(record: &str) -> Vec<u8> {
    // `concat` allocates the exact length; `format!` may leave twice it, which a long record on
    // the board's 40 KiB heap cannot spare.
    [r#"{"schemaVersion":1,"record":"#, record, "}"]
        .concat()
        .into_bytes()
}

/// The stored envelope of a record `sess-1` whose other members are `members` (which must name
/// `messages` unless the case is about its absence).
fn stored(members: &str) -> Vec<u8> {
    envelope(
        &[
            r#"{"id":"sess-1","cwd":"/work/app","createdAt":"2026-09-24T10:00:00Z","#,
            r#""updatedAt":"2026-09-24T10:05:00Z","#,
            members,
            "}",
        ]
        .concat(),
    )
}

fn user(id: &str, timestamp: &str) -> String {
    format!(
        "{{\"role\":\"user\",\"id\":\"{id}\",\"timestamp\":{timestamp},\"state\":\"complete\",\
         \"content\":\"hi\"}}"
    )
}

/// Asserts that `text` does not decode as `T` and that the error mentions `needle`, without
/// formatting a decoded value (see the firmware note above).
fn refuses<T: serde::de::DeserializeOwned>(text: &str, needle: &str) {
    match serde_json::from_str::<T>(text) {
        Ok(_) => panic!("expected a decode error for {text}"),
        Err(error) => {
            let message = alloc::string::ToString::to_string(&error);
            assert!(
                message.contains(needle),
                "`{message}` does not mention `{needle}`"
            );
        }
    }
}

/// Decodes `bytes` as stored under `sess-1`, as a store reports it.
fn load(bytes: &[u8]) -> SessionLoadOutcome {
    decode_session_record(bytes, "sess-1").into()
}

fn corrupt_paths(outcome: &SessionLoadOutcome) -> Vec<&str> {
    assert_eq!(
        outcome.status(),
        SessionLoadStatus::Corrupt,
        "expected corrupt"
    );
    assert!(!outcome.issues().is_empty(), "corrupt without issues");
    outcome
        .issues()
        .iter()
        .map(|issue| issue.path.as_str())
        .collect()
}

/// The full golden record, decoded through the stored envelope.
fn full_record() -> InteractiveSessionRecord {
    match decode_session_record(&envelope(RECORD_FULL), "sess-1") {
        SessionRecordDecodeOutcome::Valid { record } => *record,
        _ => panic!("the full golden record does not decode"),
    }
}

/// A tiny xorshift generator: the mutation loop needs no rand crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            0
        } else {
            (self.next() % bound as u64) as usize
        }
    }
}

// ---- the decoder against a parse -----------------------------------------------------------

/// The members of a random valid record `sess-1`, as (key, JSON value) pairs in written order:
/// every role of message (tool calls, parts, metadata, unknown members in typed members), the
/// optional members at random (some as `null`), unknown record members.
fn random_members(rng: &mut Seeded) -> Vec<(String, String)> {
    let mut messages = Vec::new();
    for index in 0..rng.below(4) {
        let base = format!(
            r#""id":"m{index}","timestamp":"2026-09-24T10:00:0{index}Z","state":"complete""#
        );
        let extra = match rng.below(4) {
            0 => r#","metadata":{"score":0.25,"tags":["a","b"],"n":-3}"#,
            1 => {
                r#","parts":[{"type":"text","text":"hi\n\"there\""},{"type":"image_uri","uri":"file:///a.png"}]"#
            }
            2 => r#","x-note":{"kept":[1,2.5,"\u00e9"]}"#,
            _ => "",
        };
        messages.push(match rng.below(4) {
            0 => format!(r#"{{"role":"user",{base},"content":"Split it.\t\u0041"{extra}}}"#),
            1 => format!(
                r#"{{"role":"assistant",{base},"content":null{extra},"toolCalls":[{{"id":"c{index}","type":"function","function":{{"name":"read_file","arguments":"{{\"path\":\"a.rs\"}}","x-ignored":[{{"deep":[null,true]}}]}}}}]}}"#
            ),
            2 => format!(r#"{{"role":"system",{base},"content":"Be careful."{extra}}}"#),
            _ => format!(
                r#"{{"role":"tool",{base},"content":"fn main() {{}}\n","toolCallId":"c{index}","name":"read_file"{extra}}}"#
            ),
        });
    }
    let mut members = vec![
        (s("id"), s(r#""sess-1""#)),
        (s("cwd"), s(r#""/work/app""#)),
        (s("createdAt"), s(r#""2026-09-24T10:00:00Z""#)),
        (s("updatedAt"), s(r#""2026-09-24T10:05:00Z""#)),
        (s("messages"), format!("[{}]", messages.join(","))),
    ];
    let optional: [(&str, &str); 16] = [
        ("name", r#""parser split""#),
        (
            "history",
            r#"[{"id":"h1","timestamp":"t","category":"chat","type":"user","data":{"text":"Split it.","ratio":0.5,"list":[[],{}]}},{"id":"h2","timestamp":"t","category":"event","type":"tool"}]"#,
        ),
        ("systemPrompt", r#""You are careful.""#),
        (
            "toolSchemas",
            r#"[{"name":"read_file","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]"#,
        ),
        (
            "backgroundTasks",
            r#"[{"id":"task-5","kind":"process","label":"build","status":"queued","mode":"foreground","parentSessionId":"sess-1","depth":0,"cwd":"/work/app","commandPreview":"cargo build","updatedAt":"2026-09-24T11:00:00Z","unread":false}]"#,
        ),
        (
            "backgroundTaskEvents",
            r#"[{"type":"background_task_closed","taskId":"task-5"}]"#,
        ),
        (
            "sessionLoops",
            r#"[{"loopId":"loop-2","instruction":"","useDefaultPrompt":true,"createdAt":"t","expiresAt":"t","revision":5,"generation":3,"phase":"pending","delaySeconds":600,"fallbackUsed":false}]"#,
        ),
        (
            "memoryEvents",
            r#"[{"type":"memory_retrieved","at":"t","topic":"build commands"}]"#,
        ),
        (
            "usedMemoryReferences",
            r#"[{"topic":"build","path":"memory/build.md","score":0.87,"truncated":false}]"#,
        ),
        (
            "contextReferences",
            r#"[{"id":"ref-2","sourcePath":"/a","relativePath":"a","originalReference":"a","loadType":"system","status":"active","byteLength":2048,"loadedAt":"t"}]"#,
        ),
        ("sandboxSnapshotId", r#""snap-7""#),
        (
            "goal",
            r#"{"id":"goal-1","objective":"Pass","status":"active","iterations":1,"maxIterations":25,"startedAt":"t","progress":[{"iteration":1,"signal":"continue","reason":"3 fail"}]}"#,
        ),
        (
            "plan",
            r#"{"id":"plan-1","objective":"Split","steps":[{"id":"s1","description":"Lex","status":"pending"}],"phase":"awaiting-approval","createdAt":"t"}"#,
        ),
        (
            "activeBranch",
            r#"{"branchId":"branch-2","checkpointId":"turn-0002"}"#,
        ),
        ("pinnedBy", r#""alice""#),
        ("uiState", r#"{"scroll":12.75,"open":[true,false,null]}"#),
    ];
    for (key, value) in optional {
        // Few members at once: the firmware's heap is 40 KiB.
        match rng.below(4) {
            0 => members.push((s(key), s(value))),
            1 if rng.chance(1, 3) => members.push((s(key), s("null"))),
            _ => {}
        }
    }
    // Shuffle the written order (Fisher-Yates).
    for index in (1..members.len()).rev() {
        members.swap(index, rng.below(index as u64 + 1) as usize);
    }
    members
}

/// The stored envelope of `members` (written in order).
fn envelope_of(members: &[(String, String)]) -> Vec<u8> {
    let body: Vec<String> = members
        .iter()
        .map(|(key, value)| format!("\"{key}\":{value}"))
        .collect();
    envelope(&format!("{{{}}}", body.join(",")))
}

/// Nesting deeper than a parse accepts (128). The Cortex-M3's stack cannot hold a parse that
/// deep, so it nests 20 there.
#[cfg(not(target_os = "none"))]
const DEEP: usize = 130;
#[cfg(target_os = "none")]
const DEEP: usize = 20;

/// Values a mutation writes: of every JSON type, and the three that a skipped value gets away
/// with but a parse refuses (a lone surrogate, an overflowing number, deep nesting).
fn odd_value(rng: &mut Seeded) -> String {
    match rng.below(10) {
        0 => s("5"),
        1 => s(r#""x""#),
        2 => s("null"),
        3 => s("[]"),
        4 => s("{}"),
        5 => s(r#""\ud800""#),
        6 => s("1e400"),
        7 => format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP)),
        8 => s(r#""\ud83d\ude00 1e5""#),
        _ => s("1.5e3"),
    }
}

/// Mutates a valid record: a byte, a truncation, a member's value or type, a repeated or an
/// unknown member (at the record or inside a member), the version.
fn mutate(rng: &mut Seeded, members: &mut Vec<(String, String)>) -> Vec<u8> {
    let index = rng.below(members.len() as u64) as usize;
    match rng.below(8) {
        0 => {
            let value = odd_value(rng);
            if let Some(member) = members.get_mut(index) {
                member.1 = value;
            }
        }
        1 => {
            if let Some(member) = members.get(index).cloned() {
                let value = if rng.chance(1, 2) {
                    odd_value(rng)
                } else {
                    member.1.clone()
                };
                let at = rng.below(members.len() as u64 + 1) as usize;
                members.insert(at, (member.0, value));
            }
        }
        2 => {
            let key = *rng.pick(&["x-new", "id", "messages", "goal", "name", "history"]);
            let value = odd_value(rng);
            members.push((s(key), value));
        }
        3 => {
            // An unknown or repeated member inside a member's object (a message, a tool call,
            // a goal…): after a random `{` of its value.
            if let Some(member) = members.get_mut(index) {
                let opens: Vec<usize> = member.1.match_indices('{').map(|(at, _)| at + 1).collect();
                if !opens.is_empty() {
                    let at = *rng.pick(&opens);
                    let key = *rng.pick(&["x-odd", "id", "role", "timestamp", "name", "type"]);
                    let value = odd_value(rng);
                    member.1.insert_str(at, &format!("\"{key}\":{value},"));
                }
            }
        }
        _ => {}
    }
    let mut bytes = envelope_of(members);
    match rng.below(6) {
        0 => bytes.truncate(rng.below(bytes.len() as u64) as usize),
        1 => {
            let at = rng.below(bytes.len() as u64) as usize;
            let alphabet = b"{}[]\",:0\\\xffe-";
            if let Some(byte) = bytes.get_mut(at) {
                *byte = *rng.pick(alphabet);
            }
        }
        2 => {
            let version = *rng.pick(&["2", "1.0", "\"1\"", "-1", "1e0", "null"]);
            let text = String::from_utf8(bytes).expect("the generator writes UTF-8");
            bytes = text
                .replacen(
                    "\"schemaVersion\":1",
                    &format!("\"schemaVersion\":{version}"),
                    1,
                )
                .into_bytes();
        }
        _ => {}
    }
    bytes
}

/// What the decoder must answer for `bytes` by another route: parse them into a `Value`, check
/// the envelope, and deserialize the record from the `Value` with its own `Deserialize` (which
/// reads no stored text: a parse has dropped repeated names, sorted members and read numbers).
/// Corrupt issues are compared whole (paths and messages) but for a parse's own error, where
/// only the path (the document) is.
fn by_a_parse(bytes: &[u8], stored_id: &str) -> SessionRecordDecodeOutcome {
    let corrupt =
        |path: &str, message: &str, cwd: Option<String>| SessionRecordDecodeOutcome::Corrupt {
            issues: vec![SessionRecordDecodeIssue::new(path, message)],
            cwd,
        };
    let Ok(document) = serde_json::from_slice::<Value>(bytes) else {
        return corrupt("", "not JSON", None);
    };
    let Value::Object(mut envelope) = document else {
        return corrupt("", "not an object", None);
    };
    let cwd = envelope
        .get("record")
        .and_then(|record| record.get("cwd"))
        .or_else(|| envelope.get("cwd"))
        .and_then(Value::as_str)
        .map(String::from);
    let version = match envelope.get("schemaVersion") {
        None => return corrupt("schemaVersion", "missing field `schemaVersion`", cwd),
        Some(version) => version.as_i64().or_else(|| {
            version
                .as_f64()
                .filter(|v| {
                    (-9_007_199_254_740_992.0..=9_007_199_254_740_992.0).contains(v)
                        && (*v as i64) as f64 == *v
                })
                .map(|v| v as i64)
        }),
    };
    if version != Some(1) {
        return SessionRecordDecodeOutcome::Unsupported {
            schema_version: version,
            cwd,
        };
    }
    // Taken out of the envelope and read by value: read by reference, serde_json copies every
    // string of the record, a second copy the small board's heap has no room for.
    let record = match envelope.remove("record") {
        Some(record @ Value::Object(_)) => record,
        Some(_) => return corrupt("record", "not an object", cwd),
        None => return corrupt("record", "missing field `record`", cwd),
    };
    drop(envelope);
    match <InteractiveSessionRecord as serde::Deserialize>::deserialize(record) {
        Ok(record) if record.id == stored_id => SessionRecordDecodeOutcome::Valid {
            record: alloc::boxed::Box::new(record),
        },
        Ok(record) => corrupt(
            "record.id",
            &format!(
                "the record's id `{}` is not the id it is stored under (`{stored_id}`)",
                record.id
            ),
            cwd,
        ),
        Err(error) => corrupt("record", &format!("{error}"), cwd),
    }
}

/// How deep arrays and objects nest in `bytes` (outside strings; the document is level 0).
fn nesting_of(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0_usize, 0, false, false);
    for &byte in bytes {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Asserts that the decoder answers what [`by_a_parse`] answers: valid with the same record,
/// unsupported with the same version, corrupt with the same issues (all of them, in order).
fn assert_same_outcome(bytes: &[u8], stored_id: &str, seed: u64, round: u64) -> SessionLoadStatus {
    let outcome = decode_session_record(bytes, stored_id);
    let status = outcome.status();
    let text = String::from_utf8_lossy(bytes);
    if nesting_of(bytes) > ReadLimits::DEFAULT.depth {
        // Deeper than the read limit: refused before any parse, with one located issue.
        let issues = match &outcome {
            SessionRecordDecodeOutcome::Corrupt { issues, .. } => issues.as_slice(),
            _ => &[],
        };
        assert_eq!(
            issues.len(),
            1,
            "seed {seed:#x} round {round}: {issues:?} for {text}"
        );
        assert!(
            issues[0].message.starts_with(&format!(
                "nesting deeper than {} levels",
                ReadLimits::DEFAULT.depth
            )),
            "seed {seed:#x} round {round}: {issues:?} for {text}"
        );
        return status;
    }
    let expected = by_a_parse(bytes, stored_id);
    match (&outcome, &expected) {
        (
            SessionRecordDecodeOutcome::Corrupt { issues, cwd },
            SessionRecordDecodeOutcome::Corrupt {
                issues: wanted,
                cwd: wanted_cwd,
            },
        ) => {
            let wanted = &wanted[0];
            if wanted.path == "record"
                && !wanted.message.contains("not an object")
                && !wanted.message.starts_with("missing")
            {
                // The record's own error names every issue as `path: message; …`, without the
                // foreign id (it knows no stored id) and without the `record.` prefix.
                let rendered: Vec<String> = issues
                    .iter()
                    .filter(|issue| {
                        !(issue.path == "record.id" && issue.message.starts_with("the record's id"))
                    })
                    .map(|issue| {
                        format!(
                            "{}: {}",
                            issue.path.strip_prefix("record.").unwrap_or(&issue.path),
                            issue.message
                        )
                    })
                    .collect();
                assert_eq!(
                    rendered.join("; "),
                    wanted.message,
                    "seed {seed:#x} round {round}: {text}"
                );
            } else {
                assert_eq!(
                    issues[0].path, wanted.path,
                    "seed {seed:#x} round {round}: {issues:?} for {text}"
                );
                if !wanted.path.is_empty() {
                    assert_eq!(
                        issues.len(),
                        1,
                        "seed {seed:#x} round {round}: {issues:?} for {text}"
                    );
                }
                if wanted.path == "record.id" || wanted.message.starts_with("missing") {
                    assert_eq!(
                        issues[0].message, wanted.message,
                        "seed {seed:#x} round {round}: {text}"
                    );
                }
            }
            if !wanted.path.is_empty() {
                assert_eq!(cwd, wanted_cwd, "seed {seed:#x} round {round}: {text}");
            }
        }
        _ => assert!(
            outcome == expected,
            "seed {seed:#x} round {round}: the decoder answers {status:?}, a parse {:?} for {text}",
            expected.status(),
        ),
    }
    status
}

// ---- a store double over bytes -------------------------------------------------------------

/// What the memory store holds under one id: bytes it decodes, or a sealed record it cannot open.
#[derive(Clone, Debug, PartialEq)]
enum Slot {
    Bytes(Vec<u8>),
    Sealed(LockedReason),
}

/// The error of the store double (it never fails to reach its map).
#[derive(Debug, PartialEq, Eq)]
struct Unreachable;

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("storage unreachable")
    }
}

impl core::error::Error for Unreachable {}

/// A record store over an in-memory map of bytes, built on the crate's decoder and encoder.
#[derive(Default)]
struct MemoryStore {
    slots: RefCell<BTreeMap<String, Slot>>,
    claims: RefCell<Vec<(String, LoadPurpose)>>,
    saves: RefCell<Vec<(String, SavePurpose, ContentProvenance)>>,
}

impl MemoryStore {
    fn with(slots: &[(&str, Slot)]) -> Self {
        let store = Self::default();
        for (id, slot) in slots {
            store.slots.borrow_mut().insert(s(id), slot.clone());
        }
        store
    }

    fn outcome(&self, id: &str) -> SessionLoadOutcome {
        match self.slots.borrow().get(id) {
            None => SessionLoadOutcome::Missing,
            Some(Slot::Bytes(bytes)) => decode_session_record(bytes, id).into(),
            Some(Slot::Sealed(reason)) => SessionLoadOutcome::Locked { reason: *reason },
        }
    }

    fn slot(&self, id: &str) -> Option<Slot> {
        self.slots.borrow().get(id).cloned()
    }
}

// The port has exactly these four members. That nothing else (in particular no record-path
// accessor such as the old `getFilePath`) exists is pinned by the trait definition itself: an
// implementation of any other member here would not compile, and a required member added to the
// trait would make this impl fail to compile.
impl InteractiveSessionStore for MemoryStore {
    type Error = Unreachable;

    async fn save(
        &self,
        record: &InteractiveSessionRecord,
        purpose: SavePurpose,
        provenance: ContentProvenance,
    ) -> Result<SaveOutcome, Unreachable> {
        if !self.outcome(&record.id).permits_overwrite() {
            return Ok(SaveOutcome::Refused {
                reason: SaveRefusal::Unreadable,
            });
        }
        let bytes = encode_session_record(record).map_err(|_| Unreachable)?;
        self.slots
            .borrow_mut()
            .insert(record.id.clone(), Slot::Bytes(bytes));
        self.saves
            .borrow_mut()
            .push((record.id.clone(), purpose, provenance));
        Ok(SaveOutcome::Saved)
    }

    async fn load(
        &self,
        id: &str,
        purpose: LoadPurpose,
    ) -> Result<SessionLoadOutcome, Unreachable> {
        if purpose.claims() {
            self.claims.borrow_mut().push((s(id), purpose));
        }
        Ok(self.outcome(id))
    }

    async fn list(&self) -> Result<SessionStoreListing, Unreachable> {
        let ids: Vec<String> = self.slots.borrow().keys().cloned().collect();
        Ok(ids
            .into_iter()
            .map(|id| SessionListEntry {
                outcome: self.outcome(&id),
                id,
            })
            .collect())
    }

    async fn delete(&self, id: &str) -> Result<(), Unreachable> {
        self.slots.borrow_mut().remove(id);
        Ok(())
    }
}

/// A read-modify-write consumer written against the port alone: it renames a session, keeping
/// every member it does not own. `Ok(None)` when it refused to write.
async fn rename<S: InteractiveSessionStore>(
    store: &S,
    id: &str,
    name: &str,
) -> Result<Option<SaveOutcome>, S::Error> {
    let outcome = store.load(id, LoadPurpose::Write).await?;
    if !outcome.permits_overwrite() {
        return Ok(None);
    }
    let mut record = outcome.into_record().unwrap_or_else(|| {
        InteractiveSessionRecord::new(
            id,
            "/work/app",
            "2026-09-24T12:00:00Z",
            "2026-09-24T12:00:00Z",
        )
    });
    record.name = Some(s(name));
    store
        .save(&record, SavePurpose::Run, ContentProvenance::Session)
        .await
        .map(Some)
}

cases! {
    mod record {
        fn full_record_has_every_member() {
            let record: InteractiveSessionRecord = golden("record_full", RECORD_FULL);
            assert_eq!(record.id, "sess-1");
            assert_eq!(record.name.as_deref(), Some("parser split"));
            assert_eq!(record.cwd, "/work/app");
            assert_eq!(record.messages.len(), 2);
            match &record.messages[1] {
                UniversalMessage::Assistant(reply) => {
                    assert!(reply.content.is_none());
                    assert_eq!(reply.tool_calls.as_ref().map(Vec::len), Some(1));
                }
                _ => panic!("expected the assistant reply second"),
            }
            assert!(record.history.is_some());
            assert!(record.system_prompt.is_some());
            assert!(record.tool_schemas.is_some());
            assert!(record.background_tasks.is_some());
            assert!(record.background_task_events.is_some());
            assert!(record.background_job_groups.is_some());
            assert!(record.background_job_group_events.is_some());
            assert_eq!(record.session_loops.as_ref().map(Vec::len), Some(1));
            assert!(record.skill_activation_events.is_some());
            assert!(record.memory_events.is_some());
            assert!(record.used_memory_references.is_some());
            assert!(record.context_references.is_some());
            assert_eq!(record.sandbox_snapshot_id.as_deref(), Some("snap-7"));
            assert_eq!(record.goal.as_ref().map(|goal| goal.max_iterations), Some(25));
            assert_eq!(record.plan.as_ref().map(|plan| plan.steps.len()), Some(1));
            assert_eq!(
                record.active_branch.as_ref().map(|branch| branch.branch_id.as_str()),
                Some("branch-2")
            );
            assert!(record.extra.is_empty(), "declared members leaked into extra");
        }

        fn minimal_record_has_only_the_required_members() {
            let record: InteractiveSessionRecord = golden("record_minimal", RECORD_MINIMAL);
            assert!(record == minimal());
            assert!(record.messages.is_empty());
            assert!(record.name.is_none() && record.history.is_none() && record.goal.is_none());
            assert!(record.extra.is_empty());
        }

        fn unknown_members_are_kept_through_a_partial_write() {
            let mut record: InteractiveSessionRecord = golden("record_extra_fields", RECORD_EXTRA);
            let keys: Vec<&str> = record.extra.keys().map(String::as_str).collect();
            assert_eq!(keys, ["pinnedBy", "uiState", "x-retention"]);
            assert_eq!(record.sandbox_snapshot_id.as_deref(), Some("snap-1"));
            assert_eq!(record.extra["uiState"]["scroll"], 120);

            // A writer that owns only the name changes it and writes the record back.
            record.name = Some(s("renamed"));
            let written = to_json(&record);
            assert_eq!(written["name"], "renamed");
            assert_eq!(written["pinnedBy"], "alice");
            assert_eq!(written["uiState"]["folded"][1], "m4");
            assert_eq!(written["x-retention"], Value::Null);
            assert_eq!(written["sandboxSnapshotId"], "snap-1");
        }

        fn a_record_needs_its_required_members() {
            refuses::<InteractiveSessionRecord>(
                r#"{"id":"s","cwd":"/","createdAt":"t","updatedAt":"t"}"#,
                "missing field `messages`",
            );
            refuses::<InteractiveSessionRecord>(
                r#"{"cwd":"/","createdAt":"t","updatedAt":"t","messages":[]}"#,
                "missing field `id`",
            );
            refuses::<InteractiveSessionRecord>(
                r#"{"id":"s","cwd":"/","createdAt":"t","updatedAt":"t","messages":5}"#,
                "messages: invalid type: integer `5`, expected a sequence",
            );
            refuses::<InteractiveSessionRecord>(r#"[]"#, "expected a map");
        }

        fn cross_store_token_names_the_sealed_bytes() {
            let token: CrossStoreToken = golden(
                "cross_store_token",
                include_str!("../golden/session/records/cross_store_token.json"),
            );
            assert!(token.record == minimal());
            assert_eq!(token.sealed_digest.algorithm, DigestAlgorithm::Sha256);
            assert_eq!(
                format!("{}", token.sealed_digest.value),
                "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
            );
            assert_eq!(token.owner, RecordOwner::Owner);
            refuses::<CrossStoreToken>(
                r#"{"record":{"id":"s","cwd":"/","createdAt":"t","updatedAt":"t","messages":[]},
                    "sealedDigest":{"algorithm":"md5","value":"00"},"owner":"owner"}"#,
                "unknown variant `md5`",
            );
            refuses::<CrossStoreToken>(
                r#"{"record":{"id":"s","cwd":"/","createdAt":"t","updatedAt":"t","messages":[]},
                    "sealedDigest":{"algorithm":"sha-256","value":"00"},"owner":"owner"}"#,
                "a sha256 is 64 lowercase hex characters, found 2 bytes",
            );
        }

        fn the_envelope_version_is_one() {
            // The reference TypeScript stores write version 1; both read each other's files.
            assert_eq!(SESSION_RECORD_SCHEMA_VERSION, 1);
        }
    }

    mod outcomes {
        fn every_outcome_has_its_wire_form() {
            let valid: SessionLoadOutcome = golden(
                "outcome_valid",
                include_str!("../golden/session/records/outcome_valid.json"),
            );
            assert!(valid.record() == Some(&minimal()));
            assert_eq!(valid.owner(), Some(RecordOwner::Grantee));

            let missing: SessionLoadOutcome = golden(
                "outcome_missing",
                include_str!("../golden/session/records/outcome_missing.json"),
            );
            assert_eq!(missing.status(), SessionLoadStatus::Missing);

            let corrupt: SessionLoadOutcome = golden(
                "outcome_corrupt",
                include_str!("../golden/session/records/outcome_corrupt.json"),
            );
            assert_eq!(corrupt.issues().len(), 2);
            assert_eq!(corrupt.issues()[0].path, "record.messages[2].timestamp");
            assert_eq!(corrupt.cwd(), Some("/work/app"));

            let unsupported: SessionLoadOutcome = golden(
                "outcome_unsupported",
                include_str!("../golden/session/records/outcome_unsupported.json"),
            );
            assert!(
                unsupported
                    == SessionLoadOutcome::Unsupported {
                        schema_version: Some(2),
                        cwd: Some(s("/work/app")),
                    }
            );

            let locked: SessionLoadOutcome = golden(
                "outcome_locked",
                include_str!("../golden/session/records/outcome_locked.json"),
            );
            assert!(
                locked
                    == SessionLoadOutcome::Locked {
                        reason: LockedReason::HeldFileChanged,
                    }
            );
            assert_eq!(locked.cwd(), None);
        }

        fn a_store_that_never_seals_attributes_nothing() {
            let valid = SessionLoadOutcome::valid(minimal());
            assert_eq!(valid.owner(), None);
            let json = to_json(&valid);
            assert!(json.get("owner").is_none(), "absent owner was written: {json}");
            assert_eq!(json["status"], "valid");
        }

        fn a_list_entry_keeps_an_unreadable_record_visible() {
            let entry: SessionListEntry =
                golden("list_entry", include_str!("../golden/session/records/list_entry.json"));
            assert_eq!(entry.id, "sess-4");
            assert_eq!(entry.outcome.status(), SessionLoadStatus::Corrupt);
            assert_eq!(entry.outcome.issues()[0].path, "");
        }

        fn the_golden_listing_is_the_collected_one() {
            let wire: SessionStoreListing =
                golden("listing", include_str!("../golden/session/records/listing.json"));
            assert!(wire == sample_listing(), "the golden listing differs from the collected one");
            assert_eq!((wire.locked_count, wire.unopenable_count), (1, 2));
        }
    }

    mod rules {
        fn save_outcomes_have_their_wire_form() {
            let refused: SaveOutcome =
                golden("save_refused", include_str!("../golden/session/records/save_refused.json"));
            assert_eq!(refused, SaveOutcome::Refused { reason: SaveRefusal::Unreadable });
            assert_eq!(to_json(&SaveOutcome::Saved), serde_json::json!({ "status": "saved" }));
            rejects::<SaveOutcome>(r#"{"status":"refused"}"#, "missing field `reason`");
            rejects::<SaveOutcome>(r#"{"status":"queued"}"#, "unknown variant `queued`");
        }


        fn only_missing_permits_recovery() {
            let permitted: Vec<SessionLoadStatus> = five_outcomes()
                .iter()
                .filter(|outcome| outcome.permits_recovery())
                .map(SessionLoadOutcome::status)
                .collect();
            assert_eq!(permitted, [SessionLoadStatus::Missing]);
            let statuses: Vec<SessionLoadStatus> =
                five_outcomes().iter().map(SessionLoadOutcome::status).collect();
            assert_eq!(statuses, SessionLoadStatus::ALL);
        }

        fn a_writer_never_overwrites_corrupt_unsupported_or_locked() {
            let writable: Vec<SessionLoadStatus> = five_outcomes()
                .iter()
                .filter(|outcome| outcome.permits_overwrite())
                .map(SessionLoadOutcome::status)
                .collect();
            assert_eq!(writable, [SessionLoadStatus::Valid, SessionLoadStatus::Missing]);
            for reason in LockedReason::ALL {
                assert!(!SessionLoadOutcome::Locked { reason: *reason }.permits_overwrite());
            }
        }

        fn accessors_read_each_outcome() {
            let [valid, missing, corrupt, unsupported, locked] = five_outcomes();
            assert_eq!(valid.cwd(), Some("/work/app"));
            assert!(valid.record() == Some(&minimal()));
            assert!(valid.issues().is_empty());
            assert!(missing.record().is_none());
            assert_eq!(corrupt.issues()[0].message, "not JSON");
            assert!(corrupt.record().is_none());
            assert_eq!(unsupported.cwd(), None);
            let listed: Vec<bool> = [&valid, &missing, &corrupt, &unsupported, &locked]
                .iter()
                .map(|outcome| outcome.is_listed())
                .collect();
            assert_eq!(listed, [true, true, true, true, false]);
            let [valid, _, corrupt, ..] = five_outcomes();
            assert!(valid.into_record() == Some(minimal()));
            assert!(corrupt.into_record().is_none());
        }

        fn a_listing_leaves_locked_records_out_and_counts_them() {
            let listing = sample_listing();
            let ids: Vec<&str> = listing.entries.iter().map(|entry| entry.id.as_str()).collect();
            assert_eq!(ids, ["sess-2", "sess-5", "sess-6"]);
            assert_eq!(listing.locked_count, 1);
            assert_eq!(listing.unopenable_count, 2);
            assert_eq!(listing.left_out(), 3);
            assert_eq!(
                listing.entry("sess-6").map(|entry| entry.outcome.status()),
                Some(SessionLoadStatus::Corrupt)
            );
            assert!(listing.entry("sess-l1").is_none());
        }

        fn literal_sets_are_exact() {
            literal_round_trip!(LockedReason, ["keys-locked", "no-keys", "held-file-changed"]);
            literal_round_trip!(RecordOwner, ["owner", "grantee"]);
            literal_round_trip!(
                SessionLoadStatus,
                ["valid", "missing", "corrupt", "unsupported", "locked"]
            );
            literal_round_trip!(LoadPurpose, ["resume", "write", "probe"]);
            literal_round_trip!(SavePurpose, ["run", "hand-off"]);
            literal_round_trip!(
                ContentProvenance,
                ["session", "fork", "recovery", "token", "external"]
            );
            literal_round_trip!(SaveRefusal, ["has-writer", "unreadable"]);
            literal_round_trip!(
                RaiseOutcome,
                ["raised", "already-owner", "digest-mismatch", "not-openable"]
            );
            literal_round_trip!(DigestAlgorithm, ["sha-256"]);
        }

        fn only_keys_locked_opens_after_an_unlock() {
            let opening: Vec<LockedReason> = LockedReason::ALL
                .iter()
                .copied()
                .filter(|reason| reason.opens_after_unlock())
                .collect();
            assert_eq!(opening, [LockedReason::KeysLocked]);
        }

        fn a_probe_is_the_one_load_that_claims_nothing() {
            let claiming: Vec<LoadPurpose> =
                LoadPurpose::ALL.iter().copied().filter(|purpose| purpose.claims()).collect();
            assert_eq!(claiming, [LoadPurpose::Resume, LoadPurpose::Write]);
        }

        fn a_decoder_outcome_becomes_a_load_outcome_without_an_owner() {
            let valid: SessionLoadOutcome = SessionRecordDecodeOutcome::Valid {
                record: alloc::boxed::Box::new(minimal()),
            }
            .into();
            assert!(valid == SessionLoadOutcome::valid(minimal()));
            let unsupported: SessionLoadOutcome = SessionRecordDecodeOutcome::Unsupported {
                schema_version: None,
                cwd: Some(s("/w")),
            }
            .into();
            assert_eq!(unsupported.status(), SessionLoadStatus::Unsupported);
            assert_eq!(unsupported.cwd(), Some("/w"));
            let corrupt = SessionRecordDecodeOutcome::Corrupt {
                issues: vec![SessionRecordDecodeIssue::new("record", "missing field `record`")],
                cwd: None,
            };
            assert_eq!(corrupt.status(), SessionLoadStatus::Corrupt);
            assert_eq!(SessionLoadOutcome::from(corrupt).issues()[0].path, "record");
        }
    }

    mod refusals {
        fn a_long_string_is_read_whole_where_it_belongs_and_quoted_cut_where_it_does_not() {
            // Each string is most of its record: the decoder reads the element with the string
            // masked first, then the text itself for its values. The records are built with
            // `concat`, to their exact length, so the board's 40 KiB heap holds the decode and
            // not the test's own slack.
            let long = "é".repeat(2000);
            let message = |head: &str, role: &str, content: &str| {
                [
                    r#""messages":[{"#,
                    head,
                    r#""role":""#,
                    role,
                    r#"","id":"m1","timestamp":"t","state":"complete","content":""#,
                    content,
                    r#""}]"#,
                ]
                .concat()
            };
            let record = load(&stored(&message("", "user", &long)))
                .into_record()
                .expect("a long content is valid");
            assert_eq!(serde_json::to_value(&record.messages[0]).expect("encodes")["content"], long.as_str());
            drop(record);
            // A repeated name: valid in its canonical form, the values read from the text.
            let outcome = load(&stored(&message(r#""role":"assistant","#, "user", &long)));
            assert_eq!(outcome.status(), SessionLoadStatus::Valid, "{:?}", outcome.issues());
            // A role no role has: refused at the role, the literal cut and its length stated.
            let outcome = load(&stored(&message("", &long, "hi")));
            assert_eq!(corrupt_paths(&outcome), ["record.messages[0].role"]);
            let said = &outcome.issues()[0].message;
            assert!(said.starts_with("unknown variant `éééé"), "{said}");
            assert!(said.contains("… (4000 bytes)`, expected one of"), "{said}");
            // A string where a list belongs, as a member and inside a message.
            let outcome = load(&stored(&[r#""messages":""#, &long, "\""].concat()));
            assert_eq!(corrupt_paths(&outcome), ["record.messages"]);
            assert!(outcome.issues()[0].message.contains("… (4000 bytes)\", expected a sequence"));
            let outcome = load(&stored(&message(&[r#""metadata":""#, &long, r#"","#].concat(), "user", "hi")));
            let said = &outcome.issues()[0].message;
            assert!(said.contains("… (4000 bytes)"), "{said}");
            assert!(said.len() < 300, "{said}");
        }

        fn a_corrupt_record_lists_at_most_the_read_limit_of_issues_then_counts_the_rest() {
            // 801 broken messages in 2.4 KB: each is an issue, 32 are listed.
            let broken = vec!["{}"; 801].join(",");
            let outcome = load(&stored(&format!(r#""messages":[{broken}]"#)));
            let issues = outcome.issues();
            assert_eq!(issues.len(), 33);
            assert!(issues[0].path.starts_with("record.messages[0]"));
            assert!(issues[31].path.starts_with("record.messages[31]"));
            assert_eq!(
                (issues[32].path.as_str(), issues[32].message.as_str()),
                ("record", "769 more issues not listed (the read limit lists 32)")
            );
            // A host's own limit; one issue is always listed.
            let bytes = stored(&format!(r#""messages":[{broken}],"name":5"#));
            for (limit, listed) in [(4, 4), (0, 1)] {
                let limits = ReadLimits::DEFAULT.with_issues(limit);
                let SessionRecordDecodeOutcome::Corrupt { issues, .. } =
                    decode_session_record_within(&bytes, "sess-1", &limits)
                else {
                    panic!("expected corrupt");
                };
                assert_eq!(issues.len(), listed + 1);
                assert_eq!(
                    issues[listed].message,
                    format!("{} more issues not listed (the read limit lists {listed})", 802 - listed)
                );
            }
        }

        fn an_echoed_value_is_cut_and_states_its_length() {
            // A wrong id of 3,000 bytes: both ids echoed at most 64 bytes long. (The hostile
            // input image on the Cortex-M3 decodes a 6 KiB one within its heap budget.)
            let long = "x".repeat(3000);
            let bytes = envelope(&format!(
                r#"{{"id":"{long}","cwd":"/w","createdAt":"t","updatedAt":"t","messages":[]}}"#
            ));
            let outcome = load(&bytes);
            let issues = outcome.issues();
            assert_eq!(issues.len(), 1);
            assert_eq!(issues[0].path, "record.id");
            assert_eq!(
                issues[0].message,
                format!(
                    "the record's id `{}… (3000 bytes)` is not the id it is stored under (`sess-1`)",
                    "x".repeat(64)
                )
            );
            // A literal serde quotes (an unknown role), cut the same way.
            let role = "r".repeat(1000);
            let bytes = stored(&format!(
                r#""messages":[{{"role":"{role}","id":"m","timestamp":"t","state":"complete","content":"c"}}]"#
            ));
            let outcome = load(&bytes);
            let message = &outcome.issues()[0].message;
            assert!(message.len() < 300, "{message}");
            assert!(message.contains("… (1000 bytes)`"), "{message}");
        }

        fn an_unknown_status_is_refused() {
            rejects::<SessionLoadOutcome>(r#"{"status":"absent"}"#, "unknown variant `absent`");
            rejects::<SessionLoadOutcome>(r#"{"record":{}}"#, "missing field `status`");
        }

        fn a_locked_outcome_needs_one_of_the_three_reasons() {
            rejects::<SessionLoadOutcome>(
                r#"{"status":"locked","reason":"expired"}"#,
                "unknown variant `expired`",
            );
            rejects::<SessionLoadOutcome>(r#"{"status":"locked"}"#, "missing field `reason`");
            let locked: SessionLoadOutcome =
                from_json(&serde_json::json!({ "status": "locked", "reason": "no-keys" }))
                    .expect("a known reason decodes");
            assert_eq!(locked.status(), SessionLoadStatus::Locked);
        }

        fn a_corrupt_outcome_needs_its_issues() {
            rejects::<SessionLoadOutcome>(
                r#"{"status":"corrupt","cwd":"/work/app"}"#,
                "missing field `issues`",
            );
            rejects::<SessionLoadOutcome>(
                r#"{"status":"corrupt","issues":[{"path":"id"}]}"#,
                "missing field `message`",
            );
        }

        fn an_unsupported_version_is_a_whole_number() {
            rejects::<SessionLoadOutcome>(
                r#"{"status":"unsupported","schemaVersion":1.5}"#,
                "invalid type",
            );
            // A negative one is whole: the outcome carries it as the decoder reported it.
            let negative: SessionLoadOutcome =
                serde_json::from_str(r#"{"status":"unsupported","schemaVersion":-1}"#).expect("decodes");
            assert!(matches!(negative, SessionLoadOutcome::Unsupported { schema_version: Some(-1), .. }));
            rejects::<SessionLoadOutcome>(
                r#"{"status":"valid","record":{"id":"s"}}"#,
                "missing field `cwd`",
            );
        }
    }

    mod decoding {
        fn messages_decode_as_their_own_decoder_reads_them_whatever_the_order_of_members() {
            // Each role; members in any order; a member another role declares, with the wrong
            // type (ignored by the message's decoder); unknown members; one broken message,
            // then one well formed after it.
            let messages = [
                r#"{"id":"m1","timestamp":"t","state":"complete","content":"a\"b","role":"user"}"#,
                r#"{"role":"assistant","id":"m2","timestamp":"t","state":"complete","content":null,"name":5,
                    "toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}"#,
                r#"{"role":"tool","id":"m3","timestamp":"t","state":"complete","content":"out","toolCallId":"c","x":[1]}"#,
                r#"{"role":"system","id":"m4","timestamp":"t","state":"complete","content":"s","toolCalls":7}"#,
                r#"{"role":"user","id":"m5","timestamp":"t","state":"complete","content":"hi"}"#,
            ];
            let bytes = stored(&format!(r#""messages":[{}]"#, messages.join(",")));
            let expected: Vec<UniversalMessage> = messages
                .iter()
                .map(|text| serde_json::from_str(text).expect("the message decodes alone"))
                .collect();
            match decode_session_record(&bytes, "sess-1") {
                SessionRecordDecodeOutcome::Valid { record } => assert_eq!(record.messages, expected),
                other => panic!("expected a valid record, got {other:?}"),
            }
            // A broken message is located whichever way the ones before it were read.
            let broken = r#"{"role":"tool","id":"m6","timestamp":"t","state":"complete","content":"out"}"#;
            let bytes = stored(&format!(r#""messages":[{},{broken},{}]"#, messages[0], messages[4]));
            let outcome = load(&bytes);
            assert_eq!(corrupt_paths(&outcome), ["record.messages[1].toolCallId"]);
            assert_eq!(outcome.issues()[0].message, "missing field `toolCallId`");
        }

        fn a_member_written_as_an_array_is_corrupt() {
            // serde's derived decoder of a struct also reads an array of its members in
            // declaration order; no record holds one, and one read would be written back as an
            // object. A tool call, a token usage and a content part, each as such an array.
            let assistant = r#"{"role":"assistant","id":"m1","timestamp":"t","state":"complete","content":null,
                "toolCalls":[["c1","function",["f","{}"]]]}"#;
            let outcome = load(&stored(&format!(r#""messages":[{assistant}]"#)));
            assert_eq!(corrupt_paths(&outcome), ["record.messages[0].toolCalls[0]"]);
            let message = &outcome.issues()[0].message;
            assert!(
                message.starts_with("invalid type: sequence, expected struct ToolCall"),
                "{message}"
            );
            let function = r#"{"role":"assistant","id":"m1","timestamp":"t","state":"complete","content":null,
                "toolCalls":[{"id":"c1","type":"function","function":["f","{}"]}]}"#;
            let outcome = load(&stored(&format!(r#""messages":[{function}]"#)));
            assert_eq!(
                corrupt_paths(&outcome),
                ["record.messages[0].toolCalls[0].function"]
            );
            // The same array read alone, as serde_json reads any derived struct, still decodes:
            // the refusal is the record's.
            assert!(serde_json::from_str::<agent_interface::agent_core::ToolCall>(r#"["c1","function",["f","{}"]]"#).is_ok());
        }

        fn text_that_is_not_json_in_a_repeated_member_is_corrupt() {
            // A member written twice, the first time as a string with a raw control character
            // (not JSON): a parse refuses the bytes, so the decoder does too, though the member
            // it keeps (the last) reads. Found by the `session_decode` fuzz target.
            let message = "{\"role\":\"user\",\"id\":\"m1\",\"timestamp\":\"t\u{1a}\",\"state\":\"complete\",\
                           \"content\":\"hi\",\"timestamp\":\"t\"}";
            let bytes = stored(&format!(r#""messages":[{message}]"#));
            assert!(serde_json::from_slice::<Value>(&bytes).is_err(), "not JSON");
            let outcome = load(&bytes);
            assert_eq!(corrupt_paths(&outcome), [""]);
            assert!(outcome.issues()[0].message.starts_with("the stored bytes are not JSON"));
            // Written without the raw character, the repeated member is read as a parse reads it.
            let repeated = message.replace('\u{1a}', "");
            let outcome = load(&stored(&format!(r#""messages":[{repeated}]"#)));
            assert_eq!(outcome.status(), SessionLoadStatus::Valid);
        }

        fn a_byte_order_mark_is_corrupt_and_named() {
            // JSON allows no byte-order mark (JSON.parse refuses one too); the position alone
            // (line 1 column 1) does not say what is wrong, so the message names it.
            let mut bytes = b"\xEF\xBB\xBF".to_vec();
            bytes.extend(stored(r#""messages":[]"#));
            let outcome = load(&bytes);
            assert_eq!(corrupt_paths(&outcome), [""]);
            let said = &outcome.issues()[0].message;
            assert!(said.starts_with("the stored bytes are not JSON"), "{said}");
            assert!(said.contains("byte-order mark"), "{said}");
            assert_eq!(outcome.cwd(), Some("/work/app"), "the cwd is still recovered");
            // The same bytes without the mark are a valid record.
            assert_eq!(load(&bytes[3..]).status(), SessionLoadStatus::Valid);
        }

        fn empty_input_is_corrupt() {
            assert_eq!(corrupt_paths(&load(b"")), [""]);
        }

        fn bytes_that_are_not_utf8_are_corrupt() {
            let outcome = load(b"\xff\xfe");
            assert_eq!(corrupt_paths(&outcome), [""]);
            assert!(outcome.issues()[0].message.contains("UTF-8"));
        }

        fn json_that_is_not_an_envelope_is_corrupt() {
            for text in ["null", "[]", "\"sess-1\"", "5", "true"] {
                assert_eq!(corrupt_paths(&load(text.as_bytes())), [""], "for {text}");
            }
            // An object that declares no version is not an envelope any build writes.
            assert_eq!(corrupt_paths(&load(b"{}")), ["schemaVersion"]);
            assert_eq!(corrupt_paths(&load(br#"{"schemaVersion":1}"#)), ["record"]);
            assert_eq!(corrupt_paths(&load(br#"{"schemaVersion":1,"record":[]}"#)), ["record"]);
        }

        fn truncated_json_is_corrupt_and_keeps_its_cwd() {
            let bytes = stored(r#""messages":[]"#);
            let outcome = load(&bytes[..bytes.len() - 3]);
            assert_eq!(corrupt_paths(&outcome), [""]);
            assert!(outcome.issues()[0].message.contains("not JSON"));
            assert_eq!(outcome.cwd(), Some("/work/app"));
        }

        fn a_member_of_the_wrong_type_is_located() {
            let outcome = load(&stored(r#""messages":5"#));
            assert_eq!(corrupt_paths(&outcome), ["record.messages"]);
            assert!(outcome.issues()[0].message.contains("expected a sequence"));
            assert_eq!(outcome.cwd(), Some("/work/app"));
        }

        fn a_message_with_a_wrong_timestamp_type_is_located() {
            let members = format!(
                r#""messages":[{},{}]"#,
                user("m1", r#""2026-09-24T10:00:01Z""#),
                user("m2", "5")
            );
            let outcome = load(&stored(&members));
            let paths = corrupt_paths(&outcome);
            assert!(paths[0].starts_with("record.messages[1]"), "{paths:?}");
            assert_eq!(paths, ["record.messages[1].timestamp"]);
            assert!(outcome.issues()[0].message.contains("expected a string"));
        }

        fn failures_below_an_element_are_narrowed() {
            let part = r#"{"role":"user","id":"m1","timestamp":"t","state":"complete","content":"hi","parts":[{"type":"text","text":"ok"},{"type":"text","text":7}]}"#;
            let outcome = load(&stored(&format!(r#""messages":[{part}]"#)));
            assert_eq!(corrupt_paths(&outcome), ["record.messages[0].parts[1].text"]);

            let no_timestamp = r#"{"role":"user","id":"m1","state":"complete","content":"hi"}"#;
            let outcome = load(&stored(&format!(r#""messages":[{no_timestamp}]"#)));
            assert_eq!(corrupt_paths(&outcome), ["record.messages[0].timestamp"]);
            assert!(outcome.issues()[0].message.contains("missing field"));

            let unknown_role = r#"{"role":"robot","id":"m1","timestamp":"t","state":"complete","content":"hi"}"#;
            let outcome = load(&stored(&format!(r#""messages":[{unknown_role}]"#)));
            assert_eq!(corrupt_paths(&outcome), ["record.messages[0].role"]);

            let goal = r#""messages":[],"goal":{"id":"g","objective":"o","status":"active","iterations":-1,"maxIterations":3,"startedAt":"t","progress":[]}"#;
            assert_eq!(corrupt_paths(&load(&stored(goal))), ["record.goal.iterations"]);
        }

        fn every_failing_member_is_reported() {
            let members = format!(
                r#""name":5,"messages":[{},{}],"memoryEvents":{{}},"history":null"#,
                user("m1", "1"),
                user("m2", "2")
            );
            let outcome = load(&stored(&members));
            assert_eq!(
                corrupt_paths(&outcome),
                [
                    "record.name",
                    "record.messages[0].timestamp",
                    "record.messages[1].timestamp",
                    "record.memoryEvents",
                ]
            );
            let missing = load(&envelope(r#"{"id":"sess-1","messages":[]}"#));
            assert_eq!(
                corrupt_paths(&missing),
                ["record.cwd", "record.createdAt", "record.updatedAt"]
            );
        }

        fn an_unknown_schema_version_is_unsupported() {
            let unsupported = |outcome: SessionLoadOutcome| match outcome {
                SessionLoadOutcome::Unsupported { schema_version, cwd } => (schema_version, cwd),
                _ => panic!("expected unsupported"),
            };
            let next = br#"{"schemaVersion":2,"record":{"id":"sess-1","cwd":"/work/next","shape":"new"}}"#;
            assert_eq!(unsupported(load(next)), (Some(2), Some(s("/work/next"))));
            let worded = br#"{"schemaVersion":"two","record":{"cwd":"/work/next"}}"#;
            assert_eq!(unsupported(load(worded)), (None, Some(s("/work/next"))));
            let old = br#"{"schemaVersion":0,"record":5}"#;
            assert_eq!(unsupported(load(old)), (Some(0), None));
            // A negative version is reported as written, as a float too when it is whole.
            let negative = br#"{"schemaVersion":-1,"record":{"cwd":"/w"}}"#;
            assert_eq!(unsupported(load(negative)), (Some(-1), Some(s("/w"))));
            assert_eq!(unsupported(load(br#"{"schemaVersion":-2.0,"record":5}"#)), (Some(-2), None));
            assert_eq!(unsupported(load(br#"{"schemaVersion":-1.5,"record":5}"#)), (None, None));
            // `1.0` is the current version written as a float.
            let float = String::from_utf8(stored(r#""messages":[]"#))
                .expect("utf-8")
                .replacen("\"schemaVersion\":1", "\"schemaVersion\":1.0", 1);
            assert_eq!(load(float.as_bytes()).status(), SessionLoadStatus::Valid);
        }

        fn a_record_stored_under_another_id_is_not_valid() {
            let bytes = stored(r#""messages":[]"#);
            assert_eq!(load(&bytes).status(), SessionLoadStatus::Valid);
            let elsewhere: SessionLoadOutcome = decode_session_record(&bytes, "sess-9").into();
            assert_eq!(corrupt_paths(&elsewhere), ["record.id"]);
            assert!(elsewhere.issues()[0].message.contains("sess-9"));
            assert_eq!(elsewhere.cwd(), Some("/work/app"));
            assert!(!elsewhere.permits_recovery());
            assert!(!elsewhere.permits_overwrite());
        }

        fn no_value_but_the_id_changes_the_outcome() {
            let odd = [
                r#""messages":[]"#,
                r#""name":"","messages":[]"#,
                r#""name":"\u0000 ../../etc","systemPrompt":"","messages":[],"history":[]"#,
                r#""messages":[],"goal":{"id":"","objective":"","status":"satisfied","iterations":99,"maxIterations":1,"startedAt":"never","progress":[]}"#,
                r#""messages":[],"plan":{"id":"p","objective":"","steps":[],"phase":"executing","createdAt":"?"}"#,
                r#""messages":[],"sandboxSnapshotId":"","toolSchemas":[],"backgroundTasks":[]"#,
            ];
            for members in odd {
                assert_eq!(load(&stored(members)).status(), SessionLoadStatus::Valid, "{members}");
            }
            // Timestamps out of order and an empty cwd are values, not shape.
            let strange = envelope(
                r#"{"id":"sess-1","cwd":"","createdAt":"2030-01-01","updatedAt":"1999-01-01","messages":[]}"#,
            );
            assert_eq!(load(&strange).status(), SessionLoadStatus::Valid);
            let other_id = envelope(
                r#"{"id":"sess-2","cwd":"","createdAt":"2030-01-01","updatedAt":"1999-01-01","messages":[]}"#,
            );
            assert_eq!(corrupt_paths(&load(&other_id)), ["record.id"]);
        }

        fn the_cwd_is_recovered_from_broken_bytes() {
            let cases: [(&[u8], Option<&str>); 6] = [
                (br#"{"schemaVersion":1,"record":{"id":"sess-1","cwd":"/work/app","messages":[{"#, Some("/work/app")),
                (br#"{"schemaVersion":1,"record":{"cwd":"C:\\work\\\u00e9t\u00e9\ud83d\ude00","id":"#, Some("C:\\work\\été😀")),
                (b"{\"schemaVersion\":1,\"record\":{\"cwd\":\"/w\",\"name\":\"\xff\"", Some("/w")),
                (br#"{"cwd":"/bare/record","messages":[}"#, Some("/bare/record")),
                (br#"{"schemaVersion":1,"record":{"name":{"cwd":"/nested"},"id":"#, None),
                (br#"{"schemaVersion":1,"record":{"id":"sess-1" "cwd":"/late"}"#, None),
            ];
            for (bytes, cwd) in cases {
                let outcome = load(bytes);
                assert_eq!(outcome.status(), SessionLoadStatus::Corrupt, "{bytes:?}");
                assert_eq!(outcome.cwd(), cwd, "for {bytes:?}");
            }
        }
    }

    // The decoder held to a parse on random and mutated records: a part of its own, so that
    // `decoding` (without the reference by a parse) fits the LM3S6965.
    mod decoding_properties {
        fn random_mutations_never_panic_or_report_missing() {
            let base = envelope(RECORD_FULL);
            let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
            let mut seen = [0_u32; 3];
            for round in 0..300 {
                let mut bytes = base.clone();
                for _ in 0..=rng.below(3) {
                    let at = rng.below(bytes.len());
                    match rng.below(5) {
                        0 => bytes[at] = (rng.next() & 0xff) as u8,
                        1 => {
                            let end = (at + rng.below(16)).min(bytes.len());
                            bytes.drain(at..end);
                        }
                        2 => {
                            let alphabet = b"{}[]\",:0\\\xff";
                            bytes.insert(at, alphabet[rng.below(alphabet.len())]);
                        }
                        3 => bytes.truncate(at),
                        _ => {
                            let end = (at + rng.below(32)).min(bytes.len());
                            let chunk: Vec<u8> = bytes[at..end].to_vec();
                            let to = rng.below(bytes.len());
                            bytes.splice(to..to, chunk);
                        }
                    }
                    if bytes.is_empty() {
                        break;
                    }
                }
                let decoded = decode_session_record(&bytes, "sess-1");
                let index = match &decoded {
                    SessionRecordDecodeOutcome::Valid { record } => {
                        assert_eq!(record.id, "sess-1", "round {round}");
                        0
                    }
                    SessionRecordDecodeOutcome::Corrupt { issues, .. } => {
                        assert!(!issues.is_empty(), "round {round}: corrupt without issues");
                        1
                    }
                    SessionRecordDecodeOutcome::Unsupported { .. } => 2,
                };
                seen[index] += 1;
                let outcome = SessionLoadOutcome::from(decoded);
                assert!(!outcome.permits_recovery(), "round {round}: bytes reported missing");
                assert_ne!(outcome.status(), SessionLoadStatus::Locked);
            }
            assert!(seen[1] > 100, "the mutations rarely broke the record: {seen:?}");
        }
        fn the_decoder_agrees_with_a_parse_on_valid_records() {
            let seed = 0x5EED_0001_u64;
            let mut rng = Seeded::new(seed);
            for round in 0..200 {
                let members = random_members(&mut rng);
                let bytes = envelope_of(&members);
                let status = assert_same_outcome(&bytes, "sess-1", seed, round);
                assert_eq!(status, SessionLoadStatus::Valid, "seed {seed:#x} round {round}");
                // Under another id the same bytes are corrupt, by both routes alike.
                let status = assert_same_outcome(&bytes, "sess-9", seed, round);
                assert_eq!(status, SessionLoadStatus::Corrupt, "seed {seed:#x} round {round}");
            }
        }

        fn the_decoder_agrees_with_a_parse_on_mutations() {
            let seed = 0x5EED_0002_u64;
            let mut rng = Seeded::new(seed);
            let mut seen = [0_u32; 3];
            for round in 0..600 {
                let mut members = random_members(&mut rng);
                let bytes = mutate(&mut rng, &mut members);
                let index = match assert_same_outcome(&bytes, "sess-1", seed, round) {
                    SessionLoadStatus::Valid => 0,
                    SessionLoadStatus::Corrupt => 1,
                    _ => 2,
                };
                seen[index] += 1;
            }
            // The mutations reach every outcome, often.
            assert!(seen.iter().all(|count| *count > 30), "seed {seed:#x}: {seen:?}");
        }

        fn what_a_parse_refuses_is_not_valid_even_where_a_decoder_skips_it() {
            // An unknown member of the active branch is skipped by the typed decoder, but the
            // stored bytes must still be JSON a parse accepts.
            let call = |odd: &str| {
                stored(&format!(
                    r#""messages":[],"activeBranch":{{"branchId":"b","x-odd":{odd},"checkpointId":"c"}}"#
                ))
            };
            let deep = format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP));
            let nines = "9".repeat(400);
            for odd in [r#""\ud800""#, "1e400", nines.as_str()] {
                let outcome = load(&call(odd));
                assert_eq!(corrupt_paths(&outcome), [""], "for {odd}");
                assert!(outcome.issues()[0].message.contains("not JSON"), "for {odd}");
            }
            // Nesting past the read limit is refused where it passes the limit, before a parse
            // (the Cortex-M3 nests 20 deep, within it).
            if DEEP > ReadLimits::DEFAULT.depth {
                let outcome = load(&call(&deep));
                let bound = ReadLimits::DEFAULT.depth;
                let path = format!("record.activeBranch.x-odd{}", "[0]".repeat(bound - 3));
                assert_eq!(corrupt_paths(&outcome), [path.as_str()]);
                let said = format!("nesting deeper than {bound} levels");
                assert!(outcome.issues()[0].message.starts_with(&said));
            }
            // What a parse accepts stays valid (through locating where the streaming decode
            // declines): a surrogate pair, exponents, numbers and nesting within the limits
            // (the envelope, the record and the branch are three levels of the bound).
            let levels = if DEEP > 128 { ReadLimits::DEFAULT.depth - 3 } else { 8 };
            let nested = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
            for odd in [r#""\ud83d\ude00""#, "1e300", "-2.5E-3", nested.as_str(), &"9".repeat(299)] {
                assert_eq!(load(&call(odd)).status(), SessionLoadStatus::Valid, "for {odd}");
            }
        }

        fn a_repeated_member_keeps_its_last_value_on_every_path() {
            let members = [
                (r#""name":5,"name":"later","messages":[]"#, Some("later")),
                (r#""name":"first","name":null,"messages":[]"#, None),
                (r#""messages":7,"name":"n","messages":[]"#, Some("n")),
            ];
            for (text, name) in members {
                let record = load(&stored(text)).into_record().expect("valid");
                assert_eq!(record.name.as_deref(), name, "{text}");
            }
            assert_eq!(corrupt_paths(&load(&stored(r#""name":"ok","messages":[],"name":5"#))), ["record.name"]);
            // A repeated `record` and `schemaVersion` of the envelope: the last one counts.
            let twice = br#"{"schemaVersion":2,"record":5,"schemaVersion":1,"record":{"id":"sess-1","cwd":"/w","createdAt":"t","updatedAt":"t","messages":[]}}"#;
            assert_eq!(load(twice).status(), SessionLoadStatus::Valid);
            let later = br#"{"record":{"id":"sess-1","cwd":"/w","createdAt":"t","updatedAt":"t","messages":[]},"schemaVersion":3}"#;
            assert_eq!(load(later).status(), SessionLoadStatus::Unsupported);
            // A member repeated inside a message: the last one counts, as in a parse.
            let message = r#""messages":[{"role":"user","id":"m1","id":"m2","timestamp":"t","state":"complete","content":"hi"}]"#;
            let record = load(&stored(message)).into_record().expect("valid");
            assert_eq!(record.messages[0].base().id, "m2");
        }
    }

    mod codec {
        fn a_record_round_trips_through_encode_and_decode() {
            let record = full_record();
            assert!(record.plan.is_some() && record.active_branch.is_some());
            let bytes = encode_session_record(&record).expect("encodes");
            match decode_session_record(&bytes, "sess-1") {
                SessionRecordDecodeOutcome::Valid { record: back } => {
                    assert!(*back == record, "the record changed through a round trip");
                }
                _ => panic!("the encoded record does not decode"),
            }
            // The stored record is the golden record, member for member.
            let original: Value = serde_json::from_str(RECORD_FULL).expect("golden is JSON");
            let text = core::str::from_utf8(&bytes).expect("the encoder writes UTF-8");
            let written: Value = serde_json::from_str(text).expect("the encoder writes JSON");
            assert_eq!(written["schemaVersion"], 1);
            assert!(crate::support::json_eq(&written["record"], &original), "{written}");
        }

        fn the_stored_envelope_has_its_wire_form() {
            let bytes = encode_session_record(&minimal()).expect("encodes");
            let text = core::str::from_utf8(&bytes).expect("the encoder writes UTF-8");
            let written: Value = serde_json::from_str(text).expect("the encoder writes JSON");
            let expected: Value = serde_json::from_str(STORED_ENVELOPE).expect("golden is JSON");
            assert_eq!(written, expected);
            let outcome: SessionLoadOutcome =
                decode_session_record(STORED_ENVELOPE.as_bytes(), "sess-2").into();
            assert!(outcome == SessionLoadOutcome::valid(minimal()));
        }

        fn unknown_members_survive_a_store_round_trip() {
            let outcome = load(&envelope(&RECORD_EXTRA.replace("sess-3", "sess-1")));
            let Some(mut record) = outcome.into_record() else {
                panic!("the record with unknown members does not decode");
            };
            let keys: Vec<&str> = record.extra.keys().map(String::as_str).collect();
            assert_eq!(keys, ["pinnedBy", "uiState", "x-retention"]);
            record.name = Some(s("renamed"));
            let bytes = encode_session_record(&record).expect("encodes");
            let back = load(&bytes).into_record().expect("valid");
            assert!(back.extra == record.extra);
            assert_eq!(back.name.as_deref(), Some("renamed"));
        }

    }

    mod store {
        fn the_store_port_has_exactly_four_members() {
            let store = MemoryStore::default();
            let record = minimal();
            let saved = block_on(store.save(&record, SavePurpose::HandOff, ContentProvenance::Fork));
            assert_eq!(saved, Ok(SaveOutcome::Saved));
            let loaded = block_on(store.load("sess-2", LoadPurpose::Probe)).expect("reachable");
            assert!(loaded.record() == Some(&record));
            assert!(store.claims.borrow().is_empty(), "a probe left a claim behind");
            let listing = block_on(store.list()).expect("reachable");
            assert_eq!(listing.entries.len(), 1);
            block_on(store.delete("sess-2")).expect("reachable");
            let gone = block_on(store.load("sess-2", LoadPurpose::Resume)).expect("reachable");
            assert_eq!(gone.status(), SessionLoadStatus::Missing);
            assert_eq!(*store.claims.borrow(), [(s("sess-2"), LoadPurpose::Resume)]);
            assert_eq!(
                *store.saves.borrow(),
                [(s("sess-2"), SavePurpose::HandOff, ContentProvenance::Fork)]
            );
        }

        fn a_writer_refuses_what_it_cannot_read_and_leaves_it_intact() {
            let mut extra = agent_interface::agent_core::ValueMap::new();
            extra.insert(s("pinnedBy"), Value::from("alice"));
            let mut ok = minimal();
            ok.id = s("ok");
            ok.extra = extra;
            let valid = encode_session_record(&ok).expect("encodes");
            let store = MemoryStore::with(&[
                ("ok", Slot::Bytes(valid)),
                ("bad", Slot::Bytes(b"{\"schemaVersion\":1,\"record\":".to_vec())),
                ("next", Slot::Bytes(br#"{"schemaVersion":9,"record":{}}"#.to_vec())),
                ("sealed", Slot::Sealed(LockedReason::NoKeys)),
            ]);
            for id in ["bad", "next", "sealed"] {
                let before = store.slot(id);
                assert_eq!(block_on(rename(&store, id, "x")), Ok(None), "{id} was written");
                assert_eq!(store.slot(id), before, "{id} changed");
                // The store refuses too, even when asked directly.
                let mut direct = minimal();
                direct.id = s(id);
                assert_eq!(
                    block_on(store.save(&direct, SavePurpose::Run, ContentProvenance::External)),
                    Ok(SaveOutcome::Refused { reason: SaveRefusal::Unreadable })
                );
                assert_eq!(store.slot(id), before, "{id} changed");
            }

            assert_eq!(block_on(rename(&store, "ok", "renamed")), Ok(Some(SaveOutcome::Saved)));
            let renamed = store.outcome("ok").into_record().expect("valid");
            assert_eq!(renamed.name.as_deref(), Some("renamed"));
            assert_eq!(renamed.extra["pinnedBy"], "alice", "the writer dropped a member it does not own");

            // Missing is the one outcome a writer (or a recovery) may start from.
            assert_eq!(block_on(rename(&store, "new", "fresh")), Ok(Some(SaveOutcome::Saved)));
            assert_eq!(store.outcome("new").status(), SessionLoadStatus::Valid);
        }

        fn a_store_listing_keeps_unreadable_entries_visible() {
            let store = MemoryStore::with(&[
                ("sess-1", Slot::Bytes(stored(r#""messages":[]"#))),
                ("sess-2", Slot::Bytes(b"\xff".to_vec())),
                ("sess-3", Slot::Bytes(br#"{"schemaVersion":4,"record":{"cwd":"/w"}}"#.to_vec())),
                ("sess-4", Slot::Sealed(LockedReason::KeysLocked)),
                ("sess-5", Slot::Sealed(LockedReason::HeldFileChanged)),
                ("sess-6", Slot::Bytes(stored(r#""messages":[]"#))),
            ]);
            let listing = block_on(store.list()).expect("reachable");
            let rows: Vec<(&str, SessionLoadStatus)> = listing
                .entries
                .iter()
                .map(|entry| (entry.id.as_str(), entry.outcome.status()))
                .collect();
            assert_eq!(
                rows,
                [
                    ("sess-1", SessionLoadStatus::Valid),
                    ("sess-2", SessionLoadStatus::Corrupt),
                    ("sess-3", SessionLoadStatus::Unsupported),
                    // Stored under sess-6, the bytes name sess-1: not valid, and still listed.
                    ("sess-6", SessionLoadStatus::Corrupt),
                ]
            );
            assert_eq!(listing.entry("sess-3").and_then(|entry| entry.outcome.cwd()), Some("/w"));
            assert_eq!((listing.locked_count, listing.unopenable_count), (1, 1));
        }
    }
}

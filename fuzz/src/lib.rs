//! Support shared by the fuzz targets of `fuzz_targets/`: an executor-free `block_on`, a
//! deterministic RNG for the AEAD seal, the strict-JSON round-trip check, and small builders for
//! records and messages drawn from tiny alphabets (so that operation sequences collide on ids).
//!
//! Every check here panics with a message that says which property broke: a panic is what
//! libFuzzer reports as a crash, and the message is the first line of the report.

use std::fmt::Debug;

use agent_interface::agent_core::{
    AssistantMessage, ToolCall, ToolCallFunction, ToolMessage, UniversalMessage,
};
use agent_interface::runtime::record_store::rand_core::{TryCryptoRng, TryRng};
use agent_interface::session::records::InteractiveSessionRecord;
use arbitrary::Arbitrary;
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use embassy_futures::block_on;

/// A deterministic RNG (SplitMix64) for the AEAD seal's nonces. It claims `TryCryptoRng` only
/// so that the seal accepts it: fuzzing support, never a source of secrets.
pub struct FuzzRng(u64);

impl FuzzRng {
    /// An RNG seeded with `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl TryRng for FuzzRng {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.next() as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let word = self.next().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }
}

impl TryCryptoRng for FuzzRng {}

/// Decodes `data` as `T` (serde_json, as a peer's bytes are read) and, when it decodes, checks
/// the round trip: the value encodes, the encoding decodes to an equal value, and encoding that
/// again gives the same bytes. Returns the value for further checks.
pub fn json_round_trip<T>(name: &str, data: &[u8]) -> Option<T>
where
    T: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let value: T = serde_json::from_slice(data).ok()?;
    let encoded = serde_json::to_vec(&value)
        .unwrap_or_else(|e| panic!("{name}: a decoded value does not encode: {e}; {value:?}"));
    let again: T = serde_json::from_slice(&encoded).unwrap_or_else(|e| {
        panic!(
            "{name}: the encoding of a decoded value does not decode: {e}\n  input:   {}\n  encoded: {}",
            String::from_utf8_lossy(data),
            String::from_utf8_lossy(&encoded)
        )
    });
    assert!(
        again == value,
        "{name}: decode(encode(v)) != v\n  input:   {}\n  encoded: {}\n  first:  {value:?}\n  second: {again:?}",
        String::from_utf8_lossy(data),
        String::from_utf8_lossy(&encoded)
    );
    let encoded_again = serde_json::to_vec(&again).expect("encodes once, encodes twice");
    assert!(
        encoded_again == encoded,
        "{name}: the encoding is not stable\n  first:  {}\n  second: {}",
        String::from_utf8_lossy(&encoded),
        String::from_utf8_lossy(&encoded_again)
    );
    Some(value)
}

/// [`json_round_trip`] for a strict decoder (docs/decisions/strict-decoding.md: every decoder
/// that refuses an unknown member also refuses a repeated one): additionally, when the input's
/// top-level object repeats a key, the decoder must have refused it if the key is one of the
/// type's own members (one its encoding writes). A repeated unknown member may be ignored.
pub fn json_round_trip_strict<T>(name: &str, data: &[u8]) -> Option<T>
where
    T: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let value = json_round_trip::<T>(name, data)?;
    let Some(keys) = object_keys(data) else {
        return Some(value);
    };
    let mut seen = std::collections::BTreeSet::new();
    let repeated: Vec<&String> = keys.iter().filter(|key| !seen.insert(*key)).collect();
    if repeated.is_empty() {
        return Some(value);
    }
    let encoded = serde_json::to_vec(&value).expect("checked above");
    let own = object_keys(&encoded).unwrap_or_default();
    for key in repeated {
        assert!(
            !own.contains(key),
            "{name}: accepted a repeated member `{key}`: {}",
            String::from_utf8_lossy(data)
        );
    }
    Some(value)
}

/// [`json_round_trip`] for a type without `PartialEq`: the value encodes, the encoding decodes,
/// and encoding that again gives the same bytes.
pub fn json_round_trip_bytes<T>(name: &str, data: &[u8]) -> Option<T>
where
    T: DeserializeOwned + Serialize + Debug,
{
    let value: T = serde_json::from_slice(data).ok()?;
    let encoded = serde_json::to_vec(&value)
        .unwrap_or_else(|e| panic!("{name}: a decoded value does not encode: {e}; {value:?}"));
    let again: T = serde_json::from_slice(&encoded).unwrap_or_else(|e| {
        panic!(
            "{name}: the encoding of a decoded value does not decode: {e}\n  input:   {}\n  encoded: {}",
            String::from_utf8_lossy(data),
            String::from_utf8_lossy(&encoded)
        )
    });
    let encoded_again = serde_json::to_vec(&again).expect("encodes once, encodes twice");
    assert!(
        encoded_again == encoded,
        "{name}: decode(encode(v)) encodes differently\n  input:  {}\n  first:  {}\n  second: {}",
        String::from_utf8_lossy(data),
        String::from_utf8_lossy(&encoded),
        String::from_utf8_lossy(&encoded_again)
    );
    Some(value)
}

/// One of four record ids (all valid [`RecordId`](agent_interface::runtime::record_store::RecordId)s),
/// or, rarely, one a store refuses.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SmallId {
    A,
    B,
    C,
    D,
    /// `.hidden`: refused by every store (leading dot).
    Invalid,
}

impl SmallId {
    /// The id as text.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::A => "sess-a",
            Self::B => "sess-b",
            Self::C => "sess-c",
            Self::D => "sess-d",
            Self::Invalid => ".hidden",
        }
    }

    /// Whether a store accepts it.
    #[must_use]
    pub const fn is_valid(self) -> bool {
        !matches!(self, Self::Invalid)
    }

    /// The id as a [`RecordId`](agent_interface::runtime::record_store::RecordId), the type the
    /// store's own members and the medium take; `None` for [`Self::Invalid`].
    #[must_use]
    pub fn record_id(self) -> Option<agent_interface::runtime::record_store::RecordId> {
        agent_interface::runtime::record_store::RecordId::new(self.as_str()).ok()
    }
}

/// A record with `id` whose conversation is `messages` user messages (its content varies with
/// `salt`, so two saves of one id can differ).
#[must_use]
pub fn record(id: &str, messages: u8, salt: u8) -> InteractiveSessionRecord {
    let mut record = InteractiveSessionRecord::new(
        id,
        "/work/app",
        "2026-09-24T10:00:00Z",
        "2026-09-24T10:00:00Z",
    );
    for n in 0..messages {
        record
            .messages
            .push(user_message(&format!("m{n}"), &format!("hello {salt} {n}")));
    }
    record
}

const AT: &str = "2026-09-24T10:00:00.000Z";

/// A user message.
#[must_use]
pub fn user_message(id: &str, content: &str) -> UniversalMessage {
    UniversalMessage::user(id, AT, content)
}

/// An assistant message making the calls `(call id, tool name)`.
#[must_use]
pub fn assistant_message(id: &str, calls: &[(String, String)]) -> UniversalMessage {
    let calls = calls
        .iter()
        .map(|(call, tool)| ToolCall::new(call, ToolCallFunction::new(tool, "{}")))
        .collect();
    AssistantMessage::new(id, AT, None)
        .with_tool_calls(calls)
        .into()
}

/// A tool message answering `call`.
#[must_use]
pub fn tool_message(id: &str, call: &str, tool: Option<&str>) -> UniversalMessage {
    let message = ToolMessage::new(id, AT, call, "done");
    match tool {
        Some(tool) => message.with_name(tool).into(),
        None => message.into(),
    }
}

/// The keys of the top-level JSON object in `data`, as written (a repeated key appears twice);
/// `None` when `data` is not a JSON object.
#[must_use]
pub fn object_keys(data: &[u8]) -> Option<Vec<String>> {
    use serde::Deserializer as _;
    use serde::de::{IgnoredAny, MapAccess, Visitor};

    struct Keys;

    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut keys = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                keys.push(key);
            }
            Ok(keys)
        }
    }

    let mut deserializer = serde_json::Deserializer::from_slice(data);
    let keys = deserializer.deserialize_map(Keys).ok()?;
    deserializer.end().ok()?;
    Some(keys)
}

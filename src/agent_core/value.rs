//! JSON-like values (`TUniversalValue`) and the maps built from them.

use alloc::string::String;

/// Any value that crosses a contract boundary untyped (`TUniversalValue`, `unknown`).
///
/// This is `serde_json::Value` itself, not a home-made mirror, so every JSON tool in the Rust
/// ecosystem reads it. What the TypeScript type allows beyond JSON maps as follows: a `Date` is
/// carried as its ISO-8601 string, and `undefined` has no value of its own (an absent field is
/// `None` on the record that holds it).
pub type Value = serde_json::Value;

/// A string-keyed map of [`Value`]s (`Record<string, TUniversalValue>`), in serde_json's map order.
pub type ValueMap = serde_json::Map<String, Value>;

/// The arguments a runtime tool is invoked with (`TToolParameters`): parameter name to value.
pub type ToolParameters = ValueMap;

/// The arguments of a model-issued tool call as permission checks see them (`TToolArgs`).
///
/// The TypeScript type admits only strings, numbers, booleans and objects (arrays included) as
/// values; this alias does not enforce that, so a `null` value decodes too. Permission matching
/// only ever reads the string values.
pub type ToolArgs = ValueMap;

/// Decodes a key that must be present but whose value may be `null` (`T | null`).
///
/// Used with `deserialize_with` and without `default`, so serde reports a missing key as
/// "missing field" instead of quietly reading it as `None`.
#[cfg(feature = "serde")]
pub(super) fn required_nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    <Option<T> as serde::Deserialize>::deserialize(deserializer)
}

/// Decodes an optional key whose value is kept exactly as written, `null` included.
///
/// Used with `default` and `deserialize_with` on `Option<Value>`-like fields: an absent key is
/// `None`, a present `null` is `Some(Value::Null)`, so a round trip writes back what it read.
#[cfg(feature = "serde")]
pub(super) fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

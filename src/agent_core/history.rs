//! The append-only history timeline (`IHistoryEntry`).

use alloc::string::String;

use super::value::Value;

/// One entry of a session's history (`IHistoryEntry<T>`): a timeline that records chat
/// messages, events, permission decisions and anything else, and is only ever appended to.
///
/// `category` and `kind` (wire `type`) are free-form strings, not closed sets: a reader skips
/// what it does not know. `T` is the payload type, [`Value`] when untyped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        rename_all = "camelCase",
        bound(
            serialize = "T: serde::Serialize",
            deserialize = "T: serde::Deserialize<'de>"
        )
    )
)]
#[non_exhaustive]
pub struct HistoryEntry<T = Value> {
    /// The entry's unique id.
    pub id: String,
    /// When the entry was made: an ISO-8601 string (a JS `Date` on the TypeScript side), carried
    /// as written and not validated here.
    pub timestamp: String,
    /// The top-level class of the entry, e.g. [`HistoryEntry::CHAT`] or `"event"`.
    pub category: String,
    /// The class within the category (wire `type`), e.g. a message role or an event name.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: String,
    /// The payload. An absent key is `None`; a present value is kept as written (for
    /// `T = Value` a `null` payload stays `Some(Value::Null)`), so a round trip loses nothing.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "super::value::present"
        )
    )]
    pub data: Option<T>,
}

impl<T> HistoryEntry<T> {
    /// The entry `id` at `timestamp`, of `category` and `kind`, carrying no data.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        timestamp: impl Into<String>,
        category: impl Into<String>,
        kind: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            timestamp: timestamp.into(),
            category: category.into(),
            kind: kind.into(),
            data: None,
        }
    }

    /// The same entry carrying `data`.
    #[must_use]
    pub fn with_data(mut self, data: T) -> Self {
        self.data = Some(data);
        self
    }

    /// The category of entries that hold conversation messages (the ones a provider sees).
    pub const CHAT: &'static str = "chat";

    /// True when the entry is a chat message (`category` is exactly `"chat"`).
    #[must_use]
    pub fn is_chat(&self) -> bool {
        self.category == Self::CHAT
    }
}

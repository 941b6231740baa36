//! The read-only port, its values, its cancellation signal and its one error.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{AbortSignal, ErrorValue};

/// Which version of shared memory a snapshot is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct SharedMemoryState {
    /// The provider's version of its contents; a different revision is a different snapshot.
    pub revision: u64,
    /// The host time (milliseconds) the snapshot was taken, when the provider knows it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub taken_at_ms: Option<u64>,
}

/// What a provider tells about one store (not its entries).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct SharedMemoryStoreInfo {
    /// The store's id, unique within a snapshot and never empty.
    pub id: String,
    /// What the store holds, in words, if the provider has that.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub description: Option<String>,
    /// The host time (milliseconds) the store last changed, if the provider knows it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub updated_at_ms: Option<u64>,
}

impl SharedMemoryStoreInfo {
    /// Info with only an id.
    #[must_use]
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            description: None,
            updated_at_ms: None,
        }
    }
}

/// The snapshot state and every store's info, stores in id order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct SharedMemorySnapshot {
    /// Which version of shared memory this is.
    pub state: SharedMemoryState,
    /// Every store's info, in id order (byte-wise).
    pub stores: Vec<SharedMemoryStoreInfo>,
}

/// One entry of a store: a non-empty key and its text, byte for byte.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct SharedMemoryEntry {
    /// The key, unique within its store.
    pub key: String,
    /// The value exactly as loaded.
    pub value: String,
}

impl SharedMemoryEntry {
    /// An entry from a key and a value.
    #[must_use]
    pub fn new(key: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            key: key.into(),
            value: value.into(),
        }
    }
}

/// Why a read has no answer. Absence is not here: it is `Ok(None)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SharedMemoryReadError {
    /// The host's signal was set; nothing of the answer is returned.
    #[error("the shared-memory read was cancelled")]
    Cancelled,
    /// The provider could not read its storage (its error).
    #[error("shared memory is unavailable: {0}")]
    Unavailable(ErrorValue),
}

/// The read-only shared-memory seam. Every read takes the host's signal; see the module docs
/// for the obligations (absence as a value, whole answers or cancellation, key order).
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design.
pub trait SharedMemoryProvider {
    /// The snapshot state and every store's info, in id order.
    ///
    /// # Errors
    /// [`SharedMemoryReadError::Cancelled`] if the signal is set before the answer is whole;
    /// [`SharedMemoryReadError::Unavailable`] if the provider cannot read.
    async fn snapshot(
        &self,
        signal: &dyn AbortSignal,
    ) -> Result<SharedMemorySnapshot, SharedMemoryReadError>;

    /// One store's info; `None` for an unknown store.
    ///
    /// # Errors
    /// As for [`snapshot`](Self::snapshot); never for an unknown store.
    async fn store_info(
        &self,
        store: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<SharedMemoryStoreInfo>, SharedMemoryReadError>;

    /// One entry's value; `None` for an unknown store or key.
    ///
    /// # Errors
    /// As for [`snapshot`](Self::snapshot); never for an unknown store or key.
    async fn read_entry(
        &self,
        store: &str,
        key: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<String>, SharedMemoryReadError>;

    /// Every entry of `store` whose key starts with `prefix`, in key order, and nothing else;
    /// `None` for an unknown store, an empty list when nothing matches.
    ///
    /// # Errors
    /// As for [`snapshot`](Self::snapshot); never for an unknown store or no match.
    async fn read_prefix(
        &self,
        store: &str,
        prefix: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<Vec<SharedMemoryEntry>>, SharedMemoryReadError>;
}

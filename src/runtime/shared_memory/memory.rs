//! The contents a provider is loaded with ([`SharedMemoryFixture`]) and the in-memory provider
//! over them ([`InMemorySharedMemory`]).

use alloc::collections::BTreeMap;
use alloc::collections::btree_map::Entry;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Bound;

use crate::agent_core::AbortSignal;

use super::seam::{
    SharedMemoryEntry, SharedMemoryProvider, SharedMemoryReadError, SharedMemorySnapshot,
    SharedMemoryState, SharedMemoryStoreInfo,
};

/// One store as handed in: its info and its entries (in any order; keys must be unique).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct SharedMemoryStoreFixture {
    /// The store's info (its id included).
    pub info: SharedMemoryStoreInfo,
    /// The store's entries.
    pub entries: Vec<SharedMemoryEntry>,
}

impl SharedMemoryStoreFixture {
    /// A store from its info and `(key, value)` pairs.
    #[must_use]
    pub fn new<K: Into<String>, V: Into<String>>(
        info: SharedMemoryStoreInfo,
        entries: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        Self {
            info,
            entries: entries
                .into_iter()
                .map(|(key, value)| SharedMemoryEntry::new(key, value))
                .collect(),
        }
    }
}

/// Why contents cannot be a fixture.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SharedMemoryFixtureError {
    /// A store's id is empty.
    #[error("a shared-memory store has an empty id")]
    EmptyStoreId,
    /// Two stores have this id.
    #[error("two shared-memory stores have the id {id:?}")]
    DuplicateStore {
        /// The id.
        id: String,
    },
    /// A key of this store is empty.
    #[error("store {store:?} has an entry with an empty key")]
    EmptyKey {
        /// The store's id.
        store: String,
    },
    /// This key appears twice in this store.
    #[error("store {store:?} has the key {key:?} twice")]
    DuplicateKey {
        /// The store's id.
        store: String,
        /// The key.
        key: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct StoreContents {
    info: SharedMemoryStoreInfo,
    entries: BTreeMap<String, String>,
}

/// What a provider is loaded with: the snapshot state and a set of stores, each with its info
/// and its entries. Store ids and keys are non-empty and unique (checked on construction), so
/// every read has exactly one faithful answer, which the accessors here give (the conformance
/// suite compares a provider's reads with them).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "FixtureWire",
        into = "FixtureWire",
        rename_all = "camelCase"
    )
)]
pub struct SharedMemoryFixture {
    state: SharedMemoryState,
    stores: BTreeMap<String, StoreContents>,
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FixtureWire {
    state: SharedMemoryState,
    stores: Vec<SharedMemoryStoreFixture>,
}

#[cfg(feature = "serde")]
impl TryFrom<FixtureWire> for SharedMemoryFixture {
    type Error = SharedMemoryFixtureError;

    fn try_from(wire: FixtureWire) -> Result<Self, Self::Error> {
        Self::new(wire.state, wire.stores)
    }
}

#[cfg(feature = "serde")]
impl From<SharedMemoryFixture> for FixtureWire {
    fn from(fixture: SharedMemoryFixture) -> Self {
        let stores = fixture.store_fixtures();
        Self {
            state: fixture.state,
            stores,
        }
    }
}

impl SharedMemoryFixture {
    /// Contents from a state and stores.
    ///
    /// # Errors
    /// An empty or repeated store id, or an empty or repeated key within a store.
    pub fn new(
        state: SharedMemoryState,
        stores: impl IntoIterator<Item = SharedMemoryStoreFixture>,
    ) -> Result<Self, SharedMemoryFixtureError> {
        let mut map = BTreeMap::new();
        for store in stores {
            let id = store.info.id.clone();
            if id.is_empty() {
                return Err(SharedMemoryFixtureError::EmptyStoreId);
            }
            let mut entries = BTreeMap::new();
            for entry in store.entries {
                if entry.key.is_empty() {
                    return Err(SharedMemoryFixtureError::EmptyKey { store: id });
                }
                match entries.entry(entry.key) {
                    Entry::Occupied(taken) => {
                        return Err(SharedMemoryFixtureError::DuplicateKey {
                            store: id,
                            key: taken.key().clone(),
                        });
                    }
                    Entry::Vacant(slot) => {
                        slot.insert(entry.value);
                    }
                }
            }
            match map.entry(id) {
                Entry::Occupied(taken) => {
                    return Err(SharedMemoryFixtureError::DuplicateStore {
                        id: taken.key().clone(),
                    });
                }
                Entry::Vacant(slot) => {
                    slot.insert(StoreContents {
                        info: store.info,
                        entries,
                    });
                }
            }
        }
        Ok(Self { state, stores: map })
    }

    /// The snapshot state.
    #[must_use]
    pub const fn state(&self) -> &SharedMemoryState {
        &self.state
    }

    /// The snapshot a faithful provider answers: the state and every store's info, in id order.
    #[must_use]
    pub fn snapshot(&self) -> SharedMemorySnapshot {
        SharedMemorySnapshot {
            state: self.state.clone(),
            stores: self
                .stores
                .values()
                .map(|store| store.info.clone())
                .collect(),
        }
    }

    /// Every store id, in id order.
    pub fn store_ids(&self) -> impl Iterator<Item = &str> {
        self.stores.keys().map(String::as_str)
    }

    /// One store's info; `None` for an unknown store.
    #[must_use]
    pub fn store_info(&self, store: &str) -> Option<&SharedMemoryStoreInfo> {
        self.stores.get(store).map(|contents| &contents.info)
    }

    /// One store's entries as `(key, value)`, in key order; `None` for an unknown store.
    #[must_use]
    pub fn entries(&self, store: &str) -> Option<impl Iterator<Item = (&str, &str)>> {
        self.stores.get(store).map(|contents| {
            contents
                .entries
                .iter()
                .map(|(key, value)| (key.as_str(), value.as_str()))
        })
    }

    /// One entry's value; `None` for an unknown store or key.
    #[must_use]
    pub fn value(&self, store: &str, key: &str) -> Option<&str> {
        self.stores.get(store)?.entries.get(key).map(String::as_str)
    }

    /// The entries of `store` whose key starts with `prefix`, in key order, as `(key, value)`;
    /// `None` for an unknown store.
    #[must_use]
    pub fn prefixed<'a>(
        &'a self,
        store: &str,
        prefix: &'a str,
    ) -> Option<impl Iterator<Item = (&'a str, &'a str)>> {
        self.stores.get(store).map(|contents| {
            contents
                .entries
                .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
                .take_while(move |(key, _)| key.starts_with(prefix))
                .map(|(key, value)| (key.as_str(), value.as_str()))
        })
    }

    /// The stores as handed in, in id order with entries in key order.
    #[must_use]
    pub fn store_fixtures(&self) -> Vec<SharedMemoryStoreFixture> {
        self.stores
            .values()
            .map(|store| SharedMemoryStoreFixture::new(store.info.clone(), &store.entries))
            .collect()
    }
}

/// A provider over contents held in memory: the reference provider, and the one a host uses
/// when shared memory is small enough to load whole. It honours every obligation of the seam
/// (it asks the signal before answering and before each further entry or store).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InMemorySharedMemory {
    contents: SharedMemoryFixture,
}

impl InMemorySharedMemory {
    /// A provider that reads back `contents`.
    #[must_use]
    pub const fn new(contents: SharedMemoryFixture) -> Self {
        Self { contents }
    }

    /// The contents it reads.
    #[must_use]
    pub const fn contents(&self) -> &SharedMemoryFixture {
        &self.contents
    }
}

impl From<SharedMemoryFixture> for InMemorySharedMemory {
    fn from(contents: SharedMemoryFixture) -> Self {
        Self::new(contents)
    }
}

fn checked(signal: &dyn AbortSignal) -> Result<(), SharedMemoryReadError> {
    if signal.is_aborted() {
        Err(SharedMemoryReadError::Cancelled)
    } else {
        Ok(())
    }
}

/// Collects `items`, asking the signal before the first and between every two; a set signal
/// drops what was collected.
fn collect<T>(
    signal: &dyn AbortSignal,
    items: impl Iterator<Item = T>,
) -> Result<Vec<T>, SharedMemoryReadError> {
    checked(signal)?;
    let mut out = Vec::new();
    for item in items {
        if !out.is_empty() {
            checked(signal)?;
        }
        out.push(item);
    }
    Ok(out)
}

impl SharedMemoryProvider for InMemorySharedMemory {
    async fn snapshot(
        &self,
        signal: &dyn AbortSignal,
    ) -> Result<SharedMemorySnapshot, SharedMemoryReadError> {
        let stores = collect(
            signal,
            self.contents
                .stores
                .values()
                .map(|store| store.info.clone()),
        )?;
        Ok(SharedMemorySnapshot {
            state: self.contents.state.clone(),
            stores,
        })
    }

    async fn store_info(
        &self,
        store: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<SharedMemoryStoreInfo>, SharedMemoryReadError> {
        checked(signal)?;
        Ok(self.contents.store_info(store).cloned())
    }

    async fn read_entry(
        &self,
        store: &str,
        key: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<String>, SharedMemoryReadError> {
        checked(signal)?;
        Ok(self.contents.value(store, key).map(String::from))
    }

    async fn read_prefix(
        &self,
        store: &str,
        prefix: &str,
        signal: &dyn AbortSignal,
    ) -> Result<Option<Vec<SharedMemoryEntry>>, SharedMemoryReadError> {
        match self.contents.prefixed(store, prefix) {
            None => checked(signal).map(|()| None),
            Some(entries) => collect(
                signal,
                entries.map(|(key, value)| SharedMemoryEntry::new(key, value)),
            )
            .map(Some),
        }
    }
}

//! The in-memory medium: records and writer markers in two maps, for tests, embedded hosts and
//! any host that keeps sessions only for the life of the process.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::convert::Infallible;

use super::medium::{RecordMedium, WriterId, WriterMark};
use super::seal::Unsealed;
use super::store::{RecordId, RecordStore};

/// A [`RecordMedium`] in memory: whole writes and atomic marking, trivially (single-threaded
/// interior mutability; no call awaits anything). It cannot fail: its error is
/// [`Infallible`].
///
/// Share it by reference: two stores over one `&MemoryMedium` are two processes over one
/// directory. Tests plant raw bytes through [`RecordMedium::write`].
#[derive(Debug, Default)]
pub struct MemoryMedium {
    records: RefCell<BTreeMap<RecordId, Vec<u8>>>,
    markers: RefCell<BTreeMap<RecordId, WriterId>>,
}

impl MemoryMedium {
    /// An empty medium.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            records: RefCell::new(BTreeMap::new()),
            markers: RefCell::new(BTreeMap::new()),
        }
    }
}

/// The memory store: a [`RecordStore`] over a shared [`MemoryMedium`] that never seals.
pub type MemoryRecordStore<'m> = RecordStore<&'m MemoryMedium, Unsealed>;

impl RecordMedium for MemoryMedium {
    type Error = Infallible;

    async fn read(&self, id: &RecordId) -> Result<Option<Vec<u8>>, Infallible> {
        Ok(self.records.borrow().get(id).cloned())
    }

    async fn write(&self, id: &RecordId, bytes: &[u8]) -> Result<(), Infallible> {
        self.records.borrow_mut().insert(id.clone(), bytes.to_vec());
        Ok(())
    }

    async fn remove(&self, id: &RecordId) -> Result<(), Infallible> {
        self.records.borrow_mut().remove(id);
        Ok(())
    }

    async fn ids(&self) -> Result<Vec<RecordId>, Infallible> {
        Ok(self.records.borrow().keys().cloned().collect())
    }

    async fn mark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<WriterMark, Infallible> {
        let mut markers = self.markers.borrow_mut();
        match markers.get(id) {
            Some(held) if held != writer => Ok(WriterMark::HeldBy(held.clone())),
            Some(_) => Ok(WriterMark::Marked),
            None => {
                markers.insert(id.clone(), writer.clone());
                Ok(WriterMark::Marked)
            }
        }
    }

    async fn writer(&self, id: &RecordId) -> Result<Option<WriterId>, Infallible> {
        Ok(self.markers.borrow().get(id).cloned())
    }

    async fn unmark_writer(&self, id: &RecordId, writer: &WriterId) -> Result<bool, Infallible> {
        let mut markers = self.markers.borrow_mut();
        if markers.get(id) == Some(writer) {
            markers.remove(id);
            Ok(true)
        } else {
            Ok(false)
        }
    }

    async fn transfer_writer(
        &self,
        id: &RecordId,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, Infallible> {
        match self.markers.borrow_mut().get_mut(id) {
            Some(held) if held == from => {
                *held = to.clone();
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

//! With `record-store`, the store, the memory medium and the id check are reachable.
use agent_interface::runtime::record_store::{
    MemoryMedium, RecordId, RecordStore, Unsealed, WriterId,
};

fn main() {
    let medium = MemoryMedium::new();
    let writer = WriterId::new("host-1").expect("a valid writer id");
    let store = RecordStore::new(&medium, Unsealed, writer);
    assert_eq!(store.writer_id().as_str(), "host-1");
    assert!(RecordId::new("s-1").is_ok());
    assert!(RecordId::new("../s").is_err());
}

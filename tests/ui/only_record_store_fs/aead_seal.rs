//! With `record-store-fs`, the AEAD seal (`sealing`) still does not exist.
use agent_interface::runtime::record_store::AeadSeal;

fn main() {}

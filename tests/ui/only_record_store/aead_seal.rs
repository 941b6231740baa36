//! With only `record-store`, the AEAD seal (`sealing`) does not exist.
use agent_interface::runtime::record_store::AeadSeal;

fn main() {}

//! With every piece on but `sealing`, the AEAD seal of the record store does not exist, and the error names the feature.
use agent_interface::runtime::record_store::AeadSeal;

fn main() {}

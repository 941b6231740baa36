//! Without `record-codec`, the record codec does not exist, and the error names the feature.
use agent_interface::runtime::record_codec::decode_session_record;

fn main() {}

//! With only `session`, the record codec (`record-codec`) does not exist: the family keeps the
//! decode outcome, not the decoder.
use agent_interface::runtime::record_codec::decode_session_record;

fn main() {}

//! With only `turn-queue`, the record codec does not exist: the queue needs session, not records.
use agent_interface::runtime::record_codec::decode_session_record;

fn main() {}

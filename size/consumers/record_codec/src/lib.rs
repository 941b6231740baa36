//! Record decode + encode: the bytes a store keeps, decoded under a stored id and, when valid,
//! encoded back (the session family's codec: `decode_session_record`, `encode_session_record`).
//!
//! Input: the stored id, a NUL byte, then the stored bytes. Answer: the length of the re-encoded
//! record, or the number of issues of a corrupt one (with the top bit set), or 1 for an
//! unsupported version.
#![no_std]

use agent_interface::runtime::record_codec::{decode_session_record, encode_session_record};
use agent_interface::session::records::SessionRecordDecodeOutcome;

/// Decodes the record in `input` and encodes it back.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let (stored_id, bytes) = size_support::split_text(input);
    match decode_session_record(bytes, stored_id) {
        SessionRecordDecodeOutcome::Valid { record } => match encode_session_record(&record) {
            Ok(encoded) => encoded.len() as u32,
            Err(_) => 0,
        },
        SessionRecordDecodeOutcome::Corrupt { issues, .. } => 0x8000_0000 | issues.len() as u32,
        SessionRecordDecodeOutcome::Unsupported { .. } => 1,
    }
}

size_support::wasm_exports!(run);

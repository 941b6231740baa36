//! The complete resumable record of a session and its store port: what a load answers, what a
//! save declares, listings, digests and the members only a sealing store has, and the
//! vocabulary of a decode.
//!
//! # Guarantees
//!
//! - The record ([`InteractiveSessionRecord`]) keeps fields a writer does not own.
//! - The store port ([`InteractiveSessionStore`]) is CRUD with no record path.
//! - A load ends in one of five outcomes ([`SessionLoadOutcome`]); only `missing` permits
//!   recovery, and a writer never overwrites corrupt, unsupported or locked records.
//! - A decode answers valid, corrupt (with located issues) or unsupported, never `missing`
//!   ([`SessionRecordDecodeOutcome`]); the codec itself is the `record-codec` runtime piece.
//!
//! # Example
//!
//! ```
//! use agent_interface::session::records::{SESSION_RECORD_SCHEMA_VERSION, SessionLoadStatus};
//!
//! assert_eq!(SESSION_RECORD_SCHEMA_VERSION, 1);
//! assert_eq!(SessionLoadStatus::Missing.as_str(), "missing");
//! ```

mod decode;
#[cfg(feature = "serde")]
mod json_text;
mod record;
mod store;

pub use decode::SessionRecordDecodeOutcome;
pub use record::{InteractiveSessionRecord, SESSION_RECORD_SCHEMA_VERSION};
pub use store::{
    ContentProvenance, CrossStoreToken, DigestAlgorithm, InteractiveSessionStore,
    InvalidSha256Digest, LoadPurpose, LockedReason, RaiseOutcome, RecordDigest, RecordOwner,
    SaveOutcome, SavePurpose, SaveRefusal, SealingSessionStore, SessionListEntry,
    SessionLoadOutcome, SessionLoadStatus, SessionRecordDecodeIssue, SessionStoreListing,
    Sha256Digest, TokenIssue,
};

// The runtime piece `record-codec` reads through the member decoder the record's own
// `Deserialize` uses, and through the same outline of JSON text; both are named through this module.
#[cfg(feature = "record-codec")]
pub(crate) use decode::{RECORD, decode_members_unread, describe_text};
#[cfg(feature = "session-protocol")]
pub(crate) use json_text::each_member;
#[cfg(any(feature = "record-codec", feature = "session-protocol"))]
pub(crate) use json_text::whole;
#[cfg(feature = "record-codec")]
pub(crate) use json_text::{Child, Member, first_byte, named, outline_plain};

//! The orchestration ports (`handoff-composition`): what the host supplies to the source and the
//! destination (sealing, chunking, integrity verification, reassembly, record decoding), and the
//! frames and answers that pass through them.
//!
//! The crate never serializes, hashes, chunks or decodes a payload itself: those are host
//! effects, so the host chooses the sealing and the digest, and the crate only sequences them
//! and decides. The source needs a [`HandoffSourceComposition`] (seal, chunk), the destination a
//! [`HandoffDestinationComposition`] (verify, assemble, decode); a host that plays both sides
//! implements both and has a [`HandoffComposition`] (`IHandoffComposition`).
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::Value;
use crate::session::records::{InteractiveSessionRecord, SessionRecordDecodeOutcome};

use super::contracts::HandoffIntegrity;
use super::offer::SourceRuntimeState;

/// What the source's `offer` takes (`IHandoffManifestRequest`): the ids, the record, what the
/// source is doing, and when. The source seals the record and builds the manifest from it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct HandoffManifestRequest {
    /// The transfer (a retry reuses it).
    pub handoff_id: String,
    /// The session.
    pub session_id: String,
    /// This machine.
    pub source_device_id: String,
    /// The machine it goes to.
    pub destination_device_id: String,
    /// The record to move.
    pub record: InteractiveSessionRecord,
    /// What this machine is doing now.
    pub runtime: SourceRuntimeState,
    /// Now (ms since the Unix epoch).
    pub offered_at: u64,
}

impl HandoffManifestRequest {
    /// The request to move session `session_id` (its `record`) from `source_device_id` to
    /// `destination_device_id` as transfer `handoff_id`, with the source doing `runtime`, at
    /// `offered_at` (ms since the epoch).
    #[must_use]
    pub fn new(
        handoff_id: impl Into<String>,
        session_id: impl Into<String>,
        source_device_id: impl Into<String>,
        destination_device_id: impl Into<String>,
        record: InteractiveSessionRecord,
        runtime: SourceRuntimeState,
        offered_at: u64,
    ) -> Self {
        Self {
            handoff_id: handoff_id.into(),
            session_id: session_id.into(),
            source_device_id: source_device_id.into(),
            destination_device_id: destination_device_id.into(),
            record,
            runtime,
            offered_at,
        }
    }
}

/// One piece of a sealed payload on its way (`IHandoffChunkFrame`): piece `index` of `total`.
///
/// Valid by construction: `index < total`. Wire form: `{"handoffId", "index", "total",
/// "data"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::ChunkFrameWire", into = "wire::ChunkFrameWire")
)]
pub struct HandoffChunkFrame {
    handoff_id: String,
    index: u32,
    total: u32,
    data: String,
}

/// The refusal of a chunk frame whose index is not below its total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("chunk index {index} is not below its total {total} (a transfer has chunks 0..total)")]
pub struct InvalidChunkFrame {
    /// The index given.
    pub index: u32,
    /// The total given.
    pub total: u32,
}

impl HandoffChunkFrame {
    /// Piece `index` of `total` of hand-off `handoff_id`, carrying `data`.
    ///
    /// # Errors
    ///
    /// [`InvalidChunkFrame`] when `index >= total`.
    pub fn new(
        handoff_id: impl Into<String>,
        index: u32,
        total: u32,
        data: impl Into<String>,
    ) -> Result<Self, InvalidChunkFrame> {
        if index >= total {
            return Err(InvalidChunkFrame { index, total });
        }
        Ok(Self {
            handoff_id: handoff_id.into(),
            index,
            total,
            data: data.into(),
        })
    }

    /// The transfer it belongs to.
    #[must_use]
    pub fn handoff_id(&self) -> &str {
        &self.handoff_id
    }

    /// Its position, below [`total`](Self::total).
    #[must_use]
    pub const fn index(&self) -> u32 {
        self.index
    }

    /// How many pieces the payload has (at least 1).
    #[must_use]
    pub const fn total(&self) -> u32 {
        self.total
    }

    /// Its piece of the serialized payload.
    #[must_use]
    pub fn data(&self) -> &str {
        &self.data
    }

    /// The piece of the serialized payload, by value.
    #[must_use]
    pub fn into_data(self) -> String {
        self.data
    }
}

string_enum! {
    /// How a payload failed its integrity check (the `failure` of `IIntegrityOutcome`).
    pub enum IntegrityFailure {
        /// `'truncated'`: the byte length differs from the manifest's.
        Truncated = "truncated",
        /// `'digest-mismatch'`: the length matches, the digest does not.
        DigestMismatch = "digest-mismatch",
    }
}

/// The host's verdict on a reassembled payload against the manifest's integrity
/// (`IIntegrityOutcome`).
///
/// Wire form: `{"intact": true}` | `{"intact": false, "failure", "expectedBytes",
/// "actualBytes"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::IntegrityWire", into = "wire::IntegrityWire")
)]
pub enum IntegrityOutcome {
    /// The bytes that arrived are the bytes that were sent.
    Intact,
    /// They are not.
    Failed {
        /// How.
        failure: IntegrityFailure,
        /// The byte length the manifest declared.
        expected_bytes: u64,
        /// The byte length that arrived.
        actual_bytes: u64,
    },
}

/// What the assembler did with one chunk (`IAssembleOutcome`).
///
/// Wire form: tagged on `outcome` (`accepted`, `duplicate`, `complete`, `refused`) with
/// `received`, `expected`?, and `serialized` (complete) or `rejection` (refused).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "outcome",
        rename_all = "lowercase",
        rename_all_fields = "camelCase"
    )
)]
pub enum AssembleOutcome {
    /// A new chunk was kept; more are missing.
    Accepted {
        /// Distinct chunks held.
        received: u32,
        /// Chunks expected, once known.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        expected: Option<u32>,
    },
    /// A chunk already held arrived again; nothing changed.
    Duplicate {
        /// Distinct chunks held.
        received: u32,
        /// Chunks expected, once known.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        expected: Option<u32>,
    },
    /// Every chunk has arrived: the joined payload, not yet verified.
    Complete {
        /// The reassembled serialized payload.
        serialized: String,
        /// Distinct chunks held.
        received: u32,
        /// Chunks expected.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        expected: Option<u32>,
    },
    /// The chunk cannot belong to this transfer (another hand-off, an index out of range, a
    /// total that changed, …).
    Refused {
        /// The host's reason.
        rejection: String,
        /// Distinct chunks held.
        received: u32,
        /// Chunks expected, once known.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        expected: Option<u32>,
    },
}

/// A sealed record (the answer of `sealRecord`): the serialized payload and its integrity.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SealedRecord {
    /// The serialized record, as it will be chunked.
    pub serialized: String,
    /// Its digest and byte length, carried in the manifest.
    pub integrity: HandoffIntegrity,
}

impl SealedRecord {
    /// The record serialized as `serialized`, whose digest and length are `integrity`.
    #[must_use]
    pub fn new(serialized: impl Into<String>, integrity: HandoffIntegrity) -> Self {
        Self {
            serialized: serialized.into(),
            integrity,
        }
    }
}

/// What the host's record decoder concluded (`THandoffRecordDecodeOutcome`): the session
/// family's decode outcome, valid, corrupt (located issues) or unsupported (the version seen).
pub type HandoffRecordDecodeOutcome = SessionRecordDecodeOutcome;

/// Reassembles one transfer's chunks (`IHandoffAssemblerPort`); the destination creates one per
/// manifest.
pub trait HandoffAssembler {
    /// Takes one chunk.
    fn accept(&mut self, chunk: &HandoffChunkFrame) -> AssembleOutcome;
}

/// The source's host effects: sealing and chunking.
pub trait HandoffSourceComposition {
    /// Why sealing failed.
    type SealError;

    /// Serializes `record` and computes its integrity (`sealRecord`).
    ///
    /// # Errors
    ///
    /// The host's own failure; the source propagates it and changes nothing.
    fn seal_record(
        &self,
        record: &InteractiveSessionRecord,
    ) -> Result<SealedRecord, Self::SealError>;

    /// Cuts `serialized` into the frames of `handoff_id`, in order (`chunk`).
    fn chunk(&self, handoff_id: &str, serialized: &str) -> Vec<HandoffChunkFrame>;
}

/// The destination's host effects: verification, reassembly and record decoding.
pub trait HandoffDestinationComposition {
    /// The reassembler of one transfer.
    type Assembler: HandoffAssembler;

    /// Checks the reassembled `serialized` against the manifest's `integrity` (`verifyPayload`).
    /// Nothing has been parsed when this runs.
    fn verify_payload(&self, serialized: &str, integrity: &HandoffIntegrity) -> IntegrityOutcome;

    /// A fresh assembler for `handoff_id` (`createAssembler`).
    fn create_assembler(&self, handoff_id: &str) -> Self::Assembler;

    /// Decodes a verified payload, already parsed as JSON, as a session record
    /// (`decodeRecord`).
    fn decode_record(&self, value: Value) -> HandoffRecordDecodeOutcome;
}

/// Every host effect of both ends (`IHandoffComposition`): implemented by anything that is
/// both a [`HandoffSourceComposition`] and a [`HandoffDestinationComposition`].
pub trait HandoffComposition: HandoffSourceComposition + HandoffDestinationComposition {}

impl<T: HandoffSourceComposition + HandoffDestinationComposition + ?Sized> HandoffComposition
    for T
{
}

impl<T: HandoffSourceComposition + ?Sized> HandoffSourceComposition for &T {
    type SealError = T::SealError;

    fn seal_record(
        &self,
        record: &InteractiveSessionRecord,
    ) -> Result<SealedRecord, Self::SealError> {
        (**self).seal_record(record)
    }

    fn chunk(&self, handoff_id: &str, serialized: &str) -> Vec<HandoffChunkFrame> {
        (**self).chunk(handoff_id, serialized)
    }
}

impl<T: HandoffDestinationComposition + ?Sized> HandoffDestinationComposition for &T {
    type Assembler = T::Assembler;

    fn verify_payload(&self, serialized: &str, integrity: &HandoffIntegrity) -> IntegrityOutcome {
        (**self).verify_payload(serialized, integrity)
    }

    fn create_assembler(&self, handoff_id: &str) -> Self::Assembler {
        (**self).create_assembler(handoff_id)
    }

    fn decode_record(&self, value: Value) -> HandoffRecordDecodeOutcome {
        (**self).decode_record(value)
    }
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{HandoffChunkFrame, IntegrityFailure, IntegrityOutcome, InvalidChunkFrame};

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(super) struct ChunkFrameWire {
        handoff_id: String,
        index: u32,
        total: u32,
        data: String,
    }

    impl TryFrom<ChunkFrameWire> for HandoffChunkFrame {
        type Error = InvalidChunkFrame;

        fn try_from(wire: ChunkFrameWire) -> Result<Self, Self::Error> {
            Self::new(wire.handoff_id, wire.index, wire.total, wire.data)
        }
    }

    impl From<HandoffChunkFrame> for ChunkFrameWire {
        fn from(frame: HandoffChunkFrame) -> Self {
            Self {
                handoff_id: frame.handoff_id,
                index: frame.index,
                total: frame.total,
                data: frame.data,
            }
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(super) struct IntegrityWire {
        intact: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        failure: Option<IntegrityFailure>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expected_bytes: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        actual_bytes: Option<u64>,
    }

    /// The refusal of an integrity answer whose members do not match `intact`.
    #[derive(Debug, thiserror::Error)]
    #[error(
        "{}",
        if *.0 {
            "`intact: true` carries no failure and no byte counts"
        } else {
            "`intact: false` needs `failure`, `expectedBytes` and `actualBytes`"
        }
    )]
    pub(super) struct IntegrityShapeMismatch(bool);

    impl TryFrom<IntegrityWire> for IntegrityOutcome {
        type Error = IntegrityShapeMismatch;

        fn try_from(wire: IntegrityWire) -> Result<Self, Self::Error> {
            match wire {
                IntegrityWire {
                    intact: true,
                    failure: None,
                    expected_bytes: None,
                    actual_bytes: None,
                } => Ok(Self::Intact),
                IntegrityWire {
                    intact: false,
                    failure: Some(failure),
                    expected_bytes: Some(expected_bytes),
                    actual_bytes: Some(actual_bytes),
                } => Ok(Self::Failed {
                    failure,
                    expected_bytes,
                    actual_bytes,
                }),
                IntegrityWire { intact, .. } => Err(IntegrityShapeMismatch(intact)),
            }
        }
    }

    impl From<IntegrityOutcome> for IntegrityWire {
        fn from(outcome: IntegrityOutcome) -> Self {
            match outcome {
                IntegrityOutcome::Intact => Self {
                    intact: true,
                    failure: None,
                    expected_bytes: None,
                    actual_bytes: None,
                },
                IntegrityOutcome::Failed {
                    failure,
                    expected_bytes,
                    actual_bytes,
                } => Self {
                    intact: false,
                    failure: Some(failure),
                    expected_bytes: Some(expected_bytes),
                    actual_bytes: Some(actual_bytes),
                },
            }
        }
    }
}

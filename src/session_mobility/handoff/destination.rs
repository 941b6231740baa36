//! The destination half of a hand-off (`handoff-destination`): it receives, verifies and stages
//! a session, and commits it only once this machine can run it and has written it durably.
//!
//! # Rules (catalog §10 items 6-7)
//!
//! - [`HandoffDestination::receive_manifest`] opens a staging area: one assembler per transfer.
//! - [`HandoffDestination::receive_chunk`] hands each chunk to the assembler. A refused chunk
//!   discards the transfer as `integrity-failed`. On the last chunk the payload is verified
//!   against the manifest's integrity **before anything is parsed**: a failure discards as
//!   `integrity-failed` (declared and arrived byte counts in the detail). Only an intact payload
//!   is parsed as JSON and handed to the host's record decoder; not JSON, corrupt (up to five
//!   issues as `path: message`, the root shown as `(root)`, then `(+N more)`) or unsupported
//!   (the version named) discards as `payload-undecodable`. A valid record is `staged`: inert,
//!   not live.
//! - [`HandoffDestination::commit`] runs only from `staged`. It resolves this machine's
//!   credential **first** (none → discard `destination-cannot-resume`), then persists (not on
//!   disk → discard `destination-cannot-resume`, no acknowledgement), and only then becomes
//!   `committed` and builds the acknowledgement `{handoffId, destinationDeviceId, persisted:
//!   true, committedAt}`, `committedAt` being the `now_ms` the host passed to `commit`. The
//!   acknowledgement is built once and the same one is read back every time.
//! - [`HandoffDestination::discard`] is refused once committed: this machine is live for the
//!   session. Otherwise it drops the record and reports the refusal.
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::convert::Infallible;
use core::fmt;

use crate::agent_core::{ReadLimits, Value, nests_deeper};
use crate::session::records::{InteractiveSessionRecord, SessionRecordDecodeIssue};

use super::composition::{
    AssembleOutcome, HandoffAssembler, HandoffChunkFrame, HandoffDestinationComposition,
    HandoffRecordDecodeOutcome, IntegrityOutcome,
};
use super::contracts::{HandoffCommitAck, HandoffManifest, HandoffRefusal};

string_enum! {
    /// What the destination is doing (`TDestinationState`).
    pub enum DestinationState {
        /// `'idle'`: no manifest yet.
        Idle = "idle",
        /// `'receiving'`: chunks are arriving.
        Receiving = "receiving",
        /// `'staged'`: complete and verified, not live.
        Staged = "staged",
        /// `'committed'`: on disk, acknowledged, live.
        Committed = "committed",
        /// `'discarded'`: given up; nothing is kept.
        Discarded = "discarded",
    }
}

/// The destination's last report (`IDestinationReport`).
///
/// Wire form: `{"state", "refusal"?, "detail"?}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DestinationReport {
    /// The state.
    pub state: DestinationState,
    /// Why the transfer was discarded, when it was.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub refusal: Option<HandoffRefusal>,
    /// An explanation (also of a refused call).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub detail: Option<String>,
}

impl DestinationReport {
    /// A report of `state` alone.
    #[must_use]
    pub const fn of(state: DestinationState) -> Self {
        Self {
            state,
            refusal: None,
            detail: None,
        }
    }
}

/// The detail of a commit refused for want of a provider credential.
pub const NO_CREDENTIAL_DETAIL: &str = "this machine resolved no provider credential. \
Credentials are never transferred (SEC-009), so the destination must supply its own \u{2014} the \
session stays on the source.";

/// The detail of a commit refused because the session was not written durably.
pub const NOT_WRITTEN_DETAIL: &str = "the transferred session could not be written durably. No \
acknowledgement is produced: receipt is not persistence, and a source that moved on this would \
hand off to nothing.";

/// The detail of an intact payload that is not JSON.
pub const NOT_JSON_DETAIL: &str = "payload verified intact but is not JSON";

/// The detail of a refused discard of a committed transfer.
pub const COMMITTED_CANNOT_DISCARD_DETAIL: &str =
    "a committed transfer cannot be discarded \u{2014} this machine is already live for it";

/// How many decode issues a `payload-undecodable` detail lists before it elides the rest.
pub const MAX_REPORTED_DECODE_ISSUES: usize = 5;

/// Says whether this machine has a provider credential (`TCredentialResolver`). The credential
/// itself stays with the host.
#[allow(async_fn_in_trait)]
pub trait HandoffCredentialResolver {
    /// Why the resolution failed (rather than answering no).
    type Error;

    /// True when this machine has a provider credential; false when it has none.
    async fn resolve_credential(&self) -> Result<bool, Self::Error>;
}

impl<F: Fn() -> bool> HandoffCredentialResolver for F {
    type Error = Infallible;

    async fn resolve_credential(&self) -> Result<bool, Infallible> {
        Ok(self())
    }
}

/// Writes the transferred session durably (`TRecordPersister`).
#[allow(async_fn_in_trait)]
pub trait HandoffRecordPersister {
    /// Why the write failed (rather than answering not written).
    type Error;

    /// True only when `record` is on disk (durably stored), not merely queued.
    async fn persist(&self, record: &InteractiveSessionRecord) -> Result<bool, Self::Error>;
}

impl<F: Fn(&InteractiveSessionRecord) -> bool> HandoffRecordPersister for F {
    type Error = Infallible;

    async fn persist(&self, record: &InteractiveSessionRecord) -> Result<bool, Infallible> {
        Ok(self(record))
    }
}

/// What a destination is built from (`IHandoffDestinationOptions`).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HandoffDestinationOptions<C, R, P> {
    /// Verification, reassembly and decoding.
    pub composition: C,
    /// This machine's credential check.
    pub resolve_credential: R,
    /// The durable write.
    pub persist: P,
    /// This machine, named in the acknowledgement.
    pub device_id: String,
}

impl<C, R, P> HandoffDestinationOptions<C, R, P> {
    /// A destination that verifies, reassembles and decodes with `composition`, checks this
    /// machine's credential with `resolve_credential`, writes durably with `persist` and names
    /// itself `device_id` in the acknowledgement.
    #[must_use]
    pub fn new(
        composition: C,
        resolve_credential: R,
        persist: P,
        device_id: impl Into<String>,
    ) -> Self {
        Self {
            composition,
            resolve_credential,
            persist,
            device_id: device_id.into(),
        }
    }
}

/// A chunk arrived before any manifest (the reference throws
/// `handoff: no manifest — receiveManifest first.`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("handoff: no manifest \u{2014} receiveManifest first.")]
pub struct NoManifestReceived;

/// A host effect of [`HandoffDestination::commit`] failed; the destination stays `staged` and
/// produced no acknowledgement.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum DestinationCommitError<C, P> {
    /// The credential resolver failed.
    #[error("handoff: resolving the provider credential failed: {0}")]
    Credential(#[source] C),
    /// The persister failed.
    #[error("handoff: persisting the session failed: {0}")]
    Persist(#[source] P),
}

/// The state with what each state holds.
enum Stage<A> {
    Idle,
    Receiving {
        manifest: HandoffManifest,
        assembler: A,
    },
    Staged {
        manifest: HandoffManifest,
        record: Box<InteractiveSessionRecord>,
    },
    Committed {
        record: Box<InteractiveSessionRecord>,
        ack: HandoffCommitAck,
    },
    Discarded,
}

impl<A> Stage<A> {
    const fn state(&self) -> DestinationState {
        match self {
            Self::Idle => DestinationState::Idle,
            Self::Receiving { .. } => DestinationState::Receiving,
            Self::Staged { .. } => DestinationState::Staged,
            Self::Committed { .. } => DestinationState::Committed,
            Self::Discarded => DestinationState::Discarded,
        }
    }
}

/// What a chunk leads to, decided while the staging area is borrowed.
enum ChunkStep {
    Report,
    Discard(HandoffRefusal, String),
    Stage(Box<InteractiveSessionRecord>),
}

/// The destination of a hand-off (`HandoffDestination`); see the module docs.
pub struct HandoffDestination<C: HandoffDestinationComposition, R, P> {
    composition: C,
    resolver: R,
    persister: P,
    device_id: String,
    stage: Stage<C::Assembler>,
    report: DestinationReport,
}

impl<C: HandoffDestinationComposition, R, P> fmt::Debug for HandoffDestination<C, R, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HandoffDestination")
            .field("device_id", &self.device_id)
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

impl<C, R, P> HandoffDestination<C, R, P>
where
    C: HandoffDestinationComposition,
    R: HandoffCredentialResolver,
    P: HandoffRecordPersister,
{
    /// An idle destination.
    pub fn new(options: HandoffDestinationOptions<C, R, P>) -> Self {
        Self {
            composition: options.composition,
            resolver: options.resolve_credential,
            persister: options.persist,
            device_id: options.device_id,
            stage: Stage::Idle,
            report: DestinationReport::of(DestinationState::Idle),
        }
    }

    /// Accepts an offer (`receiveManifest`): a fresh assembler for its hand-off, state
    /// `receiving`. Refused while committed (the report says so; nothing else changes).
    pub fn receive_manifest(&mut self, manifest: HandoffManifest) -> DestinationReport {
        if let Stage::Committed { ack, .. } = &self.stage {
            let detail = format!(
                "manifest refused: this machine is already live for hand-off '{}'",
                ack.handoff_id
            );
            return self.settle(DestinationState::Committed, None, Some(detail));
        }
        let assembler = self.composition.create_assembler(&manifest.handoff_id);
        self.stage = Stage::Receiving {
            manifest,
            assembler,
        };
        self.settle(DestinationState::Receiving, None, None)
    }

    /// Takes one chunk (`receiveChunk`); on the last one verifies, then decodes, then stages
    /// or discards (see the module docs).
    ///
    /// # Errors
    ///
    /// [`NoManifestReceived`] while idle.
    pub fn receive_chunk(
        &mut self,
        chunk: &HandoffChunkFrame,
    ) -> Result<DestinationReport, NoManifestReceived> {
        let step = match &mut self.stage {
            Stage::Idle => return Err(NoManifestReceived),
            Stage::Staged { .. } | Stage::Committed { .. } | Stage::Discarded => {
                return Ok(self.report.clone());
            }
            Stage::Receiving {
                manifest,
                assembler,
            } => match assembler.accept(chunk) {
                AssembleOutcome::Refused { rejection, .. } => ChunkStep::Discard(
                    HandoffRefusal::IntegrityFailed,
                    format!("chunk refused: {rejection}"),
                ),
                AssembleOutcome::Accepted { .. } | AssembleOutcome::Duplicate { .. } => {
                    ChunkStep::Report
                }
                AssembleOutcome::Complete { serialized, .. } => {
                    match self
                        .composition
                        .verify_payload(&serialized, &manifest.integrity)
                    {
                        IntegrityOutcome::Failed {
                            failure,
                            expected_bytes,
                            actual_bytes,
                        } => ChunkStep::Discard(
                            HandoffRefusal::IntegrityFailed,
                            format!(
                                "payload {failure}: manifest declared {expected_bytes} \
                                 byte(s), {actual_bytes} arrived"
                            ),
                        ),
                        IntegrityOutcome::Intact => {
                            match decode_payload(&self.composition, &serialized) {
                                Ok(record) => ChunkStep::Stage(record),
                                Err(detail) => {
                                    ChunkStep::Discard(HandoffRefusal::PayloadUndecodable, detail)
                                }
                            }
                        }
                    }
                }
            },
        };
        Ok(match step {
            ChunkStep::Report => self.settle(DestinationState::Receiving, None, None),
            ChunkStep::Discard(refusal, detail) => self.discard(refusal, detail),
            ChunkStep::Stage(record) => {
                let stage = core::mem::replace(&mut self.stage, Stage::Idle);
                self.stage = match stage {
                    Stage::Receiving { manifest, .. } => Stage::Staged { manifest, record },
                    other => other,
                };
                self.settle(self.stage.state(), None, None)
            }
        })
    }

    /// Commits a staged transfer (`commit`): the credential first, then the durable write, then
    /// `committed` and the acknowledgement, whose `committedAt` is `now_ms` (the host's clock,
    /// milliseconds since the Unix epoch). From any other state the report says the commit was
    /// refused and nothing changes. A `false` from either port discards as
    /// `destination-cannot-resume` with no acknowledgement.
    ///
    /// # Errors
    ///
    /// [`DestinationCommitError`] when a port fails (rather than answering): the destination
    /// stays `staged`, its report unchanged, and no acknowledgement exists (departure 12).
    pub async fn commit(
        &mut self,
        now_ms: u64,
    ) -> Result<DestinationReport, DestinationCommitError<R::Error, P::Error>> {
        let Stage::Staged { record, .. } = &self.stage else {
            let state = self.stage.state();
            let detail = format!(
                "commit refused: a transfer in state '{state}' has nothing verified to commit"
            );
            return Ok(self.settle(state, None, Some(detail)));
        };
        let has_credential = self
            .resolver
            .resolve_credential()
            .await
            .map_err(DestinationCommitError::Credential)?;
        if !has_credential {
            return Ok(self.discard(
                HandoffRefusal::DestinationCannotResume,
                NO_CREDENTIAL_DETAIL,
            ));
        }
        let written = self
            .persister
            .persist(record)
            .await
            .map_err(DestinationCommitError::Persist)?;
        if !written {
            return Ok(self.discard(HandoffRefusal::DestinationCannotResume, NOT_WRITTEN_DETAIL));
        }
        let stage = core::mem::replace(&mut self.stage, Stage::Idle);
        self.stage = match stage {
            Stage::Staged { manifest, record } => Stage::Committed {
                record,
                ack: HandoffCommitAck::new(manifest.handoff_id, self.device_id.clone(), now_ms),
            },
            other => other,
        };
        Ok(self.settle(self.stage.state(), None, None))
    }
}

impl<C, R, P> HandoffDestination<C, R, P>
where
    C: HandoffDestinationComposition,
{
    /// Throws away a transfer that has not committed (`discard`): state `discarded`, the record
    /// and the staging area dropped, the refusal reported. Refused once committed (the report
    /// says this machine is already live; nothing else changes).
    pub fn discard(
        &mut self,
        refusal: HandoffRefusal,
        detail: impl Into<String>,
    ) -> DestinationReport {
        if let Stage::Committed { .. } = self.stage {
            return self.settle(
                DestinationState::Committed,
                None,
                Some(String::from(COMMITTED_CANNOT_DISCARD_DETAIL)),
            );
        }
        self.stage = Stage::Discarded;
        self.settle(
            DestinationState::Discarded,
            Some(refusal),
            Some(detail.into()),
        )
    }

    /// The acknowledgement, once committed (`acknowledgement`): built once, the same one on
    /// every read, so a re-sent acknowledgement is the one the source already knows.
    #[must_use]
    pub const fn acknowledgement(&self) -> Option<&HandoffCommitAck> {
        match &self.stage {
            Stage::Committed { ack, .. } => Some(ack),
            _ => None,
        }
    }

    /// The session, only once committed (`liveRecord`): staged is not live.
    #[must_use]
    pub fn live_record(&self) -> Option<&InteractiveSessionRecord> {
        match &self.stage {
            Stage::Committed { record, .. } => Some(record),
            _ => None,
        }
    }

    /// The manifest of the transfer being received or staged.
    #[must_use]
    pub const fn manifest(&self) -> Option<&HandoffManifest> {
        match &self.stage {
            Stage::Receiving { manifest, .. } | Stage::Staged { manifest, .. } => Some(manifest),
            _ => None,
        }
    }

    /// The current state.
    #[must_use]
    pub const fn state(&self) -> DestinationState {
        self.stage.state()
    }

    /// The last report (`report`).
    #[must_use]
    pub const fn report(&self) -> &DestinationReport {
        &self.report
    }

    /// Whether this machine is live for the session (committed).
    #[must_use]
    pub const fn is_live(&self) -> bool {
        matches!(self.stage, Stage::Committed { .. })
    }

    /// This machine's id, as the acknowledgement names it.
    #[must_use]
    pub fn device_id(&self) -> &str {
        &self.device_id
    }

    /// The host's verification, reassembly and decoding.
    pub const fn composition(&self) -> &C {
        &self.composition
    }

    fn settle(
        &mut self,
        state: DestinationState,
        refusal: Option<HandoffRefusal>,
        detail: Option<String>,
    ) -> DestinationReport {
        self.report = DestinationReport {
            state,
            refusal,
            detail,
        };
        self.report.clone()
    }
}

/// Parses a verified payload and has the host decode it; the detail of a refusal otherwise.
fn decode_payload<C: HandoffDestinationComposition>(
    composition: &C,
    serialized: &str,
) -> Result<Box<InteractiveSessionRecord>, String> {
    // Nothing recursive reads a payload nested deeper than the default read limit.
    let depth = ReadLimits::DEFAULT.depth;
    if nests_deeper(serialized.as_bytes(), depth) {
        return Err(format!(
            "payload verified intact but nests deeper than {depth} levels (the read limit)"
        ));
    }
    let value: Value =
        serde_json::from_str(serialized).map_err(|_| String::from(NOT_JSON_DETAIL))?;
    match composition.decode_record(value) {
        HandoffRecordDecodeOutcome::Valid { record } => Ok(record),
        HandoffRecordDecodeOutcome::Unsupported { schema_version, .. } => {
            let version =
                schema_version.map_or_else(|| String::from("(absent)"), |v| v.to_string());
            Err(format!(
                "payload declares session-record schema version {version}, which this build does \
                 not read"
            ))
        }
        HandoffRecordDecodeOutcome::Corrupt { issues, .. } => Err(corrupt_detail(&issues)),
    }
}

/// `payload verified intact but did not decode as a session record — a: …; (root): … (+N more)`.
fn corrupt_detail(issues: &[SessionRecordDecodeIssue]) -> String {
    let shown: Vec<String> = issues
        .iter()
        .take(MAX_REPORTED_DECODE_ISSUES)
        .map(|issue| {
            let path = if issue.path.is_empty() {
                "(root)"
            } else {
                issue.path.as_str()
            };
            format!("{path}: {}", issue.message)
        })
        .collect();
    let mut detail = format!(
        "payload verified intact but did not decode as a session record \u{2014} {}",
        shown.join("; ")
    );
    if issues.len() > MAX_REPORTED_DECODE_ISSUES {
        detail.push_str(&format!(
            " (+{} more)",
            issues.len() - MAX_REPORTED_DECODE_ISSUES
        ));
    }
    detail
}

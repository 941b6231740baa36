//! The hand-off wire contracts (`handoff-contracts`): phases, dispositions, the inventory, the
//! manifest, the payload, the commit acknowledgement, refusals and outcomes, and the two pure
//! predicates over them.
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::session::records::InteractiveSessionRecord;

string_enum! {
    /// Where a hand-off stands (`THandoffPhase`).
    ///
    /// | phase | source | destination | dying here means |
    /// |---|---|---|---|
    /// | offered | authoritative | nothing | nothing happened |
    /// | transferring | authoritative | staging | destination discards |
    /// | staged | authoritative | verified, not live | destination discards on timeout |
    /// | committed | read-only | live | transfer succeeded |
    /// | abandoned | authoritative | discarded | explicit, either end |
    pub closed enum HandoffPhase {
        /// `'offered'`: the manifest exists; nothing has been sent.
        Offered = "offered",
        /// `'transferring'`: frames are leaving the source.
        Transferring = "transferring",
        /// `'staged'`: the destination holds a verified payload that is not live.
        Staged = "staged",
        /// `'committed'`: the source holds a matching acknowledgement of durable persistence; it
        /// is read-only and the destination is live. Terminal.
        Committed = "committed",
        /// `'abandoned'`: given up explicitly at either end; the source keeps authority.
        /// Terminal.
        Abandoned = "abandoned",
    }
}

impl HandoffPhase {
    /// The phases this one may move to (the transition table, `ALLOWED`); empty for the two
    /// terminal phases. `Staged → Committed` is taken only by a commit with an acknowledgement
    /// (see [`HandoffTransaction::commit`](super::HandoffTransaction::commit)).
    #[must_use]
    pub const fn allowed_next(self) -> &'static [HandoffPhase] {
        match self {
            Self::Offered => &[Self::Transferring, Self::Abandoned],
            Self::Transferring => &[Self::Staged, Self::Abandoned],
            Self::Staged => &[Self::Committed, Self::Abandoned],
            Self::Committed | Self::Abandoned => &[],
        }
    }

    /// True for `committed` and `abandoned`, from which nothing moves.
    #[must_use]
    pub const fn is_terminal(self) -> bool {
        matches!(self, Self::Committed | Self::Abandoned)
    }

    /// Whether the source is still authoritative in this phase: true for every phase except
    /// `committed` (`sourceRetainsAuthority`).
    #[must_use]
    pub const fn source_retains_authority(self) -> bool {
        !matches!(self, Self::Committed)
    }
}

/// True when the transition table allows `from → to` (catalog §10 item 1): offered →
/// transferring | abandoned, transferring → staged | abandoned, staged → committed | abandoned;
/// nothing else.
#[must_use]
pub fn is_handoff_transition_allowed(from: HandoffPhase, to: HandoffPhase) -> bool {
    from.allowed_next().contains(&to)
}

/// Whether the source still holds authority in `phase` (`sourceRetainsAuthority`): false only
/// for `committed`.
#[must_use]
pub const fn source_retains_authority(phase: HandoffPhase) -> bool {
    phase.source_retains_authority()
}

string_enum! {
    /// What happens to one piece of session state in a hand-off (`THandoffDisposition`).
    pub enum HandoffDisposition {
        /// `'transferred'`: carried and restored.
        Transferred = "transferred",
        /// `'rehydrated'`: carried as a reference the destination resolves locally.
        Rehydrated = "rehydrated",
        /// `'source-local'`: stays on the source, and is reported at both ends.
        SourceLocal = "source-local",
        /// `'never-transferred'`: must not cross by rule (distinct from staying local by
        /// circumstance).
        NeverTransferred = "never-transferred",
    }
}

string_enum! {
    /// The pieces of session state a hand-off inventory names (the `kind` of
    /// `IHandoffStateItem`): exactly those the offer policy produces. Each has one fixed
    /// disposition ([`disposition`](Self::disposition)).
    pub enum HandoffStateKind {
        /// `'conversation'`: the messages and history (transferred; always listed).
        Conversation = "conversation",
        /// `'session-metadata'`: ids, name, timestamps, settings (transferred; always listed).
        SessionMetadata = "session-metadata",
        /// `'provider-credentials'`: never transferred; the destination resolves its own
        /// (always listed).
        ProviderCredentials = "provider-credentials",
        /// `'working-directory'`: carried as a path the destination locates (rehydrated;
        /// always listed).
        WorkingDirectory = "working-directory",
        /// `'goal-and-plan'`: the goal and plan in flight (transferred; when the record has
        /// either).
        GoalAndPlan = "goal-and-plan",
        /// `'background-work'`: background tasks and job groups (transferred; when the record
        /// has any).
        BackgroundWork = "background-work",
        /// `'sandbox-snapshot'`: a provider sandbox snapshot, by reference (rehydrated; when the
        /// record names one).
        SandboxSnapshot = "sandbox-snapshot",
        /// `'uncommitted-changes'`: uncommitted workspace changes (source-local; when the source
        /// has any).
        UncommittedChanges = "uncommitted-changes",
        /// `'subprocesses'`: running processes (source-local; when the source runs any).
        Subprocesses = "subprocesses",
    }
}

impl HandoffStateKind {
    /// The one disposition this kind always has.
    #[must_use]
    pub const fn disposition(self) -> HandoffDisposition {
        match self {
            Self::Conversation
            | Self::SessionMetadata
            | Self::GoalAndPlan
            | Self::BackgroundWork => HandoffDisposition::Transferred,
            Self::WorkingDirectory | Self::SandboxSnapshot => HandoffDisposition::Rehydrated,
            Self::UncommittedChanges | Self::Subprocesses => HandoffDisposition::SourceLocal,
            Self::ProviderCredentials => HandoffDisposition::NeverTransferred,
        }
    }
}

/// One line of a hand-off inventory (`IHandoffStateItem`): a piece of session state and, where
/// it is not simply transferred, a note shown at both ends.
///
/// The disposition is the kind's ([`HandoffStateKind::disposition`]), so an item that says
/// provider credentials travel cannot be built or decoded. Wire form:
/// `{"kind", "disposition", "note"?}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "wire::StateItemWire", into = "wire::StateItemWire")
)]
#[non_exhaustive]
pub struct HandoffStateItem {
    /// Which piece of state.
    pub kind: HandoffStateKind,
    /// Shown at both ends when the state does not simply travel.
    pub note: Option<String>,
}

impl HandoffStateItem {
    /// An item of `kind` without a note.
    #[must_use]
    pub const fn new(kind: HandoffStateKind) -> Self {
        Self { kind, note: None }
    }

    /// An item of `kind` with `note`.
    #[must_use]
    pub fn with_note(kind: HandoffStateKind, note: impl Into<String>) -> Self {
        Self {
            kind,
            note: Some(note.into()),
        }
    }

    /// What happens to this state: always the kind's disposition.
    #[must_use]
    pub const fn disposition(&self) -> HandoffDisposition {
        self.kind.disposition()
    }
}

/// The refusal of a wire inventory item whose disposition is not its kind's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error(
    "inventory item `{kind}` is always `{}`, not `{declared}`{}",
    .kind.disposition(),
    if *.kind == HandoffStateKind::ProviderCredentials {
        ": provider credentials never cross a hand-off"
    } else {
        ""
    }
)]
pub struct InventoryDispositionMismatch {
    /// The item's kind.
    pub kind: HandoffStateKind,
    /// The disposition the item declared.
    pub declared: HandoffDisposition,
}

/// What the receiver checks the reassembled payload against (`IHandoffIntegrity`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct HandoffIntegrity {
    /// The digest of the serialized record (base64url SHA-256 in the reference sealing; the
    /// host's sealing decides, and nothing here reads it).
    pub digest: String,
    /// The byte length of the serialized record.
    pub byte_length: u64,
}

impl HandoffIntegrity {
    /// A serialized record of `byte_length` bytes whose digest is `digest`.
    #[must_use]
    pub fn new(digest: impl Into<String>, byte_length: u64) -> Self {
        Self {
            digest: digest.into(),
            byte_length,
        }
    }
}

/// The offer of one transfer (`IHandoffManifest`): who moves which session where, what travels
/// and what stays (the inventory, including what stays behind), and the integrity the payload
/// must match.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct HandoffManifest {
    /// One transfer; a retry of the same transfer reuses it.
    pub handoff_id: String,
    /// The session being moved.
    pub session_id: String,
    /// The machine that holds the session and pushes it.
    pub source_device_id: String,
    /// The machine it goes to.
    pub destination_device_id: String,
    /// Every piece of state and what happens to it, what stays behind included.
    pub inventory: Vec<HandoffStateItem>,
    /// What the reassembled payload must match.
    pub integrity: HandoffIntegrity,
    /// When the offer was made (ms since the Unix epoch).
    pub offered_at: u64,
}

impl HandoffManifest {
    /// The offer of transfer `handoff_id`: session `session_id` moves from `source_device_id`
    /// to `destination_device_id`, with `inventory`, its payload matching `integrity`, offered
    /// at `offered_at` (ms since the epoch). [`prepare_handoff_offer`] is how a source builds
    /// one; this is for a host that has the members already.
    ///
    /// [`prepare_handoff_offer`]: super::offer::prepare_handoff_offer
    #[must_use]
    pub fn new(
        handoff_id: impl Into<String>,
        session_id: impl Into<String>,
        source_device_id: impl Into<String>,
        destination_device_id: impl Into<String>,
        inventory: Vec<HandoffStateItem>,
        integrity: HandoffIntegrity,
        offered_at: u64,
    ) -> Self {
        Self {
            handoff_id: handoff_id.into(),
            session_id: session_id.into(),
            source_device_id: source_device_id.into(),
            destination_device_id: destination_device_id.into(),
            inventory,
            integrity,
            offered_at,
        }
    }
}

/// The payload of a transfer (`IHandoffPayload`): the session record, named by its hand-off.
/// No member holds a credential; the record's conversation and state travel, nothing else.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct HandoffPayload {
    /// The transfer it belongs to.
    pub handoff_id: String,
    /// The complete, resumable session record.
    pub record: InteractiveSessionRecord,
}

impl HandoffPayload {
    /// The payload of transfer `handoff_id`: `record`.
    #[must_use]
    pub fn new(handoff_id: impl Into<String>, record: InteractiveSessionRecord) -> Self {
        Self {
            handoff_id: handoff_id.into(),
            record,
        }
    }
}

/// The literal `true` of [`HandoffCommitAck::persisted`]: an acknowledgement asserts durable
/// storage, not receipt, and there is no value for "not persisted".
///
/// Wire form: `true`. Decoding `false`, or anything that is not the boolean `true`, fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DurablyPersisted;

impl DurablyPersisted {
    /// The boolean this stands for: always `true`.
    #[must_use]
    pub const fn get(self) -> bool {
        true
    }
}

/// The destination's acknowledgement (`IHandoffCommitAck`): it wrote the session durably and is
/// live for this hand-off. The only thing that moves a source to `committed`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct HandoffCommitAck {
    /// The transfer it acknowledges.
    pub handoff_id: String,
    /// The machine that persisted it.
    pub destination_device_id: String,
    /// Always `true`: durable storage, not receipt.
    pub persisted: DurablyPersisted,
    /// When the destination committed (ms since the Unix epoch).
    pub committed_at: u64,
}

impl HandoffCommitAck {
    /// The acknowledgement of `handoff_id` by `destination_device_id`, committed at
    /// `committed_at` (ms since the epoch).
    #[must_use]
    pub fn new(
        handoff_id: impl Into<String>,
        destination_device_id: impl Into<String>,
        committed_at: u64,
    ) -> Self {
        Self {
            handoff_id: handoff_id.into(),
            destination_device_id: destination_device_id.into(),
            persisted: DurablyPersisted,
            committed_at,
        }
    }
}

string_enum! {
    /// Why a hand-off did not (or cannot) complete (`THandoffRefusal`).
    pub enum HandoffRefusal {
        /// `'integrity-failed'`: the bytes that arrived are not the bytes that were sent (a
        /// chunk was refused, or the payload is truncated or its digest differs). Retryable.
        IntegrityFailed = "integrity-failed",
        /// `'payload-undecodable'`: integrity passed but the bytes are not a session record this
        /// build reads (not JSON, corrupt, or an unsupported version). Never retried.
        PayloadUndecodable = "payload-undecodable",
        /// `'unauthorized'`: the receiving operator did not authorize the move.
        Unauthorized = "unauthorized",
        /// `'destination-cannot-resume'`: about the destination machine (no provider credential,
        /// or it could not persist the session).
        DestinationCannotResume = "destination-cannot-resume",
        /// `'in-flight-work'`: a model call or a tool call is still running on the source.
        InFlightWork = "in-flight-work",
        /// `'cancelled'`: given up on request (also what a refused `transfer` reports).
        Cancelled = "cancelled",
        /// `'timed-out'`: given up after a timeout (a lost connection, a silent peer).
        TimedOut = "timed-out",
    }
}

/// Where a hand-off ended up, as reported to a caller or a peer (`IHandoffOutcome`).
///
/// Wire form: `{"handoffId", "phase", "refusal"?, "detail"?}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct HandoffOutcome {
    /// The transfer.
    pub handoff_id: String,
    /// Its phase.
    pub phase: HandoffPhase,
    /// Why it did not commit, when it did not.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub refusal: Option<HandoffRefusal>,
    /// A human explanation.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub detail: Option<String>,
}

impl HandoffOutcome {
    /// Transfer `handoff_id` in `phase`, with no refusal and no detail.
    #[must_use]
    pub fn new(handoff_id: impl Into<String>, phase: HandoffPhase) -> Self {
        Self {
            handoff_id: handoff_id.into(),
            phase,
            refusal: None,
            detail: None,
        }
    }

    /// True iff the phase is `committed` and there is no refusal ([`is_handoff_committed`]).
    #[must_use]
    pub fn is_committed(&self) -> bool {
        is_handoff_committed(self)
    }
}

optional_setters!(HandoffOutcome {
    /// The same outcome, refused for `refusal`.
    with_refusal => refusal: HandoffRefusal,
    /// The same outcome, explained by `detail`.
    with_detail => detail: impl Into<String>,
});

/// True iff `outcome` is committed (`isHandoffCommitted`): phase `committed` AND no refusal.
/// "No refusal" alone never means committed: `staged` without a refusal is still in progress.
#[must_use]
pub fn is_handoff_committed(outcome: &HandoffOutcome) -> bool {
    outcome.phase == HandoffPhase::Committed && outcome.refusal.is_none()
}

#[cfg(feature = "serde")]
mod wire {
    use alloc::string::String;

    use super::{
        DurablyPersisted, HandoffDisposition, HandoffStateItem, HandoffStateKind,
        InventoryDispositionMismatch,
    };

    /// The decode message of an acknowledgement whose `persisted` is `false` (the reference's
    /// refusal text for such an acknowledgement).
    const NOT_PERSISTED: &str = "the acknowledgement does not assert durable persistence. \
Receipt is not persistence \u{2014} a destination that crashed before writing would leave the \
session owned by nobody.";

    impl serde::Serialize for DurablyPersisted {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_bool(true)
        }
    }

    impl<'de> serde::Deserialize<'de> for DurablyPersisted {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct Literal;

            impl serde::de::Visitor<'_> for Literal {
                type Value = DurablyPersisted;

                fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.write_str("the literal `true` (durable persistence)")
                }

                fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Self::Value, E> {
                    if value {
                        Ok(DurablyPersisted)
                    } else {
                        Err(E::custom(NOT_PERSISTED))
                    }
                }
            }

            deserializer.deserialize_bool(Literal)
        }
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    pub(super) struct StateItemWire {
        kind: HandoffStateKind,
        disposition: HandoffDisposition,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    }

    impl TryFrom<StateItemWire> for HandoffStateItem {
        type Error = InventoryDispositionMismatch;

        fn try_from(wire: StateItemWire) -> Result<Self, Self::Error> {
            if wire.disposition == wire.kind.disposition() {
                Ok(Self {
                    kind: wire.kind,
                    note: wire.note,
                })
            } else {
                Err(InventoryDispositionMismatch {
                    kind: wire.kind,
                    declared: wire.disposition,
                })
            }
        }
    }

    impl From<HandoffStateItem> for StateItemWire {
        fn from(item: HandoffStateItem) -> Self {
            Self {
                kind: item.kind,
                disposition: item.kind.disposition(),
                note: item.note,
            }
        }
    }
}

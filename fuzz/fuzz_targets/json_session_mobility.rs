//! Every strict JSON decoder of the session-mobility family: `serde_json::from_slice` into each
//! wire type (peer messages and acknowledgements, admission, mesh admission, the authority's
//! questions, decisions and delegated turns, file offers, and every hand-off record).
//!
//! Each input is tried against every type (rather than picking one by a leading byte), so any
//! golden file or peer message is a useful seed as it is.
//!
//! Properties, per type: decoding never panics; a value that decodes encodes, its encoding
//! decodes to an equal value, and encoding that gives the same bytes again; a top-level member
//! of the type written twice is refused (docs/decisions/strict-decoding.md) (one wire form per
//! value: nothing a decoder accepts is lost or changed by a round trip).
#![no_main]

use agent_interface::session_mobility::{authority::*, files::*, handoff::*, mesh::*, peers::*};
use agent_interface_fuzz::json_round_trip_strict;
use libfuzzer_sys::fuzz_target;

macro_rules! round_trip {
    ($data:expr; $($ty:ty),+ $(,)?) => {
        $( let _ = json_round_trip_strict::<$ty>(stringify!($ty), $data); )+
    };
}

fuzz_target!(|data: &[u8]| {
    round_trip!(data;
        // peer
        PeerOrigin, PeerAdmission, PeerMessage, PeerMessageAck, PeerMessageIngress,
        // mesh
        MeshCapability, MeshCapabilities, MeshAdmission,
        // authority
        ConnectionPeer, CapabilityApprovalRequest, CapabilityDecision, DelegationRequest,
        DelegatedTurn, DelegationDecision, CapabilityApproval, CapabilityApprovalScope,
        CapabilityRefusal,
        // file transfer
        agent_interface::session::records::Sha256Digest, FileOffer,
        // hand-off contracts and composition
        HandoffPhase, HandoffDisposition, HandoffRefusal, HandoffStateItem, HandoffIntegrity,
        HandoffManifest, HandoffPayload, HandoffCommitAck, HandoffOutcome,
        HandoffManifestRequest, HandoffChunkFrame, IntegrityFailure, IntegrityOutcome,
        AssembleOutcome,
        // hand-off offer, ownership, source, destination
        SourceRuntimeState, HandoffReadiness, PrepareHandoffOfferInput, HandoffOfferResult,
        HandoffTransaction, HandoffAdvance, SourceOfferOutcome, SourceAbandonReason,
        DestinationReport, DestinationState,
    );
});

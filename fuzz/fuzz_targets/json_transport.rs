//! Every strict JSON decoder of the transport family: `serde_json::from_slice` into each wire
//! type (lifecycle and startup errors, admission and tokens, the access-token verifier config
//! and verdicts, channel descriptors, frames and receive results, transport configuration,
//! external-event grants, deliveries, verdicts and audit records, run outcomes), plus the
//! access-token claims of the runtime.
//!
//! Each input is tried against every type, so any golden file is a useful seed as it is.
//!
//! Properties, per type: decoding never panics; a value that decodes encodes, its encoding
//! decodes to an equal value, and encoding that gives the same bytes again; a top-level member
//! of the type written twice is refused (docs/decisions/strict-decoding.md).
#![no_main]

use agent_interface::runtime::transport::admission::AccessTokenClaims;
use agent_interface::transport::{
    adapters::*, admission::*, channels::*, config::*, external_events::*, outcomes::*,
};
use agent_interface_fuzz::{json_round_trip, json_round_trip_strict};
use libfuzzer_sys::fuzz_target;

macro_rules! round_trip {
    ($data:expr; $($ty:ty),+ $(,)?) => {
        $( let _ = json_round_trip_strict::<$ty>(stringify!($ty), $data); )+
    };
}

fuzz_target!(|data: &[u8]| {
    round_trip!(data;
        // adapter lifecycle
        TransportLifecycleKind, TransportLifecycle, TransportLifecycleErrorCode,
        TransportLifecycleError, TransportRollbackError, TransportStartupError,
        // admission
        TransportToken, OpenReason, TransportAdmission, TransportAdmissionConfig,
        AccessTokenRefusal, AccessTokenAdmission, AccessTokenVerifierConfig, AccessTokenClaims,
        // channels
        ChannelName, ChannelDescriptor, BinaryFrame, ChannelEventFrame, ChannelFrame,
        ChannelReceiveResult,
        // configuration
        TransportConfig, TransportSavedConfig, TransportOptionSchema,
        TransportConfigurationErrorCode, TransportConfigurationError, TransportEntry,
        // external events
        ExternalEventKind, GrantId, ExternalEventRateWindow, ExternalEventGrant,
        ExternalEventDelivery, ExternalEventRefusal,
        ExternalEventAdmission, ExternalEventSettlementOutcome, ExternalEventRemoteClass,
        ExternalEventAuditRecord,
        // run outcomes
        TransportRunOutcome, TransportAbandonmentReason, TransportCompletionOutcome,
        TransportCompletionRecord, TransportFailureRecord,
    );
    // Not strict by contract (reads the members it knows from a `Value`, a repeat keeps the
    // last): the round trip only.
    let _ = json_round_trip::<ExternalMessageEvent>("ExternalMessageEvent", data);
});

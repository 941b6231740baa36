//! The transport contract family (layer 0; names only `agent_core`): what a transport adapter
//! is and how its lifecycle is driven, how a runner ends, what is persisted as a transport's
//! configuration, the registry's two views, payload channel declarations, and admission.
//!
//! This module holds the **contracts** only: declarations, inert error shapes and two pure
//! helpers over the run outcome ([`create_transport_failed_outcome`],
//! [`is_transport_run_outcome`]). The lifecycle guard, the registry, frame sequencing and
//! reassembly, admission resolution and token minting are runtime (`runtime::transport`, feature
//! `transport-runtime`) and do not live here. With `testing`, [`testing`] holds the lifecycle
//! conformance suite any adapter runs against itself.
//!
//! # Rust shape
//!
//! * Ports are traits with `async fn` (no `Send` bound forced; wasm and embedded hosts are
//!   single-threaded): [`TransportAdapter`], [`TransportRunnerAdapter`],
//!   [`BoundTransportAdapter`], [`BoundTransportRunnerAdapter`], [`AccessTokenVerifier`], the
//!   registry views [`TransportLifecycleRegistryView`] and [`TransportSettingsRegistryView`]
//!   (both at once: [`TransportRegistryView`]), and the synchronous
//!   [`TransportSettingsRepository`] and [`TransportSettingsCapability`].
//! * The lifecycle kind is an associated `const KIND` of the adapter traits, so it is required
//!   and fixed for the type; [`TransportLifecycle`] has a private field and no setter (the Rust
//!   form of a frozen descriptor). Services and runners are the marker trait
//!   [`TransportServiceAdapter`] and the trait [`TransportRunnerAdapter`], which alone has
//!   `wait_for_completion`.
//! * The bound form ([`BoundTransportAdapter`]) has no `attach`: a registry view takes only its
//!   `Adapter` type, never a session. The `binding: 'bound'` tag is the trait itself.
//! * [`TransportRunOutcome`] is `Succeeded` (exit code 0) or `Failed` with a `NonZeroU8`: no
//!   illegal code is representable. Its wire form is `{status, exitCode}`; decoding refuses
//!   `succeeded` with a non-zero code and `failed` with 0, a negative, a fraction or > 255.
//! * [`create_transport_failed_outcome`] takes an `i64`: the TypeScript inputs that are not
//!   integers (`1.5`, `NaN`, `±Infinity`, strings, `null`) cannot reach it, and the typed
//!   refusal [`InvalidExitCode`] prints the TypeScript message (`-0` is the integer 0:
//!   `received 0.`).
//! * [`is_transport_run_outcome`] reads a JSON [`Value`](crate::agent_core::Value): a JSON
//!   number serde_json reads as a float is never an integer (so `0.0`, `-0.0` and `-0` are not
//!   exit code 0: a departure from the reference, which accepts `-0`; see the suite).
//! * Every error shape keeps its TypeScript `name` as a `NAME` constant and writes it on the
//!   wire; decoding refuses another name or an unknown code. Codes and every other closed set
//!   are enums with the exact wire literals.
//! * [`ActionResponse`] is re-exported from agent-core: the one pass-through the family makes
//!   (catalog §0.4 item 6).
//!
//! # Decisions where the catalog is silent
//!
//! * An adapter's `start` fails with [`TransportStartFailure`]: a lifecycle error
//!   (`not-attached`, `already-started`) or the adapter's own [`ErrorValue`]; `stop` fails with
//!   an [`ErrorValue`] (what a registry collects into a `DestroyResult`). Adapter methods take
//!   `&self`, so a stop can be requested while a start or a completion wait is pending.
//!   `attach` refuses an active adapter with `already-started` (never a silent replacement).
//! * A runner's `wait_for_completion` resolves with the run outcome or a
//!   [`TransportRunnerFault`]: `Malformed` (an exit status outside 0..=255, see
//!   [`TransportRunOutcome::from_exit_status`]) or `Rejected` (the completion itself failed).
//!   This is how the TypeScript "malformed outcome" and "rejected runner promise" reach a
//!   registry, which turns either into `runner-rejected` on both of its waits.
//! * [`TransportStartupError`] does not carry the TypeScript `cause`/`rollbackCauses` (local
//!   diagnostics, not enumerable in TypeScript either).
//! * [`TransportCompletionOutcome`] is `Ran(run outcome)` or `Abandoned { reason }`;
//!   [`TransportFailureRecord`] holds the name and the non-zero code, written as
//!   `{name, outcome: {status: 'failed', exitCode}}`.
//! * The settings capability's optional members have defaults: no schema, every option set
//!   valid, and a `configure` that accepts an empty option set and refuses any other with
//!   `options-not-applicable`, so saved options are never silently ignored.
//!   [`TransportSavedConfig::resolve`] gives the resolution rule.
//! * [`TransportEntry`] is `{name, config}`: the name stands for the transport.
//! * Registration refuses a duplicate with [`DuplicateTransportName`]; the unbound and
//!   wrong-shape refusals of TypeScript cannot be expressed by the trait bounds. Start-all fails
//!   with [`TransportStartAllError`]: not idle, settings unreadable, saved options refused
//!   (`invalid-options`, `options-not-applicable`: checked before anything starts), a startup
//!   error, or preempted by stop-all. The settings view's calls fail with
//!   [`TransportSettingsError`]: a configuration refusal or the repository's own error.
//!   Shared references to bound adapters and settings capabilities implement the traits too,
//!   so a host can register an adapter it keeps driving.
//! * [`ChannelName`] is a newtype of 1..=255 UTF-8 bytes; [`InvalidChannelName`] keeps only the
//!   length. Frames ([`ChannelFrame`]: [`BinaryFrame`] or [`ChannelEventFrame`]) carry a
//!   [`ChannelName`] and a `u32` seq, so neither an illegal name nor a seq outside the wire's
//!   range is representable; in JSON a binary payload is a lowercase hex string.
//!   [`ChannelReceiveResult`] is `Accepted { frame }` or `Refused { error }` (`ok: true|false`).
//!   The byte codec, sequencing and reassembly are runtime.
//! * [`TransportAdmission`] is `Token(..)` with a [`TransportToken`] (not blank) or
//!   `Open { reason }` with an [`OpenReason`] (trimmed, not empty); its wire form requires
//!   `token` (`null` = explicitly open). [`TransportAdmissionConfig`] is the raw
//!   request the runtime resolves; a resolved admission converts back into the config that
//!   resolves to it. Nothing that holds a token, a claim or event content prints it: `Debug`
//!   writes `<redacted>` (the verifier config prints its allow-lists as counts).
//! * Verdicts ([`AccessTokenAdmission`], [`ExternalEventAdmission`]) hold only closed refusal
//!   reasons. [`ExternalEventRefusal`] nests the token refusals as `Token(..)`; its `oversize`
//!   is [`AccessTokenRefusal::Oversize`].
//! * Single-tenancy and grants are validated types: an [`AccessTokenVerifierConfig`] needs an
//!   `https://` issuer, an algorithm and a non-blank allow-list entry; an
//!   [`ExternalEventGrant`] has a [`GrantId`], a verifier naming exactly one principal, and the
//!   kinds `["message"]` only. Decoders refuse what these constructors refuse.
//! * [`ExternalEventAuditRecord`] carries exactly one [`ExternalEventAuditOutcome`] (refusal or
//!   settlement) and refuses unknown members on decode, so it cannot smuggle content.
//!
//! [`ErrorValue`]: crate::agent_core::ErrorValue

mod adapter;
mod admission;
mod channel;
mod config;
mod external_event;
mod run_outcome;
#[cfg(feature = "testing")]
pub mod testing;

pub use crate::agent_core::ActionResponse;

pub use adapter::{
    BoundTransportAdapter, BoundTransportRunnerAdapter, BoundTransportServiceAdapter,
    TransportAdapter, TransportLifecycle, TransportLifecycleError, TransportLifecycleErrorCode,
    TransportLifecycleKind, TransportRollbackError, TransportRunnerAdapter,
    TransportServiceAdapter, TransportStartFailure, TransportStartupError,
};
pub use admission::{
    AccessTokenAdmission, AccessTokenAlgorithm, AccessTokenRefusal, AccessTokenVerifier,
    AccessTokenVerifierConfig, AccessTokenVerifierConfigError, BlankOpenReason,
    BlankTransportToken, OpenReason, TransportAdmission, TransportAdmissionConfig, TransportToken,
};
pub use channel::{
    BinaryFrame, ChannelDescriptor, ChannelEventFrame, ChannelFrame, ChannelName,
    ChannelReceiveResult, InvalidChannelName,
};
pub use config::{
    DuplicateTransportName, TransportConfig, TransportConfigurationError,
    TransportConfigurationErrorCode, TransportEntry, TransportLifecycleRegistryView,
    TransportOptionSchema, TransportOptionsSchema, TransportRegistryView, TransportSavedConfig,
    TransportSettingsCapability, TransportSettingsError, TransportSettingsRegistryView,
    TransportSettingsRepository, TransportStartAllError,
};
pub use external_event::{
    ExternalEventAdmission, ExternalEventAuditOutcome, ExternalEventAuditRecord,
    ExternalEventDelivery, ExternalEventGrant, ExternalEventGrantError, ExternalEventKind,
    ExternalEventRateWindow, ExternalEventRefusal, ExternalEventRemoteClass,
    ExternalEventSettlementOutcome, ExternalMessageEvent, GrantId, InvalidExternalMessageEvent,
    InvalidGrantId,
};
pub use run_outcome::{
    InvalidExitCode, TransportAbandonmentReason, TransportCompletionOutcome,
    TransportCompletionRecord, TransportFailureRecord, TransportRunOutcome, TransportRunnerFault,
    create_transport_failed_outcome, is_transport_run_outcome,
};

//! Cases of the `transport` family contracts: golden round trips of every record and union
//! variant, catalog §10 items 21–22 (with the run-outcome interop vectors copied as literal
//! cases), and refused input. Uses only `core`, `alloc`, serde_json and the crate, so it also
//! runs on the firmware and wasm.

use alloc::format;
use alloc::string::String;
use core::cell::{Cell, RefCell};
use core::num::NonZeroU8;

use agent_interface::agent_core::{ActionResponse, ErrorValue, Value};
use agent_interface::transport::{
    adapters::*, admission::*, channels::*, config::*, external_events::*, outcomes::*,
};

use crate::support::{block_on, decode, golden, rejects, s, to_json};

macro_rules! gold {
    ($ty:ty, $file:literal) => {
        golden::<$ty>(
            $file,
            include_str!(concat!("../golden/transport/", $file, ".json")),
        )
    };
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("test JSON")
}

fn code(n: u8) -> NonZeroU8 {
    NonZeroU8::new(n).expect("non-zero")
}

// ---- a lifecycle double ------------------------------------------------------------------

/// A runner that follows the lifecycle rules: start needs an attached session, refuses a second
/// start while active, stop is idempotent, and a stop clears the session.
struct Runner {
    session: RefCell<Option<String>>,
    active: Cell<bool>,
    stops: Cell<u32>,
}

impl Runner {
    fn new() -> Self {
        Self {
            session: RefCell::new(None),
            active: Cell::new(false),
            stops: Cell::new(0),
        }
    }
}

impl TransportAdapter<String> for Runner {
    const KIND: TransportLifecycleKind = TransportLifecycleKind::Runner;

    fn name(&self) -> &str {
        "headless"
    }

    fn attach(&self, session: String) -> Result<(), TransportLifecycleError> {
        if self.active.get() {
            return Err(TransportLifecycleError::new(
                TransportLifecycleErrorCode::AlreadyStarted,
                "headless",
            ));
        }
        *self.session.borrow_mut() = Some(session);
        Ok(())
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        let lifecycle = |code| {
            Err(TransportStartFailure::Lifecycle(
                TransportLifecycleError::new(code, "headless"),
            ))
        };
        if self.active.get() {
            return lifecycle(TransportLifecycleErrorCode::AlreadyStarted);
        }
        if self.session.borrow().is_none() {
            return lifecycle(TransportLifecycleErrorCode::NotAttached);
        }
        self.active.set(true);
        Ok(())
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        self.active.set(false);
        *self.session.borrow_mut() = None;
        self.stops.set(self.stops.get() + 1);
        Ok(())
    }
}

impl TransportRunnerAdapter<String> for Runner {
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault> {
        Ok(TransportRunOutcome::Succeeded)
    }
}

/// A bound form over [`Runner`]: it captures the session and has no `attach`.
struct BoundRunner {
    raw: Runner,
    session: String,
}

impl BoundTransportAdapter for BoundRunner {
    const KIND: TransportLifecycleKind = TransportLifecycleKind::Runner;

    fn name(&self) -> &str {
        self.raw.name()
    }

    async fn start(&self) -> Result<(), TransportStartFailure> {
        self.raw
            .attach(self.session.clone())
            .map_err(TransportStartFailure::Lifecycle)?;
        self.raw.start().await
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        self.raw.stop().await
    }
}

impl BoundTransportRunnerAdapter for BoundRunner {
    async fn wait_for_completion(&self) -> Result<TransportRunOutcome, TransportRunnerFault> {
        self.raw.wait_for_completion().await
    }
}

struct Configurable;

impl TransportSettingsCapability for Configurable {
    fn default_enabled(&self) -> bool {
        true
    }
}

/// The message the TypeScript constructor throws, with `received` as it prints it.
fn refusal_message(received: &str) -> String {
    format!(
        "Transport failure exit code must be an integer from 1 through 255; received {received}."
    )
}

cases! {
    mod lifecycle {
        fn lifecycle_literals_round_trip() {
            literal_round_trip!(TransportLifecycleKind);
            literal_round_trip!(TransportLifecycleErrorCode);
            literal_round_trip!(TransportAbandonmentReason);
        }

        fn lifecycle_descriptor_is_fixed_by_the_type() {
            let runner = Runner::new();
            assert_eq!(runner.lifecycle().kind(), TransportLifecycleKind::Runner);
            assert_eq!(runner.lifecycle(), TransportLifecycle::RUNNER);
            let golden_lifecycle = gold!(TransportLifecycle, "lifecycle");
            assert_eq!(golden_lifecycle, TransportLifecycle::RUNNER);
            rejects::<TransportLifecycle>(r#"{"kind":"daemon"}"#, "unknown variant");
            rejects::<TransportLifecycle>("{}", "missing field `kind`");
        }

        fn start_before_attach_is_not_attached() {
            let runner = Runner::new();
            let failure = block_on(runner.start()).expect_err("start before attach");
            assert_eq!(failure.lifecycle_code(), Some(TransportLifecycleErrorCode::NotAttached));
            assert!(!runner.active.get());
        }

        fn second_start_is_already_started_and_stop_is_idempotent() {
            let runner = Runner::new();
            runner.attach(s("session-1")).expect("attach");
            block_on(runner.start()).expect("first start");
            assert_eq!(
                runner.attach(s("session-2")).map_err(|e| e.code),
                Err(TransportLifecycleErrorCode::AlreadyStarted),
                "attaching an active adapter is refused"
            );
            let failure = block_on(runner.start()).expect_err("second start");
            assert_eq!(
                failure.lifecycle_code(),
                Some(TransportLifecycleErrorCode::AlreadyStarted)
            );
            block_on(runner.stop()).expect("stop");
            block_on(runner.stop()).expect("stop again");
            assert_eq!(runner.stops.get(), 2);
            assert!(!runner.active.get());
        }

        fn stopped_adapter_restarts_after_a_fresh_attach() {
            let runner = Runner::new();
            runner.attach(s("session-1")).expect("attach");
            block_on(runner.start()).expect("start");
            block_on(runner.stop()).expect("stop");
            let failure = block_on(runner.start()).expect_err("no session after stop");
            assert_eq!(failure.lifecycle_code(), Some(TransportLifecycleErrorCode::NotAttached));
            runner.attach(s("session-2")).expect("fresh attach");
            block_on(runner.start()).expect("restart");
            assert_eq!(block_on(runner.wait_for_completion()), Ok(TransportRunOutcome::Succeeded));
        }

        fn bound_form_attaches_inside_start() {
            let bound = BoundRunner { raw: Runner::new(), session: s("captured") };
            assert_eq!(bound.lifecycle().kind(), TransportLifecycleKind::Runner);
            block_on(bound.start()).expect("bound start attaches first");
            assert_eq!(bound.raw.session.borrow().as_deref(), Some("captured"));
            assert_eq!(block_on(bound.wait_for_completion()), Ok(TransportRunOutcome::Succeeded));
            block_on(bound.stop()).expect("stop");
            block_on(bound.start()).expect("bound restart attaches again");
        }

        fn lifecycle_error_golden_and_display() {
            let error = gold!(TransportLifecycleError, "lifecycle_error");
            assert_eq!(error, TransportLifecycleError::new(TransportLifecycleErrorCode::NotAttached, "ws"));
            assert_eq!(format!("{error}"), "TransportLifecycleError (not-attached): ws");
            let startup = gold!(TransportStartupError, "startup_error");
            assert_eq!(startup.transport_name, "ws");
            assert_eq!(startup.rollback_errors[0].transport_name, "http");
        }

        fn lifecycle_error_refuses_unknown_code_and_name() {
            rejects::<TransportLifecycleError>(
                r#"{"name":"TransportLifecycleError","code":"not-started","transportName":"ws"}"#,
                "unknown variant `not-started`",
            );
            rejects::<TransportLifecycleError>(
                r#"{"name":"Error","code":"not-attached","transportName":"ws"}"#,
                "expected error name",
            );
            rejects::<TransportStartupError>(
                r#"{"name":"TransportLifecycleError","transportName":"ws","rollbackErrors":[]}"#,
                "expected error name",
            );
        }
    }

    mod run_outcome {
        fn run_outcome_goldens() {
            assert_eq!(gold!(TransportRunOutcome, "run_outcome_succeeded"), TransportRunOutcome::Succeeded);
            assert_eq!(
                gold!(TransportRunOutcome, "run_outcome_failed"),
                TransportRunOutcome::Failed { exit_code: code(2) }
            );
            let record = gold!(TransportCompletionRecord, "completion_record_succeeded");
            assert_eq!(record.outcome, TransportCompletionOutcome::Ran(TransportRunOutcome::Succeeded));
            let record = gold!(TransportCompletionRecord, "completion_record_failed");
            assert_eq!(record.outcome.clone(), TransportCompletionOutcome::Ran(TransportRunOutcome::from_exit_code(255)));
            let record = gold!(TransportCompletionRecord, "completion_record_abandoned");
            assert_eq!(
                record.outcome,
                TransportCompletionOutcome::Abandoned { reason: TransportAbandonmentReason::StartupRollback }
            );
            let failure = gold!(TransportFailureRecord, "failure_record");
            assert_eq!(failure.outcome(), TransportRunOutcome::Failed { exit_code: code(3) });
        }

        fn run_outcome_refuses_illegal_codes() {
            rejects::<TransportRunOutcome>(r#"{"status":"failed","exitCode":0}"#, "from 1 through 255");
            rejects::<TransportRunOutcome>(r#"{"status":"failed","exitCode":256}"#, "256");
            rejects::<TransportRunOutcome>(r#"{"status":"failed","exitCode":-1}"#, "-1");
            rejects::<TransportRunOutcome>(r#"{"status":"failed","exitCode":1.5}"#, "1.5");
            rejects::<TransportRunOutcome>(r#"{"status":"succeeded","exitCode":1}"#, "exit code 0");
            rejects::<TransportRunOutcome>(r#"{"status":"abandoned","exitCode":0}"#, "not a run outcome");
            rejects::<TransportRunOutcome>(r#"{"status":"ok","exitCode":0}"#, "unknown variant");
            // A status is its literal only: serde's derived reading of a unit variant also
            // took `{"succeeded": null}`, written back as `"succeeded"`.
            rejects::<TransportRunOutcome>(r#"{"status":{"succeeded":null},"exitCode":0}"#, "invalid type: map");
            rejects::<TransportCompletionOutcome>(r#"{"status":{"abandoned":null},"reason":"stopped"}"#, "invalid type: map");
            rejects::<TransportFailureRecord>(
                r#"{"name":"x","outcome":{"status":"succeeded","exitCode":0}}"#,
                "failed outcome only",
            );
            rejects::<TransportCompletionOutcome>(r#"{"status":"abandoned"}"#, "`reason`");
            rejects::<TransportCompletionOutcome>(
                r#"{"status":"succeeded","exitCode":0,"reason":"stopped"}"#,
                "only an abandoned",
            );
        }

        /// `contracts.test`: `createTransportFailedOutcome(2)` equals `{failed, 2}`.
        fn constructor_accepts_one_through_255() {
            // Vectors createTransportFailedOutcome/1, /2, /254, /255, /1.0 and /1e2.
            for n in [1_i64, 2, 254, 255, 100] {
                let outcome = create_transport_failed_outcome(n).expect("in range");
                assert_eq!(i64::from(outcome.exit_code()), n);
                let wire = to_json(&outcome);
                assert_eq!(wire, json(&format!(r#"{{"status":"failed","exitCode":{n}}}"#)));
                assert!(is_transport_run_outcome(&wire));
            }
        }

        /// Vectors createTransportFailedOutcome/-1, /0, /-0 (as 0), /256, /2^31 and
        /// /MAX_SAFE_INTEGER: refused with the TypeScript message.
        fn constructor_refuses_other_integers() {
            for n in [-1_i64, 0, 256, 2_147_483_648, 9_007_199_254_740_991] {
                let error = create_transport_failed_outcome(n).expect_err("out of range");
                assert_eq!(error, InvalidExitCode { received: n });
                assert_eq!(format!("{error}"), refusal_message(&format!("{n}")));
                let wire = json(&format!(r#"{{"status":"failed","exitCode":{n}}}"#));
                assert!(!is_transport_run_outcome(&wire));
            }
        }

        /// Departure (interop README item 14): 1.5, NaN, ±Infinity, strings, null, booleans and
        /// undefined cannot reach the `i64` constructor; the validator still refuses 1.5.
        fn non_integer_exit_codes_cannot_be_failed_outcomes() {
            assert!(!is_transport_run_outcome(&json(r#"{"status":"failed","exitCode":1.5}"#)));
            rejects::<TransportRunOutcome>(r#"{"status":"failed","exitCode":"2"}"#, "invalid type");
            rejects::<TransportRunOutcome>(r#"{"status":"failed","exitCode":null}"#, "invalid type");
        }

        fn validator_matches_the_interop_vectors() {
            // (vector name, value, expected) from transport-run-outcome.json.
            let vectors: &[(&str, &str, bool)] = &[
                ("succeeded-0", r#"{"status":"succeeded","exitCode":0}"#, true),
                ("succeeded-1", r#"{"status":"succeeded","exitCode":1}"#, false),
                ("succeeded-no-exitCode", r#"{"status":"succeeded"}"#, false),
                ("succeeded-string-0", r#"{"status":"succeeded","exitCode":"0"}"#, false),
                ("failed-1", r#"{"status":"failed","exitCode":1}"#, true),
                ("failed-255", r#"{"status":"failed","exitCode":255}"#, true),
                ("failed-0", r#"{"status":"failed","exitCode":0}"#, false),
                ("failed-256", r#"{"status":"failed","exitCode":256}"#, false),
                ("failed--1", r#"{"status":"failed","exitCode":-1}"#, false),
                ("failed-1.5", r#"{"status":"failed","exitCode":1.5}"#, false),
                ("failed-string-2", r#"{"status":"failed","exitCode":"2"}"#, false),
                ("failed-no-exitCode", r#"{"status":"failed"}"#, false),
                ("failed-extra-fields", r#"{"status":"failed","exitCode":3,"cause":"x"}"#, true),
                ("abandoned-stopped", r#"{"status":"abandoned","reason":"stopped"}"#, false),
                ("unknown-status", r#"{"status":"ok","exitCode":0}"#, false),
                ("empty-object", "{}", false),
                ("null", "null", false),
                ("number-0", "0", false),
                ("string", r#""succeeded""#, false),
                ("array", r#"["succeeded",0]"#, false),
            ];
            for (name, value, expected) in vectors {
                assert_eq!(
                    is_transport_run_outcome(&json(value)),
                    *expected,
                    "isTransportRunOutcome/{name}"
                );
            }
        }

        /// Departure (interop README item 14, vector isTransportRunOutcome/succeeded-minus-0):
        /// the reference accepts `exitCode: -0` for succeeded because `-0 === 0` in JavaScript.
        /// serde_json reads `-0` as a float, and a float is never an integer exit code here, so
        /// the validator refuses it. For the constructor (vector createTransportFailedOutcome/-0)
        /// the `i64` -0 is 0 and is refused with `received 0.`, as in the reference.
        fn runner_faults_and_raw_exit_statuses() {
            assert_eq!(TransportRunOutcome::from_exit_status(0), Ok(TransportRunOutcome::Succeeded));
            assert_eq!(
                TransportRunOutcome::from_exit_status(255),
                Ok(TransportRunOutcome::Failed { exit_code: code(255) })
            );
            for status in [-1_i64, 256, i64::from(i32::MAX)] {
                let fault = TransportRunOutcome::from_exit_status(status).expect_err("no outcome");
                assert_eq!(fault, TransportRunnerFault::Malformed { exit_code: status });
                assert_eq!(
                    format!("{fault}"),
                    format!("the runner reported exit status {status}, which is no run outcome")
                );
            }
            let rejected = TransportRunnerFault::Rejected(ErrorValue::new("Error", "crashed"));
            assert_eq!(format!("{rejected}"), "the runner's completion failed: Error: crashed");
        }

        fn minus_zero_departure() {
            assert!(!is_transport_run_outcome(&json(r#"{"status":"succeeded","exitCode":-0.0}"#)));
            assert!(!is_transport_run_outcome(&json(r#"{"status":"succeeded","exitCode":-0}"#)));
            assert!(is_transport_run_outcome(&json(r#"{"status":"succeeded","exitCode":0}"#)));
            assert_eq!(
                format!("{}", create_transport_failed_outcome(-0).expect_err("zero")),
                refusal_message("0")
            );
        }
    }

    mod config_and_channels {
        fn config_goldens() {
            let config = gold!(TransportConfig, "config");
            assert!(config.enabled);
            assert_eq!(config.options.as_ref().map(|o| o.len()), Some(2));
            assert_eq!(gold!(TransportConfig, "config_minimal").options, None);
            let saved = gold!(TransportSavedConfig, "saved_config");
            assert_eq!(saved.enabled, Some(false));
            let schema = gold!(TransportOptionSchema, "option_schema");
            assert_eq!(schema.kind, "number");
            let entry = gold!(TransportEntry, "entry");
            assert_eq!(entry.name, "ws");
            rejects::<TransportConfig>(r#"{"options":{}}"#, "missing field `enabled`");
        }

        fn saved_config_resolves_with_the_default() {
            let empty = TransportSavedConfig::default();
            assert!(empty.resolve(true).enabled);
            assert!(!empty.resolve(false).enabled);
            assert_eq!(empty.resolve(true).options, Some(Default::default()));
            let saved: TransportSavedConfig = decode(&json(r#"{"enabled":false,"options":{"port":1}}"#));
            let resolved = saved.resolve(true);
            assert!(!resolved.enabled);
            assert_eq!(resolved.options, saved.options);
        }

        fn settings_capability_defaults_never_ignore_options() {
            let capability = Configurable;
            assert!(capability.default_enabled());
            assert!(capability.options_schema().is_none());
            assert!(capability.validate_options(&Default::default()));
            assert_eq!(capability.configure(&Default::default()), Ok(()), "nothing to apply");
            let saved: TransportSavedConfig = decode(&json(r#"{"options":{"port":1}}"#));
            assert_eq!(
                capability.configure(&saved.resolve(true).options.unwrap_or_default()),
                Err(TransportConfigurationErrorCode::OptionsNotApplicable),
                "saved options with no way to apply them are refused, never ignored"
            );
        }

        fn start_all_and_settings_errors_display_their_cause() {
            let configuration = TransportConfigurationError::new(
                TransportConfigurationErrorCode::InvalidOptions,
                "ws",
            );
            let cases = [
                (
                    TransportStartAllError::Configuration(configuration.clone()),
                    "TransportConfigurationError (invalid-options): ws",
                ),
                (
                    TransportStartAllError::SettingsUnreadable(ErrorValue::new("IoError", "gone")),
                    "the transport settings could not be read: IoError: gone",
                ),
                (TransportStartAllError::Preempted, "start-all was preempted by stop-all"),
            ];
            for (error, text) in cases {
                assert_eq!(format!("{error}"), text);
            }
            let settings: TransportSettingsError<InvalidExitCode> =
                TransportSettingsError::Repository(InvalidExitCode { received: 0 });
            assert!(format!("{settings}").starts_with("the transport settings repository failed: "));
            let refused: TransportSettingsError<InvalidExitCode> =
                TransportSettingsError::Configuration(configuration);
            assert_eq!(format!("{refused}"), "TransportConfigurationError (invalid-options): ws");
        }

        fn configuration_error_golden_and_refusals() {
            literal_round_trip!(TransportConfigurationErrorCode);
            let error = gold!(TransportConfigurationError, "configuration_error");
            assert_eq!(error.code, TransportConfigurationErrorCode::OptionsNotApplicable);
            assert_eq!(format!("{error}"), "TransportConfigurationError (options-not-applicable): ws");
            rejects::<TransportConfigurationError>(
                r#"{"name":"TransportConfigurationError","code":"bad","transportName":"ws"}"#,
                "unknown variant `bad`",
            );
            rejects::<TransportConfigurationError>(
                r#"{"name":"TransportLifecycleError","code":"not-configurable","transportName":"ws"}"#,
                "expected error name",
            );
        }

        fn channel_descriptor_goldens() {
            let voice = gold!(ChannelDescriptor, "channel_descriptor");
            assert!(voice.accepts_binary());
            assert!(voice.declares("start"));
            assert!(!voice.declares("Start"));
            let chat = gold!(ChannelDescriptor, "channel_descriptor_text");
            assert!(!chat.accepts_binary());
            assert_eq!(chat.name.as_str(), "chat");
        }

        fn channel_name_is_one_to_255_bytes() {
            assert_eq!(ChannelName::new(""), Err(InvalidChannelName { bytes: 0 }));
            let long = "a".repeat(256);
            assert_eq!(ChannelName::new(long.clone()), Err(InvalidChannelName { bytes: 256 }));
            assert!(ChannelName::new("a".repeat(255)).is_ok());
            assert!(ChannelName::new("a").is_ok());
            // 128 two-byte characters are 256 bytes: counted in bytes, not characters.
            assert_eq!(ChannelName::new("é".repeat(128)), Err(InvalidChannelName { bytes: 256 }));
            rejects::<ChannelDescriptor>(r#"{"name":"","events":[]}"#, "received 0 bytes");
            rejects::<ChannelDescriptor>(
                &format!(r#"{{"name":"{long}","events":[]}}"#),
                "received 256 bytes",
            );
        }
    }

    mod admission {
        fn admission_literals_round_trip() {
            literal_round_trip!(AccessTokenAlgorithm);
            literal_round_trip!(AccessTokenRefusal);
            literal_round_trip!(ExternalEventKind);
            literal_round_trip!(ExternalEventSettlementOutcome);
            literal_round_trip!(ExternalEventRemoteClass);
            assert_eq!(AccessTokenRefusal::ALL.len(), 15);
            assert_eq!(ExternalEventSettlementOutcome::LITERALS, ["completed", "interrupted", "not-run", "failed"]);
            assert_eq!(ExternalEventRemoteClass::LITERALS, ["loopback", "private", "public", "unknown"]);
        }

        fn admission_goldens() {
            let token = gold!(TransportAdmission, "admission_token");
            let TransportAdmission::Token(credential) = &token else { panic!("{token:?}") };
            assert_eq!(credential.expose(), "3f9a");
            let open = gold!(TransportAdmission, "admission_open");
            assert_eq!(open, TransportAdmission::Open { reason: OpenReason::new("loopback-only development").unwrap() });
            let config = gold!(TransportAdmissionConfig, "admission_config");
            assert_eq!(config.open, Some(true));
            assert_eq!(config.open_reason.as_deref(), Some("local demo"));
            // A reason read from the wire is trimmed, as resolution trims it.
            let padded: TransportAdmission = decode(&json(r#"{"token":null,"openReason":"  why \n"}"#));
            assert_eq!(to_json(&padded), json(r#"{"token":null,"openReason":"why"}"#));
            // A resolved admission converts back into the config that resolves to it.
            let back = TransportAdmissionConfig::from(token);
            assert_eq!((back.token.as_deref(), back.open, back.open_reason), (Some("3f9a"), None, None));
            let back = TransportAdmissionConfig::from(open);
            assert_eq!(back.token, None);
            assert_eq!((back.open, back.open_reason.as_deref()), (Some(true), Some("loopback-only development")));
        }

        fn admission_decoder_refuses_what_the_contract_forbids() {
            // `token` must be present: `null` means "explicitly opened", never "unset".
            rejects::<TransportAdmission>(r#"{"openReason":"why"}"#, "missing field `token`");
            rejects::<TransportAdmission>("{}", "missing field `token`");
            rejects::<TransportAdmission>(r#"{"token":null}"#, "needs an `openReason`");
            rejects::<TransportAdmission>(r#"{"token":null,"openReason":"  "}"#, "non-blank");
            rejects::<TransportAdmission>(r#"{"token":"t","openReason":"why"}"#, "no `openReason`");
            rejects::<TransportAdmission>(r#"{"token":""}"#, "non-whitespace");
            rejects::<TransportAdmission>(r#"{"token":" \t "}"#, "non-whitespace");
            rejects::<TransportAdmission>(r#"{"token":7}"#, "invalid type");
            rejects::<TransportAdmissionConfig>(r#"{"open":"true"}"#, "invalid type");
            // `token: null` is an open admission, not a config: never read as "mint".
            rejects::<TransportAdmissionConfig>(r#"{"token":null,"openReason":"x"}"#, "invalid type: null");
            let absent: TransportAdmissionConfig = decode(&json(r#"{"openReason":"x"}"#));
            assert_eq!(absent.token, None);
        }

        fn token_and_reason_are_validated_when_built() {
            assert_eq!(TransportToken::new("").unwrap_err(), BlankTransportToken);
            assert_eq!(TransportToken::new(" \t\n").unwrap_err(), BlankTransportToken);
            assert_eq!(TransportToken::new(" kept as given ").unwrap().expose(), " kept as given ");
            assert_eq!(OpenReason::new("  tests only ").unwrap().as_str(), "tests only");
            assert_eq!(OpenReason::new(" \t ").unwrap_err(), BlankOpenReason);
            assert_eq!(OpenReason::new("").unwrap_err(), BlankOpenReason);
            assert!(format!("{BlankTransportToken}").contains("non-whitespace"));
            assert!(format!("{BlankOpenReason}").contains("non-blank"));
        }

        fn verdict_goldens() {
            assert_eq!(gold!(AccessTokenAdmission, "verdict_admitted"), AccessTokenAdmission::Admitted);
            assert_eq!(
                gold!(AccessTokenAdmission, "verdict_refused"),
                AccessTokenAdmission::Refused(AccessTokenRefusal::PrincipalNotAllowed)
            );
            assert_eq!(
                gold!(ExternalEventAdmission, "event_admitted"),
                ExternalEventAdmission::Admitted { turn_id: s("turn-7") }
            );
            assert_eq!(
                gold!(ExternalEventAdmission, "event_refused_token"),
                ExternalEventAdmission::Refused(ExternalEventRefusal::Token(AccessTokenRefusal::Expired))
            );
            assert_eq!(
                gold!(ExternalEventAdmission, "event_refused_delivery"),
                ExternalEventAdmission::Refused(ExternalEventRefusal::RateLimited)
            );
        }

        fn unknown_refusal_reasons_are_refused() {
            rejects::<AccessTokenAdmission>(r#"{"admitted":false,"refusal":"revoked"}"#, "unknown variant `revoked`");
            rejects::<AccessTokenAdmission>(r#"{"admitted":false}"#, "needs a `refusal`");
            rejects::<AccessTokenAdmission>(r#"{"admitted":true,"refusal":"expired"}"#, "no `refusal`");
            rejects::<ExternalEventAdmission>(r#"{"admitted":false,"refusal":"banned"}"#, "unknown variant `banned`");
            rejects::<ExternalEventAdmission>(r#"{"admitted":true}"#, "`turnId` only");
            rejects::<ExternalEventAdmission>(r#"{"admitted":false,"turnId":"t","refusal":"queue-full"}"#, "`turnId` only");
        }

        fn external_refusals_cover_token_and_delivery_literals() {
            for literal in ["missing-token", "unknown-grant", "grant-revoked", "source-closed",
                "malformed-event", "rate-limited", "queue-full", "shutting-down", "session-unavailable"] {
                let refusal = ExternalEventRefusal::from_literal(literal).expect("delivery refusal");
                assert_eq!(refusal.as_str(), literal);
                assert_eq!(to_json(&refusal), Value::String(s(literal)));
                assert_eq!(decode::<ExternalEventRefusal>(&Value::String(s(literal))), refusal);
            }
            for token in AccessTokenRefusal::ALL {
                assert_eq!(ExternalEventRefusal::from_literal(token.as_str()), Some(ExternalEventRefusal::from(*token)));
            }
            assert_eq!(
                ExternalEventRefusal::from_literal("oversize"),
                Some(ExternalEventRefusal::Token(AccessTokenRefusal::Oversize))
            );
            assert_eq!(ExternalEventRefusal::from_literal("nope"), None);
        }

        fn verifier_config_is_single_tenant_by_construction() {
            let verifier = gold!(AccessTokenVerifierConfig, "verifier_config");
            assert_eq!(verifier.issuer(), "https://issuer.example");
            assert_eq!(verifier.resource(), "https://api.example");
            assert_eq!(verifier.algorithms(), [AccessTokenAlgorithm::Rs256, AccessTokenAlgorithm::EdDsa]);
            assert_eq!(verifier.required_scopes(), [s("agent:write")]);
            assert_eq!((verifier.allowed_subjects(), verifier.allowed_clients()), (&[s("user-1")][..], &[s("cli")][..]));
            assert!(!verifier.pins_one_principal());
            let build = |issuer: &str, algorithms: alloc::vec::Vec<AccessTokenAlgorithm>, subjects: &[&str], clients: &[&str]| {
                AccessTokenVerifierConfig::new(issuer, "https://api.example", algorithms, alloc::vec![],
                    subjects.iter().map(|x| s(x)).collect(), clients.iter().map(|x| s(x)).collect())
            };
            let rs = || alloc::vec![AccessTokenAlgorithm::Rs256];
            assert!(build("https://issuer.example", rs(), &["user-1"], &[]).unwrap().pins_one_principal());
            assert!(build("https://issuer.example", rs(), &[], &["cli"]).unwrap().pins_one_principal());
            use AccessTokenVerifierConfigError as E;
            assert_eq!(build("http://issuer.example", rs(), &["u"], &[]), Err(E::IssuerNotHttps));
            assert_eq!(build("https://", rs(), &["u"], &[]), Err(E::IssuerNotHttps));
            assert_eq!(build("https://issuer.example", alloc::vec![], &["u"], &[]), Err(E::NoAlgorithm));
            assert_eq!(build("https://issuer.example", rs(), &[], &[]), Err(E::NoAllowedPrincipal));
            assert_eq!(build("https://issuer.example", rs(), &["u", " "], &[]), Err(E::BlankPrincipal));
            assert_eq!(build("https://issuer.example", rs(), &[], &[""]), Err(E::BlankPrincipal));
            // The decoder refuses the same, with the same messages.
            let base = r#""resource":"https://api.example","requiredScopes":[]"#;
            rejects::<AccessTokenVerifierConfig>(&format!(r#"{{"issuer":"http://i","algorithms":["RS256"],"allowedSubjects":["u"],{base}}}"#), "https:// URL");
            rejects::<AccessTokenVerifierConfig>(&format!(r#"{{"issuer":"https://i","algorithms":[],"allowedSubjects":["u"],{base}}}"#), "at least one algorithm");
            rejects::<AccessTokenVerifierConfig>(&format!(r#"{{"issuer":"https://i","algorithms":["RS256"],{base}}}"#), "single-tenant");
            rejects::<AccessTokenVerifierConfig>(&format!(r#"{{"issuer":"https://i","algorithms":["RS256"],"allowedSubjects":[],"allowedClients":[],{base}}}"#), "single-tenant");
            rejects::<AccessTokenVerifierConfig>(&format!(r#"{{"issuer":"https://i","algorithms":["RS256"],"allowedClients":["  "],{base}}}"#), "must not be blank");
            rejects::<AccessTokenVerifierConfig>(&format!(r#"{{"issuer":"https://i","algorithms":["HS256"],"allowedClients":["c"],{base}}}"#), "unknown variant `HS256`");
            rejects::<AccessTokenVerifierConfig>(&format!(r#"{{"issuer":"https://i","algorithms":["none"],"allowedClients":["c"],{base}}}"#), "unknown variant `none`");
            rejects::<AccessTokenVerifierConfig>(r#"{"issuer":"https://i","resource":"r","algorithms":["RS256"],"allowedClients":["c"]}"#, "missing field `requiredScopes`");
            // An empty allow-list is written as absent.
            let one = build("https://issuer.example", rs(), &[], &["cli"]).unwrap();
            assert_eq!(to_json(&one).get("allowedSubjects"), None);
        }

        fn grant_pins_one_principal_and_message_kinds() {
            let grant = gold!(ExternalEventGrant, "external_event_grant");
            assert_eq!(grant.grant_id().as_str(), "ops_bot-1");
            assert_eq!(grant.kinds(), [ExternalEventKind::Message]);
            assert_eq!(grant.rate(), Some(&[ExternalEventRateWindow::new(60_000, 10)][..]));
            assert!(grant.verifier().pins_one_principal());
            for good in ["a", "A-z_0", &"x".repeat(64)] {
                assert_eq!(GrantId::new(good).unwrap().as_str(), good);
            }
            for bad in ["", "ops bot", "ops.bot", "bot/1", "é", &"x".repeat(65)] {
                assert_eq!(GrantId::new(bad), Err(InvalidGrantId), "{bad}");
            }
            assert!(format!("{InvalidGrantId}").contains("[a-zA-Z0-9_-]"));
            let two = AccessTokenVerifierConfig::new("https://issuer.example", "https://api.example",
                alloc::vec![AccessTokenAlgorithm::Es256], alloc::vec![], alloc::vec![s("u")], alloc::vec![s("ops-bot")]).unwrap();
            assert_eq!(ExternalEventGrant::new(grant.grant_id().clone(), two, None), Err(ExternalEventGrantError::NotOnePrincipal));
            let rebuilt = ExternalEventGrant::new(grant.grant_id().clone(), grant.verifier().clone(), None).unwrap();
            assert_eq!(rebuilt.rate(), None);
            assert_eq!(to_json(&rebuilt).get("rate"), None);
            // The decoder refuses a bad id, a verifier naming two principals, and other kinds.
            let text = include_str!("../golden/transport/external_event_grant.json");
            let with = |from: &str, to: &str| { assert!(text.contains(from), "{from}"); text.replacen(from, to, 1) };
            rejects::<ExternalEventGrant>(&with(r#""ops_bot-1""#, r#""ops bot""#), "a grant id must be");
            rejects::<ExternalEventGrant>(&with(r#""allowedClients""#, r#""allowedSubjects": ["u"], "allowedClients""#), "exactly one principal");
            rejects::<ExternalEventGrant>(&with(r#""ops-bot""#, r#""ops-bot", "other-bot""#), "exactly one principal");
            rejects::<ExternalEventGrant>(&with(r#""message""#, r#""message", "message""#), "exactly [\"message\"]");
            rejects::<ExternalEventGrant>(&with(r#"[
    "message"
  ]"#, "[]"), "exactly [\"message\"]");
            rejects::<ExternalEventGrant>(&with(r#""message""#, r#""webhook""#), "unknown variant `webhook`");
            rejects::<ExternalEventGrant>(&with(r#""ES256""#, r#""HS256""#), "unknown variant `HS256`");
            assert!(format!("{}", ExternalEventGrantError::KindsNotMessageOnly).contains("kinds"));
        }

        fn message_event_and_delivery_goldens() {
            let event = gold!(ExternalMessageEvent, "external_message_event");
            assert_eq!((event.conversation_id.as_str(), event.content.as_str()), ("conv-42", "the build is green"));
            assert_eq!(event.claimed_name.as_deref(), Some("Ops Bot"));
            let minimal = gold!(ExternalMessageEvent, "external_message_event_minimal");
            assert_eq!(minimal.claimed_name, None);
            let delivery = gold!(ExternalEventDelivery, "external_event_delivery");
            assert_eq!(delivery.token.as_deref(), Some("eyJhbGciOiJFUzI1NiJ9.e30.c2ln"));
            assert_eq!(ExternalMessageEvent::from_value(&delivery.event), Ok(minimal));
            let bare = gold!(ExternalEventDelivery, "external_event_delivery_without_token");
            assert_eq!(bare.token, None);
            // The delivery carries the event unvalidated; reading it refuses a non-message.
            assert_eq!(ExternalMessageEvent::from_value(&bare.event), Err(InvalidExternalMessageEvent::NotAMessage));
            rejects::<ExternalEventDelivery>(r#"{"token":"t"}"#, "missing field `event`");
            // Unknown members of a message are ignored, not carried.
            let extra: ExternalMessageEvent = decode(&json(r#"{"kind":"message","conversationId":"c","content":"x","ip":"10.0.0.1"}"#));
            assert_eq!(to_json(&extra), json(r#"{"kind":"message","conversationId":"c","content":"x"}"#));
        }

        fn message_event_refusals_name_the_member() {
            use InvalidExternalMessageEvent as E;
            for (text, refusal, needle) in [
                (r#""message""#, E::NotAMessage, "`kind: \"message\"`"),
                (r#"{"conversationId":"c","content":"x"}"#, E::NotAMessage, "`kind: \"message\"`"),
                (r#"{"kind":"note","conversationId":"c","content":"x"}"#, E::NotAMessage, "`kind: \"message\"`"),
                (r#"{"kind":"message","content":"x"}"#, E::BadConversationId, "`conversationId`"),
                (r#"{"kind":"message","conversationId":7,"content":"x"}"#, E::BadConversationId, "`conversationId`"),
                (r#"{"kind":"message","conversationId":"c"}"#, E::BadContent, "`content`"),
                (r#"{"kind":"message","conversationId":"c","content":null}"#, E::BadContent, "`content`"),
                (r#"{"kind":"message","conversationId":"c","content":"x","claimedName":1}"#, E::BadClaimedName, "`claimedName`"),
            ] {
                assert_eq!(ExternalMessageEvent::from_value(&json(text)), Err(refusal), "{text}");
                let message = rejects::<ExternalMessageEvent>(text, needle);
                assert_eq!(message.split(" at line").next(), Some(format!("{refusal}").as_str()));
            }
        }

        fn audit_record_goldens() {
            let refusal = gold!(ExternalEventAuditRecord, "audit_record_refusal");
            assert_eq!(refusal.outcome, ExternalEventAuditOutcome::Refused(ExternalEventRefusal::MissingToken));
            assert_eq!((refusal.grant_id.as_ref(), refusal.remote, refusal.throttled), (None, Some(ExternalEventRemoteClass::Public), Some(true)));
            let settled = gold!(ExternalEventAuditRecord, "audit_record_settlement");
            assert_eq!(settled.outcome, ExternalEventAuditOutcome::Settled(ExternalEventSettlementOutcome::NotRun));
            assert_eq!(settled.grant_id.as_ref().map(GrantId::as_str), Some("ops_bot-1"));
            let token = gold!(ExternalEventAuditRecord, "audit_record_token_refusal");
            assert_eq!(token.outcome, ExternalEventAuditOutcome::Refused(ExternalEventRefusal::Token(AccessTokenRefusal::Malformed)));
            assert_eq!((token.remote, token.throttled), (None, None));
            // What a host's audit log builds is what the goldens decode to.
            let built = ExternalEventAuditRecord::new("2026-03-01T12:00:00.000Z", ExternalEventAuditOutcome::Refused(ExternalEventRefusal::MissingToken))
                .with_remote(ExternalEventRemoteClass::Public)
                .with_throttled(true);
            assert_eq!(built, refusal);
            let grant = settled.grant_id.clone().expect("the golden names a grant");
            let built = ExternalEventAuditRecord::new(settled.at.clone(), settled.outcome).with_grant_id(grant);
            assert_eq!(built.grant_id, settled.grant_id);
        }

        fn audit_record_refusals() {
            let at = r#""at":"2026-03-01T12:00:00.000Z""#;
            rejects::<ExternalEventAuditRecord>(&format!(r#"{{{at},"refusal":"queue-full","settlement":"completed"}}"#), "exactly one of");
            rejects::<ExternalEventAuditRecord>(&format!("{{{at}}}"), "exactly one of");
            rejects::<ExternalEventAuditRecord>(&format!(r#"{{{at},"grantId":"g","remote":"public"}}"#), "exactly one of");
            // No member beyond the contract's: nothing can smuggle content or identity in.
            for member in [r#""content":"hi""#, r#""token":"t""#, r#""conversationId":"c""#, r#""peer":"10.0.0.1""#] {
                rejects::<ExternalEventAuditRecord>(&format!(r#"{{{at},"refusal":"queue-full",{member}}}"#), "unknown field");
            }
            rejects::<ExternalEventAuditRecord>(&format!(r#"{{{at},"refusal":"denied"}}"#), "unknown variant `denied`");
            rejects::<ExternalEventAuditRecord>(&format!(r#"{{{at},"settlement":"done"}}"#), "unknown variant `done`");
            rejects::<ExternalEventAuditRecord>(&format!(r#"{{{at},"remote":"10.0.0.1","refusal":"queue-full"}}"#), "unknown variant `10.0.0.1`");
            rejects::<ExternalEventAuditRecord>(&format!(r#"{{{at},"grantId":"ops bot","refusal":"queue-full"}}"#), "a grant id must be");
            rejects::<ExternalEventAuditRecord>(r#"{"refusal":"queue-full"}"#, "missing field `at`");
        }

        fn audit_records_refuse_a_repeated_member() {
            let at = r#""at":"2026-03-01T12:00:00.000Z""#;
            for (member, name) in [
                (r#""at":"2026-03-02T00:00:00.000Z""#, "at"),
                (r#""grantId":"g","grantId":"h""#, "grantId"),
                (r#""remote":"public","remote":"private""#, "remote"),
                (r#""throttled":true,"throttled":false"#, "throttled"),
                (r#""refusal":"queue-full""#, "refusal"),
            ] {
                let text = format!(r#"{{{at},"refusal":"queue-full",{member}}}"#);
                rejects::<ExternalEventAuditRecord>(&text, &format!("duplicate field `{name}`"));
                // From bytes too (host only: a second reader instance costs flash on the firmware).
                #[cfg(not(target_os = "none"))]
                {
                    let error = serde_json::from_slice::<ExternalEventAuditRecord>(text.as_bytes()).expect_err("refused");
                    assert!(format!("{error}").contains(&format!("duplicate field `{name}`")), "{error}");
                }
            }
            rejects::<ExternalEventAuditRecord>(
                &format!(r#"{{{at},"settlement":"completed","settlement":"not-run"}}"#),
                "duplicate field `settlement`",
            );
        }

        fn nothing_prints_a_token_content_or_principal() {
            let token = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LWNsYWlt.sig-text";
            let admission = TransportAdmission::Token(TransportToken::new(token).unwrap());
            let config = TransportAdmissionConfig { token: Some(s(token)), ..Default::default() };
            let event = ExternalMessageEvent::new("conv-secret-9", "content-secret-9").with_claimed_name("name-secret-9");
            let delivery = ExternalEventDelivery { token: Some(s(token)), event: to_json(&event) };
            let verifier = AccessTokenVerifierConfig::new("https://issuer.example", "https://api.example",
                alloc::vec![AccessTokenAlgorithm::Rs256], alloc::vec![], alloc::vec![s("subject-secret-9")], alloc::vec![]).unwrap();
            let grant = ExternalEventGrant::new(GrantId::new("g").unwrap(), verifier.clone(), None).unwrap();
            let printed = [
                format!("{admission:?}"), format!("{config:?}"), format!("{:?}", TransportToken::new(token).unwrap()),
                format!("{event:?}"), format!("{delivery:?}"), format!("{verifier:?}"), format!("{grant:?}"),
            ];
            for text in &printed {
                for secret in [token, "c2VjcmV0", "conv-secret-9", "content-secret-9", "name-secret-9", "subject-secret-9"] {
                    assert!(!text.contains(secret), "{text} shows {secret}");
                }
            }
            for text in &printed[..5] {
                assert!(text.contains("<redacted>"), "{text}");
            }
            assert!(printed[5].contains("allowed_subjects: 1"), "{}", printed[5]);
            // The construction errors name the rule, never the refused text.
            for error in [format!("{:?}", GrantId::new("subject-secret-9 x")), format!("{:?}", TransportToken::new(" "))] {
                assert!(!error.contains("subject-secret-9"), "{error}");
            }
            for refusal in AccessTokenRefusal::ALL {
                let verdict = AccessTokenAdmission::Refused(*refusal);
                for text in [format!("{verdict:?}"), format!("{verdict}"), format!("{}", to_json(&verdict))] {
                    assert!(!text.contains(token) && !text.contains("subject-secret-9"), "{text}");
                }
            }
        }

        fn action_response_is_re_exported() {
            let response: ActionResponse = decode(&json(r#"{"type":"cancelled"}"#));
            let core: agent_interface::agent_core::ActionResponse = response.clone();
            assert_eq!(core, response);
        }
    }
}

//! Cases of the `transport` family contracts: golden round trips of every record and union
//! variant, catalog §10 items 21–22 (with the run-outcome interop vectors copied as literal
//! cases), and refused input. Uses only `core`, `alloc`, serde_json and the crate, so it also
//! runs on the firmware and wasm.

use alloc::format;
use alloc::string::String;
use core::cell::{Cell, RefCell};
use core::num::NonZeroU8;

use agent_interface::agent_core::{ErrorValue, Value};
use agent_interface::transport::*;

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

    fn attach(&self, session: String) {
        *self.session.borrow_mut() = Some(session);
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
    async fn wait_for_completion(&self) -> TransportRunOutcome {
        TransportRunOutcome::Succeeded
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
        self.raw.attach(self.session.clone());
        self.raw.start().await
    }

    async fn stop(&self) -> Result<(), ErrorValue> {
        self.raw.stop().await
    }
}

impl BoundTransportRunnerAdapter for BoundRunner {
    async fn wait_for_completion(&self) -> TransportRunOutcome {
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
            runner.attach(s("session-1"));
            block_on(runner.start()).expect("first start");
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
            runner.attach(s("session-1"));
            block_on(runner.start()).expect("start");
            block_on(runner.stop()).expect("stop");
            let failure = block_on(runner.start()).expect_err("no session after stop");
            assert_eq!(failure.lifecycle_code(), Some(TransportLifecycleErrorCode::NotAttached));
            runner.attach(s("session-2"));
            block_on(runner.start()).expect("restart");
            assert_eq!(block_on(runner.wait_for_completion()), TransportRunOutcome::Succeeded);
        }

        fn bound_form_attaches_inside_start() {
            let bound = BoundRunner { raw: Runner::new(), session: s("captured") };
            assert_eq!(bound.lifecycle().kind(), TransportLifecycleKind::Runner);
            block_on(bound.start()).expect("bound start attaches first");
            assert_eq!(bound.raw.session.borrow().as_deref(), Some("captured"));
            assert_eq!(block_on(bound.wait_for_completion()), TransportRunOutcome::Succeeded);
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
            assert_eq!(
                capability.configure(&Default::default()),
                Err(TransportConfigurationErrorCode::OptionsNotApplicable)
            );
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
            assert_eq!(AccessTokenRefusal::ALL.len(), 15);
        }

        fn admission_goldens() {
            assert_eq!(gold!(TransportAdmission, "admission_token"), TransportAdmission::Token(s("3f9a")));
            assert_eq!(
                gold!(TransportAdmission, "admission_open"),
                TransportAdmission::Open { reason: s("loopback-only development") }
            );
            let config = gold!(TransportAdmissionConfig, "admission_config");
            assert_eq!(config.open, Some(true));
            rejects::<TransportAdmission>(r#"{"token":null}"#, "non-blank `openReason`");
            rejects::<TransportAdmission>(r#"{"token":null,"openReason":"  "}"#, "non-blank");
            rejects::<TransportAdmission>(r#"{"token":"t","openReason":"why"}"#, "non-empty `token`");
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
            rejects::<AccessTokenVerifierConfig>(
                r#"{"issuer":"i","resource":"r","algorithms":["HS256"],"requiredScopes":[]}"#,
                "unknown variant `HS256`",
            );
        }

        fn external_refusals_cover_token_and_delivery_literals() {
            for literal in ["missing-token", "unknown-grant", "grant-revoked", "source-closed",
                "malformed-event", "rate-limited", "queue-full", "shutting-down", "session-unavailable"] {
                let refusal = ExternalEventRefusal::from_literal(literal).expect("delivery refusal");
                assert_eq!(refusal.as_str(), literal);
                assert_eq!(to_json(&refusal), Value::String(s(literal)));
            }
            assert_eq!(
                ExternalEventRefusal::from_literal("oversize"),
                Some(ExternalEventRefusal::Token(AccessTokenRefusal::Oversize))
            );
            assert_eq!(ExternalEventRefusal::from_literal("nope"), None);
        }

        fn verdicts_and_admissions_never_print_the_token() {
            let token = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LWNsYWlt.sig-text";
            let admission = TransportAdmission::Token(s(token));
            let config = TransportAdmissionConfig { token: Some(s(token)), ..Default::default() };
            let printed = [format!("{admission:?}"), format!("{config:?}")];
            for text in &printed {
                assert!(!text.contains(token) && !text.contains("c2VjcmV0"), "{text}");
                assert!(text.contains("<redacted>"), "{text}");
            }
            for refusal in AccessTokenRefusal::ALL {
                let verdict = AccessTokenAdmission::Refused(*refusal);
                for text in [format!("{verdict:?}"), format!("{verdict}"), format!("{}", to_json(&verdict))] {
                    assert!(!text.contains(token) && !text.contains("user-1"), "{text}");
                }
            }
        }

        fn verifier_and_grant_rules() {
            let verifier = gold!(AccessTokenVerifierConfig, "verifier_config");
            assert!(verifier.is_single_tenant());
            assert!(!verifier.pins_one_principal());
            let no_principal = AccessTokenVerifierConfig { allowed_subjects: None, allowed_clients: Some(alloc::vec![]), ..verifier.clone() };
            assert!(!no_principal.is_single_tenant());
            let grant = gold!(ExternalEventGrant, "external_event_grant");
            assert!(grant.is_well_formed());
            let two = ExternalEventGrant {
                verifier: AccessTokenVerifierConfig { allowed_subjects: Some(alloc::vec![s("u")]), ..grant.verifier.clone() },
                ..grant.clone()
            };
            assert!(!two.is_well_formed());
            let bad_id = ExternalEventGrant { grant_id: s("ops bot"), ..grant.clone() };
            assert!(!bad_id.is_well_formed());
            let long_id = ExternalEventGrant { grant_id: "a".repeat(65), ..grant.clone() };
            assert!(!long_id.is_well_formed());
            let no_kinds = ExternalEventGrant { kinds: alloc::vec![], ..grant };
            assert!(!no_kinds.is_well_formed());
        }

        fn action_response_is_re_exported() {
            let response: ActionResponse = decode(&json(r#"{"type":"cancelled"}"#));
            let core: agent_interface::agent_core::ActionResponse = response.clone();
            assert_eq!(core, response);
        }
    }
}

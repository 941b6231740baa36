//! Cases of the transport admission runtime (catalog §6.5, "Admission"): resolution and
//! minting, constant-time credential checks and the bearer parser, access-token verdicts over
//! host-verified claims, and external events against their grant. Every refusal the issue names
//! has its own bad-input case, and every verdict, refusal, error and config these cases produce
//! is printed and searched for the token and claim values. Uses only `core`, `alloc`,
//! serde_json and the crate, so it also runs on the firmware and wasm.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use agent_interface::agent_core::Value;
use agent_interface::runtime::transport::admission::{
    AccessTokenAudience, AccessTokenClaims, AccessTokenRules, AccessTokenSignatureRefusal,
    AccessTokenSignatures, AdmissionResolutionError, ExternalEventGate, GrantedExternalEvent,
    MAX_ACCESS_TOKEN_BYTES, NoEntropySource, SignedAccessTokenVerifier, TokenPresentationError,
    UpgradeAllowList, UpgradeRefusal, UpgradeRequest, admission_admits, admit_upgrade,
    bearer_credential, credential_matches, mint_transport_token, query_token, resolve_admission,
    resolve_stated_admission, subprotocol_token, token_subprotocols, url_with_token,
};
use agent_interface::transport::{
    admission::{
        AccessTokenAdmission, AccessTokenAlgorithm, AccessTokenRefusal, AccessTokenVerifier,
        AccessTokenVerifierConfig, OpenReason, TransportAdmission, TransportAdmissionConfig,
        TransportToken,
    },
    external_events::{
        ExternalEventAdmission, ExternalEventDelivery, ExternalEventGrant, ExternalEventRefusal,
        ExternalMessageEvent, GrantId,
    },
};

use crate::support::{block_on, golden, rejects, s, to_json};

macro_rules! gold {
    ($ty:ty, $file:literal) => {
        golden::<$ty>(
            $file,
            include_str!(concat!(
                "../golden/transport/admission_runtime/",
                $file,
                ".json"
            )),
        )
    };
}

// ---- entropy ------------------------------------------------------------------------------

#[path = "scripted_rng.rs"]
mod scripted_rng;

use scripted_rng::{EntropyUnavailable, ScriptedRng};

const SEQUENTIAL_TOKEN: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

fn config(
    token: Option<&str>,
    open: Option<bool>,
    reason: Option<&str>,
) -> TransportAdmissionConfig {
    TransportAdmissionConfig {
        token: token.map(s),
        open,
        open_reason: reason.map(s),
    }
}

fn token_admission(text: &str) -> TransportAdmission {
    TransportAdmission::Token(TransportToken::new(text).expect("a token"))
}

fn open_admission(reason: &str) -> TransportAdmission {
    TransportAdmission::Open {
        reason: OpenReason::new(reason).expect("a reason"),
    }
}

// ---- access tokens ------------------------------------------------------------------------

/// The token every scenario presents unless it says otherwise; its parts must never be printed.
const TOKEN: &str = "eyJ0eXAiOiJhdCtqd3QifQ.SECRET-CLAIMS-4711.SIG-4711";

/// Token text and claim values that no verdict, refusal, error or `Debug` output may show.
const SECRETS: &[&str] = &[
    "SECRET-CLAIMS-4711",
    "SIG-4711",
    "subject-4711",
    "client-4711",
    "jti-4711",
    "agent:read",
    "https://evil.example",
    "conversation-4711",
    "content-4711",
    "Claimed Name 4711",
];

/// Milliseconds: between the golden claims' `nbf` (1_800_000_000 s) and `exp` (1_800_000_600 s).
const NOW: u64 = 1_800_000_300_000;
const SKEW: u64 = 30_000;
const EXP_MS: u64 = 1_800_000_600_000;
const NBF_MS: u64 = 1_800_000_000_000;

fn assert_hidden(texts: &[String]) {
    assert!(!texts.is_empty());
    for text in texts {
        for secret in SECRETS {
            assert!(!text.contains(secret), "`{text}` shows `{secret}`");
        }
    }
}

/// The golden claims: issuer and audience right, in their validity window, scopes
/// `agent:read agent:write`, subject `subject-4711`, client `client-4711`, jti `jti-4711`.
fn claims() -> AccessTokenClaims {
    gold!(AccessTokenClaims, "claims")
}

fn verifier_config() -> AccessTokenVerifierConfig {
    AccessTokenVerifierConfig::new(
        "https://issuer.example",
        "https://api.example",
        vec![AccessTokenAlgorithm::Es256, AccessTokenAlgorithm::EdDsa],
        vec![s("agent:write")],
        vec![s("subject-4711")],
        vec![s("client-4711")],
    )
    .expect("a single-tenant config")
}

fn rules() -> AccessTokenRules {
    AccessTokenRules::new(verifier_config(), SKEW)
}

/// The host's signature check, scripted: token text to claims or a refusal (an unknown token
/// has a bad signature). It counts its calls and keeps the algorithms it was asked for.
struct Signatures {
    table: Vec<(
        String,
        Result<AccessTokenClaims, AccessTokenSignatureRefusal>,
    )>,
    calls: Cell<u32>,
    algorithms: RefCell<Vec<AccessTokenAlgorithm>>,
}

impl Signatures {
    fn new(table: Vec<(&str, Result<AccessTokenClaims, AccessTokenSignatureRefusal>)>) -> Self {
        Self {
            table: table
                .into_iter()
                .map(|(token, result)| (s(token), result))
                .collect(),
            calls: Cell::new(0),
            algorithms: RefCell::new(Vec::new()),
        }
    }
}

impl AccessTokenSignatures for Signatures {
    async fn verified_claims(
        &self,
        token: &str,
        algorithms: &[AccessTokenAlgorithm],
    ) -> Result<AccessTokenClaims, AccessTokenSignatureRefusal> {
        self.calls.set(self.calls.get() + 1);
        *self.algorithms.borrow_mut() = algorithms.to_vec();
        self.table.iter().find(|(known, _)| known == token).map_or(
            Err(AccessTokenSignatureRefusal::BadSignature),
            |(_, result)| result.clone(),
        )
    }
}

/// One scenario per verdict of `access_token_verdicts.json`: the claims (or the host's
/// refusal) the token comes with, and the time it is checked at.
fn access_token_scenarios() -> Vec<(
    &'static str,
    Result<AccessTokenClaims, AccessTokenSignatureRefusal>,
    u64,
)> {
    let with = |edit: fn(&mut AccessTokenClaims)| {
        let mut claims = claims();
        edit(&mut claims);
        Ok(claims)
    };
    let mut scenarios = vec![
        ("admitted-by-subject", with(|c| c.client_id = None), NOW),
        ("admitted-by-client", with(|c| c.sub = None), NOW),
        (
            "wrong-issuer",
            with(|c| c.iss = s("https://evil.example")),
            NOW,
        ),
        (
            "wrong-audience",
            with(|c| c.aud = AccessTokenAudience::One(s("https://evil.example"))),
            NOW,
        ),
        ("expired", Ok(claims()), EXP_MS + SKEW),
        ("not-yet-valid", Ok(claims()), NBF_MS - SKEW - 1),
        (
            "missing-scope",
            with(|c| c.scope = Some(s("agent:read"))),
            NOW,
        ),
        (
            "principal-not-allowed",
            with(|c| {
                c.sub = Some(s("subject-other"));
                c.client_id = Some(s("client-other"));
            }),
            NOW,
        ),
    ];
    for refusal in AccessTokenSignatureRefusal::ALL {
        scenarios.push((refusal.as_str(), Err(*refusal), NOW));
    }
    scenarios
}

// ---- external events ----------------------------------------------------------------------

/// The grant `ops_bot-1`, pinned to the client `client-4711`.
fn grant() -> ExternalEventGrant {
    let verifier = AccessTokenVerifierConfig::new(
        "https://issuer.example",
        "https://api.example",
        vec![AccessTokenAlgorithm::Es256],
        vec![s("agent:write")],
        vec![],
        vec![s("client-4711")],
    )
    .expect("a config");
    ExternalEventGrant::new(GrantId::new("ops_bot-1").expect("an id"), verifier, None)
        .expect("a grant")
}

fn message() -> Value {
    to_json(
        &ExternalMessageEvent::new("conversation-4711", "content-4711")
            .with_claimed_name("Claimed Name 4711"),
    )
}

fn delivery(token: Option<&str>) -> ExternalEventDelivery {
    ExternalEventDelivery {
        token: token.map(s),
        event: message(),
    }
}

/// Claims for the grant: the golden ones with another `jti` and `exp` (seconds), and a
/// subject the grant does not list (only its client is).
fn event_claims(jti: Option<&str>, exp: u64) -> AccessTokenClaims {
    let mut claims = claims();
    claims.jti = jti.map(s);
    claims.exp = exp;
    claims.sub = Some(s("subject-other"));
    claims
}

/// Tokens `TOKEN` (jti-4711), `tok-a`/`tok-b` (expire at `EXP_MS`), `tok-c` (expires 10 min
/// later), `tok-other` (another client), `tok-no-jti`.
fn event_signatures() -> Signatures {
    let mut other = event_claims(Some("jti-other"), 1_800_000_600);
    other.client_id = Some(s("client-other"));
    Signatures::new(vec![
        (TOKEN, Ok(event_claims(Some("jti-4711"), 1_800_000_600))),
        ("tok-a", Ok(event_claims(Some("jti-a"), 1_800_000_600))),
        ("tok-b", Ok(event_claims(Some("jti-b"), 1_800_000_600))),
        ("tok-c", Ok(event_claims(Some("jti-c"), 1_800_001_200))),
        ("tok-other", Ok(other)),
        ("tok-no-jti", Ok(event_claims(None, 1_800_000_600))),
    ])
}

fn gate<const SPENT: usize>() -> ExternalEventGate<Signatures, SPENT> {
    ExternalEventGate::new(grant(), SKEW, event_signatures())
}

/// What a host answers for a gate's decision, the turn id being its own.
fn answer(decision: &Result<GrantedExternalEvent, ExternalEventRefusal>) -> ExternalEventAdmission {
    match decision {
        Ok(_) => ExternalEventAdmission::Admitted {
            turn_id: s("turn-1"),
        },
        Err(refusal) => ExternalEventAdmission::Refused(*refusal),
    }
}

cases! {
    mod resolution {
        fn resolution_follows_the_reference_steps() {
            use AdmissionResolutionError as E;
            let cases: Vec<(TransportAdmissionConfig, Result<TransportAdmission, E<EntropyUnavailable>>)> = vec![
                (config(None, None, None), Ok(token_admission(SEQUENTIAL_TOKEN))),
                (config(Some(""), None, None), Ok(token_admission(SEQUENTIAL_TOKEN))),
                (config(Some("secret-1"), None, None), Ok(token_admission("secret-1"))),
                (config(Some("secret-1"), Some(false), None), Ok(token_admission("secret-1"))),
                (config(Some(" padded "), None, None), Ok(token_admission(" padded "))),
                (config(Some("secret-1"), Some(true), Some("x")), Err(E::TokenAndOpen)),
                (config(Some("   "), Some(true), Some("x")), Err(E::TokenAndOpen)),
                (config(Some(""), Some(true), Some("why")), Ok(open_admission("why"))),
                (config(None, Some(true), None), Err(E::MissingOpenReason)),
                (config(None, Some(true), Some("")), Err(E::MissingOpenReason)),
                (config(None, Some(true), Some(" \t\n ")), Err(E::MissingOpenReason)),
                (config(None, Some(true), Some("tests only")), Ok(open_admission("tests only"))),
                (config(None, Some(true), Some("  tests only  ")), Ok(open_admission("tests only"))),
                (config(None, Some(false), Some("ignored")), Ok(token_admission(SEQUENTIAL_TOKEN))),
                (config(None, None, Some("not asked to open")), Ok(token_admission(SEQUENTIAL_TOKEN))),
            ];
            for (request, expected) in cases {
                let shown = format!("{request:?}");
                assert_eq!(resolve_admission(request, &mut ScriptedRng::sequential()), expected, "{shown}");
            }
        }

        fn a_stated_admission_resolves_without_an_rng_by_the_same_rules() {
            use AdmissionResolutionError as E;
            let cases: Vec<(TransportAdmissionConfig, Result<TransportAdmission, E<NoEntropySource>>)> = vec![
                (config(Some("secret-1"), None, None), Ok(token_admission("secret-1"))),
                (config(None, Some(true), Some("tests only")), Ok(open_admission("tests only"))),
                (config(Some("secret-1"), Some(true), Some("x")), Err(E::TokenAndOpen)),
                (config(Some("   "), None, None), Err(E::BlankToken)),
                (config(None, Some(true), None), Err(E::MissingOpenReason)),
                (config(None, None, None), Err(E::Entropy(NoEntropySource))),
                (config(Some(""), None, None), Err(E::Entropy(NoEntropySource))),
            ];
            for (request, expected) in cases {
                let shown = format!("{request:?}");
                let with_rng = resolve_admission(request.clone(), &mut ScriptedRng::sequential());
                let stated = resolve_stated_admission(request);
                assert_eq!(stated, expected, "{shown}");
                // Where no minting is involved, both entry points agree exactly.
                if let Ok(admission) = &stated {
                    assert_eq!(with_rng.as_ref(), Ok(admission), "{shown}");
                }
            }
            let refusal = resolve_stated_admission(config(None, None, None)).unwrap_err();
            assert!(format!("{refusal}").contains("no entropy source"), "{refusal}");
        }

        fn a_whitespace_token_is_refused_not_used() {
            // Departure 13: the reference accepts `'   '` as a credential; the crate refuses it.
            for blank in ["   ", "\t", " \n "] {
                let mut rng = ScriptedRng::sequential();
                let refused = resolve_admission(config(Some(blank), None, None), &mut rng);
                assert_eq!(refused, Err(AdmissionResolutionError::BlankToken), "{blank:?}");
                assert_eq!(rng.fills, 0, "a refused token never mints");
            }
        }

        fn resolution_is_idempotent_and_accepts_a_resolved_admission() {
            let requests = [
                config(None, None, None),
                config(Some("t"), None, None),
                config(None, Some(true), Some(" why ")),
                config(Some(""), Some(true), Some("why")),
            ];
            for request in requests {
                let once = resolve_admission(request, &mut ScriptedRng::sequential()).expect("resolves");
                let mut unused = ScriptedRng::failing();
                let twice = resolve_admission(once.clone(), &mut unused).expect("resolves again");
                assert_eq!(twice, once);
                assert_eq!(unused.fills, 0, "resolving a resolved admission never mints");
            }
        }

        fn entropy_is_touched_only_to_mint_and_its_failure_is_an_error() {
            for request in [config(Some("x"), None, None), config(None, Some(true), Some("r"))] {
                let mut rng = ScriptedRng::failing();
                assert!(resolve_admission(request, &mut rng).is_ok());
                assert_eq!(rng.fills, 0);
            }
            // A failing RNG (or one short of 32 bytes) is an error, never an open admission.
            for bytes in [&[][..], &[0xab; 31][..]] {
                let mut rng = ScriptedRng::with(bytes);
                let refused = resolve_admission(TransportAdmissionConfig::default(), &mut rng);
                assert_eq!(refused, Err(AdmissionResolutionError::Entropy(EntropyUnavailable)));
                assert_eq!(mint_transport_token(&mut ScriptedRng::with(bytes)).map(|_| ()), Err(EntropyUnavailable));
            }
            let error: AdmissionResolutionError<EntropyUnavailable> = AdmissionResolutionError::Entropy(EntropyUnavailable);
            let source = core::error::Error::source(&error).map(|source| format!("{source}"));
            assert_eq!(source.as_deref(), Some("entropy unavailable"));
            assert!(core::error::Error::source(&AdmissionResolutionError::<EntropyUnavailable>::BlankToken).is_none());
        }

        fn minted_tokens_are_64_lower_case_hex_characters() {
            let mut rng = ScriptedRng::with(&[0xff; 64]);
            let first = mint_transport_token(&mut rng).expect("mints");
            assert_eq!(first.expose(), "f".repeat(64));
            assert_eq!(rng.fills, 1);
            let sequential = mint_transport_token(&mut ScriptedRng::sequential()).expect("mints");
            assert_eq!(sequential.expose(), SEQUENTIAL_TOKEN);
            let bytes: Vec<u8> = (0..32).map(|i| 0xa0 + i).collect();
            let other = mint_transport_token(&mut ScriptedRng::with(&bytes)).expect("mints");
            assert_eq!(other.expose().len(), 64);
            assert!(other.expose().bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
            assert_ne!(other, sequential);
        }

        fn resolved_admission_goldens() {
            let golden = gold!(BTreeMap<String, TransportAdmission>, "resolved_admissions");
            let resolved = [
                ("minted", resolve_admission(config(None, None, None), &mut ScriptedRng::sequential())),
                ("minted-ff", resolve_admission(config(Some(""), None, None), &mut ScriptedRng::with(&[0xff; 32]))),
                ("given", resolve_admission(config(Some(" given as is "), None, None), &mut ScriptedRng::failing())),
                ("open", resolve_admission(config(None, Some(true), Some("\tloopback only\n")), &mut ScriptedRng::failing())),
            ];
            assert_eq!(golden.len(), resolved.len());
            for (name, admission) in resolved {
                assert_eq!(admission.as_ref().ok(), golden.get(name), "{name}");
            }
        }

        fn credentials_compare_exactly() {
            for (expected, presented, matches) in [
                ("abc", Some("abc"), true),
                ("abc", Some("abd"), false),
                ("abc", Some("ab"), false),
                ("abc", Some("abcd"), false),
                ("abc", None, false),
                ("", Some(""), true),
                ("ABC", Some("abc"), false),
                ("é", Some("é"), true),
                ("é", Some("ab"), false),
                ("é", Some("e\u{301}"), false),
            ] {
                assert_eq!(credential_matches(expected, presented), matches, "{expected:?} vs {presented:?}");
            }
            let admission = token_admission("secret-1");
            assert!(admission_admits(&admission, Some("secret-1")));
            assert!(!admission_admits(&admission, Some("secret-2")));
            assert!(!admission_admits(&admission, None));
            assert!(admission_admits(&open_admission("tests"), None));
        }

        fn bearer_headers_are_parsed_as_the_reference_does() {
            for (header, credential) in [
                ("Bearer abc", Some("abc")),
                ("bearer abc", Some("abc")),
                ("BEARER abc", Some("abc")),
                ("Bearer  abc", Some("abc")),
                ("Bearer\tabc", Some("abc")),
                ("Bearer \t abc", Some("abc")),
                ("Bearer abc ", Some("abc ")),
                ("Bearer a b", Some("a b")),
                ("Bearer AbC", Some("AbC")),
                ("Bearer", None),
                ("Bearer ", None),
                ("Bearer   ", None),
                ("Bearerness xyz", None),
                ("Basic abc", None),
                (" Bearer abc", None),
                ("", None),
                ("Bearer\nabc", None),
                ("Beaé abc", None),
            ] {
                assert_eq!(bearer_credential(header), credential, "{header:?}");
            }
        }

        fn resolution_errors_say_why_and_hold_no_token() {
            type E = AdmissionResolutionError<EntropyUnavailable>;
            let contradictory = resolve_admission(config(Some("SECRET-CLAIMS-4711"), Some(true), Some("x")), &mut ScriptedRng::sequential());
            assert_eq!(contradictory, Err(E::TokenAndOpen));
            let texts = [E::TokenAndOpen, E::BlankToken, E::MissingOpenReason, E::Entropy(EntropyUnavailable)]
                .iter()
                .flat_map(|error| [format!("{error}"), format!("{error:?}")])
                .collect::<Vec<_>>();
            assert!(texts[0].contains("contradictory"), "{}", texts[0]);
            assert!(texts[2].contains("whitespace"), "{}", texts[2]);
            assert!(texts[4].contains("requires `openReason`"), "{}", texts[4]);
            assert!(texts[6].ends_with("could not mint a credential: entropy unavailable"), "{}", texts[6]);
            let request = config(Some("SECRET-CLAIMS-4711"), Some(true), Some("x"));
            let minted = mint_transport_token(&mut ScriptedRng::sequential()).expect("mints");
            let mut all = texts;
            all.extend([format!("{request:?}"), format!("{minted:?}"), format!("{:?}", token_admission("SIG-4711"))]);
            assert_hidden(&all);
            assert!(!all.iter().any(|text| text.contains(SEQUENTIAL_TOKEN)));
        }
    }

    mod access_token {
        fn claims_goldens_and_refused_claim_sets() {
            let full = claims();
            assert_eq!(full.exp, 1_800_000_600);
            assert_eq!(full.nbf, Some(1_800_000_000));
            assert!(full.aud.names("https://api.example") && full.aud.names("https://other.example"));
            let minimal = gold!(AccessTokenClaims, "claims_minimal");
            assert_eq!(minimal.aud, AccessTokenAudience::One(s("https://api.example")));
            assert_eq!((minimal.sub, minimal.client_id, minimal.scope, minimal.jti, minimal.nbf), (None, None, None, None, None));
            // Required claims, and NumericDate seconds as unsigned integers.
            let aud = r#""aud":"https://api.example""#;
            rejects::<AccessTokenClaims>(&format!(r#"{{{aud},"exp":1}}"#), "missing field `iss`");
            rejects::<AccessTokenClaims>(r#"{"iss":"i","exp":1}"#, "missing field `aud`");
            rejects::<AccessTokenClaims>(&format!(r#"{{"iss":"i",{aud}}}"#), "missing field `exp`");
            rejects::<AccessTokenClaims>(r#"{"iss":"i","aud":7,"exp":1}"#, "did not match any variant");
            rejects::<AccessTokenClaims>(&format!(r#"{{"iss":"i",{aud},"exp":-1}}"#), "invalid value");
            rejects::<AccessTokenClaims>(&format!(r#"{{"iss":"i",{aud},"exp":1.5}}"#), "invalid type");
            assert_hidden(&[format!("{full:?}"), format!("{:?}", full.aud)]);
        }

        fn the_rules_check_each_claim_in_order() {
            let rules = rules();
            let check = |edit: fn(&mut AccessTokenClaims), now| {
                let mut claims = claims();
                edit(&mut claims);
                rules.check(&claims, now)
            };
            use AccessTokenRefusal as R;
            assert_eq!(check(|_| {}, NOW), Ok(()));
            assert_eq!(check(|c| c.iss = s("https://issuer.example/"), NOW), Err(R::WrongIssuer));
            assert_eq!(check(|c| c.iss = s("HTTPS://issuer.example"), NOW), Err(R::WrongIssuer));
            assert_eq!(check(|c| c.aud = AccessTokenAudience::One(s("https://other.example")), NOW), Err(R::WrongAudience));
            assert_eq!(check(|c| c.aud = AccessTokenAudience::Many(vec![]), NOW), Err(R::WrongAudience));
            assert_eq!(check(|c| c.aud = AccessTokenAudience::Many(vec![s("https://api.example/x")]), NOW), Err(R::WrongAudience));
            // Expiry and not-before with the skew, at the exact boundaries.
            assert_eq!(check(|_| {}, EXP_MS + SKEW - 1), Ok(()));
            assert_eq!(check(|_| {}, EXP_MS + SKEW), Err(R::Expired));
            assert_eq!(check(|_| {}, NBF_MS - SKEW), Ok(()));
            assert_eq!(check(|_| {}, NBF_MS - SKEW - 1), Err(R::NotYetValid));
            assert_eq!(check(|c| c.nbf = None, 0), Ok(()));
            assert_eq!(check(|c| c.exp = u64::MAX, u64::MAX - 1), Ok(()));
            // Scopes: space-separated, exact.
            assert_eq!(check(|c| c.scope = None, NOW), Err(R::MissingScope));
            assert_eq!(check(|c| c.scope = Some(s("agent:writer agent:read")), NOW), Err(R::MissingScope));
            assert_eq!(check(|c| c.scope = Some(s("agent:write")), NOW), Ok(()));
            // The principal: subject or client allow-listed.
            assert_eq!(check(|c| c.client_id = None, NOW), Ok(()));
            assert_eq!(check(|c| c.sub = None, NOW), Ok(()));
            assert_eq!(check(|c| { c.sub = None; c.client_id = None; }, NOW), Err(R::PrincipalNotAllowed));
            assert_eq!(check(|c| { c.sub = Some(s("client-4711")); c.client_id = Some(s("subject-4711")); }, NOW), Err(R::PrincipalNotAllowed));
            // The first failing rule is the one reported.
            assert_eq!(check(|c| { c.iss = s("https://evil.example"); c.sub = None; c.client_id = None; }, EXP_MS + SKEW), Err(R::WrongIssuer));
            assert_eq!(check(|c| c.scope = None, EXP_MS + SKEW), Err(R::Expired));
            assert!(rules.is_expired(1, 1000 + SKEW) && !rules.is_expired(1, 999 + SKEW));
            assert_eq!((rules.skew_ms(), rules.config()), (SKEW, &verifier_config()));
        }

        fn host_refusals_map_to_the_same_refusal() {
            literal_round_trip!(AccessTokenSignatureRefusal);
            assert_eq!(AccessTokenSignatureRefusal::ALL.len(), 8);
            for refusal in AccessTokenSignatureRefusal::ALL {
                let signatures = Signatures::new(vec![(TOKEN, Err(*refusal))]);
                let verifier = SignedAccessTokenVerifier::new(rules(), signatures);
                let expected = AccessTokenRefusal::from_literal(refusal.as_str()).expect("a token refusal");
                assert_eq!(AccessTokenRefusal::from(*refusal), expected);
                assert_eq!(block_on(verifier.verify(TOKEN, NOW)), AccessTokenAdmission::Refused(expected));
            }
        }

        fn an_oversize_token_never_reaches_the_host() {
            let signatures = Signatures::new(vec![]);
            let rules = rules();
            let long = "a".repeat(MAX_ACCESS_TOKEN_BYTES + 1);
            assert_eq!(block_on(rules.verify(&signatures, &long, NOW)).map(|_| ()), Err(AccessTokenRefusal::Oversize));
            assert_eq!(signatures.calls.get(), 0);
            let bound = "a".repeat(MAX_ACCESS_TOKEN_BYTES);
            assert_eq!(block_on(rules.verify(&signatures, &bound, NOW)).map(|_| ()), Err(AccessTokenRefusal::BadSignature));
            assert_eq!(signatures.calls.get(), 1);
        }

        fn the_verifier_port_judges_at_the_time_passed_in() {
            let signatures = Signatures::new(vec![(TOKEN, Ok(claims()))]);
            let verifier = SignedAccessTokenVerifier::new(rules(), signatures);
            assert_eq!(block_on(verifier.verify(TOKEN, NOW)), AccessTokenAdmission::Admitted);
            assert_eq!(block_on(verifier.verify(TOKEN, EXP_MS + SKEW)), AccessTokenAdmission::Refused(AccessTokenRefusal::Expired));
            assert_eq!(block_on(verifier.verify(TOKEN, NOW)), AccessTokenAdmission::Admitted);
            assert_eq!(block_on(verifier.verify("unknown", NOW)), AccessTokenAdmission::Refused(AccessTokenRefusal::BadSignature));
            assert_eq!(verifier.rules(), &rules());
            let admitted = block_on(rules().verify(&Signatures::new(vec![(TOKEN, Ok(claims()))]), TOKEN, NOW));
            assert_eq!(admitted.map(|claims| claims.jti), Ok(Some(s("jti-4711"))));
        }

        fn the_host_is_asked_for_the_configured_algorithms_only() {
            let signatures = Signatures::new(vec![(TOKEN, Ok(claims()))]);
            let verifier = SignedAccessTokenVerifier::new(rules(), signatures);
            assert_eq!(block_on(verifier.verify(TOKEN, NOW)), AccessTokenAdmission::Admitted);
            let asked = verifier_config();
            let rules = verifier.rules();
            assert_eq!(rules.config().algorithms(), asked.algorithms());
            let signatures = Signatures::new(vec![]);
            let _ = block_on(rules.verify(&signatures, TOKEN, NOW));
            assert_eq!(*signatures.algorithms.borrow(), [AccessTokenAlgorithm::Es256, AccessTokenAlgorithm::EdDsa]);
        }

        fn access_token_verdict_goldens() {
            let golden = gold!(BTreeMap<String, AccessTokenAdmission>, "access_token_verdicts");
            let mut scenarios = access_token_scenarios();
            scenarios.push(("oversize", Ok(claims()), NOW));
            assert_eq!(golden.len(), scenarios.len());
            for (name, host, now) in scenarios {
                let token = if name == "oversize" { "x".repeat(MAX_ACCESS_TOKEN_BYTES + 1) } else { s(TOKEN) };
                let verifier = SignedAccessTokenVerifier::new(rules(), Signatures::new(vec![(&token, host)]));
                assert_eq!(Some(&block_on(verifier.verify(&token, now))), golden.get(name), "{name}");
            }
        }

        fn no_verdict_refusal_or_config_shows_a_token_or_claim() {
            let mut texts = Vec::new();
            for (_, host, now) in access_token_scenarios() {
                let verifier = SignedAccessTokenVerifier::new(rules(), Signatures::new(vec![(TOKEN, host.clone())]));
                let verdict = block_on(verifier.verify(TOKEN, now));
                texts.extend([format!("{verdict}"), format!("{verdict:?}"), format!("{}", to_json(&verdict)), format!("{verifier:?}")]);
                if let Err(refusal) = &host {
                    texts.extend([format!("{refusal}"), format!("{refusal:?}")]);
                }
                if let Ok(claims) = &host {
                    texts.extend([format!("{claims:?}"), format!("{:?}", claims.aud)]);
                }
            }
            let rules = rules();
            texts.extend([format!("{rules:?}"), format!("{:?}", rules.config())]);
            assert_hidden(&texts);
            assert!(texts.iter().all(|text| !text.contains(TOKEN)));
        }
    }

    mod external_event {
        fn the_gate_admits_only_its_principal_and_attributes_the_grant() {
            let gate = gate::<4>();
            let granted = block_on(gate.admit(&delivery(Some(TOKEN)), NOW)).expect("admitted");
            assert_eq!(granted.grant_id.as_str(), "ops_bot-1");
            assert_eq!(granted.event.content, "content-4711");
            assert_eq!(granted.event.claimed_name.as_deref(), Some("Claimed Name 4711"));
            assert_eq!(gate.spent_tokens(), 1);
            // The token names another client: the grant pins exactly one principal.
            assert_eq!(
                block_on(gate.admit(&delivery(Some("tok-other")), NOW)),
                Err(ExternalEventRefusal::Token(AccessTokenRefusal::PrincipalNotAllowed))
            );
            assert_eq!(
                block_on(gate.admit(&delivery(Some("tok-unknown")), NOW)),
                Err(ExternalEventRefusal::Token(AccessTokenRefusal::BadSignature))
            );
            assert_eq!(gate.spent_tokens(), 1);
            assert_eq!(gate.grant(), &grant());
        }

        fn a_delivery_without_a_token_is_missing_token() {
            let gate = gate::<4>();
            for token in [None, Some("")] {
                assert_eq!(block_on(gate.admit(&delivery(token), NOW)), Err(ExternalEventRefusal::MissingToken));
            }
            assert_eq!(gate.spent_tokens(), 0);
            // Refused before the host's signature check is asked anything.
            let signatures = event_signatures();
            let shared = ExternalEventGate::<_, 4>::new(grant(), SKEW, &signatures);
            let _ = block_on(shared.admit(&delivery(None), NOW));
            assert_eq!(signatures.calls.get(), 0);
            assert!(block_on(shared.admit(&delivery(Some(TOKEN)), NOW)).is_ok());
            assert_eq!(signatures.calls.get(), 1);
        }

        fn a_spent_or_jti_less_token_is_malformed() {
            let gate = gate::<4>();
            let malformed = Err(ExternalEventRefusal::Token(AccessTokenRefusal::Malformed));
            assert!(block_on(gate.admit(&delivery(Some(TOKEN)), NOW)).is_ok());
            assert_eq!(block_on(gate.admit(&delivery(Some(TOKEN)), NOW + 1)), malformed);
            assert_eq!(block_on(gate.admit(&delivery(Some("tok-no-jti")), NOW)), malformed);
            assert_eq!(gate.spent_tokens(), 1);
        }

        fn a_malformed_event_is_refused_without_spending_the_token() {
            let gate = gate::<4>();
            for event in [r#"{"kind":"note"}"#, r#"{"kind":"message","content":"x"}"#, "null"] {
                let bad = ExternalEventDelivery { token: Some(s(TOKEN)), event: serde_json::from_str(event).expect("JSON") };
                assert_eq!(block_on(gate.admit(&bad, NOW)), Err(ExternalEventRefusal::MalformedEvent), "{event}");
            }
            assert_eq!(gate.spent_tokens(), 0);
            assert!(block_on(gate.admit(&delivery(Some(TOKEN)), NOW)).is_ok());
        }

        fn replay_memory_is_bounded_and_fails_closed() {
            let gate = gate::<2>();
            assert!(block_on(gate.admit(&delivery(Some("tok-a")), NOW)).is_ok());
            assert!(block_on(gate.admit(&delivery(Some("tok-b")), NOW)).is_ok());
            // Two live tokens remembered: a third is refused rather than one being forgotten.
            assert_eq!(block_on(gate.admit(&delivery(Some("tok-c")), NOW)), Err(ExternalEventRefusal::RateLimited));
            assert_eq!(gate.spent_tokens(), 2);
            // Once `tok-a` and `tok-b` have expired they are forgotten, and they stay refused.
            let later = EXP_MS + SKEW;
            assert!(block_on(gate.admit(&delivery(Some("tok-c")), later)).is_ok());
            assert_eq!(gate.spent_tokens(), 1);
            assert_eq!(
                block_on(gate.admit(&delivery(Some("tok-a")), later)),
                Err(ExternalEventRefusal::Token(AccessTokenRefusal::Expired))
            );
        }

        fn time_never_runs_backwards_for_the_gate() {
            let gate = gate::<4>();
            assert!(block_on(gate.admit(&delivery(Some("tok-a")), NOW)).is_ok());
            assert!(block_on(gate.admit(&delivery(Some("tok-c")), EXP_MS + SKEW)).is_ok());
            assert_eq!(gate.spent_tokens(), 1, "tok-a is forgotten once expired");
            // An earlier `now` would make tok-a valid again; the gate keeps the latest time.
            assert_eq!(
                block_on(gate.admit(&delivery(Some("tok-a")), NOW)),
                Err(ExternalEventRefusal::Token(AccessTokenRefusal::Expired))
            );
        }

        fn external_event_verdict_goldens() {
            let golden = gold!(BTreeMap<String, ExternalEventAdmission>, "external_event_verdicts");
            let full = gate::<1>();
            assert!(block_on(full.admit(&delivery(Some("tok-a")), NOW)).is_ok());
            let spent = gate::<4>();
            assert!(block_on(spent.admit(&delivery(Some(TOKEN)), NOW)).is_ok());
            let fresh = || gate::<4>();
            let not_a_message = ExternalEventDelivery { token: Some(s(TOKEN)), event: Value::Null };
            let decisions = [
                ("admitted", block_on(fresh().admit(&delivery(Some(TOKEN)), NOW))),
                ("missing-token", block_on(fresh().admit(&delivery(None), NOW))),
                ("empty-token", block_on(fresh().admit(&delivery(Some("")), NOW))),
                ("other-principal", block_on(fresh().admit(&delivery(Some("tok-other")), NOW))),
                ("replayed", block_on(spent.admit(&delivery(Some(TOKEN)), NOW))),
                ("without-jti", block_on(fresh().admit(&delivery(Some("tok-no-jti")), NOW))),
                ("bad-signature", block_on(fresh().admit(&delivery(Some("forged")), NOW))),
                ("expired", block_on(fresh().admit(&delivery(Some(TOKEN)), EXP_MS + SKEW))),
                ("malformed-event", block_on(fresh().admit(&not_a_message, NOW))),
                ("memory-full", block_on(full.admit(&delivery(Some("tok-b")), NOW))),
            ];
            assert_eq!(golden.len(), decisions.len());
            for (name, decision) in &decisions {
                assert_eq!(Some(&answer(decision)), golden.get(*name), "{name}");
            }
        }

        fn refusals_and_gate_output_show_no_token_content_or_principal() {
            let gate = gate::<1>();
            let mut texts = Vec::new();
            for token in [Some(TOKEN), Some(TOKEN), Some("tok-other"), Some("tok-no-jti"), None] {
                let delivery = delivery(token);
                let decision = block_on(gate.admit(&delivery, NOW));
                texts.extend([format!("{decision:?}"), format!("{}", to_json(&answer(&decision))), format!("{delivery:?}")]);
                if let Err(refusal) = decision {
                    texts.extend([format!("{refusal}"), format!("{refusal:?}")]);
                }
            }
            texts.extend([format!("{gate:?}"), format!("{:?}", grant())]);
            assert_hidden(&texts);
            assert!(texts.iter().all(|text| !text.contains(TOKEN)));
            assert!(texts.iter().any(|text| text.contains("ops_bot-1")), "the attribution is shown");
        }
    }

    mod upgrade {
        fn the_token_is_read_from_the_query_then_the_subprotocol_as_the_peer_reads_it() {
            let read = |target: &str, protocols: Option<&str>| {
                let request = UpgradeRequest::new(target);
                let request = match protocols {
                    Some(protocols) => request.subprotocols(protocols),
                    None => request,
                };
                request.presented_token().map(|token| String::from(&*token))
            };
            assert_eq!(read("/ws?token=abc", None).as_deref(), Some("abc"));
            assert_eq!(read("/ws?x=1&token=abc&token=def", None).as_deref(), Some("abc"), "the first one");
            assert_eq!(read("/ws?token=a%2Bb+c%zz%4", None).as_deref(), Some("a+b c%zz%4"), "form decoding, bad escapes kept");
            assert_eq!(read("/ws?%74oken=abc", None).as_deref(), Some("abc"), "the name is decoded too");
            assert_eq!(read("/ws?token=%FF", None).as_deref(), Some("\u{FFFD}"), "bytes that are not UTF-8");
            assert_eq!(read("/ws?token=abc#frag", None).as_deref(), Some("abc"));
            assert_eq!(read("/ws#?token=abc", None), None, "a fragment is not a query");
            assert_eq!(read("/ws?tokenx=abc", None), None);
            assert_eq!(read("/ws?token", None), None);
            assert_eq!(read("/ws", Some(" tok-1 , agent")).as_deref(), Some("tok-1"));
            assert_eq!(read("/ws?token=", Some("tok-1")).as_deref(), Some("tok-1"), "an empty query token falls through");
            assert_eq!(read("/ws?token=q", Some("tok-1")).as_deref(), Some("q"), "the query wins");
            assert_eq!(read("/ws", Some(" , agent")), None, "an empty first protocol");
            assert_eq!(read("/ws", None), None);
            assert_eq!(query_token("/ws?a=1"), None);
            assert_eq!(query_token(""), None, "an empty request-target");
            assert_eq!(query_token("?token=abc").as_deref(), Some("abc"), "a target that is only a query");
            assert_eq!(query_token("/ws?&&token=abc&").as_deref(), Some("abc"), "empty pairs are skipped");
            assert_eq!(query_token("/ws?token=%").as_deref(), Some("%"), "a lone percent sign");
            assert_eq!(subprotocol_token(""), None);
            assert_eq!(subprotocol_token(",,,"), None, "only commas");
            assert_eq!(subprotocol_token(" \t , tok"), None, "blank first protocol");
            assert_eq!(read("", Some(",,")), None, "empty target, only commas");
            // `Authorization: Bearer` is not where the peer looks, and not read here either.
            assert_eq!(bearer_credential("Bearer tok-1"), Some("tok-1"));
        }

        fn host_and_origin_are_checked_before_the_token_with_the_peer_statuses() {
            let admission = token_admission("tok-1");
            let allow = UpgradeAllowList::loopback();
            let ok = UpgradeRequest::new("/ws?token=tok-1").host("127.0.0.1:7070");
            assert!(admit_upgrade(&admission, &ok, &allow).is_ok());
            let refused = |request: UpgradeRequest<'_>| admit_upgrade(&admission, &request, &allow).unwrap_err();
            let host = refused(UpgradeRequest::new("/ws?token=tok-1").host("evil.example:7070"));
            assert_eq!((host, host.status(), format!("{host}")), (UpgradeRefusal::ForbiddenHost, 403, s("Forbidden host")));
            assert_eq!(refused(UpgradeRequest::new("/ws?token=tok-1")), UpgradeRefusal::ForbiddenHost, "no Host");
            assert_eq!(refused(UpgradeRequest::new("/ws?token=tok-1").host("[::1")), UpgradeRefusal::ForbiddenHost);
            assert_eq!(refused(UpgradeRequest::new("/ws?token=tok-1").host("")), UpgradeRefusal::ForbiddenHost, "an empty Host");
            assert_eq!(refused(UpgradeRequest::new("/ws?token=tok-1").host(":7070")), UpgradeRefusal::ForbiddenHost, "a port alone");
            assert_eq!(refused(UpgradeRequest::new("").host("localhost")), UpgradeRefusal::Unauthorized, "an empty target has no token");
            let origin = refused(ok.origin("https://evil.example"));
            assert_eq!((origin, origin.status(), format!("{origin}")), (UpgradeRefusal::ForbiddenOrigin, 403, s("Forbidden origin")));
            for bad in ["null", "", "localhost", "://localhost", "1http://localhost"] {
                assert_eq!(refused(ok.origin(bad)), UpgradeRefusal::ForbiddenOrigin, "{bad:?}");
            }
            let unauthorized = refused(UpgradeRequest::new("/ws?token=tok-2").host("localhost"));
            assert_eq!((unauthorized, unauthorized.status(), format!("{unauthorized}")), (UpgradeRefusal::Unauthorized, 401, s("Unauthorized")));
            assert_eq!(refused(UpgradeRequest::new("/ws").host("localhost")), UpgradeRefusal::Unauthorized, "no token");
            // The host is checked first, even with a wrong token and a wrong origin.
            assert_eq!(refused(UpgradeRequest::new("/ws").host("evil").origin("null")), UpgradeRefusal::ForbiddenHost);
            for host in ["localhost", "LOCALHOST:1", "127.0.0.1", "[::1]:7070", "[::1]"] {
                assert!(admit_upgrade(&admission, &ok.host(host), &allow).is_ok(), "{host}");
            }
            for origin in ["http://localhost:5173", "https://127.0.0.1", "http://[::1]:80/", "http://user@localhost"] {
                assert!(admit_upgrade(&admission, &ok.origin(origin), &allow).is_ok(), "{origin}");
            }
        }

        fn allow_lists_admit_named_hosts_and_exact_origins_only() {
            let admission = open_admission("tests only");
            let allow = UpgradeAllowList::loopback().hosts(&["agent.example"]).origins(&["https://app.example"]);
            let request = UpgradeRequest::new("/ws").host("Agent.Example:443").origin("https://app.example");
            assert!(admit_upgrade(&admission, &request, &allow).is_ok(), "an open admission needs no token");
            let refused = |request: UpgradeRequest<'_>| admit_upgrade(&admission, &request, &allow).unwrap_err();
            assert_eq!(refused(request.host("agent.example.evil")), UpgradeRefusal::ForbiddenHost);
            assert_eq!(refused(request.origin("https://app.example.evil")), UpgradeRefusal::ForbiddenOrigin);
            assert_eq!(refused(request.origin("https://APP.example")), UpgradeRefusal::ForbiddenOrigin, "origins exactly");
            assert!(admit_upgrade(&admission, &UpgradeRequest::new("/").host("localhost"), &allow).is_ok(), "no Origin: not a browser");
        }

        fn header_bytes_that_are_not_visible_ascii_are_refused_never_read_as_absent() {
            let admission = token_admission("tok-1");
            let allow = UpgradeAllowList::loopback();
            let decide = |headers: &[(&str, &[u8])]| {
                let request = UpgradeRequest::new("/ws?token=tok-1").headers(headers.iter().copied());
                admit_upgrade(&admission, &request, &allow).map(|accepted| accepted.subprotocol().map(String::from))
            };
            let host: (&str, &[u8]) = ("host", b"localhost:7070");
            assert!(decide(&[host]).is_ok());
            // What `to_str().ok()` glue did: the header dropped, so the request was admitted.
            assert!(admit_upgrade(&admission, &UpgradeRequest::new("/ws?token=tok-1").host("localhost"), &allow).is_ok());
            // The TypeScript transport answers 403 to a non-ASCII `Origin`; so does the crate,
            // wherever the bytes that are not ASCII stand, and whatever they decode to.
            let e_acute = "https://\u{e9}vil.example".as_bytes();
            for origin in [e_acute, "http://localhost/\u{e9}".as_bytes(), b"http://localhost\xff", b"http://local\xadhost", b"http://localhost\x7f", b"http://localhost\x00"] {
                assert_eq!(decide(&[host, ("origin", origin)]), Err(UpgradeRefusal::ForbiddenOrigin), "{origin:?}");
                assert_eq!(decide(&[host, ("Origin", origin)]), Err(UpgradeRefusal::ForbiddenOrigin), "any case");
                assert_eq!(decide(&[("host", origin)]), Err(UpgradeRefusal::ForbiddenHost), "{origin:?}");
                let refusal = decide(&[host, ("sec-websocket-protocol", origin)]).unwrap_err();
                assert_eq!((refusal, refusal.status(), format!("{refusal}")), (UpgradeRefusal::InvalidSubprotocols, 400, s("Invalid Sec-WebSocket-Protocol header")));
                // Any other header is not read, whatever its bytes.
                assert!(decide(&[host, ("user-agent", origin)]).is_ok());
            }
            assert!(decide(&[host, ("origin", b"http://localhost:5173")]).is_ok(), "ASCII origins as before");
            assert_eq!(decide(&[host, ("sec-websocket-protocol", b"agent.v1\tx")]), Ok(Some(s("agent.v1\tx"))), "a tab is text");
            // A second line of a header read from one line is refused, not merged or dropped.
            assert_eq!(decide(&[host, host]), Err(UpgradeRefusal::ForbiddenHost), "RFC 9112: one Host");
            let origin: (&str, &[u8]) = ("origin", b"http://localhost");
            assert_eq!(decide(&[host, origin, origin]), Err(UpgradeRefusal::ForbiddenOrigin));
            let offered: (&str, &[u8]) = ("sec-websocket-protocol", b"agent.v1");
            assert_eq!(decide(&[host, offered, offered]), Err(UpgradeRefusal::InvalidSubprotocols));
            // Host, then origin, then the unreadable subprotocols, then the token.
            let bad: &[u8] = b"\xff";
            assert_eq!(decide(&[("host", bad), ("origin", bad), ("sec-websocket-protocol", bad)]), Err(UpgradeRefusal::ForbiddenHost));
            assert_eq!(decide(&[host, ("origin", bad), ("sec-websocket-protocol", bad)]), Err(UpgradeRefusal::ForbiddenOrigin));
            let wrong = UpgradeRequest::new("/ws?token=tok-2").headers([host, ("sec-websocket-protocol", bad)]);
            assert_eq!(admit_upgrade(&admission, &wrong, &allow), Err(UpgradeRefusal::InvalidSubprotocols));
            // No token text in a request's Debug, from the query or the subprotocols.
            let request = UpgradeRequest::new("/ws?token=tok-1#f").host("localhost").subprotocols("tok-1, agent");
            let printed = format!("{request:?}");
            assert!(printed.contains("\"/ws\"") && !printed.contains("tok-1"), "{printed}");
            let repeated = format!("{:?}", UpgradeRequest::new("/?token=tok-1").headers([offered, ("sec-websocket-protocol", b"tok-1")]));
            assert!(!repeated.contains("tok-1"), "{repeated}");
        }

        fn a_client_presents_any_token_so_the_server_reads_that_very_token() {
            // Every ASCII character and a few beyond it, alone, doubled and between letters, and
            // every pair of the characters URLs and headers reserve.
            let mut tokens: Vec<String> = Vec::new();
            for c in (0u8..0x80).map(char::from).chain(['\u{a0}', '\u{ad}', '\u{e9}', '\u{fffd}', '\u{1f600}']) {
                tokens.extend([format!("{c}"), format!("{c}{c}"), format!("a{c}b")]);
            }
            let reserved = " %+&=#?;/,\"'\\:@[]\t";
            for a in reserved.chars() {
                tokens.extend(reserved.chars().map(|b| format!("{a}{b}")));
            }
            tokens.push(s("d7c1e0f4-example-token"));
            let urls = ["ws://127.0.0.1:7070/ws", "/ws", "/ws?", "/ws?v=1", "/ws?v=1&", "/ws#f", "/ws?v=a%26b#f", "/ws#?token=x"];
            let allow = UpgradeAllowList::loopback();
            for token in &tokens {
                for url in urls {
                    let presented = url_with_token(url, token).expect("any token that is not empty");
                    assert_eq!(query_token(&presented).as_deref(), Some(token.as_str()), "{url} {token:?}: {presented}");
                    // Written as `URLSearchParams` writes it: nothing but these bytes is added.
                    let added = presented.strip_prefix(url.split('#').next().unwrap_or(url)).expect("the URL is kept");
                    let added = added.split('#').next().unwrap_or(added);
                    assert!(added.bytes().all(|b| b.is_ascii_alphanumeric() || b"*-._+%=&?".contains(&b)), "{presented}");
                    assert!(presented.ends_with(url.split_once('#').map_or("", |(_, fragment)| fragment)), "the fragment is kept");
                    if url.contains("v=") {
                        assert!(presented.contains("v=") && !presented.contains("&&"), "{presented}");
                    }
                }
                let is_tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
                let offered = token_subprotocols(token, "agent.v1");
                if token.chars().all(is_tchar) {
                    let header = offered.expect("a token that is an HTTP token").join(", ");
                    assert_eq!(subprotocol_token(&header), Some(token.as_str()));
                    if let Ok(admitted) = TransportToken::new(token.as_str()) {
                        let admission = TransportAdmission::Token(admitted);
                        let request = UpgradeRequest::new("/ws").host("localhost").subprotocols(&header);
                        let accepted = admit_upgrade(&admission, &request, &allow).expect("admitted");
                        assert_eq!(accepted.subprotocol(), Some("agent.v1"), "the named protocol is answered, not the token");
                        let target = url_with_token("/ws", token).expect("a token");
                        assert!(admit_upgrade(&admission, &UpgradeRequest::new(&target).host("localhost"), &allow).is_ok());
                    }
                } else {
                    assert_eq!(offered, Err(TokenPresentationError::TokenNotSubprotocol), "{token:?}");
                }
                // What the helper refuses in a subprotocol, written raw, is not read back when it
                // holds a comma or edge whitespace (browsers and `ws` refuse the rest outright).
                let raw = format!("{token}, agent.v1");
                if token.contains(',') || token.trim() != token {
                    assert_ne!(subprotocol_token(&raw), Some(token.as_str()), "{token:?}");
                }
            }
            // An empty token reads as none at the server, so it is never presented.
            assert_eq!(url_with_token("/ws", ""), Err(TokenPresentationError::EmptyToken));
            assert_eq!(token_subprotocols("", "agent.v1"), Err(TokenPresentationError::EmptyToken));
            let admission = token_admission("tok-1");
            assert_eq!(admit_upgrade(&admission, &UpgradeRequest::new("/ws?token=").host("localhost"), &allow), Err(UpgradeRefusal::Unauthorized));
            // A URL that already names a token: the server would read that first one.
            for url in ["/ws?token=", "/ws?token=x", "/ws?v=1&%74oken=x#f", "ws://h/?token"] {
                assert_eq!(url_with_token(url, "tok-1"), Err(TokenPresentationError::UrlHasToken), "{url}");
            }
            assert_eq!(url_with_token("/ws#?token=x", "t").as_deref(), Ok("/ws?token=t#?token=x"), "a fragment is not a query");
            // The named protocol must be a protocol, and not the token.
            for named in ["", "a b", "a,b", "agent/v1", "\u{e9}"] {
                assert_eq!(token_subprotocols("tok-1", named), Err(TokenPresentationError::NamedNotSubprotocol), "{named:?}");
            }
            assert_eq!(token_subprotocols("tok-1", "tok-1"), Err(TokenPresentationError::NamedIsToken));
            let errors = [
                TokenPresentationError::EmptyToken,
                TokenPresentationError::UrlHasToken,
                TokenPresentationError::TokenNotSubprotocol,
                TokenPresentationError::NamedNotSubprotocol,
                TokenPresentationError::NamedIsToken,
            ];
            for error in errors {
                let printed = format!("{error} {error:?}");
                assert!(!printed.contains("tok-1") && !printed.is_empty());
            }
        }

        fn the_token_is_never_echoed_as_the_answered_subprotocol() {
            let admission = token_admission("tok-1");
            let allow = UpgradeAllowList::loopback();
            let answer = |target: &str, protocols: &str| {
                let request = UpgradeRequest::new(target).host("localhost").subprotocols(protocols);
                admit_upgrade(&admission, &request, &allow).map(|accepted| accepted.subprotocol().map(String::from))
            };
            assert_eq!(answer("/ws", "tok-1"), Ok(None));
            assert_eq!(answer("/ws", "tok-1, agent.v1"), Ok(Some(s("agent.v1"))));
            assert_eq!(answer("/ws", "tok-1,,tok-1, agent.v1"), Ok(Some(s("agent.v1"))));
            assert_eq!(answer("/ws?token=tok-1", "agent.v1"), Ok(Some(s("agent.v1"))));
            assert_eq!(answer("/ws?token=tok-1", "tok-1"), Ok(None), "the token is not echoed wherever it came from");
            assert_eq!(answer("/ws", "tok-2, agent.v1"), Err(UpgradeRefusal::Unauthorized));
            assert_eq!(answer("/ws?token=tok-1", ",,,"), Ok(None), "only commas: no subprotocol to answer");
            assert_eq!(answer("/ws", ",,,"), Err(UpgradeRefusal::Unauthorized));
            let refusal = UpgradeRefusal::Unauthorized;
            assert!(!format!("{refusal} {refusal:?}").contains("tok-"));
        }
    }
}

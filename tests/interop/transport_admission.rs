//! `transport-admission.json`: the reference `resolveAdmission`, `mintTransportToken`,
//! `credentialMatches` and `bearerCredential`. Every one of the 62 vectors is checked.
//!
//! How the reference's inputs reach the typed API:
//! - `randomBytes` becomes a test RNG that hands out exactly the stated bytes and fails when
//!   they run short (31 bytes, 0 bytes) or when the reference's source threw; a mint needs 32.
//! - A config with `token: null` is the reference's already-resolved open admission: it is read
//!   as a [`TransportAdmission`] (whose decoder trims the reason and refuses a blank or missing
//!   one, where the reference throws "requires `openReason`"), then resolved again.
//! - `edge-untyped`: `open: "true"` (a string) cannot reach a typed config; its decoder refuses
//!   it. A `null` or `undefined` header is an absent header: no credential.
//!
//! Departure 13 (interop README): the reference accepts a token made only of whitespace as a
//! credential; the crate refuses it with [`AdmissionResolutionError::BlankToken`].

use super::*;

use agent_interface::runtime::transport::admission::{
    AdmissionResolutionError, bearer_credential, credential_matches, mint_transport_token,
    resolve_admission,
};
use agent_interface::transport::admission::{TransportAdmission, TransportAdmissionConfig};

#[path = "../suites/scripted_rng.rs"]
#[allow(dead_code)] // the suite's shorthands; the vectors state their bytes
mod scripted_rng;

use scripted_rng::{EntropyUnavailable, ScriptedRng};

/// From `input.randomBytes`: `{"$bytes_hex": …}` (exactly those bytes) or `{"throws": …}` (none).
fn vector_rng(random: &Value) -> ScriptedRng {
    let hex = random["$bytes_hex"].as_str().unwrap_or("");
    if random.get("$bytes_hex").is_none() {
        assert!(random.get("throws").is_some(), "randomBytes: {random}");
    }
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect();
    ScriptedRng::with(&bytes)
}

type Resolved = Result<TransportAdmission, AdmissionResolutionError<EntropyUnavailable>>;

/// Resolves the vector's config the way the typed API receives it (see the module docs);
/// `None` for an input the types cannot hold (its decoder refused it, asserted here).
fn resolve_input(name: &str, config: &Value, rng: &mut ScriptedRng) -> Option<Resolved> {
    if config.get("$absent").is_some() {
        return Some(resolve_admission(TransportAdmissionConfig::default(), rng));
    }
    if config.get("token").is_some_and(Value::is_null) {
        return match serde_json::from_value::<TransportAdmission>(config.clone()) {
            Ok(admission) => Some(resolve_admission(admission, rng)),
            Err(error) => {
                assert!(
                    format!("{error}").contains("openReason")
                        || format!("{error}").contains("non-blank"),
                    "{name}: {error}"
                );
                None
            }
        };
    }
    match serde_json::from_value::<TransportAdmissionConfig>(config.clone()) {
        Ok(request) => Some(resolve_admission(request, rng)),
        Err(error) => {
            // edge-untyped: `open: "true"` is not a boolean; a typed config cannot hold it.
            assert_eq!(name, "resolveAdmission/open-string-true", "{error}");
            assert!(format!("{error}").contains("invalid type"), "{error}");
            None
        }
    }
}

/// Checks one resolution against the reference's `returns`/`throws`.
fn check_resolution(name: &str, resolved: Option<Resolved>, output: &Value) {
    let Some(resolved) = resolved else {
        // The decoder refused the input: the reference must have thrown, or be edge-untyped.
        if name != "resolveAdmission/open-string-true" {
            let message = output["throws"]["message"].as_str().expect("throws");
            assert!(message.contains("requires `openReason`"), "{name}");
        }
        return;
    };
    match (resolved, output.get("returns"), output.get("throws")) {
        (Ok(admission), Some(expected), None) => {
            assert_same(name, &serde_json::to_value(&admission).unwrap(), expected);
        }
        (Err(error), None, Some(thrown)) => {
            let message = thrown["message"].as_str().expect("message");
            match error {
                AdmissionResolutionError::Entropy(EntropyUnavailable) => assert!(
                    message.contains("could not mint") || message == "entropy unavailable",
                    "{name}: {message}"
                ),
                other => assert_eq!(format!("{other}"), message, "{name}"),
            }
        }
        (Err(AdmissionResolutionError::BlankToken), Some(expected), None) => {
            assert_eq!(
                name, "resolveAdmission/token-whitespace-only",
                "only the whitespace token departs"
            );
            assert_eq!(expected["token"], "   ");
            // Asserted in `admission_vectors` with the departure named.
        }
        (actual, _, _) => panic!("{name}: the crate gives {actual:?}, the reference {output}"),
    }
}

#[test]
fn admission_vectors() {
    let vectors = load("transport-admission.json");
    assert_eq!(vectors.len(), 62);
    let mut checked = 0;
    for vector in &vectors {
        let name = vector["name"].as_str().expect("name");
        let input = &vector["input"];
        let output = &vector["output"];
        let function = name.split('/').next().expect("function");
        match function {
            "resolveAdmission" => {
                let mut rng = vector_rng(&input["randomBytes"]);
                let once = resolve_input(name, &input["config"], &mut rng);
                if name == "resolveAdmission/token-whitespace-only" {
                    assert_eq!(
                        once,
                        Some(Err(AdmissionResolutionError::BlankToken)),
                        "departure 13: a token that is only whitespace is refused, not used \
                         (the reference returns it as the credential)"
                    );
                }
                if name.ends_with("does-not-touch-entropy") {
                    assert_eq!(rng.fills, 0, "{name}");
                }
                if let Some(twice) = output.get("twice") {
                    let admission = once.expect("typed").expect("resolves");
                    assert_same(
                        name,
                        &serde_json::to_value(&admission).unwrap(),
                        &output["once"],
                    );
                    let mut unused = vector_rng(&serde_json::json!({"throws": "unused"}));
                    let again = resolve_admission(admission, &mut unused).expect("resolves again");
                    assert_same(name, &serde_json::to_value(&again).unwrap(), twice);
                    assert_eq!(unused.fills, 0, "{name}: resolving twice never mints");
                } else {
                    check_resolution(name, once, output);
                }
            }
            "mintTransportToken" => {
                let mut rng = vector_rng(&input["randomBytes"]);
                match (mint_transport_token(&mut rng), output.get("returns")) {
                    (Ok(token), Some(expected)) => assert_eq!(token.expose(), expected, "{name}"),
                    (Err(EntropyUnavailable), None) => {
                        assert!(
                            output["throws"]["message"]
                                .as_str()
                                .unwrap()
                                .contains("could not mint")
                        );
                    }
                    (actual, _) => panic!("{name}: {:?}", actual.map(|t| t.expose().to_owned())),
                }
            }
            "credentialMatches" => {
                let expected = input["expected"].as_str().expect("expected");
                let presented = input["presented"].as_str();
                assert!(presented.is_some() || input["presented"].get("$undefined").is_some());
                let matches = output["returns"].as_bool().expect("bool");
                assert_eq!(credential_matches(expected, presented), matches, "{name}");
            }
            "bearerCredential" => {
                // A `null`/`undefined` header (edge-untyped) is an absent header.
                let header = input["header"].as_str();
                let expected = output["returns"].as_str();
                assert_eq!(header.and_then(bearer_credential), expected, "{name}");
            }
            other => panic!("{name}: unknown function {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 62, "every vector is checked");
}

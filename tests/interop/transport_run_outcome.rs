//! `transport-run-outcome.json`: the failed-outcome constructor and the run-outcome validator.
//! The constructor takes an `i64`, so the non-integer inputs of the reference (`1.5`, `NaN`,
//! `±Infinity`, strings, `null`, `true`, `undefined`) cannot reach it; the reference refuses each
//! of them too, which is checked. `-0` reaches it as the integer 0 and gets the same message.
//! Departure 14: the validator does not accept `exitCode: -0` for `succeeded`.

use super::*;

use agent_interface::transport::outcomes::{
    create_transport_failed_outcome, is_transport_run_outcome,
};

/// The integer a typed caller would pass for this input, if any.
fn integer_input(input: &Value) -> Option<i64> {
    match input {
        Value::Number(number) => number.as_i64(),
        Value::Object(map) if map.get("$number").and_then(Value::as_str) == Some("-0") => Some(0),
        _ => None,
    }
}

#[test]
fn run_outcome_vectors() {
    let vectors = load("transport-run-outcome.json");
    let mut checked = 0;
    for vector in &vectors {
        let name = vector["name"].as_str().expect("name");
        let output = &vector["output"];
        if name.starts_with("createTransportFailedOutcome/") {
            let Some(code) = integer_input(&vector["input"]["exitCode"]) else {
                assert!(
                    output.get("throws").is_some(),
                    "{name}: the reference refuses it too"
                );
                checked += 1;
                continue;
            };
            match create_transport_failed_outcome(code) {
                Ok(outcome) => assert_same(name, &to_json_value(&outcome), &output["returns"]),
                Err(refusal) => assert_eq!(
                    Value::String(refusal.to_string()),
                    output["throws"]["message"],
                    "{name}"
                ),
            }
        } else {
            let value = unmark(&vector["input"]["value"]);
            let expected = output["returns"].as_bool().expect("boolean");
            if name == "isTransportRunOutcome/succeeded-minus-0" {
                // `{"$number": "-0"}` is an object after unmarking; the JSON text `-0` is the
                // float -0.0 for serde_json. Either way the crate says no.
                let minus_zero: Value =
                    serde_json::from_str(r#"{"status":"succeeded","exitCode":-0}"#).expect("JSON");
                assert!(expected, "{name}: the reference accepts -0");
                assert!(
                    !is_transport_run_outcome(&minus_zero) && !is_transport_run_outcome(&value),
                    "{name}: departure 14, -0 is not the integer exit code 0"
                );
            } else {
                assert_eq!(is_transport_run_outcome(&value), expected, "{name}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, vectors.len());
}

fn to_json_value<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("serializable")
}

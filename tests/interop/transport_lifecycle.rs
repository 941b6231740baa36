//! `transport-lifecycle-conformance.json`: the reference suite run against fixture adapters,
//! each carrying one defect. The crate's suite (`transport::testing`) runs against the same
//! defects (the adapters of `suites/transport_fixtures.rs`) and must accept and reject alike.
//! Four defects cannot be built in Rust, because the types forbid them; those vectors are
//! checked to be rejections by the reference and listed here.

use super::*;
use crate::support::block_on;

use agent_interface::conformance::StopAtFirst;
use agent_interface::transport::testing::{
    LifecycleCase, run_runner_lifecycle_conformance, run_service_lifecycle_conformance,
};

#[path = "../suites/transport_fixtures.rs"]
#[allow(dead_code)] // the registry suite uses the defects this check has no vector for
mod fixtures;

use fixtures::{Defect, RunnerFixture, ServiceFixture, runner_problem, service_problem};

/// Defects the Rust types make unrepresentable, and why.
const HELD_BY_TYPES: &[(&str, &str)] = &[
    (
        "lifecycle-not-frozen",
        "TransportLifecycle has a private field and no setter",
    ),
    (
        "service-exposes-waitForCompletion",
        "a service type implements no runner trait",
    ),
    (
        "runner-without-waitForCompletion",
        "TransportRunnerAdapter requires wait_for_completion",
    ),
    (
        "runner-fixture-without-completeRunner",
        "RunnerLifecycleFixture requires complete_runner",
    ),
];

#[test]
fn lifecycle_conformance_vectors() {
    let vectors = load("transport-lifecycle-conformance.json");
    let mut checked = 0;
    for vector in &vectors {
        let name = vector["name"].as_str().expect("name");
        let case = name.trim_start_matches("runTransportLifecycleConformance/");
        let output = &vector["output"];
        let rejects = output.get("rejects").is_some();
        let fixture = &vector["input"]["fixture"];
        let runner = fixture["kind"] == "runner";
        if let Some((_, why)) = HELD_BY_TYPES.iter().find(|(held, _)| *held == case) {
            assert!(
                rejects,
                "{name}: the reference rejects what Rust cannot express ({why})"
            );
            checked += 1;
            continue;
        }
        let problem = match case {
            "conforming-service" => block_on(run_service_lifecycle_conformance(
                &mut ServiceFixture,
                &mut StopAtFirst,
            ))
            .err()
            .map(|f| f.case),
            "conforming-runner" => block_on(run_runner_lifecycle_conformance(
                &mut RunnerFixture,
                &mut StopAtFirst,
            ))
            .err()
            .map(|f| f.case),
            // The reference's fixture declares one kind and implements the other; in Rust the
            // suite is run for the declared kind against an adapter of the other.
            "kind-mismatch" => {
                let mut wrong = fixtures::fixture::<true>(Defect::None);
                block_on(run_service_lifecycle_conformance(
                    &mut wrong,
                    &mut StopAtFirst,
                ))
                .err()
                .map(|f| f.case)
            }
            _ => {
                let defect = match case {
                    "start-before-attach-resolves" => Defect::StartWithoutAttachResolves,
                    "start-before-attach-wrong-error" => Defect::StartWithoutAttachWrongError,
                    "second-start-resolves" => Defect::SecondStartResolves,
                    "start-never-settles" => Defect::StartHangs,
                    "runner-completion-not-held-pending" => Defect::CompletionSettlesEarly,
                    "runner-completion-never-settles" => Defect::CompletionNeverSettles,
                    "assertStopped-fails" => Defect::KeepsSessionAfterStop,
                    other => panic!("{name}: no Rust counterpart for the fixture {other}"),
                };
                let found = if runner {
                    runner_problem(defect)
                } else {
                    service_problem(defect)
                };
                found.map(|(case, _)| case)
            }
        };
        assert_eq!(
            problem.is_some(),
            rejects,
            "{name}: the crate's suite must reject exactly what the reference rejects ({problem:?})"
        );
        if let Some(case) = problem {
            let expected = match case {
                LifecycleCase::KindMatches => "expected",
                LifecycleCase::StartBeforeAttach | LifecycleCase::SecondStartWhileActive => "",
                LifecycleCase::CompletionHeldPending => "completion",
                LifecycleCase::StopIsIdempotent
                | LifecycleCase::RestartAfterFreshAttach
                | LifecycleCase::StoppedReleases => "",
            };
            let message = output["rejects"]["message"].as_str().expect("message");
            assert!(message.contains(expected), "{name}: {message} vs {case:?}");
        }
        checked += 1;
    }
    assert_eq!(checked, vectors.len());
}

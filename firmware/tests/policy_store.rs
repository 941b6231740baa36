//! Part `store` of the policy suite (../../tests/suites/policy.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/policy.rs",
    "policy::store",
    store::CASES
);

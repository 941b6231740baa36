//! The `contracts` part of the `analytics` suite (../../tests/suites/analytics.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/analytics.rs",
    "analytics::contracts",
    contracts::CASES
);

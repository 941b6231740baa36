//! The `wire_forms` part of the `analytics` suite (../../tests/suites/analytics.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/analytics.rs",
    "analytics::wire_forms",
    wire_forms::CASES
);

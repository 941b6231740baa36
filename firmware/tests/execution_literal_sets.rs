//! The `literal_sets` part of the `execution` suite (../../tests/suites/execution.rs), run on the
//! Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/execution.rs",
    "execution::literal_sets",
    literal_sets::CASES
);

//! The `task_events` part of the `execution` suite (../../tests/suites/execution.rs), run on the
//! Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/execution.rs",
    "execution::task_events",
    task_events::CASES
);

//! The `task_results_and_state` part of the `execution` suite (../../tests/suites/execution.rs),
//! run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/execution.rs",
    "execution::task_results_and_state",
    task_results_and_state::CASES
);

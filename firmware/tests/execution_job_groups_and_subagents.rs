//! The `job_groups_and_subagents` part of the `execution` suite (../../tests/suites/execution.rs),
//! run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/execution.rs",
    "execution::job_groups_and_subagents",
    job_groups_and_subagents::CASES
);

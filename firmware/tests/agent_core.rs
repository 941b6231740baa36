//! The `agent_core` suite (../../tests/suites/agent_core.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!("../../tests/suites/agent_core.rs", "agent_core", CASES);

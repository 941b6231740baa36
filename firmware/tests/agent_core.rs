//! The `agent_core` suite (../../tests/suites/agent_core.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

extern crate alloc;

#[macro_use]
#[path = "../../tests/suites/support.rs"]
mod support;

#[path = "../../tests/suites/agent_core.rs"]
mod suite;

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run("agent_core", suite::CASES)
}

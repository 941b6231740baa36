//! The `workspace` part of the `execution` suite (../../tests/suites/execution.rs), run on the
//! Cortex-M3.
#![no_std]
#![no_main]

extern crate alloc;

#[macro_use]
#[path = "../../tests/suites/support.rs"]
mod support;

#[path = "../../tests/suites/execution.rs"]
mod suite;

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run("execution::workspace", suite::workspace::CASES)
}

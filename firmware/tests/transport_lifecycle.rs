//! Part `lifecycle` of the transport suite (../../tests/suites/transport.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

extern crate alloc;

#[macro_use]
#[path = "../../tests/suites/support.rs"]
mod support;

#[path = "../../tests/suites/transport.rs"]
mod suite;

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run("transport::lifecycle", suite::lifecycle::CASES)
}

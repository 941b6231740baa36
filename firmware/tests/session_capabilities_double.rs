//! Part `double` of the session capabilities suite (../../tests/suites/session_capabilities.rs),
//! run on the Cortex-M3.
#![no_std]
#![no_main]

extern crate alloc;

#[macro_use]
#[path = "../../tests/suites/support.rs"]
mod support;

#[path = "../../tests/suites/session_capabilities.rs"]
mod suite;

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run("session::capabilities::double", suite::double::CASES)
}

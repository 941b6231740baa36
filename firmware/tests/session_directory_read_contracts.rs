//! Part `read_contracts` of the session directory suite (../../tests/suites/session_directory.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

extern crate alloc;

#[macro_use]
#[path = "../../tests/suites/support.rs"]
mod support;

#[path = "../../tests/suites/session_directory.rs"]
mod suite;

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run(
        "session::directory::read_contracts",
        suite::read_contracts::CASES,
    )
}

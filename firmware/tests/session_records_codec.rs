//! Part `codec` of the session records suite (../../tests/suites/session_records.rs), run on
//! the Cortex-M3.
#![no_std]
#![no_main]

extern crate alloc;

#[macro_use]
#[path = "../../tests/suites/support.rs"]
mod support;

#[path = "../../tests/suites/session_records.rs"]
mod suite;

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run("session::records::codec", suite::codec::CASES)
}

//! Part `model` of the turn queue suite (../../tests/suites/turn_queue.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

extern crate alloc;

#[macro_use]
#[path = "../../tests/suites/support.rs"]
mod support;

#[path = "../../tests/suites/turn_queue.rs"]
mod suite;

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run("turn_queue::model", suite::model::CASES)
}

//! Part `payloads` of the session turns suite (../../tests/suites/session_turns.rs), run on the
//! Cortex-M3. (Part `frame_decoding` has no image: the decoder of every event frame is larger
//! than the board's flash.)
#![no_std]
#![no_main]

extern crate alloc;

#[macro_use]
#[path = "../../tests/suites/support.rs"]
mod support;

#[path = "../../tests/suites/session_turns.rs"]
mod suite;

#[cortex_m_rt::entry]
fn main() -> ! {
    agent_interface_firmware::run("session::turns::payloads", suite::payloads::CASES)
}

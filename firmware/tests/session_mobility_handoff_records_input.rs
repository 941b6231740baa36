//! Part `records_input` of the session-mobility hand-off suite
//! (../../tests/suites/session_mobility_handoff.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/session_mobility_handoff.rs",
    "session_mobility_handoff::records_input",
    records_input::CASES
);

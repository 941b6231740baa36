//! Part `listing` of the session directory suite (../../tests/suites/session_directory.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/session_directory.rs",
    "session::directory::listing",
    listing::CASES
);

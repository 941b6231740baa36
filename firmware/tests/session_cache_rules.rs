//! Part `rules` of the session cache suite (../../tests/suites/session_cache.rs), run on the
//! Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/session_cache.rs",
    "session_cache::rules",
    rules::CASES
);

//! Part `roles` of the session capabilities suite (../../tests/suites/session_capabilities.rs),
//! run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/session_capabilities.rs",
    "session::capabilities::roles",
    roles::CASES
);

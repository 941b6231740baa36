//! Part `handler` of the session protocol suite (../../tests/suites/session_protocol.rs), run on the
//! Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/session_protocol.rs",
    "session_protocol::handler",
    handler::CASES
);

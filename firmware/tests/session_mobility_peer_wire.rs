//! Part `wire` of the session-mobility peer suite (../../tests/suites/session_mobility_peer.rs),
//! run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/session_mobility_peer.rs",
    "session_mobility_peer::wire",
    wire::CASES
);

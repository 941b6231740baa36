//! Part `gaps` of the payload channels suite (../../tests/suites/transport_channels.rs), run on
//! the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/transport_channels.rs",
    "transport_channels::gaps",
    gaps::CASES
);

//! Part `admission` of the transport suite (../../tests/suites/transport.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/transport.rs",
    "transport::admission",
    admission::CASES
);

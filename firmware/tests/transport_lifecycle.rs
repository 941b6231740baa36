//! Part `lifecycle` of the transport suite, run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/transport.rs",
    "transport::lifecycle",
    lifecycle::CASES
);

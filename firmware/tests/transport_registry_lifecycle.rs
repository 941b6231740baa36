//! Part `lifecycle` of the transport registry suite (../../tests/suites/transport_registry.rs), run on
//! the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/transport_registry.rs",
    "transport_registry::lifecycle",
    lifecycle::CASES
);

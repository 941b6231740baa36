//! Part `upgrade` of the transport admission runtime suite
//! (../../tests/suites/transport_admission.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/transport_admission.rs",
    "transport_admission::upgrade",
    upgrade::CASES
);

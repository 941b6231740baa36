//! Part `decoding_properties` of the session records suite (../../tests/suites/session_records.rs),
//! run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/session_records.rs",
    "session::records::decoding_properties",
    decoding_properties::CASES
);

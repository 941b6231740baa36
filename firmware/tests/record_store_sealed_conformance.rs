//! Part `conformance` of the sealed record suite (../../tests/suites/record_store_sealed.rs), run on
//! the large Cortex-M3 board (it carries the session codec, the store and the seal).
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/record_store_sealed.rs",
    "record_store_sealed::conformance",
    conformance::CASES
);

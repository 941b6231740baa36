//! Part `seal` of the sealed record suite (../../tests/suites/record_store_sealed.rs), run on
//! the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/record_store_sealed.rs",
    "record_store_sealed::seal",
    seal::CASES
);

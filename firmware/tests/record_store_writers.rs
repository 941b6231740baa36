//! Part `writers` of the record store suite (../../tests/suites/record_store.rs), run on the
//! large Cortex-M3 board (feature `mps2-an385`: the session codec and a store need more than
//! 256 KiB of flash).
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/record_store.rs",
    "record_store::writers",
    writers::CASES
);

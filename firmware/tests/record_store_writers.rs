//! Part `writers` of the record store suite (../../tests/suites/record_store.rs), run on the
//! LM3S6965: the session codec and a store fit its 256 KiB of flash with this part's cases, which
//! never print a record (see the suite's `brief`).
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/record_store.rs",
    "record_store::writers",
    writers::CASES
);

//! The `listings` part of the `command` suite (../../tests/suites/command.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/command.rs",
    "command::listings",
    listings::CASES
);

//! The `tui` suite (../../tests/suites/tui.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!("../../tests/suites/tui.rs", "tui", CASES);

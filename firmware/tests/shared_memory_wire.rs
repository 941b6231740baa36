//! The shared-memory wire forms (../../tests/suites/shared_memory_wire.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/shared_memory_wire.rs",
    "shared_memory_wire",
    CASES
);

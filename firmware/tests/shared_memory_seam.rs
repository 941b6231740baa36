//! Part `seam` of the shared-memory suite (../../tests/suites/shared_memory.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/shared_memory.rs",
    "shared_memory::seam",
    seam::CASES
);

//! Part `misuse` of the turn queue suite (../../tests/suites/turn_queue.rs), run on the Cortex-M3.
#![no_std]
#![no_main]

agent_interface_firmware::image!(
    "../../tests/suites/turn_queue.rs",
    "turn_queue::misuse",
    misuse::CASES
);

//! The Cortex-M image of the `turn_queue` consumer (see the library).
#![no_std]
#![no_main]

size_support::thumb_main!(size_turn_queue::run);

//! The Cortex-M image of the `admission` consumer (see the library).
#![no_std]
#![no_main]

size_support::thumb_main!(size_admission::run);

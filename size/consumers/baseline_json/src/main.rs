//! The Cortex-M image of the `baseline_json` consumer (see the library).
#![no_std]
#![no_main]

size_support::thumb_main!(size_baseline_json::run);

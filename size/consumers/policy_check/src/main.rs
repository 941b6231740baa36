//! The Cortex-M image of the `policy_check` consumer (see the library).
#![no_std]
#![no_main]

size_support::thumb_main!(size_policy_check::run);

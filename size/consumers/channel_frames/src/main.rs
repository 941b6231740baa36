//! The Cortex-M image of the `channel_frames` consumer (see the library).
#![no_std]
#![no_main]

size_support::thumb_main!(size_channel_frames::run);

//! The Cortex-M image of the `record_codec` consumer (see the library).
#![no_std]
#![no_main]

size_support::thumb_main!(size_record_codec::run);

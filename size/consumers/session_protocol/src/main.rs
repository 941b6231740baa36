//! The Cortex-M image of the `resume_buffer` consumer (see the library).
#![no_std]
#![no_main]

size_support::thumb_main!(size_session_protocol::run);

//! Public-API tests of the payload channels (`runtime::transport`: frame codec, reassembler,
//! registry) and the channel frame contracts. The cases live in `suites/transport_channels.rs`
//! so that the firmware (Cortex-M3 under QEMU) and the wasm32-wasip1 run execute the very same
//! code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/transport_channels.rs"]
mod suite;

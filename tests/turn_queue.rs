//! Public-API tests of the `turn-queue` runtime piece. The cases live in `suites/turn_queue.rs`
//! so that the firmware (Cortex-M3 under QEMU) and the wasm32-wasip1 run execute the same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/turn_queue.rs"]
mod suite;

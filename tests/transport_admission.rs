//! Tests of the transport admission runtime (feature `transport-runtime`). The cases live in
//! `suites/transport_admission.rs` so that the firmware (Cortex-M3 under QEMU) and the
//! wasm32-wasip1 run execute the very same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/transport_admission.rs"]
mod suite;

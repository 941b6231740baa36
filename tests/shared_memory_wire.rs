//! Public-API tests of the shared-memory seam's wire forms (`shared-memory` with `serde`). The
//! cases live in `suites/shared_memory_wire.rs` so that the firmware and the wasm32-wasip1 run
//! execute the very same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/shared_memory_wire.rs"]
mod suite;

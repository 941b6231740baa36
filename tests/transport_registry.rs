//! Public-API tests of the transport runtime's lifecycle half (`transport-runtime`): the
//! lifecycle guard, the reference adapters under `transport::testing`, and the registry. The
//! cases live in `suites/transport_registry.rs` so that the firmware and the wasm32-wasip1 run
//! execute the very same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/transport_registry.rs"]
mod suite;

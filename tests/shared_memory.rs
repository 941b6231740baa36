//! Public-API tests of the shared-memory provider seam (`shared-memory`): the in-memory provider
//! against the conformance suite, a provider with one defect per obligation failing it at its
//! case, the common suite shape of `conformance`, the fixture's refusals, the wire forms and a
//! property test of prefix reads. The cases live in `suites/shared_memory.rs` so that the
//! firmware and the wasm32-wasip1 run execute the very same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/shared_memory.rs"]
mod suite;

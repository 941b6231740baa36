//! Public-API tests of records sealed at rest (`sealing`): the AEAD seal (layout, attribution,
//! locked and unknown keys, tampering, truncation, ids), the sealing store's members (raise by
//! digest, cross-store tokens, what a store wrote since a token), locked and held sessions, and
//! the record store conformance suite over the sealed store. The cases live in
//! `suites/record_store_sealed.rs` so that the firmware and the wasm32-wasip1 run execute the
//! very same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/record_store_sealed.rs"]
mod suite;

//! Public-API tests of the session record stores (`runtime::record_store`): the memory store and
//! its conformance suite (`runtime::record_store::testing`), media with one defect each failing
//! it, writers and lends, and every bad input as a typed outcome. The cases live in
//! `suites/record_store.rs` so that the firmware and the wasm32-wasip1 run execute the very same
//! code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/record_store.rs"]
mod suite;

//! Public-API tests of the per-session permission rules (`policy`): the rules and their strict
//! decoder, golden JSON, lexical paths, the loosen gate, the store (and its conformance suite
//! under `runtime::policy::testing`), enforcement, and the property tests. The cases live in
//! `suites/policy.rs` so that the firmware and the wasm32-wasip1 run execute the very same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/policy.rs"]
mod suite;

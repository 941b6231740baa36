//! Public-API tests of the TTL session cache (`session-cache`): the conformance suite under
//! `runtime::session_cache::testing` over the memory record store and a port double, planted
//! defects failing it at the right case, every refusal, the single-load check for concurrent
//! acquires, the declarations' wire literals and `bounded_tail`. The cases live in
//! `suites/session_cache.rs` so that the firmware and the wasm32-wasip1 run execute the very
//! same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/session_cache.rs"]
mod suite;

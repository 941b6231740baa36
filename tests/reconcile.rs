//! Public-API tests of reconciling interrupted tool calls (`reconcile`): orphans in both
//! directions, the suspended-batch exclusion, the started-set distinction, the texts, the report
//! and its wire forms, typed refusals, and seeded property tests. The cases live in
//! `suites/reconcile.rs` so that the firmware and the wasm32-wasip1 run execute the very same
//! code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/reconcile.rs"]
mod suite;

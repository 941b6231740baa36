//! Public-API tests of the `session-protocol` runtime piece. The cases live in
//! `suites/session_protocol.rs` so that other targets can run the same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/session_protocol.rs"]
mod suite;

//! Public-API tests of the `session_mobility` family: handoff (ownership machine, offer,
//! source and destination) and peers (admission, connection authority, delegation, files). The
//! cases live in `suites/session_mobility_*.rs` so that the firmware (Cortex-M3 under QEMU) and
//! the wasm32-wasip1 run execute the very same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/session_mobility_handoff.rs"]
mod handoff;

#[path = "suites/session_mobility_peer.rs"]
mod peer;

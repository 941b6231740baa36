//! Public-API tests of the `session` family. The cases live in `suites/session_*.rs` so that the
//! firmware (Cortex-M3 under QEMU) and the wasm32-wasip1 run execute the very same code.
extern crate alloc;

#[macro_use]
#[path = "suites/support.rs"]
mod support;

#[path = "suites/session_turns.rs"]
mod turns;

#[path = "suites/session_directory.rs"]
mod directory;

#[path = "suites/session_records.rs"]
mod records;

#[path = "suites/session_capabilities.rs"]
mod capabilities;

//! The on-target runner: sets up a heap, runs each case of a suite, prints one line per case and a
//! closing `N passed, 0 failed`, and exits QEMU through semihosting. A failing case panics; the
//! panic handler (panic-semihosting, `exit`) prints the message and exits with status 1, so the run
//! fails and the last `test … ` line names the case.
#![no_std]

use cortex_m_semihosting::{debug, hprint, hprintln};
use embedded_alloc::LlffHeap as Heap;
use panic_semihosting as _;

/// Bytes of SRAM given to the heap (the rest of the 64 KiB holds the stack and statics).
#[cfg(not(feature = "mps2-an385"))]
const HEAP_BYTES: usize = 40 * 1024;
/// Bytes of SRAM given to the heap on the large board (the rest of its 256 KiB budget holds the
/// stack and statics).
#[cfg(feature = "mps2-an385")]
const HEAP_BYTES: usize = 192 * 1024;

#[global_allocator]
static HEAP: Heap = Heap::empty();

/// Runs `cases` of `suite` in order and exits QEMU with success; never returns.
pub fn run(suite: &str, cases: &[(&str, fn())]) -> ! {
    // SAFETY: called once, first thing in `main`, before anything allocates.
    #[allow(unsafe_code)]
    unsafe {
        embedded_alloc::init!(HEAP, HEAP_BYTES);
    }
    hprintln!("running {} {} cases on cortex-m3", cases.len(), suite);
    for (name, case) in cases {
        hprint!("test {}::{} ... ", suite, name);
        case();
        hprintln!("ok");
    }
    hprintln!("{} passed, 0 failed", cases.len());
    debug::exit(debug::EXIT_SUCCESS);
    // Unreachable under QEMU: semihosting exit ends the emulator.
    loop {
        cortex_m::asm::bkpt();
    }
}

/// Declares one firmware image: the shared support module, one suite file (a path relative to
/// `firmware/tests/`) and the entry point that runs one part of it (or the whole suite) through
/// [`run`]. Each `tests/<image>.rs` is the two crate attributes plus one invocation.
#[macro_export]
macro_rules! image {
    ($suite:literal, $name:literal, $($cases:ident)::+) => {
        extern crate alloc;

        #[macro_use]
        #[path = "../../tests/suites/support.rs"]
        mod support;

        #[path = $suite]
        mod suite;

        #[cortex_m_rt::entry]
        fn main() -> ! {
            $crate::run($name, suite::$($cases)::+)
        }
    };
}

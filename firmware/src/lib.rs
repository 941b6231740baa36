//! The on-target runner: sets up a heap, runs each case of a suite, prints one line per case and a
//! closing `N passed, 0 failed`, and exits QEMU through semihosting. A failing case panics; the
//! panic handler (panic-semihosting, `exit`) prints the message and exits with status 1, so the run
//! fails and the last `test … ` line names the case.
//!
//! Every case is measured: before it runs, the free stack (from the end of the statics, where
//! cortex-m-rt puts `_stack_end`, up to just below the runner's own frame) is painted with a
//! pattern, and after it the deepest overwritten word gives the case's stack high-water mark; the
//! global allocator counts the bytes live and the peak of them since the case started. Each line
//! reads `test suite::case ... ok (stack 3,412 B, heap peak 12,800 B)`. A case whose stack reached
//! the statics fails (its writes may have corrupted them), and so does a case over a budget given
//! with [`run_within`], [`run_measured`] or the `image!` form with `stack = …, heap = …`.
//!
//! What the figures are: the stack figure counts from the stack pointer at the call of the case,
//! to 4 bytes, and misses a frame's slots that are reserved but never written (so it can read low
//! by less than one frame); the heap figure is the sum of the sizes requested and not yet freed,
//! without the allocator's own rounding and headers (a few bytes per block) or fragmentation.
#![no_std]

use core::alloc::{GlobalAlloc, Layout};
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicUsize, Ordering};

use cortex_m_semihosting::{debug, hprint, hprintln};
use embedded_alloc::LlffHeap as Heap;
use panic_semihosting as _;

/// Bytes of SRAM given to the heap (the rest of the 64 KiB holds the stack and statics).
#[cfg(not(feature = "mps2-an385"))]
pub const HEAP_BYTES: usize = 40 * 1024;
/// Bytes of SRAM given to the heap on the large board (the rest of its 256 KiB budget holds the
/// stack and statics).
#[cfg(feature = "mps2-an385")]
pub const HEAP_BYTES: usize = 192 * 1024;

/// The heap, counting what it hands out.
#[global_allocator]
static HEAP: Counting = Counting {
    heap: Heap::empty(),
    live: AtomicUsize::new(0),
    peak: AtomicUsize::new(0),
};

/// The allocator with two counters: the bytes live (requested sizes of the blocks not yet freed)
/// and the most of them at once since [`Counting::reset_peak`].
struct Counting {
    heap: Heap,
    live: AtomicUsize,
    peak: AtomicUsize,
}

impl Counting {
    fn grew(&self, bytes: usize) {
        let live = self.live.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.peak.fetch_max(live, Ordering::Relaxed);
    }

    /// Starts a new peak from what is live now, and returns that.
    fn reset_peak(&self) -> usize {
        let live = self.live.load(Ordering::Relaxed);
        self.peak.store(live, Ordering::Relaxed);
        live
    }
}

// SAFETY: every call is forwarded unchanged to the LLFF heap, which upholds `GlobalAlloc`'s
// contract; the wrapper only adds to and subtracts from two counters. `realloc` and
// `alloc_zeroed` keep their default bodies, which go through `alloc` and `dealloc` here (the LLFF
// heap has no `realloc` of its own either), so they are counted as what they do: a new block, a
// copy, the old block freed.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` are the heap's.
        let block = unsafe { self.heap.alloc(layout) };
        if !block.is_null() {
            self.grew(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from `alloc` above with this `layout`, as the caller guarantees.
        unsafe { self.heap.dealloc(block, layout) };
        self.live.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

/// A fault (a stack run into the statics and corrupting them, a bad access) ends the run at
/// once with exit status 1 and the faulting address, instead of cortex-m-rt's default handler's
/// endless loop, which QEMU only leaves at the runner's 120 s timeout.
#[cortex_m_rt::exception]
#[allow(unsafe_code)]
unsafe fn HardFault(frame: &cortex_m_rt::ExceptionFrame) -> ! {
    hprintln!(
        "HardFault at pc {:#010x} (lr {:#010x})",
        frame.pc(),
        frame.lr()
    );
    debug::exit(debug::EXIT_FAILURE);
    loop {
        cortex_m::asm::bkpt();
    }
}

/// The word the free stack is painted with: a value a case is unlikely to leave on its stack.
const PAINT: u32 = 0xC5A3_5A3C;

/// Bytes left unpainted just below the painter's stack pointer (its own frame sits above it; this
/// is slack for the calls it makes).
const PAINT_MARGIN: usize = 64;

/// The free stack, painted: the lowest and one past the highest painted address.
#[derive(Clone, Copy)]
struct Painted {
    floor: usize,
    top: usize,
}

/// The first address above the statics (`.data`, `.bss` with the heap in it, `.uninit`): the
/// lowest the stack may reach. cortex-m-rt's linker script defines `_stack_end` there (equal to
/// `__sheap`).
fn stack_floor() -> usize {
    // SAFETY: the symbol is defined by cortex-m-rt's link.x; only its address is taken, never read.
    #[allow(unsafe_code)]
    unsafe extern "C" {
        static _stack_end: u32;
    }
    (&raw const _stack_end) as usize
}

/// Paints every word from the end of the statics up to [`PAINT_MARGIN`] below the current stack
/// pointer.
#[inline(never)]
fn paint_free_stack() -> Painted {
    let floor = stack_floor();
    let top = (cortex_m::register::msp::read() as usize).saturating_sub(PAINT_MARGIN) & !3;
    let mut at = floor;
    while at < top {
        // SAFETY: `floor..top` lies between the statics and the live stack, both excluded: no
        // object lives there (the stack below the stack pointer is free), the address is
        // word-aligned (`_stack_end` is 4-aligned, cortex-m-rt asserts it) and in SRAM.
        #[allow(unsafe_code)]
        unsafe {
            core::ptr::write_volatile(at as *mut u32, PAINT);
        }
        at += 4;
    }
    Painted { floor, top }
}

/// The lowest address of `painted` that no longer holds the paint: how deep the stack went. The
/// floor itself when even the lowest word was overwritten (the stack reached the statics).
#[inline(never)]
fn deepest_written(painted: Painted) -> usize {
    let mut at = painted.floor;
    while at < painted.top {
        // SAFETY: as in `paint_free_stack`: a word-aligned SRAM address below the live stack
        // (the reader's frame is above `top`), read as the plain `u32` written there.
        #[allow(unsafe_code)]
        let word = unsafe { core::ptr::read_volatile(at as *const u32) };
        if word != PAINT {
            return at;
        }
        at += 4;
    }
    painted.top
}

/// The most stack and heap a case may use, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Stack from the runner's call of the case down to its deepest write.
    pub stack: usize,
    /// Peak of the heap bytes live during the case (what was live when it started included).
    pub heap: usize,
}

/// What one case used.
#[derive(Clone, Copy, Debug)]
struct Used {
    stack: usize,
    heap_peak: usize,
    /// True when the stack reached the statics: the figure is a lower bound and the statics may
    /// be corrupt.
    overflowed: bool,
}

/// Runs one case, measured.
fn measure(case: fn()) -> Used {
    let painted = paint_free_stack();
    HEAP.reset_peak();
    let base = cortex_m::register::msp::read() as usize;
    case();
    let heap_peak = HEAP.peak.load(Ordering::Relaxed);
    let deepest = deepest_written(painted);
    Used {
        stack: base.saturating_sub(deepest),
        heap_peak,
        overflowed: deepest <= painted.floor,
    }
}

/// `n` with a comma every three digits, as the lines print it.
struct Grouped(usize);

impl core::fmt::Display for Grouped {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut digits = [0u8; 20];
        let mut n = self.0;
        let mut len = 0;
        loop {
            digits[len] = b'0' + (n % 10) as u8;
            len += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for at in (0..len).rev() {
            write!(f, "{}", char::from(digits[at]))?;
            if at > 0 && at % 3 == 0 {
                f.write_str(",")?;
            }
        }
        Ok(())
    }
}

/// Runs one case, prints its figures after `ok`, and fails the run (a panic, exit status 1) when
/// its stack reached the statics or it went over `budget`.
fn run_case(suite: &str, name: &str, case: fn(), budget: Option<Budget>) {
    hprint!("test {}::{} ... ", suite, name);
    let used = measure(case);
    let stack = Grouped(used.stack);
    let heap = Grouped(used.heap_peak);
    if used.overflowed {
        hprintln!("FAILED (stack over {} B: it reached the statics)", stack);
        panic!("{suite}::{name}: the stack ran into the statics (at least {stack} B)");
    }
    let over = budget.filter(|b| used.stack > b.stack || used.heap_peak > b.heap);
    if let Some(b) = over {
        let (stack_budget, heap_budget) = (Grouped(b.stack), Grouped(b.heap));
        hprintln!(
            "FAILED (stack {} B of {} B, heap peak {} B of {} B)",
            stack,
            stack_budget,
            heap,
            heap_budget
        );
        panic!(
            "{suite}::{name} is over its budget: stack {stack} B (budget {stack_budget} B), heap peak {heap} B (budget {heap_budget} B)"
        );
    }
    match budget {
        Some(b) => hprintln!(
            "ok (stack {} B of {} B, heap peak {} B of {} B)",
            stack,
            Grouped(b.stack),
            heap,
            Grouped(b.heap)
        ),
        None => hprintln!("ok (stack {} B, heap peak {} B)", stack, heap),
    }
}

/// Sets up the heap; first thing in every runner.
fn start(suite: &str, count: usize) {
    static mut HEAP_MEMORY: [MaybeUninit<u8>; HEAP_BYTES] = [MaybeUninit::uninit(); HEAP_BYTES];
    // SAFETY: called once, first thing in `main`, before anything allocates; the memory is a
    // static no one else names (what `embedded_alloc::init!` does, with the heap in a field).
    #[allow(unsafe_code)]
    unsafe {
        HEAP.heap.init(&raw mut HEAP_MEMORY as usize, HEAP_BYTES);
    }
    let free_stack = (cortex_m::register::msp::read() as usize).saturating_sub(stack_floor());
    hprintln!(
        "running {} {} cases on cortex-m3 ({} B of stack free, {} B of heap)",
        count,
        suite,
        Grouped(free_stack),
        Grouped(HEAP_BYTES)
    );
}

/// Prints the closing line and exits QEMU with success; never returns.
fn finish(count: usize) -> ! {
    hprintln!("{} passed, 0 failed", count);
    debug::exit(debug::EXIT_SUCCESS);
    // Unreachable under QEMU: semihosting exit ends the emulator.
    loop {
        cortex_m::asm::bkpt();
    }
}

/// Runs `cases` of `suite` in order, each measured, and exits QEMU with success; never returns.
pub fn run(suite: &str, cases: &[(&str, fn())]) -> ! {
    start(suite, cases.len());
    for (name, case) in cases {
        run_case(suite, name, *case, None);
    }
    finish(cases.len())
}

/// [`run`] with one [`Budget`] for every case: a case over it fails the run.
pub fn run_within(suite: &str, cases: &[(&str, fn())], budget: Budget) -> ! {
    start(suite, cases.len());
    for (name, case) in cases {
        run_case(suite, name, *case, Some(budget));
    }
    finish(cases.len())
}

/// One case with its budget: `(name, case, stack budget, heap budget)`, in bytes.
pub type MeasuredCase = (&'static str, fn(), usize, usize);

/// [`run`] with a budget per case: `(name, case, stack budget, heap budget)`, in bytes.
pub fn run_measured(suite: &str, cases: &[MeasuredCase]) -> ! {
    start(suite, cases.len());
    for (name, case, stack, heap) in cases {
        run_case(
            suite,
            name,
            *case,
            Some(Budget {
                stack: *stack,
                heap: *heap,
            }),
        );
    }
    finish(cases.len())
}

/// Declares one firmware image: the shared support module, one suite file (a path relative to
/// `firmware/tests/`) and the entry point that runs one part of it (or the whole suite) through
/// [`run`]. Each `tests/<image>.rs` is the two crate attributes plus one invocation.
///
/// With `stack = …, heap = …` after the cases, every case of the image runs within that
/// [`Budget`] (bytes) through [`run_within`].
#[macro_export]
macro_rules! image {
    ($suite:literal, $name:literal, $($cases:ident)::+) => {
        $crate::image!(@image $suite);

        #[cortex_m_rt::entry]
        fn main() -> ! {
            $crate::run($name, suite::$($cases)::+)
        }
    };
    ($suite:literal, $name:literal, $($cases:ident)::+, stack = $stack:expr, heap = $heap:expr) => {
        $crate::image!(@image $suite);

        #[cortex_m_rt::entry]
        fn main() -> ! {
            let budget = $crate::Budget { stack: $stack, heap: $heap };
            $crate::run_within($name, suite::$($cases)::+, budget)
        }
    };
    (@image $suite:literal) => {
        extern crate alloc;

        #[macro_use]
        #[path = "../../tests/suites/support.rs"]
        mod support;

        #[path = $suite]
        mod suite;
    };
}

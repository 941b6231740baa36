//! What every size consumer shares, so that a consumer crate is its piece and nothing else.
//!
//! Each consumer is one crate with a library (`src/lib.rs`: `pub fn run(input: &[u8]) -> u32`,
//! which calls its piece, plus [`wasm_exports!`]) and a binary (`src/main.rs`: [`thumb_main!`]).
//!
//! - **wasm32-unknown-unknown**: the library is built as a `cdylib`. [`wasm_exports!`] exports
//!   `size_input(len) -> ptr` (the host writes its bytes there) and `size_run(ptr, len) -> u32`.
//!   This crate links `std` on wasm, whose dlmalloc is the global allocator and whose panic
//!   handler is used: what a browser user of the crate gets.
//! - **thumbv7em-none-eabihf**: the binary is a `no_std`, `no_main` cortex-m-rt image.
//!   [`thumb_main!`] sets up a heap (embedded-alloc's LLFF, as firmware/ does), reads the input
//!   from a RAM buffer a host or DMA fills (`SIZE_INPUT`, `SIZE_INPUT_LEN`, read volatile so
//!   nothing is constant-folded), runs the piece and writes the answer to `SIZE_OUTPUT`. The
//!   panic handler spins (no message formatting), as a size-conscious image would.
#![no_std]

extern crate alloc;
#[cfg(target_family = "wasm")]
extern crate std;

/// Splits `input` at the first NUL: the text before it (lossy: invalid UTF-8 is empty) and the
/// bytes after it (all of `input`, and `""`, when there is no NUL).
#[must_use]
pub fn split_text(input: &[u8]) -> (&str, &[u8]) {
    match input.iter().position(|&b| b == 0) {
        Some(at) => (
            core::str::from_utf8(&input[..at]).unwrap_or(""),
            &input[at + 1..],
        ),
        None => ("", input),
    }
}

#[cfg(target_family = "wasm")]
#[doc(hidden)]
pub mod wasm {
    use alloc::vec;

    /// A zeroed buffer of `len` bytes that lives for the rest of the instance.
    #[must_use]
    pub fn input(len: usize) -> *mut u8 {
        vec![0u8; len].leak().as_mut_ptr()
    }
}

/// The wasm exports of a consumer whose piece is `$run: fn(&[u8]) -> u32`.
#[macro_export]
macro_rules! wasm_exports {
    ($run:path) => {
        /// A buffer of `len` bytes for the host to write the input into.
        #[cfg(target_family = "wasm")]
        #[unsafe(no_mangle)]
        pub extern "C" fn size_input(len: usize) -> *mut u8 {
            $crate::wasm::input(len)
        }

        /// Runs the piece over the `len` bytes at `ptr` (from `size_input`).
        #[cfg(target_family = "wasm")]
        #[unsafe(no_mangle)]
        pub extern "C" fn size_run(ptr: *const u8, len: usize) -> u32 {
            // SAFETY: the host passes a buffer `size_input(len)` returned, of `len` bytes.
            let input = unsafe { core::slice::from_raw_parts(ptr, len) };
            $run(input)
        }
    };
}

#[cfg(target_arch = "arm")]
#[doc(hidden)]
pub mod thumb {
    use core::mem::MaybeUninit;
    use core::ptr::{addr_of, addr_of_mut};

    pub use cortex_m_rt;

    use embedded_alloc::LlffHeap as Heap;

    const HEAP_BYTES: usize = 64 * 1024;
    const INPUT_BYTES: usize = 16 * 1024;

    #[global_allocator]
    static HEAP: Heap = Heap::empty();

    static mut HEAP_MEMORY: [MaybeUninit<u8>; HEAP_BYTES] = [MaybeUninit::uninit(); HEAP_BYTES];

    /// The input, written by a host (a debugger, DMA) before `main` reads it.
    #[unsafe(no_mangle)]
    static mut SIZE_INPUT: [u8; INPUT_BYTES] = [0; INPUT_BYTES];
    #[unsafe(no_mangle)]
    static mut SIZE_INPUT_LEN: usize = 0;
    /// The piece's answer, for the host to read.
    #[unsafe(no_mangle)]
    static mut SIZE_OUTPUT: u32 = 0;

    /// Sets up the heap, runs `run` over the input and publishes its answer; never returns.
    pub fn main(run: fn(&[u8]) -> u32) -> ! {
        // SAFETY: called once, first thing in `main`, before anything allocates; the statics
        // are only touched here, volatile, and by the host.
        unsafe {
            HEAP.init(addr_of_mut!(HEAP_MEMORY) as usize, HEAP_BYTES);
            let len = core::ptr::read_volatile(addr_of!(SIZE_INPUT_LEN)).min(INPUT_BYTES);
            let input = core::slice::from_raw_parts(addr_of!(SIZE_INPUT).cast::<u8>(), len);
            let answer = run(core::hint::black_box(input));
            core::ptr::write_volatile(addr_of_mut!(SIZE_OUTPUT), answer);
        }
        loop {
            cortex_m::asm::wfi();
        }
    }

    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
        cortex_m::asm::udf()
    }
}

/// The Cortex-M entry point of a consumer whose piece is `$run: fn(&[u8]) -> u32`.
#[macro_export]
macro_rules! thumb_main {
    ($run:path) => {
        #[cfg(target_arch = "arm")]
        #[$crate::thumb::cortex_m_rt::entry]
        fn main() -> ! {
            $crate::thumb::main($run)
        }
    };
}

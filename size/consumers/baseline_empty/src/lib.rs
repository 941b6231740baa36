//! Baseline, no piece of agent-interface: the fixed cost of every consumer (entry points,
//! allocator, panic handler), the input copied into a `Vec` and summed.
#![no_std]

extern crate alloc;

/// Copies `input` into the heap and sums it.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let copy = alloc::vec::Vec::from(input);
    copy.iter().map(|&b| u32::from(b)).sum()
}

size_support::wasm_exports!(run);

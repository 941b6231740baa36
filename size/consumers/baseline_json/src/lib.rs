//! Baseline, no piece of agent-interface: a `serde_json::Value` parsed from the input and
//! written back (serde_json with the features the crate uses: `alloc`, `float_roundtrip`). What
//! any consumer that reads JSON pays anyway.
#![no_std]

/// Parses `input` as JSON and writes it back; the length written, or 0 for bad JSON.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    match serde_json::from_slice::<serde_json::Value>(input) {
        Ok(value) => serde_json::to_vec(&value).map_or(0, |bytes| bytes.len() as u32),
        Err(_) => 0,
    }
}

size_support::wasm_exports!(run);

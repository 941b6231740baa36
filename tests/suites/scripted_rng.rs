//! A scripted entropy source for the admission suite and the admission interop check: it hands
//! out exactly its bytes, in order, and fails once they run short. Only `core` and `alloc`.

use alloc::vec::Vec;
use core::fmt;

use agent_interface::runtime::transport::admission::rand_core::{TryCryptoRng, TryRng};

/// The error of [`ScriptedRng`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntropyUnavailable;

impl fmt::Display for EntropyUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("entropy unavailable")
    }
}

impl core::error::Error for EntropyUnavailable {}

/// An RNG that hands out exactly its bytes, in order, and fails once they run short (at once
/// when it has none); it counts the fills asked of it.
pub struct ScriptedRng {
    bytes: Vec<u8>,
    /// How many fills were asked of it.
    pub fills: u32,
}

impl ScriptedRng {
    pub fn with(bytes: &[u8]) -> Self {
        Self {
            bytes: bytes.to_vec(),
            fills: 0,
        }
    }

    /// Bytes 0..31, which mint `000102…1e1f`.
    pub fn sequential() -> Self {
        Self::with(&(0..32).collect::<Vec<u8>>())
    }

    pub fn failing() -> Self {
        Self::with(&[])
    }
}

impl TryRng for ScriptedRng {
    type Error = EntropyUnavailable;

    fn try_next_u32(&mut self) -> Result<u32, EntropyUnavailable> {
        let mut word = [0; 4];
        self.try_fill_bytes(&mut word)?;
        Ok(u32::from_le_bytes(word))
    }

    fn try_next_u64(&mut self) -> Result<u64, EntropyUnavailable> {
        let mut word = [0; 8];
        self.try_fill_bytes(&mut word)?;
        Ok(u64::from_le_bytes(word))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), EntropyUnavailable> {
        self.fills += 1;
        if self.bytes.len() < dst.len() {
            return Err(EntropyUnavailable);
        }
        let rest = self.bytes.split_off(dst.len());
        dst.copy_from_slice(&self.bytes);
        self.bytes = rest;
        Ok(())
    }
}

impl TryCryptoRng for ScriptedRng {}

//! Admission: the host's request resolved into an admission (a token minted from a host RNG
//! when none is given, `resolve_admission`), then a peer's `Authorization` header read
//! (`bearer_credential`) and checked in constant time (`admission_admits`).
//!
//! Input: 32 bytes of entropy, then the header value. Answer: whether the peer is admitted, the
//! length of the credential, or the length of the refusal's text.
#![no_std]

extern crate alloc;

use alloc::string::ToString;
use core::convert::Infallible;

use agent_interface::runtime::transport::admission::rand_core::{TryCryptoRng, TryRng};
use agent_interface::runtime::transport::admission::{
    admission_admits, bearer_credential, resolve_admission,
};
use agent_interface::transport::admission::TransportAdmissionConfig;

/// The host's entropy: here, bytes handed in (a real host passes its CSPRNG).
struct HostEntropy<'a>(&'a [u8]);

impl TryRng for HostEntropy<'_> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut word = [0; 4];
        self.try_fill_bytes(&mut word)?;
        Ok(u32::from_le_bytes(word))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut word = [0; 8];
        self.try_fill_bytes(&mut word)?;
        Ok(u64::from_le_bytes(word))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for (at, byte) in dst.iter_mut().enumerate() {
            *byte = self.0.get(at).copied().unwrap_or(0);
        }
        self.0 = self.0.get(dst.len()..).unwrap_or(&[]);
        Ok(())
    }
}

impl TryCryptoRng for HostEntropy<'_> {}

/// Resolves an admission and checks the header of `input` against it.
#[must_use]
pub fn run(input: &[u8]) -> u32 {
    let (entropy, header) = input.split_at(input.len().min(32));
    let header = core::str::from_utf8(header).unwrap_or("");
    // A host that asked for nothing: secure by default, a token is minted.
    let request = TransportAdmissionConfig {
        token: None,
        open: Some(header.is_empty()),
        open_reason: None,
    };
    match resolve_admission(request, &mut HostEntropy(entropy)) {
        Ok(admission) => {
            let presented = bearer_credential(header);
            u32::from(admission_admits(&admission, presented)) << 16
                | presented.map_or(0, str::len) as u32
        }
        Err(refusal) => 0x8000_0000 | refusal.to_string().len() as u32,
    }
}

size_support::wasm_exports!(run);

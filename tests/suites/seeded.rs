//! A seeded pseudo-random generator for property tests (SplitMix64): the same seed gives the
//! same operation sequence on every target, so a failing seed printed by a test replays
//! exactly. Test support only: it is not, and must never be used as, a source of secrets.
#![allow(dead_code)]

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state, one add and three mixing steps per
/// output.
#[derive(Clone, Debug)]
pub struct Seeded(u64);

impl Seeded {
    /// A generator started at `seed`.
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` > 0); the slight modulo bias does not matter for tests.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }

    /// One element of `items` (non-empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let index = self.below(items.len() as u64) as usize;
        &items[index]
    }
}

//! Randomness for the case generators: one [`Entropy`] interface, fed by a seeded [`Rng`]
//! (`referee gen`, `referee stress`, `referee audit`, the property tests) or by a fuzzer's bytes
//! (the cargo-fuzz targets), so that every game has a single generator for all of them.

use crate::util::hash::mix64;

/// A source of random choices.
pub trait Entropy {
    /// A value in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64;

    /// `true` with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        (self.below(1 << 32) as f64) < p * (1u64 << 32) as f64
    }
}

/// A value in `lo..=hi`.
pub fn between(e: &mut dyn Entropy, lo: u64, hi: u64) -> u64 {
    lo + e.below(hi - lo + 1)
}

/// One of `items` (not empty).
pub fn pick<'a, T>(e: &mut dyn Entropy, items: &'a [T]) -> &'a T {
    &items[e.below(items.len() as u64) as usize]
}

/// SplitMix64: a small, fast, seedable generator (statistical quality is plenty here).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of item `index` of a run seeded with `seed`: independent streams per item,
    /// so an item's content does not depend on how many items come before it or who made them.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        Rng::new(mix64(seed ^ index.wrapping_mul(0x9E37_79B9)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }
}

impl Entropy for Rng {
    fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    fn chance(&mut self, p: f64) -> bool {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        unit < p
    }
}

/// A fuzzer's bytes as choices: each choice takes the bytes it needs, and an exhausted input
/// answers 0 (the smallest choice), so every byte string decodes to some case.
impl Entropy for arbitrary::Unstructured<'_> {
    fn below(&mut self, n: u64) -> u64 {
        self.int_in_range(0..=n - 1).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_below_and_covers_the_range() {
        let mut rng = Rng::new(3);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = rng.below(7);
            assert!(v < 7);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(between(&mut rng, 5, 5), 5);
    }

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (Rng::for_item(9, 4), Rng::for_item(9, 4));
        for _ in 0..10 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(
            Rng::for_item(9, 4).next_u64(),
            Rng::for_item(9, 5).next_u64()
        );
    }
}

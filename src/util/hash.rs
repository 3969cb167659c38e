//! The project's two hash functions: a 64-bit mixer for keys and random streams, and FNV-1a for
//! stable, machine-independent assignment of names to shards; and the hasher of sets of keys
//! that are already mixed.

/// SplitMix64's finalizer: a bijective mixer of 64-bit values.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a over `bytes`: the same value on every machine and in every build.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_more(FNV1A_START, bytes)
}

/// The FNV-1a hash of nothing: where [`fnv1a_more`] starts.
pub const FNV1A_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The FNV-1a hash of the bytes hashed to `h`, then `bytes`: a hash built piece by piece.
pub fn fnv1a_more(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A [`std::hash::Hasher`] for keys that are already well mixed (the output of [`mix64`]): the
/// key itself is the hash. Only `u64` keys may be hashed with it.
#[derive(Debug, Default, Clone, Copy)]
pub struct MixedKey(u64);

impl std::hash::Hasher for MixedKey {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, _: &[u8]) {
        unreachable!("MixedKey hashes u64 keys only");
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A set of already-mixed `u64` keys.
pub type MixedKeys = std::collections::HashSet<u64, std::hash::BuildHasherDefault<MixedKey>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // FNV-1a's published test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(mix64(0), 0);
        assert_ne!(mix64(1), 1);
    }
}

//! Stable, fast hashing: a mixing step, a final avalanche and a hasher built from them.
//!
//! The same input gives the same hash on every run, platform and Rust
//! version, so anything drawn or kept by hash (a pool of donors, a set of
//! seen trees, keys of values) is deterministic given the seed.

use std::hash::{BuildHasherDefault, Hasher};

const FX: u64 = 0x517c_c1b7_2722_0a95;

/// One step of an FxHash-like mix.
#[inline]
pub fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(FX)
}

/// A final avalanche (MurmurHash3's `fmix64`), so every bit of a key is usable by a hash table.
#[inline]
pub fn finish(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Mixes `bytes` into `h`, eight at a time.
#[inline]
pub fn mix_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    for chunk in bytes.chunks(8) {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        h = mix(h, u64::from_le_bytes(b));
    }
    h
}

/// A small, fast, deterministic hasher (FxHash mixing with a final
/// avalanche): the same keys on every run and platform.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0 = mix_bytes(self.0, bytes);
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.0 = mix(self.0, x as u64);
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.0 = mix(self.0, x as u64);
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = mix(self.0, x);
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.0 = mix(self.0, x as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        finish(self.0)
    }
}

/// Builds [`KeyHasher`]s, for `HashMap`s and `HashSet`s with deterministic, fast hashing.
pub type BuildKey = BuildHasherDefault<KeyHasher>;

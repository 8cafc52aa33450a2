//! Hashing in one place: stable hashes, seeds, a deterministic hasher, and when a value is new.
//!
//! A value is *new* in a run when no value with the same `Debug` text was
//! made before in it. `Debug` is what every property argument has (it is
//! what reports print), so the runner, whose values need not be `Hash` or
//! `Eq`, and [`crate::explore::generate_distinct`] count novelty the same
//! way. The key of a value ([`value_key`]) is a 64-bit hash of its `Debug`
//! text, computed without building the text; [`Seen`] is the set of keys.

use std::collections::HashSet;
use std::fmt::{self, Debug, Write};
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

/// A small, fast, deterministic hasher (FxHash mixing with a final
/// avalanche): the same keys on every run and platform.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.0 = mix(self.0, u64::from_le_bytes(b));
        }
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

/// Builds [`KeyHasher`]s, for `HashMap`s keyed by hashes that are already well mixed.
pub type BuildKey = BuildHasherDefault<KeyHasher>;

/// The 64-bit FNV-1a hash: stable across runs, platforms and Rust versions.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The seed of generated case `i` of a run with seed `seed` (SplitMix64 of both).
pub fn case_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The hash of a string.
pub fn hash_str(s: &str) -> u64 {
    let mut h = KeyHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

/// Hashes text as it is written, in 8-byte words, so the hash does not
/// depend on how the writer split it.
#[derive(Default)]
struct TextHasher {
    h: u64,
    word: u64,
    filled: u32,
    len: u64,
}

impl Write for TextHasher {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &b in s.as_bytes() {
            self.word |= (b as u64) << (8 * self.filled);
            self.filled += 1;
            if self.filled == 8 {
                self.h = mix(self.h, self.word);
                self.word = 0;
                self.filled = 0;
            }
        }
        self.len += s.len() as u64;
        Ok(())
    }
}

/// The key of a value: a 64-bit hash of its `Debug` text (see the module docs).
pub fn value_key<T: Debug + ?Sized>(value: &T) -> u64 {
    let mut t = TextHasher::default();
    // Writing to a hasher cannot fail; a `Debug` impl that fails still gives a key.
    let _ = write!(t, "{value:?}");
    finish(mix(mix(t.h, t.word), t.len))
}

/// The keys of the values made so far in a run: which values are new.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    keys: HashSet<u64, BuildKey>,
}

impl Seen {
    /// No value seen yet.
    pub fn new() -> Self {
        Seen::default()
    }

    /// Note the value with key `key`; whether it is new.
    pub fn insert_key(&mut self, key: u64) -> bool {
        self.keys.insert(key)
    }

    /// Note `value`; whether it is new (no value with the same `Debug` came before).
    pub fn insert<T: Debug + ?Sized>(&mut self, value: &T) -> bool {
        self.insert_key(value_key(value))
    }

    /// How many distinct values were seen.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no value was seen.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_debug_text_not_how_it_was_written() {
        assert_eq!(value_key(&vec![1, 2, 3]), value_key(&[1, 2, 3]));
        assert_eq!(value_key(&"ab"), value_key(&String::from("ab")));
        assert_ne!(value_key(&vec![1, 2]), value_key(&vec![12]));
        assert_ne!(value_key(&""), value_key(&"\0"));
        let mut seen = Seen::new();
        assert!(seen.insert(&Some(3)));
        assert!(!seen.insert(&Some(3)));
        assert!(seen.insert(&Some(4)));
        assert_eq!(seen.len(), 2);
    }
}

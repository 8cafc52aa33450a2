//! The runner's hashing: seeds, stable hashes of text, and when a value is new.
//!
//! The mixing step and the deterministic hasher are [`refgen_core::hashing`]'s,
//! re-exported here.
//!
//! A value is *new* in a run when no value with the same `Debug` text was
//! made before in it. `Debug` is what every property argument has (it is
//! what reports print), so the runner, whose values need not be `Hash` or
//! `Eq`, and [`crate::explore::generate_distinct`] count novelty the same
//! way. The key of a value ([`value_key`]) is a 64-bit hash of its `Debug`
//! text, computed without building the text; [`Seen`] is the set of keys.

use std::collections::HashSet;
use std::fmt::{self, Debug, Write};
use std::hash::Hasher;

pub use refgen_core::hashing::{finish, mix, BuildKey, KeyHasher};

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

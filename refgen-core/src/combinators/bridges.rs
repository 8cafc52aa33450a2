//! Generators from other crates' ways of making values: a `rand` function ([`from_rng`]) and `arbitrary::Arbitrary` ([`arbitrary()`], feature `arbitrary`).
//!
//! Each runs the other crate's code on randomness drawn from the generator's
//! choices (64-bit words for `rand`, bytes for `arbitrary`), so a value it
//! makes is recorded as those choices: it shrinks (lowered toward 0, which
//! `rand` and `arbitrary` read as their smallest values), persists, and
//! replays by token like any value. What a bridge cannot do: reflect a value
//! it did not make (the other crate's code runs one way), so `check`,
//! `reflect` and `example = ...` find no way to make any value, and guides
//! that learn from reflected values (`tuned(like = ...)`) cannot use it.

use crate::gen::{one_forward_body, Answerer, Gen, Way};
use crate::source::Stop;
use std::marker::PhantomData;

/// The site of a bridge's words.
const WORD: &str = "rng.word";

/// A `rand` RNG whose words are the choices of the generator running it.
struct ChoiceRng<'a, A: ?Sized> {
    a: &'a mut A,
    /// Why the answerer stopped, if it did (every word after it is 0).
    stop: Option<Stop>,
}

impl<A: Answerer + ?Sized> rand::RngCore for ChoiceRng<'_, A> {
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        if self.stop.is_some() {
            return 0;
        }
        match self.a.choose_int(WORD, u64::MAX) {
            Ok(w) => w,
            Err(stop) => {
                self.stop = Some(stop);
                0
            }
        }
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

/// The generator of [`from_rng`].
pub struct FromRng<T, F> {
    make: F,
    _t: PhantomData<fn() -> T>,
}

/// A generator of what `make` makes from a `rand` RNG: any value maker
/// written with `rand` (a data generator, a proptest-free fixture builder)
/// becomes a generator whose values shrink, persist and replay by their
/// recorded words. It cannot reflect a value (see the module docs).
///
/// ```
/// use rand::Rng;
/// use refgen::combinators::from_rng;
/// use refgen::{check, generate};
///
/// let dice = from_rng(|rng| (rng.random_range(1..=6u8), rng.random_range(1..=6u8)));
/// let (a, b) = generate(&dice, 3).unwrap();
/// assert!((1..=6).contains(&a) && (1..=6).contains(&b));
/// assert!(!check(&dice, &(a, b)), "a value made by `rand` code does not reflect");
/// ```
pub fn from_rng<T, F>(make: F) -> FromRng<T, F>
where
    F: Fn(&mut dyn rand::RngCore) -> T,
{
    FromRng { make, _t: PhantomData }
}

impl<T, F: Fn(&mut dyn rand::RngCore) -> T> FromRng<T, F> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<T, Stop> {
        let mut rng = ChoiceRng { a, stop: None };
        let value = (self.make)(&mut rng);
        match rng.stop {
            Some(stop) => Err(stop),
            None => Ok(value),
        }
    }
}

impl<T, F: Fn(&mut dyn rand::RngCore) -> T> Gen for FromRng<T, F> {
    type Value = T;
    one_forward_body!();
    fn back(&self, _: &T) -> Vec<Way> {
        Vec::new()
    }
}

/// The bytes [`arbitrary()`] makes per element of a default length.
#[cfg(feature = "arbitrary")]
const BYTES_PER_ELEMENT: usize = 8;

/// The generator of [`arbitrary()`].
#[cfg(feature = "arbitrary")]
pub struct ArbitraryGen<T> {
    _t: PhantomData<fn() -> T>,
}

/// A generator of `T` by its `arbitrary::Arbitrary` implementation (what
/// fuzzers use; feature `arbitrary`): the bytes it reads are choices, one
/// each (so shrinking lowers each byte toward 0), eight per element of a
/// collection of default length (see [`super::sizes`]); `arbitrary` reads
/// past their end as zeros. A value it cannot make from its bytes
/// (`arbitrary::Error`) is rejected as invalid. It cannot reflect a value
/// (see the module docs).
///
/// ```
/// use refgen::combinators::arbitrary;
/// use refgen::generate;
///
/// let pairs = arbitrary::<(u16, Option<bool>)>();
/// assert!(generate(&pairs, 1).is_ok());
/// ```
#[cfg(feature = "arbitrary")]
pub fn arbitrary<T: for<'a> ::arbitrary::Arbitrary<'a>>() -> ArbitraryGen<T> {
    ArbitraryGen { _t: PhantomData }
}

#[cfg(feature = "arbitrary")]
impl<T: for<'a> ::arbitrary::Arbitrary<'a>> ArbitraryGen<T> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<T, Stop> {
        let n = BYTES_PER_ELEMENT * super::sizes::choose_len(a, "arbitrary.len")?;
        let mut bytes = Vec::with_capacity(n);
        for _ in 0..n {
            bytes.push(a.choose_int("arbitrary.byte", 255)? as u8);
        }
        T::arbitrary(&mut ::arbitrary::Unstructured::new(&bytes)).map_err(|_| Stop::Invalid)
    }
}

#[cfg(feature = "arbitrary")]
impl<T: for<'a> ::arbitrary::Arbitrary<'a>> Gen for ArbitraryGen<T> {
    type Value = T;
    one_forward_body!();
    fn back(&self, _: &T) -> Vec<Way> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::{generate, generate_recorded, parse_tree};

    #[test]
    fn a_rand_function_replays_from_its_recorded_words() {
        let g = from_rng(|rng| {
            let n = rand::Rng::random_range(rng, 0..10usize);
            (0..n).map(|_| rand::Rng::random::<u16>(rng)).collect::<Vec<u16>>()
        });
        for seed in 0..100 {
            let (v, tree) = generate_recorded(&g, seed);
            let v = v.expect("a value");
            assert_eq!(generate(&g, seed).as_ref(), Ok(&v), "plain generation draws alike");
            assert_eq!(parse_tree(&g, &tree).as_ref(), Ok(&v), "its words make it again");
            assert_eq!(tree.choices().len(), 1 + v.len());
        }
        // Every word 0: the smallest values.
        let zeros = crate::choice::ChoiceTree::root(vec![crate::choice::ChoiceTree::choice(WORD, 0, Vec::new())]);
        assert_eq!(parse_tree(&g, &zeros), Ok(Vec::new()));
    }

    #[cfg(feature = "arbitrary")]
    #[test]
    fn an_arbitrary_type_replays_from_its_recorded_words() {
        let g = arbitrary::<(u8, Vec<u16>, Option<char>)>();
        let mut lens = Vec::new();
        for seed in 0..200 {
            let (v, tree) = generate_recorded(&g, seed);
            let v = v.expect("a value");
            assert_eq!(generate(&g, seed).as_ref(), Ok(&v));
            assert_eq!(parse_tree(&g, &tree).as_ref(), Ok(&v));
            lens.push(v.1.len());
        }
        // `arbitrary` decides each element with a byte of its own: most vectors are short.
        lens.sort_unstable();
        assert!(lens[150] > 0 && lens[199] > 2, "{lens:?}");
    }
}

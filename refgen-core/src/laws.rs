//! The laws every reflective generator must obey, as functions to call on your own generators.
//!
//! Each law runs a generator over many seeds (or its whole language, for the
//! finite ones) and panics, like `assert!`, with a message naming the law,
//! the seed and the value when the law fails:
//!
//! | law | function |
//! |---|---|
//! | round trip: the choices generation records parse back to the value; reflection finds that very tree (without the failed attempts of retrying filters), every reflected tree parses back; `check` and `probability` agree; the bytes [`to_bytes`] encodes the value into decode back to it; plain generation makes the draws a source makes | [`round_trip`] |
//! | the fast path: [`Gen::run_rng`] gives what [`Gen::run`] gives with an [`RngSource`] over the same RNG, making the same draws in the same order | [`same_draws`] |
//! | bytes totality: every byte string, of every length, decodes without a panic into a value in the generator's range | [`bytes_total`] |
//! | lenient replay of an edited tree gives a value in the generator's range, and reports the tree it used | [`lenient_replay`] |
//! | derivatives: the language of `δ_p g` is the language of `g` after the prefix `p`; `nullable` and `next_pick` agree with it (Goldstein's thesis, Sec. 2.5: Lemma 1, Theorem 2) | [`derivatives`] |
//! | factoring (Theorem 1): parsing the randomness of `g` is distributed as generation, whose probabilities `probability` gives exactly | [`factoring`] |
//!
//! ```
//! use refgen::combinators::{int, vec};
//! use refgen::laws;
//!
//! let g = vec(int(0u8..=9), 0..=3);
//! assert_eq!(laws::round_trip(&g, 100), 100);
//! laws::lenient_replay(&g, 100);
//! ```

use crate::bytes::{from_bytes, from_bytes_recorded, to_bytes};
use crate::choice::{Choice, ChoiceTree};
use crate::combinators::{just, void};
use crate::edit::{random_edit, Edit};
use crate::gen::Gen;
use crate::interpret::{
    check, derivative, generate, generate_recorded, language, next_pick, nullable, parse_tree, probability, reflect,
    replay_lenient, sequence_probability, ParseError,
};
use crate::source::{rng_from_seed, DetRng, RngSource, Stop};
use rand::Rng;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

/// The round-trip and reflection laws over `seeds` seeds (0, 1, ...): for each
/// generated value, the recorded choices parse back to it, reflection finds
/// the recorded tree among its trees (with the failed attempts of retrying
/// filters dropped: [`ChoiceTree::without_retries`]) and each of them parses back, `check`
/// accepts it and `probability` is positive, and the value's bytes
/// ([`to_bytes`]) decode back to it ([`from_bytes`]). A generation its validity
/// condition rejects must be rejected by parsing its choices too. Every seed
/// also obeys [`same_draws`]. Returns how many seeds gave a valid value.
///
/// # Panics
/// When a law fails, or generation stops for another reason than validity.
pub fn round_trip<G>(g: &G, seeds: u64) -> usize
where
    G: Gen + ?Sized,
    G::Value: PartialEq + Debug,
{
    let mut valid = 0;
    same_draws(g, seeds);
    for seed in 0..seeds {
        let (v, tree) = generate_recorded(g, seed);
        let v = match v {
            Ok(v) => v,
            Err(Stop::Invalid) => {
                assert_eq!(
                    parse_tree(g, &tree),
                    Err(ParseError::NoValue(Stop::Invalid)),
                    "round trip, seed {seed}: generation was invalid, but its choices {tree} parse to another verdict"
                );
                continue;
            }
            Err(e) => panic!("round trip, seed {seed}: generation failed: {e}"),
        };
        valid += 1;
        assert_eq!(generate(g, seed).as_ref(), Ok(&v), "round trip, seed {seed}: recording changed the value");
        assert_eq!(parse_tree(g, &tree).as_ref(), Ok(&v), "round trip, seed {seed}: {tree} parses to another value");
        let trees = reflect(g, &v);
        assert!(!trees.is_empty(), "reflection, seed {seed}: no way to make {v:?}");
        // A retrying filter's failed attempts are the generation's, not the
        // value's: reflection gives the way without them.
        let first_tries = tree.without_retries();
        assert!(
            trees.contains(&first_tries),
            "reflection, seed {seed}: the recorded tree {first_tries} (its failed attempts dropped) is not among those of {v:?}"
        );
        for t in &trees {
            assert_eq!(parse_tree(g, t).as_ref(), Ok(&v), "reflection, seed {seed}: tree {t} parses to another value");
        }
        assert!(check(g, &v), "check, seed {seed}: rejects the generated {v:?}");
        // A product of hundreds of choices' probabilities can fall below the
        // smallest `f64` (about 1e-308): positive only where it cannot.
        let p = probability(g, &v);
        assert!(
            p > 0.0 || (p == 0.0 && tree.choices().len() > 100),
            "probability, seed {seed}: {p} for the generated {v:?}"
        );
        let bytes = to_bytes(g, &v).unwrap_or_else(|e| panic!("bytes, seed {seed}: {e}: {v:?}"));
        assert_eq!(from_bytes(g, &bytes).as_ref(), Ok(&v), "bytes, seed {seed}: {bytes:?} decode to another value");
    }
    valid
}

/// The fast-path law over `seeds` seeds (0, 1, ...): plain generation
/// ([`Gen::run_rng`]) gives exactly what [`Gen::run`] gives with an
/// [`RngSource`] over an RNG seeded alike, the same value or the same stop,
/// and leaves its RNG in the same state: the same draws, in the same order.
///
/// # Panics
/// When the law fails.
pub fn same_draws<G>(g: &G, seeds: u64)
where
    G: Gen + ?Sized,
    G::Value: PartialEq + Debug,
{
    for seed in 0..seeds {
        let (mut fast, mut slow) = (rng_from_seed(seed), rng_from_seed(seed));
        let by_rng = g.run_rng(&mut fast);
        let by_source = g.run(&mut RngSource(&mut slow));
        assert_eq!(
            by_rng, by_source,
            "fast path, seed {seed}: run_rng and run with an RngSource give different results"
        );
        assert!(
            fast == slow,
            "fast path, seed {seed}: run_rng and run with an RngSource draw differently (both gave {by_rng:?})"
        );
    }
}

/// The totality law of the bytes source ([`crate::bytes`]): random byte
/// strings of every length from 0 to `max_len` (eight of each, one of them
/// all `0xff`) decode without a panic, each into a value `check` accepts
/// whose recorded choices parse back to it, or into a stop the generator's
/// validity condition (or voidness) explains. Returns how many gave a value.
///
/// # Panics
/// When the law fails.
pub fn bytes_total<G>(g: &G, max_len: usize) -> usize
where
    G: Gen + ?Sized,
    G::Value: PartialEq + Debug,
{
    let mut rng = rng_from_seed(11);
    let mut values = 0;
    for len in 0..=max_len {
        for k in 0..8 {
            let bytes: Vec<u8> = (0..len).map(|_| if k == 0 { 0xff } else { rng.random() }).collect();
            let (v, tree) = from_bytes_recorded(g, &bytes);
            match v {
                Ok(v) => {
                    values += 1;
                    assert!(check(g, &v), "bytes totality: {bytes:?} decode to {v:?}, outside the range");
                    assert_eq!(parse_tree(g, &tree).as_ref(), Ok(&v), "bytes totality: {bytes:?} recorded {tree}");
                }
                Err(Stop::Invalid | Stop::Void) => {}
                Err(e) => panic!("bytes totality: {bytes:?} stopped the generator: {e}"),
            }
        }
    }
    values
}

/// One arbitrary edit, harsher than mutation: a shared [`random_edit`], a
/// choice set to a value that may not fit, or children deleted without
/// their length.
fn harsh_edit(tree: &ChoiceTree, rng: &mut DetRng) -> Option<Edit> {
    let paths = tree.paths();
    let at = paths[rng.random_range(0..paths.len())].clone();
    match rng.random_range(0..4u32) {
        0 => Some(Edit::Set { at, choice: rng.random_range(0..40) }),
        1 => {
            let n = tree.get(&at)?.children.len();
            (n > 0).then(|| Edit::Delete { at, start: rng.random_range(0..n), len: 1, lower_len: false })
        }
        2 => Some(Edit::Empty { at }),
        _ => random_edit(tree, rng),
    }
}

/// The lenient-replay law over `seeds` seeds: replaying the recorded tree
/// unedited gives the same value and tree; replaying it after one to three
/// edits ([`crate::edit`], and choices set out of range) gives a value
/// `check` accepts (or one the validity condition rejects), and the tree the
/// replay reports parses to that value. Returns how many edited replays
/// gave a value.
///
/// # Panics
/// When a law fails.
pub fn lenient_replay<G>(g: &G, seeds: u64) -> usize
where
    G: Gen + ?Sized,
    G::Value: PartialEq + Debug,
{
    let mut rng = rng_from_seed(7);
    let mut values = 0;
    for seed in 0..seeds {
        let (v, tree) = generate_recorded(g, seed);
        let Ok(v) = v else { continue };
        let (same, used) = replay_lenient(g, &tree, seed);
        assert_eq!(same.as_ref(), Ok(&v), "lenient replay, seed {seed}: the unedited tree {tree} gave another value");
        assert_eq!(used, tree, "lenient replay, seed {seed}: the unedited tree was not followed");
        let mut edited = tree;
        for _ in 0..rng.random_range(1..4) {
            if let Some(e) = harsh_edit(&edited, &mut rng).and_then(|e| e.apply(&edited)) {
                edited = e;
            }
        }
        let (mutant, used) = replay_lenient(g, &edited, seed);
        match mutant {
            Ok(m) => {
                values += 1;
                assert!(check(g, &m), "lenient replay, seed {seed}: {edited} gave {m:?}, outside the range");
                assert_eq!(
                    parse_tree(g, &used).as_ref(),
                    Ok(&m),
                    "lenient replay, seed {seed}: the tree {used} it reports is not the one it used"
                );
            }
            Err(Stop::Invalid) => {}
            Err(e) => panic!("lenient replay, seed {seed}: {edited} gave no value: {e}"),
        }
    }
    values
}

/// The language as a multiset of (sequence, value).
fn multiset<T: Ord + Clone>(mut members: Vec<(Vec<Choice>, T)>) -> Vec<(Vec<Choice>, T)> {
    members.sort();
    members
}

/// The derivative laws (Goldstein's thesis, Sec. 2.5) over every prefix of
/// the language of a finite generator (up to 600 of them, and prefixes that
/// fit no sequence): the language of `δ_p g` is `{ s | p s ∈ L(g) }`; `ν`
/// holds exactly when that language is `{ε}`; `next_pick` asks a choice
/// exactly when it is neither `{ε}` nor empty. The derivative by a choice the
/// first pick cannot make, of `void`, and of `return v` is `void`.
///
/// # Panics
/// When a law fails, or the language has more than 100,000 members or a
/// sequence longer than 64 choices (the generator must be finite and small).
pub fn derivatives<G>(g: &G)
where
    G: Gen + Clone,
    G::Value: Ord + Clone + Debug,
{
    let lang = language(g, 100_000, 64);
    assert!(lang.complete, "derivatives: the generator must be finite (at most 100,000 values, 64 choices each)");
    let mut prefixes: Vec<Vec<Choice>> = vec![vec![]];
    for (s, _) in &lang.members {
        for k in 1..=s.len() {
            prefixes.push(s[..k].to_vec());
        }
        let mut bad = s.clone();
        bad.push(99);
        prefixes.push(bad);
    }
    prefixes.sort();
    prefixes.dedup();
    for prefix in prefixes.iter().filter(|p| !p.is_empty()).take(600) {
        let mut d = derivative(g.clone(), prefix[0]);
        for &c in &prefix[1..] {
            d = d.derive(c);
        }
        let expected: Vec<(Vec<Choice>, G::Value)> = lang
            .members
            .iter()
            .filter(|(s, _)| s.starts_with(prefix))
            .map(|(s, v)| (s[prefix.len()..].to_vec(), v.clone()))
            .collect();
        let got = language(&d, 100_000, 64);
        assert!(got.complete, "derivatives: the language of δ_{prefix:?} is not finite, unlike that of g");
        assert_eq!(multiset(got.members.clone()), multiset(expected), "derivatives: the language of δ_{prefix:?}");
        let null = nullable(&d);
        match &null {
            Some(v) => assert_eq!(got.members, vec![(vec![], v.clone())], "derivatives: ν(δ_{prefix:?})"),
            None => {
                assert!(
                    !got.members.iter().any(|(s, _)| s.is_empty()),
                    "derivatives: δ_{prefix:?} accepts ε but ν is ∅"
                )
            }
        }
        assert_eq!(
            next_pick(&d).is_some(),
            !got.members.is_empty() && null.is_none(),
            "derivatives: the next pick after {prefix:?}"
        );
    }
    let first_arity = next_pick(g).map(|p| p.request.as_request().arity()).unwrap_or(0);
    assert!(
        language(&derivative(g.clone(), first_arity), 10, 64).members.is_empty(),
        "derivatives: by a choice the first pick cannot make"
    );
    assert!(language(&derivative(void::<G::Value>(), 0), 10, 8).members.is_empty(), "derivatives: δ(void) = void");
    assert!(language(&derivative(just(1u8), 0), 10, 8).members.is_empty(), "derivatives: δ(return v) = void");
}

/// Theorem 1 (factoring) for a finite generator: the probabilities of the
/// language's sequences sum to 1 and `probability` of a value is the sum
/// over its sequences; and parsing the trees recorded from `samples` seeds
/// gives each value with its exact probability (within five standard
/// deviations).
///
/// # Panics
/// When a law fails, or the generator is not finite and small (see [`derivatives`]).
pub fn factoring<G>(g: &G, samples: u64)
where
    G: Gen + ?Sized,
    G::Value: Clone + Eq + Hash + Debug,
{
    let lang = language(g, 100_000, 64);
    assert!(lang.complete, "factoring: the generator must be finite (at most 100,000 values, 64 choices each)");
    let mut by_value: HashMap<G::Value, f64> = HashMap::new();
    let mut total = 0.0;
    for (s, v) in &lang.members {
        let p = sequence_probability(g, s);
        total += p;
        *by_value.entry(v.clone()).or_default() += p;
    }
    assert!((total - 1.0).abs() < 1e-9, "factoring: the language's probabilities sum to {total}");
    for (v, p) in &by_value {
        assert!((probability(g, v) - p).abs() < 1e-12, "factoring: probability({v:?}) is not its sequences' sum");
    }
    let mut counts: HashMap<G::Value, u64> = HashMap::new();
    for seed in 0..samples {
        let (_, tree) = generate_recorded(g, 1_000_000 + seed);
        match parse_tree(g, &tree) {
            Ok(v) => *counts.entry(v).or_default() += 1,
            Err(e) => panic!("factoring: the recorded tree {tree} does not parse: {e}"),
        }
    }
    for v in counts.keys() {
        assert!(by_value.contains_key(v), "factoring: {v:?} sampled but not in the language");
    }
    let n = samples as f64;
    for (v, &p) in &by_value {
        let freq = *counts.get(v).unwrap_or(&0) as f64 / n;
        let sd = (p * (1.0 - p) / n).sqrt();
        assert!((freq - p).abs() <= 5.0 * sd + 1e-3, "factoring: {v:?} sampled with frequency {freq}, exactly {p}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combinators::int;
    use crate::gen::Way;
    use crate::source::Source;

    /// A digit whose plain generation answers right but draws once more
    /// than its forward direction: the kind of drift two copies of a
    /// forward body fall into.
    struct Drifting;

    impl Gen for Drifting {
        type Value = u8;
        fn run(&self, src: &mut dyn Source) -> Result<u8, Stop> {
            int(0u8..=9).run(src)
        }
        fn run_rng(&self, rng: &mut DetRng) -> Result<u8, Stop> {
            let v = int(0u8..=9).run_rng(rng);
            rng.random::<u64>();
            v
        }
        fn back(&self, v: &u8) -> Vec<Way> {
            int(0u8..=9).back(v)
        }
    }

    #[test]
    #[should_panic(expected = "draw differently")]
    fn same_draws_catches_a_fast_path_that_draws_more() {
        same_draws(&Drifting, 10);
    }

    #[test]
    fn same_draws_holds_for_a_generator_with_one_forward_body() {
        same_draws(&int(0u8..=9), 10);
    }
}

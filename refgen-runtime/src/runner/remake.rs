//! Making a case again under a recorder: from any source, or from a fast-path case's seed without its failed attempts.
//!
//! A fast-path case ([`crate::guide::Choices::Plain`]) records nothing;
//! when its choices are wanted (a guide adopts or hears its value, a
//! failure is shown), it is made again from its seed. For a type whose
//! validity condition retries (a derived `#[assume]`, a retrying filter),
//! most of a random case's choices are failed attempts, which a recorder
//! writes down only to drop them
//! ([`Trail::forget_failed_attempts`]). [`remade`] makes such a case again
//! in two runs instead: the first answers from the seed's RNG as the fast
//! path does, recording nothing but the flat choices of the attempts kept
//! ([`KeptChoices`]); the second replays those choices under the recorder,
//! and so records the kept nodes only. The value is the same (a valid
//! value's choices without its failed attempts make it, as parsing does),
//! and so is the trail, but for [`Trail::choices_made`], which counts the
//! kept choices only.
//!
//! A guide that knows it will adopt the fast-path cases to come
//! ([`crate::guide::Choices::Plain::note`]) has them made by the
//! first run ([`noting_kept_choices`]) in place of the fast path's own, so
//! that adopting them is the second run only.

use super::panics;
use crate::token;
use refgen_core::choice::{Choice, ChoiceTree, Request, Site};
use refgen_core::gen::BoxGen;
use refgen_core::source::{rng_from_seed, sample, DetRng, RngSource, Source, Stop};
use refgen_core::trail::{Recorder, Trail};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs the generator on `src`, recording its choices into `trail`; a panic keeps the choices made before it.
/// The recorder takes `spare` (its lists kept from case to case) and leaves the last trail there. With
/// `forget_failed`, the failed attempts of retrying filters are not recorded ([`Trail::forget_failed_attempts`]).
pub(super) fn recorded<V>(
    gen: &BoxGen<V>,
    src: impl Source,
    trail: &mut Trail,
    spare: &mut Option<Trail>,
    forget_failed: bool,
) -> MadeValue<V> {
    let mut into = spare.take().unwrap_or_default();
    into.clear();
    into.forget_failed_attempts(forget_failed);
    let mut rec = Recorder { inner: src, trail: into };
    let r = catch_unwind(AssertUnwindSafe(|| gen.run(&mut rec)));
    *spare = Some(std::mem::replace(trail, rec.trail));
    made(r, None)
}

/// The case made from `seed`, made again and recorded into `trail` without the failed attempts of its
/// retrying filters (see the module docs). With `retries` (the generator has been seen to retry), in
/// two runs, the first keeping its flat choices in `kept`; else, or when the first run gives no value,
/// in one recorded run, as [`recorded`] makes it from the seed.
pub(super) fn remade<V>(
    gen: &BoxGen<V>,
    seed: u64,
    trail: &mut Trail,
    spare: &mut Option<Trail>,
    kept: &mut Vec<Choice>,
    retries: bool,
) -> MadeValue<V> {
    if retries {
        if let Ok(Ok(_)) = catch_unwind(AssertUnwindSafe(|| noting_kept_choices(gen, seed, kept))) {
            return recorded(gen, token::sequence_source(kept), trail, spare, true);
        }
    }
    recorded(gen, RngSource(&mut rng_from_seed(seed)), trail, spare, true)
}

/// The value [`Gen::run_rng`](refgen_core::gen::Gen::run_rng) makes from `seed` (the same draws,
/// through a source), its kept choices in `kept` (cleared first): those that, replayed, make it again.
pub(super) fn noting_kept_choices<V>(gen: &BoxGen<V>, seed: u64, kept: &mut Vec<Choice>) -> Result<V, Stop> {
    kept.clear();
    gen.run(&mut KeptChoices { rng: &mut rng_from_seed(seed), kept, attempts: Vec::new() })
}

/// Answers from the RNG exactly as [`RngSource`] does (so as the fast path does), and keeps the flat
/// choices of the attempts that were kept: those of a failed attempt are dropped when it ends.
struct KeptChoices<'a> {
    rng: &'a mut DetRng,
    kept: &'a mut Vec<Choice>,
    /// Where each attempt begun and not ended began in `kept`.
    attempts: Vec<usize>,
}

impl Source for KeptChoices<'_> {
    #[inline]
    fn choose(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let c = sample(self.rng, request);
        self.kept.push(c);
        Ok(c)
    }
    #[inline]
    fn choose_leaf(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        self.choose(site, request)
    }
    fn tracks_parts(&self) -> bool {
        false
    }
    fn begin_attempt(&mut self) {
        self.attempts.push(self.kept.len());
    }
    fn end_attempt(&mut self, kept: bool) {
        if let (Some(at), false) = (self.attempts.pop(), kept) {
            self.kept.truncate(at);
        }
    }
}

/// The value of a case, or why there is none.
///
/// A tree of `None` is the one the worker's trail holds (built only when needed).
pub(super) enum MadeValue<V> {
    Value(V, Option<ChoiceTree>),
    NoValue(Stop, Option<ChoiceTree>),
    NotInRange(String),
    /// The generator panicked, after making the choices of the tree.
    Panicked(String, Option<ChoiceTree>),
}

/// How the reason of a generator's panic begins.
const GENERATOR_PANICKED: &str = "the generator panicked";

/// What a generator's panic says, with where it happened.
pub(super) fn generator_panic(payload: &(dyn Any + Send)) -> String {
    let loc = panics::take_location();
    format!("{GENERATOR_PANICKED}{loc}: {}", panics::panic_message(payload))
}

/// The value of a run of the generator that may have panicked, and the choices it made.
pub(super) fn made<V>(r: std::thread::Result<Result<V, Stop>>, tree: Option<ChoiceTree>) -> MadeValue<V> {
    match r {
        Ok(r) => MadeValue::from((r, tree)),
        Err(payload) => MadeValue::Panicked(generator_panic(&*payload), tree),
    }
}

impl<V> From<(Result<V, Stop>, Option<ChoiceTree>)> for MadeValue<V> {
    fn from((r, tree): (Result<V, Stop>, Option<ChoiceTree>)) -> Self {
        match r {
            Ok(v) => MadeValue::Value(v, tree),
            Err(stop) => MadeValue::NoValue(stop, tree),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use refgen_core::combinators::{int, vec};
    use refgen_core::gen::Gen;

    /// Sorted lists of up to 6 small numbers, by a retrying filter: most random cases fail attempts.
    fn sorted() -> BoxGen<Vec<u8>> {
        vec(int(0u8..=9), 0..=6).filter(|xs: &Vec<u8>| xs.is_sorted()).retries(20).boxed()
    }

    #[test]
    fn made_again_in_two_runs_a_case_has_the_fast_paths_value_and_the_forgetting_recorders_trail() {
        let gen = sorted();
        let (mut spare, mut kept) = (None, Vec::new());
        let (mut one, mut two) = (Trail::new(), Trail::new());
        let mut failed = 0;
        for seed in 0..300 {
            let fast = gen.run_rng(&mut rng_from_seed(seed));
            let before = refgen_core::combinators::failed_attempts();
            let a = recorded(&gen, RngSource(&mut rng_from_seed(seed)), &mut one, &mut spare, true);
            failed += refgen_core::combinators::failed_attempts() - before;
            let b = remade(&gen, seed, &mut two, &mut spare, &mut kept, true);
            match (fast, a, b) {
                (Ok(v), MadeValue::Value(a, _), MadeValue::Value(b, _)) => {
                    assert_eq!((&a, &b), (&v, &v), "seed {seed}");
                    assert_eq!(one.nodes(), two.nodes(), "seed {seed}");
                    assert_eq!(two.choices_made(), two.choice_count(), "seed {seed}: the kept choices only");
                    assert_eq!(kept, two.choices(), "seed {seed}");
                }
                (Err(_), MadeValue::NoValue(..), MadeValue::NoValue(..)) => {}
                _ => panic!("seed {seed}: the three runs disagree"),
            }
        }
        assert!(failed > 300, "the cases failed attempts: {failed}");
    }

    #[test]
    fn without_retries_a_case_is_made_again_in_one_recorded_run() {
        let gen = sorted();
        let (mut spare, mut kept) = (None, Vec::new());
        let (mut one, mut two) = (Trail::new(), Trail::new());
        for seed in 0..50 {
            let _ = recorded(&gen, RngSource(&mut rng_from_seed(seed)), &mut one, &mut spare, true);
            let _ = remade(&gen, seed, &mut two, &mut spare, &mut kept, false);
            assert_eq!((one.nodes(), one.choices_made()), (two.nodes(), two.choices_made()), "seed {seed}");
            assert!(kept.is_empty(), "no first run");
        }
    }
}

//! Running a generator under a guide outside a property: the distinct valid values of many runs, with the guide learning as it goes.

use crate::guide::{CaseInfo, Erased, Feedback, Guide, Outcome};
use crate::hashing::Seen;
use reflect_core::gen::Gen;
use reflect_core::source::rng_from_seed;
use reflect_core::trail::Trail;
use std::fmt::Debug;

/// What [`generate_distinct`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distinct<T> {
    /// The distinct valid values, in the order they were first generated.
    pub unique_valid: Vec<T>,
    /// How many runs gave a valid value (duplicates included).
    pub valid: usize,
    /// How many runs gave no value (invalid, or stopped otherwise).
    pub invalid: usize,
    /// How many runs there were.
    pub trials: usize,
}

/// Run `gen` `trials` times under `guide`, with one RNG seeded by `seed`
/// for the whole run, and return the distinct valid values.
///
/// A run that returns a value is valid; one that stops (a filter or
/// `assume` rejected it, or any other [`reflect_core::Stop`]) is invalid. A
/// valid value is *new* when no value with the same `Debug` was generated
/// before (the runner's notion too: see [`crate::hashing`]). After each run
/// the guide gets that [`Feedback`] (valid runs count as passed), so a
/// learning guide learns as it goes. Same seed, same guide state: same result.
///
/// ```
/// use reflect_core::prelude::*;
/// use reflect_runtime::{explore::generate_distinct, guides::RlGuide};
///
/// // Pairs (a, b) with a < b, from 0..=9 each.
/// let g = (int(0u8..=9).site("a"), int(0u8..=9).site("b")).filter(|(a, b)| a < b);
/// let out = generate_distinct(&g, &mut RlGuide::default(), 2_000, 1);
/// assert!(out.unique_valid.iter().all(|(a, b)| a < b));
/// ```
pub fn generate_distinct<G, U>(gen: &G, guide: &mut U, trials: usize, seed: u64) -> Distinct<G::Value>
where
    G: Gen + ?Sized,
    G::Value: Debug,
    U: Guide + ?Sized,
{
    let mut seen = Seen::new();
    let mut out = Distinct { unique_valid: Vec::new(), valid: 0, invalid: 0, trials };
    let mut rng = rng_from_seed(seed);
    let mut trail = Trail::new();
    let handle = Erased(gen);
    for i in 0..trials {
        let case = CaseInfo { index: i as u64, budget: trials as u64, gen: &handle };
        let made = crate::guide::run_guided(gen, guide, &mut trail, case, &mut rng);
        let (outcome, new) = match made {
            Ok(v) => {
                out.valid += 1;
                let new = seen.insert(&v);
                if new {
                    out.unique_valid.push(v);
                }
                (Outcome::Passed, new)
            }
            Err(_) => {
                out.invalid += 1;
                (Outcome::Discarded, false)
            }
        };
        let valid = outcome != Outcome::Discarded;
        guide.feedback(&Feedback { outcome, valid, new, utility: None, trail: &trail });
    }
    out
}

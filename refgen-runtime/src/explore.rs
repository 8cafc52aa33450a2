//! A generator run under a guide outside a property: the distinct valid values the guide finds.

use crate::guide::{run_guided, CaseInfo, Erased, Feedback, GenHandle, Guide, GuidedRun, Outcome};
use crate::hashing::{value_key, Seen};
use refgen_core::gen::Gen;
use refgen_core::source::{rng_from_seed, Source, Stop};
use refgen_core::trail::Trail;
use std::cell::Cell;
use std::fmt::Debug;

/// What [`generate_distinct`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explored<T> {
    /// The distinct valid values, in the order they were first generated.
    pub unique_valid: Vec<T>,
    /// How many cases gave a valid value (duplicates included).
    pub valid: usize,
    /// How many cases gave no value (invalid, or stopped otherwise).
    pub invalid: usize,
    /// How many runs of the generator there were: one per case, and every
    /// run a guide made on its own through [`CaseInfo::gen`]. Never more
    /// than the budget.
    pub trials: usize,
}

/// The old name of [`Explored`].
#[deprecated(note = "renamed `Explored`")]
pub type Distinct<T> = Explored<T>;

/// The run's generator as a guide sees it, counting the runs a guide makes
/// on its own against the run's budget.
struct Budgeted<'g, G: ?Sized> {
    gen: Erased<'g, G>,
    /// Runs the guide may still make.
    left: Cell<usize>,
}

impl<G: Gen + ?Sized> GenHandle for Budgeted<'_, G>
where
    G::Value: Debug,
{
    fn run_key(&self, src: &mut dyn Source) -> Result<u64, Stop> {
        let left = self.left.get();
        if left == 0 {
            return Err(Stop::Halt);
        }
        self.left.set(left - 1);
        self.gen.run_key(src)
    }
}

/// Run `gen` under `guide` for a budget of `trials` runs of the generator,
/// with one RNG seeded by `seed` for the whole run, and return the distinct
/// valid values.
///
/// The budget is counted in runs of the generator, the same way for every
/// guide: each case is one run, and so is each run a guide makes on its own
/// through [`CaseInfo::gen`] (refused with [`Stop::Halt`] once the budget is
/// spent). A guide that samples derivatives, such as
/// [`crate::guides::CgsGuide`], makes each sample a case, so its valid
/// samples are values of the run.
///
/// A run that returns a value is valid; one that stops (a filter or
/// `assume` rejected it, or any other [`refgen_core::Stop`]) is invalid. A
/// valid value is *new* when no value with the same `Debug` was generated
/// before (the runner's notion too: see [`crate::hashing`]). After each run
/// the guide gets that [`Feedback`] (valid runs count as passed), so a
/// learning guide learns as it goes. Same seed, same guide state: same result.
///
/// ```
/// use refgen::{combinators::int, Gen};
/// use refgen::{explore::generate_distinct, guides::RlGuide};
///
/// // Pairs (a, b) with a < b, from 0..=9 each.
/// let g = (int(0u8..=9).site("a"), int(0u8..=9).site("b")).filter(|(a, b)| a < b);
/// let out = generate_distinct(&g, &mut RlGuide::default(), 2_000, 1);
/// assert!(out.unique_valid.iter().all(|(a, b)| a < b));
/// assert_eq!(out.trials, 2_000);
/// ```
pub fn generate_distinct<G, U>(gen: &G, guide: &mut U, trials: usize, seed: u64) -> Explored<G::Value>
where
    G: Gen + ?Sized,
    G::Value: Debug,
    U: Guide + ?Sized,
{
    let mut seen = Seen::new();
    let mut out = Explored { unique_valid: Vec::new(), valid: 0, invalid: 0, trials: 0 };
    let mut rng = rng_from_seed(seed);
    let mut trail = Trail::new();
    let handle = Budgeted { gen: Erased(gen), left: Cell::new(0) };
    let mut index = 0u64;
    while out.trials < trials {
        // The case's own run first; the guide may spend what is left.
        out.trials += 1;
        handle.left.set(trials - out.trials);
        let case = CaseInfo { index, budget: trials as u64, gen: &handle };
        let GuidedRun { value: made, origin, failed_attempts } = run_guided(gen, guide, &mut trail, case, &mut rng);
        out.trials = trials - handle.left.get();
        index += 1;
        let (outcome, new, key) = match made {
            Ok(v) => {
                out.valid += 1;
                let key = value_key(&v);
                let new = seen.insert_key(key);
                if new {
                    out.unique_valid.push(v);
                }
                (Outcome::Passed, new, Some(key))
            }
            Err(_) => {
                out.invalid += 1;
                (Outcome::Discarded, false, None)
            }
        };
        let valid = outcome != Outcome::Discarded;
        let state_machine = false;
        guide.feedback(&Feedback {
            origin,
            failed_attempts,
            outcome,
            valid,
            new,
            utility: None,
            key,
            trail: &trail,
            state_machine,
        });
    }
    out
}

//! The fast path: generated cases made straight from their seeds, back to back, with no trail kept.

use super::{no_value, tested, Worker};
use crate::case::{self, CaseState};
use crate::case_result::{CaseResult, Status};
use crate::guide::{Choices, Feedback, Origin, Outcome, Plan, PLAIN_CASES_KEPT};
use crate::hashing::case_seed;
use crate::runner::panics;
use crate::runner::remake::{generator_panic, noting_kept_choices, remade};
use crate::runner::report::Report;
use crate::runner::watch::Watch;
use refgen_core::combinators::failed_attempts;
use refgen_core::source::rng_from_seed;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Generated cases run back to back on the fast path ([`CaseRunner::run_batch`]),
/// while the guide plans it ([`Choices::Plain`]): each made by
/// [`refgen_core::gen::Gen::run_rng`] from its seed, with no trail and no
/// [`CaseResult`], until one does not pass.
///
/// A case in a batch costs what the case itself needs: its seed, the watch
/// told (atomics, no lock), the in-flight record (its index's digits in
/// mapped memory), the property's case state, the guide's feedback (and,
/// for a guide that hears the values, [`Choices::Plain::hear`], the
/// value's key, and a recording of a new value from its seed). The
/// clock is read when the batch begins and ends, and once between the
/// first case's generation and its test: the batch's time is split between
/// generation and test in the proportion of its first case.
pub(in crate::runner) struct Batch {
    /// The run's seed: case `i` is made from [`case_seed`]`(run_seed, i)`.
    pub(in crate::runner) run_seed: u64,
    /// The valid cases the run wants ([`CaseInfo::budget`]).
    pub(in crate::runner) budget: u64,
    /// The index of the first case.
    pub(in crate::runner) from: u64,
    /// At most this many cases.
    pub(in crate::runner) len: u64,
}

/// How a batch went. The cases that passed are counted in the run's report, with their time.
pub(in crate::runner) struct Ran {
    /// The index of the first case not run, or of the case that did not pass.
    pub(in crate::runner) next: u64,
    /// The case that did not pass, which ended the batch (its time is counted).
    pub(in crate::runner) stopped: Option<CaseResult>,
    /// How long the batch took.
    pub(in crate::runner) took: Duration,
}

impl<V: 'static> Worker<V> {
    /// Runs `batch` (see [`Batch`]), counting its passed cases in `report`.
    pub(super) fn run_batch(&mut self, batch: &Batch, watch: Option<&Watch>, report: &mut Report) -> Ran {
        panics::quiet(true);
        let t0 = self.last_end.take().unwrap_or_else(Instant::now);
        // When the first case's generation and test ended.
        let mut first = None;
        let mut stopped = None;
        let mut index = batch.from;
        // The trail, cleared, holds the tree the fast path has: no choices.
        self.trail.clear();
        while index < batch.from + batch.len {
            let (hear, note) = match self.take_plan(index, batch.budget) {
                Ok(Plan { choices: Choices::Plain { hear, note }, .. }) => (hear, note),
                // Kept for the case, which is made off the fast path.
                other => {
                    self.pending = Some(other);
                    break;
                }
            };
            let seed = case_seed(batch.run_seed, index);
            if let Some(w) = watch {
                w.begin_plain(seed, index, report.cases, report.discards);
            }
            panics::case_begins();
            // Recorded before it is made: should its generator end the process, it is the case reported.
            if let Some(f) = self.inflight.as_mut() {
                // Best effort: a case that cannot be written still runs.
                let _ = f.record_case(batch.run_seed, index);
            }
            let (gen, kept) = (&self.gen, &mut self.kept);
            // Noted when the guide will adopt it: the same draws, its kept choices kept.
            let note = note && self.plain_passed.as_ref().is_some_and(|k| k.len() < PLAIN_CASES_KEPT);
            let made = match note {
                true => catch_unwind(AssertUnwindSafe(|| noting_kept_choices(gen, seed, kept))),
                false => catch_unwind(AssertUnwindSafe(|| gen.run_rng(&mut rng_from_seed(seed)))),
            };
            let noted = note.then(|| std::mem::take(kept));
            let failed = failed_attempts() - self.failed_before;
            self.retries |= failed > 0;
            let generated = (index == batch.from).then(Instant::now);
            let hears_values = hear;
            let mut key = None;
            let (status, state) = match made {
                Ok(Ok(value)) => {
                    key = (hears_values || self.distinct.is_some()).then(|| (self.prop.key)(&value));
                    let test = &self.prop.test;
                    case::begin(false, false);
                    let status = match catch_unwind(AssertUnwindSafe(move || test(value))) {
                        Ok(Ok(())) => Status::Passed,
                        other => tested(other),
                    };
                    if let (Some(seen), Some(k), Status::Passed) = (&mut self.distinct, key, &status) {
                        seen.insert_key(k);
                    }
                    (status, case::end())
                }
                Ok(Err(stop)) => (no_value(stop), CaseState::default()),
                Err(payload) => (Status::GenPanicked(generator_panic(&*payload)), CaseState::default()),
            };
            if let Some(generated) = generated {
                first = Some((generated, Instant::now()));
            }
            if let Some(w) = watch {
                w.end();
            }
            let outcome = status.outcome();
            let (valid, utility) = (outcome != Outcome::Discarded, state.utility);
            if let Some(k) = state.state {
                self.states.insert_key(k);
            }
            let state_machine = state.state.is_some();
            let key = state.state.or(key);
            let (key, new) = match key.filter(|_| hears_values) {
                Some(k) => (Some(k), self.seen.insert_key(k)),
                None => (None, false),
            };
            let remake = hears_values && ((new && outcome == Outcome::Passed) || outcome == Outcome::Failed);
            if remake {
                // Its kept choices, for the guide (the same value, by the law of `run_rng`).
                let (gen, trail, spare, kept) = (&self.gen, &mut self.trail, &mut self.spare, &mut self.kept);
                let _ = remade(gen, seed, trail, spare, kept, self.retries);
            }
            let (origin, failed_attempts, trail) = (Origin::Plain, Some(failed), &self.trail);
            let fb = Feedback { origin, failed_attempts, outcome, valid, new, utility, key, trail, state_machine };
            self.guide.feedback(&fb);
            if remake {
                self.trail.clear();
            }
            if !matches!(status, Status::Passed) {
                let (labels, plain) = (state.labels, Some(seed));
                stopped = Some(CaseResult { labels, utility, plain, ..CaseResult::empty(status) });
                break;
            }
            if let Some(kept) = self.plain_passed.as_mut().filter(|k| k.len() < PLAIN_CASES_KEPT) {
                kept.push((seed, noted));
            }
            report.passed(&state.labels);
            report.reached(utility, index);
            index += 1;
        }
        let end = Instant::now();
        let took = end - t0;
        let (gen, test) = match first {
            Some((generated, tested)) => split_batch(generated - t0, tested - generated, end - tested),
            None => (took, Duration::ZERO),
        };
        report.gen_time += gen;
        report.test_time += test;
        self.last_end = Some(end);
        panics::quiet(false);
        Ran { next: index, stopped, took }
    }
}

/// A batch's time between generation and test, when its first case took
/// `gen` and `test` and the rest of the batch took `rest`: the rest is
/// shared out in the first case's proportion (the sum is exact).
fn split_batch(gen: Duration, test: Duration, rest: Duration) -> (Duration, Duration) {
    let share = gen.as_secs_f64() / (gen + test).as_secs_f64().max(f64::MIN_POSITIVE);
    let rest_gen = rest.mul_f64(share).min(rest);
    (gen + rest_gen, test + (rest - rest_gen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_split_between_generation_and_test_as_its_first_case_was() {
        let ns = Duration::from_nanos;
        assert_eq!(split_batch(ns(300), ns(100), ns(1000)), (ns(1050), ns(350)));
        // The sum is exact whatever the rounding; a first case that took no time gives the rest to the test.
        let (gen, test) = split_batch(ns(1), ns(2), ns(1001));
        assert_eq!(gen + test, ns(1004));
        assert_eq!(split_batch(ns(0), ns(0), ns(10)), (ns(0), ns(10)));
    }
}

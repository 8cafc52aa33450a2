//! Filters: a validity condition on a generator's values, retried locally a bounded number of times.
//!
//! A value that fails its condition need not end the run: the filter
//! regenerates it, up to its number of retries ([`DEFAULT_RETRIES`], or
//! [`Filter::retries`]), and gives up with [`Stop::Invalid`] after that.
//! Where filters nest (a derived recursive type whose `#[assume]` holds on
//! every part), the innermost one whose condition fails regenerates its own
//! part; one whose part gave up regenerates its whole part in turn. All the
//! filters of one run share a budget of [`RETRY_BUDGET`] failed attempts,
//! so that nested retries cost at most a bounded multiple of a run.
//!
//! Retrying stays reflective. Each attempt is bracketed by
//! [`Source::begin_attempt`](crate::Source::begin_attempt) and
//! [`Source::end_attempt`](crate::Source::end_attempt): a recorder wraps a
//! failed attempt's choices in a [`RETRY`](crate::choice::RETRY) group, so
//! the choice tree holds every attempt, and its flat sequence is what a
//! strict parse reads (the condition rejects the failed attempts again, in
//! the same order). Backward, a valid value has the one way with no failed
//! attempt. Lenient replay steps into the failed attempts a tree holds and
//! reads the kept one where it holds none (a reflected tree), so deleting a
//! `RETRY` group, as shrinking does, drops that attempt.
//!
//! What is made again is the whole failing part: making its last field
//! again first spent the run's budget ([`RETRY_BUDGET`]) deep in the tree,
//! and the run gave up ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#filter-retry-order)).

use super::forward::{one_forward_body, Answerer};
use super::{Gen, Way};
use crate::source::Stop;
use std::cell::Cell;

/// How many times a filter ([`Gen::filter`], a derived `#[assume]`)
/// regenerates a value that fails its condition before it gives up.
pub const DEFAULT_RETRIES: u32 = 10;

/// How many failed attempts all the filters of one run may make together:
/// once they are spent, a failing filter gives up at once. The budget is
/// filled when a filter begins with no other filter running around it.
///
/// Only nested filters reach it (one filter alone makes at most its
/// retries plus one attempts): a recursive type's `#[assume]`, checked on
/// every part. A run that spends it is discarded, and the next case starts
/// afresh, so the budget is how long random generation searches one value
/// before it starts again. A smaller budget made failures come sooner on the
/// AVL, red-black and search trees, but left more of the red-black tree's
/// valid trees empty, for a nonempty one takes a long search
/// ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#retry_budget)).
pub const RETRY_BUDGET: u32 = 200;

thread_local! {
    /// How many retrying filters run (nested), and the failed attempts left to them.
    static RETRIES: Cell<(u32, u32)> = const { Cell::new((0, 0)) };
    /// Every failed attempt of a retrying filter on this thread so far.
    static FAILED: Cell<u64> = const { Cell::new(0) };
}

/// How many attempts retrying filters on this thread have rejected and made
/// again, since the thread began: a count that only grows. The difference
/// between two readings is the failed attempts of the runs between them; a
/// guide reads it to see how hard a type's validity condition is for random
/// generation (see the default guide).
pub fn failed_attempts() -> u64 {
    FAILED.with(Cell::get)
}

/// One retrying filter running: counts the nesting while alive (a guard,
/// so that a panicking generator leaves the count as it was).
struct Running;

impl Running {
    #[inline]
    fn enter() -> Running {
        RETRIES.with(|r| {
            let (depth, left) = r.get();
            r.set((depth + 1, if depth == 0 { RETRY_BUDGET } else { left }));
        });
        Running
    }

    /// Takes one failed attempt from the run's budget; false when none is left.
    #[inline]
    fn take(&self) -> bool {
        RETRIES.with(|r| {
            let (depth, left) = r.get();
            r.set((depth, left.saturating_sub(1)));
            left > 0
        })
    }
}

impl Drop for Running {
    #[inline]
    fn drop(&mut self) {
        RETRIES.with(|r| {
            let (depth, left) = r.get();
            r.set((depth.saturating_sub(1), left));
        });
    }
}

/// The forward step of every filter: `once` makes a value with `a`, and
/// `valid` says whether it is kept. A value that fails (or a part that gave
/// up, [`Stop::Invalid`]) is made again, up to `retries` times and while
/// the run's budget lasts ([`RETRY_BUDGET`]); then the run stops with
/// [`Stop::Invalid`]. Each attempt is bracketed by
/// [`Answerer::begin_attempt`] and [`Answerer::end_attempt`]; with no
/// retry (`retries` 0, or a source that says no:
/// [`Answerer::filters_retry`]), none is, and a failing value stops the
/// run at once. Any other stop ends the run as it is.
///
/// Derived generators call it for `#[assume]`; a generator written by hand
/// calls it to filter a part it makes itself.
#[inline]
pub fn retrying<A, T>(
    a: &mut A,
    retries: u32,
    once: impl FnMut(&mut A) -> Result<T, Stop>,
    valid: impl Fn(&T) -> bool,
) -> Result<T, Stop>
where
    A: Answerer + ?Sized,
{
    retry(a, retries, once, valid, Failed::Rejected)
}

/// [`retrying`] for a construction that can meet a dead end (a part no
/// choice can complete, [`Stop::Invalid`]): the attempt is made again in the
/// same way, within the same budget, but its failed attempts are not counted
/// as values a condition rejected ([`failed_attempts`]), which is what tells a
/// guide that validity is hard to reach by generation. What the generators
/// `#[synth]` writes use, valid by construction up to their dead ends.
#[inline]
pub fn retrying_dead_ends<A, T>(a: &mut A, retries: u32, once: impl FnMut(&mut A) -> Result<T, Stop>) -> Result<T, Stop>
where
    A: Answerer + ?Sized,
{
    retry(a, retries, once, |_| true, Failed::DeadEnd)
}

/// [`retrying_dead_ends`] with a condition: a value is kept only where
/// `completable` holds (what is made after it can still be completed), and
/// made again otherwise, its failed attempts not counted as values a
/// condition rejected. What the generators `#[synth]` writes use to keep a
/// part whose later parts could not be made from being chosen.
#[inline]
pub fn retrying_completable<A, T>(
    a: &mut A,
    retries: u32,
    once: impl FnMut(&mut A) -> Result<T, Stop>,
    completable: impl Fn(&T) -> bool,
) -> Result<T, Stop>
where
    A: Answerer + ?Sized,
{
    retry(a, retries, once, completable, Failed::Completable)
}

/// What a failed attempt of a retry is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Failed {
    /// A value a condition rejected: counted ([`failed_attempts`]), within the run's budget.
    Rejected,
    /// A dead end of a construction: within the run's budget, not counted.
    DeadEnd,
    /// A part that leaves what follows nothing to complete: neither counted nor within the run's
    /// budget (the condition is asked before the parts it bounds are made, so these retries cannot
    /// nest into a search).
    Completable,
}

#[inline]
fn retry<A, T>(
    a: &mut A,
    retries: u32,
    mut once: impl FnMut(&mut A) -> Result<T, Stop>,
    valid: impl Fn(&T) -> bool,
    failed_is: Failed,
) -> Result<T, Stop>
where
    A: Answerer + ?Sized,
{
    if retries == 0 || !a.filters_retry() {
        let v = once(a)?;
        return if valid(&v) { Ok(v) } else { Err(Stop::Invalid) };
    }
    let running = (failed_is != Failed::Completable).then(Running::enter);
    let mut left = retries;
    loop {
        a.begin_attempt();
        let r = once(a);
        let failed = match &r {
            Ok(v) => !valid(v),
            Err(stop) => *stop == Stop::Invalid,
        };
        a.end_attempt(!failed);
        if !failed {
            return r;
        }
        if failed_is == Failed::Rejected {
            FAILED.with(|f| f.set(f.get() + 1));
        }
        if left == 0 || running.as_ref().is_some_and(|r| !r.take()) {
            return Err(Stop::Invalid);
        }
        left -= 1;
    }
}

/// See [`Gen::filter`]: the values of `gen` that `valid` accepts, a failing
/// one regenerated up to [`Filter::retries`] times (default
/// [`DEFAULT_RETRIES`]).
///
/// ```
/// use refgen::combinators::int;
/// use refgen::{generate_recorded, parse_tree, reflect, Gen};
///
/// let even = int(0u32..=99).filter(|x| x % 2 == 0);
/// let (x, tree) = generate_recorded(&even, 3);
/// let x = x.unwrap();
/// // The tree holds the failed attempts (if any) before the kept one;
/// // parsing it gives the value again, and so does its reflection.
/// assert_eq!(parse_tree(&even, &tree), Ok(x));
/// assert_eq!(parse_tree(&even, &reflect(&even, &x)[0]), Ok(x));
/// // No retry: a failing value stops the run, as `Stop::Invalid`.
/// let strict = int(0u32..=99).filter(|x| x % 2 == 0).retries(0);
/// # let _ = strict;
/// ```
#[derive(Debug, Clone)]
pub struct Filter<G, P> {
    pub(crate) gen: G,
    pub(crate) valid: P,
    pub(crate) retries: u32,
}

impl<G, P> Filter<G, P> {
    /// `gen`'s values that `valid` accepts, retried [`DEFAULT_RETRIES`] times.
    pub fn new(gen: G, valid: P) -> Self {
        Filter { gen, valid, retries: DEFAULT_RETRIES }
    }

    /// Regenerate a failing value up to `retries` times (0: a failing
    /// value stops the run at once).
    pub fn retries(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }
}

impl<G: Gen, P: Fn(&G::Value) -> bool> Filter<G, P> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<G::Value, Stop> {
        retrying(a, self.retries, |a| a.sub(&self.gen), &self.valid)
    }
}

impl<G: Gen, P: Fn(&G::Value) -> bool> Gen for Filter<G, P> {
    type Value = G::Value;
    one_forward_body!();
    fn back(&self, target: &G::Value) -> Vec<Way> {
        if (self.valid)(target) {
            self.gen.back(target)
        } else {
            Vec::new()
        }
    }
}

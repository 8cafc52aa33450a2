//! Sets of pairwise different valid inputs: difference constraints, coverage, and the search loop.
//!
//! This follows Iorek, from Talia Ringer, Dan Grossman, Daniel
//! Schwartz-Narbonne and Serdar Tasiran, *A Solver-Aided Language for Test
//! Input Generation* (OOPSLA 2017; "the Iorek paper" below): the
//! **specification** is a
//! reflective generator (what a valid input is: its `#[assume]`, its
//! filters), a **difference constraint** says when two values count as
//! different, and [`distinct`] finds up to `n` valid values, every pair of
//! which is different, one at a time as Iorek's generation loop does (each
//! new value must differ from every earlier one). When no further value
//! exists it says so ([`Stopped::Exhausted`]); when the budget of generator
//! runs is spent first it says that ([`Stopped::Budget`]). It never loops.
//!
//! Constraints ([`Difference`]) are built from [`not_equal`],
//! [`different_lengths`], [`numeric_distance`], [`edit_distance`],
//! [`cover`], [`cover_regex`] and [`cover_regex_counts`] (two values are the same when their choices
//! make the same picks, see [`Reduce`]), [`differ`] (any closure), and
//! combined with [`all_of`], [`some_of`], [`not`] and [`enumerate_star`].
//! Whatever the constraint, two members never come from the same choice
//! sequence (Iorek's default constraint).
//!
//! The search is native: it steers the generator through a trie of its
//! choices toward the least-tried branches (an integer range narrowed
//! bucket by bucket), never runs the same choice sequence twice, and skips
//! branches whose pick patterns a [`cover`] constraint already covers,
//! instead of sampling and rejecting. A pattern prefix that was covered
//! and never seen to continue is taken to have no continuation, which holds
//! when the pattern fixes the shape of the choices that follow (as for
//! [`Reduce::RegexCases`] over a regex).
//!
//! With the cargo feature `z3`, `smt` is the SMT back end: Iorek's loop
//! over Z3 for integers in a range and for strings matching a regex, with
//! the same constraints written so Z3 can read them (`IntDifference`,
//! `StrDifference`, each with `.native()` for this module's search). To
//! check a property on a set, see `#[property(distinct = N, difference =
//! ...)]` and [`crate::guides::DistinctGuide`].
//!
//! ```
//! use refgen::prelude::*;
//! use refgen::interpret::*;
//! use refgen::distinct::{distinct, numeric_distance, Stopped};
//!
//! // 20 integers in 0..=1000, each at least 10 from every other.
//! let set = distinct(20, &int(0i64..=1000), &numeric_distance(10, |x: &i64| *x as i128));
//! assert_eq!(set.stopped, Stopped::Found);
//! let xs: Vec<i64> = set.values().copied().collect();
//! for (i, a) in xs.iter().enumerate() {
//!     for b in &xs[i + 1..] {
//!         assert!((a - b).abs() >= 10);
//!     }
//! }
//! ```

pub(crate) mod search;
#[cfg(feature = "z3")]
pub mod smt;

use refgen_core::choice::{Choice, Request, Site};
use refgen_core::gen::Gen;
use refgen_core::regex::{CLASS_SITE, REPEAT_SITE};
use serde::Serialize;
use std::rc::Rc;

pub use search::DEFAULT_SEED;

/// One choice a member's run made: where, what, and what was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The choice point.
    pub site: Site,
    /// The answer.
    pub choice: Choice,
    /// The largest offset, for an integer choice point; `None` for a pick.
    pub span: Option<u64>,
}

impl Step {
    fn request(&self) -> Request<'static> {
        match self.span {
            Some(span) => Request::Int { span },
            // A pick's bucket is its option index; the options themselves are not needed.
            None => Request::Pick { options: &[], total: 0 },
        }
    }
}

/// One value of a distinct set, with the choices that made it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Member<T> {
    /// The value.
    pub value: T,
    /// Every choice its run made, in order.
    pub steps: Vec<Step>,
}

impl<T> Member<T> {
    /// The member's pick pattern under `reduce`: each choice reduced to its case, in order.
    pub fn pattern(&self, reduce: Reduce) -> Vec<u64> {
        self.steps.iter().filter_map(|s| reduce.key(s.site, s.request(), s.choice)).collect()
    }
}

/// How [`cover`] reduces a choice to the case it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduce {
    /// Every choice to its bucket ([`Request::bucket`]): a pick to its
    /// option, an integer range of at most 16 values to its value, a larger
    /// range to one of 8 contiguous buckets (so a character class is split
    /// into 8 runs of its characters).
    Buckets,
    /// The Iorek paper's `cover-regexp`, for generators made by
    /// [`refgen_core::regex::regex`]: a character class is one case (its
    /// choices do not count), an alternation is enumerated (each option is a
    /// case), a repetition gives short (its minimum count) and long (any
    /// more). Choices from other sites reduce as in [`Reduce::Buckets`].
    RegexCases,
    /// As [`Reduce::RegexCases`], but every count of a repetition is a case
    /// of its own: the variant of `cover-regexp` the Iorek paper measured in
    /// its Table 4, which "treats + the same as concatenation".
    RegexCounts,
}

impl Reduce {
    /// The case of `choice` at `site` asking `request`, or `None` when the
    /// choice does not count. For a fixed site and request the key never
    /// decreases as the choice grows.
    pub fn key(self, site: Site, request: Request<'_>, choice: Choice) -> Option<u64> {
        match self {
            Reduce::RegexCases | Reduce::RegexCounts if site == CLASS_SITE => None,
            Reduce::RegexCases if site == REPEAT_SITE => Some(choice.min(1)),
            Reduce::RegexCounts if site == REPEAT_SITE => Some(choice),
            _ => Some(request.bucket(choice)),
        }
    }
}

type Relation<T> = Rc<dyn Fn(&Member<T>, &Member<T>) -> bool>;

/// When two values count as different: a symmetric relation on the members
/// of a set (Iorek's constraint `C`).
pub struct Difference<T> {
    relation: Relation<T>,
    /// The coverage this constraint implies: when set, two members with the
    /// same pattern under it are never different, so the search may prune.
    implies_cover: Option<Reduce>,
}

impl<T> Clone for Difference<T> {
    fn clone(&self) -> Self {
        Difference { relation: self.relation.clone(), implies_cover: self.implies_cover }
    }
}

impl<T> std::fmt::Debug for Difference<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Difference").field("implies_cover", &self.implies_cover).finish_non_exhaustive()
    }
}

impl<T> Difference<T> {
    /// Whether `a` and `b` count as different.
    pub fn holds(&self, a: &Member<T>, b: &Member<T>) -> bool {
        (self.relation)(a, b)
    }

    fn new(relation: impl Fn(&Member<T>, &Member<T>) -> bool + 'static) -> Self {
        Difference { relation: Rc::new(relation), implies_cover: None }
    }
}

/// Different when `different(a, b)` holds of the two values; it should be symmetric.
pub fn differ<T: 'static>(different: impl Fn(&T, &T) -> bool + 'static) -> Difference<T> {
    Difference::new(move |a, b| different(&a.value, &b.value))
}

/// Different when the values are not equal.
pub fn not_equal<T: PartialEq + 'static>() -> Difference<T> {
    differ(|a: &T, b: &T| a != b)
}

/// A value with a length, for [`different_lengths`].
pub trait Length {
    /// The length: chars for strings, elements for sequences.
    fn length(&self) -> usize;
}

impl Length for String {
    fn length(&self) -> usize {
        self.chars().count()
    }
}

impl<U> Length for Vec<U> {
    fn length(&self) -> usize {
        self.len()
    }
}

/// Different when the lengths differ (chars of a string, elements of a `Vec`).
pub fn different_lengths<T: Length + 'static>() -> Difference<T> {
    differ(|a: &T, b: &T| a.length() != b.length())
}

/// Different when the integer projections are at least `t` apart (exactly,
/// in `i128`: every integer type projects without loss; for floats, write
/// the relation with [`differ`]).
pub fn numeric_distance<T: 'static>(t: u128, project: impl Fn(&T) -> i128 + 'static) -> Difference<T> {
    differ(move |a: &T, b: &T| project(a).abs_diff(project(b)) >= t)
}

/// Different when the Levenshtein distance between the strings is at least `t`.
pub fn edit_distance<T: AsRef<str> + 'static>(t: usize) -> Difference<T> {
    differ(move |a: &T, b: &T| strsim::levenshtein(a.as_ref(), b.as_ref()) >= t)
}

/// Different when the choices make different picks: two members are the
/// same when their patterns under [`Reduce::Buckets`] are equal. On a
/// finite generator this gives one value per pick pattern.
pub fn cover<T: 'static>() -> Difference<T> {
    cover_by(Reduce::Buckets)
}

/// The Iorek paper's `cover-regexp`, for a generator made by
/// [`refgen_core::regex::regex`] (or a `#[choice(regex = ...)]` field):
/// one value per case of [`Reduce::RegexCases`].
pub fn cover_regex<T: 'static>() -> Difference<T> {
    cover_by(Reduce::RegexCases)
}

/// [`cover_regex`] with every count of a repetition a case of its own
/// ([`Reduce::RegexCounts`]): `[a-z][0-9]{1,100}` has 100 cases, one per length.
pub fn cover_regex_counts<T: 'static>() -> Difference<T> {
    cover_by(Reduce::RegexCounts)
}

/// Different when the patterns under `reduce` differ.
pub fn cover_by<T: 'static>(reduce: Reduce) -> Difference<T> {
    Difference { relation: Rc::new(move |a, b| a.pattern(reduce) != b.pattern(reduce)), implies_cover: Some(reduce) }
}

/// Different when every one of `all` says so (`all_of([])` always holds).
pub fn all_of<T: 'static>(all: impl IntoIterator<Item = Difference<T>>) -> Difference<T> {
    let all: Vec<Difference<T>> = all.into_iter().collect();
    let implies_cover = all.iter().find_map(|d| d.implies_cover);
    Difference { relation: Rc::new(move |a, b| all.iter().all(|d| d.holds(a, b))), implies_cover }
}

/// Different when at least one of `some` says so (`some_of([])` never holds).
pub fn some_of<T: 'static>(some: impl IntoIterator<Item = Difference<T>>) -> Difference<T> {
    let some: Vec<Difference<T>> = some.into_iter().collect();
    let first = some.first().and_then(|d| d.implies_cover);
    let implies_cover = first.filter(|r| some.iter().all(|d| d.implies_cover == Some(*r)));
    Difference { relation: Rc::new(move |a, b| some.iter().any(|d| d.holds(a, b))), implies_cover }
}

/// Different when `d` says they are not.
pub fn not<T: 'static>(d: Difference<T>) -> Difference<T> {
    Difference::new(move |a, b| !d.holds(a, b))
}

/// Iorek's `never`: no two values are different, so a set has one member.
pub fn never<T: 'static>() -> Difference<T> {
    Difference::new(|_, _| false)
}

/// An assertion on values: which alternative of [`enumerate_star`] a value satisfies.
pub type Assertion<T> = Rc<dyn Fn(&T) -> bool>;

/// The Iorek paper's `enumerate*` (its Fig. 13) over assertions on values.
///
/// Returns the assertion "one of `alternatives` holds" (use it as the
/// generator's filter) and the constraint: two values are different when
/// they satisfy different alternatives, or the same alternative `i` and
/// `constraints[i]` says they differ. A value's alternative is the first
/// one it satisfies (the branch `choose*` takes). With every constraint
/// [`never()`] this is the paper's `enumerate-linear`, which visits each
/// alternative exactly once (its Theorem 4.1).
///
/// # Panics
///
/// When the two lists differ in length.
pub fn enumerate_star<T: 'static>(
    alternatives: Vec<Assertion<T>>,
    constraints: Vec<Difference<T>>,
) -> (Assertion<T>, Difference<T>) {
    assert_eq!(alternatives.len(), constraints.len(), "enumerate_star: one constraint per alternative");
    let alternatives: Rc<[Assertion<T>]> = alternatives.into();
    let branch = {
        let alternatives = alternatives.clone();
        move |v: &T| alternatives.iter().position(|a| a(v))
    };
    let branch = Rc::new(branch);
    let assertion: Assertion<T> = {
        let branch = branch.clone();
        Rc::new(move |v: &T| branch(v).is_some())
    };
    let difference = Difference::new(move |a, b| match (branch(&a.value), branch(&b.value)) {
        (Some(i), Some(j)) if i == j => constraints[i].holds(a, b),
        (i, j) => i != j,
    });
    (assertion, difference)
}

/// Why [`distinct`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Stopped {
    /// It found the `n` values asked for.
    Found,
    /// No further valid value differs from all members: the set is exhausted.
    Exhausted,
    /// The budget of generator runs was spent first.
    Budget,
}

/// What [`distinct`] found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DistinctSet<T> {
    /// The members, in the order they were found.
    pub members: Vec<Member<T>>,
    /// Why the search stopped.
    pub stopped: Stopped,
    /// How many runs of the generator it made.
    pub runs: usize,
}

impl<T> DistinctSet<T> {
    /// The members' values, in order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.members.iter().map(|m| &m.value)
    }
}

/// The budget [`distinct`] gives a search for `n` values: `1_000 * n + 100_000` runs.
pub fn default_budget(n: usize) -> usize {
    n.saturating_mul(1_000).saturating_add(100_000)
}

/// Up to `n` values of `gen`, each valid, every pair different under
/// `difference`, found one at a time by the native search, with
/// [`default_budget`] and [`DEFAULT_SEED`]. See [`distinct_with`].
pub fn distinct<G>(n: usize, gen: &G, difference: &Difference<G::Value>) -> DistinctSet<G::Value>
where
    G: Gen + ?Sized,
{
    distinct_with(n, gen, difference, default_budget(n), DEFAULT_SEED)
}

/// Up to `n` values of `gen`, each valid (the generator gave it without
/// stopping: its filters and `#[assume]`s held), every pair different under
/// `difference` and made by different choices, in at most `budget` runs of
/// the generator. The same seed gives the same set.
pub fn distinct_with<G>(
    n: usize,
    gen: &G,
    difference: &Difference<G::Value>,
    budget: usize,
    seed: u64,
) -> DistinctSet<G::Value>
where
    G: Gen + ?Sized,
{
    search::Search::new(difference.implies_cover, seed).run(n, |src| gen.run(src), difference, budget)
}

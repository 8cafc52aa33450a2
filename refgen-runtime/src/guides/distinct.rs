//! The distinct guide: a set of pairwise different valid inputs first, then random ones.
//!
//! At its first case the guide finds the set with the native search of
//! [`crate::distinct`] (those runs of the generator are not cases), as many
//! members as the run wants cases. [`DistinctGuide::cover`],
//! [`DistinctGuide::cover_regex`] and [`DistinctGuide::all_different`] run
//! the property's own generator and see its values only through their
//! choices and `Debug`; [`DistinctGuide::new`] takes the generator and any
//! [`Difference`] over its values (`numeric_distance`, `edit_distance`,
//! `different_lengths`, closures), so it must be given the property's
//! generator. Each case
//! then makes one member again, in order, by answering the generator's
//! choices with the member's; once the set is used up (it was exhausted, or
//! the search's budget was spent) the cases are random. Its notes say how
//! many members the set had and why the search stopped.
//!
//! ```
//! use refgen::prelude::*;
//! use refgen::interpret::*;
//! use refgen::{config::Config, distinct::numeric_distance, guides::DistinctGuide, runner::Property};
//!
//! // The four cases of cover-regexp (ab or c; one digit or more), one per property case.
//! let p = Property::new(|| regex("(ab|c)[0-9]{1,4}"), |s: String| !s.is_empty());
//! let config = Config::new("doc").cases(4).guide(DistinctGuide::cover_regex);
//! let report = p.check(&config).unwrap();
//! assert!(report.guide_notes.iter().any(|n| n.contains("4 members")));
//!
//! // Ten integers of 0..=1000, each at least 10 from every other: a constraint on values.
//! let gen = || int(0i64..=1000);
//! let p = Property::new(gen, |x: i64| (0..=1000).contains(&x));
//! let far = || numeric_distance(10, |x: &i64| i128::from(*x));
//! let config = Config::new("doc").cases(10).guide(move || DistinctGuide::new(gen(), far()));
//! let report = p.check(&config).unwrap();
//! assert!(report.guide_notes.iter().any(|n| n.contains("10 members")));
//! ```

use crate::distinct::search::Search;
use crate::distinct::{
    cover_by, default_budget, distinct_with, not_equal, Difference, DistinctSet, Reduce, Stopped, DEFAULT_SEED,
};
use crate::guide::{CaseInfo, ChoiceContext, Guide, GuideReport, Plan};
use refgen_core::choice::Choice;
use refgen_core::gen::Gen;
use refgen_core::source::{sample, DetRng, Stop};
use std::fmt;
use std::rc::Rc;

/// The members' choices, and why the search stopped.
type Found = (Vec<Vec<Choice>>, Stopped);

/// How the guide finds its set of `n` members.
#[derive(Clone)]
enum Finder {
    /// Over the property's generator, seeing values as keys: by their
    /// coverage, or `None` for values with different `Debug`.
    Keys(Option<Reduce>),
    /// Over a generator of its own, seeing values.
    Values(Rc<dyn Fn(usize) -> Found>),
}

/// The distinct guide (see the [module docs](self)).
#[derive(Clone)]
pub struct DistinctGuide {
    finder: Finder,
    /// The members' choices, once found, and why the search stopped.
    set: Option<Found>,
    /// The member this case makes, and how many of its choices are made.
    current: Option<(usize, usize)>,
}

impl fmt::Debug for DistinctGuide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finder = match &self.finder {
            Finder::Keys(reduce) => format!("Keys({reduce:?})"),
            Finder::Values(_) => "Values".to_string(),
        };
        f.debug_struct("DistinctGuide").field("finder", &finder).field("set", &self.set).finish()
    }
}

/// The choices of each member of `set`, and why its search stopped.
fn found<V>(set: &DistinctSet<V>) -> Found {
    (set.members.iter().map(|m| m.steps.iter().map(|s| s.choice).collect()).collect(), set.stopped)
}

impl DistinctGuide {
    fn with(reduce: Option<Reduce>) -> Self {
        DistinctGuide { finder: Finder::Keys(reduce), set: None, current: None }
    }

    /// Inputs of `gen`, every pair different under `difference`, which sees
    /// the values: [`crate::distinct::numeric_distance`],
    /// [`crate::distinct::edit_distance`], a closure through
    /// [`crate::distinct::differ`], or any other. The cases replay the
    /// members' choices against the property's generator, so `gen` must be
    /// that generator (`#[property(distinct = N, difference = ...)]` passes
    /// it).
    pub fn new<G>(gen: G, difference: Difference<G::Value>) -> Self
    where
        G: Gen + 'static,
        G::Value: 'static,
    {
        let finder = move |n| found(&distinct_with(n, &gen, &difference, default_budget(n), DEFAULT_SEED));
        DistinctGuide { finder: Finder::Values(Rc::new(finder)), set: None, current: None }
    }

    /// One input per pick pattern of the generator ([`crate::distinct::cover`]).
    pub fn cover() -> Self {
        Self::with(Some(Reduce::Buckets))
    }

    /// One input per case of the Iorek paper's `cover-regexp`, for a regex
    /// generator ([`crate::distinct::cover_regex`]).
    pub fn cover_regex() -> Self {
        Self::with(Some(Reduce::RegexCases))
    }

    /// Inputs that are all different (by `Debug`, as the runner counts distinct values).
    pub fn all_different() -> Self {
        Self::with(None)
    }
}

impl Guide for DistinctGuide {
    fn name(&self) -> &str {
        "distinct"
    }

    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        let (members, _) = self.set.get_or_insert_with(|| {
            let n = usize::try_from(case.budget).unwrap_or(usize::MAX);
            let reduce = match &self.finder {
                Finder::Values(find) => return find(n),
                Finder::Keys(reduce) => *reduce,
            };
            let difference: Difference<u64> = match reduce {
                Some(reduce) => cover_by(reduce),
                None => not_equal(),
            };
            let set =
                Search::new(reduce, DEFAULT_SEED).run(n, |src| case.gen.run_key(src), &difference, default_budget(n));
            found(&set)
        });
        let index = usize::try_from(case.index).unwrap_or(usize::MAX);
        self.current = (index < members.len()).then_some((index, 0));
        Plan::fresh()
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        if let (Some((i, pos)), Some((members, _))) = (&mut self.current, &self.set) {
            let made = members[*i].get(*pos).copied().filter(|&c| ctx.request.accepts(c));
            *pos += 1;
            if let Some(c) = made {
                return Ok(c);
            }
        }
        Ok(sample(rng, ctx.request))
    }

    fn report(&self) -> GuideReport {
        let notes = match &self.set {
            Some((members, stopped)) => vec![format!(
                "distinct: {} members tested first (the search stopped: {}), then random cases",
                members.len(),
                match stopped {
                    Stopped::Found => "found all it was asked for",
                    Stopped::Exhausted => "the set is exhausted",
                    Stopped::Budget => "its budget was spent",
                }
            )],
            None => Vec::new(),
        };
        GuideReport { notes, ..GuideReport::default() }
    }
}

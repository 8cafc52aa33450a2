//! Sources: what answers a generator's choices (an RNG, a recorded sequence, a guide).

use crate::choice::{Choice, Request, Site};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;

/// The random number generator the project uses everywhere: Xoshiro256++,
/// a named, portable algorithm, so a seed gives the same values on every run
/// and platform.
pub type DetRng = Xoshiro256PlusPlus;

/// A [`DetRng`] seeded from a `u64`.
pub fn rng_from_seed(seed: u64) -> DetRng {
    DetRng::seed_from_u64(seed)
}

/// Why a run of a generator produced no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The generator has no value to give (`void`, or a pick whose options are all gone).
    Void,
    /// A validity filter or `assume` rejected the value.
    Invalid,
    /// The source had no answer the generator could use (a strict parse met
    /// a choice the generator cannot make, or ran out of choices).
    Rejected,
    /// The source stopped the run on purpose (a probe reached the choice it
    /// wanted to see, or a guide ran out of budget).
    Halt,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::Void => "the generator has no value to give",
            Stop::Invalid => "the value failed its validity condition",
            Stop::Rejected => "the choices do not fit the generator",
            Stop::Halt => "the source stopped the run",
        })
    }
}

impl std::error::Error for Stop {}

/// What answers a generator's choice points.
///
/// A generator calls [`Source::choose`] at each choice point and, once what
/// that choice selected is done, [`Source::leave`]. Around each part of a
/// value (a field, a list element) it calls [`Source::enter`] and then
/// [`Source::leave`]. Sources that care about structure (recorders, lenient
/// replay, guides reading the path from the root) follow these calls; the
/// others ignore them.
pub trait Source {
    /// Answer the choice point `site` asking `request`. Every successful call
    /// is matched by one later [`Source::leave`].
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop>;

    /// A part of the value named `site` begins. Matched by one later [`Source::leave`].
    fn enter(&mut self, site: Site) {
        let _ = site;
    }

    /// The innermost open choice point or part ends.
    fn leave(&mut self) {}

    /// Answer a choice point that selects nothing beneath it (an integer, a
    /// bool): [`Source::choose`] and [`Source::leave`] in one call.
    fn choose_leaf(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let c = self.choose(site, request)?;
        self.leave();
        Ok(c)
    }

    /// Whether this source follows [`Source::enter`] and [`Source::leave`]
    /// for parts. Generators may skip those calls when it does not; choice
    /// points must still be matched by `leave` (or use [`Source::choose_leaf`]).
    fn tracks_parts(&self) -> bool {
        true
    }
}

impl<S: Source + ?Sized> Source for &mut S {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        (**self).choose(site, request)
    }
    fn enter(&mut self, site: Site) {
        (**self).enter(site)
    }
    fn leave(&mut self) {
        (**self).leave()
    }
    fn choose_leaf(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        (**self).choose_leaf(site, request)
    }
    fn tracks_parts(&self) -> bool {
        (**self).tracks_parts()
    }
}

/// Draws a choice for `request` from `rng`, honouring weights.
#[inline(always)]
pub fn sample(rng: &mut DetRng, request: Request<'_>) -> Choice {
    match request {
        Request::Pick { options, total } => {
            let mut x = rng.random_range(0..total);
            for (i, o) in options.iter().enumerate() {
                let w = o.weight as u64;
                if x < w {
                    return i as Choice;
                }
                x -= w;
            }
            options.len() as Choice - 1
        }
        Request::Int { span } => {
            if span == u64::MAX {
                rng.random()
            } else {
                rng.random_range(0..=span)
            }
        }
    }
}

/// Draws a choice for `request` uniformly among its answers, ignoring weights.
pub fn sample_uniform(rng: &mut DetRng, request: Request<'_>) -> Choice {
    match request {
        Request::Pick { options, .. } => rng.random_range(0..options.len() as u64),
        Request::Int { .. } => sample(rng, request),
    }
}

/// The generate interpretation's source: an RNG, honouring weights.
#[derive(Debug)]
pub struct RngSource<'a>(pub &'a mut DetRng);

impl Source for RngSource<'_> {
    #[inline]
    fn choose(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        Ok(sample(self.0, request))
    }
    #[inline]
    fn choose_leaf(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        Ok(sample(self.0, request))
    }
    fn tracks_parts(&self) -> bool {
        false
    }
}

/// What a [`Script`] answers at a choice point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scripted {
    /// This choice.
    Take(Choice),
    /// Whatever the source underneath answers.
    Ask,
    /// What the source underneath answers, but not this choice when another exists.
    AskNot(Choice),
    /// Stop the run.
    Fail(Stop),
}

/// Answers some choice points itself and hands the rest to another source (see [`Handover`]).
pub(crate) trait Script {
    /// The answer at the choice point `site`, asking `request`.
    fn next(&mut self, site: Site, request: Request<'_>) -> Scripted;
    /// A part `site` begins.
    fn enter(&mut self, _site: Site) {}
    /// The innermost choice point or part ends.
    fn leave(&mut self) {}
}

/// A source that follows a [`Script`] and asks `inner` where the script
/// says so, keeping `inner`'s structure calls balanced: `inner` sees every
/// part, and only the choice points it answers.
pub(crate) struct Handover<'s, S> {
    pub(crate) script: S,
    inner: &'s mut dyn Source,
    /// For each open node: whether `inner` saw it open.
    open: Vec<bool>,
}

impl<'s, S: Script> Handover<'s, S> {
    pub(crate) fn new(script: S, inner: &'s mut dyn Source) -> Self {
        Handover { script, inner, open: Vec::new() }
    }
}

impl<S: Script> Source for Handover<'_, S> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let c = match self.script.next(site, request) {
            Scripted::Take(c) => {
                self.open.push(false);
                return Ok(c);
            }
            Scripted::Fail(stop) => return Err(stop),
            Scripted::Ask => self.inner.choose(site, request)?,
            Scripted::AskNot(old) => {
                let c = self.inner.choose(site, request)?;
                if c == old && request.arity() > 1 {
                    (old + 1) % request.arity()
                } else {
                    c
                }
            }
        };
        self.open.push(true);
        Ok(c)
    }
    fn enter(&mut self, site: Site) {
        self.script.enter(site);
        self.inner.enter(site);
        self.open.push(true);
    }
    fn leave(&mut self) {
        self.script.leave();
        if self.open.pop() == Some(true) {
            self.inner.leave();
        }
    }
}

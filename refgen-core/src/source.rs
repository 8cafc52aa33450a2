//! Sources: what answers a generator's choices (an RNG, a recorded sequence, a guide).

use crate::choice::{Choice, OwnedRequest, Request, Site};
use rand::SeedableRng;
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
// A whole word: every generator returns a `Result<_, Stop>`, and with a
// one-byte stop a `Result<Vec<_>, Stop>` (its `Err` the niche of the
// capacity word, the stop in the pointer's) was copied back in byte-sized
// pieces on each return; a word's stop moves with the value's words.
#[repr(u64)]
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

    /// A filter that retries ([`Filter`](crate::combinators::Filter), a
    /// derived `#[assume]`) begins one attempt at its generator: the choices
    /// until the matching [`Source::end_attempt`] are that attempt's.
    /// Recorders note where it began; replays step into a failed attempt
    /// the tree recorded there (a [`RETRY`](crate::choice::RETRY) group).
    fn begin_attempt(&mut self) {}

    /// The attempt begun by the matching [`Source::begin_attempt`] ends:
    /// `kept` when its value is the filter's (valid, or the run stopped in
    /// it), otherwise it failed its condition, and a recorder wraps its
    /// choices in a [`RETRY`](crate::choice::RETRY) group.
    fn end_attempt(&mut self, kept: bool) {
        let _ = kept;
    }

    /// Whether retrying filters may retry under this source (the default).
    /// A source answering for a guide that learns from each discarded
    /// attempt (or measures what a prefix of choices leads to) may say no:
    /// every filter then ends the run at its first failing value, as with
    /// `retries = 0`.
    fn filters_retry(&self) -> bool {
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
    fn begin_attempt(&mut self) {
        (**self).begin_attempt()
    }
    fn end_attempt(&mut self, kept: bool) {
        (**self).end_attempt(kept)
    }
    fn filters_retry(&self) -> bool {
        (**self).filters_retry()
    }
}

/// Draws a choice for `request` from `rng`, honouring weights. A choice
/// point with one answer (a one-option pick, an integer range of one value)
/// is answered without a draw: it leaves the RNG as it was.
#[inline(always)]
pub fn sample(rng: &mut DetRng, request: Request<'_>) -> Choice {
    match request {
        Request::Pick { options, .. } if options.len() == 1 => 0,
        Request::Int { span: 0 } => 0,
        Request::Pick { options, total } => {
            let mut x = up_to(rng, total - 1);
            for (i, o) in options.iter().enumerate() {
                let w = o.weight as u64;
                if x < w {
                    return i as Choice;
                }
                x -= w;
            }
            options.len() as Choice - 1
        }
        Request::Int { span } => up_to(rng, span),
    }
}

/// An index into `weights` drawn with probability its weight over `total`,
/// their sum (more than 0), by one `rand` draw in `0..total`: how the guides
/// draw a corpus entry, a donor or an option by its weight.
pub fn weighted_index(weights: &[u64], total: u64, rng: &mut DetRng) -> usize {
    debug_assert!(total == weights.iter().sum::<u64>());
    weighted_pick(weights.iter().copied(), total, rng)
}

/// [`weighted_index`] over weights given one by one (computed on the way, with no slice of them
/// built): the same draw, and the last index if the weights sum to less than `total` (more than 0).
pub(crate) fn weighted_pick(weights: impl IntoIterator<Item = u64>, total: u64, rng: &mut DetRng) -> usize {
    debug_assert!(total > 0);
    let mut x = rand::Rng::random_range(rng, 0..total);
    let mut last = 0;
    for (i, w) in weights.into_iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
        last = i;
    }
    last
}

/// A uniform draw in `0..=span`: one 64-bit word times the range's size,
/// whose high half is the answer, and a second word only when the low half
/// falls near a boundary (Canon's method, as `rand` 0.9 samples an integer
/// range by default: the values are the same). Written here, inlined, so
/// that a seed's values depend on the RNG's algorithm and this function
/// alone (not on a feature of `rand` another crate may turn on), and so
/// that a draw costs no call.
#[inline(always)]
fn up_to(rng: &mut DetRng, span: u64) -> u64 {
    use rand::RngCore;
    let range = span.wrapping_add(1);
    if range == 0 {
        return rng.next_u64();
    }
    draw_below(rng, range)
}

/// A uniform draw in `0..range` (`range` at least 1), as [`up_to`] makes it.
#[inline(always)]
pub(crate) fn draw_below(rng: &mut DetRng, range: u64) -> u64 {
    use rand::RngCore;
    let wide = |x: u64| {
        let t = x as u128 * range as u128;
        ((t >> 64) as u64, t as u64)
    };
    let (mut result, low) = wide(rng.next_u64());
    if low > range.wrapping_neg() {
        let (next_high, _) = wide(rng.next_u64());
        result += low.checked_add(next_high).is_none() as u64;
    }
    result
}

/// Draws a choice for `request` uniformly among its answers, ignoring
/// weights; like [`sample`], without a draw when there is one answer.
pub fn sample_uniform(rng: &mut DetRng, request: Request<'_>) -> Choice {
    sample(rng, Request::Int { span: request.largest() })
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

/// Halts at the first choice point and notes it: what a generator asks first.
pub(crate) struct FirstPick {
    first: Option<(Site, OwnedRequest)>,
}

impl FirstPick {
    /// The choice point that `run` (a generator run on the source it is
    /// given) asks first, or `None` when it makes no choice.
    pub(crate) fn of<T>(run: impl FnOnce(&mut dyn Source) -> Result<T, Stop>) -> Option<(Site, OwnedRequest)> {
        let mut p = FirstPick { first: None };
        match run(&mut p) {
            Err(Stop::Halt) => p.first,
            _ => None,
        }
    }
}

impl Source for FirstPick {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        self.first = Some((site, request.to_owned_request()));
        Err(Stop::Halt)
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
    /// A retrying filter begins an attempt (see [`Source::begin_attempt`]).
    fn begin_attempt(&mut self) {}
    /// The attempt ends (see [`Source::end_attempt`]).
    fn end_attempt(&mut self, _kept: bool) {}
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
    fn begin_attempt(&mut self) {
        self.script.begin_attempt();
        self.inner.begin_attempt();
    }
    fn end_attempt(&mut self, kept: bool) {
        self.script.end_attempt(kept);
        self.inner.end_attempt(kept);
    }
    fn filters_retry(&self) -> bool {
        self.inner.filters_retry()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Opt;
    use rand::Rng;

    /// The inlined draw gives what `rand`'s `random_range` gives, draw for
    /// draw: the values of every seed stay what they were.
    #[test]
    fn up_to_draws_as_rand_does() {
        let spans = [1, 2, 3, 9, 10, 94, 255, 1 << 31, u32::MAX as u64, (1 << 63) + 12345, u64::MAX - 1, u64::MAX];
        for seed in 0..200 {
            for &span in &spans {
                let (mut ours, mut theirs) = (rng_from_seed(seed), rng_from_seed(seed));
                for _ in 0..20 {
                    let expected = if span == u64::MAX { theirs.random() } else { theirs.random_range(0..=span) };
                    assert_eq!(up_to(&mut ours, span), expected, "seed {seed}, span {span}");
                }
                assert!(ours == theirs, "seed {seed}, span {span}: another number of draws");
            }
        }
    }

    /// A choice point with one answer takes it and leaves the RNG as it was;
    /// one with two answers draws.
    #[test]
    fn a_choice_with_one_answer_draws_nothing() {
        let one = [Opt { label: "only", weight: 3 }];
        let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
        for request in [Request::Pick { options: &one, total: 3 }, Request::Int { span: 0 }] {
            let mut rng = rng_from_seed(9);
            assert_eq!(sample(&mut rng, request), 0);
            assert_eq!(sample_uniform(&mut rng, request), 0);
            assert!(rng == rng_from_seed(9), "{request:?} drew");
        }
        for request in [Request::Pick { options: &two, total: 2 }, Request::Int { span: 1 }] {
            let mut rng = rng_from_seed(9);
            sample(&mut rng, request);
            assert!(rng != rng_from_seed(9), "{request:?} did not draw");
        }
    }
}

//! The forward protocol: what answers a generator's choices, and the collections it fills.
//!
//! A generator writes its forward direction once, generic over an
//! [`Answerer`], and [`one_forward_body!`] serves both [`Gen::run`] and
//! [`Gen::run_rng`] from it; collections fill a [`Sequence`].

use crate::choice::{Choice, Request, Site};
use crate::gen::Gen;
use crate::source::{draw_below, sample, DetRng, Source, Stop};

/// [`Gen::run`] and [`Gen::run_rng`] from the generator's one forward body,
/// an inherent `fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<Self::Value, Stop>`.
macro_rules! one_forward_body {
    () => {
        #[inline]
        fn run(&self, src: &mut dyn $crate::source::Source) -> Result<Self::Value, $crate::source::Stop> {
            self.forward(src)
        }
        #[inline(always)]
        fn run_rng(&self, rng: &mut $crate::source::DetRng) -> Result<Self::Value, $crate::source::Stop> {
            self.forward(rng)
        }
    };
}
pub(crate) use one_forward_body;

/// What answers a generator's choices on the way forward: any [`Source`]
/// (as `dyn Source`, behind [`Gen::run`]) or the plain RNG ([`DetRng`],
/// behind [`Gen::run_rng`]).
///
/// It lets a generator write its forward direction once, generic over the
/// answerer, and serve both methods from it: the RNG's copy is compiled
/// apart, so plain generation makes no dynamic call per choice and skips
/// the structure calls ([`Answerer::enter`], [`Answerer::leave`]) that only
/// recording sources need. Both answerers draw alike: for the same RNG,
/// [`Gen::run_rng`] makes exactly the draws [`Gen::run`] makes with an
/// [`RngSource`](crate::source::RngSource) over it, in the same order (`refgen_core::laws::round_trip`
/// checks it). The trait is sealed: these two are the only answerers.
///
/// A generator written by hand needs only [`Gen::run`] and [`Gen::back`];
/// to give it the fast path too, write its forward direction over an
/// answerer and call it from both methods:
///
/// ```
/// use refgen::combinators::int;
/// use refgen::gen::Answerer;
/// use refgen::source::{DetRng, Source, Stop};
/// use refgen::{generate, generate_recorded, Gen, Way};
///
/// /// Two digits, as the number they make.
/// struct TwoDigits;
///
/// impl TwoDigits {
///     fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<u8, Stop> {
///         let tens = a.sub(&int(0u8..=9).site("tens"))?;
///         let ones = a.sub(&int(0u8..=9).site("ones"))?;
///         Ok(tens * 10 + ones)
///     }
/// }
///
/// impl Gen for TwoDigits {
///     type Value = u8;
///     fn run(&self, src: &mut dyn Source) -> Result<u8, Stop> {
///         self.forward(src)
///     }
///     fn run_rng(&self, rng: &mut DetRng) -> Result<u8, Stop> {
///         self.forward(rng)
///     }
///     fn back(&self, n: &u8) -> Vec<Way> {
///         let (t, o) = (int(0u8..=9).site("tens"), int(0u8..=9).site("ones"));
///         refgen::gen::product(t.back(&(n / 10)), &o.back(&(n % 10)))
///     }
/// }
///
/// assert_eq!(generate(&TwoDigits, 5), generate_recorded(&TwoDigits, 5).0);
/// ```
pub trait Answerer: sealed::Sealed {
    /// Whether an override at the use site may be in force under this
    /// answerer (see [`crate::combinators::overriding`]): never for the RNG,
    /// whose plain generation an override does not take.
    const MAY_OVERRIDE: bool;

    /// Answer the choice point `site` asking `request`; matched by one later
    /// [`Answerer::leave`] (see [`Source::choose`]).
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop>;

    /// Answer a choice point that selects nothing beneath it (see [`Source::choose_leaf`]).
    fn choose_leaf(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop>;

    /// Answer the integer choice point `site` of `span + 1` values (a leaf):
    /// a choice in `0..=span`. A source's answer past `span` stops the run
    /// with [`Stop::Rejected`]; the RNG's draws are always in range, so on
    /// the fast path the check, and the error it could raise, are compiled
    /// away.
    fn choose_int(&mut self, site: Site, span: u64) -> Result<Choice, Stop>;

    /// A part of the value named `site` begins (see [`Source::enter`]).
    fn enter(&mut self, site: Site);

    /// The innermost open choice point or part ends (see [`Source::leave`]).
    fn leave(&mut self);

    /// Whether this answerer follows parts (see [`Source::tracks_parts`]);
    /// never for the RNG.
    fn tracks_parts(&self) -> bool;

    /// A retrying filter begins an attempt (see [`Source::begin_attempt`]);
    /// nothing for the RNG.
    fn begin_attempt(&mut self);

    /// The attempt ends (see [`Source::end_attempt`]); nothing for the RNG.
    fn end_attempt(&mut self, kept: bool);

    /// Whether retrying filters may retry (see [`Source::filters_retry`]); always for the RNG.
    fn filters_retry(&self) -> bool;

    /// Run the sub-generator `g` forward with this answerer: [`Gen::run`]
    /// for a source, [`Gen::run_rng`] for the RNG.
    fn sub<G: Gen + ?Sized>(&mut self, g: &G) -> Result<G::Value, Stop>;

    /// Run the sub-generator `g` forward, then close the innermost open
    /// node ([`Answerer::leave`]): the last step of a pick, running the
    /// option it chose. For the RNG, which has no node to close, a call
    /// whose value is this one's (no copy of it on the way back).
    fn sub_leave<G: Gen + ?Sized>(&mut self, g: &G) -> Result<G::Value, Stop>;

    /// Run `g` forward `n` times, adding each value at the end of `out`,
    /// each as the part `part` when there is one (a collection's elements)
    /// and this answerer follows parts; stops at the first run that gives
    /// no value. The RNG makes them with [`Gen::fill_rng`].
    fn repeat<G: Gen, C: Sequence<G::Value>>(
        &mut self,
        g: &G,
        n: usize,
        part: Option<Site>,
        out: &mut C,
    ) -> Result<(), Stop>;
}

mod sealed {
    /// Keeps [`super::Answerer`] to the two answerers of this module.
    pub trait Sealed {}
    impl Sealed for dyn super::Source + '_ {}
    impl Sealed for super::DetRng {}
}

impl Answerer for dyn Source + '_ {
    const MAY_OVERRIDE: bool = true;

    #[inline]
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        Source::choose(self, site, request)
    }
    #[inline]
    fn choose_leaf(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        Source::choose_leaf(self, site, request)
    }
    #[inline]
    fn choose_int(&mut self, site: Site, span: u64) -> Result<Choice, Stop> {
        match Source::choose_leaf(self, site, Request::Int { span })? {
            c if c <= span => Ok(c),
            _ => Err(Stop::Rejected),
        }
    }
    #[inline]
    fn enter(&mut self, site: Site) {
        Source::enter(self, site)
    }
    #[inline]
    fn leave(&mut self) {
        Source::leave(self)
    }
    #[inline]
    fn tracks_parts(&self) -> bool {
        Source::tracks_parts(self)
    }
    #[inline]
    fn begin_attempt(&mut self) {
        Source::begin_attempt(self)
    }
    #[inline]
    fn end_attempt(&mut self, kept: bool) {
        Source::end_attempt(self, kept)
    }
    #[inline]
    fn filters_retry(&self) -> bool {
        Source::filters_retry(self)
    }
    #[inline]
    fn sub<G: Gen + ?Sized>(&mut self, g: &G) -> Result<G::Value, Stop> {
        g.run(self)
    }
    #[inline]
    fn sub_leave<G: Gen + ?Sized>(&mut self, g: &G) -> Result<G::Value, Stop> {
        let r = g.run(self);
        Source::leave(self);
        r
    }
    #[inline]
    fn repeat<G: Gen, C: Sequence<G::Value>>(
        &mut self,
        g: &G,
        n: usize,
        part: Option<Site>,
        out: &mut C,
    ) -> Result<(), Stop> {
        match part {
            Some(site) if Source::tracks_parts(self) => {
                for _ in 0..n {
                    Source::enter(self, site);
                    let r = g.run(self);
                    Source::leave(self);
                    out.push_elem(r?);
                }
            }
            _ => {
                for _ in 0..n {
                    out.push_elem(g.run(self)?);
                }
            }
        }
        Ok(())
    }
}

impl Answerer for DetRng {
    const MAY_OVERRIDE: bool = false;

    #[inline(always)]
    fn choose(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        Ok(sample(self, request))
    }
    #[inline(always)]
    fn choose_leaf(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        Ok(sample(self, request))
    }
    #[inline(always)]
    fn choose_int(&mut self, _site: Site, span: u64) -> Result<Choice, Stop> {
        Ok(sample(self, Request::Int { span }))
    }
    #[inline(always)]
    fn enter(&mut self, _site: Site) {}
    #[inline(always)]
    fn leave(&mut self) {}
    #[inline(always)]
    fn tracks_parts(&self) -> bool {
        false
    }
    #[inline(always)]
    fn begin_attempt(&mut self) {}
    #[inline(always)]
    fn end_attempt(&mut self, _kept: bool) {}
    #[inline(always)]
    fn filters_retry(&self) -> bool {
        true
    }
    #[inline(always)]
    fn sub<G: Gen + ?Sized>(&mut self, g: &G) -> Result<G::Value, Stop> {
        g.run_rng(self)
    }
    #[inline(always)]
    fn sub_leave<G: Gen + ?Sized>(&mut self, g: &G) -> Result<G::Value, Stop> {
        g.run_rng(self)
    }
    #[inline(always)]
    fn repeat<G: Gen, C: Sequence<G::Value>>(
        &mut self,
        g: &G,
        n: usize,
        _part: Option<Site>,
        out: &mut C,
    ) -> Result<(), Stop> {
        g.fill_rng(self, n, out)
    }
}

/// Collections [`Collection`](crate::combinators::Collection) can build and take apart.
pub trait Sequence<T>: Sized {
    /// An empty collection with room for `n` elements.
    fn with_capacity(n: usize) -> Self;
    /// Add one element at the end.
    fn push_elem(&mut self, t: T);
    /// Add the elements of `iter` at the end, in order. A `Vec` takes an
    /// iterator that knows its length (a range mapped to values) with one
    /// reservation and no check per element.
    #[inline]
    fn extend_elems(&mut self, iter: impl Iterator<Item = T>) {
        iter.for_each(|t| self.push_elem(t));
    }
    /// The elements, in order, for the backward direction.
    fn elems(&self) -> Vec<T>;
}

impl<T: Clone> Sequence<T> for Vec<T> {
    #[inline]
    fn with_capacity(n: usize) -> Self {
        Vec::with_capacity(n)
    }
    #[inline]
    fn push_elem(&mut self, t: T) {
        self.push(t)
    }
    #[inline]
    fn extend_elems(&mut self, iter: impl Iterator<Item = T>) {
        self.extend(iter)
    }
    fn elems(&self) -> Vec<T> {
        self.clone()
    }
}

impl Sequence<char> for String {
    #[inline]
    fn with_capacity(n: usize) -> Self {
        String::with_capacity(n)
    }
    #[inline]
    fn push_elem(&mut self, t: char) {
        self.push(t)
    }
    #[inline]
    fn extend_elems(&mut self, iter: impl Iterator<Item = char>) {
        self.extend(iter)
    }
    fn elems(&self) -> Vec<char> {
        self.chars().collect()
    }
}

/// `n` integer choices in `0..=span()` drawn from `rng` as `n` calls of
/// [`sample`] draw them, each made a value by `value` and added at the end
/// of `out`: the fast path of a collection of integers or chars. The cases
/// of the span (one answer, every word, a range to scale into) are told
/// apart once, and a `Vec` is filled without a check per element. The
/// span is a function so that a constant one (a [`ConstInt`]'s) stays a
/// constant in the loop's code even where the loop is not inlined.
///
/// [`ConstInt`]: crate::combinators::ConstInt
#[inline(always)]
pub(crate) fn fill_draws<T, C: Sequence<T>>(
    rng: &mut DetRng,
    span: impl Fn() -> u64 + Copy,
    n: usize,
    out: &mut C,
    value: impl Fn(u64) -> T,
) {
    use rand::RngCore;
    match span().checked_add(1) {
        Some(1) => out.extend_elems((0..n).map(|_| value(0))),
        None => out.extend_elems((0..n).map(|_| value(rng.next_u64()))),
        Some(_) => out.extend_elems((0..n).map(|_| value(draw_below(rng, span() + 1)))),
    }
}

//! The generators: constants, pick, scalars, regex strings, options, collections, bind, recursion.
//!
//! Constants, `pick`, `map`, parts, filters, `at`/`bind` (and the plain
//! [`Gen::bind`], which does not refgen: [`Then`]), recursion and
//! generators from functions are here; scalars (integers, `bool`, chars,
//! floats) and containers (`Option`, sequences, tuples) have a module each,
//! re-exported here, and so is the generator of the strings a regular
//! expression matches ([`fn@regex`], whose module, [`mod@regex`], is also
//! the crate's `regex`).
//!
//! Every function that makes a generator can be named from here, so one
//! `use` brings what a `with = ...` or `#[gen(...)]` expression needs:
//!
//! ```
//! use refgen::combinators::*;
//! use refgen::{generate, Gen};
//!
//! let pair = (int(0u8..=9), regex("[a-z]{2,4}"));
//! let (n, s) = generate(&pair, 1).unwrap();
//! assert!(n <= 9 && (2..=4).contains(&s.len()));
//! let words = vec(string(char_class(&[('a', 'z')]), 1..=3), 0..=2);
//! assert!(generate(&words, 2).unwrap().len() <= 2);
//! ```

use crate::choice::{Choice, ChoiceTree, Opt, Request, Site};
use crate::gen::{one_forward_body, Answerer, BoxGen, Gen, Way};
use crate::source::{Source, Stop};
use std::fmt::Debug;
use std::marker::PhantomData;

mod bridges;
mod chars;
mod collections;
pub(crate) mod depth;
mod floats;
mod integers;
pub mod regex;
pub mod sizes;

/// Moved to [`crate::gen::Sequence`]; kept here so that old paths still compile.
#[doc(hidden)]
pub use crate::gen::Sequence;
pub use crate::gen::{
    failed_attempts, retrying, retrying_completable, retrying_dead_ends, At, Bind, Filter, Map, Part, Then,
    DEFAULT_RETRIES, RETRY_BUDGET,
};
pub use crate::overrides::{overriding, Overriding};
#[cfg(feature = "arbitrary")]
pub use bridges::{arbitrary, ArbitraryGen};
pub use bridges::{from_rng, FromRng};
pub use chars::{any_char, bool, char, char_class, Bool, CharClass};
pub(crate) use collections::POSITIONS;
pub use collections::{option, sized_string, sized_vec, string, vec, Collection, OptionGen};
pub(crate) use collections::{sequence_forward, Length};
pub use depth::{DEFAULT_DEPTH, HARD_DEPTH};
pub use floats::{float, FloatValue};
pub use integers::{any_int, int, integer, nonzero_integer, ConstInt, Int, IntValue};
pub use regex::{regex, Regex};

// ---------------------------------------------------------------- constants

/// Always `value`; backward, accepts only a value equal to it.
#[derive(Debug, Clone)]
pub struct Just<T>(pub T);

/// A generator that always gives `value` and, backward, checks that the
/// value it is given equals it.
pub fn just<T: Clone + PartialEq>(value: T) -> Just<T> {
    Just(value)
}

impl<T: Clone + PartialEq> Just<T> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, _a: &mut A) -> Result<T, Stop> {
        Ok(self.0.clone())
    }
}

impl<T: Clone + PartialEq> Gen for Just<T> {
    type Value = T;
    one_forward_body!();
    fn back(&self, target: &T) -> Vec<Way> {
        if *target == self.0 {
            vec![Way::empty()]
        } else {
            Vec::new()
        }
    }
}

/// The monadic `return`: always `value`; backward, accepts any value
/// unchecked. Use it at the end of a [`At::bind`] chain, whose projections
/// already took the value apart; use [`just`] elsewhere.
#[derive(Debug, Clone)]
pub struct Pure<T>(pub T);

/// See [`Pure`].
pub fn pure<T: Clone>(value: T) -> Pure<T> {
    Pure(value)
}

impl<T: Clone> Pure<T> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, _a: &mut A) -> Result<T, Stop> {
        Ok(self.0.clone())
    }
}

impl<T: Clone> Gen for Pure<T> {
    type Value = T;
    one_forward_body!();
    fn back(&self, _target: &T) -> Vec<Way> {
        vec![Way::empty()]
    }
}

/// The generator with no values.
#[derive(Debug)]
pub struct Void<T>(PhantomData<fn() -> T>);

/// See [`Void`].
pub fn void<T>() -> Void<T> {
    Void(PhantomData)
}

impl<T> Gen for Void<T> {
    type Value = T;
    fn run(&self, _src: &mut dyn Source) -> Result<T, Stop> {
        Err(Stop::Void)
    }
    fn back(&self, _target: &T) -> Vec<Way> {
        Vec::new()
    }
}

// ---------------------------------------------------------------- pick

/// A labelled, weighted choice among sub-generators (Goldstein's `pick`).
pub struct Pick<T> {
    site: Site,
    options: Vec<Opt>,
    total: u64,
    gens: Vec<BoxGen<T>>,
}

/// A choice point `site` among `(label, weight, generator)` options.
/// The first option should be the non-recursive one: lenient replay takes
/// it when the choices run out.
///
/// # Panics
/// When there is no option, a weight is 0, or two labels are equal: these
/// are mistakes in the generator's definition, not in its input.
pub fn pick<T, I>(site: Site, options: I) -> Pick<T>
where
    I: IntoIterator<Item = (&'static str, u32, BoxGen<T>)>,
{
    let mut opts = Vec::new();
    let mut gens = Vec::new();
    for (label, weight, g) in options {
        assert!(
            weight > 0,
            "pick `{site}`: option `{label}` has weight 0; give it a weight of at least 1 or leave it out"
        );
        assert!(
            !opts.iter().any(|o: &Opt| o.label == label),
            "pick `{site}`: the label `{label}` is used twice; labels name options and must differ"
        );
        opts.push(Opt { label, weight });
        gens.push(g);
    }
    assert!(!opts.is_empty(), "pick `{site}` has no option; use `void()` for a generator with no values");
    let total = total(&opts);
    Pick { site, options: opts, total, gens }
}

impl<T> Pick<T> {
    /// The options of this pick.
    pub fn options(&self) -> &[Opt] {
        &self.options
    }

    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<T, Stop> {
        let c = pick_choose(a, self.site, &self.options, self.total)?;
        match self.gens.get(c as usize) {
            Some(g) => a.sub_leave(&**g),
            None => {
                a.leave();
                Err(Stop::Rejected)
            }
        }
    }
}

impl<T> Gen for Pick<T> {
    type Value = T;
    one_forward_body!();
    fn back(&self, target: &T) -> Vec<Way> {
        let mut out = Vec::new();
        for (i, g) in self.gens.iter().enumerate() {
            out.extend(pick_ways(self.site, &self.options, self.total, i, g.back(target)));
        }
        out
    }
}

/// The sum of the weights of `options`.
pub(crate) const fn total(options: &[Opt]) -> u64 {
    let mut t = 0u64;
    let mut i = 0;
    while i < options.len() {
        t += options[i].weight as u64;
        i += 1;
    }
    t
}

/// The forward step of every pick: asks `a` (a source or the RNG) for one
/// of `options` (whose weights sum to `total`) at the choice point `site`,
/// opening its node. The caller runs the chosen option's sub-generator,
/// then calls [`Answerer::leave`]. The backward counterpart is [`pick_ways`].
#[inline]
pub(crate) fn pick_choose<A: Answerer + ?Sized>(
    a: &mut A,
    site: Site,
    options: &[Opt],
    total: u64,
) -> Result<Choice, Stop> {
    a.choose(site, Request::Pick { options, total })
}

/// The backward step of every pick: the ways of option `index`'s
/// sub-generator (`ways`), each wrapped in the pick's choice node at `site`
/// and weighted by the option's probability (`weight / total`). No way when
/// there is no such option.
pub(crate) fn pick_ways(site: Site, options: &[Opt], total: u64, index: usize, ways: Vec<Way>) -> Vec<Way> {
    let Some(opt) = options.get(index) else { return Vec::new() };
    let p = opt.weight as f64 / total as f64;
    ways.into_iter()
        .map(|w| Way { forest: vec![ChoiceTree::choice(site, index as Choice, w.forest)], prob: w.prob * p })
        .collect()
}

// ---------------------------------------------------------------- recursion

/// A recursive generator whose recursion depth is at most `depth`.
///
/// `body` receives the generator for one level down (`None` at the bottom,
/// where it must give a non-recursive generator) and returns the generator
/// for its level. The `depth + 1` levels are built once and shared, so
/// generation terminates by construction and allocates no generator per value.
///
/// When the levels above begin with a pick and the bottom level does not
/// (it is `just(Leaf)`, say, where they pick between `Leaf` and `Node`),
/// the bottom level is made a one-option pick at the same site, labelled
/// as the first option above: every level then records the same shape, so
/// a subtree taken from any depth replays at any other and a value costs
/// the same choices at every depth, which shrinking by reflection relies on.
pub fn recursive<T: 'static>(depth: usize, body: impl Fn(Option<BoxGen<T>>) -> BoxGen<T>) -> BoxGen<T> {
    let mut g = body(None);
    if depth > 0 {
        g = shaped_like(g, &*body(Some(body(None))));
    }
    for _ in 0..depth {
        g = body(Some(g));
    }
    g
}

/// `base` as a one-option pick at the site of the pick `above` begins
/// with, labelled as its first option; `base` itself when `above` does not
/// begin with a pick or `base` begins with the same one.
fn shaped_like<T: 'static>(base: BoxGen<T>, above: &dyn Gen<Value = T>) -> BoxGen<T> {
    use crate::choice::OwnedRequest;
    use crate::source::FirstPick;
    let Some((site, OwnedRequest::Pick { options, .. })) = FirstPick::of(|s| above.run(s)) else { return base };
    if FirstPick::of(|s| base.run(s)).is_some_and(|(b, _)| b == site) {
        return base;
    }
    pick(site, [(options[0].label, 1, base)]).boxed()
}

/// A generator built on first use, for recursion written as plain
/// functions (e.g. Goldstein's `refBST (lo, hi)`, whose sub-generators
/// depend on earlier values and so are built during generation anyway).
pub struct Lazy<T> {
    make: Box<dyn Fn() -> BoxGen<T>>,
    cell: std::cell::OnceCell<BoxGen<T>>,
}

/// See [`Lazy`].
pub fn lazy<T>(make: impl Fn() -> BoxGen<T> + 'static) -> Lazy<T> {
    Lazy { make: Box::new(make), cell: std::cell::OnceCell::new() }
}

impl<T> Lazy<T> {
    fn get(&self) -> &BoxGen<T> {
        self.cell.get_or_init(|| (self.make)())
    }

    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<T, Stop> {
        a.sub(&**self.get())
    }
}

impl<T> Gen for Lazy<T> {
    type Value = T;
    one_forward_body!();
    fn back(&self, target: &T) -> Vec<Way> {
        self.get().back(target)
    }
}

// ---------------------------------------------------------------- from a function

/// A generator from a pair of functions, for a new kind of building block
/// without a named type.
pub struct FromFns<T, R, B> {
    run: R,
    back: B,
    _t: PhantomData<fn() -> T>,
}

/// See [`FromFns`]: `run` is the forward direction, `back` the backward one.
pub fn from_fns<T, R, B>(run: R, back: B) -> FromFns<T, R, B>
where
    R: Fn(&mut dyn Source) -> Result<T, Stop>,
    B: Fn(&T) -> Vec<Way>,
{
    FromFns { run, back, _t: PhantomData }
}

impl<T, R, B> Gen for FromFns<T, R, B>
where
    R: Fn(&mut dyn Source) -> Result<T, Stop>,
    B: Fn(&T) -> Vec<Way>,
{
    type Value = T;
    fn run(&self, src: &mut dyn Source) -> Result<T, Stop> {
        (self.run)(src)
    }
    fn back(&self, target: &T) -> Vec<Way> {
        (self.back)(target)
    }
}

//! Container generators: `Option`, sequences (`Vec`, `String`) with a length choice, and tuples.

use super::integers::{int, Int};
use super::sizes;
use super::{pick_choose, pick_ways, total};
use crate::choice::{ChoiceTree, Opt, Site};
use crate::gen::{one_forward_body, product, Gen, Way};
use crate::gen::{Answerer, Sequence};
use crate::source::Stop;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::ops::RangeInclusive;

// ---------------------------------------------------------------- option

/// `None` or `Some` of a sub-generator's value: a pick with labels
/// `"None"` (weight 1, first, so lenient replay's default) and `"Some"`.
#[derive(Debug, Clone)]
pub struct OptionGen<G> {
    site: Site,
    gen: G,
    options: [Opt; 2],
    /// A depth budget: at or past it (see [`super::DEFAULT_DEPTH`]), only `None` is offered.
    depth: Option<usize>,
}

/// `None` with weight 1, `Some(g)` with weight 3, at the site `"option"`.
pub fn option<G: Gen>(gen: G) -> OptionGen<G> {
    OptionGen {
        site: "option",
        gen,
        options: [Opt { label: "None", weight: 1 }, Opt { label: "Some", weight: 3 }],
        depth: None,
    }
}

impl<G> OptionGen<G> {
    /// The same generator, at the choice point `site`.
    pub fn site(mut self, site: Site) -> Self {
        self.site = site;
        self
    }

    /// The same generator with these weights for `None` and `Some`.
    ///
    /// # Panics
    /// When a weight is 0.
    pub fn weights(mut self, none: u32, some: u32) -> Self {
        assert!(none > 0 && some > 0, "option: weights must be at least 1");
        self.options[0].weight = none;
        self.options[1].weight = some;
        self
    }

    /// The same generator, offering only `None` once the derived generators
    /// running around it reach the depth budget `depth` (see
    /// [`super::DEFAULT_DEPTH`]): how a derived type's `Option`
    /// field of a recursive type ends its recursion.
    pub fn depth_limit(mut self, depth: usize) -> Self {
        self.depth = Some(depth);
        self
    }

    /// The options offered now: only `None` (the base option) at the depth
    /// budget, as a derived enum offers only its base variants.
    fn offered(&self) -> &[Opt] {
        super::depth::offered(&self.options, 1, self.depth.is_some_and(super::depth::at_budget))
    }
}

impl<G: Gen> OptionGen<G> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<Option<G::Value>, Stop> {
        let options = self.offered();
        let c = pick_choose(a, self.site, options, total(options))?;
        let r = match c {
            0 => Ok(None),
            1 if options.len() > 1 => a.sub(&self.gen).map(Some),
            _ => Err(Stop::Rejected),
        };
        a.leave();
        r
    }
}

impl<G: Gen> Gen for OptionGen<G> {
    type Value = Option<G::Value>;
    one_forward_body!();
    fn back(&self, target: &Self::Value) -> Vec<Way> {
        let options = self.offered();
        match target {
            None => pick_ways(self.site, options, total(options), 0, vec![Way::empty()]),
            Some(v) => pick_ways(self.site, options, total(options), 1, self.gen.back(v)),
        }
    }
}

// ---------------------------------------------------------------- collections

/// How a collection's length is chosen: uniformly in a range (one integer
/// choice point), or at a default length (one weighted pick, see [`super::sizes`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Length {
    Range(Int<usize>),
    Sized(Site),
}

impl Length {
    fn site(self, site: Site) -> Self {
        match self {
            Length::Range(len) => Length::Range(len.site(site)),
            Length::Sized(_) => Length::Sized(site),
        }
    }

    /// The ways of the length `n`.
    pub(crate) fn ways(&self, n: usize) -> Vec<Way> {
        match self {
            Length::Range(len) => len.back(&n),
            Length::Sized(site) => sizes::len_ways(site, n),
        }
    }
}

/// A length (see [`vec()`], [`sized_vec`]), then that many elements, each
/// recorded as a part named by the element site.
#[derive(Debug, Clone)]
pub struct Collection<G, C> {
    pub(crate) len: Length,
    pub(crate) elem_site: Site,
    pub(crate) gen: G,
    pub(crate) _c: PhantomData<fn() -> C>,
}

/// A `Vec` whose length is uniform in `len` (site `"len"`), elements from `gen` (parts `"elem"`).
pub fn vec<G: Gen>(gen: G, len: RangeInclusive<usize>) -> Collection<G, Vec<G::Value>> {
    Collection { len: Length::Range(int(len).site("len")), elem_site: "elem", gen, _c: PhantomData }
}

/// A `String` whose length in chars is uniform in `len`, chars from `gen`.
pub fn string<G: Gen<Value = char>>(gen: G, len: RangeInclusive<usize>) -> Collection<G, String> {
    Collection { len: Length::Range(int(len).site("len")), elem_site: "elem", gen, _c: PhantomData }
}

/// A `Vec` of default length, as `Vec<T>`'s own generator makes it: short
/// most often, up to the largest size at times, within one budget of
/// elements per value (see [`super::sizes`]).
///
/// ```
/// use refgen::combinators::{int, sized_vec};
/// use refgen::generate;
///
/// let lens: Vec<usize> = (0..200).map(|s| generate(&sized_vec(int(0u8..=9)), s).unwrap().len()).collect();
/// assert!(lens.iter().filter(|&&n| n <= 4).count() > 100);
/// assert!(lens.iter().any(|&n| n > 16) && lens.iter().all(|&n| n <= 100));
/// ```
pub fn sized_vec<G: Gen>(gen: G) -> Collection<G, Vec<G::Value>> {
    Collection { len: Length::Sized("len"), elem_site: "elem", gen, _c: PhantomData }
}

/// A `String` of default length in chars, chars from `gen` (see [`sized_vec`]).
pub fn sized_string<G: Gen<Value = char>>(gen: G) -> Collection<G, String> {
    Collection { len: Length::Sized("len"), elem_site: "elem", gen, _c: PhantomData }
}

impl<G, C> Collection<G, C> {
    /// The same generator with its length at the choice point `len_site`
    /// and its elements recorded as parts named `elem_site`.
    pub fn sites(mut self, len_site: Site, elem_site: Site) -> Self {
        self.len = self.len.site(len_site);
        self.elem_site = elem_site;
        self
    }
}

/// The most elements a collection reserves room for before they are made:
/// a length read from a choice sequence may be far more than the sequence
/// can supply (a parse fails at the first missing element, long before).
const MAX_PREALLOC: usize = 4096;

impl<G: Gen, C: Sequence<G::Value>> Collection<G, C> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<C, Stop> {
        sequence_forward(a, &self.len, self.elem_site, &self.gen)
    }
}

/// The forward direction of every collection ([`Collection`], a derived
/// type's sequence fields): a length from `len`,
/// then that many elements from `gen`, each the part `elem_site`.
#[inline]
pub(crate) fn sequence_forward<A, G, C>(a: &mut A, len: &Length, elem_site: Site, gen: &G) -> Result<C, Stop>
where
    A: Answerer + ?Sized,
    G: Gen,
    C: Sequence<G::Value>,
{
    let (n, open) = match len {
        Length::Range(len) => (a.sub(len)?, None),
        Length::Sized(site) => (sizes::choose_len(a, site)?, Some(sizes::Open::enter())),
    };
    let mut out = C::with_capacity(n.min(MAX_PREALLOC));
    a.repeat(gen, n, Some(elem_site), &mut out)?;
    drop(open);
    Ok(out)
}

impl<G: Gen, C: Sequence<G::Value>> Gen for Collection<G, C> {
    type Value = C;
    one_forward_body!();
    fn back(&self, target: &C) -> Vec<Way> {
        let elems = target.elems();
        let mut ways = self.len.ways(elems.len());
        for e in &elems {
            if ways.is_empty() {
                break;
            }
            let parts: Vec<Way> = self
                .gen
                .back(e)
                .into_iter()
                .map(|w| Way { forest: vec![ChoiceTree::group(self.elem_site, w.forest)], prob: w.prob })
                .collect();
            ways = product(ways, &parts);
        }
        ways
    }
}

// ---------------------------------------------------------------- tuples

/// Site names of tuple components, by position.
pub(crate) const POSITIONS: [Site; 16] =
    ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"];

/// The one forward body of a tuple of generators (a tuple can have no
/// inherent method): each component as the part named by its position.
trait TupleForward: Gen {
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<Self::Value, Stop>;
}

macro_rules! tuple_gen {
    ($($g:ident $v:ident $i:tt),+) => {
        impl<$($g: Gen),+> TupleForward for ($($g,)+)
        where $($g::Value: Clone),+
        {
            #[inline]
            fn forward<S: Answerer + ?Sized>(&self, src: &mut S) -> Result<Self::Value, Stop> {
                if !src.tracks_parts() {
                    // Each part's result is checked as it comes (a stop
                    // ends the run before the next part draws), but its
                    // value is moved into the tuple only once every part is
                    // made: moved at once, a value the callee has just
                    // stored word by word was reloaded in wider pieces,
                    // which the processor cannot forward from its pending
                    // stores.
                    $(
                        let $v = src.sub(&self.$i);
                        if let Err(stop) = &$v {
                            return Err(*stop);
                        }
                    )+
                    return Ok(($($v?,)+));
                }
                $(
                    src.enter(POSITIONS[$i]);
                    let $v = src.sub(&self.$i);
                    src.leave();
                    let $v = $v?;
                )+
                Ok(($($v,)+))
            }
        }

        impl<$($g: Gen),+> Gen for ($($g,)+)
        where $($g::Value: Clone),+
        {
            type Value = ($($g::Value,)+);
            one_forward_body!();
            fn back(&self, target: &Self::Value) -> Vec<Way> {
                let mut ways = vec![Way::empty()];
                $(
                    if ways.is_empty() { return ways; }
                    let part: Vec<Way> = self.$i.back(&target.$i).into_iter()
                        .map(|w| Way { forest: vec![ChoiceTree::group(POSITIONS[$i], w.forest)], prob: w.prob })
                        .collect();
                    ways = product(ways, &part);
                )+
                ways
            }
        }
    };
}
tuple_gen!(A a 0);
tuple_gen!(A a 0, B b 1);
tuple_gen!(A a 0, B b 1, C c 2);
tuple_gen!(A a 0, B b 1, C c 2, D d 3);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9, K k 10);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9, K k 10, L l 11);

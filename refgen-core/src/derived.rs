//! Runtime support for `#[derive(Reflective)]`: the generator cache and depth-aware parts.
//!
//! Code written by the derive calls into this module, through the hidden
//! [`crate::__private`]; users do not need it directly (its items are not
//! part of the stable API).
//!
//! # The depth budget
//!
//! Every derived generator counts how many derived generators are running
//! around it (its *level*; 0 for the outermost), in one counter per thread
//! shared by all derived types, so mutually recursive types share it too. A
//! derived enum whose level is at least its type's depth budget (default
//! [`DEFAULT_DEPTH`], set with `#[reflect(depth = N)]`) offers only its base
//! options, which the derive puts first; a depth-aware collection
//! ([`SeqField`], [`option_field`]) of a possibly recursive element offers only
//! its shortest length (or `None`). Both directions count the same way, so
//! generation, parsing and reflection agree on which choices exist. As a last
//! resort against types whose base options still recurse, a derived
//! generator at level [`HARD_DEPTH`] stops with [`Stop::Void`].

use crate::args::{BoxGenWith, ReflectiveWith, WithArgs};
use crate::choice::{ChoiceTree, Opt, Site};
use crate::combinators::depth::{self, at_budget, offered};
pub use crate::combinators::depth::{DEFAULT_DEPTH, HARD_DEPTH};
use crate::combinators::{
    int, option, pick_choose, pick_ways, sequence_forward, total, Collection, Length, OptionGen, Part,
};
use crate::gen::{one_forward_body, product, Answerer, BoxGen, Gen, Sequence, Way};
use crate::source::Stop;
use std::any::{Any, TypeId};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::marker::PhantomData;

thread_local! {
    static CACHE: RefCell<HashMap<TypeId, Box<dyn Any>>> = RefCell::new(HashMap::new());
}

/// One derived generator running: raises the level while alive.
#[derive(Debug)]
pub struct Frame {
    level: usize,
}

impl Frame {
    /// Enter a derived generator; the level drops back when the frame is dropped.
    #[inline]
    pub fn enter() -> Frame {
        Frame { level: depth::enter() }
    }

    /// The level of this frame: how many derived generators run around it.
    pub fn level(&self) -> usize {
        self.level
    }

    /// Whether this frame is at or past the depth budget `depth`.
    #[inline]
    pub fn at_limit(&self, depth: usize) -> bool {
        self.level >= depth
    }

    /// Whether this frame is past the hard limit [`HARD_DEPTH`].
    #[inline]
    pub fn too_deep(&self) -> bool {
        self.level >= HARD_DEPTH
    }
}

impl Drop for Frame {
    #[inline]
    fn drop(&mut self) {
        depth::leave(self.level);
    }
}

/// The generator of `T`, made by `make` once per thread and shared after.
pub fn cached<T: 'static>(make: fn() -> BoxGen<T>) -> BoxGen<T> {
    cached_as(TypeId::of::<T>(), make)
}

/// The value under `key` in the thread's cache, made by `make` the first time (a `make` that asks
/// for the same key while it runs gets its own, and the first one stored is kept).
fn cached_as<V: Clone + 'static>(key: TypeId, make: fn() -> V) -> V {
    let hit = CACHE.with(|c| c.borrow().get(&key).and_then(|b| b.downcast_ref::<V>()).cloned());
    if let Some(g) = hit {
        return g;
    }
    let g = make();
    CACHE.with(|c| {
        c.borrow_mut().entry(key).or_insert_with(|| Box::new(g.clone())).downcast_ref::<V>().cloned().unwrap_or(g)
    })
}

/// The pick of a derived enum: its site and its options, of which the
/// first `base` (the base variants) are the only ones offered at the depth
/// budget. A constant of the expansion, with both totals computed once.
#[derive(Debug, Clone, Copy)]
pub struct Variants {
    site: Site,
    options: &'static [Opt],
    base: usize,
    total: u64,
    base_total: u64,
}

impl Variants {
    /// The pick at `site` among `options`, the first `base` of them the base variants.
    ///
    /// # Panics
    /// When `base` is more than the number of options (at compile time, in a constant).
    pub const fn new(site: Site, options: &'static [Opt], base: usize) -> Self {
        let total_all = total(options);
        let total_base = total(options.split_at(base).0);
        Variants { site, options, base, total: total_all, base_total: total_base }
    }

    /// The options offered and their total: the base ones only when `limited`.
    #[inline]
    fn offered(&self, limited: bool) -> (&'static [Opt], u64) {
        (offered(self.options, self.base, limited), if limited { self.base_total } else { self.total })
    }

    /// Answers the pick with `src` (the base options only when `limited`),
    /// opening its node. Returns the index of the variant.
    #[inline]
    pub fn choose<A: Answerer + ?Sized>(&self, src: &mut A, limited: bool) -> Result<u64, Stop> {
        let (options, total) = self.offered(limited);
        pick_choose(src, self.site, options, total)
    }

    /// Wraps the ways of variant `index`'s fields in the pick's node (the
    /// backward counterpart of [`Variants::choose`]); no way when the
    /// variant is not offered (`limited`, and not a base variant).
    pub fn ways(&self, limited: bool, index: usize, fields: Vec<Way>) -> Vec<Way> {
        let (options, total) = self.offered(limited);
        pick_ways(self.site, options, total, index, fields)
    }

    /// The options offered under guards: those whose bit is set in
    /// `allowed` (bit `i` for option `i`), the base ones among them when
    /// `limited`; when the guards allow no base option at the depth budget,
    /// every allowed one (the arguments bound the recursion there; the hard
    /// depth still stops it). Empty when the guards allow nothing.
    #[inline]
    pub fn offered_mask(&self, limited: bool, allowed: u64) -> u64 {
        let all = if self.options.len() >= 64 { u64::MAX } else { (1u64 << self.options.len()) - 1 };
        let allowed = allowed & all;
        let base = if self.base >= 64 { u64::MAX } else { (1u64 << self.base) - 1 };
        if limited && allowed & base != 0 {
            allowed & base
        } else {
            allowed
        }
    }

    /// Whether variant `index` is offered under the guards `allowed` (see [`Variants::offered_mask`]).
    #[inline]
    pub fn offers(&self, limited: bool, allowed: u64, index: usize) -> bool {
        index < 64 && self.offered_mask(limited, allowed) & (1 << index) != 0
    }

    /// [`Variants::choose`] with only the options allowed by guards offered
    /// (see [`Variants::offered_mask`]); they keep their order, so the
    /// choice is the position among those offered. [`Stop::Void`] when
    /// the guards allow no option.
    #[inline]
    pub fn choose_among<A: Answerer + ?Sized>(&self, src: &mut A, limited: bool, allowed: u64) -> Result<u64, Stop> {
        let mask = self.offered_mask(limited, allowed);
        if mask == 0 {
            return Err(Stop::Void);
        }
        let prefix = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        if mask == prefix(self.options.len()) || mask == prefix(self.base) {
            // A prefix: the options as they are.
            let n = mask.count_ones() as usize;
            let options = &self.options[..n];
            return pick_choose(src, self.site, options, total(options));
        }
        let picked = with_masked(self.options, mask, |options, total| pick_choose(src, self.site, options, total))?;
        Ok(nth_bit(mask, picked as u32))
    }

    /// [`Variants::ways`] under the guards `allowed`: the backward counterpart of [`Variants::choose_among`].
    pub fn ways_among(&self, limited: bool, allowed: u64, index: usize, fields: Vec<Way>) -> Vec<Way> {
        if !self.offers(limited, allowed, index) {
            return Vec::new();
        }
        let mask = self.offered_mask(limited, allowed);
        let position = (mask & ((1u64 << index) - 1)).count_ones() as usize;
        with_masked(self.options, mask, |options, total| pick_ways(self.site, options, total, position, fields))
    }
}

/// Runs `f` on the options whose bits are set in `mask`, in order, and their total weight.
fn with_masked<R>(options: &[Opt], mask: u64, f: impl FnOnce(&[Opt], u64) -> R) -> R {
    const ON_STACK: usize = 8;
    let chosen = options.iter().enumerate().filter(|(i, _)| *i < 64 && mask & (1 << i) != 0).map(|(_, o)| *o);
    if mask.count_ones() as usize <= ON_STACK {
        let mut buf = [Opt { label: "", weight: 0 }; ON_STACK];
        let mut n = 0;
        for o in chosen {
            buf[n] = o;
            n += 1;
        }
        f(&buf[..n], total(&buf[..n]))
    } else {
        let v: Vec<Opt> = chosen.collect();
        f(&v, total(&v))
    }
}

/// The index of the `n`-th set bit of `mask` (from 0).
fn nth_bit(mask: u64, n: u32) -> u64 {
    let mut m = mask;
    for _ in 0..n {
        m &= m - 1;
    }
    u64::from(m.trailing_zeros())
}

/// The body of `T`'s generator that takes arguments, made by `make` once
/// per thread and shared after.
pub fn cached_body<T: ReflectiveWith>(make: fn() -> BoxGenWith<T::Args, T>) -> BoxGenWith<T::Args, T> {
    cached_as(TypeId::of::<WithArgs<T>>(), make)
}

/// Runs one field's generator as the part `site` (a group in the choice
/// tree), with the answerer of the derived generator's forward body.
#[inline]
pub fn run_part<G: Gen + ?Sized, A: Answerer + ?Sized>(g: &G, site: Site, src: &mut A) -> Result<G::Value, Stop> {
    src.sub(&Part { gen: g, site })
}

/// The ways of one field's generator as the part `site`, appended to `ways`.
/// An empty result means the value cannot be made.
pub fn back_part(ways: Vec<Way>, site: Site, field: Vec<Way>) -> Vec<Way> {
    if ways.is_empty() || field.is_empty() {
        return Vec::new();
    }
    let part: Vec<Way> =
        field.into_iter().map(|w| Way { forest: vec![ChoiceTree::group(site, w.forest)], prob: w.prob }).collect();
    product(ways, &part)
}

/// A `Vec` or `String` field: a length in `lo..=hi` (an integer choice point
/// at `site`), or of default length ([`SeqField::sized`]), then that many
/// elements from `elem`, each the part `"elem"`.
/// When `limited` (the element may recurse) and the enclosing derived
/// generator is at its depth budget, only the length `lo` is offered. The
/// element generator is kept unboxed, so its calls are static.
pub struct SeqField<G, C> {
    lo: usize,
    depth: usize,
    limited: bool,
    /// The length generator, and the one at the depth budget (only `lo`).
    len: Length,
    base_len: Length,
    elem: G,
    _c: PhantomData<fn() -> C>,
}

impl<G, C> SeqField<G, C> {
    /// See [`SeqField`].
    ///
    /// # Panics
    /// When `lo > hi`.
    pub fn new(site: Site, lo: usize, hi: usize, depth: usize, limited: bool, elem: G) -> Self {
        assert!(lo <= hi, "the length range {lo}..={hi} of `{site}` is empty; write it low..=high");
        let len = Length::Range(int(lo..=hi).site(site));
        SeqField { lo, depth, limited, len, base_len: Length::Range(int(lo..=lo).site(site)), elem, _c: PhantomData }
    }

    /// A field of default length (see [`crate::combinators::sizes`]): the
    /// field's type without `len`.
    pub fn sized(site: Site, depth: usize, limited: bool, elem: G) -> Self {
        let base_len = Length::Range(int(0..=0).site(site));
        SeqField { lo: 0, depth, limited, len: Length::Sized(site), base_len, elem, _c: PhantomData }
    }

    /// The length generator for the current level.
    #[inline]
    fn len(&self) -> &Length {
        if self.limited && at_budget(self.depth) {
            &self.base_len
        } else {
            &self.len
        }
    }

    /// The collection generator for the current level.
    fn now(&self) -> Collection<&G, C> {
        Collection { len: *self.len(), elem_site: "elem", gen: &self.elem, _c: PhantomData }
    }
}

impl<G: Gen, C: Sequence<G::Value>> SeqField<G, C> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<C, Stop> {
        sequence_forward(a, self.len(), "elem", &self.elem)
    }
}

impl<G: Gen, C: Sequence<G::Value>> Gen for SeqField<G, C> {
    type Value = C;
    one_forward_body!();
    fn back(&self, target: &C) -> Vec<Way> {
        self.now().back(target)
    }
}

/// The generator of an `Option` field: the [`option`] combinator at `site`
/// (`"None"` with weight 1, first; `"Some"` with weight 3) over `inner`.
/// When `limited` (the inner type may recurse), only `"None"` is offered
/// once the enclosing derived generator is at its depth budget `depth`.
pub fn option_field<G: Gen>(site: Site, depth: usize, limited: bool, inner: G) -> OptionGen<G> {
    let g = option(inner).site(site);
    if limited {
        g.depth_limit(depth)
    } else {
        g
    }
}

/// A collection a field's `#[choice(len = .., each(..) / key(..), value(..))]`
/// builds from a `Vec` of its entries: sets, maps and `VecDeque`.
pub trait Entries: FromIterator<Self::Entry> + 'static {
    /// An element, or a `(key, value)` pair of a map.
    type Entry: Clone + 'static;
    /// The entries, in the collection's own iteration order.
    fn entries(&self) -> Vec<Self::Entry>;
}

impl<T: Clone + 'static> Entries for std::collections::VecDeque<T> {
    type Entry = T;
    fn entries(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }
}

impl<T: Clone + Ord + 'static> Entries for std::collections::BTreeSet<T> {
    type Entry = T;
    fn entries(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }
}

impl<T: Clone + Eq + std::hash::Hash + 'static> Entries for std::collections::HashSet<T> {
    type Entry = T;
    fn entries(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }
}

impl<K: Clone + Ord + 'static, V: Clone + 'static> Entries for std::collections::BTreeMap<K, V> {
    type Entry = (K, V);
    fn entries(&self) -> Vec<(K, V)> {
        self.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }
}

impl<K: Clone + Eq + std::hash::Hash + 'static, V: Clone + 'static> Entries for std::collections::HashMap<K, V> {
    type Entry = (K, V);
    fn entries(&self) -> Vec<(K, V)> {
        self.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }
}

/// A collection field made from the `Vec` of its entries that `seq` makes.
/// A set or map may hold fewer entries than were generated (duplicates
/// collapse); backward, such a value is reflected as its entries with the
/// first one repeated up to the shortest length `seq` makes.
pub fn collected<C, G>(seq: SeqField<G, Vec<C::Entry>>) -> impl Gen<Value = C>
where
    C: Entries,
    G: Gen<Value = C::Entry>,
{
    let lo = seq.lo;
    let back = move |c: &C| {
        let mut entries = c.entries();
        if let Some(first) = entries.first().cloned() {
            while entries.len() < lo {
                entries.push(first.clone());
            }
        }
        Some(entries)
    };
    seq.map(|v: Vec<C::Entry>| v.into_iter().collect(), back)
}

/// Type-checks a `#[choice(with = ...)]` generator against its field's type
/// (errors point at the expression).
#[inline]
pub fn with_gen<T, G: Gen<Value = T>>(g: G) -> impl Gen<Value = T> {
    g
}

/// The backward direction of a field made by `#[choice(with = gen)]` with
/// `#[at(project)]`: `project` takes the field's value to the value `gen`
/// made (`None` where it cannot come from `gen`), and `gen` is reflected on it.
pub fn back_at<T, G: Gen, F: Fn(&T) -> Option<G::Value>>(gen: &G, field: &T, project: F) -> Vec<Way> {
    match project(field) {
        Some(v) => gen.back(&v),
        None => Vec::new(),
    }
}

/// One run of a derived generator with an `#[assume(..., top)]`: counts,
/// in the generator's own cell, the runs of it under way (a guard: the
/// count drops back when it is dropped, a panic included). The outermost
/// run, the only one held to the condition, is the one that found none.
#[derive(Debug)]
pub struct Outermost<'a> {
    cell: &'a Cell<u32>,
    top: bool,
}

impl<'a> Outermost<'a> {
    /// A run begins.
    #[inline]
    pub fn enter(cell: &'a Cell<u32>) -> Self {
        let n = cell.get();
        cell.set(n + 1);
        Outermost { cell, top: n == 0 }
    }

    /// Whether no other run of the generator is under way around this one.
    #[inline]
    pub fn is_top(&self) -> bool {
        self.top
    }
}

impl Drop for Outermost<'_> {
    #[inline]
    fn drop(&mut self) {
        self.cell.set(self.cell.get().saturating_sub(1));
    }
}

/// The type of an `#[assume(...)]` condition: only `bool`.
#[diagnostic::on_unimplemented(
    message = "an `#[assume(...)]` condition must be a `bool`, but this one is `{Self}`",
    label = "not a `bool`",
    note = "write a condition over `self`, such as `#[assume(self.lo <= self.hi)]` or `#[assume(is_valid(self))]`"
)]
pub trait Condition {
    /// The condition's truth.
    fn holds(self) -> bool;
}

impl Condition for bool {
    #[inline]
    fn holds(self) -> bool {
        self
    }
}

/// Type-checks the value of an `#[assume(...)]` condition.
#[inline]
pub fn assume_bool<C: Condition>(c: C) -> bool {
    c.holds()
}

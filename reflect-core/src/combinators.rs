//! Combinators for writing reflective generators by hand: constants, pick, integers, chars, options, collections, tuples, map, bind with `at`, recursion, filters.

use crate::choice::{Choice, ChoiceTree, Opt, Request, Site};
use crate::gen::{product, BoxGen, Gen, Way};
use crate::source::{sample, DetRng, Source, Stop};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::ops::RangeInclusive;
use std::rc::Rc;

// ---------------------------------------------------------------- constants

/// Always `value`; backward, accepts only a value equal to it.
#[derive(Debug, Clone)]
pub struct Just<T>(pub T);

/// A generator that always gives `value` and, backward, checks that the
/// value it is given equals it.
pub fn just<T: Clone + PartialEq>(value: T) -> Just<T> {
    Just(value)
}

impl<T: Clone + PartialEq> Gen for Just<T> {
    type Value = T;
    fn run(&self, _src: &mut dyn Source) -> Result<T, Stop> {
        Ok(self.0.clone())
    }
    #[inline]
    fn run_rng(&self, _rng: &mut DetRng) -> Result<T, Stop> {
        Ok(self.0.clone())
    }
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

impl<T: Clone> Gen for Pure<T> {
    type Value = T;
    fn run(&self, _src: &mut dyn Source) -> Result<T, Stop> {
        Ok(self.0.clone())
    }
    #[inline]
    fn run_rng(&self, _rng: &mut DetRng) -> Result<T, Stop> {
        Ok(self.0.clone())
    }
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

/// A labelled, weighted choice among sub-generators (papers/001's `pick`).
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
    let total = opts.iter().map(|o| o.weight as u64).sum();
    Pick { site, options: opts, total, gens }
}

impl<T> Pick<T> {
    /// The options of this pick.
    pub fn options(&self) -> &[Opt] {
        &self.options
    }
}

impl<T> Gen for Pick<T> {
    type Value = T;
    fn run(&self, src: &mut dyn Source) -> Result<T, Stop> {
        let c = src.choose(self.site, Request::Pick { options: &self.options, total: self.total })?;
        let r = match self.gens.get(c as usize) {
            Some(g) => g.run(src),
            None => Err(Stop::Rejected),
        };
        src.leave();
        r
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<T, Stop> {
        let c = sample(rng, Request::Pick { options: &self.options, total: self.total });
        self.gens[c as usize].run_rng(rng)
    }
    fn back(&self, target: &T) -> Vec<Way> {
        let mut out = Vec::new();
        for (i, g) in self.gens.iter().enumerate() {
            let p = self.options[i].weight as f64 / self.total as f64;
            for w in g.back(target) {
                out.push(Way { forest: vec![ChoiceTree::choice(self.site, i as Choice, w.forest)], prob: w.prob * p });
            }
        }
        out
    }
}

// ---------------------------------------------------------------- integers

/// Integer types usable as choice points: every primitive integer width.
pub trait IntValue: Copy + Ord + Debug + 'static {
    /// The two's-complement bits of the value, sign-extended to 128 bits.
    fn to_bits(self) -> u128;
    /// The value whose bits (truncated to this width) are `bits`.
    fn from_bits(bits: u128) -> Self;
    /// The smallest value of the type.
    const MIN: Self;
    /// The largest value of the type.
    const MAX: Self;
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl IntValue for $t {
            #[inline]
            fn to_bits(self) -> u128 { self as i128 as u128 }
            #[inline]
            fn from_bits(bits: u128) -> Self { bits as Self }
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
        }
    )*};
}
int_value!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl IntValue for u128 {
    fn to_bits(self) -> u128 {
        self
    }
    fn from_bits(bits: u128) -> Self {
        bits
    }
    const MIN: Self = u128::MIN;
    const MAX: Self = u128::MAX;
}

impl IntValue for i128 {
    fn to_bits(self) -> u128 {
        self as u128
    }
    fn from_bits(bits: u128) -> Self {
        bits as i128
    }
    const MIN: Self = i128::MIN;
    const MAX: Self = i128::MAX;
}

/// An integer in an inclusive range, uniformly. One choice point; a range
/// wider than 2^64 values (only possible for 128-bit types) takes two, high
/// word first.
///
/// Choices count outward from the value of the range closest to zero (its
/// *origin*): choice 0 is the origin, then one above, one below, two above,
/// two below, ..., then the rest of the longer side. So a smaller choice is
/// always a value closer to zero, which is what shrinking (lowering choices)
/// and lenient replay's "first option" rely on. For a range of non-negative
/// values the choice is simply the offset from the low end.
#[derive(Debug, Clone, Copy)]
pub struct Int<T> {
    site: Site,
    lo: T,
    span: u128,
    /// How many values lie below the origin (the origin's offset from `lo`).
    below: u128,
}

/// An integer in `range` (see [`Int`]), at the site `"int"`; rename it with [`Int::site`].
///
/// # Panics
/// When the range is empty.
pub fn int<T: IntValue>(range: RangeInclusive<T>) -> Int<T> {
    let (lo, hi) = range.into_inner();
    assert!(lo <= hi, "int: the range {lo:?}..={hi:?} is empty; write it low..=high");
    let origin = T::from_bits(0).clamp(lo, hi);
    Int {
        site: "int",
        lo,
        span: hi.to_bits().wrapping_sub(lo.to_bits()),
        below: origin.to_bits().wrapping_sub(lo.to_bits()),
    }
}

/// Any value of an integer type.
pub fn any_int<T: IntValue>() -> Int<T> {
    int(T::MIN..=T::MAX)
}

impl<T: IntValue> Int<T> {
    /// The same generator, at the choice point `site`.
    pub fn site(mut self, site: Site) -> Self {
        self.site = site;
        self
    }

    /// The values below the origin, above it, and the fewer of the two.
    #[inline]
    fn sides(&self) -> (u128, u128, u128) {
        let (a, b) = (self.below, self.span - self.below);
        (a, b, a.min(b))
    }

    /// The offset from `lo` of the value with choice `k` (`k <= span`).
    #[inline]
    fn offset_of(&self, k: u128) -> u128 {
        let (a, b, m) = self.sides();
        if a == 0 {
            k
        } else if k == 0 {
            a
        } else if k <= 2 * m {
            let j = k.div_ceil(2);
            if k % 2 == 1 {
                a + j
            } else {
                a - j
            }
        } else if b > a {
            a + (k - m)
        } else {
            a - (k - m)
        }
    }

    /// The choice of the value at offset `off` from `lo` (the inverse of `offset_of`).
    fn choice_of(&self, off: u128) -> u128 {
        let (a, _, m) = self.sides();
        if a == 0 {
            return off;
        }
        let (d, up) = if off >= a { (off - a, true) } else { (a - off, false) };
        if d == 0 {
            0
        } else if d <= m {
            if up {
                2 * d - 1
            } else {
                2 * d
            }
        } else {
            d + m
        }
    }

    /// The choice of `v`, if `v` is in range.
    fn choice_for(&self, v: T) -> Option<u128> {
        if v < self.lo {
            return None;
        }
        let off = v.to_bits().wrapping_sub(self.lo.to_bits());
        (off <= self.span).then(|| self.choice_of(off))
    }

    #[inline]
    fn value_of(&self, k: u128) -> T {
        T::from_bits(self.lo.to_bits().wrapping_add(self.offset_of(k)))
    }
}

impl<T: IntValue> Gen for Int<T> {
    type Value = T;
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<T, Stop> {
        if self.span <= u64::MAX as u128 {
            let c = sample(rng, Request::Int { span: self.span as u64 });
            return Ok(self.value_of(c as u128));
        }
        self.run(&mut crate::source::RngSource(rng))
    }
    #[inline]
    fn run(&self, src: &mut dyn Source) -> Result<T, Stop> {
        let k = if self.span <= u64::MAX as u128 {
            let c = src.choose_leaf(self.site, Request::Int { span: self.span as u64 })?;
            c as u128
        } else {
            let hi_span = (self.span >> 64) as u64;
            let hi = src.choose_leaf(self.site, Request::Int { span: hi_span })?;
            let lo_span = if hi == hi_span { self.span as u64 } else { u64::MAX };
            let lo = src.choose_leaf(self.site, Request::Int { span: lo_span })?;
            ((hi as u128) << 64) | lo as u128
        };
        if k > self.span {
            return Err(Stop::Rejected);
        }
        Ok(self.value_of(k))
    }
    fn back(&self, target: &T) -> Vec<Way> {
        let Some(k) = self.choice_for(*target) else { return Vec::new() };
        if self.span <= u64::MAX as u128 {
            vec![Way {
                forest: vec![ChoiceTree::choice(self.site, k as Choice, Vec::new())],
                prob: 1.0 / (self.span as f64 + 1.0),
            }]
        } else {
            let hi_span = (self.span >> 64) as u64;
            let hi = (k >> 64) as u64;
            let lo_span = if hi == hi_span { self.span as u64 } else { u64::MAX };
            vec![Way {
                forest: vec![
                    ChoiceTree::choice(self.site, hi as Choice, Vec::new()),
                    ChoiceTree::choice(self.site, k as u64, Vec::new()),
                ],
                prob: 1.0 / (hi_span as f64 + 1.0) / (lo_span as f64 + 1.0),
            }]
        }
    }
}

#[cfg(test)]
mod int_tests {
    use super::*;

    /// Choices enumerate the range exactly once, closest to zero first.
    fn check_order<T: IntValue + std::hash::Hash>(lo: T, hi: T, zero_distance: impl Fn(T) -> u128) {
        let g = int(lo..=hi);
        let span = g.span;
        let mut seen = std::collections::HashSet::new();
        let mut last = 0u128;
        for k in 0..=span {
            let v = g.value_of(k);
            assert!(lo <= v && v <= hi, "{v:?} out of {lo:?}..={hi:?}");
            assert!(seen.insert(v), "{v:?} twice");
            assert_eq!(g.choice_for(v), Some(k), "inverse at {k}");
            let d = zero_distance(v);
            assert!(d >= last, "choice {k} ({v:?}) is closer to zero than an earlier one");
            last = d;
        }
    }

    #[test]
    fn choices_count_outward_from_zero() {
        check_order(-3i8, 5, |v| v.unsigned_abs() as u128);
        check_order(-7i8, 2, |v| v.unsigned_abs() as u128);
        check_order(-4i16, 4, |v| v.unsigned_abs() as u128);
        check_order(-9i32, -2, |v| v.unsigned_abs() as u128);
        check_order(3u8, 9, |v| v as u128);
        check_order(i8::MIN, i8::MAX, |v| v.unsigned_abs() as u128);
        assert_eq!(int(-5i32..=5).value_of(0), 0);
        assert_eq!(int(-5i32..=5).value_of(1), 1);
        assert_eq!(int(-5i32..=5).value_of(2), -1);
        let big = any_int::<i128>();
        assert_eq!(big.value_of(0), 0);
        assert_eq!(big.value_of(u128::MAX), i128::MIN);
        assert_eq!(big.choice_for(i128::MAX), Some(u128::MAX - 2));
        assert_eq!(any_int::<i64>().value_of(u64::MAX as u128), i64::MIN);
    }
}

// ---------------------------------------------------------------- bool and char

/// `false` or `true`, each with weight 1 (a pick with labels `"false"`, `"true"`).
#[derive(Debug, Clone, Copy)]
pub struct Bool {
    site: Site,
}

const BOOL_OPTIONS: [Opt; 2] = [Opt { label: "false", weight: 1 }, Opt { label: "true", weight: 1 }];

/// See [`Bool`]; at the site `"bool"`, renamed with [`Bool::site`].
pub fn bool() -> Bool {
    Bool { site: "bool" }
}

impl Bool {
    /// The same generator, at the choice point `site`.
    pub fn site(mut self, site: Site) -> Self {
        self.site = site;
        self
    }
}

impl Gen for Bool {
    type Value = bool;
    #[inline]
    fn run(&self, src: &mut dyn Source) -> Result<bool, Stop> {
        let c = src.choose_leaf(self.site, Request::Pick { options: &BOOL_OPTIONS, total: 2 })?;
        match c {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Stop::Rejected),
        }
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<bool, Stop> {
        Ok(sample(rng, Request::Pick { options: &BOOL_OPTIONS, total: 2 }) == 1)
    }
    fn back(&self, target: &bool) -> Vec<Way> {
        vec![Way { forest: vec![ChoiceTree::choice(self.site, *target as Choice, Vec::new())], prob: 0.5 }]
    }
}

/// A char from a class: a union of inclusive ranges, uniformly over its
/// members. One integer choice point: the char's index in the class.
#[derive(Debug, Clone)]
pub struct CharClass {
    site: Site,
    ranges: Rc<[(u32, u32)]>,
    count: u64,
}

/// A char in one of `ranges` (each `(low, high)` inclusive); surrogates are
/// never produced. At the site `"char"`.
///
/// # Panics
/// When the class has no char.
pub fn char_class(ranges: &[(char, char)]) -> CharClass {
    let mut rs: Vec<(u32, u32)> = Vec::new();
    for &(a, b) in ranges {
        let (a, b) = (a as u32, b as u32);
        if a > b {
            continue;
        }
        // Split around the surrogate gap so every index maps to a char.
        if a < 0xD800 && b > 0xDFFF {
            rs.push((a, 0xD7FF));
            rs.push((0xE000, b));
        } else {
            rs.push((a, b));
        }
    }
    rs.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::new();
    for (a, b) in rs {
        match merged.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let count: u64 = merged.iter().map(|&(a, b)| (b - a) as u64 + 1).sum();
    assert!(count > 0, "char_class: the class {ranges:?} has no char");
    CharClass { site: "char", ranges: merged.into(), count }
}

/// Any char (any Unicode scalar value).
pub fn any_char() -> CharClass {
    char_class(&[('\0', char::MAX)])
}

impl CharClass {
    /// The same generator, at the choice point `site`.
    pub fn site(mut self, site: Site) -> Self {
        self.site = site;
        self
    }

    /// The char at `index` in the class.
    fn nth(&self, mut index: u64) -> Option<char> {
        for &(a, b) in self.ranges.iter() {
            let n = (b - a) as u64 + 1;
            if index < n {
                return char::from_u32(a + index as u32);
            }
            index -= n;
        }
        None
    }

    /// The index of `c` in the class.
    fn index(&self, c: char) -> Option<u64> {
        let c = c as u32;
        let mut before = 0u64;
        for &(a, b) in self.ranges.iter() {
            if (a..=b).contains(&c) {
                return Some(before + (c - a) as u64);
            }
            before += (b - a) as u64 + 1;
        }
        None
    }

    /// Whether `c` is in the class.
    pub fn contains(&self, c: char) -> bool {
        self.index(c).is_some()
    }
}

impl Gen for CharClass {
    type Value = char;
    #[inline]
    fn run(&self, src: &mut dyn Source) -> Result<char, Stop> {
        let c = src.choose_leaf(self.site, Request::Int { span: self.count - 1 })?;
        self.nth(c).ok_or(Stop::Rejected)
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<char, Stop> {
        let c = sample(rng, Request::Int { span: self.count - 1 });
        self.nth(c).ok_or(Stop::Rejected)
    }
    fn back(&self, target: &char) -> Vec<Way> {
        match self.index(*target) {
            Some(i) => {
                vec![Way { forest: vec![ChoiceTree::choice(self.site, i, Vec::new())], prob: 1.0 / self.count as f64 }]
            }
            None => Vec::new(),
        }
    }
}

// ---------------------------------------------------------------- floats

/// Floating-point types usable with [`float`].
pub trait FloatValue: Copy + PartialEq + Debug + 'static {
    /// The unsigned integer type of the same width.
    type Bits: IntValue;
    /// The value's bits.
    fn bits(self) -> Self::Bits;
    /// The value with these bits.
    fn from_float_bits(bits: Self::Bits) -> Self;
    /// `n` tenths, as this type (`n as Self / 10.0`).
    fn from_tenths(n: i32) -> Self;
    /// The value as an `f64` (exact).
    fn to_f64(self) -> f64;
    /// The special values: zeros, ones, infinities, NaN, the extremes.
    fn specials() -> Vec<Self>;
}

macro_rules! float_value {
    ($t:ident, $bits:ty) => {
        impl FloatValue for $t {
            type Bits = $bits;
            fn bits(self) -> $bits {
                self.to_bits()
            }
            fn from_float_bits(bits: $bits) -> Self {
                $t::from_bits(bits)
            }
            fn from_tenths(n: i32) -> Self {
                n as $t / 10.0
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn specials() -> Vec<Self> {
                vec![
                    0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    0.5,
                    $t::INFINITY,
                    $t::NEG_INFINITY,
                    $t::NAN,
                    $t::MIN_POSITIVE,
                    $t::EPSILON,
                    $t::MAX,
                    $t::MIN,
                ]
            }
        }
    };
}
float_value!(f64, u64);
float_value!(f32, u32);

/// The largest magnitude of [`float`]'s `"decimal"` option, in tenths.
const FLOAT_DECIMAL_TENTHS: i32 = 10_000;

/// Any float, from a pick at the site `"float"` among three options:
/// `"decimal"` (weight 6: a multiple of 0.1 in `-1000.0..=1000.0`, counting
/// outward from 0.0, so shrinking lowers toward 0), `"special"` (weight 2:
/// zeros, ones, 0.5, infinities, NaN, the smallest positive normal, epsilon,
/// the extremes) and `"bits"` (weight 2: any bit pattern). Backward, values
/// are compared by their bits, so NaN and -0.0 reflect too.
pub fn float<F: FloatValue>() -> Pick<F> {
    let decimal = int(-FLOAT_DECIMAL_TENTHS..=FLOAT_DECIMAL_TENTHS)
        .site("float.decimal")
        .map(F::from_tenths, |v: &F| tenths(*v).filter(|&n| F::from_tenths(n).bits() == v.bits()));
    let specials = F::specials();
    let n = specials.len() - 1;
    let special = int(0..=n)
        .site("float.special")
        .map(move |i| F::specials()[i], move |v: &F| specials.iter().position(|s| s.bits() == v.bits()));
    let bits = any_int::<F::Bits>().site("float.bits").map(F::from_float_bits, |v: &F| Some(v.bits()));
    pick("float", [("decimal", 6, decimal.boxed()), ("special", 2, special.boxed()), ("bits", 2, bits.boxed())])
}

/// `v` in tenths, rounded, when it is within the `"decimal"` range.
fn tenths<F: FloatValue>(v: F) -> Option<i32> {
    let x = v.to_f64();
    let limit = FLOAT_DECIMAL_TENTHS as f64 / 10.0;
    (x.is_finite() && x.abs() <= limit).then(|| (x * 10.0).round() as i32)
}

// ---------------------------------------------------------------- option

/// `None` or `Some` of a sub-generator's value: a pick with labels
/// `"None"` (weight 1, first, so lenient replay's default) and `"Some"`.
#[derive(Debug, Clone)]
pub struct OptionGen<G> {
    site: Site,
    gen: G,
    options: [Opt; 2],
}

/// `None` with weight 1, `Some(g)` with weight 3, at the site `"option"`.
pub fn option<G: Gen>(gen: G) -> OptionGen<G> {
    OptionGen { site: "option", gen, options: [Opt { label: "None", weight: 1 }, Opt { label: "Some", weight: 3 }] }
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

    fn total(&self) -> u64 {
        self.options[0].weight as u64 + self.options[1].weight as u64
    }
}

impl<G: Gen> Gen for OptionGen<G> {
    type Value = Option<G::Value>;
    fn run(&self, src: &mut dyn Source) -> Result<Self::Value, Stop> {
        let c = src.choose(self.site, Request::Pick { options: &self.options, total: self.total() })?;
        let r = match c {
            0 => Ok(None),
            1 => self.gen.run(src).map(Some),
            _ => Err(Stop::Rejected),
        };
        src.leave();
        r
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<Self::Value, Stop> {
        match sample(rng, Request::Pick { options: &self.options, total: self.total() }) {
            0 => Ok(None),
            _ => self.gen.run_rng(rng).map(Some),
        }
    }
    fn back(&self, target: &Self::Value) -> Vec<Way> {
        let p = |i: usize| self.options[i].weight as f64 / self.total() as f64;
        match target {
            None => vec![Way { forest: vec![ChoiceTree::choice(self.site, 0, Vec::new())], prob: p(0) }],
            Some(v) => self
                .gen
                .back(v)
                .into_iter()
                .map(|w| Way { forest: vec![ChoiceTree::choice(self.site, 1, w.forest)], prob: w.prob * p(1) })
                .collect(),
        }
    }
}

// ---------------------------------------------------------------- collections

/// A length in a range (one integer choice point), then that many
/// elements, each recorded as a part named by the element site.
#[derive(Debug, Clone)]
pub struct Collection<G, C> {
    pub(crate) len: Int<usize>,
    pub(crate) elem_site: Site,
    pub(crate) gen: G,
    pub(crate) _c: PhantomData<fn() -> C>,
}

/// A `Vec` whose length is uniform in `len` (site `"len"`), elements from `gen` (parts `"elem"`).
pub fn vec<G: Gen>(gen: G, len: RangeInclusive<usize>) -> Collection<G, Vec<G::Value>> {
    Collection { len: int(len).site("len"), elem_site: "elem", gen, _c: PhantomData }
}

/// A `String` whose length in chars is uniform in `len`, chars from `gen`.
pub fn string<G: Gen<Value = char>>(gen: G, len: RangeInclusive<usize>) -> Collection<G, String> {
    Collection { len: int(len).site("len"), elem_site: "elem", gen, _c: PhantomData }
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

/// Collections [`Collection`] can build and take apart.
pub trait Sequence<T>: Sized {
    /// An empty collection with room for `n` elements.
    fn with_capacity(n: usize) -> Self;
    /// Add one element at the end.
    fn push_elem(&mut self, t: T);
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
    fn elems(&self) -> Vec<char> {
        self.chars().collect()
    }
}

impl<G: Gen, C: Sequence<G::Value>> Gen for Collection<G, C> {
    type Value = C;
    fn run(&self, src: &mut dyn Source) -> Result<C, Stop> {
        let n = self.len.run(src)?;
        let mut out = C::with_capacity(n);
        if src.tracks_parts() {
            for _ in 0..n {
                src.enter(self.elem_site);
                let r = self.gen.run(src);
                src.leave();
                out.push_elem(r?);
            }
        } else {
            for _ in 0..n {
                out.push_elem(self.gen.run(src)?);
            }
        }
        Ok(out)
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<C, Stop> {
        let n = self.len.run_rng(rng)?;
        let mut out = C::with_capacity(n);
        for _ in 0..n {
            out.push_elem(self.gen.run_rng(rng)?);
        }
        Ok(out)
    }
    fn back(&self, target: &C) -> Vec<Way> {
        let elems = target.elems();
        let mut ways = self.len.back(&elems.len());
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
pub const POSITIONS: [Site; 16] =
    ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"];

macro_rules! tuple_gen {
    ($($g:ident $v:ident $i:tt),+) => {
        impl<$($g: Gen),+> Gen for ($($g,)+)
        where $($g::Value: Clone),+
        {
            type Value = ($($g::Value,)+);
            fn run(&self, src: &mut dyn Source) -> Result<Self::Value, Stop> {
                if !src.tracks_parts() {
                    return Ok(($(self.$i.run(src)?,)+));
                }
                $(
                    src.enter(POSITIONS[$i]);
                    let $v = self.$i.run(src);
                    src.leave();
                    let $v = $v?;
                )+
                Ok(($($v,)+))
            }
            #[inline]
            fn run_rng(&self, rng: &mut DetRng) -> Result<Self::Value, Stop> {
                Ok(($(self.$i.run_rng(rng)?,)+))
            }
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

// ---------------------------------------------------------------- map, part, filter

/// See [`Gen::map`].
#[derive(Debug, Clone)]
pub struct Map<G, F, B> {
    pub(crate) gen: G,
    pub(crate) forward: F,
    pub(crate) backward: B,
}

impl<G: Gen, U, F, B> Gen for Map<G, F, B>
where
    F: Fn(G::Value) -> U,
    B: Fn(&U) -> Option<G::Value>,
{
    type Value = U;
    #[inline]
    fn run(&self, src: &mut dyn Source) -> Result<U, Stop> {
        self.gen.run(src).map(&self.forward)
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<U, Stop> {
        self.gen.run_rng(rng).map(&self.forward)
    }
    fn back(&self, target: &U) -> Vec<Way> {
        match (self.backward)(target) {
            Some(v) => self.gen.back(&v),
            None => Vec::new(),
        }
    }
}

/// See [`Gen::part`].
#[derive(Debug, Clone)]
pub struct Part<G> {
    pub(crate) gen: G,
    pub(crate) site: Site,
}

impl<G: Gen> Gen for Part<G> {
    type Value = G::Value;
    fn run(&self, src: &mut dyn Source) -> Result<G::Value, Stop> {
        if !src.tracks_parts() {
            return self.gen.run(src);
        }
        src.enter(self.site);
        let r = self.gen.run(src);
        src.leave();
        r
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<G::Value, Stop> {
        self.gen.run_rng(rng)
    }
    fn back(&self, target: &G::Value) -> Vec<Way> {
        self.gen
            .back(target)
            .into_iter()
            .map(|w| Way { forest: vec![ChoiceTree::group(self.site, w.forest)], prob: w.prob })
            .collect()
    }
}

/// See [`Gen::filter`].
#[derive(Debug, Clone)]
pub struct Filter<G, P> {
    pub(crate) gen: G,
    pub(crate) valid: P,
}

impl<G: Gen, P: Fn(&G::Value) -> bool> Gen for Filter<G, P> {
    type Value = G::Value;
    fn run(&self, src: &mut dyn Source) -> Result<G::Value, Stop> {
        let v = self.gen.run(src)?;
        if (self.valid)(&v) {
            Ok(v)
        } else {
            Err(Stop::Invalid)
        }
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<G::Value, Stop> {
        let v = self.gen.run_rng(rng)?;
        if (self.valid)(&v) {
            Ok(v)
        } else {
            Err(Stop::Invalid)
        }
    }
    fn back(&self, target: &G::Value) -> Vec<Way> {
        if (self.valid)(target) {
            self.gen.back(target)
        } else {
            Vec::new()
        }
    }
}

// ---------------------------------------------------------------- at and bind

/// A generator focused on a part of a larger value (see [`Gen::at`]),
/// waiting for the rest of the computation ([`At::bind`]).
pub struct At<G, P, T> {
    pub(crate) gen: G,
    pub(crate) project: P,
    pub(crate) _whole: PhantomData<fn(&T)>,
}

impl<G: Gen, P: Fn(&T) -> Option<G::Value>, T> At<G, P, T> {
    /// Dependent generation: run the focused generator, then the generator
    /// `next` builds from its value. Backward, the focused generator is
    /// reflected on the projected part, and `next` of that part on the whole.
    pub fn bind<K, H>(self, next: K) -> Bind<G, P, K>
    where
        K: Fn(G::Value) -> H,
        H: Gen<Value = T>,
        G::Value: Clone,
    {
        Bind { gen: self.gen, project: self.project, next }
    }
}

/// Dependent generation; see [`At::bind`].
#[derive(Clone)]
pub struct Bind<G, P, K> {
    gen: G,
    project: P,
    next: K,
}

impl<G, P, K, H, T> Gen for Bind<G, P, K>
where
    G: Gen,
    G::Value: Clone,
    P: Fn(&T) -> Option<G::Value>,
    K: Fn(G::Value) -> H,
    H: Gen<Value = T>,
{
    type Value = T;
    #[inline]
    fn run(&self, src: &mut dyn Source) -> Result<T, Stop> {
        let a = self.gen.run(src)?;
        (self.next)(a).run(src)
    }
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<T, Stop> {
        let a = self.gen.run_rng(rng)?;
        (self.next)(a).run_rng(rng)
    }
    fn back(&self, target: &T) -> Vec<Way> {
        let Some(a) = (self.project)(target) else { return Vec::new() };
        let first = self.gen.back(&a);
        if first.is_empty() {
            return first;
        }
        let rest = (self.next)(a).back(target);
        if rest.is_empty() {
            return rest;
        }
        product(first, &rest)
    }
}

// ---------------------------------------------------------------- recursion

/// A recursive generator whose recursion depth is at most `depth`.
///
/// `body` receives the generator for one level down (`None` at the bottom,
/// where it must give a non-recursive generator) and returns the generator
/// for its level. The `depth + 1` levels are built once and shared, so
/// generation terminates by construction and allocates no generator per value.
pub fn recursive<T: 'static>(depth: usize, body: impl Fn(Option<BoxGen<T>>) -> BoxGen<T>) -> BoxGen<T> {
    let mut g = body(None);
    for _ in 0..depth {
        g = body(Some(g));
    }
    g
}

/// A generator built on first use, for recursion written as plain
/// functions (e.g. papers/001's `refBST (lo, hi)`, whose sub-generators
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
}

impl<T> Gen for Lazy<T> {
    type Value = T;
    fn run(&self, src: &mut dyn Source) -> Result<T, Stop> {
        self.get().run(src)
    }
    fn run_rng(&self, rng: &mut DetRng) -> Result<T, Stop> {
        self.get().run_rng(rng)
    }
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

//! Integers: ranges counted outward from zero, constant ranges, and the default `integer`.

use super::{pick, Pick};
use crate::choice::{Choice, ChoiceTree, Site};
use crate::gen::Sequence;
use crate::gen::{fill_draws, Answerer};
use crate::gen::{one_forward_body, Gen, Way};
use crate::source::{DetRng, Stop};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::ops::RangeInclusive;

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
        outward(self.below, self.span - self.below, k)
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

/// The offset from the low end of a range with `a` values below its origin
/// and `b` above of the value with choice `k` (see [`Int`]): the origin,
/// then one above, one below, two above, ..., then the rest of the longer
/// side. In `u64` for the ranges of at most 2^64 values, whose choice is
/// one word (the fast path's arithmetic), in `u128` for the others.
#[inline(always)]
fn outward<N>(a: N, b: N, k: N) -> N
where
    N: Copy + Ord + From<u8> + std::ops::Add<Output = N> + std::ops::Sub<Output = N>,
    N: std::ops::Shr<u32, Output = N> + std::ops::BitAnd<Output = N>,
{
    let (zero, one) = (N::from(0), N::from(1));
    // A range of non-negative values (the common case) counts from its low end.
    if a == zero {
        return k;
    }
    let m = a.min(b);
    if k == zero {
        a
    } else if k <= m + m {
        // Odd choices step up, even ones down, `ceil(k / 2)` from the origin.
        let j = (k >> 1) + (k & one);
        if k & one == one {
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

impl<T: IntValue> Int<T> {
    /// The value of the one-word choice `k`, for a range of at most 2^64
    /// values: the offset is computed in `u64`, and only the low word of
    /// `lo` matters for a type of at most 64 bits.
    #[inline(always)]
    fn word_value(&self, k: u64) -> T {
        let off = outward(self.below as u64, self.span as u64 - self.below as u64, k);
        T::from_bits(self.lo.to_bits().wrapping_add(off as u128))
    }

    #[inline(always)]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<T, Stop> {
        // A type of at most 64 bits has at most 2^64 values: one word, known at compile time.
        if std::mem::size_of::<T>() <= 8 || self.span <= u64::MAX as u128 {
            return Ok(self.word_value(a.choose_int(self.site, self.span as u64)?));
        }
        let hi_span = (self.span >> 64) as u64;
        let hi = a.choose_int(self.site, hi_span)?;
        let lo_span = if hi == hi_span { self.span as u64 } else { u64::MAX };
        let lo = a.choose_int(self.site, lo_span)?;
        Ok(self.value_of(((hi as u128) << 64) | lo as u128))
    }
}

impl<T: IntValue> Gen for Int<T> {
    type Value = T;
    one_forward_body!();
    #[inline]
    fn fill_rng<C: Sequence<T>>(&self, rng: &mut DetRng, n: usize, out: &mut C) -> Result<(), Stop> {
        if self.span > u64::MAX as u128 {
            for _ in 0..n {
                out.push_elem(self.forward(rng)?);
            }
            return Ok(());
        }
        let (span, lo, below) = (self.span as u64, self.lo.to_bits(), self.below as u64);
        fill_words(rng, n, out, move || (span, lo, below));
        Ok(())
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

/// `n` values of a range of at most 2^64 values drawn from `rng`, added at
/// the end of `out`: the fast path of a collection of integers. `words`
/// gives the range's span, the bits of its low end and its origin's offset
/// from that end: an [`Int`]'s fields, or a [`ConstInt`]'s constants, which
/// the draws' arithmetic then folds even where the loop is not inlined.
#[inline(always)]
fn fill_words<T: IntValue, C: Sequence<T>>(
    rng: &mut DetRng,
    n: usize,
    out: &mut C,
    words: impl Fn() -> (u64, u128, u64) + Copy,
) {
    let span = move || words().0;
    if words().2 == 0 {
        // Unsigned, or a signed range from its low end: the offset is the choice.
        fill_draws(rng, span, n, out, move |k| T::from_bits(words().1.wrapping_add(k as u128)));
    } else {
        fill_draws(rng, span, n, out, move |k| {
            let (span, lo, below) = words();
            T::from_bits(lo.wrapping_add(outward(below, span - below, k) as u128))
        });
    }
}

/// An integer in `LO..=HI` whose bounds are constants of the program:
/// the very generator [`int`]`(LO..=HI)` is (the same choices, values,
/// ways and probabilities), with its range compiled into its code instead
/// of read from memory at each draw. The compiler then folds the range's
/// arithmetic as it does in a hand-written draw: the full width of `u32`,
/// say, becomes a shift of one RNG word, with no multiply and no boundary
/// check. `#[derive(Reflective)]` writes it for a `range` whose bounds are
/// literals (or a type's `MIN`/`MAX`); by hand:
///
/// ```
/// use refgen::combinators::{int, ConstInt};
/// use refgen::{generate, reflect, Gen};
///
/// let fast = ConstInt::<u32, 0, { u32::MAX as i128 }>::new("id");
/// let slow = int(0..=u32::MAX).site("id");
/// assert_eq!(generate(&fast, 7), generate(&slow, 7));
/// assert_eq!(reflect(&fast, &12), reflect(&slow, &12));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ConstInt<T, const LO: i128, const HI: i128> {
    site: Site,
    _t: PhantomData<fn() -> T>,
}

impl<T: IntValue, const LO: i128, const HI: i128> ConstInt<T, LO, HI> {
    /// The generator, at the choice point `site`.
    ///
    /// # Panics
    /// When the range is empty or a bound is not a value of `T`.
    pub fn new(site: Site) -> Self {
        for bound in [LO, HI] {
            let fits = T::from_bits(bound as u128).to_bits() == bound as u128 && (bound >= 0 || T::MIN.to_bits() != 0);
            assert!(fits, "ConstInt: the bound {bound} is not a value of {}", std::any::type_name::<T>());
        }
        let g = ConstInt { site, _t: PhantomData };
        g.int();
        g
    }

    /// The same generator, at the choice point `site`.
    pub fn site(mut self, site: Site) -> Self {
        self.site = site;
        self
    }

    /// The number of values but one.
    const SPAN: u128 = HI.wrapping_sub(LO) as u128;
    /// The origin's offset from `LO` (see [`Int`]).
    const BELOW: u128 = (if LO > 0 {
        LO
    } else if HI < 0 {
        HI
    } else {
        0
    })
    .wrapping_sub(LO) as u128;

    /// This generator as an [`Int`], built from the constants (folded away
    /// where it is inlined).
    #[inline(always)]
    fn int(&self) -> Int<T> {
        int(T::from_bits(LO as u128)..=T::from_bits(HI as u128)).site(self.site)
    }
}

impl<T: IntValue, const LO: i128, const HI: i128> Gen for ConstInt<T, LO, HI> {
    type Value = T;
    #[inline]
    fn run(&self, src: &mut dyn crate::source::Source) -> Result<T, Stop> {
        self.int().forward(src)
    }
    #[inline(always)]
    fn run_rng(&self, rng: &mut DetRng) -> Result<T, Stop> {
        self.int().forward(rng)
    }
    #[inline]
    fn fill_rng<C: Sequence<T>>(&self, rng: &mut DetRng, n: usize, out: &mut C) -> Result<(), Stop> {
        if Self::SPAN > u64::MAX as u128 {
            return self.int().fill_rng(rng, n, out);
        }
        fill_words(rng, n, out, || (Self::SPAN as u64, LO as u128, Self::BELOW as u64));
        Ok(())
    }
    fn back(&self, target: &T) -> Vec<Way> {
        self.int().back(target)
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

/// The values of `T` that break programs most often, each once: near zero
/// (0, 1, -1) and at the extremes (`MIN`, `MAX` and their neighbours, those
/// not already near zero).
fn edges<T: IntValue>() -> (Vec<T>, Vec<T>) {
    let near = [T::from_bits(0), T::from_bits(1), T::from_bits(u128::MAX)];
    let far = [
        T::MIN,
        T::MAX,
        T::from_bits(T::MIN.to_bits().wrapping_add(1)),
        T::from_bits(T::MAX.to_bits().wrapping_sub(1)),
    ];
    let mut zero: Vec<T> = Vec::new();
    // `-1` of an unsigned type is its MAX: an extreme, not near zero.
    for v in near {
        if (T::MIN..=T::MAX).contains(&v) && !zero.contains(&v) && (v.to_bits() <= 1 || T::MIN.to_bits() != 0) {
            zero.push(v);
        }
    }
    let mut extremes: Vec<T> = Vec::new();
    for v in far {
        if !zero.contains(&v) && !extremes.contains(&v) {
            extremes.push(v);
        }
    }
    (zero, extremes)
}

/// One of `values`, uniformly: an integer choice point at `site` holding the
/// value's index. Backward, a value not in the table has no way.
pub(crate) fn one_of<T: Copy + PartialEq + Debug + 'static>(site: Site, values: Vec<T>) -> impl Gen<Value = T> {
    let back = values.clone();
    int(0..=values.len() - 1).site(site).map(move |i| values[i], move |v: &T| back.iter().position(|x| x == v))
}

/// The largest distance from zero of [`integer`]'s `"small"` option.
const SMALL_INT: i128 = 32;

/// The values of `whole` except its first `from` choices and the choices
/// `except` (sorted, each at least `from`), counted in `whole`'s order
/// (outward from zero): one integer choice point at `site`.
fn int_except<T: IntValue>(site: Site, whole: Int<T>, from: u128, except: Vec<u128>) -> impl Gen<Value = T> {
    let n = whole.span - from - except.len() as u128;
    let skip = except.clone();
    int(0u128..=n).site(site).map(
        move |c| {
            let mut k = from + c;
            for &e in &skip {
                if e <= k {
                    k += 1;
                }
            }
            whole.value_of(k)
        },
        move |v: &T| {
            let k = whole.choice_for(*v)?;
            (k >= from && !except.contains(&k)).then(|| k - from - except.iter().filter(|&&e| e < k).count() as u128)
        },
    )
}

/// Any value of an integer type, favouring the values that break programs:
/// a pick at `site` among four options that share no value, so every value
/// has one way to be made:
///
/// | option | weight | values |
/// |---|---|---|
/// | `"edge"` | 2 | 0, 1, -1 (those the type has) |
/// | `"small"` | 3 | the other values within 32 of zero |
/// | `"any"` | 4 | every other value but the extremes, uniformly |
/// | `"extreme"` | 1 | `MIN`, `MAX`, `MIN + 1`, `MAX - 1` (not for 128-bit types, see below) |
///
/// So 0 and 1 each come up in about one case in fifteen (one in ten for an
/// unsigned type), `MIN` and `MAX` in one in forty (`MAX` in one in twenty
/// for an unsigned type), and a value within 32 of
/// zero in half the cases. Within an option, choices count outward from
/// zero, and the options go outward too, so shrinking ends at 0; a failure
/// found at an extreme shrinks into `"any"` from its top (the shrinker's
/// raise pass). A 128-bit type has no `"extreme"` option: its uniform
/// option takes two choices, and a one-choice option after it would be
/// smaller in the shrinker's order than every value between, so a failure
/// at `MAX` would stay there. What `Reflective` gives every primitive integer; use
/// [`any_int`] for the plain uniform generator, [`int`] for a range.
pub fn integer<T: IntValue>(site: Site) -> Pick<T> {
    integer_of(site, false)
}

/// [`integer`] without 0: the same options, 0 in none of them (so `1`, and
/// `-1` for a signed type, are the `"edge"` option). What `Reflective`
/// gives the `NonZero` integers, with no case discarded for a zero.
pub fn nonzero_integer<T: IntValue>(site: Site) -> Pick<T> {
    integer_of(site, true)
}

/// [`integer`], or [`nonzero_integer`] when `nonzero`.
fn integer_of<T: IntValue>(site: Site, nonzero: bool) -> Pick<T> {
    let signed = T::MIN.to_bits() != 0;
    let lo = if signed { T::from_bits(-SMALL_INT as u128) } else { T::from_bits(0) };
    let small = int(lo..=T::from_bits(SMALL_INT as u128));
    let whole = any_int::<T>();
    let (mut zero, mut extremes) = edges::<T>();
    // A 128-bit integer's uniform option takes two choices; an option of
    // one choice after it would be shortlex-smaller than the values between,
    // so a failure found at `MAX` could not shrink below it: there the
    // extremes stay in `"any"`.
    if whole.span > u64::MAX as u128 {
        extremes.clear();
    }
    // The values the other options skip: those of `"edge"` and `"extreme"`, and 0 (in none when `nonzero`).
    let skipped: Vec<T> = zero.iter().chain(&extremes).copied().collect();
    if nonzero {
        zero.retain(|v| v.to_bits() != 0);
    }
    let choices_of = |g: &Int<T>, from: u128| {
        let mut cs: Vec<u128> = skipped.iter().filter_map(|&e| g.choice_for(e)).filter(|&k| k >= from).collect();
        cs.sort_unstable();
        cs.dedup();
        cs
    };
    let small_except = choices_of(&small, 0);
    let any_except = choices_of(&whole, small.span + 1);
    let sites = int_sites(site);
    let mut options = vec![
        ("edge", 2, one_of(sites[0], zero.clone()).boxed()),
        ("small", 3, int_except(sites[1], small, 0, small_except).boxed()),
        ("any", 4, int_except(sites[2], whole, small.span + 1, any_except).boxed()),
    ];
    if !extremes.is_empty() {
        options.push(("extreme", 1, one_of(sites[3], extremes).boxed()));
    }
    pick(site, options)
}

/// The sites of [`integer`]'s four options under the pick `site`.
fn int_sites(site: Site) -> [Site; 4] {
    macro_rules! known {
        ($($t:literal),*) => {
            match site {
                $($t => [concat!($t, ".edge"), concat!($t, ".small"), concat!($t, ".any"), concat!($t, ".extreme")],)*
                _ => ["int.edge", "int.small", "int.any", "int.extreme"],
            }
        };
    }
    known!("u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize")
}

#[cfg(test)]
mod integer_tests {
    use super::*;
    use crate::source::rng_from_seed;

    /// The edges of each width, and how often they come up.
    #[test]
    fn nonzero_integers_have_every_value_but_zero_one_way() {
        let g = nonzero_integer::<i8>("i8");
        for v in i8::MIN..=i8::MAX {
            assert_eq!(g.back(&v).len(), usize::from(v != 0), "{v}");
        }
        let g = nonzero_integer::<u8>("u8");
        for v in 0..=u8::MAX {
            assert_eq!(g.back(&v).len(), usize::from(v != 0), "{v}");
        }
        let mut rng = rng_from_seed(3);
        for g in
            [nonzero_integer::<u128>("u128").boxed(), nonzero_integer::<u16>("u16").map(u128::from, |_| None).boxed()]
        {
            for _ in 0..2000 {
                assert_ne!(g.run_rng(&mut rng).unwrap(), 0);
            }
        }
        let g = nonzero_integer::<i64>("i64");
        let values: Vec<i64> = (0..2000).map(|_| g.run_rng(&mut rng).unwrap()).collect();
        for v in [1, -1, i64::MIN, i64::MAX] {
            assert!(values.contains(&v), "{v}");
        }
        assert!(!values.contains(&0));
    }

    #[test]
    fn edges_come_up_often() {
        assert_eq!(edges::<u8>(), (vec![0, 1], vec![255, 254]));
        assert_eq!(edges::<i8>(), (vec![0, 1, -1], vec![-128, 127, -127, 126]));
        let g = integer::<i64>("i64");
        let mut rng = rng_from_seed(7);
        let values: Vec<i64> = (0..2000).map(|_| g.run_rng(&mut rng).unwrap()).collect();
        for v in [0, 1, -1, i64::MIN, i64::MAX] {
            let n = values.iter().filter(|&&x| x == v).count();
            assert!(n >= 30, "{v} came up {n} times in 2000");
        }
        let small = values.iter().filter(|x| x.unsigned_abs() <= 32).count();
        assert!(small > 600, "{small} small values in 2000");
    }

    /// The options share no value: each value has exactly one way, and
    /// every value of a narrow type is made by exactly one choice sequence.
    #[test]
    fn every_value_has_one_way() {
        for g in [integer::<u8>("u8")] {
            let mut seen = std::collections::HashSet::new();
            for v in 0..=255u8 {
                let ways = g.back(&v);
                assert_eq!(ways.len(), 1, "{v}");
                assert!(seen.insert(ways[0].forest.clone()), "{v} shares its choices");
            }
        }
        let g = integer::<i8>("i8");
        for v in i8::MIN..=i8::MAX {
            assert_eq!(g.back(&v).len(), 1, "{v}");
            let ways = g.back(&v);
            let choices: Vec<Choice> = ways[0].forest.iter().flat_map(|t| t.choices()).collect();
            assert_eq!(crate::interpret::parse(&g, &choices).unwrap(), v);
        }
        let g = integer::<i128>("i128");
        for v in [0, 1, -1, 5, -33, 1 << 100, i128::MIN, i128::MAX, i128::MIN + 2] {
            assert_eq!(g.back(&v).len(), 1, "{v}");
        }
    }
}

// ---------------------------------------------------------------- bool and char

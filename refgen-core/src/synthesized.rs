//! Runtime support for `#[synth]`: the steps a generator synthesized from a predicate takes.
//!
//! Code written by the `#[synth]` attribute calls into this module, through
//! the hidden [`crate::__private`]; users do not need it directly (its items
//! are not part of the stable API).

use crate::choice::Site;
use crate::combinators::{int, IntValue};
use crate::gen::{Answerer, Gen, Way};
use crate::reflective::Reflective;
use crate::source::Stop;
use std::any::{Any, TypeId};
use std::borrow::Borrow;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::rc::Rc;

/// A part the predicate does not constrain: its type's own generator, as the part `site`.
#[inline]
pub fn any<T: Reflective, A: Answerer + ?Sized>(src: &mut A, site: Site) -> Result<T, Stop> {
    crate::derived::run_part(&*T::generator(), site, src)
}

/// The ways of a part the predicate does not constrain (see [`any`]).
pub fn any_back<T: Reflective>(ways: Vec<Way>, site: Site, v: &T) -> Vec<Way> {
    crate::derived::back_part(ways, site, T::generator().back(v))
}

/// An integer in the range `span` gives, as the part `site`;
/// [`Stop::Invalid`] when there is none (the bounds come from parts made
/// before: the arm is made again).
#[inline]
pub fn bounded<T: IntValue, A: Answerer + ?Sized>(src: &mut A, site: Site, range: Option<(T, T)>) -> Result<T, Stop> {
    let Some((lo, hi)) = range else { return Err(Stop::Invalid) };
    crate::derived::run_part(&int(lo..=hi).site(site), site, src)
}

/// The ways of an integer in the range `span` gives (see [`bounded`]), after `ways`: none outside it.
pub fn bounded_back<T: IntValue>(ways: Vec<Way>, site: Site, range: Option<(T, T)>, v: &T) -> Vec<Way> {
    match range {
        Some((lo, hi)) if lo <= *v && *v <= hi => {
            crate::derived::back_part(ways, site, int(lo..=hi).site(site).back(v))
        }
        _ => Vec::new(),
    }
}

/// A part made by a recursive call, into the field that holds it (`Box<T>`, `Rc<T>` or `T`).
#[inline]
pub fn into_part<T, U: From<T>>(t: T) -> U {
    U::from(t)
}

/// The value a field holds (`Box<T>`, `Rc<T>` or `T`), for the recursive call backward.
#[inline]
pub fn borrow_part<T, U: Borrow<T> + ?Sized>(u: &U) -> &T {
    u.borrow()
}

/// `x + 1`, or `None` at the type's largest value (a strict lower bound).
#[inline]
pub fn above<T: IntValue>(x: T) -> Option<T> {
    (x < T::MAX).then(|| T::from_bits(x.to_bits().wrapping_add(1)))
}

/// `x - 1`, or `None` at the type's smallest value (a strict upper bound).
#[inline]
pub fn below<T: IntValue>(x: T) -> Option<T> {
    (x > T::MIN).then(|| T::from_bits(x.to_bits().wrapping_sub(1)))
}

/// The range the bounds leave: the largest lower bound to the smallest
/// upper one (the type's extremes where there is none); `None` when a bound
/// cannot hold or the range is empty.
#[inline]
pub fn span<T: IntValue, const L: usize, const H: usize>(
    lows: [Option<T>; L],
    highs: [Option<T>; H],
) -> Option<(T, T)> {
    let mut lo = T::MIN;
    for l in lows {
        lo = lo.max(l?);
    }
    let mut hi = T::MAX;
    for h in highs {
        hi = hi.min(h?);
    }
    (lo <= hi).then_some((lo, hi))
}

/// The most values a type may have for [`any_where`] to choose among them.
const FINITE: usize = 16;

/// A type asked about, with its values when few.
type FiniteEntry = (TypeId, Option<Rc<dyn Any>>);

thread_local! {
    /// The types asked about so far, with their values when few: a short list, scanned (a part
    /// of few values is asked about at every node that makes one).
    static FINITE_VALUES: RefCell<Vec<FiniteEntry>> = const { RefCell::new(Vec::new()) };
}

/// Every value of `T`'s generator when there are at most [`FINITE`] (a
/// colour, a small enum), made once per thread; `None` for a type with more.
fn finite_values<T: Reflective + Clone>() -> Option<Rc<Vec<T>>> {
    let key = TypeId::of::<T>();
    let hit = FINITE_VALUES.with(|c| c.borrow().iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()));
    let entry = match hit {
        Some(e) => e,
        None => {
            let lang = crate::interpret::language(&*T::generator(), FINITE + 1, 8);
            let values: Option<Rc<dyn Any>> = (lang.complete && lang.members.len() <= FINITE)
                .then(|| Rc::new(lang.members.into_iter().map(|(_, v)| v).collect::<Vec<T>>()) as Rc<dyn Any>);
            FINITE_VALUES.with(|c| c.borrow_mut().push((key, values.clone())));
            values
        }
    };
    entry.and_then(|e| e.downcast::<Vec<T>>().ok())
}

/// A part the predicate only checks (`valid`): for a type of few values,
/// one of those that pass, drawn uniformly (an integer choice at `site`, the
/// position among them; [`Stop::Invalid`] when none does); for a type of
/// many, its generator made again while the value fails.
/// (`_project` takes the part from a value of the predicate's type: it is
/// never called, and tells the compiler the part's type.)
#[inline]
pub fn any_where<V, T, A>(
    src: &mut A,
    site: Site,
    _project: impl Fn(&V) -> Option<&T>,
    valid: impl Fn(&T) -> bool,
) -> Result<T, Stop>
where
    T: Reflective + Clone,
    A: Answerer + ?Sized,
{
    match finite_values::<T>() {
        Some(all) => {
            let mut passing = all.iter().filter(|v| valid(v));
            let n = passing.clone().count();
            if n == 0 {
                return Err(Stop::Invalid);
            }
            let i = crate::derived::run_part(&int(0..=n - 1).site(site), site, src)?;
            passing.nth(i).cloned().ok_or(Stop::Rejected)
        }
        None => crate::combinators::retrying(src, crate::combinators::DEFAULT_RETRIES, |src| any(src, site), valid),
    }
}

/// The values of a part's type, when it has few (see [`any_where`]), for a search of the
/// predicate: called as `(&&finite(project)).values()`, `None` for a type that is not
/// `Reflective + Clone` or has many.
pub struct Finite<V, T>(PhantomData<fn(&V) -> Option<&T>>);

/// The [`Finite`] of the part `_project` takes from a value (never called: it gives the part's type).
#[inline]
pub fn finite<V, T>(_project: impl Fn(&V) -> Option<&T>) -> Finite<V, T> {
    Finite(PhantomData)
}

/// The values of a type of few (see [`Finite`]).
pub trait FiniteValues<T> {
    /// Every value, when there are few.
    fn values(&self) -> Option<Rc<Vec<T>>>;
}

/// No values listed: a type that is not `Reflective + Clone` (see [`Finite`]).
pub trait Unlisted<T> {
    /// `None`.
    fn values(&self) -> Option<Rc<Vec<T>>>;
}

impl<V, T: Reflective + Clone + 'static> FiniteValues<T> for &Finite<V, T> {
    #[inline]
    fn values(&self) -> Option<Rc<Vec<T>>> {
        finite_values::<T>()
    }
}

impl<V, T> Unlisted<T> for Finite<V, T> {
    #[inline]
    fn values(&self) -> Option<Rc<Vec<T>>> {
        None
    }
}

/// Whether a part the predicate only checks can pass (see [`any_where`]):
/// for a type of few values, whether one does; for others, `true`. What
/// offers an option only where its part can be made.
pub fn exists<V, T>(_project: impl Fn(&V) -> Option<&T>, valid: impl Fn(&T) -> bool) -> bool
where
    T: Reflective + Clone,
{
    finite_values::<T>().is_none_or(|all| all.iter().any(valid))
}

/// The ways of a part the predicate only checks (see [`any_where`]), after `ways`.
pub fn any_where_back<T>(ways: Vec<Way>, site: Site, v: &T, valid: impl Fn(&T) -> bool) -> Vec<Way>
where
    T: Reflective + Clone + PartialEq,
{
    if !valid(v) {
        return Vec::new();
    }
    match finite_values::<T>() {
        Some(all) => {
            let passing: Vec<&T> = all.iter().filter(|x| valid(x)).collect();
            match passing.iter().position(|x| *x == v) {
                Some(i) => crate::derived::back_part(ways, site, int(0..=passing.len() - 1).site(site).back(&i)),
                None => Vec::new(),
            }
        }
        None => any_back(ways, site, v),
    }
}

/// A part made in the type the predicate compares it in (`i32::from(*k)`),
/// converted back; [`Stop::Invalid`] when it does not fit the part's type.
#[inline]
pub fn converted<W, T: TryFrom<W>>(w: W) -> Result<T, Stop> {
    T::try_from(w).map_err(|_| Stop::Invalid)
}

/// [`converted`] into the part `_project` takes from a value (never called: it gives the part's type).
#[inline]
pub fn converted_as<V, W, T: TryFrom<W>>(_project: impl Fn(&V) -> Option<&T>, w: W) -> Result<T, Stop> {
    converted(w)
}

/// A part's value as made, typed as the part `_project` takes from a value (never called).
#[inline]
pub fn typed_part<V, T>(_project: impl Fn(&V) -> Option<&T>, made: Result<T, Stop>) -> Result<T, Stop> {
    made
}

/// The most values an integer part's range may hold for [`bounded_where`] to draw among those
/// that pass.
const SMALL_RANGE: u128 = 64;

/// The values of `lo..=hi`, when there are at most [`SMALL_RANGE`].
fn small_range<W: IntValue>(range: Option<(W, W)>) -> Option<impl Iterator<Item = W> + Clone> {
    let (lo, hi) = range?;
    let len = hi.to_bits().wrapping_sub(lo.to_bits()).wrapping_add(1);
    (len <= SMALL_RANGE).then(|| (0..len).map(move |k| W::from_bits(lo.to_bits().wrapping_add(k))))
}

/// An integer part the predicate bounds and checks (`valid`): in a small range, one of the values
/// that pass, drawn uniformly (an integer choice at `site`, the position among them;
/// [`Stop::Invalid`] when none does); in a large one, a value of the range made again while it
/// fails. `convert` takes a value of the range (of the type the predicate compares the part in)
/// to the part. (`_project`, as for [`any_where`], tells the compiler the part's type.)
#[inline]
pub fn bounded_where<V, W: IntValue, T, A: Answerer + ?Sized>(
    src: &mut A,
    site: Site,
    _project: impl Fn(&V) -> Option<&T>,
    range: Option<(W, W)>,
    convert: impl Fn(W) -> Result<T, Stop>,
    valid: impl Fn(&T) -> bool,
) -> Result<T, Stop> {
    let passes = |w: &W| convert(*w).is_ok_and(|t| valid(&t));
    match small_range(range) {
        Some(all) => {
            let n = all.clone().filter(passes).count();
            if n == 0 {
                return Err(Stop::Invalid);
            }
            let i = crate::derived::run_part(&int(0..=n - 1).site(site), site, src)?;
            let w = all.filter(passes).nth(i).ok_or(Stop::Rejected)?;
            convert(w)
        }
        None => crate::combinators::retrying(
            src,
            crate::combinators::DEFAULT_RETRIES,
            |src| bounded(src, site, range).and_then(&convert),
            valid,
        ),
    }
}

/// Whether an integer part the predicate bounds and checks can pass (see [`bounded_where`]): in a
/// small range, whether a value does; in a large one, `true`.
pub fn bounded_exists<V, W: IntValue, T>(
    _project: impl Fn(&V) -> Option<&T>,
    range: Option<(W, W)>,
    convert: impl Fn(W) -> Result<T, Stop>,
    valid: impl Fn(&T) -> bool,
) -> bool {
    match small_range(range) {
        Some(mut all) => all.any(|w| convert(w).is_ok_and(|t| valid(&t))),
        None => range.is_some(),
    }
}

/// The ways of an integer part the predicate bounds and checks (see [`bounded_where`]), `w` its
/// value in the range's type, after `ways`.
pub fn bounded_where_back<V, W: IntValue, T>(
    ways: Vec<Way>,
    site: Site,
    _project: impl Fn(&V) -> Option<&T>,
    range: Option<(W, W)>,
    w: W,
    convert: impl Fn(W) -> Result<T, Stop>,
    valid: impl Fn(&T) -> bool,
) -> Vec<Way> {
    let passes = |x: &W| convert(*x).is_ok_and(|t| valid(&t));
    match small_range(range) {
        Some(all) => {
            let n = all.clone().filter(passes).count();
            match all.filter(passes).position(|x| x == w) {
                Some(i) => crate::derived::back_part(ways, site, int(0..=n - 1).site(site).back(&i)),
                None => Vec::new(),
            }
        }
        None if passes(&w) => bounded_back(ways, site, range, &w),
        None => Vec::new(),
    }
}

/// An ordered part the predicate bounds (`lo <= *k && *k < hi`), of a type the generated code does
/// not name: its methods are chosen by the part's type, an integer's from [`RangedInt`] (made
/// within the bounds), any other ordered type's from [`RangedAny`] (made by its own generator and
/// checked against them). Called as `(&&ranged(project)).make(...)`: the integer methods, on
/// `&Ranged`, are found first where they apply, the others after one dereference.
pub struct Ranged<V, T>(PhantomData<fn(&V) -> Option<&T>>);

/// The [`Ranged`] of the part `_project` takes from a value (never called: it gives the part's type).
#[inline]
pub fn ranged<V, T>(_project: impl Fn(&V) -> Option<&T>) -> Ranged<V, T> {
    Ranged(PhantomData)
}

/// The range integer bounds leave (each a bound and whether it is strict), or `None`.
#[inline]
fn int_span<T: IntValue, const L: usize, const H: usize>(
    lows: [(T, bool); L],
    highs: [(T, bool); H],
) -> Option<(T, T)> {
    span(
        lows.map(|(l, strict)| if strict { above(l) } else { Some(l) }),
        highs.map(|(h, strict)| if strict { below(h) } else { Some(h) }),
    )
}

/// Whether `v` lies within the bounds.
fn within<T: PartialOrd>(v: &T, lows: &[(T, bool)], highs: &[(T, bool)]) -> bool {
    lows.iter().all(|(l, strict)| if *strict { l < v } else { l <= v })
        && highs.iter().all(|(h, strict)| if *strict { v < h } else { v <= h })
}

/// An ordered part's lower and upper bounds, each `(bound, strict)`.
pub type Bounds<T, const L: usize, const H: usize> = ([(T, bool); L], [(T, bool); H]);

/// The methods of an ordered part within its bounds, declared once for the two traits whose
/// impls [`Ranged`]'s receiver chooses between.
macro_rules! ranged_trait {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub trait $name<T> {
            /// Made within the bounds.
            fn make<A: Answerer + ?Sized, const L: usize, const H: usize>(
                &self,
                src: &mut A,
                site: Site,
                bounds: Bounds<T, L, H>,
            ) -> Result<T, Stop>;
            /// Made within the bounds, passing `valid`.
            fn make_where<A: Answerer + ?Sized, const L: usize, const H: usize>(
                &self,
                src: &mut A,
                site: Site,
                bounds: Bounds<T, L, H>,
                valid: impl Fn(&T) -> bool,
            ) -> Result<T, Stop>;
            /// Its ways after `ways`: none outside the bounds.
            fn back<const L: usize, const H: usize>(
                &self,
                ways: Vec<Way>,
                site: Site,
                bounds: Bounds<T, L, H>,
                v: &T,
            ) -> Vec<Way>;
            /// Its ways after `ways`, passing `valid`.
            fn back_where<const L: usize, const H: usize>(
                &self,
                ways: Vec<Way>,
                site: Site,
                bounds: Bounds<T, L, H>,
                v: &T,
                valid: impl Fn(&T) -> bool,
            ) -> Vec<Way>;
            /// Whether a value within the bounds can pass `valid` (`true` where that is not known
            /// before making one).
            fn exists<const L: usize, const H: usize>(&self, bounds: Bounds<T, L, H>, valid: impl Fn(&T) -> bool) -> bool;
            /// The values a search of the predicate tries, and whether they are all there are
            /// (see [`candidates`](crate::__private::candidates)); `None` when the bounds leave none.
            fn candidates<const L: usize, const H: usize>(
                &self,
                bounds: Bounds<T, L, H>,
            ) -> Option<(impl Iterator<Item = T>, bool)>;
        }
    };
}

ranged_trait!(
    /// An integer part, made within its bounds (see [`bounded`] and [`bounded_where`]).
    RangedInt
);

ranged_trait!(
    /// An ordered part of another type (a newtype, a `char`, a string): made by its type's own
    /// generator, and made again while it lies outside its bounds or fails `valid` (see [`Ranged`]).
    RangedAny
);

impl<V, T: IntValue> RangedInt<T> for &Ranged<V, T> {
    #[inline]
    fn make<A: Answerer + ?Sized, const L: usize, const H: usize>(
        &self,
        src: &mut A,
        site: Site,
        (lows, highs): Bounds<T, L, H>,
    ) -> Result<T, Stop> {
        bounded(src, site, int_span(lows, highs))
    }

    #[inline]
    fn make_where<A: Answerer + ?Sized, const L: usize, const H: usize>(
        &self,
        src: &mut A,
        site: Site,
        (lows, highs): Bounds<T, L, H>,
        valid: impl Fn(&T) -> bool,
    ) -> Result<T, Stop> {
        bounded_where(src, site, |_: &V| None::<&T>, int_span(lows, highs), Ok, valid)
    }

    fn back<const L: usize, const H: usize>(
        &self,
        ways: Vec<Way>,
        site: Site,
        (lows, highs): Bounds<T, L, H>,
        v: &T,
    ) -> Vec<Way> {
        bounded_back(ways, site, int_span(lows, highs), v)
    }

    fn back_where<const L: usize, const H: usize>(
        &self,
        ways: Vec<Way>,
        site: Site,
        (lows, highs): Bounds<T, L, H>,
        v: &T,
        valid: impl Fn(&T) -> bool,
    ) -> Vec<Way> {
        bounded_where_back(ways, site, |_: &V| None::<&T>, int_span(lows, highs), *v, Ok, valid)
    }

    fn exists<const L: usize, const H: usize>(
        &self,
        (lows, highs): Bounds<T, L, H>,
        valid: impl Fn(&T) -> bool,
    ) -> bool {
        bounded_exists(|_: &V| None::<&T>, int_span(lows, highs), Ok, valid)
    }

    fn candidates<const L: usize, const H: usize>(
        &self,
        (lows, highs): Bounds<T, L, H>,
    ) -> Option<(impl Iterator<Item = T>, bool)> {
        crate::completable::candidates(int_span(lows, highs))
    }
}

impl<V, T: Reflective + PartialOrd + Clone> RangedAny<T> for Ranged<V, T> {
    #[inline]
    fn make<A: Answerer + ?Sized, const L: usize, const H: usize>(
        &self,
        src: &mut A,
        site: Site,
        bounds: Bounds<T, L, H>,
    ) -> Result<T, Stop> {
        self.make_where(src, site, bounds, |_| true)
    }

    #[inline]
    fn make_where<A: Answerer + ?Sized, const L: usize, const H: usize>(
        &self,
        src: &mut A,
        site: Site,
        (lows, highs): Bounds<T, L, H>,
        valid: impl Fn(&T) -> bool,
    ) -> Result<T, Stop> {
        crate::combinators::retrying(
            src,
            crate::combinators::DEFAULT_RETRIES,
            |src| any(src, site),
            |v| within(v, &lows, &highs) && valid(v),
        )
    }

    fn back<const L: usize, const H: usize>(
        &self,
        ways: Vec<Way>,
        site: Site,
        bounds: Bounds<T, L, H>,
        v: &T,
    ) -> Vec<Way> {
        self.back_where(ways, site, bounds, v, |_| true)
    }

    fn back_where<const L: usize, const H: usize>(
        &self,
        ways: Vec<Way>,
        site: Site,
        (lows, highs): Bounds<T, L, H>,
        v: &T,
        valid: impl Fn(&T) -> bool,
    ) -> Vec<Way> {
        if within(v, &lows, &highs) && valid(v) {
            any_back(ways, site, v)
        } else {
            Vec::new()
        }
    }

    fn exists<const L: usize, const H: usize>(&self, _: Bounds<T, L, H>, _: impl Fn(&T) -> bool) -> bool {
        true
    }

    fn candidates<const L: usize, const H: usize>(
        &self,
        _: Bounds<T, L, H>,
    ) -> Option<(impl Iterator<Item = T>, bool)> {
        // Values of another type are not counted: none tried, and the search is not complete.
        Some((std::iter::empty(), false))
    }
}

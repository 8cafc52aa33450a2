//! The reflective generator trait: one definition, run forward by a source or back from a value.

use crate::choice::ChoiceTree;
use crate::source::{DetRng, RngSource, Source, Stop};
use std::rc::Rc;

mod adapters;
mod filter;
mod forward;

pub use adapters::{At, Bind, Map, Part, Then};
pub use filter::{
    failed_attempts, retrying, retrying_completable, retrying_dead_ends, Filter, DEFAULT_RETRIES, RETRY_BUDGET,
};
pub(crate) use forward::{fill_draws, one_forward_body};
pub use forward::{Answerer, Sequence};

/// One way a generator can produce a given value: the choices it makes
/// (as a forest, the children of the node that holds them) and the
/// probability that generation makes exactly those choices.
#[derive(Debug, Clone, PartialEq)]
pub struct Way {
    /// The choices, as the children of the enclosing node.
    pub forest: Vec<ChoiceTree>,
    /// The probability that generation makes these choices.
    pub prob: f64,
}

impl Way {
    /// The way that makes no choice.
    pub fn empty() -> Self {
        Way { forest: Vec::new(), prob: 1.0 }
    }
}

/// Every way of making one part followed by every way of making the next:
/// the pairwise concatenation of the two lists.
pub fn product(first: Vec<Way>, then: &[Way]) -> Vec<Way> {
    if then.len() == 1 {
        let t = &then[0];
        return first
            .into_iter()
            .map(|mut w| {
                w.forest.extend(t.forest.iter().cloned());
                w.prob *= t.prob;
                w
            })
            .collect();
    }
    let mut out = Vec::with_capacity(first.len() * then.len());
    for w in &first {
        for t in then {
            let mut forest = w.forest.clone();
            forest.extend(t.forest.iter().cloned());
            out.push(Way { forest, prob: w.prob * t.prob });
        }
    }
    out
}

/// A reflective generator of `Self::Value`.
///
/// It is written once and interpreted many ways (see the crate root):
/// [`Gen::run`] is the forward direction, in which a [`Source`] answers each
/// choice point; [`Gen::back`] is the backward direction, which takes a value
/// and finds every way the generator could have produced it.
///
/// Build generators from the combinators in [`crate::combinators`] or with
/// `#[derive(Reflective)]`; implement this trait by hand only for a new kind
/// of building block. Such a generator needs only [`Gen::run`] and
/// [`Gen::back`]; plain generation ([`Gen::run_rng`]) then runs `run` with
/// an [`RngSource`]. The combinators and derived generators write their
/// forward direction once, generic over an
/// [`Answerer`], and serve both methods from it,
/// so plain generation makes no dynamic call per choice; a hand-written
/// generator can do the same (see there).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a generator",
    label = "not a generator",
    note = "`#[choice(with = ...)]` and `#[gen(...)]` take a generator of the field's type, such as `int(0..=9)`, \
            `vec(int(0u8..=9), 0..=4)` or `u8::generator()` (see `refgen::combinators`)"
)]
pub trait Gen {
    /// The type of the values generated.
    type Value;

    /// The forward direction: produce a value, asking `src` at each choice point.
    fn run(&self, src: &mut dyn Source) -> Result<Self::Value, Stop>;

    /// The backward direction: every way this generator can produce exactly
    /// `target` (an empty list when it cannot).
    fn back(&self, target: &Self::Value) -> Vec<Way>;

    /// Plain generation from `rng`: exactly what [`Gen::run`] gives with an
    /// [`RngSource`] over the same RNG (the same draws in the same order),
    /// without a dynamic call per choice. The combinators and derived
    /// generators serve both methods from one forward body, generic over an
    /// [`Answerer`]; the default runs [`Gen::run`].
    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<Self::Value, Stop> {
        self.run(&mut RngSource(rng))
    }

    /// Plain generation of `n` values in a row, added at the end of `out`:
    /// exactly what `n` calls of [`Gen::run_rng`] give (the same draws in
    /// the same order), stopping at the first that gives no value. What a
    /// collection's elements take on the fast path. The default makes
    /// those calls; integers and chars make their per-value decisions
    /// (which arithmetic, which kind of range) once for the whole run.
    #[inline]
    fn fill_rng<C: Sequence<Self::Value>>(&self, rng: &mut DetRng, n: usize, out: &mut C) -> Result<(), Stop>
    where
        Self: Sized,
    {
        for _ in 0..n {
            out.push_elem(self.run_rng(rng)?);
        }
        Ok(())
    }

    /// Transform generated values with `forward`; `backward` maps a value
    /// back to the one `forward` was given (a partial inverse: `None` where
    /// the value is not in `forward`'s image).
    fn map<U, F, B>(self, forward: F, backward: B) -> Map<Self, F, B>
    where
        Self: Sized,
        F: Fn(Self::Value) -> U,
        B: Fn(&U) -> Option<Self::Value>,
    {
        Map { gen: self, forward, backward }
    }

    /// Focus this generator on a part of a larger value of type `T` for the
    /// backward direction (Goldstein's `at`): `project` extracts the part
    /// from the whole, or `None` when the whole cannot contain it. Continue
    /// with [`At::bind`](At::bind).
    fn at<T, P>(self, project: P) -> At<Self, P, T>
    where
        Self: Sized,
        P: Fn(&T) -> Option<Self::Value>,
    {
        At { gen: self, project, _whole: std::marker::PhantomData }
    }

    /// Dependent generation without a projection: run this generator, then
    /// the generator `next` builds from its value (the monadic bind).
    ///
    /// Every forward interpretation runs through it: generate, parse,
    /// replay, shrinking, mutation, derivatives. The backward direction does
    /// not reflect through it: the value it gives need not contain the
    /// value this generator made, so [`Gen::back`] finds no way to make
    /// any value (`reflect` and `check` say no, and an explicit example
    /// through it is reported as not in the generator's range). Where the
    /// result does contain the earlier value, focus with [`Gen::at`] and
    /// use [`At::bind`](At::bind) to keep reflection.
    ///
    /// ```
    /// use refgen::combinators::{int, vec};
    /// use refgen::{generate, Gen};
    ///
    /// // A length, then that many indices below it.
    /// let g = int(1usize..=5).bind(|n| vec(int(0..=n - 1), n..=n));
    /// let xs = generate(&g, 7).unwrap();
    /// assert!(xs.iter().all(|&i| i < xs.len()));
    /// ```
    fn bind<H, K>(self, next: K) -> Then<Self, K>
    where
        Self: Sized,
        K: Fn(Self::Value) -> H,
        H: Gen,
    {
        Then { gen: self, next }
    }

    /// Keep only values that satisfy `valid`: a value that fails is made
    /// again, up to [`DEFAULT_RETRIES`]
    /// times (set with [`Filter::retries`](Filter::retries)),
    /// then the run stops with [`Stop::Invalid`]. The choice tree records
    /// the failed attempts; see [`Filter`].
    fn filter<P>(self, valid: P) -> Filter<Self, P>
    where
        Self: Sized,
        P: Fn(&Self::Value) -> bool,
    {
        Filter::new(self, valid)
    }

    /// Record this generator's choices as a part named `site` (a group in the choice tree).
    fn part(self, site: crate::choice::Site) -> Part<Self>
    where
        Self: Sized,
    {
        Part { gen: self, site }
    }

    /// Put this generator behind a shared pointer, erasing its type.
    fn boxed(self) -> BoxGen<Self::Value>
    where
        Self: Sized + 'static,
    {
        Rc::new(self)
    }
}

/// A type-erased, shareable generator.
pub type BoxGen<T> = Rc<dyn Gen<Value = T>>;

/// Pointers to generators are generators.
macro_rules! forward_gen {
    ($($ptr:ty),*) => {$(
        impl<G: Gen + ?Sized> Gen for $ptr {
            type Value = G::Value;
            fn run(&self, src: &mut dyn Source) -> Result<Self::Value, Stop> {
                (**self).run(src)
            }
            #[inline]
            fn run_rng(&self, rng: &mut DetRng) -> Result<Self::Value, Stop> {
                (**self).run_rng(rng)
            }
            fn back(&self, target: &Self::Value) -> Vec<Way> {
                (**self).back(target)
            }
        }
    )*};
}
forward_gen!(&G, Rc<G>, Box<G>);

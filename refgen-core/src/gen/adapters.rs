//! The adapters of [`Gen`]'s provided methods: [`Map`], [`Part`], [`At`] with [`Bind`], and [`Then`].
//!
//! They live beside the trait, as an iterator's adapters do, so that the
//! trait names them without reaching into [`crate::combinators`], which
//! re-exports them.

use super::forward::{one_forward_body, Answerer};
use super::{product, Gen, Way};
use crate::choice::{ChoiceTree, Site};
use crate::source::Stop;
use std::marker::PhantomData;

// ---------------------------------------------------------------- map, part

/// See [`Gen::map`].
#[derive(Debug, Clone)]
pub struct Map<G, F, B> {
    pub(crate) gen: G,
    pub(crate) forward: F,
    pub(crate) backward: B,
}

impl<G: Gen, F, B> Map<G, F, B> {
    #[inline]
    fn forward<U, A: Answerer + ?Sized>(&self, a: &mut A) -> Result<U, Stop>
    where
        F: Fn(G::Value) -> U,
    {
        a.sub(&self.gen).map(&self.forward)
    }
}

impl<G: Gen, U, F, B> Gen for Map<G, F, B>
where
    F: Fn(G::Value) -> U,
    B: Fn(&U) -> Option<G::Value>,
{
    type Value = U;
    one_forward_body!();
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

impl<G: Gen> Part<G> {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<G::Value, Stop> {
        if !a.tracks_parts() {
            return a.sub(&self.gen);
        }
        a.enter(self.site);
        let r = a.sub(&self.gen);
        a.leave();
        r
    }
}

impl<G: Gen> Gen for Part<G> {
    type Value = G::Value;
    one_forward_body!();
    fn back(&self, target: &G::Value) -> Vec<Way> {
        self.gen
            .back(target)
            .into_iter()
            .map(|w| Way { forest: vec![ChoiceTree::group(self.site, w.forest)], prob: w.prob })
            .collect()
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

impl<G: Gen, P, K> Bind<G, P, K> {
    #[inline]
    fn forward<H: Gen, A: Answerer + ?Sized>(&self, a: &mut A) -> Result<H::Value, Stop>
    where
        K: Fn(G::Value) -> H,
    {
        bind_forward(&self.gen, &self.next, a)
    }
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
    one_forward_body!();
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

/// The forward direction of both binds ([`Bind`], [`Then`]): run `gen`,
/// then the generator `next` builds from its value.
#[inline]
fn bind_forward<G, H, K, A>(gen: &G, next: &K, a: &mut A) -> Result<H::Value, Stop>
where
    G: Gen,
    H: Gen,
    K: Fn(G::Value) -> H,
    A: Answerer + ?Sized,
{
    let first = a.sub(gen)?;
    a.sub(&next(first))
}

/// Dependent generation that does not reflect; see [`Gen::bind`].
#[derive(Clone)]
pub struct Then<G, K> {
    pub(crate) gen: G,
    pub(crate) next: K,
}

impl<G: Gen, K> Then<G, K> {
    #[inline]
    fn forward<H: Gen, A: Answerer + ?Sized>(&self, a: &mut A) -> Result<H::Value, Stop>
    where
        K: Fn(G::Value) -> H,
    {
        bind_forward(&self.gen, &self.next, a)
    }
}

impl<G, K, H> Gen for Then<G, K>
where
    G: Gen,
    K: Fn(G::Value) -> H,
    H: Gen,
{
    type Value = H::Value;
    one_forward_body!();
    fn back(&self, _target: &H::Value) -> Vec<Way> {
        Vec::new()
    }
}

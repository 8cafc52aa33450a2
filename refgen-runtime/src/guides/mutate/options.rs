//! `#[property(guide = mutate(...))]`'s options: `corpus`, `fresh`, `splice`, `graft`, `rotate`, `restart_every`, `restart_luby`, `operators`.

use super::{MutateConfig, MutateGuide, RESTART, ROTATE};
use refgen_core::edit::Mutation;

/// The most operators `operators = [...]` lists (repeats weigh an operator more).
const MAX_OPERATORS: usize = 8;

/// `#[property(guide = mutate(...))]`'s options, their defaults (see [`super`]'s table).
pub const fn options<V>() -> MutateOptions {
    MutateOptions {
        corpus_size: 256,
        fresh: 0.1,
        splice: 0.5,
        graft: 0.25,
        rotate: ROTATE,
        restart_every: RESTART,
        restart_luby: true,
        operators: [Mutation::Reroll; MAX_OPERATORS],
        len: 0,
    }
}

/// The options of `guide = mutate(corpus = N, fresh = P, splice = P, graft = P, rotate = P, operators = [...])`.
#[derive(Debug, Clone, Copy)]
pub struct MutateOptions {
    corpus_size: usize,
    fresh: f64,
    splice: f64,
    graft: f64,
    rotate: f64,
    restart_every: u64,
    restart_luby: bool,
    /// The first `len` are the operators given; none given is all three.
    operators: [Mutation; MAX_OPERATORS],
    len: usize,
}

impl MutateOptions {
    /// `corpus = N`: the most entries the corpus keeps, at least 1 ([`MutateConfig::corpus_size`]).
    pub const fn corpus(mut self, n: usize) -> Self {
        self.corpus_size = if n > 0 { n } else { 1 };
        self
    }

    /// `fresh = P`: the share of fresh valid cases, clamped to `0..=1` ([`MutateConfig::fresh`]).
    pub const fn fresh(mut self, p: f64) -> Self {
        self.fresh = p.clamp(0.0, 1.0);
        self
    }

    /// `splice = P`: the share of mutants made by splicing, clamped to `0..=1` ([`MutateConfig::splice`]).
    pub const fn splice(mut self, p: f64) -> Self {
        self.splice = p.clamp(0.0, 1.0);
        self
    }

    /// `graft = P`: the share of the cases that are not fresh made by grafting, clamped to `0..=1`
    /// ([`MutateConfig::graft`]).
    pub const fn graft(mut self, p: f64) -> Self {
        self.graft = p.clamp(0.0, 1.0);
        self
    }

    /// `rotate = P`: the share of the cases that are neither fresh nor grafted made by rotation,
    /// clamped to `0..=1` ([`MutateConfig::rotate`]).
    pub const fn rotate(mut self, p: f64) -> Self {
        self.rotate = p.clamp(0.0, 1.0);
        self
    }

    /// `restart_every = N`: the unit of the periods between restarts, in cases, `0` never
    /// ([`MutateConfig::restart_every`]).
    pub const fn restart_every(mut self, n: u64) -> Self {
        self.restart_every = n;
        self
    }

    /// `restart_luby = false`: start again every `restart_every` cases, not after periods of Luby's
    /// sequence ([`MutateConfig::restart_luby`]).
    pub const fn restart_luby(mut self, on: bool) -> Self {
        self.restart_luby = on;
        self
    }

    /// `operators = [reroll, swap, shrink]`: the operators mutants are made by, in this order
    /// ([`MutateConfig::operators`]).
    pub const fn operators<const N: usize>(mut self, ops: [Mutation; N]) -> Self {
        assert!(
            N > 0 && N <= MAX_OPERATORS,
            "`operators` is a list of `reroll`, `swap` and `shrink`, such as `operators = [reroll, shrink]`"
        );
        let mut i = 0;
        while i < N {
            self.operators[i] = ops[i];
            i += 1;
        }
        self.len = N;
        self
    }
}

/// The names `mutate`'s options use: the operators of `operators = [...]`.
#[allow(non_upper_case_globals)]
pub mod names {
    use refgen_core::edit::Mutation;

    /// `rerollMut`: [`Mutation::Reroll`].
    pub const reroll: Mutation = Mutation::Reroll;
    /// `swapMut`: [`Mutation::Swap`].
    pub const swap: Mutation = Mutation::Swap;
    /// `shrinkMut`: [`Mutation::Shrink`].
    pub const shrink: Mutation = Mutation::Shrink;
}

impl MutateOptions {
    /// The configuration the options give.
    pub fn config(self) -> MutateConfig {
        let config = MutateConfig::default()
            .corpus_size(self.corpus_size)
            .fresh(self.fresh)
            .splice(self.splice)
            .graft(self.graft)
            .rotate(self.rotate)
            .restart_every(self.restart_every)
            .restart_luby(self.restart_luby);
        config.operators(self.operators[..self.len].iter().copied())
    }
}

impl<V> crate::guides::GuideOptions<V> for MutateOptions {
    type Guide = MutateGuide;
    fn into_guide(self, _property: crate::guides::ForProperty<V>) -> MutateGuide {
        MutateGuide::new(self.config())
    }
}

//! [`MutateConfig`]: mutation's parameters, whose `const fn` setters are `guide = mutate(...)`'s keys.

use super::MutateGuide;
use refgen_core::edit::Mutation;
use std::ops::Deref;

/// `#[property(guide = mutate(...))]`'s options, their defaults (see [`crate::guides`]'s table): the
/// same as [`MutateConfig::default`].
pub const fn options<V>() -> MutateConfig {
    MutateConfig {
        corpus_size: 256,
        fresh: 0.1,
        operators: Operators::ALL,
        splice: 0.5,
        graft: 0.25,
        rotate: ROTATE,
        restart_every: RESTART,
        restart_luby: true,
    }
}

/// The parameters of a [`MutateGuide`]; see [`super`]. Its setters are
/// `#[property(guide = mutate(key = value, ...))]`'s keys: `corpus`, `fresh`, `splice`, `graft`,
/// `rotate`, `restart_every`, `restart_luby`, `operators`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MutateConfig {
    /// The most entries the corpus keeps; default 256.
    pub corpus_size: usize,
    /// The share of the valid cases that are fresh once the corpus has entries; default 0.1.
    pub fresh: f64,
    /// The operators mutants are made by, drawn uniformly (a slice: [`Operators`] derefs to one);
    /// default all three.
    pub operators: Operators,
    /// The share of mutants made by splicing (`0..=1`; [`refgen_core::edit::splice`]) once the corpus has given
    /// donors; default 0.5. The others are made by [`MutateConfig::operators`].
    ///
    /// Half is kept for the red-black tree: a quarter made the AVL tree's and the typed language's failures
    /// take fewer tests and the red-black tree's more ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#splice-share)).
    pub splice: f64,
    /// The share of the cases that are not fresh made by grafting (`0..=1`; see [`super`]) once
    /// the corpus has given donors; default 0.25. The others are mutants.
    pub graft: f64,
    /// The share of the cases that are neither fresh nor grafted made by rotating a corpus entry
    /// (`0..=1`; [`refgen_core::edit::rotation`], see [`super`]); default [`ROTATE`].
    pub rotate: f64,
    /// The unit of the restarts' periods, in cases (`0`: never start again; default [`RESTART`]): at a
    /// restart the corpus keeps only its seeds, failures and utility records, and the donors, shapes
    /// and features learned from valid values are dropped (see [`super`]). With
    /// [`MutateConfig::restart_luby`], the periods are this many cases times the terms of Luby's
    /// sequence (1, 1, 2, 1, 1, 2, 4, ...); without, each is this many cases.
    pub restart_every: u64,
    /// Whether the periods between restarts follow Luby's sequence in units of
    /// [`MutateConfig::restart_every`] (default), or are all that long.
    pub restart_luby: bool,
}

/// The share of rotations among the cases that are neither fresh nor grafted by default
/// ([`MutateConfig::rotate`]): half. A rotation of a type whose validity couples siblings is mostly
/// rejected (about 95% of a red-black tree's); the runner counts a guide's rejected edits apart from
/// discards ([`crate::runner::Report::rejected`]), so they do not make a run give up as vacuous. See
/// [`super`] for what rotations find.
///
/// Half: the red-black tree's delete bugs need rotated, recoloured shapes; a quarter made the AVL tree's
/// and the typed language's failures come sooner and the red-black tree's later
/// ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#rotate)).
pub const ROTATE: f64 = 0.5;

/// The unit of the periods between restarts of a [`MutateGuide`] by default, in
/// cases ([`MutateConfig::restart_every`]): the guide starts again after 5,000, 10,000, 20,000, 25,000,
/// 30,000, 40,000, 60,000, ... cases (Luby's sequence, [`MutateConfig::restart_luby`]; from Luby,
/// Sinclair and Zuckerman, "Optimal Speedup of Las Vegas Algorithms": for independent runs, restarting
/// after these periods is within a logarithmic factor of the best fixed period, whatever the
/// distribution of cases to a failure; a restart here keeps the corpus's seeds and failures, so its
/// runs are independent only nearly).
///
/// Without restarts, some runs never made the red-black trees that delete's rebalancing bugs break; Luby's
/// periods found failures sooner than a fixed 20,000 cases, and keep the long runs that a fixed 5,000
/// cases lacked for a red-black task that needs large trees ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#restart)).
pub const RESTART: u64 = 5_000;

impl Default for MutateConfig {
    fn default() -> Self {
        options::<()>()
    }
}

/// The most operators [`MutateConfig::operators`] takes (repeats weigh an operator more).
const MAX_OPERATORS: usize = 8;

/// The operators mutants are made by, in order: 1 to 8 of them, repeats weighing an operator more.
/// Read it as a slice (`Deref<Target = [Mutation]>`); set it with [`MutateConfig::operators`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operators {
    /// The first `len` are the operators; the rest are [`Mutation::Reroll`], unused.
    ops: [Mutation; MAX_OPERATORS],
    len: usize,
}

impl Operators {
    /// All three, [`Mutation::ALL`], once each.
    const ALL: Operators = Operators::of(Mutation::ALL);

    /// `ops`, in this order: 1 to [`MAX_OPERATORS`] of them ([`MutateConfig::operators`] checks).
    const fn of<const N: usize>(ops: [Mutation; N]) -> Operators {
        let mut all = [Mutation::Reroll; MAX_OPERATORS];
        let mut i = 0;
        while i < N {
            all[i] = ops[i];
            i += 1;
        }
        Operators { ops: all, len: N }
    }
}

impl Deref for Operators {
    type Target = [Mutation];
    fn deref(&self) -> &[Mutation] {
        &self.ops[..self.len]
    }
}

impl MutateConfig {
    /// `corpus = N`: the same configuration keeping at most `n` corpus entries (at least 1).
    pub const fn corpus(mut self, n: usize) -> Self {
        self.corpus_size = if n > 0 { n } else { 1 };
        self
    }

    /// [`MutateConfig::corpus`], by the name of the field it sets.
    pub const fn corpus_size(self, n: usize) -> Self {
        self.corpus(n)
    }

    /// `fresh = P`: the same configuration making a share `p` of the work fresh cases (clamped to `0..=1`).
    pub const fn fresh(mut self, p: f64) -> Self {
        self.fresh = p.clamp(0.0, 1.0);
        self
    }

    /// `splice = P`: the same configuration making a share `p` of its mutants by splicing (clamped to `0..=1`).
    pub const fn splice(mut self, p: f64) -> Self {
        self.splice = p.clamp(0.0, 1.0);
        self
    }

    /// `graft = P`: the same configuration making a share `p` of the cases that are not fresh by grafting
    /// (clamped to `0..=1`).
    pub const fn graft(mut self, p: f64) -> Self {
        self.graft = p.clamp(0.0, 1.0);
        self
    }

    /// `rotate = P`: the same configuration making a share `p` of the cases that are neither fresh nor
    /// grafted by rotation (clamped to `0..=1`).
    pub const fn rotate(mut self, p: f64) -> Self {
        self.rotate = p.clamp(0.0, 1.0);
        self
    }

    /// `restart_every = N`: the same configuration starting again after periods of `n` cases times the
    /// terms of Luby's sequence, or every `n` cases without it ([`MutateConfig::restart_luby`]); `0`: never.
    pub const fn restart_every(mut self, n: u64) -> Self {
        self.restart_every = n;
        self
    }

    /// `restart_luby = false`: the same configuration with its periods between restarts following
    /// Luby's sequence (`true`, the default) or all [`MutateConfig::restart_every`] cases long (`false`).
    pub const fn restart_luby(mut self, on: bool) -> Self {
        self.restart_luby = on;
        self
    }

    /// `operators = [reroll, swap, shrink]`: the same configuration mutating only by `ops`, 1 to 8
    /// operators drawn uniformly (a repeated one weighs more).
    pub const fn operators<const N: usize>(mut self, ops: [Mutation; N]) -> Self {
        assert!(
            N > 0 && N <= MAX_OPERATORS,
            "`operators` is a list of `reroll`, `swap` and `shrink`, such as `operators = [reroll, shrink]`"
        );
        self.operators = Operators::of(ops);
        self
    }
}

crate::guides::option_keys!(corpus, corpus_size, fresh, splice, graft, rotate, restart_every, restart_luby, operators);

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

impl<V> crate::guides::GuideOptions<V> for MutateConfig {
    type Guide = MutateGuide;
    fn into_guide(self, _property: crate::guides::ForProperty<V>) -> MutateGuide {
        MutateGuide::new(self)
    }
}

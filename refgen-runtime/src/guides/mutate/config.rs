//! The parameters of mutation: [`MutateConfig`], its defaults and its setters.

use refgen_core::edit::Mutation;

/// The parameters of a [`MutateGuide`](super::MutateGuide); see [`super`].
#[derive(Debug, Clone, PartialEq)]
pub struct MutateConfig {
    /// The most entries the corpus keeps; default 256.
    pub corpus_size: usize,
    /// The share of the valid cases that are fresh once the corpus has entries; default 0.1.
    pub fresh: f64,
    /// The operators mutants are made by, drawn uniformly; default all three.
    pub operators: Vec<Mutation>,
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

/// The unit of the periods between restarts of a [`MutateGuide`](super::MutateGuide) by default, in
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
        MutateConfig {
            corpus_size: 256,
            fresh: 0.1,
            operators: Mutation::ALL.to_vec(),
            splice: 0.5,
            graft: 0.25,
            rotate: ROTATE,
            restart_every: RESTART,
            restart_luby: true,
        }
    }
}

impl MutateConfig {
    /// The same configuration keeping at most `n` corpus entries (at least 1).
    pub fn corpus_size(mut self, n: usize) -> Self {
        self.corpus_size = n.max(1);
        self
    }

    /// The same configuration making a share `p` of the valid cases fresh (clamped to `0..=1`).
    pub fn fresh(mut self, p: f64) -> Self {
        self.fresh = p.clamp(0.0, 1.0);
        self
    }

    /// The same configuration making a share `p` of its mutants by splicing (clamped to `0..=1`).
    pub fn splice(mut self, p: f64) -> Self {
        self.splice = p.clamp(0.0, 1.0);
        self
    }

    /// The same configuration making a share `p` of the cases that are not fresh by grafting (clamped to `0..=1`).
    pub fn graft(mut self, p: f64) -> Self {
        self.graft = p.clamp(0.0, 1.0);
        self
    }

    /// The same configuration making a share `p` of the cases that are neither fresh nor grafted by
    /// rotation (clamped to `0..=1`).
    pub fn rotate(mut self, p: f64) -> Self {
        self.rotate = p.clamp(0.0, 1.0);
        self
    }

    /// The same configuration starting again after periods of `n` cases times the terms of Luby's
    /// sequence, or every `n` cases without it ([`MutateConfig::restart_luby`]); `0`: never.
    pub fn restart_every(mut self, n: u64) -> Self {
        self.restart_every = n;
        self
    }

    /// The same configuration with its periods between restarts following Luby's sequence (`true`,
    /// the default) or all [`MutateConfig::restart_every`] cases long (`false`).
    pub fn restart_luby(mut self, on: bool) -> Self {
        self.restart_luby = on;
        self
    }

    /// The same configuration mutating only by `ops` (all three when empty).
    pub fn operators(mut self, ops: impl IntoIterator<Item = Mutation>) -> Self {
        self.operators = ops.into_iter().collect();
        if self.operators.is_empty() {
            self.operators = Mutation::ALL.to_vec();
        }
        self
    }
}

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
    /// The share of mutants made by splicing (`0..=1`; [`refgen_core::splice`]) once the corpus has given
    /// donors; default 0.5. The others are made by [`MutateConfig::operators`].
    ///
    /// Half is kept for the red-black tree: under the default guide on `examples/bugfind` (`--per-task`),
    /// with a quarter, the AVL tree's and the typed language's failures took fewer tests (median 183 against
    /// 245, 5 trials per task, and 341 against 373, 10 trials; mean time 12.00 against 11.86 ms and 25.75
    /// against 30.66 ms), the red-black tree's more (median 293 against 270, mean time 208.42 against 157.11
    /// ms, 3 trials per task; one task solved in 1 of 3 trials). Measured again once graft cases reused a
    /// property's keys (`--per-task`, at most 100,000 tests or 1 s a trial, one build, the share set by a
    /// temporary switch), a quarter against a half: the AVL tree's mean tests to a failure 457.9 against
    /// 521.0 (8 trials, mean time 12.21 against 14.46 ms), the typed language's 1226.7 against 1358.4 (6
    /// trials, each run beside the red-black tree's of the same share: 23.15 against 29.62 ms), the heap's
    /// 15.8 against 16.4 (5 trials, 0.63 against 0.74 ms), the search tree's 28.4 against 28.0 (5 trials),
    /// and the red-black tree's 1598.9 against 1527.1, with 334 of its 348 trials solved against 337 (6
    /// trials). A tenth took more tests than a quarter on the four others (the typed language's geometric
    /// mean 551.4 against 373.2, 3 trials).
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
/// discards ([`crate::runner::Report::rejected`]), so they do not make a run give up as vacuous. (When
/// they counted as discards, the default guide's runs of a derived red-black tree gave up in 4 of 8
/// seeds at 256 cases; now its 8 runs there make 352 to 601 rejected edits, against a budget of 1024,
/// and 405 to 723 discards.) See [`super`] for what rotations find.
///
/// Half is kept for the red-black tree, whose delete bugs need rotated, recoloured shapes. With a
/// quarter, under the default guide on `examples/bugfind` (`--per-task`, at most 100,000 tests or 5 s
/// a trial), the AVL tree's and the typed language's failures came sooner (median tests to a failure
/// 204 against 245, mean time 7.55 against 12.10 ms, 5 trials per task; 298 against 373, 24.14
/// against 38.61 ms, 10 trials), the heap's about the same (median 9 both, 0.61 against 0.69 ms), and
/// the red-black tree's later (median 199 against 162, 230.98 against 125.19 ms, 3 trials; 57 of its
/// 59 tasks solved in every trial, against 58).
pub const ROTATE: f64 = 0.5;

/// The unit of the periods between restarts of a [`MutateGuide`](super::MutateGuide) by default, in
/// cases ([`MutateConfig::restart_every`]): the guide starts again after 5,000, 10,000, 20,000, 25,000,
/// 30,000, 40,000, 60,000, ... cases (Luby's sequence, [`MutateConfig::restart_luby`]; from Luby,
/// Sinclair and Zuckerman, "Optimal Speedup of Las Vegas Algorithms": for independent runs, restarting
/// after these periods is within a logarithmic factor of the best fixed period, whatever the
/// distribution of cases to a failure; a restart here keeps the corpus's seeds and failures, so its
/// runs are independent only nearly).
///
/// Measured under the default guide on `examples/bugfind` (`--per-task`, at most 100,000 tests or 5 s
/// a trial, two runs side by side), against a restart every 20,000 cases: the red-black tree's mean
/// time to a failure was 73.30 ms against 93.60 (3 trials per task; median tests 162 both; 58 of its 59
/// tasks solved in every trial both, each run missing a trial of a different task), the AVL tree's 7.46
/// against 9.85 ms (5 trials; median 245 both), the typed language's 19.79 against 27.42 ms (10
/// trials; median 373 both); the heap's and the search tree's draws were the same (their failures come
/// before the first restart).
/// Restarting every 5,000 cases instead lost a task on the red-black tree (`miscolor_join_1/DeleteValid`,
/// which needs trees of about 14 keys, too large to grow in 5,000 cases), where the longer periods of
/// Luby's sequence still find it.
///
/// Why restart at all, measured on the red-black tree workload of `examples/bugfind` (four runs of
/// 60,000 valid trees under the default guide, seeds 0 to 3, each cut in six windows of 10,000),
/// counting the trees that some delete breaks under the mutants `miscolor_balLeft` and
/// `miscolor_balRight`: without restarts, two of the four runs made none for the first mutant in any
/// window, and two made none for the second; with a restart every 20,000 cases, every run made some for
/// both (at most 0.3% to 8% of a window for the first, 0.04% to 18% for the second), where the runs
/// without restarts that made them peaked higher (77% and 24%). On that workload's 58 tasks (3 trials of
/// at most 100,000 tests or 5 s each), the default guide solved all 58, 54 in every trial, with a
/// restart every 20,000 cases, and 54, 46 in every trial, without.
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

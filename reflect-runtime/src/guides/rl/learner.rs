//! RLCheck's learner: one tabular, ε-greedy Monte Carlo Control learner per choice point (RLCheck Alg. 1).

use crate::hashing::{mix, BuildKey};
use rand::Rng;
use reflect_core::source::DetRng;
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    q: f64,
    n: u64,
}

/// A tabular Monte Carlo Control learner for one choice point (RLCheck, Reddy et al., Alg. 1).
///
/// States are `u64` keys (a hash of the abstract state); a state's actions
/// are `0..arity`. `Q[s, c]` starts at 0 for every pair, so the first
/// episode in a state is random; after each episode, [`Learner::update`]
/// folds the episode's reward into the running mean of every pair the
/// episode visited, once per visit, with no discount.
#[derive(Debug, Clone, Default)]
pub struct Learner {
    /// `(state, arity)` key to the first of its `arity` cells.
    table: HashMap<u64, usize, BuildKey>,
    cells: Vec<Cell>,
    /// The cells chosen in the current episode, in order.
    episode: Vec<usize>,
}

impl Learner {
    /// A learner that has seen nothing.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn key(state: u64, arity: usize) -> u64 {
        mix(state, arity as u64)
    }

    fn slot(&mut self, state: u64, arity: usize) -> usize {
        let cells = &mut self.cells;
        *self.table.entry(Self::key(state, arity)).or_insert_with(|| {
            let base = cells.len();
            cells.resize(base + arity, Cell::default());
            base
        })
    }

    /// The policy π of Alg. 1: in `state`, with `arity` possible choices,
    /// choose uniformly at random with probability `epsilon`, else a choice
    /// of greatest `Q` (ties broken uniformly at random). The pair is added
    /// to the episode.
    ///
    /// # Panics
    /// When `arity` is 0.
    pub fn act(&mut self, state: u64, arity: usize, epsilon: f64, rng: &mut DetRng) -> usize {
        assert!(arity > 0, "a learner needs at least one choice");
        let base = self.slot(state, arity);
        let action = if rng.random::<f64>() < epsilon {
            rng.random_range(0..arity)
        } else {
            let cells = &self.cells[base..base + arity];
            let mut best = 0;
            let mut best_q = cells[0].q;
            let mut ties = 1u32;
            for (i, c) in cells.iter().enumerate().skip(1) {
                if c.q > best_q {
                    best = i;
                    best_q = c.q;
                    ties = 1;
                } else if c.q == best_q {
                    ties += 1;
                    if rng.random_range(0..ties) == 0 {
                        best = i;
                    }
                }
            }
            best
        };
        self.episode.push(base + action);
        action
    }

    /// UPDATE of Alg. 1: fold `reward` into the mean reward of every
    /// (state, choice) pair of the episode, once per visit, then start a new episode.
    pub fn update(&mut self, reward: f64) {
        for &i in &self.episode {
            let c = &mut self.cells[i];
            c.q = (reward + c.q * c.n as f64) / (c.n as f64 + 1.0);
            c.n += 1;
        }
        self.episode.clear();
    }

    /// Drop the current episode without learning from it (a case that got no feedback).
    pub fn forget_episode(&mut self) {
        self.episode.clear();
    }

    /// The number of choices in the current episode.
    pub fn episode_len(&self) -> usize {
        self.episode.len()
    }

    /// `Q[state, action]` for a state with `arity` choices: 0 when never updated.
    pub fn q(&self, state: u64, arity: usize, action: usize) -> f64 {
        self.cell(state, arity, action).map_or(0.0, |c| c.q)
    }

    /// How many times `Q[state, action]` was updated (`counts` of Alg. 1).
    pub fn visits(&self, state: u64, arity: usize, action: usize) -> u64 {
        self.cell(state, arity, action).map_or(0, |c| c.n)
    }

    /// The number of states this learner has met.
    pub fn states(&self) -> usize {
        self.table.len()
    }

    fn cell(&self, state: u64, arity: usize, action: usize) -> Option<&Cell> {
        if action >= arity {
            return None;
        }
        self.table.get(&Self::key(state, arity)).map(|&base| &self.cells[base + action])
    }
}

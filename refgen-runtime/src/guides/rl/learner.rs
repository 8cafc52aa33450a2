//! RLCheck's learner: one tabular, ε-greedy Monte Carlo Control learner per choice point.

use crate::guides::weighted_draw;
use crate::hashing::{mix, BuildKey};
use rand::Rng;
use refgen_core::source::DetRng;
use std::collections::HashMap;

/// How a [`Learner`] explores beyond RLCheck's ε-greedy policy over mean
/// rewards. The default is RLCheck's Alg. 1 exactly. Each field is one
/// remedy for what RLCheck's Sec. 6 observes: the learner settles on a few
/// rewarding regions and then mostly regenerates values it has already
/// seen, while the mean reward of those regions falls only slowly. The
/// fields combine; [`Explore::DIVERSE`] is the combination measured best.
///
/// ```
/// use refgen::guides::rl::{Explore, RlConfig, RlGuide};
/// let guide = RlGuide::new(RlConfig::default().explore(Explore::DIVERSE).epsilon(0.05));
/// assert_eq!(guide.config().explore.softmax, Some(0.5));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Explore {
    /// Forgetting: `Q ← Q + α·(r - Q)` once a pair has been visited `1/α`
    /// times (before that, the plain mean), the constant step size that
    /// tracks a nonstationary reward (Sutton and Barto, "Reinforcement
    /// Learning: An Introduction", Sec. 2.5). The unique values behind a
    /// choice run out as the run goes on, so its mean reward overstates what
    /// it pays now; with forgetting, a choice that stopped paying looks bad
    /// after about `1/α` more visits. `None` (RLCheck): the mean of every return.
    pub forget: Option<f64>,
    /// A count-based novelty bonus (UCB1: Auer, Cesa-Bianchi and Fischer,
    /// "Finite-time Analysis of the Multiarmed Bandit Problem", 2002): each
    /// choice is valued `Q + c·sqrt(ln(N_s + 1) / (n_sa + 1))`, `N_s` the
    /// visits of the state and `n_sa` those of the choice there, so rarely
    /// tried choices are tried. 0 (RLCheck): no bonus.
    pub bonus: f64,
    /// A Boltzmann (softmax) policy at temperature `τ` instead of the greedy
    /// choice: outside the ε-random choices, choice `a` is taken with
    /// probability `∝ exp(value_a / τ)`. The greedy policy makes the same
    /// choice whenever a state recurs, so every value shares the few best
    /// choices of each state (one root key for most trees); the softmax
    /// spreads over all choices of nearly the best value, which is where
    /// unseen valid values are. `τ` is in reward units (RLCheck's rewards
    /// are 20 / 0 / -1). `None` (RLCheck): greedy.
    pub softmax: Option<f64>,
}

impl Explore {
    /// RLCheck's Alg. 1: mean returns, no bonus, greedy.
    pub const PAPER: Explore = Explore { forget: None, bonus: 0.0, softmax: None };
    /// Forgetting alone, `α = 0.01`.
    pub const FORGET: Explore = Explore { forget: Some(0.01), bonus: 0.0, softmax: None };
    /// The novelty bonus alone, `c = 5`.
    pub const BONUS: Explore = Explore { forget: None, bonus: 5.0, softmax: None };
    /// The softmax policy alone, `τ = 0.5`.
    pub const SOFTMAX: Explore = Explore { forget: None, bonus: 0.0, softmax: Some(0.5) };
    /// The softmax policy (`τ = 0.5`) with forgetting (`α = 0.01`): the
    /// combination that found the most distinct valid values on the
    /// benchmarks of `benches/src/bin/rlcheck_bst.rs` (binary search trees, AVL
    /// trees, sorted lists), with ε = 0.05 ([`super::RlConfig::diverse`]).
    pub const DIVERSE: Explore = Explore { forget: Some(0.01), bonus: 0.0, softmax: Some(0.5) };

    /// A short name: `paper`, or the parts in use (`forget`, `bonus`, `softmax`) joined by `+`.
    pub fn name(&self) -> String {
        let mut parts = Vec::new();
        if self.forget.is_some() {
            parts.push("forget");
        }
        if self.bonus > 0.0 {
            parts.push("bonus");
        }
        if self.softmax.is_some() {
            parts.push("softmax");
        }
        if parts.is_empty() {
            "paper".to_string()
        } else {
            parts.join("+")
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    q: f64,
    n: u64,
}

/// A tabular Monte Carlo Control learner for one choice point (RLCheck, Reddy et al., Alg. 1).
///
/// States are `u64` keys (a hash of the abstract state); a state's actions
/// are `0..arity`. `Q[s, c]` starts at 0 for every pair, so the first
/// episode in a state is random: uniformly with [`Learner::act`] (RLCheck),
/// by the generator's weights with [`Learner::act_weighted`]; after each episode, [`Learner::update`]
/// folds the episode's reward into the running mean of every pair the
/// episode visited, once per visit, with no discount.
#[derive(Debug, Clone, Default)]
pub struct Learner {
    explore: Explore,
    /// `(state, arity)` key to the first of its `arity` cells.
    table: HashMap<u64, usize, BuildKey>,
    cells: Vec<Cell>,
    /// The cells chosen in the current episode, in order.
    episode: Vec<usize>,
}

impl Learner {
    /// A learner that has seen nothing, learning as RLCheck's Alg. 1 does.
    pub fn new() -> Self {
        Self::default()
    }

    /// A learner that has seen nothing, exploring as `explore` says.
    pub fn with_explore(explore: Explore) -> Self {
        Learner { explore, ..Self::default() }
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
    /// of greatest `Q` (ties broken uniformly at random), or with
    /// [`Explore::softmax`] one drawn by its Boltzmann weight; with
    /// [`Explore::bonus`], by `Q` plus the choice's novelty bonus. The pair
    /// is added to the episode.
    ///
    /// # Panics
    /// When `arity` is 0.
    pub fn act(&mut self, state: u64, arity: usize, epsilon: f64, rng: &mut DetRng) -> usize {
        self.act_by(state, arity, None, epsilon, rng)
    }

    /// [`Learner::act`], starting from the generator's distribution: the
    /// choices are `0..weights.len()`, and `weights` (the generator's, such
    /// as a pick's option weights) draw the ε-random choice and break ties
    /// of the greedy choice; with [`Explore::softmax`], choice `a` weighs
    /// `weights[a]·exp(value_a / τ)`. So while the `Q` of a state tie (as
    /// they all do at first) the policy is the generator's own distribution,
    /// and the rewards take over as they set the choices apart. Equal
    /// weights draw exactly as [`Learner::act`] does.
    ///
    /// # Panics
    /// When `weights` is empty.
    pub fn act_weighted(&mut self, state: u64, weights: &[f64], epsilon: f64, rng: &mut DetRng) -> usize {
        let uniform = weights.windows(2).all(|w| w[0] == w[1]);
        self.act_by(state, weights.len(), (!uniform).then_some(weights), epsilon, rng)
    }

    fn act_by(&mut self, state: u64, arity: usize, prior: Option<&[f64]>, epsilon: f64, rng: &mut DetRng) -> usize {
        assert!(arity > 0, "a learner needs at least one choice");
        let base = self.slot(state, arity);
        let action = if rng.random::<f64>() < epsilon {
            match prior {
                None => rng.random_range(0..arity),
                Some(w) => weighted_draw(w.iter().copied(), w.iter().sum(), rng),
            }
        } else {
            let cells = &self.cells[base..base + arity];
            let bonus = self.explore.bonus;
            let log = if bonus > 0.0 { (cells.iter().map(|c| c.n).sum::<u64>() as f64 + 1.0).ln() } else { 0.0 };
            let value = |c: &Cell| if bonus > 0.0 { c.q + bonus * (log / (c.n + 1) as f64).sqrt() } else { c.q };
            match self.explore.softmax {
                Some(tau) => boltzmann(cells, value, tau, prior, rng),
                None => greedy(cells, value, prior, rng),
            }
        };
        self.episode.push(base + action);
        action
    }

    /// UPDATE of Alg. 1: fold `reward` into the mean reward of every
    /// (state, choice) pair of the episode, once per visit, then start a new
    /// episode. With [`Explore::forget`] `= α`, the mean is recency-weighted:
    /// `Q ← Q + α·(reward - Q)` once the pair has been visited `1/α` times.
    pub fn update(&mut self, reward: f64) {
        let floor = self.explore.forget;
        for &i in &self.episode {
            let c = &mut self.cells[i];
            c.q = match floor {
                Some(a) if a * (c.n + 1) as f64 > 1.0 => c.q + a * (reward - c.q),
                _ => (reward + c.q * c.n as f64) / (c.n as f64 + 1.0),
            };
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

/// The index of a cell of greatest `value`, ties broken at random:
/// uniformly, or by `prior` weights.
fn greedy(cells: &[Cell], value: impl Fn(&Cell) -> f64, prior: Option<&[f64]>, rng: &mut DetRng) -> usize {
    let best_q = cells.iter().map(&value).fold(f64::NEG_INFINITY, f64::max);
    if let Some(w) = prior {
        let tied = |i: usize| if value(&cells[i]) == best_q { w[i] } else { 0.0 };
        let total: f64 = (0..cells.len()).map(tied).sum();
        if total > 0.0 {
            return weighted_draw((0..cells.len()).map(tied), total, rng);
        }
    }
    let mut best = 0;
    let mut best_q = value(&cells[0]);
    let mut ties = 1u32;
    for (i, c) in cells.iter().enumerate().skip(1) {
        let q = value(c);
        if q > best_q {
            best = i;
            best_q = q;
            ties = 1;
        } else if q == best_q {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                best = i;
            }
        }
    }
    best
}

/// The index of a cell drawn with probability `∝ exp(value / tau)`, times its `prior` weight.
fn boltzmann(cells: &[Cell], value: impl Fn(&Cell) -> f64, tau: f64, prior: Option<&[f64]>, rng: &mut DetRng) -> usize {
    let tau = tau.max(f64::MIN_POSITIVE);
    // Relative to the best value, so that no weight overflows and the best weighs 1.
    let top = cells.iter().map(&value).fold(f64::NEG_INFINITY, f64::max);
    // The weights once each: on the stack for the usual few choices (a pick's options, an integer's buckets).
    let mut stack = [0.0f64; 32];
    let mut heap = Vec::new();
    let weights: &mut [f64] = if cells.len() <= stack.len() {
        &mut stack[..cells.len()]
    } else {
        heap.resize(cells.len(), 0.0);
        &mut heap
    };
    let mut total = 0.0;
    for (i, (w, c)) in weights.iter_mut().zip(cells).enumerate() {
        *w = ((value(c) - top) / tau).exp() * prior.map_or(1.0, |p| p[i]);
        total += *w;
    }
    weighted_draw(weights.iter().copied(), total, rng)
}

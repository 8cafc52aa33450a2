//! [`RlConfig`]: an [`RlGuide`]'s parameters, whose `const fn` setters are `guide = rl(...)`'s keys.

use super::{Abstraction, Explore, RlGuide};
use crate::guide::Feedback;
use crate::guides::grow::{grow_option, Growing, DEFAULT_GROW};

/// `#[property(guide = rl(...))]`'s options, their defaults: RLCheck's configuration (see
/// [`crate::guides`]'s table). The same as [`RlConfig::default`].
pub const fn options<V>() -> RlConfig {
    RlConfig {
        epsilon: EPSILON,
        r_unique: 20.0,
        r_valid: 0.0,
        r_invalid: -1.0,
        window: 4,
        abstraction: Abstraction::TreeLR,
        sibling_picks: false,
        explore: Explore::PAPER,
        prior: Prior::Weights,
        grow: DEFAULT_GROW,
        epsilon_given: false,
    }
}

/// ε unless given: RLCheck's.
const EPSILON: f64 = 0.25;

/// ε unless given under [`Explore::DIVERSE`] ([`RlConfig::diverse`]).
const DIVERSE_EPSILON: f64 = 0.05;

/// The parameters of an [`RlGuide`]; the defaults are RLCheck's (Sec. 4.3.1). Its setters are
/// `#[property(guide = rl(key = value, ...))]`'s keys: `explore`, `epsilon`, `window`,
/// `abstraction`, `prior`, `grow`.
///
/// ```
/// use refgen::guides::rl::{Abstraction, RlConfig, RlGuide};
/// let guide = RlGuide::new(RlConfig::default().epsilon(0.1).window(6).abstraction(Abstraction::Sequence));
/// assert_eq!(guide.config().window, 6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RlConfig {
    /// The probability of a uniformly random choice (ε of Alg. 1); default 0.25, or 0.05 with
    /// [`Explore::DIVERSE`] (see [`RlConfig::explore`]).
    pub epsilon: f64,
    /// The reward for a valid value not generated before (`R_unique`); default 20.
    pub r_unique: f64,
    /// The reward for a valid value generated before (`R_valid`); default 0.
    pub r_valid: f64,
    /// The reward for an invalid value (`R_invalid`); default -1.
    pub r_invalid: f64,
    /// The window `w`: how many abstract choices a state keeps; default 4.
    pub window: usize,
    /// The state abstraction; default [`Abstraction::TreeLR`].
    pub abstraction: Abstraction,
    /// Tree and Tree L/R: whether a closed pick that built nothing (a `false`,
    /// a `None`, a leaf variant) stays in its later siblings' states. Default
    /// `false`, as RLCheck (Fig. 3: both child choices see only the node's
    /// value) and the authors' code.
    pub sibling_picks: bool,
    /// Exploration beyond the paper's (forgetting, a novelty bonus, settling
    /// ε); default none, RLCheck's Alg. 1 exactly. See [`Explore`].
    pub explore: Explore,
    /// Where the policy starts: the generator's weights (the default) or
    /// uniform (RLCheck). See [`super`]'s module docs.
    pub prior: Prior,
    /// The share of the work (`0..=1`) that mutation with splicing and grafting makes once the
    /// validity condition retries, in the guide the configuration makes for a property
    /// ([`GuideOptions`](crate::guides::GuideOptions): a [`Growing`]); default
    /// [`DEFAULT_GROW`], 0 the learner alone. [`RlGuide::new`] is the learner alone whatever it is.
    pub grow: f64,
    /// Whether `epsilon` was set, so that [`RlConfig::explore`] leaves it.
    epsilon_given: bool,
}

/// Where an [`RlGuide`]'s policy starts (see [`super`]'s module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Prior {
    /// The generator's distribution: weights draw the ε-random choice and
    /// break ties of `Q`, and weigh the softmax policy's choices.
    #[default]
    Weights,
    /// Uniform over the choices, whatever their weights (RLCheck's Alg. 1).
    Uniform,
}

impl Default for RlConfig {
    fn default() -> Self {
        options::<()>()
    }
}

/// Whether two optional parameters of an exploration are the same (`==` in a `const fn`).
const fn same(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b,
        (None, None) => true,
        _ => false,
    }
}

/// Whether `e` is [`Explore::DIVERSE`] (`==` in a `const fn`).
const fn is_diverse(e: Explore) -> bool {
    let d = Explore::DIVERSE;
    same(e.forget, d.forget) && e.bonus == d.bonus && same(e.softmax, d.softmax)
}

impl RlConfig {
    /// `epsilon = E`: the same configuration with ε = `epsilon` (clamped to `0..=1`), kept whatever
    /// [`RlConfig::explore`] is given before or after it.
    pub const fn epsilon(mut self, epsilon: f64) -> Self {
        self.epsilon = epsilon.clamp(0.0, 1.0);
        self.epsilon_given = true;
        self
    }

    /// The same configuration with these rewards for a unique valid, a duplicate valid and an invalid value.
    pub const fn rewards(mut self, unique: f64, valid: f64, invalid: f64) -> Self {
        self.r_unique = unique;
        self.r_valid = valid;
        self.r_invalid = invalid;
        self
    }

    /// `window = N`: the same configuration with window `w`, the choices a state remembers.
    pub const fn window(mut self, w: usize) -> Self {
        self.window = w;
        self
    }

    /// `abstraction = Sequence | Tree | TreeLR`: the same configuration with this state abstraction.
    pub const fn abstraction(mut self, abstraction: Abstraction) -> Self {
        self.abstraction = abstraction;
        self
    }

    /// The same configuration, keeping (or not) closed picks that built nothing in later siblings' states.
    pub const fn sibling_picks(mut self, keep: bool) -> Self {
        self.sibling_picks = keep;
        self
    }

    /// RLCheck's configuration with the exploration that found the most
    /// distinct valid values on the benchmarks of `benches/src/bin/rlcheck_bst.rs`:
    /// [`Explore::DIVERSE`] (a softmax policy with forgetting) and ε = 0.05.
    /// `#[property(guide = rl(explore = diverse))]`.
    pub const fn diverse() -> Self {
        options::<()>().explore(Explore::DIVERSE)
    }

    /// `explore = paper | forget | bonus | softmax | diverse`: the same configuration exploring as
    /// `explore` says. Unless [`RlConfig::epsilon`] is given (before or after), ε follows: 0.05 with
    /// [`Explore::DIVERSE`] ([`RlConfig::diverse`]), 0.25 with the others.
    pub const fn explore(mut self, explore: Explore) -> Self {
        self.explore = explore;
        if !self.epsilon_given {
            self.epsilon = if is_diverse(explore) { DIVERSE_EPSILON } else { EPSILON };
        }
        self
    }

    /// `prior = weights | uniform`: the same configuration, its policy starting from `prior`.
    pub const fn prior(mut self, prior: Prior) -> Self {
        self.prior = prior;
        self
    }

    /// `grow = P`: once the validity condition retries, mutation with splicing and grafting makes the
    /// share `P` of the work (`0..=1`, default 0.5; 0: the guide alone). See [`crate::guides::grow`].
    pub const fn grow(mut self, p: f64) -> Self {
        self.grow = grow_option(p);
        self
    }

    /// The reward for a case that went as `feedback` says (RLCheck Eq. 1).
    pub fn reward(&self, feedback: &Feedback<'_>) -> f64 {
        match (feedback.valid, feedback.new) {
            (false, _) => self.r_invalid,
            (true, true) => self.r_unique,
            (true, false) => self.r_valid,
        }
    }
}

crate::guides::option_keys!(epsilon, window, abstraction, sibling_picks, explore, prior, grow);

/// The names `rl`'s options use: the explorations, the abstractions and the priors.
#[allow(non_upper_case_globals)]
pub mod names {
    use super::{Abstraction, Explore, Prior};

    /// `explore = paper`: [`Explore::PAPER`], RLCheck's ε-greedy.
    pub const paper: Explore = Explore::PAPER;
    /// `explore = forget`: [`Explore::FORGET`].
    pub const forget: Explore = Explore::FORGET;
    /// `explore = bonus`: [`Explore::BONUS`].
    pub const bonus: Explore = Explore::BONUS;
    /// `explore = softmax`: [`Explore::SOFTMAX`].
    pub const softmax: Explore = Explore::SOFTMAX;
    /// `explore = diverse`: [`Explore::DIVERSE`], with ε = 0.05 ([`super::RlConfig::diverse`]).
    pub const diverse: Explore = Explore::DIVERSE;
    /// `abstraction = Sequence`: [`Abstraction::Sequence`].
    pub const Sequence: Abstraction = Abstraction::Sequence;
    /// `abstraction = Tree`: [`Abstraction::Tree`].
    pub const Tree: Abstraction = Abstraction::Tree;
    /// `abstraction = TreeLR`: [`Abstraction::TreeLR`].
    pub const TreeLR: Abstraction = Abstraction::TreeLR;
    /// `prior = weights`: [`Prior::Weights`], the generator's distribution (the default).
    pub const weights: Prior = Prior::Weights;
    /// `prior = uniform`: [`Prior::Uniform`], RLCheck's uniform start.
    pub const uniform: Prior = Prior::Uniform;
}

impl<V> crate::guides::GuideOptions<V> for RlConfig {
    type Guide = Growing;
    fn into_guide(self, _property: crate::guides::ForProperty<V>) -> Growing {
        Growing::new(RlGuide::new(self), self.grow)
    }
}

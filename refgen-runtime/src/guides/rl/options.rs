//! `#[property(guide = rl(...))]`'s options: `explore`, `epsilon`, `window`, `abstraction`, `prior`, `grow`.

use super::{Abstraction, Explore, Prior, RlConfig, RlGuide};
use crate::guides::grow::{Growing, DEFAULT_GROW};

/// `#[property(guide = rl(...))]`'s options, none set: RLCheck's configuration
/// (see [`crate::guides`]'s table).
pub const fn options<V>() -> RlOptions {
    RlOptions { explore: None, epsilon: None, window: None, abstraction: None, prior: None, grow: None }
}

/// The options of `guide = rl(...)`, each set or left to its default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RlOptions {
    explore: Option<Explore>,
    epsilon: Option<f64>,
    window: Option<usize>,
    abstraction: Option<Abstraction>,
    prior: Option<Prior>,
    grow: Option<f64>,
}

impl RlOptions {
    /// `explore = paper | forget | bonus | softmax | diverse`: how learners explore
    /// ([`RlConfig::explore`]); `diverse` is [`RlConfig::diverse`], with ε = 0.05 unless `epsilon` is given.
    pub const fn explore(mut self, explore: Explore) -> Self {
        self.explore = Some(explore);
        self
    }

    /// `epsilon = E`: the share of random choices, clamped to `0..=1` ([`RlConfig::epsilon`]).
    pub const fn epsilon(mut self, epsilon: f64) -> Self {
        self.epsilon = Some(epsilon.clamp(0.0, 1.0));
        self
    }

    /// `window = N`: the choices a state remembers ([`RlConfig::window`]).
    pub const fn window(mut self, w: usize) -> Self {
        self.window = Some(w);
        self
    }

    /// `abstraction = Sequence | Tree | TreeLR`: how states are made ([`RlConfig::abstraction`]).
    pub const fn abstraction(mut self, abstraction: Abstraction) -> Self {
        self.abstraction = Some(abstraction);
        self
    }

    /// `prior = weights | uniform`: where the policy starts ([`RlConfig::prior`]).
    pub const fn prior(mut self, prior: Prior) -> Self {
        self.prior = Some(prior);
        self
    }

    /// `grow = P`: once the validity condition retries, mutation with splicing and grafting makes the
    /// share `P` of the work (`0..=1`, default 0.5; 0: the guide alone). See [`crate::guides::grow`].
    pub const fn grow(mut self, p: f64) -> Self {
        self.grow = Some(crate::guides::grow::grow_option(p));
        self
    }

    /// The share of the work `grow` gives mutation.
    pub fn grow_share(self) -> f64 {
        self.grow.unwrap_or(DEFAULT_GROW)
    }

    /// The configuration the options give.
    pub fn config(self) -> RlConfig {
        let mut config = if self.explore == Some(Explore::DIVERSE) { RlConfig::diverse() } else { RlConfig::default() };
        if let Some(e) = self.explore {
            config = config.explore(e);
        }
        if let Some(e) = self.epsilon {
            config = config.epsilon(e);
        }
        if let Some(w) = self.window {
            config = config.window(w);
        }
        if let Some(a) = self.abstraction {
            config = config.abstraction(a);
        }
        if let Some(p) = self.prior {
            config = config.prior(p);
        }
        config
    }
}

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

impl<V> crate::guides::GuideOptions<V> for RlOptions {
    type Guide = Growing;
    fn into_guide(self, _property: crate::guides::ForProperty<V>) -> Growing {
        Growing::new(RlGuide::new(self.config()), self.grow_share())
    }
}

//! RLCheck: a Monte Carlo Control guide with one tabular learner per choice point.
//!
//! From Reddy, Padhye, Lemieux and Sen, "Quickly Generating Diverse Valid Test Inputs with
//! Reinforcement Learning" (ICSE 2020); its state is read off the case's trail.
//!
//! [`RlGuide`] is the paper's *MCC guide* (Def. 4.2): one [`Learner`] per
//! choice point ([`Site`]), each an ε-greedy Monte Carlo Control learner
//! (Alg. 1, in [`learner`]) whose `Q[s, c]` is the mean reward of every
//! episode in which it chose `c` in state `s` (every visit, no discount).
//! One reward per generated value (Eq. 1): [`RlConfig::r_unique`] for a
//! valid value not seen before, [`RlConfig::r_valid`] for a valid duplicate,
//! [`RlConfig::r_invalid`] for an invalid one. Learners act over the
//! request's buckets ([`refgen_core::Request::buckets`]), so a wide integer
//! range is a small domain; a value inside the chosen bucket is drawn
//! uniformly. The state abstraction (Sec. 4.3) is derived from the choice
//! tree, so users write no state code: see [`state`].
//!
//! **Starting from the generator's weights.** RLCheck's learners start
//! with every `Q` at 0 and break ties uniformly, so the first cases choose
//! uniformly among a pick's options, whatever its weights: a tree whose
//! `Leaf` weighs 1 and `Node` 3 stops at a leaf half the time, and early
//! values are smaller than random generation's (an easy bug can take many
//! times more tests than under the random guide). By default
//! ([`Prior::Weights`]) the policy starts as the generator's own
//! distribution instead: the ε-random choice and the greedy choice's ties
//! are drawn by the generator's weights (a pick's option weights, an
//! integer bucket's width), and the softmax policy weighs each choice by
//! its weight times `exp(Q/τ)`. At first every `Q` ties, so the guide
//! generates as the random guide does; as rewards set the choices of a
//! state apart, they decide, and the weights only break the ties left.
//! Where the weights are equal (RLCheck's own generators) this is RLCheck's
//! policy exactly, draw for draw. [`Prior::Uniform`] is RLCheck's start
//! whatever the weights (`rl(prior = uniform)`).
//!
//! **`guide = rl` grows.** Where a retrying `#[assume]` makes more than one
//! failed attempt per case, `#[property(guide = rl)]` shares the work with
//! grafting once it has seen that ([`super::grow`]; `rl(grow = 0)` is this
//! guide alone): the learners choose one choice at a time, and a
//! policy over single choices does not make the coupled choices of a
//! balanced tree, whose valid values then stay as small as random
//! generation's.

mod config;
pub mod learner;
pub mod state;

pub use config::{names, options, Prior, RlConfig};
#[doc(hidden)]
pub use config::{Options, OPTIONS};
pub use learner::{Explore, Learner};

pub use state::{describe_states, Abstraction, DescribedState};

use crate::guide::{CaseInfo, ChoiceContext, Feedback, Guide, GuideReport, Plan, ReportSection};
use crate::hashing::BuildKey;
use rand::Rng;
use refgen_core::choice::{Choice, Request, Site};
use refgen_core::source::{DetRng, Stop};
use state::State;
use std::collections::HashMap;

/// RLCheck's Monte Carlo Control guide: one [`Learner`] per
/// choice point, states from an [`Abstraction`] of the choice tree, rewards
/// from [`Feedback`] (see the module docs).
///
/// `RlGuide::default()` is RLCheck's configuration: Tree L/R, `w = 4`,
/// ε = 0.25, rewards 20 / 0 / -1.
///
/// ```
/// use refgen::prelude::*;
/// use refgen::interpret::*;
/// use refgen::{explore::generate_distinct, guides::rl::RlGuide};
///
/// // Pairs (a, b) with a < b, from 0..=9 each.
/// let g = (int(0u8..=9).site("a"), int(0u8..=9).site("b")).filter(|(a, b)| a < b);
/// let out = generate_distinct(&g, &mut RlGuide::default(), 2_000, 1);
/// assert!(out.unique_valid.iter().all(|(a, b)| a < b));
/// ```
#[derive(Debug, Clone)]
pub struct RlGuide {
    config: RlConfig,
    name: String,
    learners: Vec<Learner>,
    sites: HashMap<Site, usize, BuildKey>,
    /// Learners with a non-empty episode in the current case.
    touched: Vec<usize>,
    state: State,
    /// The reward of every case so far, for the report's reward curve.
    rewards: Vec<f64>,
    /// The generator's weights of the buckets of the current choice.
    weights: Vec<f64>,
}

/// The generator's weight of `bucket` of `request`: a pick's option weight,
/// or the number of integers in the bucket (each integer weighs the same).
fn bucket_weight(request: Request<'_>, bucket: u64) -> f64 {
    match (request, request.bucket_range(bucket)) {
        (Request::Pick { options, .. }, _) => options.get(bucket as usize).map_or(0.0, |o| f64::from(o.weight)),
        (Request::Int { .. }, Some((lo, hi))) => (hi - lo) as f64 + 1.0,
        (Request::Int { .. }, None) => 0.0,
    }
}

/// The guide's name as `#[property(guide = ...)]` writes it: `rl`, or
/// `rl(...)` with the options that depart from the defaults, such as
/// `rl(explore = diverse)` or `rl(abstraction = Sequence, window = 2)`.
/// (Rewards and `sibling_picks` have no option, and are not named.)
fn attribute_name(config: &RlConfig) -> String {
    let diverse = config.explore == Explore::DIVERSE;
    let mut options = Vec::new();
    let named = [
        (Explore::FORGET, "forget"),
        (Explore::BONUS, "bonus"),
        (Explore::SOFTMAX, "softmax"),
        (Explore::DIVERSE, "diverse"),
    ];
    if config.explore != Explore::PAPER {
        let explore =
            named.iter().find(|(e, _)| *e == config.explore).map_or(config.explore.name(), |n| n.1.to_owned());
        options.push(format!("explore = {explore}"));
    }
    // `explore = diverse` brings its own ε.
    let epsilon = if diverse { RlConfig::diverse().epsilon } else { RlConfig::default().epsilon };
    if config.epsilon != epsilon {
        options.push(format!("epsilon = {}", config.epsilon));
    }
    if config.window != RlConfig::default().window {
        options.push(format!("window = {}", config.window));
    }
    if config.abstraction != RlConfig::default().abstraction {
        options.push(format!("abstraction = {}", config.abstraction));
    }
    if config.prior == Prior::Uniform {
        options.push("prior = uniform".to_owned());
    }
    if options.is_empty() {
        "rl".to_owned()
    } else {
        format!("rl({})", options.join(", "))
    }
}

impl Default for RlGuide {
    fn default() -> Self {
        RlGuide::new(RlConfig::default())
    }
}

impl RlGuide {
    /// A guide with this configuration, knowing nothing yet.
    pub fn new(config: RlConfig) -> Self {
        RlGuide {
            config,
            name: attribute_name(&config),
            learners: Vec::new(),
            sites: HashMap::default(),
            touched: Vec::new(),
            state: State::default(),
            rewards: Vec::new(),
            weights: Vec::new(),
        }
    }

    /// The default configuration with this state abstraction.
    pub fn with_abstraction(abstraction: Abstraction) -> Self {
        RlGuide::new(RlConfig::default().abstraction(abstraction))
    }

    /// The guide's configuration.
    pub fn config(&self) -> &RlConfig {
        &self.config
    }

    /// The learner of the choice point `site`, once it has been asked.
    pub fn learner(&self, site: &str) -> Option<&Learner> {
        self.sites.get(site).map(|&i| &self.learners[i])
    }

    /// The sites with a learner, in the order they were first asked.
    pub fn sites(&self) -> Vec<Site> {
        let mut v: Vec<(Site, usize)> = self.sites.iter().map(|(&s, &i)| (s, i)).collect();
        v.sort_by_key(|&(_, i)| i);
        v.into_iter().map(|(s, _)| s).collect()
    }

    /// The total number of (learner, state) pairs met: the size of the tables.
    pub fn states(&self) -> usize {
        self.learners.iter().map(Learner::states).sum()
    }

    fn forget_case(&mut self) {
        for &i in &self.touched {
            self.learners[i].forget_episode();
        }
        self.touched.clear();
    }
}

impl Guide for RlGuide {
    fn name(&self) -> &str {
        &self.name
    }

    fn begin_case(&mut self, _case: &CaseInfo<'_>) -> Plan {
        self.forget_case();
        Plan::fresh()
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        let request = ctx.request;
        let arity = request.buckets();
        let choice = if arity <= 1 {
            0
        } else {
            let arity = usize::try_from(arity).unwrap_or(usize::MAX);
            self.state.collect(ctx.trail, &self.config);
            let state = self.state.key(ctx.trail);
            let next = self.learners.len();
            let li = *self.sites.entry(ctx.site).or_insert(next);
            if li == next {
                self.learners.push(Learner::with_explore(self.config.explore));
            }
            let learner = &mut self.learners[li];
            if learner.episode_len() == 0 {
                self.touched.push(li);
            }
            let bucket = match self.config.prior {
                Prior::Uniform => learner.act(state, arity, self.config.epsilon, rng),
                Prior::Weights => {
                    self.weights.clear();
                    self.weights.extend((0..arity as u64).map(|b| bucket_weight(request, b)));
                    learner.act_weighted(state, &self.weights, self.config.epsilon, rng)
                }
            } as u64;
            match request.bucket_range(bucket) {
                Some((lo, hi)) if lo < hi => rng.random_range(lo..=hi),
                Some((lo, _)) => lo,
                None => 0,
            }
        };
        Ok(choice)
    }

    fn feedback(&mut self, feedback: &Feedback<'_>) {
        let r = self.config.reward(feedback);
        self.rewards.push(r);
        for &i in &self.touched {
            self.learners[i].update(r);
        }
        self.touched.clear();
    }

    fn report(&self) -> GuideReport {
        let window = self.rewards.len().div_ceil(100).max(1);
        let means = self.rewards.chunks(window).map(|w| w.iter().sum::<f64>() / w.len() as f64).collect();
        let section = Some(ReportSection {
            title: format!("RLCheck ({})", self.name),
            lines: vec![format!(
                "Rewards: {} for a new valid value, {} for a valid value seen before, {} for an invalid one; {} (learner, state) pairs learned over {} choice points.",
                self.config.r_unique,
                self.config.r_valid,
                self.config.r_invalid,
                self.states(),
                self.learners.len()
            )],
            curves: vec![(format!("mean reward per window of {window} cases"), means)],
        });
        GuideReport { section, ..GuideReport::default() }
    }
}

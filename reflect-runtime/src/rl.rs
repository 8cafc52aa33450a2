//! RLCheck (papers/000): a Monte Carlo Control guide with one tabular learner per choice point, its state derived from the choice tree.
//!
//! [`RlGuide`] is papers/000's *MCC guide* (Def. 4.2): one [`Learner`] per
//! choice point ([`Site`]), each an ε-greedy Monte Carlo Control learner
//! (Alg. 1) whose `Q[s, c]` is the mean reward of every episode in which it
//! chose `c` in state `s` (every visit, no discount). One reward per
//! generated value (Eq. 1): [`RlConfig::r_unique`] for a valid value not seen
//! before, [`RlConfig::r_valid`] for a valid duplicate, [`RlConfig::r_invalid`]
//! for an invalid one. Learners act over the request's buckets
//! ([`Request::buckets`]), so a wide integer range is a small domain; a value
//! inside the chosen bucket is drawn uniformly.
//!
//! The state abstraction (Sec. 4.3) is derived from the generator's choice
//! tree, so users write no state code ([`Abstraction`]):
//!
//! - **Sequence**: the last `w` choices made;
//! - **Tree**: the last `w` *influencing* choices on the way from the root to
//!   this choice point (see below), each as its choice;
//! - **Tree L/R** (the default): the same path, with each structural branch
//!   recorded by which field or option it went into (its site and option).
//!
//! *Influencing choices* (papers/000: "a choice in the construction of a
//! child node is influenced by choices constructing its parent node"). The
//! guide mirrors the choice tree from the paths it is shown
//! ([`ChoiceContext::path`]). At each level from the root down to the choice
//! point, the influencing choices are the earlier siblings that are integer
//! choices (data, whose value the rest of the generator may depend on), then
//! the open node the path goes through: an open pick (the option being
//! built) or a part. A pick is structural: it influences what its option
//! builds while that is open, and nothing after it closes (a finished left
//! subtree, or a `false` / `None` that built nothing, is not seen by later
//! siblings; [`RlConfig::sibling_picks`] keeps the latter). A closed part (a
//! field, a tuple component, a list element) is transparent: its influencing
//! choices count as if made at its level. For papers/000's BST generator this
//! gives exactly the states of Fig. 2-3 and of the authors' code (`[2, True]`
//! for Tree and `[2, R]` for Tree L/R before choosing `c7`); see
//! [`describe_states`].
//!
//! [`generate_distinct`] runs a generator `n` times under any guide, computes
//! the uniqueness of each value itself (structural equality) and feeds the
//! guide back after each value.

use crate::guide::{ChoiceContext, Feedback, Guide, GuidedSource, PathStep};
use rand::Rng;
use reflect_core::choice::{Choice, Request, Site};
use reflect_core::gen::Gen;
use reflect_core::source::DetRng;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

// ---------------------------------------------------------------- hashing

const FX: u64 = 0x517c_c1b7_2722_0a95;

/// One step of an FxHash-like mix.
#[inline]
fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(FX)
}

/// A final avalanche (MurmurHash3's `fmix64`), so every bit of a key is usable by a hash table.
#[inline]
fn finish(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// A small, fast, deterministic hasher (FxHash mixing with a final avalanche).
#[derive(Debug, Default, Clone, Copy)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.0 = mix(self.0, u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.0 = mix(self.0, x as u64);
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.0 = mix(self.0, x as u64);
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = mix(self.0, x);
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.0 = mix(self.0, x as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        finish(self.0)
    }
}

type BuildKey = BuildHasherDefault<KeyHasher>;

fn hash_str(s: &str) -> u64 {
    let mut h = KeyHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

// ---------------------------------------------------------------- configuration

/// How a learner's state is derived from the choices made so far (papers/000 Sec. 4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Abstraction {
    /// The last `w` choices made, whatever made them.
    Sequence,
    /// The last `w` influencing choices on the path from the root, each as its
    /// choice: the left and right child of a node get the same state.
    Tree,
    /// As [`Abstraction::Tree`], with each structural branch on the path
    /// recorded by which field (part site) or option (pick site and option) it went into.
    #[default]
    TreeLR,
}

impl Abstraction {
    /// The abstraction's name as papers/000 writes it: `Sequence`, `Tree`, `TreeLR`.
    pub fn name(self) -> &'static str {
        match self {
            Abstraction::Sequence => "Sequence",
            Abstraction::Tree => "Tree",
            Abstraction::TreeLR => "TreeLR",
        }
    }

    /// All three abstractions, in papers/000's order.
    pub const ALL: [Abstraction; 3] = [Abstraction::Sequence, Abstraction::Tree, Abstraction::TreeLR];
}

impl fmt::Display for Abstraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The parameters of an [`RlGuide`]; the defaults are papers/000's (Sec. 4.3.1).
///
/// ```
/// use reflect_runtime::rl::{Abstraction, RlConfig, RlGuide};
/// let guide = RlGuide::new(RlConfig::default().epsilon(0.1).window(6).abstraction(Abstraction::Sequence));
/// assert_eq!(guide.config().window, 6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RlConfig {
    /// The probability of a uniformly random choice (ε of Alg. 1); default 0.25.
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
    /// `false`, as papers/000 (Fig. 3: both child choices see only the node's
    /// value) and the authors' code.
    pub sibling_picks: bool,
}

impl Default for RlConfig {
    fn default() -> Self {
        RlConfig {
            epsilon: 0.25,
            r_unique: 20.0,
            r_valid: 0.0,
            r_invalid: -1.0,
            window: 4,
            abstraction: Abstraction::TreeLR,
            sibling_picks: false,
        }
    }
}

impl RlConfig {
    /// The same configuration with ε = `epsilon` (clamped to `0..=1`).
    pub fn epsilon(mut self, epsilon: f64) -> Self {
        self.epsilon = epsilon.clamp(0.0, 1.0);
        self
    }

    /// The same configuration with these rewards for a unique valid, a duplicate valid and an invalid value.
    pub fn rewards(mut self, unique: f64, valid: f64, invalid: f64) -> Self {
        self.r_unique = unique;
        self.r_valid = valid;
        self.r_invalid = invalid;
        self
    }

    /// The same configuration with window `w`.
    pub fn window(mut self, w: usize) -> Self {
        self.window = w;
        self
    }

    /// The same configuration with this state abstraction.
    pub fn abstraction(mut self, abstraction: Abstraction) -> Self {
        self.abstraction = abstraction;
        self
    }

    /// The same configuration, keeping (or not) closed picks that built nothing in later siblings' states.
    pub fn sibling_picks(mut self, keep: bool) -> Self {
        self.sibling_picks = keep;
        self
    }

    /// The reward for a case that went as `feedback` says (papers/000 Eq. 1).
    pub fn reward(&self, feedback: &Feedback) -> f64 {
        match (feedback.valid, feedback.new) {
            (false, _) => self.r_invalid,
            (true, true) => self.r_unique,
            (true, false) => self.r_valid,
        }
    }
}

// ---------------------------------------------------------------- the learner

#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    q: f64,
    n: u64,
}

/// A tabular Monte Carlo Control learner for one choice point (papers/000 Alg. 1).
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

// ---------------------------------------------------------------- the state tracker

/// One choice as the state abstraction sees it.
#[derive(Debug, Clone, Copy)]
struct Token {
    site: Site,
    choice: Choice,
    /// The choice's bucket: the abstract choice `f_p(c)` (the choice itself on small domains).
    bucket: u64,
    /// The option's label, for a pick.
    label: Option<&'static str>,
    /// Whether the request was an integer range too wide to be shown value by value.
    wide: bool,
    /// The position among its parent's children; `usize::MAX` once folded out of a closed part.
    index: usize,
}

impl Token {
    fn render(&self) -> String {
        match self.label {
            Some(l) => l.to_string(),
            None if self.wide => format!("#{}", self.bucket),
            None => self.choice.to_string(),
        }
    }
}

/// One element of an abstract state.
#[derive(Debug, Clone, Copy)]
enum Item {
    /// A choice, abstracted to its bucket.
    Choice(Token),
    /// Tree L/R: the path went into this option of this pick (site hash kept).
    Branch(Token, u64),
    /// Tree L/R: the path went into this part (site hash kept).
    Part(Site, u64),
}

impl Item {
    #[inline]
    fn key(&self) -> u64 {
        match *self {
            Item::Choice(t) => t.bucket,
            Item::Branch(t, h) => mix(h, t.bucket.wrapping_add(1)),
            Item::Part(_, h) => h,
        }
    }

    fn render(&self) -> String {
        match *self {
            Item::Choice(t) => t.render(),
            Item::Branch(t, _) => format!("{}={}", t.site, t.render()),
            Item::Part(site, _) => site.to_string(),
        }
    }
}

/// One level of the mirrored choice tree: the children of one open node.
#[derive(Debug, Clone, Default)]
struct Level {
    /// The open node whose children this level holds (`None` for the root).
    opener: Option<PathStep>,
    /// That node's own choice, when it is a choice point (taken off its parent's leaves).
    opener_token: Option<Token>,
    /// Hash of the opener's site.
    opener_hash: u64,
    /// The influencing choices made at this level so far.
    leaves: Vec<Token>,
}

/// Mirrors the choice tree of the current case from the contexts a guide is
/// shown, and derives abstract states from it.
#[derive(Debug, Clone)]
struct Tracker {
    levels: Vec<Level>,
    /// How many levels are open (the root's always is).
    live: usize,
    /// Every choice of the case, in order (for [`Abstraction::Sequence`]).
    seq: Vec<Token>,
    /// Whether to mirror the tree (not needed for Sequence).
    tree: bool,
    /// See [`RlConfig::sibling_picks`].
    sibling_picks: bool,
    /// The state being built, newest item first.
    buf: Vec<Item>,
}

impl Tracker {
    fn new(config: &RlConfig) -> Self {
        Tracker {
            levels: vec![Level::default()],
            live: 1,
            seq: Vec::new(),
            tree: config.abstraction != Abstraction::Sequence,
            sibling_picks: config.sibling_picks,
            buf: Vec::new(),
        }
    }

    fn reset(&mut self) {
        for l in &mut self.levels[..self.live] {
            l.leaves.clear();
        }
        self.live = 1;
        self.seq.clear();
    }

    /// Bring the mirror in line with `ctx.path`: close the levels the
    /// generator has left, open the ones it has entered.
    fn observe(&mut self, ctx: &ChoiceContext<'_>) {
        if !self.tree {
            return;
        }
        let path = ctx.path;
        let mut same = 0;
        while same < path.len() && same + 1 < self.live && self.levels[same + 1].opener == Some(path[same]) {
            same += 1;
        }
        while self.live > same + 1 {
            let m = self.live - 1;
            let mut leaves = std::mem::take(&mut self.levels[m].leaves);
            if self.levels[m].opener.is_some_and(|s| s.choice.is_none()) {
                // A closed part is transparent: its influencing choices stay at its level.
                let parent = &mut self.levels[m - 1].leaves;
                parent.extend(leaves.iter().map(|t| Token { index: usize::MAX, ..*t }));
            }
            leaves.clear();
            self.levels[m].leaves = leaves;
            self.live -= 1;
        }
        for m in same + 1..=path.len() {
            let step = path[m - 1];
            let mut opener_token = None;
            if let Some(c) = step.choice {
                // The choice point now open was the last leaf of its level: it is a branch now.
                let parent = &mut self.levels[m - 1].leaves;
                if parent.last().is_some_and(|t| t.index == step.index && t.choice == c && t.site == step.site) {
                    opener_token = parent.pop();
                }
            }
            if self.levels.len() <= m {
                self.levels.push(Level::default());
            }
            let level = &mut self.levels[m];
            level.opener = Some(step);
            level.opener_token = opener_token;
            level.opener_hash = hash_str(step.site);
            level.leaves.clear();
            self.live = m + 1;
        }
    }

    /// Record the choice just made at the point `ctx` describes.
    fn record(&mut self, ctx: &ChoiceContext<'_>, choice: Choice) {
        let request = ctx.request;
        let (label, wide) = match request {
            Request::Pick { options, .. } => (options.get(choice as usize).map(|o| o.label), false),
            Request::Int { span } => (None, span >= reflect_core::choice::SMALL_DOMAIN),
        };
        let token = Token { site: ctx.site, choice, bucket: request.bucket(choice), label, wide, index: ctx.index };
        self.seq.push(token);
        if self.tree {
            self.levels[self.live - 1].leaves.push(token);
        }
    }

    /// Build the state for the current choice point into `buf`, newest item first.
    fn collect(&mut self, abstraction: Abstraction, w: usize) {
        self.buf.clear();
        if w == 0 {
            return;
        }
        if abstraction == Abstraction::Sequence || !self.tree {
            self.buf.extend(self.seq.iter().rev().take(w).map(|&t| Item::Choice(t)));
            return;
        }
        for m in (0..self.live).rev() {
            let level = &self.levels[m];
            for &t in level.leaves.iter().rev() {
                if t.label.is_some() && !self.sibling_picks {
                    continue;
                }
                self.buf.push(Item::Choice(t));
                if self.buf.len() == w {
                    return;
                }
            }
            let Some(step) = level.opener else { continue };
            let token = level.opener_token.unwrap_or(Token {
                site: step.site,
                choice: step.choice.unwrap_or(0),
                bucket: step.choice.unwrap_or(0),
                label: None,
                wide: false,
                index: step.index,
            });
            let item = match (abstraction, step.choice) {
                (Abstraction::TreeLR, Some(_)) => Item::Branch(token, level.opener_hash),
                (Abstraction::TreeLR, None) => Item::Part(step.site, level.opener_hash),
                (_, Some(_)) => Item::Choice(token),
                (_, None) => continue,
            };
            self.buf.push(item);
            if self.buf.len() == w {
                return;
            }
        }
    }

    /// The key of the state in `buf`.
    fn key(&self) -> u64 {
        let mut h = mix(0x0123_4567_89ab_cdef, self.buf.len() as u64);
        for item in self.buf.iter().rev() {
            h = mix(h, item.key());
        }
        finish(h)
    }

    /// The state in `buf`, human-readable, oldest item first.
    fn render(&self) -> Vec<String> {
        self.buf.iter().rev().map(Item::render).collect()
    }
}

// ---------------------------------------------------------------- the guide

/// papers/000's Monte Carlo Control guide (RLCheck): one [`Learner`] per
/// choice point, states from an [`Abstraction`] of the choice tree, rewards
/// from [`Feedback`] (see the module docs).
///
/// `RlGuide::default()` is papers/000's configuration: Tree L/R, `w = 4`,
/// ε = 0.25, rewards 20 / 0 / -1.
///
/// ```
/// use reflect_core::prelude::*;
/// use reflect_runtime::rl::{generate_distinct, RlGuide};
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
    tracker: Tracker,
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
            name: format!("rl({})", config.abstraction),
            learners: Vec::new(),
            sites: HashMap::default(),
            touched: Vec::new(),
            tracker: Tracker::new(&config),
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
        self.tracker.reset();
    }
}

impl Guide for RlGuide {
    fn name(&self) -> &str {
        &self.name
    }

    fn begin_case(&mut self) {
        self.forget_case();
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Choice {
        let request = ctx.request;
        self.tracker.observe(ctx);
        let arity = request.buckets();
        let choice = if arity <= 1 {
            0
        } else {
            let arity = usize::try_from(arity).unwrap_or(usize::MAX);
            self.tracker.collect(self.config.abstraction, self.config.window);
            let state = self.tracker.key();
            let next = self.learners.len();
            let li = *self.sites.entry(ctx.site).or_insert(next);
            if li == next {
                self.learners.push(Learner::new());
            }
            let learner = &mut self.learners[li];
            if learner.episode_len() == 0 {
                self.touched.push(li);
            }
            let bucket = learner.act(state, arity, self.config.epsilon, rng) as u64;
            match request.bucket_range(bucket) {
                Some((lo, hi)) if lo < hi => rng.random_range(lo..=hi),
                Some((lo, _)) => lo,
                None => 0,
            }
        };
        self.tracker.record(ctx, choice);
        choice
    }

    fn feedback(&mut self, feedback: &Feedback) {
        let r = self.config.reward(feedback);
        for &i in &self.touched {
            self.learners[i].update(r);
        }
        self.touched.clear();
        self.tracker.reset();
    }
}

// ---------------------------------------------------------------- explaining states

/// The abstract state a guide would see at one choice point, human-readable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribedState {
    /// The choice point.
    pub site: Site,
    /// The choice made there.
    pub choice: Choice,
    /// The state before the choice, oldest element first: a choice by its
    /// option label or integer (`#k` for bucket `k` of a wide range), a
    /// Tree L/R branch as `site=label`, a Tree L/R part by its site.
    pub state: Vec<String>,
}

impl fmt::Display for DescribedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.state.join(", "))
    }
}

struct Script<'a> {
    choices: &'a [Choice],
    next: usize,
    config: RlConfig,
    tracker: Tracker,
    out: Vec<DescribedState>,
}

impl Guide for Script<'_> {
    fn name(&self) -> &str {
        "script"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, _rng: &mut DetRng) -> Choice {
        self.tracker.observe(ctx);
        self.tracker.collect(self.config.abstraction, self.config.window);
        let c = self.choices.get(self.next).copied().filter(|&c| ctx.request.accepts(c)).unwrap_or(0);
        self.next += 1;
        self.out.push(DescribedState { site: ctx.site, choice: c, state: self.tracker.render() });
        self.tracker.record(ctx, c);
        c
    }
}

/// Run `gen` once on the choices `choices` (in order; an unfit or missing
/// choice is answered with 0) and return the state that `config`'s
/// abstraction and window derive at each choice point: what an [`RlGuide`]
/// with that configuration would show the learner there.
///
/// ```
/// use reflect_core::prelude::*;
/// use reflect_runtime::rl::{describe_states, Abstraction, RlConfig};
///
/// let g = (int(0u8..=9).site("a"), bool().site("b"), int(0u8..=9).site("c"));
/// let seq = describe_states(&g, &[3, 1, 4], RlConfig::default().abstraction(Abstraction::Sequence));
/// assert_eq!(seq[2].to_string(), "[3, true]");
/// let lr = describe_states(&g, &[3, 1, 4], RlConfig::default());
/// assert_eq!(lr[2].to_string(), "[3, 2]"); // the int in part "0", then part "2"; the closed bool is not seen
/// ```
pub fn describe_states<G: Gen + ?Sized>(gen: &G, choices: &[Choice], config: RlConfig) -> Vec<DescribedState> {
    let mut script = Script { choices, next: 0, config, tracker: Tracker::new(&config), out: Vec::new() };
    {
        let mut src = GuidedSource::new(&mut script, 0);
        src.begin_case();
        let _ = gen.run(&mut src);
    }
    script.out
}

// ---------------------------------------------------------------- distinct values

/// What [`generate_distinct`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distinct<T> {
    /// The distinct valid values, in the order they were first generated.
    pub unique_valid: Vec<T>,
    /// How many runs gave a valid value (duplicates included).
    pub valid: usize,
    /// How many runs gave no value (invalid, or stopped otherwise).
    pub invalid: usize,
    /// How many runs there were.
    pub trials: usize,
}

/// Run `gen` `trials` times under `guide` (an RNG seeded by `seed`), and
/// return the distinct valid values.
///
/// A run that returns a value is valid; one that stops (a filter or
/// `assume` rejected it, or any other [`reflect_core::Stop`]) is invalid. A
/// valid value is *new* when no structurally equal value was generated
/// before. After each run the guide gets that [`Feedback`], so an
/// [`RlGuide`] learns as it goes. Same seed, same guide state: same result.
pub fn generate_distinct<G, U>(gen: &G, guide: &mut U, trials: usize, seed: u64) -> Distinct<G::Value>
where
    G: Gen + ?Sized,
    G::Value: Hash + Eq,
    U: Guide + ?Sized,
{
    let hasher = BuildKey::default();
    // Value hash -> indices of the unique values with that hash.
    let mut seen: HashMap<u64, Vec<usize>, BuildKey> = HashMap::default();
    let mut out = Distinct { unique_valid: Vec::new(), valid: 0, invalid: 0, trials };
    let mut src = GuidedSource::new(guide, seed);
    for _ in 0..trials {
        src.begin_case();
        let feedback = match gen.run(&mut src) {
            Ok(v) => {
                out.valid += 1;
                let same = seen.entry(hasher.hash_one(&v)).or_default();
                let new = !same.iter().any(|&i| out.unique_valid[i] == v);
                if new {
                    same.push(out.unique_valid.len());
                    out.unique_valid.push(v);
                }
                Feedback { valid: true, new, utility: None }
            }
            Err(_) => {
                out.invalid += 1;
                Feedback { valid: false, new: false, utility: None }
            }
        };
        src.guide().feedback(&feedback);
    }
    out
}

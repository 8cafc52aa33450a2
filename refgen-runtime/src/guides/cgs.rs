//! Choice Gradient Sampling (Goldstein and Pierce, "Parsing Randomness", OOPSLA 2022).
//!
//! The algorithm, for a generator `g` and a validity condition (`#[assume]`,
//! filters, `assume!`):
//!
//! 1. start a *walk* from `g` (the empty prefix of choices);
//! 2. at the next choice point, for every option `c` (every bucket of
//!    [`Request::buckets`] for an integer range wider than
//!    [`refgen_core::choice::SMALL_DOMAIN`]), draw `N` samples from the
//!    derivative `δ_c g` (the generator with the walk's prefix and `c`
//!    fixed, every later choice random: what
//!    [`refgen_core::interpret::derivative`] makes of them); the *fitness*
//!    of `c` is the number of distinct valid values among them;
//! 3. choose `c` with probability proportional to its fitness, each value
//!    weighed by its size (see below) (uniformly
//!    when every fitness is 0, as the paper's artifact does) and continue
//!    from `δ_c g`;
//! 4. when the chosen derivative makes no further choice (it is nullable),
//!    the walk is over: start the next one from `g`.
//!
//! **Every sample is a case.** Sampling `δ_c g` is running `g` with the
//! prefix answered from the walk and the rest at random, so [`CgsGuide`]
//! makes each sample one case of the run, planned fresh and answered in
//! [`Guide::choose`]: the property tests every sample, every valid sample
//! is a value of the run (in [`crate::explore::generate_distinct`], one of
//! the distinct valid values), and the budget counts each sample as one run
//! of the generator, as it counts a case of any other guide. The guide
//! learns each sample's validity and value key from [`Feedback`].
//!
//! **Cost of a sample.** A derivative here is a prefix replayed, not a
//! suspended program resumed: the walk's choices are answered from a
//! vector, then the case's RNG answers the rest, so one sample costs one run
//! of the generator through the guided source, the same as a case of the
//! random guide (`benches/src/bin/cgs_bench.rs` prints both). Work is shared where
//! the derivative says it can be: an option whose derivative makes no
//! further choice has one value, so it is sampled once, not `N` times; a
//! choice point with a single answer is taken without sampling. (Counting
//! the chosen option's samples again at the next choice point, as samples of
//! the derivative by the choice they made there, was tried: on the BST and
//! STLC workloads of `benches/src/bin/cgs_bench.rs` it found no more distinct
//! valid values at an equal budget, so it is not done.)
//!
//! Departures from the paper, and why:
//!
//! - **Integers.** The paper's generators pick among a few options; here an
//!   integer range is a choice point too. A range of at most 16 values is
//!   sampled value by value; a wider one by its 8 buckets (as RLCheck's and
//!   this crate's RL guide treat it), each sample drawing a value uniformly
//!   inside the bucket. Once a bucket is chosen, the walk fixes the value of
//!   the first valid sample drawn from it (a value known to lead to a valid
//!   value), or a uniform one in the bucket when none was valid.
//! - **A derivative with one value.** When an option's first sample made no
//!   choice after it (the derivative is nullable), the option is not
//!   sampled again: its other `N - 1` samples could only repeat that value.
//!   The paper's artifact samples it `N` times.
//! - **Size.** The paper draws an option by its fitness, each distinct
//!   valid value counted once; here each counts one more than its number of
//!   choices ([`CgsStep::fitness`] is still the count), so that an option whose
//!   valid values are larger weighs more. Counted once, the walk settled on
//!   the options with the most (small) valid values, and found fewer bugs
//!   than random generation on `examples/bugfind.rs`.
//! - **The budget** is counted in runs of the generator (each sample is one)
//!   rather than in the paper's wall-clock time, so that every guide is
//!   compared at equal cost.
//!
//! **`guide = cgs` grows.** Where a retrying `#[assume]` makes more than one
//! failed attempt per case, `#[property(guide = cgs)]` shares the work with
//! grafting once it has seen that ([`super::grow`]; `cgs(grow = 0)` is this
//! guide alone): a walk's samples are random completions, whose valid
//! values stay as small as random generation's.
//!
//! The parameter is `N` ([`CgsConfig::samples`], `cgs(samples = N)` in
//! `#[property]`), 50 by default as in the paper's evaluation of binary
//! search trees and sorted lists (its artifact used 500 for AVL trees and
//! 400 for lambda terms, whose valid values are rarer). Larger `N` measures
//! fitness better and walks more slowly: a choice point costs up to `N`
//! runs per option. In a property, `cases` counts valid cases as under any
//! guide, and each sample is one case.

//!
//! # When it helps, and when `rl` or `mutate` is the better choice
//!
//! Measured as distinct valid values at an equal budget of generator runs
//! (seed 1). On the paper's workloads (`benches/src/bin/cgs_bench.rs`, 100,000
//! runs), CGS beats rejection sampling, as the paper found, but RLCheck
//! (`rl`) beats CGS everywhere but AVL trees:
//!
//! | workload | random | `cgs` | `rl` |
//! |---|---|---|---|
//! | binary search trees | 495 | 1,007 | 5,528 |
//! | sorted lists | 508 | 1,570 | 9,987 |
//! | AVL trees | 35 | 52 | 20 |
//! | well-typed lambda terms | 980 | 5,972 | 27,284 |
//!
//! On this page's example, sorted lists of digits by a discarding filter
//! (`benches/src/bin/which_guide.rs`, lists of up to `N` digits, `retries(0)`),
//! CGS finds a quarter to a half more than random generation at 100,000
//! runs, and `rl(explore = diverse)` ten to forty times more:
//!
//! | lists of up to | runs | random | `cgs` | `rl` | `rl(explore = diverse)` | `mutate` |
//! |---|---|---|---|---|---|---|
//! | 6 digits | 5,000 | 256 | 291 | 365 | 205 | 164 |
//! | 6 digits | 100,000 | 1,149 | 1,458 | 6,729 | 7,289 | 610 |
//! | 12 digits | 100,000 | 886 | 1,181 | 11,279 | 34,450 | 374 |
//! | 20 digits | 100,000 | 676 | 1,286 | 13,432 | 42,686 | 396 |
//!
//! (`mutate` keeps a new valid value in its corpus only when its shape is
//! new, which presses toward larger values, not more distinct ones: 75% of
//! its valid sorted lists have 3 or more elements, against 9% under random
//! generation, in `examples/bugfind`.)
//!
//! Why: a step of the walk costs `N` samples per option (500 runs for a
//! digit, at `N = 50`), so 100,000 runs make a few dozen walks, and most
//! valid values come from the samples' random completions, which are
//! random generation's. So:
//!
//! - **`cgs`** where `rl` settles on a few easy valid values and keeps
//!   making them (AVL trees above: 52 against 20), or to see *which* options
//!   lead to valid values: [`CgsGuide::last_step`] and the notes give the
//!   fitness of each option;
//! - **`rl(explore = diverse)`** for the most distinct valid values when
//!   validity is rare and spread over many choices (sorted lists, search
//!   trees, typed terms);
//! - **`mutate`** when valid values are rare and close to each other (a
//!   valid value's neighbours are often valid) and larger ones matter, or
//!   when there are examples to start from.
//!
//! The default guide, `auto`, switches to `rl` by itself when most cases
//! are discarded.

use crate::guide::{CaseInfo, ChoiceContext, Feedback, Guide, GuideReport, Plan};
use crate::hashing::BuildKey;
use rand::Rng;
use refgen_core::choice::{Choice, Request, Site};
use refgen_core::source::{sample, weighted_index, DetRng, Stop};
use std::collections::HashSet;

/// The parameters of a [`CgsGuide`]. Its setters are `#[property(guide = cgs(key = value, ...))]`'s
/// keys: `samples`, `grow`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CgsConfig {
    /// `N`, the samples drawn from each option's derivative to measure its
    /// fitness; default 50, the paper's evaluation's.
    pub samples: u32,
    /// The share of the work (`0..=1`) that mutation with splicing and grafting makes once the
    /// validity condition retries, in the guide the configuration makes for a property
    /// ([`GuideOptions`](super::GuideOptions): a [`Growing`](super::Growing)); default
    /// [`DEFAULT_GROW`](super::grow::DEFAULT_GROW), 0 the guide alone. [`CgsGuide::new`] is the guide
    /// alone whatever it is.
    pub grow: f64,
}

impl Default for CgsConfig {
    fn default() -> Self {
        options::<()>()
    }
}

impl CgsConfig {
    /// `samples = N`: the same configuration drawing `n` samples from each option's derivative;
    /// `n` must be at least 1.
    pub const fn samples(mut self, n: u32) -> Self {
        assert!(n >= 1, "`samples` must be at least 1: the samples drawn from each option's derivative");
        self.samples = n;
        self
    }

    /// `grow = P`: once the validity condition retries, mutation with splicing and grafting makes the
    /// share `P` of the work (`0..=1`, default 0.5; 0: the guide alone). See [`super::grow`].
    pub const fn grow(mut self, p: f64) -> Self {
        self.grow = super::grow::grow_option(p);
        self
    }
}

/// One choice point the walk decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CgsStep {
    /// The walk's choices before this choice point.
    pub prefix: Vec<Choice>,
    /// The choice point.
    pub site: Site,
    /// The fitness of each option (bucket), in order: the distinct valid
    /// values among the samples of its derivative.
    pub fitness: Vec<u64>,
    /// How many samples each option's derivative got.
    pub samples: Vec<u64>,
    /// The option (bucket) chosen.
    pub chosen: u64,
    /// The choice the walk fixed (the option itself, or a value in the chosen bucket).
    pub choice: Choice,
}

/// What the guide did so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CgsStats {
    /// Samples drawn (cases planned by the walk).
    pub samples: u64,
    /// Samples that were valid.
    pub valid_samples: u64,
    /// Choice points decided by fitness.
    pub steps: u64,
    /// Of those, choice points where every fitness was 0 (decided uniformly).
    pub blind_steps: u64,
    /// Walks finished (the derivative made no further choice).
    pub walks: u64,
}

/// The options of the choice point being measured.
#[derive(Debug, Clone)]
struct Point {
    site: Site,
    /// The request's span, for integers (to draw inside a bucket); `None` for a pick.
    span: Option<u64>,
    fitness: Vec<u64>,
    /// The fitness with each distinct valid value weighed by its size (one more than its number of choices).
    weight: Vec<u64>,
    samples: Vec<u64>,
    /// The first valid sample's choice here, per option, and whether its run ended there.
    first_valid: Vec<Option<(Choice, bool)>>,
    /// Whether the option's derivative made no further choice (seen on its first sample).
    ended: Vec<bool>,
    /// The option being sampled now.
    option: u64,
    /// Distinct valid keys of the option being sampled.
    keys: HashSet<u64, BuildKey>,
}

impl Point {
    fn new(site: Site, request: Request<'_>) -> Self {
        let n = request.buckets() as usize;
        let span = match request {
            Request::Int { span } => Some(span),
            Request::Pick { .. } => None,
        };
        Point {
            site,
            span,
            fitness: vec![0; n],
            weight: vec![0; n],
            samples: vec![0; n],
            first_valid: vec![None; n],
            ended: vec![false; n],
            option: 0,
            keys: HashSet::default(),
        }
    }

    /// The choices of bucket `b`.
    fn range(&self, b: u64) -> (Choice, Choice) {
        match self.span {
            Some(span) => Request::Int { span }.bucket_range(b).unwrap_or((0, 0)),
            None => (b, b),
        }
    }

    fn done(&self) -> bool {
        self.option as usize >= self.fitness.len()
    }
}

/// Choice Gradient Sampling as a guide; see the module docs.
///
/// ```
/// use refgen::prelude::*;
/// use refgen::interpret::*;
/// use refgen::{explore::generate_distinct, guides::CgsGuide};
///
/// // Sorted lists of digits: rare among random lists of length 0..=6.
/// let g = vec(int(0u8..=9), 0..=6).filter(|xs| xs.windows(2).all(|w| w[0] <= w[1]));
/// let out = generate_distinct(&g, &mut CgsGuide::default(), 5_000, 1);
/// assert_eq!(out.trials, 5_000);
/// assert!(out.unique_valid.iter().all(|xs| xs.windows(2).all(|w| w[0] <= w[1])));
/// ```
#[derive(Debug, Clone)]
pub struct CgsGuide {
    config: CgsConfig,
    /// The walk's choices so far.
    prefix: Vec<Choice>,
    /// The choice point after the prefix, while its options are sampled.
    point: Option<Point>,
    /// Whether the case under way was planned by this guide (examples are not).
    in_case: bool,
    /// The choice this case made at the point, if it reached it.
    this_choice: Option<Choice>,
    last: Option<CgsStep>,
    stats: CgsStats,
}

impl Default for CgsGuide {
    fn default() -> Self {
        CgsGuide::new(CgsConfig::default())
    }
}

impl CgsGuide {
    /// A guide with this configuration.
    pub fn new(config: CgsConfig) -> Self {
        CgsGuide {
            config,
            prefix: Vec::new(),
            point: None,
            in_case: false,
            this_choice: None,
            last: None,
            stats: CgsStats::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &CgsConfig {
        &self.config
    }

    /// What the guide did so far.
    pub fn stats(&self) -> CgsStats {
        self.stats
    }

    /// The last choice point decided, with every option's fitness.
    pub fn last_step(&self) -> Option<&CgsStep> {
        self.last.as_ref()
    }

    /// The walk's choices so far.
    pub fn prefix(&self) -> &[Choice] {
        &self.prefix
    }

    /// Start the next walk from the generator itself.
    fn new_walk(&mut self) {
        self.prefix.clear();
        self.point = None;
        self.stats.walks += 1;
    }

    /// Every option of the point was sampled: choose one by fitness and extend the walk.
    fn decide(&mut self, rng: &mut DetRng) {
        let Some(point) = self.point.take() else { return };
        let total: u64 = point.weight.iter().sum();
        let n = point.fitness.len() as u64;
        let chosen = if total == 0 {
            self.stats.blind_steps += 1;
            rng.random_range(0..n)
        } else {
            weighted_index(&point.weight, total, rng) as u64
        };
        self.stats.steps += 1;
        let (lo, hi) = point.range(chosen);
        let (choice, ended) = match point.first_valid[chosen as usize] {
            Some(first) => first,
            None if lo == hi => (lo, point.ended[chosen as usize]),
            None => (rng.random_range(lo..=hi), false),
        };
        self.last = Some(CgsStep {
            prefix: self.prefix.clone(),
            site: point.site,
            fitness: point.fitness,
            samples: point.samples,
            chosen,
            choice,
        });
        if ended {
            self.new_walk();
        } else {
            self.prefix.push(choice);
        }
    }
}

impl Guide for CgsGuide {
    fn name(&self) -> &str {
        "cgs"
    }

    fn begin_case(&mut self, _case: &CaseInfo<'_>) -> Plan {
        self.in_case = true;
        self.this_choice = None;
        Plan::fresh()
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        if !self.in_case {
            return Ok(sample(rng, ctx.request));
        }
        let i = ctx.trail.choice_count();
        if i == 0 && self.point.as_ref().is_some_and(Point::done) {
            self.decide(rng);
        }
        if let Some(&c) = self.prefix.get(i) {
            if ctx.request.accepts(c) {
                return Ok(c);
            }
            // The generator no longer makes the walk's choices (it is not a
            // function of its choices alone): start again from the root.
            self.new_walk();
            return Ok(sample(rng, ctx.request));
        }
        if i > self.prefix.len() {
            return Ok(sample(rng, ctx.request));
        }
        // The choice point after the walk's prefix.
        if ctx.request.buckets() <= 1 {
            // One answer: nothing to measure.
            self.prefix.push(0);
            return Ok(0);
        }
        let point = self.point.get_or_insert_with(|| Point::new(ctx.site, ctx.request));
        let (lo, hi) = point.range(point.option);
        let c = if lo == hi { lo } else { rng.random_range(lo..=hi) };
        self.this_choice = Some(c);
        Ok(c)
    }

    fn feedback(&mut self, feedback: &Feedback<'_>) {
        if !std::mem::replace(&mut self.in_case, false) {
            return;
        }
        self.stats.samples += 1;
        self.stats.valid_samples += u64::from(feedback.valid);
        let made = feedback.trail.choice_count();
        let Some(c) = self.this_choice.take() else {
            if made <= self.prefix.len() {
                // The generator made no choice after the prefix: the walk is over.
                self.new_walk();
            }
            return;
        };
        let Some(point) = self.point.as_mut() else { return };
        let b = point.option as usize;
        let ended = made == self.prefix.len() + 1;
        if point.samples[b] == 0 {
            point.ended[b] = ended;
        }
        point.samples[b] += 1;
        if let (true, Some(key)) = (feedback.valid, feedback.key) {
            if point.keys.insert(key) {
                point.fitness[b] += 1;
                // Weighed by size: an option whose valid values are larger is worth more.
                point.weight[b] += 1 + feedback.trail.choice_count() as u64;
            }
            if point.first_valid[b].is_none() {
                point.first_valid[b] = Some((c, ended));
            }
        }
        let (lo, hi) = point.range(point.option);
        // An option whose derivative makes no further choice has one value: one sample measures it.
        let measured = point.samples[b] >= u64::from(self.config.samples) || (lo == hi && point.ended[b]);
        if measured {
            point.option += 1;
            point.keys.clear();
        }
    }

    fn report(&self) -> GuideReport {
        let s = &self.stats;
        let notes = vec![format!(
            "choice gradient sampling (N = {}): {} samples, {} valid; {} choice points decided ({} with every fitness 0), {} walks finished",
            self.config.samples, s.samples, s.valid_samples, s.steps, s.blind_steps, s.walks
        )];
        GuideReport { notes, ..GuideReport::default() }
    }
}

/// `#[property(guide = cgs(...))]`'s options, their defaults (see [`super`]'s table): the same as
/// [`CgsConfig::default`].
pub const fn options<V>() -> CgsConfig {
    CgsConfig { samples: 50, grow: super::grow::DEFAULT_GROW }
}

super::option_keys!(samples, grow);

/// The names `cgs`'s options may use: none.
pub mod names {}

impl<V> super::GuideOptions<V> for CgsConfig {
    type Guide = super::Growing;
    fn into_guide(self, _property: super::ForProperty<V>) -> super::Growing {
        super::Growing::new(CgsGuide::new(self), self.grow)
    }
}

//! The guide interface: how every strategy (random, RL, SA, derivative sampling, mutation, fuzzer bytes) steers a generator's choices.
//!
//! A [`Guide`] answers one choice at a time, seeing the choice point's
//! identity, its request, the path of choices and parts from the root of the
//! choice tree to this point, and the flat history of choices in this case.
//! At the end of each case the runner tells it how the case went
//! ([`Feedback`]). [`GuidedSource`] turns a guide into a
//! [`reflect_core::Source`] that any generator runs against.

use reflect_core::choice::{Choice, Request, Site};
use reflect_core::source::{rng_from_seed, sample, DetRng, Source, Stop};

/// One step on the path from the root of the choice tree to the current choice point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PathStep {
    /// The site of the enclosing choice point or part.
    pub site: Site,
    /// The choice made there, for a choice point; `None` for a part (a field, an element).
    pub choice: Option<Choice>,
    /// The position of this node among its parent's children: which branch the path took.
    pub index: usize,
}

/// What a guide sees when asked for a choice.
#[derive(Debug, Clone, Copy)]
pub struct ChoiceContext<'a> {
    /// The choice point asking.
    pub site: Site,
    /// What it asks.
    pub request: Request<'a>,
    /// The open choice points and parts from the root down to (not including) this one.
    pub path: &'a [PathStep],
    /// The position this choice will take among its parent's children.
    pub index: usize,
    /// Every choice made so far in this case, in order.
    pub history: &'a [(Site, Choice)],
}

/// How a case went, told to the guide when it ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feedback {
    /// The value passed its validity condition (`#[assume]`, `assume!`, filters).
    pub valid: bool,
    /// The value had not been generated before in this run (structural equality).
    pub new: bool,
    /// The utility the property reported, if any (for targeted search).
    pub utility: Option<f64>,
}

/// A strategy that answers a generator's choices.
pub trait Guide {
    /// The guide's name, for reports.
    fn name(&self) -> &str;

    /// A new case begins.
    fn begin_case(&mut self) {}

    /// Answer one choice. `rng` is the run's seeded RNG, for guides that
    /// randomise. An answer the request does not accept is replaced by a
    /// weighted random one.
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Choice;

    /// The case that just ended went as `feedback` says.
    fn feedback(&mut self, feedback: &Feedback) {
        let _ = feedback;
    }
}

impl<G: Guide + ?Sized> Guide for Box<G> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn begin_case(&mut self) {
        (**self).begin_case()
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Choice {
        (**self).choose(ctx, rng)
    }
    fn feedback(&mut self, feedback: &Feedback) {
        (**self).feedback(feedback)
    }
}

/// Plain random generation, honouring the generator's weights.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomGuide;

impl Guide for RandomGuide {
    fn name(&self) -> &str {
        "Random"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Choice {
        sample(rng, ctx.request)
    }
}

/// A [`Source`] that asks a [`Guide`], keeping the path from the root.
pub struct GuidedSource<'g, G: ?Sized> {
    guide: &'g mut G,
    /// The run's RNG.
    pub rng: DetRng,
    path: Vec<PathStep>,
    /// Children seen so far at each open level (the root is level 0).
    counts: Vec<usize>,
    history: Vec<(Site, Choice)>,
}

impl<'g, G: Guide + ?Sized> GuidedSource<'g, G> {
    /// A source asking `guide`, with an RNG seeded by `seed`.
    pub fn new(guide: &'g mut G, seed: u64) -> Self {
        Self::with_rng(guide, rng_from_seed(seed))
    }

    /// A source asking `guide`, drawing randomness from `rng`.
    pub fn with_rng(guide: &'g mut G, rng: DetRng) -> Self {
        GuidedSource { guide, rng, path: Vec::new(), counts: vec![0], history: Vec::new() }
    }

    /// Start a new case: clears the path and history and tells the guide.
    pub fn begin_case(&mut self) {
        self.path.clear();
        self.counts.clear();
        self.counts.push(0);
        self.history.clear();
        self.guide.begin_case();
    }

    /// The choices made in the current case.
    pub fn history(&self) -> &[(Site, Choice)] {
        &self.history
    }

    /// The guide.
    pub fn guide(&mut self) -> &mut G {
        self.guide
    }

    fn open(&mut self, site: Site, choice: Option<Choice>) {
        let index = *self.counts.last().expect("root level");
        if let Some(c) = self.counts.last_mut() {
            *c += 1;
        }
        self.path.push(PathStep { site, choice, index });
        self.counts.push(0);
    }
}

impl<G: Guide + ?Sized> Source for GuidedSource<'_, G> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let index = *self.counts.last().expect("root level");
        let ctx = ChoiceContext { site, request, path: &self.path, index, history: &self.history };
        let mut c = self.guide.choose(&ctx, &mut self.rng);
        if !request.accepts(c) {
            c = sample(&mut self.rng, request);
        }
        self.history.push((site, c));
        self.open(site, Some(c));
        Ok(c)
    }
    fn enter(&mut self, site: Site) {
        self.open(site, None);
    }
    fn leave(&mut self) {
        if self.counts.len() > 1 {
            self.path.pop();
            self.counts.pop();
        }
    }
}

//! Every interpretation of one generator: generate, parse, replay leniently, weighted, language, derivative, reflect, check, probability.

use crate::choice::{Choice, ChoiceTree, OwnedRequest, Request, Site};
use crate::gen::{Gen, Way};
use crate::source::{rng_from_seed, sample, sample_uniform, DetRng, RngSource, Source, Stop};
use crate::trail::{Cue, Cursor, Recorder};
use std::collections::HashMap;
use std::fmt;

// ---------------------------------------------------------------- generate

/// Generate one value from `seed` (papers/001's `G[.]`).
pub fn generate<G: Gen + ?Sized>(g: &G, seed: u64) -> Result<G::Value, Stop> {
    g.run_rng(&mut rng_from_seed(seed))
}

/// Generate one value with choices drawn from `rng`.
pub fn generate_with<G: Gen + ?Sized>(g: &G, rng: &mut DetRng) -> Result<G::Value, Stop> {
    g.run_rng(rng)
}

/// Generate one value from `seed` and record the choice tree that made it
/// (papers/001's randomness interpretation `R[.]`, with the value).
pub fn generate_recorded<G: Gen + ?Sized>(g: &G, seed: u64) -> (Result<G::Value, Stop>, ChoiceTree) {
    run_recorded(g, RngSource(&mut rng_from_seed(seed))).0
}

/// Run `g` against `src`, recording the choice tree; returns the source too.
pub fn run_recorded<G: Gen + ?Sized, S: Source>(g: &G, src: S) -> ((Result<G::Value, Stop>, ChoiceTree), S) {
    let mut rec = Recorder::new(src);
    let r = g.run(&mut rec);
    let (tree, src) = rec.finish();
    ((r, tree), src)
}

// ---------------------------------------------------------------- parse

/// Why a strict parse of a choice sequence failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The choice at `index` is not one the choice point `site` can make.
    Unfit {
        /// Position in the sequence.
        index: usize,
        /// The choice point.
        site: Site,
        /// The offending choice.
        choice: Choice,
        /// How many answers the choice point has.
        arity: u64,
    },
    /// The sequence ended at `index`, where the choice point `site` still needed an answer.
    Exhausted {
        /// Position in the sequence.
        index: usize,
        /// The choice point.
        site: Site,
    },
    /// The generator finished with `left` choices unused.
    Leftover {
        /// How many choices were not used.
        left: usize,
    },
    /// The generator gave no value for another reason (void, or its validity condition failed).
    NoValue(Stop),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unfit { index, site, choice, arity } => write!(
                f,
                "choice #{index} is {choice}, but the choice point `{site}` has only {arity} answer(s) (0..={})",
                arity.saturating_sub(1)
            ),
            ParseError::Exhausted { index, site } => {
                write!(f, "the choices ended after {index}, but the choice point `{site}` still needs one")
            }
            ParseError::Leftover { left } => write!(f, "the generator finished with {left} choice(s) left over"),
            ParseError::NoValue(stop) => write!(f, "{stop}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Answers choices from a fixed sequence; notes the first problem.
struct SeqSource<'a> {
    choices: &'a [Choice],
    pos: usize,
    error: Option<ParseError>,
}

impl Source for SeqSource<'_> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let Some(&c) = self.choices.get(self.pos) else {
            self.error = Some(ParseError::Exhausted { index: self.pos, site });
            return Err(Stop::Rejected);
        };
        if !request.accepts(c) {
            self.error = Some(ParseError::Unfit { index: self.pos, site, choice: c, arity: request.arity() });
            return Err(Stop::Rejected);
        }
        self.pos += 1;
        Ok(c)
    }
}

/// Parse a choice sequence strictly (papers/001's `P[.]`): every choice must
/// be one the generator can make at that point, and all must be used.
pub fn parse<G: Gen + ?Sized>(g: &G, choices: &[Choice]) -> Result<G::Value, ParseError> {
    let mut src = SeqSource { choices, pos: 0, error: None };
    match g.run(&mut src) {
        Ok(v) if src.pos == choices.len() => Ok(v),
        Ok(_) => Err(ParseError::Leftover { left: choices.len() - src.pos }),
        Err(stop) => Err(src.error.unwrap_or(ParseError::NoValue(stop))),
    }
}

/// Parse the flat sequence of a choice tree strictly; see [`parse`].
pub fn parse_tree<G: Gen + ?Sized>(g: &G, tree: &ChoiceTree) -> Result<G::Value, ParseError> {
    parse(g, &tree.choices())
}

// ---------------------------------------------------------------- lenient replay

/// Any choice of `request` but `old`, uniformly, when there is another (papers/001's `Reroll`).
pub fn reroll_choice(rng: &mut DetRng, request: Request<'_>, old: Choice) -> Choice {
    let n = request.arity();
    if n <= 1 {
        0
    } else if old < n {
        let d = sample_uniform(rng, Request::Int { span: n - 2 });
        if d >= old {
            d + 1
        } else {
            d
        }
    } else {
        sample_uniform(rng, request)
    }
}

/// Replays a possibly broken choice tree (papers/001's `MutGen`), asking `fill` at the gaps.
struct Lenient<'t, F> {
    cursor: Cursor<'t>,
    fill: F,
}

impl<F: FnMut(Site, Request<'_>, Cue) -> Result<Choice, Stop>> Source for Lenient<'_, F> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        match self.cursor.choose(site, request) {
            Cue::Keep(c) => Ok(c),
            cue => (self.fill)(site, request, cue),
        }
    }
    fn enter(&mut self, site: Site) {
        self.cursor.enter(site);
    }
    fn leave(&mut self) {
        self.cursor.leave();
    }
}

/// Replay a possibly broken choice tree leniently (papers/001 Sec. 3.4.2,
/// `MutGen`): a choice the generator can make is kept; one it cannot is
/// replaced by a random one; a choice under a reroll mark
/// ([`ChoiceTree::reroll`]) is replaced by a random different one; where the
/// tree runs out or no longer matches the generator's structure (a different
/// site), the first option is taken. Randomness comes from `seed`.
/// Returns the value and the tree of choices actually made.
///
/// The value is always one the generator can produce; it is `Err` only when
/// the generator's own validity condition rejects it (or it is void).
pub fn replay_lenient<G: Gen + ?Sized>(g: &G, tree: &ChoiceTree, seed: u64) -> (Result<G::Value, Stop>, ChoiceTree) {
    let mut rng = rng_from_seed(seed);
    let fill = |_: Site, request: Request<'_>, cue: Cue| {
        Ok(match cue {
            Cue::Keep(c) => c,
            Cue::Unfit(_) => sample_uniform(&mut rng, request),
            Cue::Reroll(old) => reroll_choice(&mut rng, request, old),
            Cue::Missing => 0,
        })
    };
    run_recorded(g, Lenient { cursor: Cursor::new(tree), fill }).0
}

/// Replay a possibly broken choice tree as [`replay_lenient`] does, but ask
/// `fallback` wherever the tree has no usable choice: where it runs out or
/// no longer matches, where its choice does not fit, and under a reroll mark
/// (when `fallback` gives the old choice back there and another exists, the
/// next one, cyclically, is taken). `fallback` sees only the choice points it
/// answers (each matched by one [`Source::leave`]) and every part.
/// Returns the value and the tree of choices actually made.
pub fn replay_with<G: Gen + ?Sized>(
    g: &G,
    tree: &ChoiceTree,
    fallback: &mut dyn Source,
) -> (Result<G::Value, Stop>, ChoiceTree) {
    let src = Fallback { cursor: Cursor::new(tree), inner: fallback, open: Vec::new() };
    run_recorded(g, src).0
}

/// A cursor that hands the gaps to another source, keeping that source's structure calls balanced.
struct Fallback<'t, 'f> {
    cursor: Cursor<'t>,
    inner: &'f mut dyn Source,
    /// For each open node: whether `inner` saw it open.
    open: Vec<bool>,
}

impl Source for Fallback<'_, '_> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let c = match self.cursor.choose(site, request) {
            Cue::Keep(c) => {
                self.open.push(false);
                return Ok(c);
            }
            Cue::Reroll(old) => {
                let c = self.inner.choose(site, request)?;
                if c == old && request.arity() > 1 {
                    (old + 1) % request.arity()
                } else {
                    c
                }
            }
            Cue::Unfit(_) | Cue::Missing => self.inner.choose(site, request)?,
        };
        self.open.push(true);
        Ok(c)
    }
    fn enter(&mut self, site: Site) {
        self.cursor.enter(site);
        self.inner.enter(site);
        self.open.push(true);
    }
    fn leave(&mut self) {
        self.cursor.leave();
        if self.open.pop() == Some(true) {
            self.inner.leave();
        }
    }
}

// ---------------------------------------------------------------- weighted

/// Weights by site and label, for generation tuned by examples
/// (papers/001's `WeightedGen`, `tunedLike`, `tunedUnlike`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Weights {
    /// Weights by site, then by label (looked up by `&str`, without allocating).
    counts: HashMap<String, HashMap<String, f64>>,
    unlike: bool,
}

impl Weights {
    /// No weights: every pick is uniform.
    pub fn new() -> Self {
        Weights::default()
    }

    /// Set the weight of option `label` at `site`.
    pub fn set(&mut self, site: &str, label: &str, weight: f64) -> &mut Self {
        *self.entry(site, label) = weight.max(0.0);
        self
    }

    /// The weight of option `label` at `site` (0 when unset).
    pub fn get(&self, site: &str, label: &str) -> f64 {
        self.counts.get(site).and_then(|by_label| by_label.get(label)).copied().unwrap_or(0.0)
    }

    fn entry(&mut self, site: &str, label: &str) -> &mut f64 {
        self.counts.entry(site.to_owned()).or_default().entry(label.to_owned()).or_insert(0.0)
    }

    /// Weights that make the choices `examples` were built from: every
    /// example is reflected and each (site, label) counted once per use.
    /// Examples the generator cannot produce are skipped.
    pub fn like<G: Gen + ?Sized>(g: &G, examples: &[G::Value]) -> Self {
        let mut w = Weights::new();
        for ex in examples {
            let Some(tree) = reflect(g, ex).into_iter().next() else { continue };
            // Labels need the requests; replay the tree to see them.
            let mut seen = Vec::new();
            let mut probe =
                LabelProbe { inner: SeqSource { choices: &tree.choices(), pos: 0, error: None }, seen: &mut seen };
            let _ = g.run(&mut probe);
            for (site, label) in seen {
                *w.entry(site, &label) += 1.0;
            }
        }
        w
    }

    /// Weights that avoid the choices `examples` were built from: an option
    /// counted `n` times gets weight `1 / (1 + n)`, so unseen options weigh most.
    pub fn unlike<G: Gen + ?Sized>(g: &G, examples: &[G::Value]) -> Self {
        let mut w = Weights::like(g, examples);
        w.unlike = true;
        w
    }

    fn weight(&self, site: &str, label: &str) -> f64 {
        let n = self.get(site, label);
        if self.unlike {
            1.0 / (1.0 + n)
        } else {
            n
        }
    }
}

/// Notes the (site, label) of every choice a source answers.
struct LabelProbe<'a, S> {
    inner: S,
    seen: &'a mut Vec<(Site, String)>,
}

impl<S: Source> Source for LabelProbe<'_, S> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let c = self.inner.choose(site, request)?;
        self.seen.push((site, request.label(c).into_owned()));
        Ok(c)
    }
}

/// Answers picks with weights looked up by label.
pub struct WeightedSource<'w> {
    weights: &'w Weights,
    rng: DetRng,
}

impl<'w> WeightedSource<'w> {
    /// A source drawing from `seed` with `weights`.
    pub fn new(weights: &'w Weights, seed: u64) -> Self {
        WeightedSource { weights, rng: rng_from_seed(seed) }
    }
}

impl Source for WeightedSource<'_> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let n = match request {
            Request::Pick { options, .. } => options.len() as u64,
            Request::Int { span } if span < crate::choice::SMALL_DOMAIN => span + 1,
            // Large ranges stay uniform: there is no weight per value to look up.
            Request::Int { .. } => return Ok(sample(&mut self.rng, request)),
        };
        let ws: Vec<f64> = (0..n).map(|c| self.weights.weight(site, &request.label(c))).collect();
        let total: f64 = ws.iter().sum();
        if total <= 0.0 {
            return Ok(sample_uniform(&mut self.rng, request));
        }
        let mut x = rand::Rng::random_range(&mut self.rng, 0.0..total);
        for (c, w) in ws.iter().enumerate() {
            if x < *w {
                return Ok(c as Choice);
            }
            x -= w;
        }
        Ok(n - 1)
    }
}

/// Generate with weights looked up by site and label (papers/001's
/// `WeightedGen`): when every option of a pick weighs 0 it is uniform.
/// Integer ranges with more than [`crate::choice::SMALL_DOMAIN`] values stay uniform.
pub fn generate_weighted<G: Gen + ?Sized>(g: &G, weights: &Weights, seed: u64) -> Result<G::Value, Stop> {
    g.run(&mut WeightedSource::new(weights, seed))
}

// ---------------------------------------------------------------- probe: derivative, nullable, language

/// Replays a prefix, then halts at the first choice point beyond it and notes its request.
struct Probe<'a> {
    prefix: &'a [Choice],
    pos: usize,
    prob: f64,
    next: Option<(Site, OwnedRequest)>,
}

impl Source for Probe<'_> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        match self.prefix.get(self.pos) {
            Some(&c) if request.accepts(c) => {
                self.pos += 1;
                self.prob *= request.probability(c);
                Ok(c)
            }
            Some(_) => Err(Stop::Rejected),
            None => {
                self.next = Some((site, request.to_owned_request()));
                Err(Stop::Halt)
            }
        }
    }
}

/// What a generator does after a prefix of choices.
enum AfterPrefix<T> {
    /// It finished with this value, using exactly the prefix.
    Done(T),
    /// It asks this next.
    Asks(Site, OwnedRequest),
    /// It cannot continue (the prefix does not fit, or no value results).
    Fails,
}

fn after_prefix<G: Gen + ?Sized>(g: &G, prefix: &[Choice]) -> (AfterPrefix<G::Value>, f64) {
    let mut p = Probe { prefix, pos: 0, prob: 1.0, next: None };
    let r = g.run(&mut p);
    let out = match r {
        Ok(v) if p.pos == prefix.len() => AfterPrefix::Done(v),
        Err(Stop::Halt) => match p.next.take() {
            Some((s, req)) => AfterPrefix::Asks(s, req),
            None => AfterPrefix::Fails,
        },
        _ => AfterPrefix::Fails,
    };
    (out, p.prob)
}

/// The choice point a generator asks next, with its options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextPick {
    /// The choice point.
    pub site: Site,
    /// What it asks.
    pub request: OwnedRequest,
}

/// The choice point `g` asks first, or `None` when it makes no choice
/// (it is nullable, or void).
pub fn next_pick<G: Gen + ?Sized>(g: &G) -> Option<NextPick> {
    match after_prefix(g, &[]).0 {
        AfterPrefix::Asks(site, request) => Some(NextPick { site, request }),
        _ => None,
    }
}

/// papers/001's `ν`: the value `g` gives without making any choice, if it makes none.
pub fn nullable<G: Gen + ?Sized>(g: &G) -> Option<G::Value> {
    match after_prefix(g, &[]).0 {
        AfterPrefix::Done(v) => Some(v),
        _ => None,
    }
}

/// The derivative of a generator by a choice prefix (papers/001 Sec. 2.5):
/// the generator that makes the choices `g` would make after `prefix`.
/// It is `void` when the prefix does not fit.
#[derive(Debug, Clone)]
pub struct Derivative<G> {
    gen: G,
    prefix: Vec<Choice>,
}

/// `δ_c g`: the derivative of `g` by the choice `c`.
pub fn derivative<G: Gen>(g: G, c: Choice) -> Derivative<G> {
    Derivative { gen: g, prefix: vec![c] }
}

impl<G: Gen> Derivative<G> {
    /// The derivative of this derivative by `c` (the prefix grows by one;
    /// nothing is nested).
    pub fn derive(&self, c: Choice) -> Self
    where
        G: Clone,
    {
        let mut prefix = self.prefix.clone();
        prefix.push(c);
        Derivative { gen: self.gen.clone(), prefix }
    }

    /// The choices taken so far.
    pub fn prefix(&self) -> &[Choice] {
        &self.prefix
    }

    /// The generator underneath.
    pub fn inner(&self) -> &G {
        &self.gen
    }
}

/// Replays a prefix, then hands over to another source; keeps the
/// structure calls balanced for the source underneath.
struct PrefixThen<'a, 'b> {
    prefix: &'a [Choice],
    pos: usize,
    inner: &'b mut dyn Source,
    /// For each open node: whether `inner` saw it open.
    open: Vec<bool>,
}

impl Source for PrefixThen<'_, '_> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        if let Some(&c) = self.prefix.get(self.pos) {
            if !request.accepts(c) {
                return Err(Stop::Void);
            }
            self.pos += 1;
            self.open.push(false);
            Ok(c)
        } else {
            let c = self.inner.choose(site, request)?;
            self.open.push(true);
            Ok(c)
        }
    }
    fn enter(&mut self, site: Site) {
        self.inner.enter(site);
        self.open.push(true);
    }
    fn leave(&mut self) {
        if self.open.pop() == Some(true) {
            self.inner.leave();
        }
    }
}

impl<G: Gen> Gen for Derivative<G> {
    type Value = G::Value;
    fn run(&self, src: &mut dyn Source) -> Result<G::Value, Stop> {
        let mut p = PrefixThen { prefix: &self.prefix, pos: 0, inner: src, open: Vec::new() };
        let r = self.gen.run(&mut p);
        match r {
            // A value reached before the prefix was used up is not in the derivative's language.
            Ok(_) if p.pos < self.prefix.len() => Err(Stop::Void),
            r => r,
        }
    }
    fn back(&self, target: &G::Value) -> Vec<Way> {
        let (after, prefix_prob) = after_prefix(&self.gen, &self.prefix);
        if matches!(after, AfterPrefix::Fails) || prefix_prob <= 0.0 {
            return Vec::new();
        }
        let n = self.prefix.len();
        self.gen
            .back(target)
            .into_iter()
            .filter_map(|w| {
                let mut root = ChoiceTree::root(w.forest);
                let flat = root.choices();
                if flat.len() < n || flat[..n] != self.prefix[..] {
                    return None;
                }
                root.forget_prefix(n);
                Some(Way { forest: root.children, prob: w.prob / prefix_prob })
            })
            .collect()
    }
}

/// The language of a generator, enumerated up to a bound (papers/001's `L[.]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Language<T> {
    /// Every choice sequence found with the value it parses to, in
    /// enumeration order (options in order, depth first).
    pub members: Vec<(Vec<Choice>, T)>,
    /// Whether the enumeration is the whole language (no bound was reached).
    pub complete: bool,
}

/// Enumerate the language of `g`: every choice sequence it can make, with
/// its value, trying options in order, up to `max_members` members and
/// sequences of at most `max_len` choices.
pub fn language<G: Gen + ?Sized>(g: &G, max_members: usize, max_len: usize) -> Language<G::Value> {
    fn go<G: Gen + ?Sized>(
        g: &G,
        prefix: &mut Vec<Choice>,
        max_members: usize,
        max_len: usize,
        out: &mut Language<G::Value>,
    ) {
        if out.members.len() >= max_members {
            out.complete = false;
            return;
        }
        match after_prefix(g, prefix).0 {
            AfterPrefix::Done(v) => out.members.push((prefix.clone(), v)),
            AfterPrefix::Fails => {}
            AfterPrefix::Asks(_, req) => {
                if prefix.len() >= max_len {
                    out.complete = false;
                    return;
                }
                let n = req.as_request().arity();
                let mut c: u64 = 0;
                while c < n {
                    if out.members.len() >= max_members {
                        out.complete = false;
                        return;
                    }
                    prefix.push(c);
                    go(g, prefix, max_members, max_len, out);
                    prefix.pop();
                    c += 1;
                }
            }
        }
    }
    let mut out = Language { members: Vec::new(), complete: true };
    go(g, &mut Vec::new(), max_members, max_len, &mut out);
    out
}

/// Enumerate the values of `g` (papers/001's `Enum`), up to the same bounds as [`language`].
pub fn enumerate<G: Gen + ?Sized>(g: &G, max_members: usize, max_len: usize) -> Vec<G::Value> {
    language(g, max_members, max_len).members.into_iter().map(|(_, v)| v).collect()
}

// ---------------------------------------------------------------- backward

/// Every choice tree that makes `g` produce `value` (papers/001's
/// `Reflect`); empty when `g` cannot produce it.
pub fn reflect<G: Gen + ?Sized>(g: &G, value: &G::Value) -> Vec<ChoiceTree> {
    g.back(value).into_iter().map(|w| ChoiceTree::root(w.forest)).collect()
}

/// Whether `value` is in the range of `g` (papers/001's `Check`).
pub fn check<G: Gen + ?Sized>(g: &G, value: &G::Value) -> bool {
    !g.back(value).is_empty()
}

/// The probability that generation gives `value` (papers/001's `Prob`):
/// the sum over every way of making it.
pub fn probability<G: Gen + ?Sized>(g: &G, value: &G::Value) -> f64 {
    g.back(value).iter().map(|w| w.prob).sum()
}

/// The probability that generation makes exactly the choices `choices`
/// (0 when they do not parse).
pub fn sequence_probability<G: Gen + ?Sized>(g: &G, choices: &[Choice]) -> f64 {
    match after_prefix(g, choices) {
        (AfterPrefix::Done(_), p) => p,
        _ => 0.0,
    }
}

//! Weighted generation (Goldstein's `WeightedGen`): weights looked up by site and label.
//!
//! Tuning by examples (Goldstein's thesis Sec. 3.3, `tunedLike` and
//! `tunedUnlike`, after Soremekun et al.'s "Inputs from Hell"): every
//! example is reflected into the choices that make it, and each (site,
//! label) it uses is counted. [`Weights::from_examples`] turns the counts
//! into weights:
//!
//! - an option counted `n` times by the `like` examples weighs `n + s`,
//!   where `s` is the smoothing ([`Weights::like`] uses `s = 0`, the
//!   paper's plain counts: an option no example took is never taken);
//! - an option counted `m` times by the `unlike` examples is divided by
//!   `1 + m`, so options the examples avoid weigh most;
//! - a choice point no example reached keeps the generator's own weights,
//!   and a pick whose options all weigh 0 is uniform (the paper's
//!   `frequency'`).
//!
//! Integer ranges with more than [`SMALL_DOMAIN`](crate::choice::SMALL_DOMAIN)
//! values are tuned per bucket ([`Request::bucket`]): the bucket is drawn by
//! its weight, the value uniformly inside it; a bucket's label is its range
//! of offsets, `lo..=hi`.
//!
//! An example the generator cannot make is never skipped silently:
//! [`Weights::from_examples`] fails with [`NotInRange`], naming it by index.
//! Weights are plain data (serde): compute them once, save them as JSON and
//! check them in.

use super::{reflect, SeqSource};
use crate::choice::{Choice, Request, Site};
use crate::gen::Gen;
use crate::source::{rng_from_seed, sample, sample_uniform, DetRng, Source, Stop};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// Counts by site, then by label.
type Counts = BTreeMap<String, BTreeMap<String, f64>>;

/// Weights by site and label, for generation tuned by examples
/// (Goldstein's `WeightedGen`, `tunedLike`, `tunedUnlike`); see the module docs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// How often the `like` examples took each option (or the weights set by hand).
    #[serde(default)]
    like: Counts,
    /// How often the `unlike` examples took each option.
    #[serde(default)]
    unlike: Counts,
    /// Added to the `like` count of every option of a site the `like` examples reached.
    #[serde(default)]
    smoothing: f64,
}

/// Examples the generator cannot make, by their index in the list given
/// (see [`Weights::from_examples`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NotInRange {
    /// Indices of `like` examples the generator cannot make.
    pub like: Vec<usize>,
    /// Indices of `unlike` examples the generator cannot make.
    pub unlike: Vec<usize>,
}

impl fmt::Display for NotInRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[usize]| v.iter().map(|i| format!("#{i}")).collect::<Vec<_>>().join(", ");
        let mut parts = Vec::new();
        if !self.like.is_empty() {
            parts.push(format!("`like` example(s) {}", list(&self.like)));
        }
        if !self.unlike.is_empty() {
            parts.push(format!("`unlike` example(s) {}", list(&self.unlike)));
        }
        write!(f, "the generator cannot make {}", parts.join(" and "))
    }
}

impl std::error::Error for NotInRange {}

/// The label tuning counts a choice under: the option's label for a pick,
/// the offset for a small integer range, the bucket's range `lo..=hi` for a
/// large one.
pub fn tuning_label(request: Request<'_>, choice: Choice) -> Cow<'static, str> {
    bucket_label(request, request.bucket(choice))
}

fn bucket_label(request: Request<'_>, bucket: u64) -> Cow<'static, str> {
    match request {
        Request::Int { span } if span >= crate::choice::SMALL_DOMAIN => {
            let (lo, hi) = request.bucket_range(bucket).unwrap_or((0, span));
            Cow::Owned(format!("{lo}..={hi}"))
        }
        _ => request.label(bucket),
    }
}

impl Weights {
    /// No weights: every choice point keeps the generator's own weights.
    pub fn new() -> Self {
        Weights::default()
    }

    /// Set the weight of option `label` (see [`tuning_label`]) at `site`.
    pub fn set(&mut self, site: &str, label: &str, weight: f64) -> &mut Self {
        *entry(&mut self.like, site, label) = weight.max(0.0);
        self
    }

    /// The `like` weight of option `label` at `site` (0 when unset).
    pub fn get(&self, site: &str, label: &str) -> f64 {
        count(&self.like, site, label)
    }

    /// Weights from examples (see the module docs): `like` examples raise
    /// the options they use, `unlike` examples lower them; `smoothing`
    /// (at least 0) is added to every option of a site a `like` example
    /// reached. Fails, naming them, when the generator cannot make some
    /// examples.
    pub fn from_examples<G: Gen + ?Sized>(
        g: &G,
        like: &[G::Value],
        unlike: &[G::Value],
        smoothing: f64,
    ) -> Result<Self, NotInRange> {
        let mut w = Weights { smoothing: smoothing.max(0.0), ..Weights::default() };
        let mut missing = NotInRange::default();
        for (examples, counts, missing) in
            [(like, &mut w.like, &mut missing.like), (unlike, &mut w.unlike, &mut missing.unlike)]
        {
            for (i, ex) in examples.iter().enumerate() {
                match labels_of(g, ex) {
                    Some(labels) => {
                        for (site, label) in labels {
                            *entry(counts, site, &label) += 1.0;
                        }
                    }
                    None => missing.push(i),
                }
            }
        }
        if missing.like.is_empty() && missing.unlike.is_empty() {
            Ok(w)
        } else {
            Err(missing)
        }
    }

    /// Weights that make the choices `examples` were built from (the
    /// paper's `tunedLike`: plain counts, no smoothing).
    pub fn like<G: Gen + ?Sized>(g: &G, examples: &[G::Value]) -> Result<Self, NotInRange> {
        Weights::from_examples(g, examples, &[], 0.0)
    }

    /// Weights that avoid the choices `examples` were built from (the
    /// paper's `tunedUnlike`): an option counted `n` times weighs `1 / (1 + n)`.
    pub fn unlike<G: Gen + ?Sized>(g: &G, examples: &[G::Value]) -> Result<Self, NotInRange> {
        Weights::from_examples(g, &[], examples, 0.0)
    }

    /// The weight of `label` at `site`, or `None` when no example (and no
    /// [`Weights::set`]) reached the site.
    fn weight(&self, site: &str, label: &str) -> Option<f64> {
        let (liked, unliked) = (self.like.get(site), self.unlike.get(site));
        if liked.is_none() && unliked.is_none() {
            return None;
        }
        let base = match liked {
            Some(by_label) => by_label.get(label).copied().unwrap_or(0.0) + self.smoothing,
            None => 1.0,
        };
        Some(base / (1.0 + count(&self.unlike, site, label)))
    }

    /// Answer `request` at `site` with these weights, drawing from `rng`
    /// (no draw for a choice point with one answer):
    /// the generator's own weights where no example reached the site,
    /// uniform when every option weighs 0, a bucket then a value inside it
    /// for a large integer range.
    pub fn choose(&self, rng: &mut DetRng, site: Site, request: Request<'_>) -> Choice {
        // One answer: taken without a draw, as plain generation does.
        if request.arity() == 1 {
            return 0;
        }
        if !self.like.contains_key(site) && !self.unlike.contains_key(site) {
            return sample(rng, request);
        }
        let n = request.buckets();
        let ws: Vec<f64> = (0..n).map(|b| self.weight(site, &bucket_label(request, b)).unwrap_or(0.0)).collect();
        let total: f64 = ws.iter().sum();
        let bucket = if total > 0.0 {
            let mut x = rand::Rng::random_range(rng, 0.0..total);
            ws.iter()
                .position(|w| {
                    let hit = x < *w;
                    x -= w;
                    hit
                })
                .unwrap_or(n as usize - 1) as u64
        } else {
            return sample_uniform(rng, request);
        };
        match request.bucket_range(bucket) {
            Some((lo, hi)) if hi > lo => lo + sample_uniform(rng, Request::Int { span: hi - lo }),
            _ => bucket,
        }
    }
}

fn entry<'c>(counts: &'c mut Counts, site: &str, label: &str) -> &'c mut f64 {
    counts.entry(site.to_owned()).or_default().entry(label.to_owned()).or_insert(0.0)
}

fn count(counts: &Counts, site: &str, label: &str) -> f64 {
    counts.get(site).and_then(|by_label| by_label.get(label)).copied().unwrap_or(0.0)
}

/// The (site, tuning label) of every choice that makes `value` (see
/// [`tuning_label`]), in order, or `None` when `g` cannot make it: what a
/// tuning counts.
pub fn labels_of<G: Gen + ?Sized>(g: &G, value: &G::Value) -> Option<Vec<(Site, String)>> {
    let tree = reflect(g, value).into_iter().next()?;
    // Labels need the requests; replay the tree to see them.
    let mut seen = Vec::new();
    let choices = tree.choices();
    let mut probe = LabelProbe { inner: SeqSource { choices: &choices, pos: 0, error: None }, seen: &mut seen };
    g.run(&mut probe).ok()?;
    Some(seen)
}

/// Notes the (site, tuning label) of every choice a source answers.
struct LabelProbe<'a, S> {
    inner: S,
    seen: &'a mut Vec<(Site, String)>,
}

impl<S: Source> Source for LabelProbe<'_, S> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let c = self.inner.choose(site, request)?;
        self.seen.push((site, tuning_label(request, c).into_owned()));
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
        Ok(self.weights.choose(&mut self.rng, site, request))
    }
}

/// Generate with weights looked up by site and label (Goldstein's
/// `WeightedGen`); see [`Weights::choose`].
pub fn generate_weighted<G: Gen + ?Sized>(g: &G, weights: &Weights, seed: u64) -> Result<G::Value, Stop> {
    g.run(&mut WeightedSource::new(weights, seed))
}

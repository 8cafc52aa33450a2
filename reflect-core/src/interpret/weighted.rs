//! Weighted generation (Goldstein's `WeightedGen`): weights looked up by site and label, as tuning by examples sets them.

use super::{reflect, SeqSource};
use crate::choice::{Choice, Request, Site};
use crate::gen::Gen;
use crate::source::{rng_from_seed, sample, sample_uniform, DetRng, Source, Stop};
use std::collections::HashMap;

/// Weights by site and label, for generation tuned by examples
/// (Goldstein's `WeightedGen`, `tunedLike`, `tunedUnlike`).
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

/// Generate with weights looked up by site and label (Goldstein's
/// `WeightedGen`): when every option of a pick weighs 0 it is uniform.
/// Integer ranges with more than [`crate::choice::SMALL_DOMAIN`] values stay uniform.
pub fn generate_weighted<G: Gen + ?Sized>(g: &G, weights: &Weights, seed: u64) -> Result<G::Value, Stop> {
    g.run(&mut WeightedSource::new(weights, seed))
}

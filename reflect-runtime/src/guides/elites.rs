//! The corpus's elites, for [`super::mutate`]: for each feature of its entries, the largest entry that has it.
//!
//! A corpus drawn from by size alone spends its mutations on the largest
//! entries, and a rare construct (a function applied in a term, which few
//! valid terms have) lives in small entries that are seldom drawn and soon
//! replaced. [`Elites`] keeps, for each feature ([`super::shape::features`])
//! any entry has, its **elite**: the entry with the most choices that has
//! it. A share of the parents are drawn by feature, uniformly, and are that
//! feature's elite, so each construct grows in the largest value that has
//! it; an elite is not replaced while it is one. This is the archive of
//! MAP-Elites (Mouret and Clune, "Illuminating search spaces by mapping
//! elites", 2015), with a case's features for its cells and its number of
//! choices for its quality.

use crate::hashing::BuildKey;
use rand::Rng;
use refgen_core::source::DetRng;
use std::collections::HashMap;

/// No elite: the feature's last entry left the corpus.
const NONE: usize = usize::MAX;

/// The elites of a corpus whose entries are numbered as the corpus's.
#[derive(Debug, Clone, Default)]
pub(super) struct Elites {
    /// Each feature any entry had, in the order first seen, with its elite ([`NONE`] if it has none).
    cells: Vec<(u64, usize)>,
    /// Where each feature is in `cells`.
    at: HashMap<u64, usize, BuildKey>,
    /// Per entry: its features (sorted), and how many it is the elite of.
    entries: Vec<(Vec<u64>, u32)>,
}

impl Elites {
    /// A new last entry of `weights[i]` choices (its quality) with `features` (sorted, no repeats).
    pub(super) fn push(&mut self, features: Vec<u64>, weights: &[u64]) {
        let i = self.entries.len();
        let mut elite_of = 0;
        for &f in &features {
            match self.at.get(&f) {
                None => {
                    self.at.insert(f, self.cells.len());
                    self.cells.push((f, i));
                    elite_of += 1;
                }
                Some(&k) => {
                    let e = self.cells[k].1;
                    if e == NONE || weights[i] > weights[e] {
                        if e != NONE {
                            self.entries[e].1 -= 1;
                        }
                        self.cells[k].1 = i;
                        elite_of += 1;
                    }
                }
            }
        }
        self.entries.push((features, elite_of));
    }

    /// Entry `i` left the corpus (`weights`: the others', numbered before it left): each feature it
    /// was the elite of passes to the largest other entry that has it, and later entries move down one.
    pub(super) fn remove(&mut self, i: usize, weights: &[u64]) {
        let (features, elite_of) = self.entries.remove(i);
        if elite_of > 0 {
            for f in features {
                let Some(&k) = self.at.get(&f) else { continue };
                if self.cells[k].1 != i {
                    continue;
                }
                // The first entry of the most choices with the feature, numbered as before `i` left.
                let heir = (self.entries.iter().enumerate())
                    .map(|(j, e)| (if j < i { j } else { j + 1 }, e))
                    .filter(|(_, e)| e.0.binary_search(&f).is_ok())
                    .max_by_key(|&(j, _)| (weights[j], std::cmp::Reverse(j)))
                    .map(|(j, _)| j);
                self.cells[k].1 = heir.unwrap_or(NONE);
                if let Some(j) = heir {
                    self.entries[if j < i { j } else { j - 1 }].1 += 1;
                }
            }
        }
        for cell in &mut self.cells {
            if cell.1 != NONE && cell.1 > i {
                cell.1 -= 1;
            }
        }
    }

    /// Whether entry `i` is the elite of some feature.
    pub(super) fn is_elite(&self, i: usize) -> bool {
        self.entries.get(i).is_some_and(|e| e.1 > 0)
    }

    /// A feature drawn uniformly, and its elite (`None` if it has none); `None` before any feature.
    pub(super) fn draw(&self, rng: &mut DetRng) -> Option<(u64, Option<usize>)> {
        if self.cells.is_empty() {
            return None;
        }
        let (f, e) = self.cells[rng.random_range(0..self.cells.len())];
        Some((f, (e != NONE).then_some(e)))
    }

    /// Whether entry `i` has feature `f`.
    pub(super) fn has(&self, i: usize, f: u64) -> bool {
        self.entries.get(i).is_some_and(|e| e.0.binary_search(&f).is_ok())
    }

    /// The number of features seen.
    pub(super) fn len(&self) -> usize {
        self.cells.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use refgen_core::source::rng_from_seed;

    /// Every feature's elite is its holder of the most choices (the oldest of those), and each
    /// entry's count of features it is the elite of agrees.
    fn check(elites: &Elites, weights: &[u64]) {
        assert_eq!(elites.entries.len(), weights.len());
        for &(f, elite) in &elites.cells {
            let best =
                (0..weights.len()).filter(|&i| elites.has(i, f)).max_by_key(|&i| (weights[i], std::cmp::Reverse(i)));
            match best {
                Some(b) => assert_eq!(weights[elite], weights[b], "feature {f}: elite {elite}, best {b}"),
                None => assert_eq!(elite, NONE),
            }
        }
        for (i, (_, n)) in elites.entries.iter().enumerate() {
            assert_eq!(*n as usize, elites.cells.iter().filter(|c| c.1 == i).count());
        }
    }

    #[test]
    fn every_feature_keeps_its_largest_holder_as_entries_come_and_go() {
        for seed in 0..40 {
            let mut rng = rng_from_seed(seed);
            let (mut elites, mut weights) = (Elites::default(), Vec::new());
            for _ in 0..200 {
                if !weights.is_empty() && rng.random::<f64>() < 0.4 {
                    let i = rng.random_range(0..weights.len());
                    elites.remove(i, &weights);
                    weights.remove(i);
                } else {
                    let mut features: Vec<u64> = (0..rng.random_range(0..5)).map(|_| rng.random_range(0..12)).collect();
                    features.sort_unstable();
                    features.dedup();
                    weights.push(rng.random_range(1..20));
                    elites.push(features, &weights);
                }
                check(&elites, &weights);
            }
        }
    }

    #[test]
    fn a_feature_drawn_is_one_seen_with_its_elite() {
        let mut elites = Elites::default();
        let weights = [4, 9, 1];
        for (i, features) in [vec![1, 2], vec![2], vec![3]].into_iter().enumerate() {
            elites.push(features, &weights[..=i]);
        }
        assert_eq!(elites.len(), 3);
        assert!(elites.is_elite(0) && elites.is_elite(1) && elites.is_elite(2));
        let mut rng = rng_from_seed(1);
        let mut drawn = [0; 4];
        for _ in 0..300 {
            let (f, elite) = elites.draw(&mut rng).unwrap();
            assert_eq!(elite, Some([0, 0, 1, 2][f as usize]));
            drawn[f as usize] += 1;
        }
        // Uniform over the three features, whatever their holders' sizes.
        assert!(drawn[1..].iter().all(|&n| (70..130).contains(&n)), "{drawn:?}");
    }
}

//! The corpus's elites, for the mutational guide ([`super`]): for each feature of its entries, the largest entry that has it.
//!
//! A corpus drawn from by size alone spends its mutations on the largest
//! entries, and a rare construct (a function applied in a term, which few
//! valid terms have) lives in small entries that are seldom drawn and soon
//! replaced. [`Elites`] keeps, for each feature ([`super::shape::features`])
//! any entry has, its **elite**: the entry with the most choices that has
//! it. A share of the parents must have a **rare** feature (one that at
//! most a quarter of the entries have), drawn uniformly, and are often that
//! feature's elite, so each rare construct grows in the largest value that
//! has it; an elite is not replaced while it is one. This is the archive of
//! MAP-Elites (Mouret and Clune, "Illuminating search spaces by mapping
//! elites", 2015), with a case's features for its cells and its number of
//! choices for its quality.

use crate::hashing::BuildKey;
use rand::Rng;
use refgen_core::source::DetRng;
use std::collections::HashMap;

/// No elite: the feature's last entry left the corpus.
const NONE: usize = usize::MAX;

/// A feature is rare when at most this share of the entries have it: a feature most entries have
/// needs no help to be drawn (a search tree's "a node at the top" is in every entry but the empty tree).
const RARE: f64 = 0.25;

/// One feature's cell.
#[derive(Debug, Clone, Copy)]
struct Cell {
    feature: u64,
    /// The entry of the most choices that has it (the oldest of those), or [`NONE`].
    elite: usize,
    /// How many entries have it.
    holders: usize,
}

/// The elites of a corpus whose entries are numbered as the corpus's.
#[derive(Debug, Clone, Default)]
pub(super) struct Elites {
    /// Each feature any entry had, in the order first seen.
    cells: Vec<Cell>,
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
                    self.cells.push(Cell { feature: f, elite: i, holders: 1 });
                    elite_of += 1;
                }
                Some(&k) => {
                    let cell = &mut self.cells[k];
                    cell.holders += 1;
                    let e = cell.elite;
                    if e == NONE || weights[i] > weights[e] {
                        cell.elite = i;
                        if e != NONE {
                            self.entries[e].1 -= 1;
                        }
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
        let (features, _) = self.entries.remove(i);
        for f in features {
            let Some(&k) = self.at.get(&f) else { continue };
            self.cells[k].holders -= 1;
            if self.cells[k].elite != i {
                continue;
            }
            // The first entry of the most choices with the feature, numbered as before `i` left.
            let heir = (self.entries.iter().enumerate())
                .map(|(j, e)| (if j < i { j } else { j + 1 }, e))
                .filter(|(_, e)| e.0.binary_search(&f).is_ok())
                .max_by_key(|&(j, _)| (weights[j], std::cmp::Reverse(j)))
                .map(|(j, _)| j);
            self.cells[k].elite = heir.unwrap_or(NONE);
            if let Some(j) = heir {
                self.entries[if j < i { j } else { j - 1 }].1 += 1;
            }
        }
        for cell in &mut self.cells {
            if cell.elite != NONE && cell.elite > i {
                cell.elite -= 1;
            }
        }
    }

    /// Whether entry `i` is the elite of some feature.
    pub(super) fn is_elite(&self, i: usize) -> bool {
        self.entries.get(i).is_some_and(|e| e.1 > 0)
    }

    /// Whether a cell's feature is rare.
    fn is_rare(&self, c: &Cell) -> bool {
        c.holders as f64 <= RARE * self.entries.len() as f64
    }

    /// The number of rare features.
    pub(super) fn rare(&self) -> usize {
        self.cells.iter().filter(|c| self.is_rare(c)).count()
    }

    /// A rare feature drawn uniformly (one that at most [`RARE`] of the entries have), and its elite
    /// (`None` if it has none); `None` when no feature is rare.
    pub(super) fn draw(&self, rng: &mut DetRng) -> Option<(u64, Option<usize>)> {
        let rare = |c: &&Cell| self.is_rare(c);
        let n = self.rare();
        if n == 0 {
            return None;
        }
        let c = self.cells.iter().filter(rare).nth(rng.random_range(0..n))?;
        Some((c.feature, (c.elite != NONE).then_some(c.elite)))
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
        for &Cell { feature: f, elite, holders } in &elites.cells {
            assert_eq!(holders, (0..weights.len()).filter(|&i| elites.has(i, f)).count());
            let best =
                (0..weights.len()).filter(|&i| elites.has(i, f)).max_by_key(|&i| (weights[i], std::cmp::Reverse(i)));
            match best {
                Some(b) => assert_eq!(weights[elite], weights[b], "feature {f}: elite {elite}, best {b}"),
                None => assert_eq!(elite, NONE),
            }
        }
        for (i, (_, n)) in elites.entries.iter().enumerate() {
            assert_eq!(*n as usize, elites.cells.iter().filter(|c| c.elite == i).count());
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
    fn only_rare_features_are_drawn_each_with_its_elite() {
        // Eight entries have feature 10; entry 2 has feature 1, entries 3 and 4 feature 2 (a quarter).
        let mut elites = Elites::default();
        let weights = [4, 9, 1, 3, 5, 2, 8, 6];
        let mut features = vec![vec![10]; 8];
        features[2].insert(0, 1);
        features[3].insert(0, 2);
        features[4].insert(0, 2);
        for (i, f) in features.into_iter().enumerate() {
            elites.push(f, &weights[..=i]);
        }
        assert_eq!(elites.len(), 3);
        assert!(elites.is_elite(1) && elites.is_elite(2) && elites.is_elite(4));
        assert!(!elites.is_elite(0) && !elites.is_elite(3));
        let mut rng = rng_from_seed(1);
        let mut drawn = [0; 3];
        for _ in 0..300 {
            let (f, elite) = elites.draw(&mut rng).expect("two rare features");
            assert_eq!(elite, Some([0, 2, 4][f as usize]));
            drawn[f as usize] += 1;
        }
        // Uniform over the rare features, whatever their holders' sizes.
        assert!(drawn[1..].iter().all(|&n| (120..180).contains(&n)), "{drawn:?}");
        // With no rare feature, nothing is drawn.
        let mut common = Elites::default();
        common.push(vec![10], &[1]);
        common.push(vec![10], &[1, 2]);
        assert_eq!(common.draw(&mut rng), None);
    }
}

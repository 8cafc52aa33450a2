//! The mutational guide's corpus: its entries, how a parent is drawn from them, and which entry a new one replaces.

use super::elites::Elites;
use super::graft::{recursive, Start};
use rand::Rng;
use refgen_core::choice::ChoiceTree;
use refgen_core::edit::{Mutations, Rotations};
use refgen_core::source::{weighted_index, DetRng};

/// Why a case joined the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Joined {
    /// An example or a remembered failure, heard before any case was planned.
    Seed,
    /// A valid value not made before in the run.
    New,
    /// It raised the best utility.
    Utility,
    /// It failed the property.
    Failed,
}

/// One case of the corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct CorpusEntry {
    /// The choices that make it (replayable, and storable in the regressions file format).
    pub tree: ChoiceTree,
    /// Why it joined.
    pub joined: Joined,
}

/// What is read of an entry once, when the first case that needs it is made from it, and kept while
/// the entry stays: each is drawn from again and again without walking the entry's tree.
#[derive(Debug, Clone, Default)]
struct Read {
    /// Its start as graft cases cut it.
    start: Option<Start>,
    /// Its rotations.
    rotations: Option<Rotations>,
    /// Its index for the mutation operators.
    mutations: Option<Mutations>,
}

/// The share of parents that must have a rare feature drawn uniformly ([`Corpus::parent`]).
const ELITE_SHARE: f64 = 0.5;

/// How many parents are drawn by size for one with the feature drawn, before its elite is taken.
const ELITE_TRIES: usize = 4;

/// The corpus's entries, oldest first, with what is read of each when it joins.
#[derive(Debug, Clone, Default)]
pub(super) struct Corpus {
    entries: Vec<CorpusEntry>,
    /// The weight of each entry as a parent: the square of its number of choices (at least 1), counted
    /// once when it joins.
    weights: Vec<u64>,
    /// The sum of `weights`.
    total: u64,
    /// Whether each entry has a choice beneath a choice of the same site: somewhere to graft.
    graftable: Vec<bool>,
    /// What is read of each entry when it is first grafted from, rotated or mutated.
    read: Vec<Read>,
    /// For each feature of the entries, the largest entry that has it.
    elites: Elites,
}

impl Corpus {
    /// The entries, oldest first.
    pub(super) fn entries(&self) -> &[CorpusEntry] {
        &self.entries
    }

    /// The entries, oldest first, taken out.
    pub(super) fn into_entries(self) -> Vec<CorpusEntry> {
        self.entries
    }

    /// The number of entries.
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no entry.
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entry `i`'s choice tree.
    pub(super) fn tree(&self, i: usize) -> &ChoiceTree {
        &self.entries[i].tree
    }

    /// The features the entries have, and how many of them are rare.
    pub(super) fn features(&self) -> (usize, usize) {
        (self.elites.len(), self.elites.rare())
    }

    /// Entry `i`'s start as graft cases cut it (read at its first graft case); `None` when it has nowhere
    /// to graft.
    pub(super) fn graft_start(&mut self, i: usize) -> Option<&Start> {
        let entry = &self.entries[i].tree;
        self.graftable[i].then(|| &*self.read[i].start.get_or_insert_with(|| Start::of(entry)))
    }

    /// Entry `i`'s choice tree and its rotations (counted at its first rotation).
    pub(super) fn rotations(&mut self, i: usize) -> (&ChoiceTree, &Rotations) {
        let entry = &self.entries[i].tree;
        (entry, self.read[i].rotations.get_or_insert_with(|| Rotations::of(entry)))
    }

    /// Entry `i`'s choice tree and its index for the mutation operators (made at its first mutant).
    pub(super) fn mutations(&mut self, i: usize) -> (&ChoiceTree, &Mutations) {
        let entry = &self.entries[i].tree;
        (entry, self.read[i].mutations.get_or_insert_with(|| Mutations::of(entry)))
    }

    /// The index of an entry to mutate, drawn with weight the square of its number of choices (at least 1).
    ///
    /// The weights are counted when an entry joins: counting an entry's
    /// choices walks its whole tree, and doing it for every entry at every
    /// case was most of a case's cost (see `benches/src/bin/guide_cost.rs`).
    ///
    /// With probability [`ELITE_SHARE`], the parent must have a rare feature
    /// drawn uniformly (see [`super::elites`]): it is drawn the same way
    /// until it has it, at most [`ELITE_TRIES`] times, else it is that
    /// feature's elite. With no rare feature, the draw is by size alone.
    pub(super) fn parent(&self, rng: &mut DetRng) -> usize {
        let weighted = |rng: &mut DetRng| weighted_index(&self.weights, self.total, rng);
        let Some((f, elite)) = (rng.random::<f64>() < ELITE_SHARE).then(|| self.elites.draw(rng)).flatten() else {
            return weighted(rng);
        };
        (0..ELITE_TRIES)
            .map(|_| weighted(rng))
            .find(|&i| self.elites.has(i, f))
            .or(elite)
            .unwrap_or_else(|| weighted(rng))
    }

    /// Adds `tree`, which has the `features` given, to a corpus of at most `size` entries, without its
    /// failed attempts: a mutant replays with no retry, so the attempts a retrying filter rejected would
    /// be read as the value's choices.
    pub(super) fn join(&mut self, tree: ChoiceTree, joined: Joined, features: Vec<u64>, size: usize) {
        let tree = tree.into_without_retries();
        if self.entries.len() >= size {
            // The smallest (fewest choices: the lightest), then oldest, entry that joined for being new and
            // is no feature's elite; failing that, the smallest that joined for being new.
            let smallest = |elites: bool| {
                (self.entries.iter().zip(&self.weights).enumerate())
                    .filter(|(i, (e, _))| e.joined == Joined::New && (elites || !self.elites.is_elite(*i)))
                    .min_by_key(|(i, (_, w))| (**w, *i))
                    .map(|(i, _)| i)
            };
            match smallest(false).or_else(|| smallest(true)) {
                Some(i) => {
                    self.elites.remove(i, &self.weights);
                    self.entries.remove(i);
                    self.graftable.remove(i);
                    self.read.remove(i);
                    self.total -= self.weights.remove(i);
                }
                None => return,
            }
        }
        let weight = (tree.choice_count().max(1) as u64).pow(2);
        self.graftable.push(recursive(&tree, &mut Vec::new()));
        self.read.push(Read::default());
        self.entries.push(CorpusEntry { tree, joined });
        self.weights.push(weight);
        self.total += weight;
        self.elites.push(features, &self.weights);
    }
}

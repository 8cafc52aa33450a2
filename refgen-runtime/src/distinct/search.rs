//! The native back end of distinct sets: a trie of choices, steered toward the least-tried branches.
//!
//! Each run of the generator answers its choice points from a trie of
//! everything tried so far. An integer range is narrowed level by level,
//! first to its bucket ([`Request::bucket_range`]) and then within the
//! bucket to ever smaller runs, down to one value; a pick is one level. At
//! each level the search takes the branch tried least often (ties broken by
//! the seeded RNG), so successive runs spread over the generator's space: new
//! lengths, far-apart integers, new picks, before old ones are revisited.
//!
//! A run that ends (with a value, valid or not) marks its path done, and a
//! branch whose branches are all done is done: no choice sequence is run
//! twice, and when the root is done every value has been tried, so the set
//! is exhausted. When the constraint implies a coverage ([`super::cover`]),
//! a pattern of picks that a member already covers is done too: the search
//! skips a branch all of whose cases are covered, at every level of the
//! narrowing (so a range of many cases, such as the counts of a repetition
//! under [`super::Reduce::RegexCounts`], is narrowed to the cases left). The pruning takes a
//! pattern prefix that was covered and never seen to continue as having no
//! continuation, which holds when the pattern fixes the shape of the choices
//! that follow (as for [`super::Reduce::RegexCases`] over a regex).

use super::{Difference, DistinctSet, Member, Reduce, Step, Stopped};
use rand::Rng;
use refgen_core::choice::{Choice, Request, Site};
use refgen_core::source::{rng_from_seed, DetRng, Source, Stop};
use std::collections::{HashMap, HashSet};

/// The seed [`super::distinct`] uses.
pub const DEFAULT_SEED: u64 = 0x1_04e4;

/// Integer ranges of at most this many values are split value by value.
const SMALL: u64 = refgen_core::choice::SMALL_DOMAIN;

/// One level of the trie: the branches of one narrowing step.
#[derive(Default)]
struct Node {
    /// Child node of each branch, once visited.
    children: Vec<Option<usize>>,
    /// How many runs took each branch.
    visits: Vec<u32>,
    /// Which branches are done.
    done: Vec<bool>,
    /// How many branches are done.
    n_done: usize,
}

/// What is known of one pattern prefix.
#[derive(Default)]
struct PatternNode {
    /// How many cases the next counted choice has.
    arity: u64,
    /// The cases after this prefix whose continuations are all covered.
    done: HashSet<u64>,
    /// A member has exactly this pattern.
    covered: bool,
    /// Some run continued past this prefix.
    extended: bool,
}

/// The state of one search.
pub(crate) struct Search {
    nodes: Vec<Node>,
    patterns: HashMap<Vec<u64>, PatternNode>,
    reduce: Option<Reduce>,
    rng: DetRng,
    root_done: bool,
}

/// The runs of `lo..=hi` one level splits it into.
fn split(request: Request<'_>, lo: Choice, hi: Choice) -> Vec<(Choice, Choice)> {
    if matches!(request, Request::Pick { .. }) || hi - lo < SMALL {
        return (lo..=hi).map(|c| (c, c)).collect();
    }
    let sub = Request::Int { span: hi - lo };
    (0..sub.buckets()).filter_map(|b| sub.bucket_range(b)).map(|(a, b)| (lo + a, lo + b)).collect()
}

/// The source of one run: answers from the trie.
struct Steer<'s> {
    search: &'s mut Search,
    node: usize,
    /// The branches taken: (node, branch).
    path: Vec<(usize, usize)>,
    steps: Vec<Step>,
    /// The counted cases so far, and the arity of each.
    keys: Vec<u64>,
    arities: Vec<u64>,
}

impl Steer<'_> {
    /// Whether every case of the choices `lo..=hi` is done after the current pattern.
    fn covered(&self, site: Site, request: Request<'_>, lo: Choice, hi: Choice) -> bool {
        let Some(reduce) = self.search.reduce else { return false };
        let (Some(a), Some(b)) = (reduce.key(site, request, lo), reduce.key(site, request, hi)) else {
            return false;
        };
        match self.search.patterns.get(&self.keys) {
            Some(p) => (a..=b).all(|k| p.done.contains(&k)),
            None => false,
        }
    }
}

impl Source for Steer<'_> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let (mut lo, mut hi) = (0, request.largest());
        loop {
            let ranges = split(request, lo, hi);
            let node = &mut self.search.nodes[self.node];
            if node.children.is_empty() {
                node.children = vec![None; ranges.len()];
                node.visits = vec![0; ranges.len()];
                node.done = vec![false; ranges.len()];
            }
            let node = &self.search.nodes[self.node];
            let open: Vec<usize> = (0..ranges.len())
                .filter(|&i| !node.done[i])
                .filter(|&i| !self.covered(site, request, ranges[i].0, ranges[i].1))
                .collect();
            let Some(least) = open.iter().map(|&i| node.visits[i]).min() else {
                // Every branch is done or covered: so is this node.
                return Err(Stop::Halt);
            };
            let ties: Vec<usize> = open.into_iter().filter(|&i| node.visits[i] == least).collect();
            let i = ties[self.search.rng.random_range(0..ties.len())];
            let next = match self.search.nodes[self.node].children[i] {
                Some(c) => c,
                None => {
                    self.search.nodes.push(Node::default());
                    let c = self.search.nodes.len() - 1;
                    self.search.nodes[self.node].children[i] = Some(c);
                    c
                }
            };
            self.path.push((self.node, i));
            self.node = next;
            (lo, hi) = ranges[i];
            if lo == hi {
                break;
            }
        }
        let span = match request {
            Request::Int { span } => Some(span),
            Request::Pick { .. } => None,
        };
        self.steps.push(Step { site, choice: lo, span });
        if let Some(reduce) = self.search.reduce {
            if let Some(k) = reduce.key(site, request, lo) {
                let arity = reduce.key(site, request, request.largest()).map_or(1, |m| m + 1);
                self.keys.push(k);
                self.arities.push(arity);
            }
        }
        Ok(lo)
    }

    fn tracks_parts(&self) -> bool {
        false
    }
}

impl Search {
    /// A search pruning by `reduce` (when the constraint implies that coverage), seeded by `seed`.
    pub(crate) fn new(reduce: Option<Reduce>, seed: u64) -> Self {
        Search {
            nodes: vec![Node::default()],
            patterns: HashMap::new(),
            reduce,
            rng: rng_from_seed(seed),
            root_done: false,
        }
    }

    /// Mark the end of a run's path done, and every branch above whose branches are all done.
    fn finish(&mut self, path: &[(usize, usize)]) {
        let mut done = true;
        for &(n, i) in path.iter().rev() {
            let node = &mut self.nodes[n];
            node.visits[i] += 1;
            if done && !node.done[i] {
                node.done[i] = true;
                node.n_done += 1;
            }
            done = done && node.n_done == node.done.len();
        }
        if done {
            self.root_done = true;
        }
    }

    /// Note a run's pattern: which prefixes continue, and, for a member, that its pattern is covered.
    fn note_pattern(&mut self, keys: &[u64], arities: &[u64], member: bool) {
        for k in 0..keys.len() {
            let p = self.patterns.entry(keys[..k].to_vec()).or_default();
            p.arity = arities[k];
            p.extended = true;
        }
        if !member {
            return;
        }
        self.patterns.entry(keys.to_vec()).or_default().covered = true;
        // Walk up while the prefix has nothing left to cover.
        for k in (0..keys.len()).rev() {
            let full = {
                let p = &self.patterns[&keys[..=k]];
                p.covered && (!p.extended || p.done.len() as u64 == p.arity)
                    || p.extended && p.done.len() as u64 == p.arity
            };
            if !full {
                return;
            }
            self.patterns.get_mut(&keys[..k]).expect("noted above").done.insert(keys[k]);
        }
    }

    /// Find up to `n` members, each made by one call of `run` (a run of the
    /// generator against the given source) in at most `budget` calls.
    pub(crate) fn run<V>(
        mut self,
        n: usize,
        mut run: impl FnMut(&mut dyn Source) -> Result<V, Stop>,
        difference: &Difference<V>,
        budget: usize,
    ) -> DistinctSet<V> {
        let mut members: Vec<Member<V>> = Vec::new();
        let mut runs = 0;
        let stopped = loop {
            if members.len() >= n {
                break Stopped::Found;
            }
            if self.root_done {
                break Stopped::Exhausted;
            }
            if runs >= budget {
                break Stopped::Budget;
            }
            runs += 1;
            let mut steer = Steer {
                search: &mut self,
                node: 0,
                path: Vec::new(),
                steps: Vec::new(),
                keys: Vec::new(),
                arities: Vec::new(),
            };
            let made = run(&mut steer);
            let Steer { path, steps, keys, arities, .. } = steer;
            self.finish(&path);
            let Ok(value) = made else { continue };
            let candidate = Member { value, steps };
            let new = members.iter().all(|m| difference.holds(&candidate, m));
            if self.reduce.is_some() {
                self.note_pattern(&keys, &arities, new);
            }
            if new {
                members.push(candidate);
            }
        };
        DistinctSet { members, stopped, runs }
    }
}

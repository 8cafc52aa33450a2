//! RLCheck's BST case study (Sec. 4.3.1, Fig. 4): unique valid binary search trees from 100,000 runs of a plain tree generator, under Random and RLCheck with the Sequence, Tree and Tree L/R state abstractions.
//!
//! Run with `cargo run --release -p refgen-benches --bin rlcheck_bst -- --trials 100000 --seed 1`.
//!
//! The generator is RLCheck's Fig. 1 (`refgen_fixtures::rlcheck`): a node value in `0..=10`, then (above
//! depth 4) a left-child and a right-child boolean choice, each recursing when
//! `true`; validity is the strict BST invariant. The RL guides derive their
//! states from the generator's choice tree: no state code is written here.
//! The reference numbers (mean of 5 runs of the authors' code) are Random 826,
//! Sequence 6,790, Tree 4,371, Tree L/R 9,431 unique valid trees.
//!
//! Beyond the paper, one line per exploration scheme of the RL guide
//! (`TreeLR+<scheme>`, see `refgen::guides::rl::Explore`), then the unique
//! valid values of Random, Tree L/R and Tree L/R with the chosen scheme
//! (`diverse`) on two other generators with validity conditions: AVL trees
//! (the same tree generator) and sorted lists. Last, where the generator's
//! weights are not equal (a tree whose `Node` weighs three times its `Leaf`),
//! the tests to the first failure of an easy bug (a tree of 8 nodes or more)
//! under random generation and under the RL guide starting uniformly
//! (RLCheck, `Prior::Uniform`) or from the generator's weights (the default,
//! `Prior::Weights`): `start=<..> seeds=<n> mean_tests_to_failure=<x>`. (The
//! case study's generator weighs every option equally, so its lines are the
//! same under either start.)

use refgen::combinators::{int, vec};
use refgen::prelude::*;
use refgen::refgen_runtime::explore::generate_distinct;
use refgen::refgen_runtime::guide::Guide;
use refgen::refgen_runtime::guides::rl::{Abstraction, Explore, Prior, RlConfig, RlGuide};
use refgen::refgen_runtime::guides::RandomGuide;
use refgen_fixtures::rlcheck::{bst_gen, is_bst, tree_gen, Bst, MAX_DEPTH};
use std::time::Instant;

/// The exploration schemes beyond the paper, each on Tree L/R: each part
/// alone at the paper's ε = 0.25, the softmax policy at ε = 0.05, and the
/// chosen combination ([`RlConfig::diverse`]).
pub fn schemes() -> Vec<(&'static str, RlConfig)> {
    let with = |e: Explore| RlConfig::default().explore(e);
    vec![
        ("TreeLR+forget", with(Explore::FORGET)),
        ("TreeLR+bonus", with(Explore::BONUS)),
        ("TreeLR+softmax", with(Explore::SOFTMAX)),
        ("TreeLR+softmax(eps=0.05)", with(Explore::SOFTMAX).epsilon(0.05)),
        ("TreeLR+forget+bonus", with(Explore { bonus: 5.0, ..Explore::FORGET })),
        ("TreeLR+diverse", RlConfig::diverse()),
    ]
}

/// Whether `t` is a strict BST whose every node's subtrees differ in height by at most one (an AVL tree).
pub fn is_avl(t: &Bst) -> bool {
    fn height(t: &Option<Box<Bst>>) -> Option<usize> {
        match t {
            None => Some(0),
            Some(n) => {
                let (l, r) = (height(&n.left)?, height(&n.right)?);
                (l.abs_diff(r) <= 1).then_some(1 + l.max(r))
            }
        }
    }
    is_bst(t) && height(&t.left).zip(height(&t.right)).is_some_and(|(l, r)| l.abs_diff(r) <= 1)
}

/// Sorted lists (non-decreasing) of up to 10 numbers in `0..=10`: a length, then each element.
pub fn sorted_gen() -> impl Gen<Value = Vec<u8>> {
    vec(int(0u8..=10).site("x"), 0..=10).filter(|xs: &Vec<u8>| xs.windows(2).all(|w| w[0] <= w[1])).retries(0)
}

/// Distinct valid values on two other generators with validity conditions
/// (AVL trees from the same tree generator; sorted lists), for Random, the
/// paper's Tree L/R and the chosen exploration: `(workload, guide, unique valid)`.
pub fn other_workloads(trials: usize, seed: u64) -> Vec<(&'static str, &'static str, usize)> {
    let avl = tree_gen(MAX_DEPTH).filter(is_avl).retries(0);
    let sorted = sorted_gen();
    // `None`: plain random generation.
    let guides =
        [("Random", None), ("TreeLR", Some(RlConfig::default())), ("TreeLR+diverse", Some(RlConfig::diverse()))];
    let mut out = Vec::new();
    for (name, config) in guides {
        out.push(("avl", name, unique_valid(&avl, config, trials, seed)));
    }
    for (name, config) in guides {
        out.push(("sorted", name, unique_valid(&sorted, config, trials, seed)));
    }
    out
}

/// A tree whose `Node` weighs three times its `Leaf` (the README's shape):
/// random generation makes trees of a few nodes more often than not.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
pub enum Weighted {
    /// No node.
    #[choice(weight = 1)]
    Leaf,
    /// A node with a key in `0..=10`.
    #[choice(weight = 3)]
    Node(Box<Weighted>, #[choice(range = 0..=10)] u8, Box<Weighted>),
}

impl Weighted {
    /// The number of nodes.
    pub fn size(&self) -> usize {
        match self {
            Weighted::Leaf => 0,
            Weighted::Node(l, _, r) => 1 + l.size() + r.size(),
        }
    }
}

/// The mean tests to the first failure of "a tree has fewer than 8 nodes"
/// over `seeds` seeds from `seed`, under random generation and the RL guide
/// starting uniformly or from the generator's weights.
pub fn start_study(seeds: u64, seed: u64) -> Vec<(&'static str, f64)> {
    let property = Property::new(Weighted::generator, |t: Weighted| t.size() < 8);
    let starts: [(&'static str, Option<Prior>); 3] =
        [("random", None), ("rl_uniform", Some(Prior::Uniform)), ("rl_weights", Some(Prior::Weights))];
    let mut out = Vec::new();
    for (name, prior) in starts {
        let mut total = 0u64;
        for s in seed..seed + seeds {
            let config = Config::new("start").seed(s).no_timeout().max_shrink_steps(0).cases(100_000);
            let config = match prior {
                None => config.guide(|| RandomGuide),
                Some(p) => config.guide(move || RlGuide::new(RlConfig::default().prior(p))),
            };
            match property.check(&config) {
                Err(refgen::runner::RunError::Failed(f)) => total += f.tests,
                other => panic!("the bug is found within 100,000 cases: {other:?}"),
            }
        }
        out.push((name, total as f64 / seeds as f64));
    }
    out
}

/// The number of distinct valid values of `trials` runs of `gen` under the RL
/// guide with `config`, or plain random generation for `None`.
fn unique_valid<G: Gen>(gen: &G, config: Option<RlConfig>, trials: usize, seed: u64) -> usize
where
    G::Value: std::fmt::Debug,
{
    match config {
        None => generate_distinct(gen, &mut RandomGuide, trials, seed).unique_valid.len(),
        Some(c) => generate_distinct(gen, &mut RlGuide::new(c), trials, seed).unique_valid.len(),
    }
}

/// One guide's result.
pub struct Row {
    /// The guide's name.
    pub name: &'static str,
    /// Valid trees generated (duplicates included).
    pub valid: usize,
    /// Distinct valid trees.
    pub unique: Vec<Bst>,
    /// Wall-clock seconds for all trials.
    pub secs: f64,
}

/// Run the four guides of Fig. 4 for `trials` trials each, from `seed`.
pub fn case_study(trials: usize, seed: u64) -> Vec<Row> {
    let g = bst_gen();
    let mut rows = Vec::new();
    let mut run = |name: &'static str, guide: &mut dyn Guide| {
        let t0 = Instant::now();
        let out = generate_distinct(&g, guide, trials, seed);
        let secs = t0.elapsed().as_secs_f64();
        rows.push(Row { name, valid: out.valid, unique: out.unique_valid, secs });
    };
    run("Random", &mut RandomGuide);
    for a in Abstraction::ALL {
        run(a.name(), &mut RlGuide::with_abstraction(a));
    }
    for (name, config) in schemes() {
        run(name, &mut RlGuide::new(config));
    }
    rows
}

fn main() {
    let mut trials = 100_000usize;
    let mut seed = 0u64;
    let mut sizes = false;
    let usage = || -> ! {
        eprintln!("usage: rlcheck_bst [--trials N] [--seed S] [--sizes]   (N and S whole numbers)");
        std::process::exit(2)
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--trials" => trials = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage()),
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage()),
            "--sizes" => sizes = true,
            _ => usage(),
        }
    }
    let rows = case_study(trials, seed);
    for r in &rows {
        println!("guide={} valid={} unique_valid={} secs={:.3}", r.name, r.valid, r.unique.len(), r.secs);
    }
    for (workload, guide, unique) in other_workloads(trials, seed) {
        println!("workload={workload} guide={guide} unique_valid={unique}");
    }
    let seeds = 50;
    for (start, mean) in start_study(seeds, seed) {
        println!("start={start} seeds={seeds} mean_tests_to_failure={mean:.1}");
    }
    if sizes {
        // RLCheck Fig. 5: unique valid trees by size.
        for r in &rows {
            let mut by_size = [0usize; 32];
            for t in &r.unique {
                by_size[t.size().min(31)] += 1;
            }
            let cells: Vec<String> =
                by_size.iter().enumerate().filter(|&(_, &n)| n > 0).map(|(s, n)| format!("{s}:{n}")).collect();
            println!("sizes guide={} {}", r.name, cells.join(" "));
        }
    }
}

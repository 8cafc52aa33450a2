//! Targeted property-based testing on graphs, after Löscher and Sagonas, "Automating Targeted Property-Based Testing" (ICST 2018), Sec. II-III.
//!
//! Run with `cargo run --release -p refgen-benches --bin targeted_graph -- --runs 100 --seed 1`.
//!
//! The property: in a graph of (up to) 42 vertices, the longest shortest path
//! from the sink (vertex 1) to a vertex it reaches is below 21 hops. Random
//! generation practically never builds such a long, thin graph; simulated
//! annealing that maximizes the longest shortest path does. Each run gets at
//! most 100,000 tests. Three strategies:
//!
//! - `random`: plain generation;
//! - `sa_auto`: `guide = sa`, its neighbourhood constructed from the
//!   generator's choice trees (nothing written by hand);
//! - `sa_handwritten`: the paper's Fig. 2 neighbourhood function, in Rust;
//! - `auto`: the default guide, which searches on the utility from the first case that reports one.
//!
//! and the paper's three generators of the same graphs, which its constructor
//! handles with different success: `graph` (42 vertices, a list of edges),
//! `graph_no_caching` (a number of vertices first, then edges over them) and
//! `graph_no_matching` (a number of vertices and a number of edges, then that
//! many edges). Each makes at most 84 edges, each two vertices drawn
//! uniformly (loops dropped). The paper: constructed neighbourhood 4,060
//! tests on average, hand-written 1,548, random never within 100,000. The
//! hand-written function is the paper's for `graph`: it never changes the
//! number of vertices, so on the other two generators it fails whenever
//! their first graph has too few vertices to hold a path of 21.

use rand::Rng;
use refgen::combinators::{int, vec};
use refgen::guides::sa::{SaConfig, SaGuide};
use refgen::guides::AutoGuide;
use refgen::prelude::*;
use refgen::refgen_core::source::DetRng;
use refgen::runner::RunError;
use std::collections::VecDeque;
use std::time::Instant;

/// The most vertices, and the sink.
pub const N: u8 = 42;
/// The most edges a generator makes (two per vertex).
pub const MAX_EDGES: usize = 84;
/// The property fails at this distance.
pub const THRESHOLD: usize = 21;

/// A graph on the vertices `1..=vertices`, its undirected edges sorted and without duplicates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// How many vertices.
    pub vertices: u8,
    /// The edges `(a, b)`, `a < b`, sorted.
    pub edges: Vec<(u8, u8)>,
}

impl Graph {
    fn new(vertices: u8, mut edges: Vec<(u8, u8)>) -> Graph {
        edges.retain(|&(a, b)| a < b);
        edges.sort_unstable();
        edges.dedup();
        Graph { vertices, edges }
    }

    /// The length of the longest shortest path from vertex 1 to a vertex it reaches.
    pub fn longest_from_sink(&self) -> usize {
        let n = self.vertices as usize + 1;
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in &self.edges {
            adj[a as usize].push(b as usize);
            adj[b as usize].push(a as usize);
        }
        let mut dist = vec![usize::MAX; n];
        dist[1] = 0;
        let mut queue = VecDeque::from([1usize]);
        let mut far = 0;
        while let Some(v) = queue.pop_front() {
            far = far.max(dist[v]);
            for &w in &adj[v] {
                if dist[w] == usize::MAX {
                    dist[w] = dist[v] + 1;
                    queue.push_back(w);
                }
            }
        }
        far
    }
}

/// An edge of a graph on `1..=n`: two vertices drawn uniformly, the lower first (the paper's
/// `edge(Vs)`; its `?SUCHTHAT(N1 < N2)` becomes dropping the loops `(a, a)` when the graph is made).
pub fn edge(n: u8) -> BoxGen<(u8, u8)> {
    (int(1..=n).site("a"), int(1..=n).site("b")).map(|(a, b)| (a.min(b), a.max(b)), |&e: &(u8, u8)| Some(e)).boxed()
}

/// The edges of a graph as generated, for the backward direction: the graph's own sorted list.
fn edges_of(n: u8) -> impl Fn(&Graph) -> Option<Vec<(u8, u8)>> {
    move |g: &Graph| (g.vertices == n).then(|| g.edges.clone())
}

/// The paper's `graph(N)`: 42 vertices, a list of edges, sorted and deduplicated.
pub fn graph() -> BoxGen<Graph> {
    vec(edge(N), 0..=MAX_EDGES).map(|es| Graph::new(N, es), edges_of(N)).boxed()
}

/// The paper's `graph_no_caching()`: a number of vertices in `2..=42` first, then a list of edges over them.
pub fn graph_no_caching() -> BoxGen<Graph> {
    int(2..=N)
        .site("vertices")
        .at(|g: &Graph| Some(g.vertices))
        .bind(|n| vec(edge(n), 0..=MAX_EDGES).map(move |es| Graph::new(n, es), edges_of(n)))
        .boxed()
}

/// The paper's `graph_no_matching()`: a number of vertices and a number of edges, then exactly that many edges.
pub fn graph_no_matching() -> BoxGen<Graph> {
    (int(2..=N).site("vertices"), int(0..=MAX_EDGES).site("edges"))
        .at(|g: &Graph| Some((g.vertices, g.edges.len())))
        .bind(|(n, m)| vec(edge(n), m..=m).map(move |es| Graph::new(n, es), edges_of(n)))
        .boxed()
}

/// The paper's Fig. 2 neighbourhood function, `graph_next`, in Rust: a new number of edges near the old
/// one, a few more removed and added on top; it ignores the temperature, as the paper's does.
pub fn graph_next(g: &Graph, _temperature: f64, rng: &mut DetRng) -> Graph {
    fn neighbouring(base: usize, rng: &mut DetRng) -> usize {
        let offset = (0.05 * base as f64) as i64 + 1;
        (base as i64 + rng.random_range(-offset..=offset)).max(0) as usize
    }
    let size = g.edges.len();
    let new_size = neighbouring(size, rng);
    let additional = neighbouring(size / 10, rng);
    let (removals, additions) = if new_size < size {
        (additional + (size - new_size), additional)
    } else {
        (additional, additional + (new_size - size))
    };
    let mut edges = g.edges.clone();
    for _ in 0..removals.min(edges.len()) {
        edges.remove(rng.random_range(0..edges.len()));
    }
    let n = g.vertices;
    for _ in 0..additions {
        let (a, b) = (rng.random_range(1..=n), rng.random_range(1..=n));
        edges.push((a.min(b), a.max(b)));
    }
    let mut next = Graph::new(n, edges);
    // The generators make at most 84 edges: keep the neighbour in their range.
    next.edges.truncate(MAX_EDGES);
    next
}

/// A graph generator's constructor.
pub type MakeGraph = fn() -> BoxGen<Graph>;

/// One run: how many tests until the property failed, or `None` within `budget`.
pub fn run(make: MakeGraph, strategy: &str, budget: u64, seed: u64) -> Option<u64> {
    let p = Property::new(make, |g: Graph| {
        let far = g.longest_from_sink();
        maximize!(far);
        far < THRESHOLD
    });
    let config = Config::new(format!("targeted_graph::{strategy}")).cases(budget).seed(seed).no_timeout();
    let config = config.max_shrink_steps(0);
    let config = match strategy {
        "random" => config,
        "sa_auto" => config.guide(|| SaGuide::new(SaConfig::default())),
        "auto" => config.guide(AutoGuide::default),
        _ => config.guide(move || SaGuide::with_neighbour(SaConfig::default(), make(), graph_next)),
    };
    match p.check(&config) {
        Ok(_) => None,
        Err(RunError::Failed(f)) => Some(f.cases + f.discards + 1),
        Err(e) => panic!("{strategy}: {e}"),
    }
}

fn main() {
    let mut runs = 100u64;
    let mut seed = 1u64;
    let mut budget = 100_000u64;
    let mut strategies = vec!["random", "sa_auto", "sa_handwritten", "auto"];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--only" {
            let only = args.next().unwrap_or_default();
            strategies.retain(|s| *s == only);
            continue;
        }
        if a == "--no-random" {
            strategies.retain(|s| *s != "random");
            continue;
        }
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), value) {
            ("--runs", Some(n)) => runs = n,
            ("--seed", Some(n)) => seed = n,
            ("--budget", Some(n)) => budget = n,
            _ => {
                eprintln!("usage: targeted_graph [--runs N] [--seed S] [--budget TESTS] [--no-random] [--only random|sa_auto|sa_handwritten|auto]");
                std::process::exit(2);
            }
        }
    }
    let generators: [(&str, MakeGraph); 3] =
        [("graph", graph), ("graph_no_caching", graph_no_caching), ("graph_no_matching", graph_no_matching)];
    for strategy in strategies {
        for (name, make) in generators {
            let t0 = Instant::now();
            let mut found: Vec<u64> = (0..runs).filter_map(|r| run(make, strategy, budget, seed * 1_000 + r)).collect();
            let secs = t0.elapsed().as_secs_f64();
            found.sort_unstable();
            let mean = if found.is_empty() { f64::NAN } else { found.iter().sum::<u64>() as f64 / found.len() as f64 };
            let median = match found.len() {
                0 => f64::NAN,
                n if n % 2 == 1 => found[n / 2] as f64,
                n => (found[n / 2 - 1] + found[n / 2]) as f64 / 2.0,
            };
            println!(
                "strategy={strategy} generator={name} runs={runs} found={} mean_tests={mean:.0} median_tests={median:.0} secs={secs:.1}",
                found.len()
            );
        }
    }
}

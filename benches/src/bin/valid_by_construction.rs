//! The cost of a search tree valid by construction, three ways: a derived type with arguments, a generator synthesized from the predicate, and the derived type filtered by the predicate.
//!
//! The same tree type, keys in `0..=30`, nodes three times as likely as
//! leaves, depth budget the default: the derived type passes each subtree
//! its key bounds (`#[reflect(args(lo, hi))]`); `#[synth]` reads the same
//! bounds from the predicate `bst(t, lo, hi)`; the third filters random
//! trees with `#[assume]` (every subtree, retried). Per way: ns per node
//! made (the best of 5 rounds), the mean size, and the share of runs that
//! made a tree.
//!
//! Run with `cargo run --release -p refgen-benches --bin valid_by_construction [-- --values N]`.

use refgen::interpret::generate;
use refgen::prelude::*;
use std::time::Instant;

/// Keys bounded by arguments: each subtree gets the range its key leaves.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(args(lo: i32 = 0, hi: i32 = 30))]
enum ByArgs {
    Leaf,
    #[choice(when = *lo <= *hi, weight = 3)]
    Node {
        #[choice(args(*lo, *key - 1))]
        left: Box<ByArgs>,
        #[choice(range = *lo..=*hi)]
        key: i32,
        #[choice(args(*key + 1, *hi))]
        right: Box<ByArgs>,
    },
}

/// The tree the predicate describes.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(bst(self, 0, 30))]
enum Tree {
    Leaf,
    #[choice(weight = 3)]
    Node(Box<Tree>, #[choice(range = 0..=30)] i32, Box<Tree>),
}

/// A search tree with keys in `lo..=hi`.
#[synth(lo = 0, hi = 30, weight(Node = 3))]
fn bst(t: &Tree, lo: i32, hi: i32) -> bool {
    match t {
        Tree::Leaf => true,
        Tree::Node(l, k, r) => lo <= *k && *k <= hi && bst(l, lo, *k - 1) && bst(r, *k + 1, hi),
    }
}

fn args_size(t: &ByArgs) -> usize {
    match t {
        ByArgs::Leaf => 0,
        ByArgs::Node { left, right, .. } => 1 + args_size(left) + args_size(right),
    }
}

fn size(t: &Tree) -> usize {
    match t {
        Tree::Leaf => 0,
        Tree::Node(l, _, r) => 1 + size(l) + size(r),
    }
}

/// ns per node (best of 5 rounds), mean nodes per tree, and the share of the `n` runs that made one.
fn measure<T>(n: u64, g: &impl Gen<Value = T>, size: fn(&T) -> usize) -> (f64, f64, f64) {
    let mut best = f64::INFINITY;
    let (mut nodes, mut made) = (0, 0);
    for _ in 0..5 {
        (nodes, made) = (0, 0);
        let t0 = Instant::now();
        for seed in 0..n {
            if let Ok(t) = generate(g, seed) {
                nodes += size(&t);
                made += 1;
            }
        }
        best = best.min(t0.elapsed().as_secs_f64() * 1e9 / nodes.max(1) as f64);
    }
    (best, nodes as f64 / made.max(1) as f64, made as f64 / n as f64)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = match args.get(1).map(String::as_str) {
        None => 200_000,
        Some("--values") if args.len() == 3 => args[2].parse().unwrap_or_else(|_| usage()),
        Some(_) => usage(),
    };
    println!("{:<28} {:>10} {:>10} {:>8}", "way", "ns/node", "mean size", "made");
    let rows = [
        ("derived, arguments", measure(n, &ByArgs::generator(), args_size)),
        ("synthesized (#[synth])", measure(n, &bst::generator(), size)),
        ("derived, #[assume] filter", measure(n, &Tree::generator(), size)),
    ];
    for (way, (ns, mean, made)) in rows {
        println!("{way:<28} {ns:>10.1} {mean:>10.2} {:>7.1}%", 100.0 * made);
    }
}

fn usage() -> ! {
    eprintln!("usage: valid_by_construction [--values N]   (N a whole number; default 200000)");
    std::process::exit(2)
}

//! Tuning by examples and validity-preserving mutation (Goldstein's thesis, Sec. 3.3 and 3.4): how close tuned generation comes to a set of examples, how the three mutation operators keep mutants in the generator's range, and how a mutational guide finds a bug hidden behind validity.
//!
//! Run with `cargo run --release -p refgen-benches --bin tune_and_mutate -- --seed 1`
//! (`--mutants N` mutants per operator and workload, default 10 000;
//! `--runs N` seeds of the bug hunt, default 20). It prints three tables:
//!
//! ```text
//! tuning=<untuned|like|unlike> tv_distance=<f> dominant_label_freq=<f>
//! operator=<reroll|swap|shrink|naive> workload=<bst|avl|stlc> mutants=<n> in_range=<n> valid=<n> distinct=<n>
//! guide=<random|rl|mutate> found=<k>/<runs> mean_cases=<f>
//! ```
//!
//! **Tuning.** Twenty arithmetic expressions in one house style (sums of
//! products of the digits 1 to 3) are written to a directory as JSON and
//! read back with `examples_from_dir`, as a user would tune on production
//! samples. `tv_distance` is the total variation distance between the
//! frequencies of the (site, label) pairs of the examples' choices and of
//! 10 000 generated values' choices; `dominant_label_freq` is the share of
//! the generated values' choices that take the label the examples take most
//! at that choice point. `like` is `guide = tuned(like = ...)` (smoothing
//! 0.1), `unlike` is `tuned(unlike = ...)`.
//!
//! **Mutation.** For binary search trees, AVL trees and well-typed lambda
//! terms (each a shape type and a wrapper whose `#[assume]` states
//! validity), valid seed values are found by generation, and each operator
//! makes mutants of them: the seed's choice tree edited by `rerollMut`,
//! `swapMut` or `shrinkMut` and replayed leniently (`guides::mutate::mutant`,
//! as `guide = mutate` makes them). `in_range` counts mutants the shape's
//! generator makes (their choices parse back to them); `valid` those that
//! also pass `#[assume]`; `distinct` the distinct valid ones. `naive` is a
//! value-level mutation for contrast: one field of the value (a number or a
//! subterm) changed at random, with no replay.
//!
//! **The loop.** `insert` into an AVL tree (a binary search tree balanced at
//! every node, heights computed) forgets to rebalance when the tree has 6 or
//! more nodes. Each guide gets the same 3 small valid examples (`example =
//! ...`), 10 000 valid cases and at most 20 discards per valid case;
//! `found` counts the runs that failed, `mean_cases` is the mean number of
//! cases (valid or discarded) run up to the failure, over those runs.

use rand::Rng;
use refgen::combinators::int;
use refgen::edit::Mutation;
use refgen::guides::mutate::mutant;
use refgen::guides::tuned::{examples_from_dir, tune, TunedGuide};
use refgen::guides::{MutateGuide, RandomGuide, RlGuide};
use refgen::interpret::{check, generate, generate_recorded, generate_weighted, labels_of, parse, Weights};
use refgen::prelude::*;
use refgen::refgen_core::choice::ChoiceTree;
use refgen::refgen_core::source::{rng_from_seed, DetRng};
use refgen::runner::RunError;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Debug;

// ---------------------------------------------------------------- tuning

/// Arithmetic expressions, the running example of "Inputs from Hell".
#[derive(Debug, Clone, PartialEq, Reflective, serde::Serialize, serde::Deserialize)]
#[reflect(depth = 5)]
enum Expr {
    Num(#[choice(range = 0..=9)] u8),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
}

fn num(n: u8) -> Expr {
    Expr::Num(n)
}

fn bin(f: fn(Box<Expr>, Box<Expr>) -> Expr, a: Expr, b: Expr) -> Expr {
    f(Box::new(a), Box::new(b))
}

/// Twenty examples in one style: sums of one to three products of digits 1..=3.
fn house_style() -> Vec<Expr> {
    (0..20u8)
        .map(|i| {
            let product = |j: u8| bin(Expr::Mul, num((i + j) % 3 + 1), num((i * 2 + j) % 3 + 1));
            match i % 3 {
                0 => product(0),
                1 => bin(Expr::Add, product(0), product(1)),
                _ => bin(Expr::Add, product(0), bin(Expr::Add, product(1), num(i % 3 + 1))),
            }
        })
        .collect()
}

/// The frequency of each (site, label) among the choices that make `values`.
fn label_freqs(g: &BoxGen<Expr>, values: &[Expr]) -> BTreeMap<(String, String), f64> {
    let mut counts: BTreeMap<(String, String), f64> = BTreeMap::new();
    for v in values {
        for (site, label) in labels_of(g, v).expect("a value the generator makes") {
            *counts.entry((site.to_owned(), label)).or_default() += 1.0;
        }
    }
    let total: f64 = counts.values().sum();
    counts.values_mut().for_each(|c| *c /= total);
    counts
}

fn tv_distance(p: &BTreeMap<(String, String), f64>, q: &BTreeMap<(String, String), f64>) -> f64 {
    let keys: HashSet<&(String, String)> = p.keys().chain(q.keys()).collect();
    keys.into_iter().map(|k| (p.get(k).unwrap_or(&0.0) - q.get(k).unwrap_or(&0.0)).abs()).sum::<f64>() / 2.0
}

fn tuning(seed: u64) {
    let dir = std::env::temp_dir().join(format!("reflect-tune-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for (i, e) in house_style().iter().enumerate() {
        let json = serde_json::to_string(e).expect("an expression as JSON");
        std::fs::write(dir.join(format!("sample{i:02}.json")), json).expect("a sample written");
    }
    let examples: Vec<Expr> = examples_from_dir(&dir).into_result().unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_dir_all(&dir);
    let g = Expr::generator();
    let target = label_freqs(&g, &examples);
    // The label the examples take most at each site.
    let mut dominant: BTreeMap<&str, (&str, f64)> = BTreeMap::new();
    for ((site, label), f) in &target {
        let best = dominant.entry(site.as_str()).or_insert((label.as_str(), *f));
        if *f > best.1 {
            *best = (label.as_str(), *f);
        }
    }
    let like = tune(&g, examples.clone(), Vec::new(), refgen::guides::tuned::DEFAULT_SMOOTHING).expect("in range");
    let unlike = tune(&g, Vec::new(), examples.clone(), 0.0).expect("in range");
    let n = 10_000u64;
    let rows: [(&str, Option<&Weights>); 3] = [("untuned", None), ("like", Some(&like)), ("unlike", Some(&unlike))];
    for (name, w) in rows {
        let values: Vec<Expr> = (0..n)
            .map(|i| {
                let s = seed.wrapping_mul(1_000_003).wrapping_add(i);
                match w {
                    None => generate(&g, s),
                    Some(w) => generate_weighted(&g, w, s),
                }
                .expect("an expression")
            })
            .collect();
        let freqs = label_freqs(&g, &values);
        let dominant_freq: f64 = freqs
            .iter()
            .filter(|((site, label), _)| dominant.get(site.as_str()).is_some_and(|d| d.0 == label))
            .map(|(_, f)| f)
            .sum();
        println!(
            "tuning={name} tv_distance={:.3} dominant_label_freq={dominant_freq:.3}",
            tv_distance(&target, &freqs)
        );
    }
    // The guide that `#[property(guide = tuned(like = ...))]` builds draws the same way.
    let guide = TunedGuide::new(like);
    assert!(guide.weights().get("Expr", "Add") > guide.weights().get("Expr", "Sub"));
}

// ---------------------------------------------------------------- mutation workloads

use refgen_fixtures::workloads::{is_bst, AnyAvl, AnyBst, AnyTerm, Avl, Bst, Program, Term, Ty, ValidAvl, ValidBst};

// ---------------------------------------------------------------- naive mutation
//
// Change one field, drawn uniformly among the value's fields: a number
// becomes any value of its Rust type, a subterm becomes a base term (or a
// base term a small node). No replay: the result is whatever it is.

/// Counts down `k` over the fields of a value; `hit` says whether this field is the one.
struct Fields<'r> {
    k: usize,
    rng: &'r mut DetRng,
}

impl Fields<'_> {
    fn hit(&mut self) -> bool {
        let h = self.k == 0;
        self.k = self.k.wrapping_sub(1);
        h
    }

    /// When the number `x` is the field, give it any value of its type; whether it was.
    fn number(&mut self, x: &mut u8) -> bool {
        let h = self.hit();
        if h {
            *x = self.rng.random();
        }
        h
    }
}

fn naive_bst(t: &mut Bst, f: &mut Fields<'_>) {
    if f.hit() {
        *t = match t {
            Bst::Leaf => Bst::Node(f.rng.random(), Box::new(Bst::Leaf), Box::new(Bst::Leaf)),
            Bst::Node(..) => Bst::Leaf,
        };
        return;
    }
    if let Bst::Node(x, l, r) = t {
        if f.number(x) {
            return;
        }
        naive_bst(l, f);
        naive_bst(r, f);
    }
}

fn naive_avl(t: &mut Avl, f: &mut Fields<'_>) {
    if f.hit() {
        *t = match t {
            Avl::Leaf => Avl::Node(f.rng.random(), f.rng.random(), Box::new(Avl::Leaf), Box::new(Avl::Leaf)),
            Avl::Node(..) => Avl::Leaf,
        };
        return;
    }
    if let Avl::Node(h, x, l, r) = t {
        if f.number(h) || f.number(x) {
            return;
        }
        naive_avl(l, f);
        naive_avl(r, f);
    }
}

fn naive_term(t: &mut Term, f: &mut Fields<'_>) {
    if f.hit() {
        *t = match t {
            Term::Lit(_) | Term::Var(_) => {
                Term::Plus(Box::new(Term::Lit(f.rng.random())), Box::new(Term::Lit(f.rng.random())))
            }
            _ => Term::Lit(f.rng.random()),
        };
        return;
    }
    match t {
        Term::Lit(x) | Term::Var(x) => {
            f.number(x);
        }
        Term::Plus(a, b) | Term::App(a, b) => {
            naive_term(a, f);
            naive_term(b, f);
        }
        Term::Lam(ty, body) => {
            if f.hit() {
                *ty = match ty {
                    Ty::Int => Ty::Fun(Box::new(Ty::Int), Box::new(Ty::Int)),
                    Ty::Fun(..) => Ty::Int,
                };
                return;
            }
            naive_term(body, f);
        }
    }
}

/// How many fields a value has: run a naive mutation with a count that never hits.
fn field_count<T: Clone>(v: &T, visit: fn(&mut T, &mut Fields<'_>), rng: &mut DetRng) -> usize {
    let mut f = Fields { k: usize::MAX, rng };
    visit(&mut v.clone(), &mut f);
    usize::MAX - f.k
}

/// One mutation workload: a valid type, its shape type, and a naive mutation.
trait Workload: Reflective + Clone + Debug + PartialEq {
    /// The shape alone, without validity.
    type Shape: Reflective + Debug + PartialEq;
    const NAME: &'static str;
    fn shape(&self) -> Self::Shape;
    fn naive(&self, rng: &mut DetRng) -> Self;
}

/// A naive mutant of `v`: its `k`-th field changed.
fn naive_mutant<T: Clone>(v: &T, visit: fn(&mut T, &mut Fields<'_>), rng: &mut DetRng) -> T {
    let n = field_count(v, visit, rng);
    let k = rng.random_range(0..n);
    let mut out = v.clone();
    visit(&mut out, &mut Fields { k, rng });
    out
}

/// A workload: the valid wrapper, the shape wrapper, its name, and its naive mutation.
macro_rules! workload {
    ($valid:ident, $any:ident, $name:literal, $naive:ident) => {
        impl Workload for $valid {
            type Shape = $any;
            const NAME: &'static str = $name;
            fn shape(&self) -> $any {
                $any(self.0.clone())
            }
            fn naive(&self, rng: &mut DetRng) -> Self {
                $valid(naive_mutant(&self.0, $naive, rng))
            }
        }
    };
}

workload!(ValidBst, AnyBst, "bst", naive_bst);
workload!(ValidAvl, AnyAvl, "avl", naive_avl);
workload!(Program, AnyTerm, "stlc", naive_term);

/// Up to 100 distinct valid values with at least 3 choices, found by generation.
fn seed_values<W: Workload>(seed: u64) -> Vec<(W, ChoiceTree)> {
    let g = W::generator();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for i in 0..2_000_000u64 {
        if let (Ok(v), tree) = generate_recorded(&g, seed.wrapping_mul(7_919).wrapping_add(i)) {
            if tree.choice_count() >= 3 && seen.insert(format!("{v:?}")) {
                out.push((v, tree));
                if out.len() == 100 {
                    break;
                }
            }
        }
    }
    out
}

fn mutation_rows<W: Workload>(mutants: usize, seed: u64) {
    let (g, shape) = (W::generator(), W::Shape::generator());
    let seeds = seed_values::<W>(seed);
    let mut rng = rng_from_seed(seed);
    let row = |op: &str, made: usize, in_range: usize, valid: usize, distinct: usize| {
        println!(
            "operator={op} workload={} mutants={made} in_range={in_range} valid={valid} distinct={distinct}",
            W::NAME
        )
    };
    for op in Mutation::ALL {
        let (mut made, mut in_range, mut valid) = (0, 0, 0);
        let mut distinct = HashSet::new();
        let mut tries = 0;
        while made < mutants && tries < 10 * mutants {
            tries += 1;
            let (_, tree) = &seeds[tries % seeds.len()];
            let Some((r, recorded)) = mutant(&g, tree, op, &mut rng) else { continue };
            made += 1;
            // In range: the shape's generator makes the mutant from its choices.
            let as_shape = parse(&shape, &recorded.choices());
            match (&r, &as_shape) {
                (Ok(v), Ok(s)) if v.shape() == *s => in_range += 1,
                (Err(_), Ok(_)) => in_range += 1,
                _ => {}
            }
            if let Ok(v) = r {
                valid += 1;
                distinct.insert(format!("{v:?}"));
            }
        }
        row(op.name(), made, in_range, valid, distinct.len());
    }
    let (mut in_range, mut valid) = (0, 0);
    let mut distinct = HashSet::new();
    for i in 0..mutants {
        let v = seeds[i % seeds.len()].0.naive(&mut rng);
        in_range += usize::from(check(&shape, &v.shape()));
        if check(&g, &v) {
            valid += 1;
            distinct.insert(format!("{v:?}"));
        }
    }
    row("naive", mutants, in_range, valid, distinct.len());
}

// ---------------------------------------------------------------- the loop
//
// An AVL tree whose heights are computed rather than stored: a binary search
// tree, balanced at every node. (With stored heights, as `ValidAvl` above,
// no single edit grows a valid tree: a new node changes the stored height of
// every node above it.)

/// A binary search tree balanced at every node: an AVL tree.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(is_bst(&self.0) && balanced(&self.0).is_some())]
struct Balanced(Bst);

/// The height of `t` when it is balanced at every node.
fn balanced(t: &Bst) -> Option<usize> {
    match t {
        Bst::Leaf => Some(0),
        Bst::Node(_, l, r) => {
            let (hl, hr) = (balanced(l)?, balanced(r)?);
            (hl.abs_diff(hr) <= 1).then_some(1 + hl.max(hr))
        }
    }
}

fn bst_height(t: &Bst) -> usize {
    match t {
        Bst::Leaf => 0,
        Bst::Node(_, l, r) => 1 + bst_height(l).max(bst_height(r)),
    }
}

fn bst_size(t: &Bst) -> usize {
    match t {
        Bst::Leaf => 0,
        Bst::Node(_, l, r) => 1 + bst_size(l) + bst_size(r),
    }
}

fn mk(k: u8, l: Bst, r: Bst) -> Bst {
    Bst::Node(k, Box::new(l), Box::new(r))
}

/// Restore balance at a node whose subtrees' heights differ by at most 2 (one or two rotations).
fn balance(k: u8, l: Bst, r: Bst) -> Bst {
    let (hl, hr) = (bst_height(&l), bst_height(&r));
    if hl > hr + 1 {
        if let Bst::Node(lk, ll, lr) = l {
            return match *lr {
                Bst::Node(mk_, ml, mr) if bst_height(&ll) < 1 + bst_height(&ml).max(bst_height(&mr)) => {
                    mk(mk_, mk(lk, *ll, *ml), mk(k, *mr, r))
                }
                lr => mk(lk, *ll, mk(k, lr, r)),
            };
        }
    } else if hr > hl + 1 {
        if let Bst::Node(rk, rl, rr) = r {
            return match *rl {
                Bst::Node(mk_, ml, mr) if bst_height(&rr) < 1 + bst_height(&ml).max(bst_height(&mr)) => {
                    mk(mk_, mk(k, l, *ml), mk(rk, *mr, *rr))
                }
                rl => mk(rk, mk(k, l, rl), *rr),
            };
        }
    }
    mk(k, l, r)
}

fn insert_with(t: &Bst, x: u8, rebalance: bool) -> Bst {
    let join = |k, l, r| if rebalance { balance(k, l, r) } else { mk(k, l, r) };
    match t {
        Bst::Leaf => mk(x, Bst::Leaf, Bst::Leaf),
        Bst::Node(k, l, r) if x < *k => join(*k, insert_with(l, x, rebalance), (**r).clone()),
        Bst::Node(k, l, r) if x > *k => join(*k, (**l).clone(), insert_with(r, x, rebalance)),
        t => t.clone(),
    }
}

/// The bug: a tree of 6 or more nodes is not rebalanced.
fn insert(t: &Bst, x: u8) -> Bst {
    insert_with(t, x, bst_size(t) < 6)
}

fn avl_of(keys: &[u8]) -> Balanced {
    Balanced(keys.iter().fold(Bst::Leaf, |t, &k| insert_with(&t, k, true)))
}

/// Cases run before the failure, or `None` when the run did not find it.
fn hunt(guide: &str, seed: u64) -> Option<u64> {
    let p = Property::new(
        || (Balanced::generator(), int(0u8..=9)),
        |(t, x): (Balanced, u8)| {
            let after = insert(&t.0, x);
            is_bst(&after) && balanced(&after).is_some()
        },
    )
    .example(|| (avl_of(&[1]), 2))
    .example(|| (avl_of(&[4, 2]), 7))
    .example(|| (avl_of(&[5, 3, 8]), 9));
    let config = Config::new(format!("tune_and_mutate::hunt::{guide}"))
        .cases(10_000)
        .max_discard_ratio(20)
        .seed(seed)
        .max_shrink_steps(0)
        .no_timeout();
    let config = match guide {
        "random" => config.guide(|| RandomGuide),
        "rl" => config.guide(RlGuide::default),
        _ => config.guide(MutateGuide::default),
    };
    match p.check(&config) {
        Err(RunError::Failed(f)) => Some(f.cases + f.discards + 1),
        Ok(_) | Err(RunError::Vacuous { .. }) => None,
        Err(e) => panic!("{e}"),
    }
}

fn main() {
    let mut seed = 1u64;
    let mut mutants = 10_000usize;
    let mut runs = 20u64;
    let usage = || -> ! {
        eprintln!("usage: tune_and_mutate [--seed S] [--mutants N] [--runs N]   (whole numbers)");
        std::process::exit(2)
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().and_then(|s| s.parse::<u64>().ok()).unwrap_or_else(|| usage());
        match a.as_str() {
            "--seed" => seed = value(),
            "--mutants" => mutants = value().max(1) as usize,
            "--runs" => runs = value().max(1),
            _ => usage(),
        }
    }
    tuning(seed);
    mutation_rows::<ValidBst>(mutants, seed);
    mutation_rows::<ValidAvl>(mutants, seed);
    mutation_rows::<Program>(mutants, seed);
    for guide in ["random", "rl", "mutate"] {
        let found: Vec<u64> = (0..runs).filter_map(|r| hunt(guide, seed.wrapping_mul(1_000).wrapping_add(r))).collect();
        let mean = found.iter().sum::<u64>() as f64 / found.len().max(1) as f64;
        println!("guide={guide} found={}/{runs} mean_cases={mean:.1}", found.len());
    }
}

//! Shrinking quality on the well-known shrinking challenges (github.com/jlink/shrinking-challenge).
//!
//! Run with `cargo run --release --example shrink_quality`. For each problem
//! and each of 100 seeds, the runner finds a failing case and shrinks it by
//! reflection; the table gives the mean size of the shrunk counterexamples
//! and how many were the minimal one. Every run is deterministic (seeded).
//!
//! - **reverse**: lists of integers; property `reverse(xs) == xs`; minimal `[0, 1]`.
//! - **calculator**: expressions over `Lit | Add | Div` with literals in
//!   `-10..=10`; the validity condition is "no division by a literal zero";
//!   property "evaluation does not divide by zero"; minimal size 5, e.g.
//!   `Div(Lit(0), Add(Lit(0), Lit(0)))`.
//! - **bound5**: five lists of `i16`, each (validity condition) summing to
//!   less than 256 with wrapping arithmetic; property "the wrapping sum of all
//!   is less than 5 * 256"; minimal: two elements, e.g. `([-32768], [-1], [], [], [])`.
//! - **large union list**: lists of lists of `i32`; property "at most four
//!   distinct integers"; minimal one list of five elements of `0, ±1, ±2`.
//! - **length list**: a length `n` in `1..=100`, then (bind) `n` integers in
//!   `0..=1000`; property "the maximum is below 900"; minimal `[900]`.
//!
//! Integers are the library's own: their choices count outward from zero
//! (choice 0 is 0, then 1, -1, 2, -2, ...), so smaller choices are smaller
//! in absolute value.

use reflect::combinators::{any_int, int, pick, recursive, vec};
use reflect::prelude::*;
use reflect::reflect_core::parse_tree;
use reflect::reflect_runtime::case::IntoOutcome;
use reflect::runner::RunError;
use std::time::Instant;

const RUNS: u64 = 100;

fn small_int() -> BoxGen<i64> {
    int(-10i64..=10).site("lit").boxed()
}

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Lit(i64),
    Add(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

impl Expr {
    fn size(&self) -> usize {
        match self {
            Expr::Lit(_) => 1,
            Expr::Add(a, b) | Expr::Div(a, b) => 1 + a.size() + b.size(),
        }
    }
    /// `Err(())` on division by zero; arithmetic wraps.
    fn eval(&self) -> Result<i64, ()> {
        match self {
            Expr::Lit(n) => Ok(*n),
            Expr::Add(a, b) => Ok(a.eval()?.wrapping_add(b.eval()?)),
            Expr::Div(a, b) => {
                let (x, y) = (a.eval()?, b.eval()?);
                if y == 0 {
                    Err(())
                } else {
                    Ok(x.wrapping_div(y))
                }
            }
        }
    }
    fn divides_by_literal_zero(&self) -> bool {
        match self {
            Expr::Lit(_) => false,
            Expr::Add(a, b) => a.divides_by_literal_zero() || b.divides_by_literal_zero(),
            Expr::Div(a, b) => **b == Expr::Lit(0) || a.divides_by_literal_zero() || b.divides_by_literal_zero(),
        }
    }
}

fn expr_gen() -> BoxGen<Expr> {
    let lit = || small_int().map(Expr::Lit, |e: &Expr| if let Expr::Lit(n) = e { Some(*n) } else { None }).boxed();
    // The bottom level is a pick too (with one option), so that every level
    // records the same shape, `expr=...(lit=...)`: a subtree taken from any
    // depth then replays at any other, which shrinking by reflection relies on.
    recursive(5, move |sub: Option<BoxGen<Expr>>| match sub {
        None => pick("expr", [("lit", 1, lit())]).boxed(),
        Some(sub) => {
            let bin = |ctor: fn(Box<Expr>, Box<Expr>) -> Expr, un: fn(&Expr) -> Option<(Expr, Expr)>| {
                (sub.clone(), sub.clone()).map(move |(a, b)| ctor(Box::new(a), Box::new(b)), un).boxed()
            };
            let add =
                bin(Expr::Add, |e| if let Expr::Add(a, b) = e { Some(((**a).clone(), (**b).clone())) } else { None });
            let div =
                bin(Expr::Div, |e| if let Expr::Div(a, b) = e { Some(((**a).clone(), (**b).clone())) } else { None });
            pick("expr", [("lit", 3, lit()), ("add", 2, add), ("div", 2, div)]).boxed()
        }
    })
    .filter(|e: &Expr| !e.divides_by_literal_zero())
    .boxed()
}

type Five = (Vec<i16>, Vec<i16>, Vec<i16>, Vec<i16>, Vec<i16>);

fn wrapping_sum(xs: &[i16]) -> i16 {
    xs.iter().fold(0i16, |a, &b| a.wrapping_add(b))
}

fn bound5_gen() -> BoxGen<Five> {
    let list = || vec(any_int::<i16>(), 0..=10).filter(|xs: &Vec<i16>| wrapping_sum(xs) < 256).boxed();
    (list(), list(), list(), list(), list()).boxed()
}

fn length_list_gen() -> BoxGen<Vec<u32>> {
    int(1usize..=100)
        .site("n")
        .at(|v: &Vec<u32>| Some(v.len()))
        .bind(move |n| vec(int(0u32..=1000).site("elem"), n..=n))
        .boxed()
}

/// Runs `prop` on `gen` with seeds `0..RUNS`; returns the shrunk values.
fn run<V, R>(name: &str, gen: fn() -> BoxGen<V>, prop: fn(V) -> R, config: impl Fn(Config) -> Config) -> Vec<V>
where
    V: std::fmt::Debug + 'static,
    R: IntoOutcome + 'static,
{
    let g = gen();
    let property = Property::new(gen, prop);
    (0..RUNS)
        .filter_map(|seed| {
            let c = config(Config::new(name).seed(seed).cases(10_000).no_timeout());
            match property.check(&c) {
                Err(RunError::Failed(f)) => Some(parse_tree(&g, &f.tree).expect("the shrunk tree parses")),
                Ok(_) => None,
                Err(e) => panic!("{name}: {e}"),
            }
        })
        .collect()
}

fn line<V: std::fmt::Debug>(name: &str, found: &[V], size: impl Fn(&V) -> usize, minimal: impl Fn(&V) -> bool) {
    let mean = found.iter().map(&size).sum::<usize>() as f64 / found.len().max(1) as f64;
    let k = found.iter().filter(|v| minimal(v)).count();
    // `SHOW=1` prints a few counterexamples that are not minimal.
    if std::env::var_os("SHOW").is_some() {
        for v in found.iter().filter(|v| !minimal(v)).take(4) {
            eprintln!("  not minimal: {v:?}");
        }
    }
    println!("problem={name} runs={} mean_size={mean:.2} minimal_found={k}/{}", found.len(), found.len());
}

fn main() {
    let start = Instant::now();

    let found =
        run("reverse", || vec(any_int::<i32>(), 0..=20).boxed(), |xs: Vec<i32>| xs.iter().rev().eq(xs.iter()), |c| c);
    line("reverse", &found, Vec::len, |xs| xs == &[0, 1]);

    let found = run("calculator", expr_gen, |e: Expr| e.eval().is_ok(), |c| c.max_discard_ratio(50));
    line("calculator", &found, Expr::size, |e| e.size() == 5);

    let found = run(
        "bound5",
        bound5_gen,
        |(a, b, c, d, e): Five| {
            let all: Vec<i16> = [a, b, c, d, e].concat();
            wrapping_sum(&all) < 5 * 256
        },
        |c| c.max_discard_ratio(1000),
    );
    let elems = |t: &Five| t.0.len() + t.1.len() + t.2.len() + t.3.len() + t.4.len();
    line("bound5", &found, elems, |t| elems(t) == 2);

    let found = run(
        "large_union_list",
        || vec(vec(any_int::<i32>(), 0..=10), 0..=10).boxed(),
        |xss: Vec<Vec<i32>>| {
            let distinct: std::collections::HashSet<i32> = xss.iter().flatten().copied().collect();
            distinct.len() <= 4
        },
        |c| c,
    );
    let total = |xss: &Vec<Vec<i32>>| xss.iter().map(Vec::len).sum::<usize>();
    line("large_union_list", &found, total, |xss| {
        xss.len() == 1 && xss[0].len() == 5 && xss[0].iter().all(|x| x.abs() <= 2)
    });

    let found = run("length_list", length_list_gen, |xs: Vec<u32>| xs.iter().all(|&x| x < 900), |c| c);
    line("length_list", &found, Vec::len, |xs| xs == &[900]);

    eprintln!("({:.1} s)", start.elapsed().as_secs_f64());
}

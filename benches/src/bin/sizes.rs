//! Default lengths: bugs that need a long collection, found and shrunk within the default cases, beside proptest.
//!
//! Run with `cargo run --release -p refgen-benches --bin sizes -- --seeds 5`.
//!
//! Three properties fail only on a long value of a type's own generator (no length range given):
//! a `Vec<u8>` longer than 16 (an inline buffer that spills), a `String` of more than 16 chars (a
//! name field), a `BTreeMap<u32, u32>` of more than 12 entries (a rehash). For each, over `--seeds`
//! seeds of the default 256 cases, it prints how many runs found the failure, the median cases to
//! it, and the shrunk failures' sizes; and the same for proptest's `any::<T>()` under its defaults
//! (256 cases, ChaCha seeded from the seed). Then what the default lengths cost: the median length
//! of the first 20 cases of a passing property, the mean length of generated values and the time to
//! generate one, against the old default range `0..=8`; and the total elements of nested and
//! recursive values (one budget per value).

use proptest::prelude::any;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestError, TestRng, TestRunner};
use refgen::prelude::*;
use refgen::refgen_core::{rng_from_seed, DetRng};
use refgen::runner::RunError;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A tree whose nodes hold a `Vec` of children: a collection inside a recursive type.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Rose {
    label: u8,
    children: Vec<Rose>,
}

fn rose_size(t: &Rose) -> usize {
    1 + t.children.iter().map(rose_size).sum::<usize>()
}

/// The same tree with the old default range of its `Vec` field.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct OldRose {
    label: u8,
    #[choice(len = 0..=8)]
    children: Vec<OldRose>,
}

fn old_rose_size(t: &OldRose) -> usize {
    1 + t.children.iter().map(old_rose_size).sum::<usize>()
}

/// The run of `test` on `T`'s own generator under the defaults but the seed: the cases to the failure and its shrunk size.
fn ours<T>(seed: u64, size: fn(&T) -> usize, test: fn(&T) -> bool) -> Option<(u64, usize)>
where
    T: Reflective + std::fmt::Debug + Clone + 'static,
{
    let config = Config::new(format!("sizes::{}", std::any::type_name::<T>())).seed(seed).no_regressions();
    let shrunk = Arc::new(Mutex::new(None));
    let last = shrunk.clone();
    let p = Property::new(T::generator, move |v: T| {
        let ok = test(&v);
        if !ok {
            *last.lock().unwrap() = Some(size(&v));
        }
        ok
    });
    match p.check(&config) {
        Ok(_) => None,
        Err(RunError::Failed(f)) => Some((f.cases + f.discards + 1, shrunk.lock().unwrap().unwrap_or(0))),
        Err(e) => panic!("{e}"),
    }
}

/// proptest's run of `test` on `any::<T>()` under its defaults, seeded: the cases to the failure and the shrunk size.
fn theirs<T>(seed: u64, size: fn(&T) -> usize, test: fn(&T) -> bool) -> Option<(u64, usize)>
where
    T: proptest::arbitrary::Arbitrary + std::fmt::Debug + Clone + 'static,
{
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = PtConfig { failure_persistence: None, ..PtConfig::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    let cases = std::cell::Cell::new(0u64);
    let found = std::cell::Cell::new(None);
    let result = runner.run(&any::<T>(), |v| {
        cases.set(cases.get() + 1);
        if test(&v) {
            Ok(())
        } else {
            found.set(found.get().or(Some(cases.get())));
            Err(proptest::test_runner::TestCaseError::fail("bug"))
        }
    });
    match result {
        Err(TestError::Fail(_, v)) => Some((found.get().unwrap_or(0), size(&v))),
        _ => None,
    }
}

/// The row of one library on one bug.
fn row(bug: &str, lib: &str, runs: Vec<Option<(u64, usize)>>) {
    let seeds = runs.len();
    let found: Vec<(u64, usize)> = runs.into_iter().flatten().collect();
    let mut cases: Vec<u64> = found.iter().map(|f| f.0).collect();
    cases.sort_unstable();
    let median = cases.get(cases.len() / 2).map_or("-".to_owned(), u64::to_string);
    let sizes: Vec<String> = found.iter().map(|f| f.1.to_string()).collect();
    println!("{bug:<22} {lib:<9} {:>3}/{seeds:<3} {median:>12}  {}", found.len(), sizes.join(" "));
}

/// The median length of the first 20 cases a passing property is given.
fn first_cases<T: Reflective + std::fmt::Debug + Clone + 'static>(size: fn(&T) -> usize) -> usize {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let p = Property::new(T::generator, move |v: T| {
        log.lock().unwrap().push(size(&v));
        true
    });
    p.check(&Config::new("sizes::first").cases(20).no_regressions()).expect("passes");
    let mut lens = seen.lock().unwrap().clone();
    lens.sort_unstable();
    lens[lens.len() / 2]
}

/// Mean size and nanoseconds per value of `g` over `n` values from one RNG.
fn cost<G: Gen>(g: &G, size: impl Fn(&G::Value) -> usize, n: u32) -> (f64, f64, usize) {
    let mut rng: DetRng = rng_from_seed(7);
    let (mut total, mut most) = (0usize, 0usize);
    let start = Instant::now();
    for _ in 0..n {
        let v = g.run_rng(&mut rng).expect("a value");
        let s = size(&v);
        total += s;
        most = most.max(s);
        black_box(v);
    }
    let ns = start.elapsed().as_nanos() as f64 / f64::from(n);
    (total as f64 / f64::from(n), ns, most)
}

fn main() {
    let mut seeds = 5u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next().and_then(|v| v.parse::<u64>().ok())) {
            ("--seeds", Some(n)) => seeds = n,
            _ => {
                eprintln!("usage: sizes [--seeds N]");
                std::process::exit(2);
            }
        }
    }
    println!("{:<22} {:<9} {:>7} {:>12}  shrunk sizes", "bug", "library", "found", "median_cases");
    let vec_bug = |v: &Vec<u8>| v.len() <= 16;
    let str_bug = |s: &String| s.chars().count() <= 16;
    let map_bug = |m: &BTreeMap<u32, u32>| m.len() <= 12;
    let runs = |f: &dyn Fn(u64) -> Option<(u64, usize)>| (1..=seeds).map(f).collect::<Vec<_>>();
    row("Vec<u8> len > 16", "refgen", runs(&|s| ours(s, Vec::len, vec_bug)));
    row("Vec<u8> len > 16", "proptest", runs(&|s| theirs(s, Vec::len, vec_bug)));
    let chars = |s: &String| s.chars().count();
    row("String chars > 16", "refgen", runs(&|s| ours(s, chars, str_bug)));
    row("String chars > 16", "proptest", runs(&|s| theirs(s, chars, str_bug)));
    row("BTreeMap len > 12", "refgen", runs(&|s| ours(s, BTreeMap::len, map_bug)));
    row("BTreeMap len > 12", "proptest", runs(&|s| theirs(s, BTreeMap::len, map_bug)));

    println!();
    println!(
        "median length of the first 20 cases: Vec<u8> {}, String {}",
        first_cases(Vec::<u8>::len),
        first_cases(chars)
    );
    println!();
    println!("{:<28} {:>11} {:>10} {:>9}", "generator", "mean_size", "ns/value", "largest");
    let n = 200_000;
    let show =
        |name: &str, (mean, ns, most): (f64, f64, usize)| println!("{name:<28} {mean:>11.2} {ns:>10.1} {most:>9}");
    show("Vec<u8> (default)", cost(&Vec::<u8>::generator(), Vec::len, n));
    show("vec(u8, 0..=8) (old)", cost(&vec(u8::generator(), 0..=8), Vec::len, n));
    show("String (default)", cost(&String::generator(), |s: &String| s.chars().count(), n));
    show("string(char, 0..=8) (old)", cost(&string(char(), 0..=8), |s: &String| s.chars().count(), n));
    let nested = |v: &Vec<Vec<u8>>| v.iter().map(Vec::len).sum::<usize>() + v.len();
    show("Vec<Vec<u8>> elements", cost(&Vec::<Vec<u8>>::generator(), nested, n));
    show("Rose nodes", cost(&Rose::generator(), rose_size, n / 10));
    show("Rose nodes, len = 0..=8 (old)", cost(&OldRose::generator(), old_rose_size, n / 100));
}

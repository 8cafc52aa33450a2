//! The speed of the whole loop (generate, test, count), three ways side by side: `#[property]`'s
//! defaults, the programmatic API's defaults, and a bare loop of generator and property body with
//! no runner.
//!
//! Run with `cargo run --release -p refgen-benches --bin loop_speed [-- --cases N --repeats R]`.
//!
//! Two properties: a trivial one over a `u64`, and a search tree's insert over the derived
//! binary trees of `refgen_fixtures::workloads` (the key inserted is in the tree after).
//! - `property`: the path the function `#[property(cases = N)]` makes runs (a per-case time
//!   limit of 10 s watched from the calling thread, failures remembered in a regressions
//!   directory, so each case is written to an in-flight file first, the environment read);
//! - `api`: `Property::new(..).check(&Config::new(..).cases(N))` (the limit, no regressions);
//! - `inline`: the same with `Config::no_timeout()` (no per-case limit: no thread watches);
//! - `bare`: `Gen::run_rng` from each case's seed and the property body, in a plain loop.
//!
//! `bst_insert_rl` is the same property under the RL guide (`guide = rl`): every case guided,
//! recorded and learned from, so no fast path; it has no bare line.
//!
//! Last, shrink tries per second under `property`, `api` and `inline` (the shrinker replays
//! each candidate through the same runner): a property over lists of 20 integers that fails
//! when one is at least 900, shrunk to `[900]`, 50 seeds.
//!
//! `--only <case>` (`trivial`, `bst_insert` or `shrink`) and `--mode <mode>` run one case and
//! one mode (to profile it).
//!
//! Every mode runs the same cases (the same seeds make the same values), and counts tests
//! per second of wall-clock time, the best of `R` repeats (the machine may be shared: a
//! repeat that other work slowed is not the one printed).

use refgen::guides::RlGuide;
use refgen::prelude::*;
use refgen::refgen_core::rng_from_seed;
use refgen::runner::case_seed;
use refgen_fixtures::workloads::{bst_keys, AnyBst, Bst};
use std::hint::black_box;
use std::time::Instant;

/// A search tree's insert (keys kept in order; a key already present is not added twice).
fn insert(t: &Bst, x: u8) -> Bst {
    match t {
        Bst::Leaf => Bst::Node(x, Box::new(Bst::Leaf), Box::new(Bst::Leaf)),
        Bst::Node(k, l, r) if x < *k => Bst::Node(*k, Box::new(insert(l, x)), r.clone()),
        Bst::Node(k, l, r) if x > *k => Bst::Node(*k, l.clone(), Box::new(insert(r, x))),
        t => t.clone(),
    }
}

fn bst_gen() -> BoxGen<(AnyBst, u8)> {
    Gen::boxed((AnyBst::generator(), refgen::combinators::int(0u8..=9)))
}

fn bst_prop(v: (AnyBst, u8)) -> bool {
    bst_insert(v);
    true
}

fn trivial(x: u64) -> bool {
    black_box(x).wrapping_mul(2).is_multiple_of(2)
}

fn bst_insert((t, x): (AnyBst, u8)) {
    let mut keys = Vec::new();
    bst_keys(&insert(&t.0, x), &mut keys);
    assert!(keys.contains(&x));
}

/// Runs `prop` in `mode` for `cases` cases (under the RL guide when `name` ends in `_rl`); its
/// tests per second.
fn measure<V: std::fmt::Debug + 'static>(
    name: &str,
    mode: &str,
    cases: u64,
    gen: fn() -> BoxGen<V>,
    prop: fn(V) -> bool,
) -> f64 {
    let guided = |config: Config| if name.ends_with("_rl") { config.guide(RlGuide::default) } else { config };
    let regressions = std::env::temp_dir().join(format!("reflect-loop-speed-{}", std::process::id()));
    let t0 = Instant::now();
    match mode {
        "property" => {
            // What `#[property(cases = N)]` expands to (see `refgen-derive/src/property/expand.rs`).
            let config = Config::new(format!("loop_speed::{name}")).regressions(&regressions).cases(cases);
            let config = guided(config).from_env();
            Property::new(gen, prop).describe(|v: &V| vec![("value".to_owned(), format!("{v:?}"))]).assert(&config);
        }
        "api" | "inline" => {
            let config = guided(Config::new(name).cases(cases));
            let config = if mode == "inline" { config.no_timeout() } else { config };
            let report = Property::new(gen, prop).check(&config).expect("the property holds");
            assert_eq!(report.cases, cases);
        }
        _ => {
            let g = gen();
            let seed = Config::new(name).effective_seed();
            for i in 0..cases {
                let v = g.run_rng(&mut rng_from_seed(case_seed(seed, i))).expect("a value");
                assert!(prop(v));
            }
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&regressions);
    cases as f64 / secs
}

const MODES: [&str; 4] = ["property", "api", "inline", "bare"];

/// Shrink tries per second in `mode` (see the module docs), over `seeds` seeds.
fn shrink_speed(mode: &str, seeds: u64) -> f64 {
    use refgen::combinators::{int, vec};
    let regressions = std::env::temp_dir().join(format!("reflect-loop-speed-shrink-{}", std::process::id()));
    let (mut tries, mut secs) = (0u64, 0.0);
    for seed in 0..seeds {
        let property = Property::new(|| vec(int(0u32..=1000), 20..=20), |xs: Vec<u32>| xs.iter().all(|&x| x < 900));
        let config = Config::new("loop_speed::shrink").seed(seed);
        let config = match mode {
            "property" => config.regressions(&regressions),
            "inline" => config.no_timeout(),
            _ => config,
        };
        let Err(refgen::runner::RunError::Failed(f)) = property.check(&config) else { panic!("the property fails") };
        tries += f.shrink.attempts;
        secs += f.shrink.elapsed.as_secs_f64();
        // The next seed finds its own failure, not this one remembered.
        let _ = std::fs::remove_dir_all(&regressions);
    }
    tries as f64 / secs
}

/// The value given after `--name` on the command line.
fn arg_str(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

fn arg(name: &str, default: u64) -> u64 {
    arg_str(name)
        .map(|v| v.replace('_', "").parse().unwrap_or_else(|_| panic!("{name} takes a number")))
        .unwrap_or(default)
}

/// Whether the command line selects `case` and `mode` (all are selected by default).
fn selected(case: &str, mode: &str) -> bool {
    arg_str("--only").is_none_or(|c| c == case) && arg_str("--mode").is_none_or(|m| m == mode)
}

fn main() {
    let cases = arg("--cases", 200_000);
    let repeats = arg("--repeats", 3).max(1);
    println!("# tests per second, best of {repeats} repeats of {cases} cases each (release build)");
    type Case = (&'static str, u64, fn(&str, &str, u64) -> f64);
    let table: [Case; 3] = [
        ("trivial", cases, |n, m, c| measure(n, m, c, || Gen::boxed(refgen::combinators::any_int::<u64>()), trivial)),
        ("bst_insert", cases / 4, |n, m, c| measure(n, m, c, bst_gen, bst_prop)),
        ("bst_insert_rl", cases / 40, |n, m, c| measure(n, m, c, bst_gen, bst_prop)),
    ];
    for (name, cases, run) in table {
        let mut best = std::collections::BTreeMap::new();
        for _ in 0..repeats {
            // A bare loop has no guide.
            let modes = MODES.into_iter().filter(|m| selected(name, m) && !(name.ends_with("_rl") && *m == "bare"));
            for mode in modes {
                let tps = run(name, mode, cases);
                let b: &mut f64 = best.entry(mode).or_insert(0.0);
                *b = b.max(tps);
            }
        }
        for (mode, tps) in MODES.iter().filter_map(|m| Some((m, best.get(m)?))) {
            println!("case={name} mode={mode} tests_per_sec={tps:.0}");
        }
        if let (Some(bare), Some(property)) = (best.get("bare"), best.get("property")) {
            println!("case={name} property/bare={:.2}x", bare / property);
        }
    }
    for mode in ["property", "api", "inline"].into_iter().filter(|m| selected("shrink", m)) {
        let best = (0..repeats).map(|_| shrink_speed(mode, 50)).fold(0.0, f64::max);
        println!("case=shrink mode={mode} shrink_tries_per_sec={best:.0}");
    }
}

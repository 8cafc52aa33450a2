//! Which guide finds the most distinct valid values when valid inputs are rare: random generation,
//! Choice Gradient Sampling (`cgs`), RLCheck (`rl`, `rl(explore = diverse)`) and mutation (`mutate`),
//! at an equal budget of generator runs, on the example of `CgsGuide`'s docs (sorted lists of digits,
//! by filtering) and on rarer versions of it (longer lists).
//!
//! Run with `cargo run --release -p refgen-benches --bin which_guide [-- --seed S]`. One line per workload, budget
//! and guide:
//!
//! ```text
//! workload=<sorted_N> budget=<runs> guide=<name> valid=<n> unique_valid=<n> ms=<f>
//! ```
//!
//! `sorted_N` is `vec(int(0u8..=9), 0..=N)` filtered to the sorted lists; the docs' example is
//! `sorted_6`. The numbers these lines gave are quoted in the docs of `refgen::guides::cgs`.

use refgen::guides::rl::RlConfig;
use refgen::guides::{CgsGuide, MutateGuide, RandomGuide, RlGuide};
use refgen::prelude::*;
use refgen::refgen_runtime::explore::generate_distinct;
use refgen::refgen_runtime::guide::Guide;
use std::time::Instant;

fn row(workload: &str, budget: usize, seed: u64, name: &str, gen: &impl Gen<Value = Vec<u8>>, guide: &mut dyn Guide) {
    let t = Instant::now();
    let out = generate_distinct(gen, guide, budget, seed);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "workload={workload} budget={budget} guide={name} valid={} unique_valid={} ms={ms:.0}",
        out.valid,
        out.unique_valid.len()
    );
}

fn main() {
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next().and_then(|v| v.parse().ok())) {
            ("--seed", Some(s)) => seed = s,
            _ => {
                eprintln!("usage: which_guide [--seed S]");
                std::process::exit(2);
            }
        }
    }
    for max_len in [6usize, 12, 20] {
        let workload = format!("sorted_{max_len}");
        let g = vec(int(0u8..=9), 0..=max_len).filter(|xs: &Vec<u8>| xs.windows(2).all(|w| w[0] <= w[1])).retries(0);
        for budget in [5_000usize, 100_000] {
            row(&workload, budget, seed, "random", &g, &mut RandomGuide);
            row(&workload, budget, seed, "cgs", &g, &mut CgsGuide::default());
            row(&workload, budget, seed, "rl", &g, &mut RlGuide::default());
            row(&workload, budget, seed, "rl(explore = diverse)", &g, &mut RlGuide::new(RlConfig::diverse()));
            row(&workload, budget, seed, "mutate", &g, &mut MutateGuide::default());
        }
    }
}

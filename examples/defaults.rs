//! What the default generators find, out of the box: a property over
//! `String`s that fails on a space, and a type valid only when sorted.
//!
//! Run with `cargo run --release --example defaults`. Both tables use only
//! the defaults (`Config::new`, the types' own generators, the default
//! guide), over 20 seeds each, so the numbers are deterministic.

use refgen::combinators::vec;
use refgen::prelude::*;
use refgen::runner::RunError;

/// A list the property only cares about when it is sorted.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.is_sorted())]
struct Sorted(#[choice(len = 0..=MAX_LEN)] Vec<u8>);

/// The longest list [`Sorted`] holds.
const MAX_LEN: usize = 12;

/// The same lists, sorted by construction: a list, sorted (see `with` in
/// the derive's docs). Backward, a sorted list is its own pre-image.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.is_sorted())]
struct Built(#[choice(with = vec(u8::generator(), 0..=MAX_LEN).map(sorted, |v: &Vec<u8>| Some(v.clone())))] Vec<u8>);

fn sorted(mut v: Vec<u8>) -> Vec<u8> {
    v.sort();
    v
}

const SEEDS: u64 = 20;

fn main() {
    println!("== a string property that fails on a space: `assert!(!s.contains(' '))` ==");
    println!("cases to failure over {SEEDS} seeds (at most 10000 cases each)");
    let mut found = Vec::new();
    for seed in 0..SEEDS {
        let p = Property::new(String::generator, |s: String| assert!(!s.contains(' ')));
        let config = Config::new("no_space").seed(seed).cases(10_000);
        match p.check(&config) {
            Err(RunError::Failed(f)) => found.push(Some(f.cases + 1)),
            _ => found.push(None),
        }
    }
    let shown: Vec<String> = found.iter().map(|n| n.map_or("-".to_owned(), |n| n.to_string())).collect();
    println!("  per seed: {}", shown.join(" "));
    let hits: Vec<u64> = found.iter().flatten().copied().collect();
    if hits.is_empty() {
        println!("  found by 0 of {SEEDS} seeds");
    } else {
        let mut sorted = hits.clone();
        sorted.sort_unstable();
        println!(
            "  found by {} of {SEEDS} seeds; median {} cases, mean {:.1}, max {}",
            hits.len(),
            sorted[sorted.len() / 2],
            hits.iter().sum::<u64>() as f64 / hits.len() as f64,
            sorted[sorted.len() - 1]
        );
    }

    println!();
    println!("== `#[assume(self.0.is_sorted())] struct Sorted(#[choice(len = 0..=12)] Vec<u8>)`, 500 cases, default guide ==");
    println!(
        "{:>4}  {:>10}  {:>8}  {:>9}  {:<24}  lengths of valid cases (0..=12)",
        "seed", "outcome", "valid", "discarded", "guide"
    );
    let mut lengths = [0u64; MAX_LEN + 1];
    let (mut valid, mut discarded) = (0u64, 0u64);
    for seed in 0..SEEDS {
        let p = Property::new(Sorted::generator, |s: Sorted| {
            label!("{}", s.0.len());
        });
        let config = Config::new("sorted").seed(seed).cases(500);
        // The default run, as a user meets it...
        let outcome = match p.check(&config) {
            Ok(_) => "passed",
            Err(RunError::Vacuous { .. }) => "gave up",
            Err(_) => "failed",
        };
        // ...and the same run allowed to discard as much as it needs, for the distribution.
        let r = p.check(&config.clone().max_discard_ratio(1_000)).expect("passes when it may discard");
        let mut row = [0u64; MAX_LEN + 1];
        for (l, n) in &r.labels {
            let len: usize = l.parse().expect("labels are lengths");
            row[len] += n;
            lengths[len] += n;
        }
        valid += r.cases;
        discarded += r.discards;
        let pct = 100.0 * r.cases as f64 / (r.cases + r.discards) as f64;
        let row: Vec<String> = row.iter().map(|n| format!("{n:>3}")).collect();
        println!("{seed:>4}  {outcome:>10}  {pct:>7.1}%  {:>9}  {:<24}  {}", r.discards, r.guide, row.join(" "));
    }
    summary("filtered", &lengths, valid, discarded);

    println!();
    println!("== the same lists built sorted (`with = vec(..).map(sorted, ..)`), 500 cases, default guide ==");
    let mut lengths = [0u64; MAX_LEN + 1];
    let (mut valid, mut discarded) = (0u64, 0u64);
    for seed in 0..SEEDS {
        let p = Property::new(Built::generator, |s: Built| {
            label!("{}", s.0.len());
        });
        let r = p.check(&Config::new("built").seed(seed).cases(500)).expect("never discarded");
        for (l, n) in &r.labels {
            lengths[l.parse::<usize>().expect("labels are lengths")] += n;
        }
        valid += r.cases;
        discarded += r.discards;
    }
    summary("built", &lengths, valid, discarded);
}

/// One line: the valid rate and the distribution of lengths.
fn summary(what: &str, lengths: &[u64], valid: u64, discarded: u64) {
    let total: u64 = lengths.iter().sum();
    println!(
        "{what}: valid rate {:.1}% ({valid} valid, {discarded} discarded); lengths: {}",
        100.0 * valid as f64 / (valid + discarded) as f64,
        lengths
            .iter()
            .enumerate()
            .map(|(l, n)| format!("{l}: {:.1}%", 100.0 * *n as f64 / total as f64))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

//! `--floor`: what making one value costs, by hand, by the derived generator parsing a valid value's choices, and by random generation.

use refgen::interpret::{generate, generate_recorded, parse_tree, reflect};
use refgen::prelude::*;
use std::time::Instant;

/// The values each way makes.
const VALUES: u64 = 20_000;

/// The cost of a value each way, in µs.
pub struct Floor {
    /// The hand-written generator, per value.
    pub hand: f64,
    /// The derived generator parsing the reflected choices of the hand-written generator's values
    /// (every `#[assume]` checked, no failed attempt), per value.
    pub parse: f64,
    /// How many of those values parsed, of how many.
    pub parsed: (u64, u64),
    /// The derived generator by plain random generation, per valid value (its failed attempts and
    /// discarded runs included).
    pub random: f64,
    /// How many random runs made a valid value, of how many.
    pub valid: (u64, u64),
    /// The synthesized generator, per valid value, how many of its runs made one, and its failed
    /// attempts (a part or an option made again) per run; for a workload with one.
    pub synth: Option<(f64, u64, f64)>,
}

/// The table's title and column heads.
pub fn print_header() {
    println!("\nµs per value of each workload's first property's arguments (seeds 0 to 19,999):");
    println!(
        "{:<5} {:>9} {:>14} {:>15} {:>12} {:>15} {:>9} {:>9} {:>12} {:>14}",
        "", "hand", "derived parse", "parsed", "random", "valid", "synth", "synth/hand", "synth valid", "synth redrawn"
    );
}

impl Floor {
    /// The table's row for workload `name`.
    pub fn print(&self, name: &str) {
        let synth = match self.synth {
            Some((us, valid, redrawn)) => format!("{us:>9.2} {:>9.2}x {valid:>12} {redrawn:>14.4}", us / self.hand),
            None => format!("{:>9} {:>10} {:>12} {:>14}", "-", "-", "-", "-"),
        };
        println!(
            "{name:<5} {:>9.2} {:>14.2} {:>7}/{:<7} {:>12.2} {:>7}/{:<7} {synth}",
            self.hand, self.parse, self.parsed.0, self.parsed.1, self.random, self.valid.0, self.valid.1
        );
    }
}

/// Measures `derived` (and `synth`, if given) against `hand` over [`VALUES`] seeds.
pub fn measure<V>(derived: &BoxGen<V>, hand: &BoxGen<V>, synth: Option<&BoxGen<V>>) -> Floor {
    let per = |t0: Instant, n: u64| 1e6 * t0.elapsed().as_secs_f64() / n.max(1) as f64;
    let t0 = Instant::now();
    let values: Vec<V> = (0..VALUES).filter_map(|seed| generate(hand, seed).ok()).collect();
    let hand_us = per(t0, values.len() as u64);
    let trees: Vec<_> = values.iter().filter_map(|v| reflect(derived, v).into_iter().next()).collect();
    let t0 = Instant::now();
    let parsed = trees.iter().filter(|t| parse_tree(derived, t).is_ok()).count() as u64;
    let parse_us = per(t0, trees.len() as u64);
    let t0 = Instant::now();
    let valid = (0..VALUES).filter(|&seed| generate(derived, seed).is_ok()).count() as u64;
    let random_us = per(t0, valid);
    let synth = synth.map(|s| {
        let t0 = Instant::now();
        let valid = (0..VALUES).filter(|&seed| generate(s, seed).is_ok()).count() as u64;
        let us = per(t0, valid);
        let redrawn: usize = (0..VALUES).map(|seed| generate_recorded(s, seed).1.retry_count()).sum();
        (us, valid, redrawn as f64 / VALUES as f64)
    });
    Floor {
        synth,
        hand: hand_us,
        parse: parse_us,
        parsed: (parsed, values.len() as u64),
        random: random_us,
        valid: (valid, VALUES),
    }
}

//! The sorted `Vec<u8>` of the derive's docs, by `#[assume]` alone: the length distribution of valid lists under each guide.

use super::harness::{setups, Budget, Source};
use refgen::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A sorted list, valid by `#[assume]` only (no `with`).
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.is_sorted())]
pub struct Sorted(pub Vec<u8>);

static LENGTHS: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];

/// Print, per guide, the share of valid lists by length (`0`, `1`, `2`, `3-4`, `5-9`, `10+`), over `budget.trials` runs.
pub fn run(budget: &Budget, setup_ok: &dyn Fn(&str) -> bool) {
    println!("\n== sorted: #[assume(self.0.is_sorted())] struct Sorted(Vec<u8>); valid lists by length, {} runs of at most {} tests or {} s", budget.trials, budget.tests, budget.secs);
    println!(
        "{:<12} {:>9}   {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}   3+",
        "setup", "valid", "0", "1", "2", "3-4", "5-9", "10+"
    );
    for setup in setups().into_iter().filter(|s| s.source == Source::Derived && setup_ok(s.name)) {
        for l in &LENGTHS {
            l.store(0, Ordering::Relaxed);
        }
        for trial in 0..budget.trials {
            let config = Config::new("sorted")
                .seed(budget.seed.wrapping_add(trial))
                .cases(budget.tests)
                .max_time(Duration::from_secs_f64(budget.secs))
                .no_timeout()
                .max_discard_ratio(1 << 24);
            let config = setup.with_guide(config);
            let p = Property::new(Sorted::generator, |s: Sorted| {
                let b = match s.0.len() {
                    0 => 0,
                    1 => 1,
                    2 => 2,
                    3..=4 => 3,
                    5..=9 => 4,
                    _ => 5,
                };
                LENGTHS[b].fetch_add(1, Ordering::Relaxed);
            });
            let _ = p.check(&config);
        }
        let n: Vec<u64> = LENGTHS.iter().map(|l| l.load(Ordering::Relaxed)).collect();
        let valid: u64 = n.iter().sum();
        let pct = |x: u64| 100.0 * x as f64 / valid.max(1) as f64;
        let cells: Vec<String> = n.iter().map(|&x| format!("{:>4.0}%", pct(x))).collect();
        println!("{:<12} {valid:>9}   {}   {:.1}%", setup.name, cells.join(" "), pct(n[3] + n[4] + n[5]));
    }
}

//! Size tables: the valid values' sizes under each guide over whole runs with no bug (a sorted list, an AVL tree).

use super::avl::{size, Avl};
use super::harness::{bucket, setups, Budget, Source, BUCKETS};
use refgen::prelude::*;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A sorted list, valid by `#[assume]` only (no `with`).
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.is_sorted())]
pub struct Sorted(pub Vec<u8>);

static COUNTS: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];

/// The sorted `Vec<u8>` of the derive's docs: valid lists by length (`0`, `1`, `2`, `3-4`, `5-9`, `10+`, and `3+`).
pub fn sorted(budget: &Budget, setup_ok: &dyn Fn(&str) -> bool) {
    let title = "sorted: #[assume(self.0.is_sorted())] struct Sorted(Vec<u8>); valid lists by length";
    let bucket = |s: &Sorted| match s.0.len() {
        0..=2 => s.0.len(),
        3..=4 => 3,
        5..=9 => 4,
        _ => 5,
    };
    table::<Sorted>(title, ["0", "1", "2", "3-4", "5-9", "10+"], "3+", 3, bucket, budget, setup_ok);
}

/// The AVL workload's derived tree on the correct code: valid trees by nodes (`0`, `1-2`, `3-4`, `5-6`, `7-9`, `10+`, and `7+`).
pub fn avl(budget: &Budget, setup_ok: &dyn Fn(&str) -> bool) {
    let title = "avl-sizes: the AVL workload's derived tree, valid trees by nodes";
    table::<Avl>(title, BUCKETS, "7+", 4, |t| bucket(size(t)), budget, setup_ok);
}

/// Print, per guide, the share of valid values in each of six size buckets and in the buckets from
/// `from` on (named `tail`), over `budget.trials` runs of the property that only counts.
fn table<T: Reflective + Debug + Clone + 'static>(
    title: &str,
    labels: [&str; 6],
    tail: &str,
    from: usize,
    bucket: fn(&T) -> usize,
    budget: &Budget,
    setup_ok: &dyn Fn(&str) -> bool,
) {
    println!("\n== {title}, {} runs of at most {} tests or {} s", budget.trials, budget.tests, budget.secs);
    let heads: Vec<String> = labels.iter().map(|l| format!("{l:>5}")).collect();
    println!("{:<16} {:>9}   {}   {tail}", "setup", "valid", heads.join(" "));
    for setup in setups().into_iter().filter(|s| s.source == Source::Derived && setup_ok(s.name)) {
        for c in &COUNTS {
            c.store(0, Ordering::Relaxed);
        }
        for trial in 0..budget.trials {
            let config = Config::new(title.split(':').next().unwrap_or("sizes"))
                .seed(budget.seed.wrapping_add(trial))
                .cases(budget.tests)
                .max_time(Duration::from_secs_f64(budget.secs))
                .no_timeout()
                .max_discard_ratio(1 << 24);
            let config = setup.with_guide(config);
            let p = Property::new(T::generator, move |v: T| {
                COUNTS[bucket(&v)].fetch_add(1, Ordering::Relaxed);
            });
            let _ = p.check(&config);
        }
        let n: Vec<u64> = COUNTS.iter().map(|c| c.load(Ordering::Relaxed)).collect();
        let valid: u64 = n.iter().sum();
        let pct = |x: u64| 100.0 * x as f64 / valid.max(1) as f64;
        let cells: Vec<String> = n.iter().map(|&x| format!("{:>4.0}%", pct(x))).collect();
        println!("{:<16} {valid:>9}   {}   {:.1}%", setup.name, cells.join(" "), pct(n[from..].iter().sum()));
    }
}

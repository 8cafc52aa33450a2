//! The cost of a case under each guide: microseconds per case, the whole loop (generate, test, feedback),
//! on a trivial property, so the guide's own work is what is measured.
//!
//! Run with `cargo run --release -p refgen-benches --bin guide_cost [-- --cases N --repeats R]`. Two workloads: lists
//! of up to 20 bytes, and the derived binary search trees of `refgen_fixtures::workloads` (`AnyBst`,
//! every shape). Each guide runs `N` cases (default 20 000) through `Property::check` with no per-case
//! time limit; the best of `R` repeats (default 3) is printed, one line per guide and workload:
//!
//! ```text
//! workload=<lists|bst> guide=<name> us_per_case=<f>
//! ```

use refgen::guides::{CgsGuide, MutateConfig, MutateGuide, RandomGuide, RlGuide, SaGuide};
use refgen::prelude::*;
use refgen::refgen_runtime::guide::Guide;
use refgen_fixtures::workloads::AnyBst;
use std::fmt::Debug;
use std::time::Instant;

/// Microseconds per case of `cases` cases of a property that always passes, under the guide `make` makes.
fn per_case<V: Clone + Debug + 'static, G: Guide + 'static>(
    gen: fn() -> BoxGen<V>,
    make: impl Fn() -> G + Send + Sync + 'static,
    cases: u64,
    repeats: u32,
) -> f64 {
    let p = Property::new(gen, |_: V| ());
    let config = Config::new("guide_cost").cases(cases).seed(1).no_timeout().guide(make);
    (0..repeats)
        .map(|_| {
            let t = Instant::now();
            let report = p.check(&config).expect("the property passes");
            assert_eq!(report.cases, cases);
            t.elapsed().as_secs_f64() * 1e6 / cases as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn lists() -> BoxGen<Vec<u8>> {
    vec(int(0u8..=255), 0..=20).boxed()
}

fn bsts() -> BoxGen<AnyBst> {
    AnyBst::generator()
}

fn rows<V: Clone + Debug + 'static>(workload: &str, gen: fn() -> BoxGen<V>, cases: u64, repeats: u32) {
    let row = |guide: &str, us: f64| println!("workload={workload} guide={guide} us_per_case={us:.2}");
    row("random", per_case(gen, || RandomGuide, cases, repeats));
    row("auto", per_case(gen, refgen::guides::AutoGuide::default, cases, repeats));
    row("rl", per_case(gen, RlGuide::default, cases, repeats));
    row("sa", per_case(gen, SaGuide::default, cases, repeats));
    row("cgs", per_case(gen, CgsGuide::default, cases / 10, repeats));
    row(
        "mutate(corpus = 64)",
        per_case(gen, || MutateGuide::new(MutateConfig::default().corpus_size(64)), cases, repeats),
    );
    row("mutate", per_case(gen, MutateGuide::default, cases, repeats));
}

fn main() {
    let (mut cases, mut repeats) = (20_000u64, 3u32);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), value) {
            ("--cases", Some(n)) => cases = n.max(10),
            ("--repeats", Some(n)) => repeats = n.max(1) as u32,
            _ => {
                eprintln!("usage: guide_cost [--cases N] [--repeats R]");
                std::process::exit(2);
            }
        }
    }
    if std::env::var_os("GUIDE_COST_ONLY_MUTATE").is_some() {
        // For a profiler: the default mutational guide alone.
        println!("{:.2}", per_case(bsts, MutateGuide::default, cases, repeats));
        return;
    }
    rows("lists", lists, cases, repeats);
    rows("bst", bsts, cases, repeats);
}

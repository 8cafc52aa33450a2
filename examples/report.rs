//! HTML reports of one property under every guide, and the page comparing them.
//!
//! Run with `cargo run --release --example report`. The property: a sorted
//! list of digits (the generator's validity condition keeps only sorted
//! lists, so most random lists are discarded) holds each of its elements
//! where `binary_search` finds it; each case is labelled by its length and
//! reports its length as a utility (which simulated annealing maximizes).
//!
//! It runs the property under `Random`, RLCheck (`rl`, and `rl` with the
//! `diverse` exploration), Choice Gradient Sampling (`cgs`) and simulated
//! annealing (`sa`), each writing its observation lines and its HTML report
//! into `target/reflect-report/`, then writes `target/reflect-report/compare.html`
//! from the lines, and prints the table the comparison page opens with.
//! Last, it times one run without and with a report.

use refgen::combinators::{int, vec};
use refgen::guides::{CgsGuide, RandomGuide, RlConfig, RlGuide, SaGuide};
use refgen::html::{self, read_runs};
use refgen::prelude::*;
use std::path::PathBuf;

/// Sorted lists of up to 8 digits: the generator makes any list, its validity condition keeps the sorted ones.
fn sorted_digits() -> impl Gen<Value = Vec<u8>> {
    vec(int(0u8..=9).site("digit"), 0..=8).filter(|xs: &Vec<u8>| xs.windows(2).all(|w| w[0] <= w[1]))
}

/// Every element of a sorted list is where `binary_search` finds one equal to it.
fn found(xs: Vec<u8>) {
    label!("length {}", xs.len());
    classify!(xs.windows(2).any(|w| w[0] == w[1]), "has duplicates");
    target!(xs.len() as f64);
    for x in &xs {
        let i = xs.binary_search(x).expect("a sorted list's element is found");
        assert_eq!(xs[i], *x);
    }
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/reflect-report");
    let lines = dir.join("sorted_digits.jsonl");
    // The lines are appended to: start afresh so the page shows this run's runs.
    let _ = std::fs::remove_file(&lines);
    let cases = 1000;
    let config = || Config::new("report::sorted_digits").cases(cases).seed(1).observability(&lines).report(&dir);
    let configs = [
        config().guide(|| RandomGuide),
        config().guide(RlGuide::default),
        config().guide(|| RlGuide::new(RlConfig::diverse())),
        config().guide(CgsGuide::default),
        config().guide(SaGuide::default),
    ];
    let property = Property::new(sorted_digits, found);
    for c in &configs {
        if let Err(e) = property.check(c) {
            eprintln!("{e}");
        }
    }
    let compare = dir.join("compare.html");
    if let Err(e) = html::write_compare(std::slice::from_ref(&lines), &compare) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    let text = std::fs::read_to_string(&lines).expect("the observation lines");
    let runs = read_runs(&text).expect("lines the runs wrote");
    println!("`report::sorted_digits`, {cases} valid cases wanted, seed 1:");
    println!(
        "{:<26} {:>7} {:>7} {:>10} {:>15} {:>13} {:>13}",
        "guide", "cases", "valid", "valid rate", "distinct valid", "best utility", "mean choices"
    );
    for run in &runs {
        let s = run.summary();
        println!(
            "{:<26} {:>7} {:>7} {:>9.1}% {:>15} {:>13} {:>13.1}",
            run.guide,
            s.cases,
            s.valid,
            100.0 * s.valid as f64 / s.cases.max(1) as f64,
            s.distinct_valid,
            s.best_utility.map_or("-".to_owned(), |u| u.to_string()),
            s.mean_size
        );
    }
    println!("\nreports:");
    for run in &runs {
        println!("  {}", dir.join(html::report_file_name(&run.property, &run.guide)).display());
    }
    println!("comparison: {}", compare.display());

    // What keeping the cases for a report costs: the same run without and with one.
    let many = 20_000;
    let timed = |c: Config| {
        let t = std::time::Instant::now();
        property.check(&c.cases(many).seed(2)).expect("the property holds");
        t.elapsed()
    };
    let plain = timed(Config::new("report::cost"));
    let reported = timed(Config::new("report::cost").report(std::env::temp_dir().join("reflect-report-cost")));
    println!(
        "\n{many} valid cases under Random: {:.0} ms without a report, {:.0} ms with one",
        plain.as_secs_f64() * 1e3,
        reported.as_secs_f64() * 1e3
    );
}

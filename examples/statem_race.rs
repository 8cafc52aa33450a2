//! The parallel mode on a counter with a planted race: found in 10 seeds, shrunk to a command or two per thread.
//!
//! Run with `cargo run --release --example statem_race`. Every sequential
//! run of the counter agrees with its model; the parallel mode runs a
//! prefix, then two branches on threads, and finds that no interleaving of
//! what the threads saw is allowed by the model.

use refgen::prelude::*;
use refgen::runner::RunError;
use refgen::statem::{check_parallel, check_state_machine, parallel_property};
use refgen_fixtures::statem_models::RacyMachine;

const CASES: u64 = 10_000;

fn main() {
    let sequential = check_state_machine(RacyMachine, &Config::new("statem_race::sequential").seed(1).cases(CASES));
    println!(
        "sequential mode, {CASES} cases: {}",
        if sequential.is_ok() { "passed (the race is invisible)" } else { "failed" }
    );
    println!();
    println!("parallel mode, {CASES} cases per seed:");
    println!("{:<6}{:>8}{:>10}{:>22}{:>12}{:>8}", "seed", "found", "tests", "commands per thread", "shrink", "flaky");
    let mut found = 0;
    let mut small = 0;
    let mut last = None;
    for seed in 1..=10u64 {
        let config = Config::new(format!("statem_race::s{seed}")).seed(seed).cases(CASES);
        match check_parallel(RacyMachine, &config) {
            Err(RunError::Failed(f)) => {
                let value = parallel_property(RacyMachine).value_of(&f).expect("the shrunk case parses");
                let per_thread: Vec<usize> = value.branches().iter().map(Vec::len).collect();
                let longest = per_thread.iter().copied().max().unwrap_or(0);
                found += 1;
                small += usize::from(longest <= 2);
                println!(
                    "{seed:<6}{:>8}{:>10}{:>22}{:>12}{:>8}",
                    "yes",
                    f.tests,
                    format!("{per_thread:?} (+{} prefix)", value.prefix().len()),
                    format!("{:.1?}", f.shrink.elapsed),
                    if f.flaky { "yes" } else { "no" }
                );
                last = Some(f);
            }
            Ok(_) => println!("{seed:<6}{:>8}", "no"),
            Err(e) => panic!("{e}"),
        }
    }
    println!("found in {found}/10 seeds; shrunk to at most 2 commands per thread in {small}/{found}");
    if let Some(f) = last {
        println!();
        print!("{f}");
    }
}

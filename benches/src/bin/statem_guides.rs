//! Guides on command sequences: a counter bug past 20 that random sequences miss, found by rl, sa and mutate, over 10 seeds.
//!
//! Run with `cargo run --release -p refgen-benches --bin statem_guides [-- --seeds N]`. Each cell is the
//! number of tests to the first failure within 10,000 cases (`-` when the
//! run passed). `auto` is the default guide (on a state machine, it shares
//! the cases with `rl`, rewarded for new model states). Then the default
//! guide against random generation on the key-value store and the bank
//! account of the fixtures, whose bugs random sequences find. `rl` (RLCheck's configuration) and `rl diverse` (its
//! softmax policy with forgetting, `RlConfig::diverse()`) are rewarded for sequences reaching a new model state
//! (the state machine property keys its values by the state they reach);
//! `sa` maximizes the counter's model value (`maximize!`) over neighbours
//! made by editing choice trees (a new command made as the generator makes one); `mutate` keeps a
//! corpus of sequences that reached new states and mutates them.

use refgen::guides::{AutoGuide, MutateGuide, RandomGuide, RlConfig, RlGuide, SaConfig, SaGuide};
use refgen::prelude::*;
use refgen::runner::RunError;
use refgen::statem::{state_machine_property, Commands, StateMachine};
use refgen_fixtures::statem_models::{BankMachine, CounterMachine, KvMachine};

const CASES: u64 = 10_000;
/// Seeds per row: 10, or `--seeds N`.
fn seeds() -> u64 {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == "--seeds") {
        Some(i) => args.get(i + 1).and_then(|n| n.parse().ok()).expect("--seeds N"),
        None => 10,
    }
}

/// Tests to the first failure of one run of `M`'s property under `random` or `auto`, or `None` when it passed.
fn run_on<M: StateMachine + Default + Send + Sync>(guide: &str, seed: u64) -> Option<u64> {
    let config = Config::new(format!("statem_guides::{guide}")).seed(seed).cases(CASES).no_timeout();
    let config = match guide {
        "random" => config.guide(|| RandomGuide),
        _ => config.guide(AutoGuide::default),
    };
    match state_machine_property(M::default()).check(&config) {
        Err(RunError::Failed(f)) => Some(f.tests),
        Ok(_) => None,
        Err(e) => panic!("{e}"),
    }
}

/// Tests to the first failure of one run, or `None` when it passed.
fn run(guide: &str, seed: u64) -> Option<u64> {
    let config = Config::new(format!("statem_guides::{guide}")).seed(seed).cases(CASES).no_timeout();
    let config = match guide {
        "auto" => return run_on::<CounterMachine>(guide, seed),
        "random" => config.guide(|| RandomGuide),
        "rl" => config.guide(RlGuide::default),
        "rl diverse" => config.guide(|| RlGuide::new(RlConfig::diverse())),
        "sa" => config.guide(|| SaGuide::new(SaConfig::default())),
        _ => config.guide(MutateGuide::default),
    };
    // The state machine's own property, and for sa one that also reports the model's counter.
    let result = if guide.starts_with("sa") {
        Property::new(Commands::<CounterMachine>::generator, |c: Commands<CounterMachine>| {
            maximize!(c.final_state());
            c.check()
        })
        .check(&config)
    } else {
        state_machine_property(CounterMachine).check(&config)
    };
    match result {
        Err(RunError::Failed(f)) => Some(f.tests),
        Ok(_) => None,
        Err(e) => panic!("{e}"),
    }
}

/// One row: the tests to the first failure per seed, and how many seeds found it.
fn row(guide: &str, run: impl Fn(&str, u64) -> Option<u64>) {
    print!("{guide:<12}");
    let mut found = 0;
    let mut tests = Vec::new();
    for s in 1..=seeds() {
        match run(guide, s) {
            Some(t) => {
                found += 1;
                tests.push(t);
                print!("{t:>7}");
            }
            None => print!("{:>7}", "-"),
        }
    }
    tests.sort_unstable();
    let median = tests.get(tests.len() / 2).map_or("-".to_owned(), u64::to_string);
    println!("{:>8} {median:>7}", format!("{found}/{}", seeds()));
}

fn header(title: &str) {
    println!("{title}: tests to the first failure in {CASES} cases, per seed");
    print!("{:<12}", "guide");
    for s in 1..=seeds() {
        print!("{:>7}", format!("s{s}"));
    }
    println!("{:>8} {:>7}", "found", "median");
}

fn main() {
    header("counter bug past 20");
    for guide in ["random", "auto", "rl", "rl diverse", "sa", "mutate"] {
        row(guide, run);
    }
    for (title, run) in [
        ("key-value store", run_on::<KvMachine> as fn(&str, u64) -> Option<u64>),
        ("bank account", run_on::<BankMachine>),
    ] {
        println!();
        header(title);
        for guide in ["random", "auto"] {
            row(guide, run);
        }
    }
}
